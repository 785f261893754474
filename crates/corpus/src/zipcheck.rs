//! What Python's `zipfile` (and so `numpy.load`) requires of an archive's directory
//! records, beyond what the `zip` crate checks.
//!
//! `zip` finds the central directory by searching for it, so a damaged end record
//! (its directory offset or size) or a damaged directory entry (its version or
//! flags) still reads; Python's `zipfile` trusts those fields and refuses the file
//! ("Bad magic number for central directory", "zip file version 13.8", "strong
//! encryption (flag bit 6)"), and from Python 3.12 on a member whose data, by its
//! compressed size, runs into the next record ("Overlapped entries": a deflated
//! member's stream ends on its own, so a reader of it does not notice). No crate checks an archive against that reader's rules,
//! so they are written out here (after CPython's `zipfile._RealGetContents` and
//! `ZipFile.open`), for an archive that starts at byte 0 (the sidecar reader refuses
//! any bytes before it).

use std::io::{self, Read, Seek, SeekFrom};

/// The end of central directory record: signature and fixed size.
const END: (&[u8; 4], usize) = (b"PK\x05\x06", 22);
/// The zip64 end record's locator, right before the end record.
const LOCATOR: (&[u8; 4], usize) = (b"PK\x06\x07", 20);
/// The zip64 end record, right before its locator (Python assumes no extensible data).
const END64: (&[u8; 4], usize) = (b"PK\x06\x06", 56);
/// A central directory entry's signature and fixed part.
const ENTRY: (&[u8; 4], usize) = (b"PK\x01\x02", 46);
/// A local header's signature.
const LOCAL: &[u8; 4] = b"PK\x03\x04";
/// The newest "version needed to extract" Python reads (6.3).
const MAX_VERSION: u8 = 63;
/// Flag bits Python refuses: encrypted (0), compressed patched data (5), strong
/// encryption (6).
const REFUSED_FLAGS: [(u16, &str); 3] = [
    (1, "encrypted (flag bit 0)"),
    (1 << 5, "compressed patched data (flag bit 5)"),
    (1 << 6, "strong encryption (flag bit 6)"),
];

fn u16_at(b: &[u8], i: usize) -> u64 {
    u64::from(u16::from_le_bytes([b[i], b[i + 1]]))
}

fn u32_at(b: &[u8], i: usize) -> u64 {
    u64::from(u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]))
}

fn u64_at(b: &[u8], i: usize) -> u64 {
    let mut v = [0u8; 8];
    v.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(v)
}

/// `len` bytes at `at`, or `None` where the file ends first (or `at` is past any file).
fn bytes_at<F: Read + Seek>(file: &mut F, at: u64, len: usize) -> io::Result<Option<Vec<u8>>> {
    // (a seek past i64::MAX fails with "Invalid argument", which named no record)
    if i64::try_from(at).is_err() {
        return Ok(None);
    }
    let mut buf = Vec::with_capacity(len.min(1 << 20));
    file.seek(SeekFrom::Start(at))?;
    file.by_ref().take(len as u64).read_to_end(&mut buf)?;
    Ok((buf.len() == len).then_some(buf))
}

/// Why an archive is refused: the damage, and whether `numpy.load` refuses it for that
/// (a damaged count or length it reads past is refused here all the same).
pub(crate) struct Refusal {
    /// What is wrong, naming the record.
    pub reason: String,
    /// Whether Python's reader refuses the file for it.
    pub numpy_refuses: bool,
}

/// A refusal numpy.load shares.
fn numpy(reason: String) -> Option<Refusal> {
    Some(Refusal {
        reason,
        numpy_refuses: true,
    })
}

/// A member as its directory entry places it.
struct Member {
    /// Its name as the entry spells it (bytes: the local header's must be the same).
    raw_name: Vec<u8>,
    name: String,
    header_at: u64,
    compressed: u64,
}

