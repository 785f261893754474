//! The per-ply target sidecar `perply_targets.npz` (the format: crates/corpus/README.md).
//!
//! Four arrays aligned to the corpus rows, slots newest-first (slot 0 is the game's
//! last ply): `target` (N,S,7) float32, `ply_of` (N,S) int16 (-1 when empty),
//! `teacher` (N,S) int8 (0 none, 1 bounded exact, 2 alpha-beta, 3 exact) and
//! `n_plies` (N,) int16. In memory a row is kept compactly as [`SlotLabel`]s (a ply,
//! a flag and a 7-bit column mask whose mass is spread evenly), and every array is
//! streamed to and from disk, so memory stays at about 4 bytes per slot.
//!
//! Every array read is read to the end of its member, so the member's CRC-32 is
//! checked (see [`crate::npz::MemberReader`]); a reader of only some target rows calls
//! [`TargetRows::finish`].

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use npyz::{DType, NpyFile};

use crate::error::SidecarError;
use crate::npy_header::{self, HeaderError};
use crate::npz::{io_at, MemberReader, NpzReader};

mod read;
mod write;
use read::{read_all, room_for};
use write::write_arrays;
pub use write::write_sidecar;

/// Slots per row unless configured otherwise.
pub const DEFAULT_SLOTS: usize = 19;
/// Teacher flag: no label at this slot.
pub const FLAG_NONE: u8 = 0;
/// Teacher flag: bounded exact solver (<= 7 empty cells, all best moves).
pub const FLAG_BOUNDED: u8 = 1;
/// Teacher flag: alpha-beta search teacher (one move, one-hot).
pub const FLAG_ALPHABETA: u8 = 2;
/// Teacher flag: full exact solver (all best moves).
pub const FLAG_EXACT: u8 = 3;
/// The target masses are whole multiples of this, 2^-19 (see [`SlotLabel::target`]): a
/// row's sum, at most 19 slots of 1, stays below 2^5, that is 2^24 units, so every
/// partial sum is exact in float32.
pub const MASS_UNIT: f32 = 1.0 / (1u32 << 19) as f32;
/// A labelled slot's mass in [`MASS_UNIT`]s.
const UNITS_PER_SLOT: u32 = 1 << 19;
/// How far a flag-1 or flag-3 mass may lie from [`SlotLabel::target`]'s: two units, so a
/// sidecar whose masses are float32's nearest `1 / k` (as numpy writes `1/3`, and as
/// this crate wrote before masses came in units) reads as evenly spread too.
pub const EVEN_TOLERANCE: f32 = 2.0 * MASS_UNIT;
/// The array names, in the order they are written.
pub const ARRAYS: [&str; 4] = ["target", "ply_of", "teacher", "n_plies"];

/// One slot: the absolute ply it labels (-1 when empty), the teacher flag and the set
/// of target columns (bit x = column x), whose mass is spread evenly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SlotLabel {
    /// Absolute ply index, -1 for an empty slot.
    pub ply: i16,
    /// Teacher flag (0..=3).
    pub flag: u8,
    /// Target columns as a 7-bit mask.
    pub mask: u8,
}

impl SlotLabel {
    /// The empty slot.
    pub const EMPTY: SlotLabel = SlotLabel {
        ply: -1,
        flag: FLAG_NONE,
        mask: 0,
    };

    /// The columns carrying mass in a slot's 7 target masses, as a mask (the inverse of
    /// [`SlotLabel::target`] on evenly spread targets).
    pub fn mask_of_target(t: &[f32]) -> u8 {
        (0..7).filter(|&x| t[x] > 0.0).fold(0u8, |m, x| m | 1 << x)
    }

