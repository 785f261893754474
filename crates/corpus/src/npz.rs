//! A minimal `.npz` container: a zip archive of `.npy` members.
//!
//! The writer streams *stored* (uncompressed) members, patching each local header's
//! CRC and sizes afterwards, with fixed timestamps so equal arrays give equal bytes.
//! Members and archives must stay below 4 GiB (no zip64 writing). The reader handles
//! stored and deflated members (`np.savez` and `np.savez_compressed`), including the
//! zip64 extra fields numpy writes.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::error::SidecarError;

const LOCAL_SIG: u32 = 0x0403_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const END_SIG: u32 = 0x0605_4b50;
const ZIP64_END_SIG: u32 = 0x0606_4b50;
const ZIP64_LOCATOR_SIG: u32 = 0x0706_4b50;
/// 1980-01-01 00:00 in MS-DOS format: a fixed timestamp for reproducible archives.
const DOS_DATE: u16 = 0x0021;
const DOS_TIME: u16 = 0;
const LIMIT: u64 = 0xFFFF_FFFF;

struct Entry {
    name: String,
    crc: u32,
    size: u64,
    offset: u64,
}

/// Writes an `.npz` archive member by member.
pub struct NpzWriter {
    path: PathBuf,
    out: BufWriter<File>,
    entries: Vec<Entry>,
}

/// One member being written; finish it with [`NpzWriter::end_member`].
pub struct Member<'a> {
    out: &'a mut BufWriter<File>,
    crc: crc32fast::Hasher,
    size: u64,
}

impl Write for Member<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.crc.update(&buf[..n]);
        self.size += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

fn le16(out: &mut impl Write, v: u16) -> io::Result<()> {
    out.write_all(&v.to_le_bytes())
}

fn le32(out: &mut impl Write, v: u32) -> io::Result<()> {
    out.write_all(&v.to_le_bytes())
}

impl NpzWriter {
    /// Creates (truncates) the archive at `path`.
    pub fn create(path: &Path) -> Result<NpzWriter, SidecarError> {
        let file = File::create(path).map_err(|source| SidecarError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(NpzWriter {
            path: path.to_path_buf(),
            out: BufWriter::with_capacity(1 << 20, file),
            entries: Vec::new(),
        })
    }

    fn io(&self) -> impl FnOnce(io::Error) -> SidecarError + '_ {
        move |source| SidecarError::Io {
            path: self.path.clone(),
            source,
        }
    }

    fn too_big(&self) -> SidecarError {
        SidecarError::Container {
            path: self.path.clone(),
            reason: "the archive would exceed 4 GiB (zip64 is not written); split the corpus"
                .into(),
        }
    }