/// Why the archive in `file` is refused by its directory records, or `None` when they
/// are as Python's reader needs them.
pub(crate) fn refusal<F: Read + Seek>(file: &mut F) -> io::Result<Option<Refusal>> {
    let size = file.seek(SeekFrom::End(0))?;
    let Some((end_at, end)) = end_record(file, size)? else {
        return Ok(numpy(
            "it has no end of central directory record (the file is cut short, or is no zip archive)".into(),
        ));
    };
    let (mut entries, mut dir_size, mut dir_at, mut records) = (
        u16_at(&end, 10),
        u32_at(&end, 12),
        u32_at(&end, 16),
        END.1 as u64,
    );
    if let Some(locator) = end_at
        .checked_sub(LOCATOR.1 as u64)
        .map(|at| bytes_at(file, at, LOCATOR.1))
        .transpose()?
        .flatten()
        .filter(|l| l[..4] == *LOCATOR.0)
    {
        if u32_at(&locator, 4) != 0 || u32_at(&locator, 16) > 1 {
            return Ok(numpy(
                "its zip64 locator says it spans several disks".into(),
            ));
        }
        let at = end_at.checked_sub((LOCATOR.1 + END64.1) as u64);
        if let Some(end64) = at
            .map(|at| bytes_at(file, at, END64.1))
            .transpose()?
            .flatten()
        {
            if end64[..4] == *END64.0 {
                entries = u64_at(&end64, 32);
                dir_size = u64_at(&end64, 40);
                dir_at = u64_at(&end64, 48);
                records += (LOCATOR.1 + END64.1) as u64;
            }
        }
    }
    // the directory ends where the end records begin: Python places it by its size
    // and reads each member's header that far from where the records say
    let records_at = end_at - (records - END.1 as u64);
    if dir_at.checked_add(dir_size) != Some(records_at) {
        return Ok(numpy(format!(
            "its end record places the central directory at byte {dir_at}, {dir_size} bytes long, but the directory ends at byte {records_at}"
        )));
    }
    let Some(dir) = bytes_at(file, dir_at, dir_size as usize)? else {
        return Ok(numpy(
            "its central directory runs past the end of the file".into(),
        ));
    };
    let mut members = Vec::new();
    let mut at = 0;
    while at < dir.len() {
        match entry(&dir[at..], members.len()) {
            Ok(m) => members.push(m),
            Err(refused) => return Ok(Some(refused)),
        }
        at += ENTRY.1
            + (u16_at(&dir, at + 28) + u16_at(&dir, at + 30) + u16_at(&dir, at + 32)) as usize;
    }
    if members.len() as u64 != entries {
        return Ok(Some(Refusal {
            reason: format!(
                "its end record counts {entries} members, its central directory lists {}",
                members.len()
            ),
            numpy_refuses: false,
        }));
    }
    members_refusal(file, members, dir_at)
}

/// Why a member's local header or data refuses the archive: each header must start
/// where its entry places it and name the member as the entry does, and (Python 3.12 on) the data its entry's compressed
/// size gives must end before the next record starts.
fn members_refusal<F: Read + Seek>(
    file: &mut F,
    mut members: Vec<Member>,
    dir_at: u64,
) -> io::Result<Option<Refusal>> {
    members.sort_by_key(|m| std::cmp::Reverse(m.header_at));
    let mut next = dir_at;
    for m in members {
        let Some(local) = bytes_at(file, m.header_at, 30)?.filter(|h| h[..4] == *LOCAL) else {
            return Ok(numpy(format!(
                "its directory places member {}'s header at byte {}, where none starts",
                m.name, m.header_at
            )));
        };
        // (Python compares the local header's name with the directory's; `zip` reads
        // the directory's alone)
        let local_name = bytes_at(file, m.header_at + 30, u16_at(&local, 26) as usize)?;
        if local_name.as_deref() != Some(&m.raw_name[..]) {
            return Ok(numpy(format!(
                "member {}: its local header names it {:?}",
                m.name,
                String::from_utf8_lossy(&local_name.unwrap_or_default())
            )));
        }
        let data_at = m.header_at + 30 + u16_at(&local, 26) + u16_at(&local, 28);
        if data_at.checked_add(m.compressed).is_none_or(|e| e > next) {
            return Ok(numpy(format!(
                "member {}'s data ({} bytes from byte {data_at}) runs past byte {next}, where the next record starts",
                m.name, m.compressed
            )));
        }
        next = m.header_at;
    }
    Ok(None)
}

