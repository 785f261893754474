//! The sidecar's `.npz` container: bit-exact round trips, and typed errors (never a
//! panic, never a silently wrong value) on truncated or damaged archives.

mod common;

use std::io::{Read, Write};
use std::ops::Range;
use std::path::Path;
use std::process::Command;

use c4lab_corpus::gate::{check, Kind};
use c4lab_corpus::npz::{NpzReader, NpzWriter};
use c4lab_corpus::sidecar::{read_labels, write_sidecar, RawArrays, Sidecar};
use c4lab_corpus::SidecarError;
use common::{names, random_labels, read_err};

#[test]
fn labels_round_trip_bit_exactly_and_reproducibly() {
    let dir = common::scratch("npz-labels");
    let labels = random_labels(300, 7, 42);
    let (a, b) = (dir.join("a.npz"), dir.join("b.npz"));
    write_sidecar(&a, &labels).unwrap();
    write_sidecar(&b, &labels).unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(read_labels(&a).unwrap(), labels);
    let raw = RawArrays::read(&a).unwrap();
    assert_eq!((raw.rows, raw.slots), (300, 7));
    let want: Vec<u32> = labels
        .rows()
        .flatten()
        .flat_map(|l| l.target())
        .map(f32::to_bits)
        .collect();
    let got: Vec<u32> = raw.target.iter().map(|v| v.to_bits()).collect();
    assert_eq!(got, want);
    let flat = || labels.rows().flatten();
    assert!(raw.ply_of.iter().copied().eq(flat().map(|l| l.ply)));
    assert!(raw.teacher.iter().copied().eq(flat().map(|l| l.flag as i8)));
}

#[test]
fn numpy_sums_the_targets_exactly_as_the_invariant_is_written() {
    // the invariant with `==`, on masses spread over 3, 5, 6 and 7 columns: float32
    // thirds in a row of 19 slots summed to 19.000002
    let dir = common::scratch("npz-exact");
    let path = dir.join("spread.npz");
    let labels = random_labels(400, 19, 7);
    write_sidecar(&path, &labels).unwrap();
    // masses that are float32's nearest 1/k, as numpy writes them (and this crate did
    // before units), still read as evenly spread
    let mut raw = RawArrays::read(&path).unwrap();
    for slot in raw.target.chunks_mut(7) {
        let k = slot.iter().filter(|&&m| m > 0.0).count();
        for m in slot.iter_mut().filter(|m| **m > 0.0) {
            *m = 1.0 / k as f32;
        }
    }
    let nearest = dir.join("nearest.npz");
    raw.write(&nearest).unwrap();
    assert_eq!(read_labels(&nearest).unwrap(), labels);
    if common::has_numpy("test") {
        common::assert_numpy_reads(&path, 400, 19);
    }
}

#[test]
fn raw_arrays_round_trip_bit_exactly() {
    let dir = common::scratch("npz-raw");
    let odd = [
        f32::from_bits(0x7FC0_1234), // a NaN with a payload
        -0.0,
        f32::MIN_POSITIVE / 3.0, // subnormal
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        1.0 / 3.0,
    ];
    let (rows, slots) = (4, 3);
    let raw = RawArrays {
        rows,
        slots,
        target: (0..rows * slots * 7).map(|i| odd[i % odd.len()]).collect(),
        ply_of: (0..rows * slots)
            .map(|i| [i16::MIN, -1, i16::MAX][i % 3])
            .collect(),
        teacher: (0..rows * slots)
            .map(|i| [i8::MIN, 0, i8::MAX][i % 3])
            .collect(),
        n_plies: vec![0, -5, i16::MAX, 7],
    };
    for (name, raw) in [("some", raw), ("none", empty(5))] {
        let p = dir.join(format!("{name}.npz"));
        raw.write(&p).unwrap();
        let back = RawArrays::read(&p).unwrap();
        let bits = |r: &RawArrays| r.target.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back), bits(&raw), "{name}");
        assert_eq!(
            (
                back.rows,
                back.slots,
                &back.ply_of,
                &back.teacher,
                &back.n_plies
            ),
            (raw.rows, raw.slots, &raw.ply_of, &raw.teacher, &raw.n_plies),
            "{name}"
        );
    }
}

/// Empty arrays with `slots` slots: a valid sidecar of zero rows.
fn empty(slots: usize) -> RawArrays {
    RawArrays {
        rows: 0,
        slots,
        target: vec![],
        ply_of: vec![],
        teacher: vec![],
        n_plies: vec![],
    }
}

