//! The `.npz` container, a zip archive of `.npy` members, through the `zip` crate.
//!
//! Members are written *stored* (uncompressed) and streamed, with a fixed 1980-01-01
//! timestamp so equal arrays give equal bytes; a member that may pass 4 GiB gets zip64
//! fields. Reading accepts stored and deflated members (`np.savez`,
//! `np.savez_compressed`): `zip` parses the directories (zip64 included) and finds each
//! member's data, which is then streamed from its own file handle, because `zip`'s
//! member readers borrow the archive while a sidecar's target stream outlives it.
//!
//! Before `zip` reads the directories, they are held to what `numpy.load` needs of them
//! (`zipcheck`: `zip` searches past a damaged record that Python's reader trusts).
//! Every member read is checked against the central directory: the CRC-32 and the
//! size of its (uncompressed) bytes are computed as they stream through and compared
//! with the recorded ones once the member has been read to its end, so a damaged data
//! byte is a typed [`SidecarError::Container`] error, never a silently wrong value.
//! Readers that stop before the end call [`MemberReader::finish`] to drain the rest.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use flate2::bufread::DeflateDecoder;
use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter, ZIP64_BYTES_THR};

use crate::error::SidecarError;

/// Room for a `.npy` header on top of its data when deciding whether zip64 is needed.
const HEADER_ROOM: u64 = 1 << 16;

/// Attaches `path` to an I/O error; an error that already is a sidecar error (a damaged
/// member found by a [`MemberReader`], passed up through `Read`) is returned as it is.
pub(crate) fn io_at(path: &Path) -> impl Fn(io::Error) -> SidecarError + '_ {
    move |source| match source.downcast::<SidecarError>() {
        Ok(e) => e,
        Err(source) => SidecarError::Io {
            path: path.to_path_buf(),
            source,
        },
    }
}

/// A damaged or unsupported archive, naming the member at fault when there is one.
fn damaged(path: &Path, member: Option<&str>, reason: String) -> SidecarError {
    SidecarError::Container {
        path: path.to_path_buf(),
        reason: match member {
            Some(name) => format!("member {name}: {reason}"),
            None => reason,
        },
    }
}

/// A `zip` error as a sidecar error: a short read means a truncated or damaged archive.
fn zip_error(path: &Path, member: Option<&str>, e: ZipError) -> SidecarError {
    match e {
        ZipError::Io(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
            damaged(path, member, format!("the archive ends early ({e})"))
        }
        ZipError::Io(e) => io_at(path)(e),
        // ("Could not find EOCD" alone did not say what to do)
        other => damaged(
            path,
            member,
            format!("{other}: the file is cut short, damaged, or no .npz; write the sidecar again"),
        ),
    }
}

/// Writes an `.npz` archive member by member, streaming each.
pub struct NpzWriter {
    path: PathBuf,
    /// None once finished.
    zip: Option<ZipWriter<ArchiveFile>>,
    /// Set when the writer is dropped unfinished (see [`ArchiveFile`]).
    discard: Arc<AtomicBool>,
}

/// The archive's file, which takes no more bytes once `discard` is set (by a failed
/// write, or by the writer dropped unfinished): the zip writer's own drop finalises an
/// unfinished archive, writing to the file again (on a full disk, failing again) and
/// printing that failure on standard error, past the error the caller reports. The
/// `.part` file it would finish is no archive anyway.
struct ArchiveFile {
    file: BufWriter<File>,
    discard: Arc<AtomicBool>,
    /// The position in the file, kept so that a discarding file still answers seeks as
    /// the zip writer's bookkeeping expects (sizes are worked out from positions).
    at: u64,
    /// The furthest position written.
    end: u64,
}

impl ArchiveFile {
    fn failed<T>(&self, result: io::Result<T>) -> io::Result<T> {
        if result.is_err() {
            self.discard.store(true, Ordering::Relaxed);
        }
        result
    }
}

impl Write for ArchiveFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = if self.discard.load(Ordering::Relaxed) {
            bytes.len()
        } else {
            let written = self.file.write(bytes);
            self.failed(written)?
        };
        self.at += written as u64;
        self.end = self.end.max(self.at);
        Ok(written)
    }
    fn flush(&mut self) -> io::Result<()> {
        if self.discard.load(Ordering::Relaxed) {
            return Ok(());
        }
        let flushed = self.file.flush();
        self.failed(flushed)
    }
}