    /// Starts the member `name` (e.g. `"target.npy"`); write its bytes to the result.
    pub fn begin_member(&mut self, name: &str) -> Result<Member<'_>, SidecarError> {
        let offset = self.out.stream_position().map_err(self.io())?;
        if offset >= LIMIT {
            return Err(self.too_big());
        }
        let mut h = Vec::with_capacity(30 + name.len());
        let w = &mut h;
        le32(w, LOCAL_SIG)
            .and(le16(w, 20))
            .and(le16(w, 0))
            .and(le16(w, 0))
            .unwrap();
        le16(w, DOS_TIME).and(le16(w, DOS_DATE)).unwrap();
        le32(w, 0).and(le32(w, 0)).and(le32(w, 0)).unwrap(); // crc, sizes: patched later
        le16(w, name.len() as u16).and(le16(w, 0)).unwrap();
        h.extend_from_slice(name.as_bytes());
        self.out.write_all(&h).map_err(self.io())?;
        self.entries.push(Entry {
            name: name.to_string(),
            crc: 0,
            size: 0,
            offset,
        });
        Ok(Member {
            out: &mut self.out,
            crc: crc32fast::Hasher::new(),
            size: 0,
        })
    }

    /// Closes the member just written (pass back its CRC and size from [`Member::done`]).
    pub fn end_member(&mut self, done: (u32, u64)) -> Result<(), SidecarError> {
        let (crc, size) = done;
        if size >= LIMIT {
            return Err(self.too_big());
        }
        let e = self.entries.last_mut().expect("a member was begun");
        e.crc = crc;
        e.size = size;
        let offset = e.offset;
        let end = self.out.stream_position().map_err(self.io())?;
        let mut patch = Vec::with_capacity(12);
        le32(&mut patch, crc).unwrap();
        le32(&mut patch, size as u32).unwrap();
        le32(&mut patch, size as u32).unwrap();
        self.out
            .seek(SeekFrom::Start(offset + 14))
            .and_then(|_| self.out.write_all(&patch))
            .and_then(|_| self.out.seek(SeekFrom::Start(end)))
            .map_err(self.io())?;
        Ok(())
    }

    /// Writes the central directory and flushes the file.
    pub fn finish(mut self) -> Result<(), SidecarError> {
        let start = self.out.stream_position().map_err(self.io())?;
        let mut cd = Vec::new();
        for e in &self.entries {
            let w = &mut cd;
            le32(w, CENTRAL_SIG).unwrap();
            le16(w, 20)
                .and(le16(w, 20))
                .and(le16(w, 0))
                .and(le16(w, 0))
                .unwrap();
            le16(w, DOS_TIME).and(le16(w, DOS_DATE)).unwrap();
            le32(w, e.crc)
                .and(le32(w, e.size as u32))
                .and(le32(w, e.size as u32))
                .unwrap();
            le16(w, e.name.len() as u16)
                .and(le16(w, 0))
                .and(le16(w, 0))
                .unwrap();
            le16(w, 0).and(le16(w, 0)).and(le32(w, 0)).unwrap();
            le32(w, e.offset as u32).unwrap();
            cd.extend_from_slice(e.name.as_bytes());
        }
        if start + cd.len() as u64 >= LIMIT {
            return Err(self.too_big());
        }
        let n = self.entries.len() as u16;
        let w = &mut cd;
        le32(w, END_SIG).and(le16(w, 0)).and(le16(w, 0)).unwrap();
        le16(w, n).and(le16(w, n)).unwrap();
        let cd_len = cd.len() as u32 - 12;
        le32(&mut cd, cd_len)
            .and(le32(&mut cd, start as u32))
            .unwrap();
        le16(&mut cd, 0).unwrap();
        self.out.write_all(&cd).map_err(self.io())?;
        self.out.flush().map_err(self.io())?;
        Ok(())
    }
}

impl Member<'_> {
    /// The CRC-32 and byte count of what was written.
    pub fn done(self) -> (u32, u64) {
        (self.crc.finalize(), self.size)
    }
}

/// A member found in an archive's central directory.
#[derive(Debug, Clone)]
pub struct MemberInfo {
    /// Its file name inside the archive (`target.npy`).
    pub name: String,
    method: u16,
    compressed: u64,
    offset: u64,
}

/// Reads members of an `.npz` archive.
pub struct NpzReader {
    path: PathBuf,
    members: Vec<MemberInfo>,
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[i..i + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().unwrap())
}