    /// The slot's 7 target masses: about `1 / k` on each of its `k` columns, in whole
    /// [`MASS_UNIT`]s that sum to exactly 1 (the lowest columns take the units left
    /// over, one each).
    ///
    /// Why units: `1 / 3` is no float32, and three float32 thirds in a row of 19 slots
    /// summed to 19.000002, so the invariant `target.sum(axis=(1,2)) == (ply_of >=
    /// 0).sum(axis=1)` failed as written. Every sum of whole units below 32 is a float32,
    /// so with units the invariant and each slot's sum of 1 hold exactly, in float32 or
    /// float64, in any order of summation; a mass differs from `1 / k` by under a unit.
    pub fn target(&self) -> [f32; 7] {
        let k = self.mask.count_ones();
        let mut t = [0f32; 7];
        if let Some(each) = UNITS_PER_SLOT.checked_div(k) {
            let left = UNITS_PER_SLOT - each * k;
            let columns = (0..7).filter(|x| self.mask & (1 << x) != 0);
            for (i, x) in columns.enumerate() {
                let units = each + u32::from((i as u32) < left);
                // (exact: units < 2^24)
                t[x] = units as f32 * MASS_UNIT;
            }
        }
        t
    }
}

/// Compact labels of many rows: `slots` [`SlotLabel`]s per row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labels {
    slots: usize,
    data: Vec<SlotLabel>,
}

impl Labels {
    /// No rows yet, `slots` slots per row.
    pub fn new(slots: usize) -> Labels {
        Labels {
            slots,
            data: Vec::new(),
        }
    }

    /// Slots per row.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.data.len().checked_div(self.slots).unwrap_or(0)
    }

    /// True when there is no row.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Appends a row; missing slots are empty. Panics when `row` has too many slots.
    pub fn push_row(&mut self, row: &[SlotLabel]) {
        assert!(
            row.len() <= self.slots,
            "a row has at most {} slots",
            self.slots
        );
        self.data.extend_from_slice(row);
        self.data.extend(std::iter::repeat_n(
            SlotLabel::EMPTY,
            self.slots - row.len(),
        ));
    }

    /// Appends every row of `other` (same slot count).
    pub fn extend(&mut self, other: &Labels) {
        assert_eq!(self.slots, other.slots, "slot counts differ");
        self.data.extend_from_slice(&other.data);
    }

    /// The slots of row `i`.
    pub fn row(&self, i: usize) -> &[SlotLabel] {
        &self.data[i * self.slots..(i + 1) * self.slots]
    }

    /// The rows in order.
    pub fn rows(&self) -> impl Iterator<Item = &[SlotLabel]> {
        self.data.chunks(self.slots.max(1))
    }
}

/// An opened sidecar: shapes and dtypes checked, the small arrays loaded, and the
/// `target` array left on disk to be streamed row by row with [`Sidecar::targets`].
pub struct Sidecar {
    /// The file.
    pub path: PathBuf,
    /// Number of rows N.
    pub rows: usize,
    /// Slots per row S.
    pub slots: usize,
    /// `ply_of`, flattened (N*S).
    pub ply_of: Vec<i16>,
    /// `teacher`, flattened (N*S).
    pub teacher: Vec<i8>,
    /// `n_plies` (N).
    pub n_plies: Vec<i16>,
    archive: NpzReader,
}

fn type_str(dtype: &DType) -> String {
    match dtype {
        DType::Plain(ts) => ts.to_string(),
        other => format!("{other:?}"),
    }
}

impl Sidecar {
    fn array(&self, name: &'static str) -> Result<NpyFile<MemberReader>, SidecarError> {
        Ok(open_array(&self.archive, &self.path, name)?.0)
    }