impl Seek for ArchiveFile {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        self.at = if self.discard.load(Ordering::Relaxed) {
            let from = |base: u64, by: i64| base.saturating_add_signed(by);
            match to {
                SeekFrom::Start(at) => at,
                SeekFrom::Current(by) => from(self.at, by),
                SeekFrom::End(by) => from(self.end, by),
            }
        } else {
            let at = self.file.seek(to);
            self.failed(at)?
        };
        self.end = self.end.max(self.at);
        Ok(self.at)
    }
}

impl Drop for NpzWriter {
    fn drop(&mut self) {
        if self.zip.is_some() {
            self.discard.store(true, Ordering::Relaxed);
        }
    }
}

impl NpzWriter {
    /// Starts the archive at `path`: written as `path.part` until [`NpzWriter::finish`]
    /// renames it into place.
    pub fn create(path: &Path) -> Result<NpzWriter, SidecarError> {
        let file = crate::part::create(path).map_err(io_at(path))?;
        let discard = Arc::new(AtomicBool::new(false));
        let file = ArchiveFile {
            file: BufWriter::with_capacity(1 << 20, file),
            discard: discard.clone(),
            at: 0,
            end: 0,
        };
        Ok(NpzWriter {
            path: path.to_path_buf(),
            zip: Some(ZipWriter::new(file)),
            discard,
        })
    }

    /// Starts member `name` (e.g. `"target.npy"`) of about `data_len` bytes plus its
    /// header; write the member's bytes to the result. The previous member is closed.
    pub fn member(&mut self, name: &str, data_len: u64) -> Result<&mut impl Write, SidecarError> {
        let options = SimpleFileOptions::DEFAULT
            .compression_method(CompressionMethod::Stored)
            .large_file(data_len.saturating_add(HEADER_ROOM) >= ZIP64_BYTES_THR);
        let zip = self.zip.as_mut().expect("not finished");
        zip.start_file(name, options)
            .map_err(|e| zip_error(&self.path, Some(name), e))?;
        Ok(zip)
    }

    /// Closes the last member, writes the central directory and flushes the file.
    pub fn finish(mut self) -> Result<(), SidecarError> {
        let zip = self.zip.take().expect("not finished");
        let mut out = zip.finish().map_err(|e| zip_error(&self.path, None, e))?;
        out.flush().map_err(io_at(&self.path))?;
        drop(out);
        crate::part::commit(&self.path).map_err(io_at(&self.path))
    }
}

/// A member found in an archive's central directory.
#[derive(Debug, Clone)]
pub struct MemberInfo {
    /// Its file name inside the archive (`target.npy`).
    pub name: String,
    method: CompressionMethod,
    encrypted: bool,
    start: u64,
    len: u64,
    /// CRC-32 and size of the uncompressed bytes, from the central directory.
    crc32: u32,
    size: u64,
}

impl MemberInfo {
    /// The size of its uncompressed bytes, as the central directory records it.
    pub fn size(&self) -> u64 {
        self.size
    }
}

/// Reads members of an `.npz` archive.
pub struct NpzReader {
    path: PathBuf,
    members: Vec<MemberInfo>,
}

