//! The `.npz` container, a zip archive of `.npy` members, through the `zip` crate.
//!
//! Members are written *stored* (uncompressed) and streamed, with a fixed 1980-01-01
//! timestamp so equal arrays give equal bytes; a member that may pass 4 GiB gets zip64
//! fields. Reading accepts stored and deflated members (`np.savez`,
//! `np.savez_compressed`): `zip` parses the directories (zip64 included) and finds each
//! member's data, which is then streamed from its own file handle, because `zip`'s
//! member readers borrow the archive while a sidecar's target stream outlives it.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use flate2::read::DeflateDecoder;
use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter, ZIP64_BYTES_THR};

use crate::error::SidecarError;

/// Room for a `.npy` header on top of its data when deciding whether zip64 is needed.
const HEADER_ROOM: u64 = 1 << 16;

/// Attaches `path` to an I/O error.
pub(crate) fn io_at(path: &Path) -> impl Fn(io::Error) -> SidecarError + '_ {
    move |source| SidecarError::Io {
        path: path.to_path_buf(),
        source,
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
        other => damaged(path, member, other.to_string()),
    }
}

/// Writes an `.npz` archive member by member, streaming each.
pub struct NpzWriter {
    path: PathBuf,
    zip: ZipWriter<BufWriter<File>>,
}

impl NpzWriter {
    /// Creates (truncates) the archive at `path`.
    pub fn create(path: &Path) -> Result<NpzWriter, SidecarError> {
        let file = File::create(path).map_err(io_at(path))?;
        Ok(NpzWriter {
            path: path.to_path_buf(),
            zip: ZipWriter::new(BufWriter::with_capacity(1 << 20, file)),
        })
    }

    /// Starts member `name` (e.g. `"target.npy"`) of about `data_len` bytes plus its
    /// header; write the member's bytes to the result. The previous member is closed.
    pub fn member(&mut self, name: &str, data_len: u64) -> Result<&mut impl Write, SidecarError> {
        let options = SimpleFileOptions::DEFAULT
            .compression_method(CompressionMethod::Stored)
            .large_file(data_len.saturating_add(HEADER_ROOM) >= ZIP64_BYTES_THR);
        self.zip
            .start_file(name, options)
            .map_err(|e| zip_error(&self.path, Some(name), e))?;
        Ok(&mut self.zip)
    }

    /// Closes the last member, writes the central directory and flushes the file.
    pub fn finish(self) -> Result<(), SidecarError> {
        let mut out = self
            .zip
            .finish()
            .map_err(|e| zip_error(&self.path, None, e))?;
        out.flush().map_err(io_at(&self.path))
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
}

/// Reads members of an `.npz` archive.
pub struct NpzReader {
    path: PathBuf,
    members: Vec<MemberInfo>,
}

impl NpzReader {
    /// Opens an archive, reads its central directory and locates every member's data.
    pub fn open(path: &Path) -> Result<NpzReader, SidecarError> {
        let file = File::open(path).map_err(io_at(path))?;
        let mut zip =
            ZipArchive::new(BufReader::new(file)).map_err(|e| zip_error(path, None, e))?;
        let names: Vec<String> = zip
            .file_names_raw()
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect();
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

    /// A streaming reader over the uncompressed bytes of member `name`, if present.
    pub fn member(&self, name: &str) -> Result<Option<Box<dyn Read>>, SidecarError> {
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
        let data = BufReader::with_capacity(1 << 20, f).take(m.len);
        match m.method {
            CompressionMethod::Stored => Ok(Some(Box::new(data))),
            method if method == CompressionMethod::DEFLATE => {
                Ok(Some(Box::new(BufReader::new(DeflateDecoder::new(data)))))
            }
            other => {
                #[allow(deprecated)] // only to name the method in the message
                let code = other.to_u16();
                Err(unsupported(format!("compression method {code} ({other})")))
            }
        }
    }
}
