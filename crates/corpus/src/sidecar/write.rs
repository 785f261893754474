//! Writing the sidecar: its four arrays streamed into the archive, in order.

use std::io;
use std::path::Path;

use npyz::WriterBuilder;

use super::Labels;
use crate::error::SidecarError;
use crate::npz::{io_at, NpzWriter};

fn write_array<T, I>(
    npz: &mut NpzWriter,
    path: &Path,
    name: &str,
    shape: &[u64],
    values: I,
) -> Result<(), SidecarError>
where
    T: npyz::AutoSerialize,
    I: Iterator<Item = T>,
{
    let data_len = shape
        .iter()
        .product::<u64>()
        .saturating_mul(std::mem::size_of::<T>() as u64);
    let member = npz.member(&format!("{name}.npy"), data_len)?;
    let mut w = npyz::WriteOptions::<T>::new()
        .default_dtype()
        .shape(shape)
        .writer(io::BufWriter::with_capacity(1 << 16, member)) // whole buffers into zip's CRC
        .begin_nd()
        .map_err(io_at(path))?;
    for v in values {
        w.push(&v).map_err(io_at(path))?;
    }
    w.finish().map_err(io_at(path))
}

/// Writes the four arrays of the format (crates/corpus/README.md), in order, from
/// streams of their values: the one place that knows the sidecar's names, shapes and
/// dtypes.
pub(super) fn write_arrays(
    path: &Path,
    (n, s): (u64, u64),
    target: impl Iterator<Item = f32>,
    ply_of: impl Iterator<Item = i16>,
    teacher: impl Iterator<Item = i8>,
    n_plies: impl Iterator<Item = i16>,
) -> Result<(), SidecarError> {
    let mut npz = NpzWriter::create(path)?;
    write_array(&mut npz, path, "target", &[n, s, 7], target)?;
    write_array(&mut npz, path, "ply_of", &[n, s], ply_of)?;
    write_array(&mut npz, path, "teacher", &[n, s], teacher)?;
    write_array(&mut npz, path, "n_plies", &[n], n_plies)?;
    npz.finish()
}

/// Writes `labels` as a sidecar at `path`, streaming each array.
pub fn write_sidecar(path: &Path, labels: &Labels) -> Result<(), SidecarError> {
    let flat = || labels.rows().flatten();
    write_arrays(
        path,
        (labels.len() as u64, labels.slots() as u64),
        flat().flat_map(|l| l.target()),
        flat().map(|l| l.ply),
        flat().map(|l| l.flag as i8),
        labels
            .rows()
            .map(|r| r.iter().filter(|l| l.ply >= 0).count() as i16),
    )
}