    /// Opens `path` and checks the four arrays' names, dtypes and shapes.
    pub fn open(path: &Path) -> Result<Sidecar, SidecarError> {
        let archive = NpzReader::open(path)?;
        let bad = |name: &str, reason: String| SidecarError::Array {
            path: path.to_path_buf(),
            name: name.to_string(),
            reason,
        };
        let check = |f: &NpyFile<MemberReader>, name: &str, want: &[&str]| {
            let t = type_str(&f.dtype());
            if f.order() != npyz::Order::C {
                // read in C order it would come back transposed
                Err(bad(
                    name,
                    "stored in Fortran order; save it in C order (numpy's default)".into(),
                ))
            } else if want.contains(&t.as_str()) {
                Ok(f.shape().to_vec())
            } else {
                Err(bad(name, format!("dtype {t}, expected {}", want[0])))
            }
        };
        let (target, target_header) = open_array(&archive, path, "target")?;
        let tshape = check(&target, "target", &["<f4"])?;
        if tshape.len() != 3 || tshape[2] != 7 {
            return Err(bad(
                "target",
                format!("shape {tshape:?}, expected (N, S, 7)"),
            ));
        }
        if !(1..=42).contains(&tshape[1]) {
            // a slot is a ply of one game, so S is at most 42; a larger S in a damaged
            // header would otherwise size the row buffer from it
            return Err(bad(
                "target",
                format!(
                    "shape {tshape:?}: S = {} slots, expected 1 to 42",
                    tshape[1]
                ),
            ));
        }
        let (n, s) = match usize::try_from(tshape[0]) {
            Ok(n) if n.checked_mul(tshape[1] as usize * 7 * 4).is_some() => (n, tshape[1] as usize),
            _ => {
                return Err(bad(
                    "target",
                    format!("shape {tshape:?}: more rows than this machine can address"),
                ))
            }
        };
        let (ply, ply_header) = open_array(&archive, path, "ply_of")?;
        let pshape = check(&ply, "ply_of", &["<i2"])?;
        let (teacher, teacher_header) = open_array(&archive, path, "teacher")?;
        let fshape = check(&teacher, "teacher", &["|i1", "<i1"])?;
        let (np, np_header) = open_array(&archive, path, "n_plies")?;
        let nshape = check(&np, "n_plies", &["<i2"])?;
        let want2 = vec![n as u64, s as u64];
        for (name, shape) in [("ply_of", &pshape), ("teacher", &fshape)] {
            if *shape != want2 {
                return Err(bad(name, format!("shape {shape:?}, expected {want2:?}")));
            }
        }
        if nshape != [n as u64] {
            return Err(bad("n_plies", format!("shape {nshape:?}, expected [{n}]")));
        }
        // the shapes size the arrays read into memory below: a header that claims more
        // values than its member holds is refused before anything is allocated; and a
        // member holding more than its shape (numpy.load reads the shape's values and
        // passes over the rest, so a row can be there unseen) is refused too (the size
        // recorded in the directory is checked as each member is read)
        for (name, per_row, header) in [
            ("target", s * 7 * 4, target_header),
            ("ply_of", s * 2, ply_header),
            ("teacher", s, teacher_header),
            ("n_plies", 2, np_header),
        ] {
            let need = n as u64 * per_row as u64;
            let held = archive
                .members()
                .iter()
                .find(|m| m.name == format!("{name}.npy"))
                .map_or(0, |m| m.size())
                .saturating_sub(header);
            if need > held {
                return Err(bad(
                    name,
                    format!("its shape needs {need} bytes of data, the member holds {held}"),
                ));
            }
            if need < held {
                return Err(bad(
                    name,
                    format!(
                        "the member holds {} bytes past the {need} of data its shape needs, which numpy.load passes over unread; write the sidecar again",
                        held - need
                    ),
                ));
            }
        }
        // `target` was read only up to its header: its data is checked by `targets`
        drop(target);
        // (the room for all three first: an array too large is refused before any is read)
        let rooms = (
            room_for::<i16>(&ply, path, "ply_of")?,
            room_for::<i8>(&teacher, path, "teacher")?,
            room_for::<i16>(&np, path, "n_plies")?,
        );
        Ok(Sidecar {
            path: path.to_path_buf(),
            rows: n,
            slots: s,
            ply_of: read_all(ply, rooms.0, path, "ply_of")?,
            teacher: read_all(teacher, rooms.1, path, "teacher")?,
            n_plies: read_all(np, rooms.2, path, "n_plies")?,
            archive,
        })
    }