#[test]
fn zip64_members_read_back() {
    let dir = common::scratch("npz-zip64");
    let good = dir.join("good.npz");
    write_sidecar(&good, &random_labels(20, 4, 9)).unwrap();
    // members announced past 4 GiB are written with zip64 fields
    let big = dir.join("big.npz");
    with_zip64_fields(&good, &big);
    let (a, b) = (std::fs::read(&good).unwrap(), std::fs::read(&big).unwrap());
    assert!(b.len() > a.len(), "no zip64 fields written");
    assert_eq!(
        RawArrays::read(&big).unwrap(),
        RawArrays::read(&good).unwrap()
    );
    if common::has_numpy("numpy part") {
        common::assert_numpy_reads(&big, 20, 4);
    }
}

/// Copies the archive `from` to `to`, each member announced past 4 GiB, so written
/// with zip64 fields.
fn with_zip64_fields(from: &Path, to: &Path) {
    let src = NpzReader::open(from).unwrap();
    let mut w = NpzWriter::create(to).unwrap();
    for m in src.members() {
        let mut data = Vec::new();
        let mut r = src.member(&m.name).unwrap().unwrap();
        r.read_to_end(&mut data).unwrap();
        w.member(&m.name, 5 << 30)
            .unwrap()
            .write_all(&data)
            .unwrap();
    }
    w.finish().unwrap();
}

/// Offset of the zip record with signature `sig` whose name (at `name_at`) is `name`.
fn record(bytes: &[u8], sig: &[u8; 4], name_at: usize, name: &str) -> usize {
    (0..bytes.len() - name_at - name.len())
        .find(|&i| {
            bytes[i..i + 4] == *sig
                && bytes[i + name_at..i + name_at + name.len()] == *name.as_bytes()
        })
        .unwrap_or_else(|| panic!("no record for {name}"))
}

/// Where member `name`'s data lies: its size and local header from the central
/// directory (a small archive, no zip64 fields there), its data after that header.
fn member_data(bytes: &[u8], name: &str) -> Range<usize> {
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]) as usize;
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap()) as usize;
    let cd = record(bytes, b"PK\x01\x02", 46, name);
    let (len, local) = (u32_at(cd + 20), u32_at(cd + 42));
    assert_eq!(bytes[local..local + 4], *b"PK\x03\x04", "{name}");
    let start = local + 30 + u16_at(local + 26) + u16_at(local + 28);
    start..start + len
}

/// The four members' data ranges.
fn members_data(bytes: &[u8]) -> Vec<(&'static str, Range<usize>)> {
    ["target.npy", "ply_of.npy", "teacher.npy", "n_plies.npy"]
        .into_iter()
        .map(|name| (name, member_data(bytes, name)))
        .collect()
}

/// A CRC-32 mismatch error naming the file and the member.
fn crc_mismatch(e: &SidecarError, path: &Path, member: &str) {
    assert!(matches!(e, SidecarError::Container { .. }), "{e}");
    names(e, path, Some(member));
    let text = e.to_string();
    assert!(
        text.contains("the data is damaged: CRC-32 mismatch: recorded 0x"),
        "{text}"
    );
}