impl NpzReader {
    /// Opens an archive, reads its central directory and locates every member's data.
    pub fn open(path: &Path) -> Result<NpzReader, SidecarError> {
        let not_regular = || {
            io_at(path)(io::Error::other(
                "not a regular file (a pipe or a device): an .npz is read from its directory at the end, so it cannot stream; save it to a file and name that",
            ))
        };
        // a named pipe is told before it is opened: the open waits for a writer
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo()) {
                return Err(not_regular());
            }
        }
        let file = File::open(path).map_err(io_at(path))?;
        // (a folder opens, and then fails to seek with "Invalid argument")
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(io_at(path)(io::Error::other(
                "a folder, not an .npz file; name the sidecar inside it (perply_targets.npz)",
            )));
        }
        // (a pipe, `<(cat perply_targets.npz)`, failed with a bare "Illegal seek")
        if file.metadata().is_ok_and(|m| !m.is_file()) {
            return Err(not_regular());
        }
        // a zip reader finds an archive after any prefix (as a self-extracting one has),
        // but numpy.load tells an .npz by its first bytes and refuses such a file: one
        // the gate passed would then fail the user's own loader
        let mut head = [0u8; 4];
        let read = (&file).take(4).read(&mut head).map_err(io_at(path))?;
        // (a transcript's rows start with a column byte, 0x80 and up)
        if read == 4 && head[0] >= 0x80 && head.iter().all(|&b| b >= 0x80) {
            return Err(damaged(
                path,
                None,
                "it starts as a corpus transcript does, not as a zip archive: give the corpus's sidecar (perply_targets.npz) after the corpus".into(),
            ));
        }
        if read == 4 && head != *b"PK\x03\x04" && head != *b"PK\x05\x06" {
            return Err(damaged(
                path,
                None,
                "it does not start as a zip archive does (PK\\x03\\x04), so numpy.load would refuse it: bytes come before the archive; write the sidecar again".into(),
            ));
        }
        // `zip` searches for the directory where its records point wrong, and does not
        // read the versions and flags Python's reader refuses
        if let Some(r) = crate::zipcheck::refusal(&mut &file).map_err(io_at(path))? {
            let so = if r.numpy_refuses {
                ", so numpy.load would refuse it"
            } else {
                ""
            };
            return Err(damaged(
                path,
                None,
                format!("{}{so}: write the sidecar again", r.reason),
            ));
        }
        (&file).seek(SeekFrom::Start(0)).map_err(io_at(path))?;
        let mut zip =
            ZipArchive::new(BufReader::new(file)).map_err(|e| zip_error(path, None, e))?;
        let names: Vec<String> = zip
            .file_names_raw()
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect();
        // `zip` keeps one member of a name listed twice, and numpy's loader may keep the
        // other: a reader that picks would read what another does not
        if zip.has_duplicate_names() {
            return Err(damaged(
                path,
                None,
                "its directory names a member twice, and readers differ on which of the two they read; write the sidecar again".into(),
            ));
        }
        let mut members = Vec::with_capacity(names.len());
        for (i, name) in names.into_iter().enumerate() {
            let m = zip
                .by_index_raw(i)
                .map_err(|e| zip_error(path, Some(&name), e))?;
            let start = m
                .data_start()
                .ok_or_else(|| damaged(path, Some(&name), "data not found".into()))?;
            members.push(MemberInfo {
                method: m.compression(),
                encrypted: m.encrypted(),
                start,
                len: m.compressed_size(),
                crc32: m.crc32(),
                size: m.size(),
                name,
            });
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

    /// A streaming reader over the uncompressed bytes of member `name`, if present. Its
    /// size and CRC-32 are checked when it has been read to the end (see [`MemberReader`]).
    pub fn member(&self, name: &str) -> Result<Option<MemberReader>, SidecarError> {
        let Some(m) = self.members.iter().find(|m| m.name == name) else {
            return Ok(None);
        };
        let unsupported =
            |what: String| damaged(&self.path, Some(name), format!("{what} is not supported"));
        if m.encrypted {
            return Err(unsupported("encryption".into()));
        }
        let mut f = File::open(&self.path).map_err(io_at(&self.path))?;
        f.seek(SeekFrom::Start(m.start))
            .map_err(io_at(&self.path))?;
        let data = f.take(m.len);
        let source = match m.method {
            CompressionMethod::Stored => Source::Stored(data),
            method if method == CompressionMethod::DEFLATE => {
                Source::Deflated(DeflateDecoder::new(BufReader::with_capacity(1 << 20, data)))
            }
            other => {
                #[allow(deprecated)] // only to name the method in the message
                let code = other.to_u16();
                return Err(unsupported(format!("compression method {code} ({other})")));
            }
        };
        let checked = Checked {
            source,
            path: self.path.clone(),
            name: m.name.clone(),
            crc: crc32fast::Hasher::new(),
            read: 0,
            want_crc: m.crc32,
            want_size: m.size,
            failed: None,
        };
        // buffered above the check, so the CRC sees large slices, not single values
        Ok(Some(MemberReader {
            inner: BufReader::with_capacity(1 << 20, checked),
        }))
    }
}