    /// Streams `target` one row (S*7 values) at a time. The member's CRC-32 is checked
    /// when reading reaches the end of its data, at the latest with the last row (whose
    /// error then comes instead of it); a caller that stops early calls
    /// [`TargetRows::finish`].
    pub fn targets(&self) -> Result<TargetRows, SidecarError> {
        let f = self.array("target")?;
        let (t, shape) = (type_str(&f.dtype()), f.shape());
        let want = [self.rows as u64, self.slots as u64, 7];
        if t != "<f4" || shape != want {
            return Err(SidecarError::Array {
                path: self.path.clone(),
                name: "target".into(),
                reason: format!("dtype {t}, shape {shape:?}; it was <f4, {want:?} when opened"),
            });
        }
        Ok(TargetRows {
            path: self.path.clone(),
            data: f.into_inner(),
            buf: vec![0; self.slots * 7 * 4],
            left: self.rows,
            ended: false,
        })
    }

    /// The archive's members besides the four arrays, one line each (an archive naming
    /// a member twice is refused as it opens).
    pub fn stray_members(&self) -> Vec<String> {
        let arrays = ["target.npy", "ply_of.npy", "teacher.npy", "n_plies.npy"];
        (self.archive.members().iter())
            .filter(|m| !arrays.contains(&m.name.as_str()))
            .map(|m| format!(
                "{}: member {:?} is no array of a sidecar (target, ply_of, teacher, n_plies); keep other data in another file",
                self.path.display(),
                m.name
            ))
            .collect()
    }

    /// Row `i`'s `ply_of` values.
    pub fn ply_row(&self, i: usize) -> &[i16] {
        &self.ply_of[i * self.slots..(i + 1) * self.slots]
    }

    /// Row `i`'s teacher flags.
    pub fn teacher_row(&self, i: usize) -> &[i8] {
        &self.teacher[i * self.slots..(i + 1) * self.slots]
    }
}

/// The array `name` opened at its data, and its header's length in bytes.
fn open_array(
    archive: &NpzReader,
    path: &Path,
    name: &'static str,
) -> Result<(NpyFile<MemberReader>, u64), SidecarError> {
    let r = archive.member(&format!("{name}.npy"))?.ok_or_else(|| {
        let names: Vec<String> = archive
            .members()
            .iter()
            .map(|m| format!("{:?}", m.name))
            .collect();
        SidecarError::Missing {
            path: path.to_path_buf(),
            name,
            held: if names.is_empty() {
                "no member".to_string()
            } else {
                names.join(", ")
            },
        }
    })?;
    let mut r = r;
    let bad = |reason: String| SidecarError::Array {
        path: path.to_path_buf(),
        name: name.to_string(),
        reason,
    };
    match npy_header::read(&mut r) {
        Ok((header, length)) => Ok((NpyFile::with_header(header, r), length)),
        // a damaged member can be found while its header is read: that error stands
        Err(HeaderError::Io(e)) => Err(io_at(path)(e)),
        Err(HeaderError::Short) => Err(bad(
            "ends inside its header: the file is cut short or damaged; write the sidecar again"
                .into(),
        )),
        Err(HeaderError::Refused(why)) => {
            Err(bad(format!("not a .npy array numpy.load reads: {why}")))
        }
    }
}

/// Rows of the `target` array (little-endian float32), read lazily.
pub struct TargetRows {
    path: PathBuf,
    data: MemberReader,
    /// One row's bytes (S*7 float32).
    buf: Vec<u8>,
    left: usize,
    /// The end of the member has been checked (or its error given) after the last row.
    ended: bool,
}

impl TargetRows {
    /// Reads the rest of the `target` member without decoding it, so that its CRC-32 is
    /// checked when the caller stops before the last row. No rows follow.
    pub fn finish(&mut self) -> Result<(), SidecarError> {
        self.left = 0;
        self.ended = true;
        self.data.finish()
    }

    /// After the last row, once: checks the rest of the member.
    fn end(&mut self) -> Result<(), SidecarError> {
        if std::mem::replace(&mut self.ended, true) {
            return Ok(());
        }
        self.data.finish()
    }
}