#[test]
fn damaged_archives_give_typed_errors() {
    let dir = common::scratch("npz-damaged");
    let good = dir.join("good.npz");
    write_sidecar(&good, &random_labels(3, 2, 7)).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let bad = dir.join("bad.npz");
    let with = |b: &[u8]| {
        std::fs::write(&bad, b).unwrap();
        bad.as_path()
    };

    // bytes before the archive: a zip reader would find it, numpy.load refuses it
    let e = read_err(with(&[b"junk".as_slice(), &bytes].concat()));
    names(&e, &bad, None);
    assert!(e.to_string().contains("numpy.load would refuse it"), "{e}");

    // a local header that names its member otherwise than the directory: `zip` reads
    // by the directory alone, numpy.load refuses the file (the gate passed it)
    let mut renamed = bytes.clone();
    renamed[record(&bytes, b"PK\x03\x04", 30, "target.npy") + 30] = b'X';
    let e = read_err(with(&renamed));
    names(&e, &bad, Some("target.npy"));
    assert!(
        e.to_string()
            .contains("its local header names it \"Xarget.npy\", so numpy.load would refuse"),
        "{e}"
    );

    // a member count in the end record that the directory does not hold: refused, but
    // not said to be refused by numpy, which reads the directory whatever the count
    let mut b = bytes.clone();
    let end = b.len() - 22;
    b[end + 8..end + 12].copy_from_slice(&[5, 0, 5, 0]);
    let e = read_err(with(&b)).to_string();
    assert!(
        e.contains("its end record counts 5 members, its central directory lists 4: write"),
        "{e}"
    );

    // every truncation fails cleanly; losing the end record is a container error
    for cut in 0..bytes.len() {
        let e = read_err(with(&bytes[..cut]));
        names(&e, &bad, None);
        if cut + 22 > bytes.len() {
            assert!(matches!(e, SidecarError::Container { .. }), "{cut}: {e}");
        }
    }
    // every single damaged byte of member data is a CRC-32 error naming its member;
    // a damaged byte elsewhere is an error naming the file, or changes no value
    let original = RawArrays::read(&good).unwrap();
    let data = members_data(&bytes);
    let data_bytes: usize = data.iter().map(|(_, r)| r.len()).sum();
    assert!(
        data_bytes > bytes.len() / 2,
        "{data_bytes} of {}",
        bytes.len()
    );
    let (mut in_data, mut elsewhere) = (0, 0);
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0xFF;
        let read = RawArrays::read(with(&b));
        match data.iter().find(|(_, r)| r.contains(&i)) {
            Some((name, _)) => {
                let e = read
                    .err()
                    .unwrap_or_else(|| panic!("byte {i} ({name}) undetected"));
                crc_mismatch(&e, &bad, name);
                in_data += 1;
            }
            None => match read {
                Ok(back) => assert_eq!(back, original, "byte {i} changed a value"),
                Err(e) => {
                    names(&e, &bad, None);
                    elsewhere += 1;
                }
            },
        }
    }
    assert_eq!(in_data, data_bytes);
    assert!(elsewhere > 0);

    // a damaged local header names its member
    let mut b = bytes.clone();
    let at = record(&b, b"PK\x03\x04", 30, "ply_of.npy");
    b[at] = b'X';
    let e = read_err(with(&b));
    assert!(matches!(e, SidecarError::Container { .. }), "{e}");
    names(&e, &bad, Some("ply_of.npy"));

    // an unsupported compression method (bzip2) names its member
    let mut b = bytes.clone();
    let at = record(&b, b"PK\x01\x02", 46, "target.npy");
    b[at + 10] = 12;
    let e = read_err(with(&b));
    assert!(matches!(e, SidecarError::Container { .. }), "{e}");
    names(&e, &bad, Some("target.npy"));
    assert!(e.to_string().contains("not supported"), "{e}");

    // a member that is not a .npy array (its CRC-32 recorded for what it holds)
    let src = NpzReader::open(&good).unwrap();
    let mut w = NpzWriter::create(&bad).unwrap();
    for m in src.members() {
        let mut data = Vec::new();
        src.member(&m.name)
            .unwrap()
            .unwrap()
            .read_to_end(&mut data)
            .unwrap();
        if m.name == "teacher.npy" {
            data[0] = b'#';
        }
        w.member(&m.name, data.len() as u64)
            .unwrap()
            .write_all(&data)
            .unwrap();
    }
    w.finish().unwrap();
    match read_err(&bad) {
        SidecarError::Array { ref name, .. } if name == "teacher" => {}
        e => panic!("{e}"),
    }

    // an archive without an array, its members copied from the good one
    let names: Vec<&str> = src.members().iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        names,
        ["target.npy", "ply_of.npy", "teacher.npy", "n_plies.npy"]
    );
    let mut w = NpzWriter::create(&bad).unwrap();
    for name in ["target.npy", "ply_of.npy", "teacher.npy"] {
        let mut data = Vec::new();
        let mut r = src.member(name).unwrap().unwrap();
        r.read_to_end(&mut data).unwrap();
        w.member(name, data.len() as u64)
            .unwrap()
            .write_all(&data)
            .unwrap();
    }
    w.finish().unwrap();
    assert!(src.member("absent.npy").unwrap().is_none());
    match read_err(&bad) {
        e @ SidecarError::Missing {
            name: "n_plies", ..
        } => {
            // the members there are named: a damaged name shows as one
            let said = e.to_string();
            assert!(
                said.contains("the file holds \"target.npy\", \"ply_of.npy\", \"teacher.npy\""),
                "{said}"
            );
        }
        e => panic!("{e}"),
    }
}