impl NpzReader {
    /// Opens an archive and reads its central directory.
    pub fn open(path: &Path) -> Result<NpzReader, SidecarError> {
        let io = |source| SidecarError::Io {
            path: path.to_path_buf(),
            source,
        };
        let bad = |reason: &str| SidecarError::Container {
            path: path.to_path_buf(),
            reason: reason.to_string(),
        };
        let mut f = File::open(path).map_err(io)?;
        let len = f.metadata().map_err(io)?.len();
        let tail_len = len.min(22 + 65_535 + 20);
        let mut tail = vec![0u8; tail_len as usize];
        f.seek(SeekFrom::Start(len - tail_len)).map_err(io)?;
        f.read_exact(&mut tail).map_err(io)?;
        let eocd = (0..tail.len().saturating_sub(21))
            .rev()
            .find(|&i| u32_at(&tail, i) == END_SIG)
            .ok_or_else(|| bad("no end of central directory (not a zip file)"))?;
        let mut count = u16_at(&tail, eocd + 10) as u64;
        let mut cd_size = u32_at(&tail, eocd + 12) as u64;
        let mut cd_start = u32_at(&tail, eocd + 16) as u64;
        if (cd_start == LIMIT || count == 0xFFFF) && eocd >= 20 {
            let loc = eocd - 20;
            if u32_at(&tail, loc) == ZIP64_LOCATOR_SIG {
                let end64 = u64_at(&tail, loc + 8);
                let mut rec = [0u8; 56];
                f.seek(SeekFrom::Start(end64)).map_err(io)?;
                f.read_exact(&mut rec).map_err(io)?;
                if u32_at(&rec, 0) != ZIP64_END_SIG {
                    return Err(bad("damaged zip64 end record"));
                }
                count = u64_at(&rec, 32);
                cd_size = u64_at(&rec, 40);
                cd_start = u64_at(&rec, 48);
            }
        }
        if cd_start + cd_size > len {
            return Err(bad("central directory beyond the end of the file"));
        }
        let mut cd = vec![0u8; cd_size as usize];
        f.seek(SeekFrom::Start(cd_start)).map_err(io)?;
        f.read_exact(&mut cd).map_err(io)?;
        let mut members = Vec::new();
        let mut i = 0usize;
        for _ in 0..count {
            if i + 46 > cd.len() || u32_at(&cd, i) != CENTRAL_SIG {
                return Err(bad("damaged central directory"));
            }
            let method = u16_at(&cd, i + 10);
            let mut compressed = u32_at(&cd, i + 20) as u64;
            let mut size = u32_at(&cd, i + 24) as u64;
            let name_len = u16_at(&cd, i + 28) as usize;
            let extra_len = u16_at(&cd, i + 30) as usize;
            let comment_len = u16_at(&cd, i + 32) as usize;
            let mut offset = u32_at(&cd, i + 42) as u64;
            let end = i + 46 + name_len + extra_len;
            if end + comment_len > cd.len() {
                return Err(bad("damaged central directory"));
            }
            let name = String::from_utf8_lossy(&cd[i + 46..i + 46 + name_len]).into_owned();
            // zip64 extra field: the 0xFFFFFFFF fields, in order, as u64
            let mut j = i + 46 + name_len;
            while j + 4 <= end {
                let (id, n) = (u16_at(&cd, j), u16_at(&cd, j + 2) as usize);
                if id == 1 {
                    let mut k = j + 4;
                    for field in [&mut size, &mut compressed, &mut offset] {
                        if *field == LIMIT && k + 8 <= j + 4 + n {
                            *field = u64_at(&cd, k);
                            k += 8;
                        }
                    }
                }
                j += 4 + n;
            }
            let _ = size;
            members.push(MemberInfo {
                name,
                method,
                compressed,
                offset,
            });
            i = end + comment_len;
        }
        Ok(NpzReader {
            path: path.to_path_buf(),
            members,
        })
    }

    /// The members, in archive order.
    pub fn members(&self) -> &[MemberInfo] {
        &self.members
    }

    /// A streaming reader over the uncompressed bytes of member `name`, if present.
    pub fn member(&self, name: &str) -> Result<Option<Box<dyn Read>>, SidecarError> {
        let Some(m) = self.members.iter().find(|m| m.name == name) else {
            return Ok(None);
        };
        let io = |source| SidecarError::Io {
            path: self.path.clone(),
            source,
        };
        let mut f = File::open(&self.path).map_err(io)?;
        let mut local = [0u8; 30];
        f.seek(SeekFrom::Start(m.offset)).map_err(io)?;
        f.read_exact(&mut local).map_err(io)?;
        if u32_at(&local, 0) != LOCAL_SIG {
            return Err(SidecarError::Container {
                path: self.path.clone(),
                reason: format!("member {name}: damaged local header"),
            });
        }
        let skip = u16_at(&local, 26) as u64 + u16_at(&local, 28) as u64;
        f.seek(SeekFrom::Start(m.offset + 30 + skip)).map_err(io)?;
        let data = BufReader::with_capacity(1 << 20, f).take(m.compressed);
        match m.method {
            0 => Ok(Some(Box::new(data))),
            8 => Ok(Some(Box::new(BufReader::new(
                flate2::read::DeflateDecoder::new(data),
            )))),
            other => Err(SidecarError::Container {
                path: self.path.clone(),
                reason: format!("member {name}: compression method {other} is not supported"),
            }),
        }
    }
}