/// A member's compressed or stored bytes, read from their own file handle.
enum Source {
    Stored(io::Take<File>),
    Deflated(DeflateDecoder<BufReader<io::Take<File>>>),
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::Stored(r) => r.read(buf),
            Source::Deflated(r) => r.read(buf),
        }
    }
}

/// A member's uncompressed bytes, counted and checksummed as they pass; the size and
/// CRC-32 recorded in the central directory are compared as soon as that many bytes
/// have passed and again at the end of the data.
struct Checked {
    source: Source,
    path: PathBuf,
    name: String,
    crc: crc32fast::Hasher,
    read: u64,
    want_crc: u32,
    want_size: u64,
    /// Why the member is damaged, once found: every later read fails the same way.
    failed: Option<String>,
}

impl Checked {
    /// The damage found, as a sidecar error carried through `Read`.
    fn error(&self) -> io::Error {
        let reason = self.failed.clone().unwrap_or_default();
        io::Error::new(
            io::ErrorKind::InvalidData,
            damaged(&self.path, Some(&self.name), reason),
        )
    }

    fn fail(&mut self, what: String) -> io::Error {
        self.failed = Some(format!("the data is damaged: {what}"));
        self.error()
    }

    /// Compares the CRC-32 of the bytes read so far with the recorded one.
    fn check_crc(&mut self) -> io::Result<()> {
        let computed = self.crc.clone().finalize();
        if computed == self.want_crc {
            return Ok(());
        }
        Err(self.fail(format!(
            "CRC-32 mismatch: recorded {:#010x}, computed {computed:#010x}",
            self.want_crc
        )))
    }
}

impl Read for Checked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.failed.is_some() {
            return Err(self.error());
        }
        if buf.is_empty() {
            return Ok(0);
        }
        let n = match self.source.read(buf) {
            Ok(n) => n,
            // a deflated member that does not inflate is damaged data, as a CRC
            // mismatch is, not a file that cannot be read
            Err(e)
                if matches!(self.source, Source::Deflated(_))
                    && matches!(
                        e.kind(),
                        io::ErrorKind::InvalidData
                            | io::ErrorKind::InvalidInput
                            | io::ErrorKind::UnexpectedEof
                    ) =>
            {
                return Err(self.fail(format!("its compressed data does not inflate ({e})")))
            }
            Err(e) => return Err(e),
        };
        if n == 0 {
            // the end of the data: all of it must have passed, and passed the check
            if self.read != self.want_size {
                return Err(self.fail(format!(
                    "{} bytes recorded, the data ends after {}",
                    self.want_size, self.read
                )));
            }
            self.check_crc()?;
            return Ok(0);
        }
        self.read += n as u64;
        if self.read > self.want_size {
            return Err(self.fail(format!(
                "{} bytes recorded, the data runs longer",
                self.want_size
            )));
        }
        self.crc.update(&buf[..n]);
        if self.read == self.want_size {
            self.check_crc()?;
        }
        Ok(n)
    }
}

/// A streaming reader over one member's uncompressed bytes (buffered), from
/// [`NpzReader::member`].
///
/// The bytes are checksummed as they stream through. When all the bytes the central
/// directory records have been read, or the data ends, their size and CRC-32 are
/// compared with the recorded ones; on a mismatch that read, and every later one, fails
/// with an [`io::Error`] of kind `InvalidData` that carries a
/// [`SidecarError::Container`] naming the file and the member (recover it with
/// `io::Error::downcast`). A reader that needs only part of the member calls
/// [`MemberReader::finish`] so the rest is checked too.
pub struct MemberReader {
    inner: BufReader<Checked>,
}

impl MemberReader {
    /// Reads the rest of the member, discarding it, so its size and CRC-32 are checked
    /// even when the caller needed only a prefix.
    pub fn finish(&mut self) -> Result<(), SidecarError> {
        match io::copy(&mut self.inner, &mut io::sink()) {
            Ok(_) => Ok(()),
            Err(e) => Err(io_at(&self.inner.get_ref().path)(e)),
        }
    }
}

impl Read for MemberReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf)
    }
}

impl BufRead for MemberReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.inner.consume(amt)
    }
}