#[test]
fn damage_past_what_is_read_is_found_at_the_end() {
    let dir = common::scratch("npz-damaged-late");
    let good = dir.join("good.npz");
    // a target member of over 2 MB: more than a reader buffers on opening it
    let rows = 4000;
    write_sidecar(&good, &random_labels(rows, 19, 11)).unwrap();
    let mut bytes = std::fs::read(&good).unwrap();
    let target = member_data(&bytes, "target.npy");
    assert!(target.len() > 2 << 20, "{}", target.len());
    bytes[target.end - 3] ^= 0x01; // in the last row
    let bad = dir.join("bad.npz");
    std::fs::write(&bad, &bytes).unwrap();

    // the small arrays are checked on opening, the target data only as it is read
    let sc = Sidecar::open(&bad).unwrap();
    // rows read back until the read that reaches the end of the data (read ahead in
    // large blocks) gives the error, at the latest instead of the last row
    let mut targets = sc.targets().unwrap();
    let ok = targets.by_ref().take_while(Result::is_ok).count();
    assert!(ok > 0 && ok < rows, "{ok}");
    crc_mismatch(
        &sc.targets().unwrap().nth(ok).unwrap().unwrap_err(),
        &bad,
        "target.npy",
    );
    // a reader that stops after a prefix still finds the damage when it finishes
    let mut targets = sc.targets().unwrap();
    targets.next().unwrap().unwrap();
    crc_mismatch(&targets.finish().unwrap_err(), &bad, "target.npy");
    assert!(targets.next().is_none());
    crc_mismatch(&read_err(&bad), &bad, "target.npy");
    assert!(read_labels(&bad).is_err());

    // undamaged, every row and the end check pass, and finishing after the end is fine
    let sc = Sidecar::open(&good).unwrap();
    let mut targets = sc.targets().unwrap();
    assert_eq!(targets.by_ref().map(Result::unwrap).count(), rows);
    targets.finish().unwrap();
    // ... and finishing after a prefix too
    let mut targets = sc.targets().unwrap();
    targets.next().unwrap().unwrap();
    targets.finish().unwrap();

    // a raw member reader: the error comes on the read that reaches the end of the data
    let src = NpzReader::open(&bad).unwrap();
    let mut r = src.member("target.npy").unwrap().unwrap();
    let mut head = [0u8; 128];
    r.read_exact(&mut head).unwrap();
    let e = r.read_to_end(&mut Vec::new()).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
    let e = e.downcast::<SidecarError>().unwrap();
    crc_mismatch(&e, &bad, "target.npy");
    // and stays: a later read does not look like a clean end
    assert!(r.read(&mut head).is_err());
    crc_mismatch(&r.finish().unwrap_err(), &bad, "target.npy");
}

#[test]
fn damaged_deflated_members_give_errors_or_the_same_values() {
    if !common::has_numpy("test") {
        return;
    }
    let dir = common::scratch("npz-damaged-deflate");
    let (good, npc) = (dir.join("good.npz"), dir.join("npc.npz"));
    write_sidecar(&good, &random_labels(6, 3, 5)).unwrap();
    let code = format!(
        "import numpy as np; z = np.load({good:?}); np.savez_compressed({npc:?}, **{{k: z[k] for k in z.files}})"
    );
    assert!(Command::new("python3")
        .args(["-c", &code])
        .status()
        .unwrap()
        .success());
    let original = RawArrays::read(&good).unwrap();
    assert_eq!(RawArrays::read(&npc).unwrap(), original);
    let bytes = std::fs::read(&npc).unwrap();
    let bad = dir.join("bad.npz");
    let mut errors = 0;
    for (name, range) in members_data(&bytes) {
        for i in range {
            let mut b = bytes.clone();
            b[i] ^= 0xFF;
            std::fs::write(&bad, &b).unwrap();
            match RawArrays::read(&bad) {
                Ok(back) => assert_eq!(back, original, "byte {i} ({name}) changed a value"),
                Err(e) => {
                    names(&e, &bad, None);
                    // damage, which the gate reports as a sidecar-format violation,
                    // not a file it cannot read (exit 2): a stream that does not
                    // inflate was passed up as an I/O error
                    assert!(
                        !matches!(e, SidecarError::Io { .. }),
                        "byte {i} ({name}): {e}"
                    );
                    errors += 1;
                }
            }
        }
    }
    assert!(errors > 0);
    // a compressed size that runs into the next record: Python 3.12 on refuses the file
    // ("Overlapped entries"), and the deflated stream's own end hid it from this reader
    let mut b = bytes.clone();
    let cd = record(&bytes, b"PK\x01\x02", 46, "target.npy");
    let size = u32::from_le_bytes(b[cd + 20..cd + 24].try_into().unwrap()) + 1;
    b[cd + 20..cd + 24].copy_from_slice(&size.to_le_bytes());
    std::fs::write(&bad, &b).unwrap();
    let e = read_err(&bad).to_string();
    assert!(
        e.contains(&format!(
            "member target.npy's data ({size} bytes from byte "
        )) && e.contains("where the next record starts, so numpy.load would refuse it"),
        "{e}"
    );
}