/// The end record and where it starts: the last 22 bytes when they are one with no
/// comment, else the last signature in the final 64 KiB (as Python finds it).
fn end_record<F: Read + Seek>(file: &mut F, size: u64) -> io::Result<Option<(u64, Vec<u8>)>> {
    let from = size.saturating_sub((1 << 16) + END.1 as u64);
    let Some(tail) = bytes_at(file, from, (size - from) as usize)? else {
        return Ok(None);
    };
    let last = tail.len().checked_sub(END.1);
    let found = match last {
        Some(i) if tail[i..i + 4] == *END.0 && tail[tail.len() - 2..] == [0, 0] => Some(i),
        // (a signature too near the end to hold a whole record is no record)
        _ => (0..tail.len().saturating_sub(3))
            .rev()
            .find(|&i| tail[i..i + 4] == *END.0)
            .filter(|&i| i + END.1 <= tail.len()),
    };
    Ok(found.map(|i| (from + i as u64, tail[i..i + END.1].to_vec())))
}

/// The member the directory entry at the start of `rest` (numbered `index` from 0)
/// describes, or why it is refused.
fn entry(rest: &[u8], index: usize) -> Result<Member, Refusal> {
    let which = format!("central directory entry {}", index + 1);
    let refuse = |reason: String, numpy_refuses| {
        Err(Refusal {
            reason,
            numpy_refuses,
        })
    };
    if rest.len() < ENTRY.1 {
        return refuse(format!("its {which} is cut short"), true);
    }
    if rest[..4] != *ENTRY.0 {
        return refuse(
            format!("its {which} does not start with its signature"),
            true,
        );
    }
    let lengths = (u16_at(rest, 28) + u16_at(rest, 30) + u16_at(rest, 32)) as usize;
    if rest.len() < ENTRY.1 + lengths {
        // (Python reads what there is of a last entry's name and fields)
        return refuse(format!("its {which} runs past the directory's end"), false);
    }
    // named by its member from here on
    let name_len = u16_at(rest, 28) as usize;
    let raw_name = rest[ENTRY.1..ENTRY.1 + name_len].to_vec();
    let name = String::from_utf8_lossy(&raw_name).into_owned();
    let which = format!("{which} ({name})");
    if rest[6] > MAX_VERSION {
        let version = f64::from(rest[6]) / 10.0;
        return refuse(
            format!("its {which} needs zip version {version:.1} to extract"),
            true,
        );
    }
    let flags = u16_at(rest, 8) as u16;
    if let Some((_, what)) = REFUSED_FLAGS.iter().find(|(bit, _)| flags & bit != 0) {
        return refuse(format!("its {which} is marked {what}"), true);
    }
    // the zip64 extra field: each value the fixed part marks as too large for it
    let mut extra = &rest[ENTRY.1 + name_len..ENTRY.1 + name_len + u16_at(rest, 30) as usize];
    let (mut compressed, mut header_at) = (u32_at(rest, 20), u32_at(rest, 42));
    while extra.len() >= 4 {
        let (tag, len) = (u16_at(extra, 0), u16_at(extra, 2) as usize);
        if len + 4 > extra.len() {
            return refuse(format!("its {which} has a damaged extra field"), true);
        }
        if tag == 1 {
            // in Python's order: the uncompressed size, the compressed size, the offset
            let mut values = extra[4..4 + len].chunks_exact(8).map(|c| u64_at(c, 0));
            let mut missing = u32_at(rest, 24) == 0xFFFF_FFFF && values.next().is_none();
            for field in [&mut compressed, &mut header_at] {
                if *field == 0xFFFF_FFFF {
                    match values.next() {
                        Some(v) => *field = v,
                        None => missing = true,
                    }
                }
            }
            if missing {
                return refuse(format!("its {which} has a damaged zip64 field"), true);
            }
        }
        extra = &extra[4 + len..];
    }
    Ok(Member {
        raw_name,
        name,
        header_at,
        compressed,
    })
}