impl Iterator for TargetRows {
    type Item = Result<Vec<f32>, SidecarError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return self.end().err().map(Err);
        }
        self.left -= 1;
        if let Err(e) = self.data.read_exact(&mut self.buf) {
            return Some(Err(match e.kind() {
                io::ErrorKind::UnexpectedEof => SidecarError::Array {
                    path: self.path.clone(),
                    name: "target".into(),
                    reason: "ends early: the file is cut short or damaged; write the sidecar again"
                        .into(),
                },
                _ => io_at(&self.path)(e),
            }));
        }
        let row = self
            .buf
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if self.left == 0 {
            if let Err(e) = self.end() {
                return Some(Err(e));
            }
        }
        Some(Ok(row))
    }
}

/// Reads a sidecar into compact labels; fails on a target that is not spread evenly
/// over its columns (such a sidecar is still checked by the gate, but not rewritten).
pub fn read_labels(path: &Path) -> Result<Labels, SidecarError> {
    let sc = Sidecar::open(path)?;
    let mut labels = Labels::new(sc.slots);
    let mut row_buf = Vec::with_capacity(sc.slots);
    for (i, t) in sc.targets()?.enumerate() {
        let t = t?;
        row_buf.clear();
        for s in 0..sc.slots {
            let v = &t[s * 7..s * 7 + 7];
            let bad = |reason: String| SidecarError::Value {
                path: path.to_path_buf(),
                row: i,
                slot: s,
                reason,
            };
            let flag = sc.teacher[i * sc.slots + s];
            let flag = u8::try_from(flag)
                .ok()
                .filter(|&f| f <= FLAG_EXACT)
                .ok_or_else(|| bad(format!("teacher flag {flag} is not one of 0-3")))?;
            if v.iter().any(|x| !x.is_finite()) {
                return Err(bad(format!(
                    "target {v:?} holds a value that is not a number"
                )));
            }
            let mask = SlotLabel::mask_of_target(v);
            let l = SlotLabel {
                ply: sc.ply_of[i * sc.slots + s],
                flag,
                mask,
            };
            let want = l.target();
            if v.iter()
                .zip(want)
                .any(|(a, b)| (a - b).abs() > EVEN_TOLERANCE)
            {
                return Err(bad(format!(
                    "target {v:?} is not spread evenly over its columns"
                )));
            }
            row_buf.push(l);
        }
        labels.push_row(&row_buf);
    }
    Ok(labels)
}

/// All four arrays in memory, values as stored (for tools and tests; a 320k-row
/// sidecar takes about 200 MB this way, so the gate streams instead).
#[derive(Debug, Clone, PartialEq)]
pub struct RawArrays {
    /// Rows N.
    pub rows: usize,
    /// Slots S.
    pub slots: usize,
    /// `target`, flattened (N*S*7).
    pub target: Vec<f32>,
    /// `ply_of`, flattened (N*S).
    pub ply_of: Vec<i16>,
    /// `teacher`, flattened (N*S).
    pub teacher: Vec<i8>,
    /// `n_plies` (N).
    pub n_plies: Vec<i16>,
}

impl RawArrays {
    /// Loads every array of a sidecar.
    pub fn read(path: &Path) -> Result<RawArrays, SidecarError> {
        let sc = Sidecar::open(path)?;
        let shape = [sc.rows as u64, sc.slots as u64, 7];
        let mut target = read::room::<f32>(&shape).ok_or_else(|| SidecarError::Array {
            path: path.to_path_buf(),
            name: "target".into(),
            reason: format!("its shape {shape:?} needs more memory than this machine gives now"),
        })?;
        for row in sc.targets()? {
            target.extend(row?);
        }
        Ok(RawArrays {
            rows: sc.rows,
            slots: sc.slots,
            target,
            ply_of: sc.ply_of,
            teacher: sc.teacher,
            n_plies: sc.n_plies,
        })
    }

    /// Writes the arrays as they are (no check), with shapes from `rows` and `slots`.
    pub fn write(&self, path: &Path) -> Result<(), SidecarError> {
        write_arrays(
            path,
            (self.rows as u64, self.slots as u64),
            self.target.iter().copied(),
            self.ply_of.iter().copied(),
            self.teacher.iter().copied(),
            self.n_plies.iter().copied(),
        )
    }
}