/// Every archive the reader passes, numpy.load reads, to the same arrays: each byte of
/// a small sidecar damaged in turn, in a plain archive, one with zip64 fields and one
/// of deflated members
/// (the gate passed 48 flips of the end and directory records that numpy refused).
#[test]
fn what_the_reader_passes_numpy_loads_alike() {
    if !common::has_numpy("the numpy sweep") {
        return;
    }
    let dir = common::scratch("npz-numpy-sweep");
    let good = dir.join("good.npz");
    write_sidecar(&good, &random_labels(3, 2, 7)).unwrap();
    let wide = dir.join("wide.npz");
    with_zip64_fields(&good, &wide);
    // and as numpy's savez_compressed writes it (deflated members)
    let deflated = dir.join("deflated.npz");
    let code = format!(
        "import numpy as np; z = np.load({good:?}); np.savez_compressed({deflated:?}, **{{k: z[k] for k in z.files}})"
    );
    let wrote = Command::new("python3")
        .args(["-c", &code])
        .status()
        .unwrap();
    assert!(wrote.success());
    let original = RawArrays::read(&good).unwrap();
    // (each archive read whole first: one refused outright would pass every flip)
    for archive in [&wide, &deflated] {
        assert_eq!(RawArrays::read(archive).unwrap(), original);
    }
    let probe = dir.join("probe.npz");
    let mut passed = vec![good.clone()];
    for archive in [&good, &wide, &deflated] {
        let bytes = std::fs::read(archive).unwrap();
        // (the lowest bit, bit 6 and the whole byte: every bit of every byte took
        // three times as long)
        for (at, mask) in (0..bytes.len()).flat_map(|i| [(i, 1u8), (i, 0x40), (i, 0xFF)]) {
            let mut b = bytes.clone();
            b[at] ^= mask;
            std::fs::write(&probe, &b).unwrap();
            if let Ok(back) = RawArrays::read(&probe) {
                assert_eq!(back, original, "byte {at} ^ {mask:#x} changed a value");
                let keep = dir.join(format!("passed-{}.npz", passed.len()));
                std::fs::rename(&probe, &keep).unwrap();
                passed.push(keep);
            }
        }
    }
    // one interpreter for them all: each file's arrays, or why numpy refused it
    let script = "import sys, numpy as np\n\
        for p in sys.argv[1:]:\n\
        \x20   try:\n\
        \x20       with np.load(p) as z:\n\
        \x20           print(p, [(k, z[k].dtype.str, z[k].shape, z[k].tobytes().hex()) for k in sorted(z.files)])\n\
        \x20   except Exception as e:\n\
        \x20       print(p, 'refused:', type(e).__name__, e)\n";
    let out = Command::new("python3")
        .args(["-c", script])
        .args(&passed)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), passed.len(), "{text}");
    let arrays = |line: &str| line.split_once(' ').unwrap().1.to_string();
    let want = arrays(lines[0]);
    assert!(!want.starts_with("refused"), "{want}");
    for line in &lines[1..] {
        assert_eq!(
            arrays(line),
            want,
            "the reader passed it, numpy read otherwise: {line}"
        );
    }
    eprintln!(
        "{} of the flips passed, and numpy read each alike",
        passed.len() - 1
    );
}

/// Damage to a sidecar member is the member's, found once it is read to its end (its
/// CRC-32): no row is named. The gate named the row it had reached then (row 1970 of
/// 2,000, wherever the damaged byte lay), on a corpus long enough that the member's
/// end is read while rows are still being checked.
#[test]
fn damage_to_a_sidecar_member_names_no_row() {
    let dir = common::scratch("member-damage");
    common::dataset(&dir, 2000, 0, 7);
    let corpus = dir.join("train/corpus_2k.txt");
    let mut bytes = std::fs::read(dir.join("train/perply_targets.npz")).unwrap();
    // the first byte of target's data, in row 0
    let data = (0..bytes.len())
        .find(|&i| bytes[i..].starts_with(b"\x93NUMPY"))
        .unwrap();
    let header_len = u16::from_le_bytes([bytes[data + 8], bytes[data + 9]]) as usize;
    bytes[data + 10 + header_len] ^= 0x40;
    let damaged = dir.join("damaged.npz");
    std::fs::write(&damaged, &bytes).unwrap();
    let rep = check(&corpus, Some(&damaged)).unwrap();
    let format = &rep.kinds[&Kind::SidecarFormat].examples;
    assert!(
        format
            .iter()
            .any(|v| v.detail.contains("CRC-32 mismatch") && v.row.is_none()),
        "{rep}"
    );
}
