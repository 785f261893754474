//! Reading the sidecar's small arrays (`ply_of`, `teacher`, `n_plies`) whole.

use std::io;
use std::path::Path;

use npyz::NpyFile;

use crate::error::SidecarError;
use crate::npz::{io_at, MemberReader};

/// An empty vector with room for every value of an opened array. The room is asked for
/// before anything is read: a small file can hold an array of gigabytes (zeros deflate a
/// thousandfold), and memory that cannot be had is then an error that names the array,
/// not an abort as the values come in.
pub(super) fn room_for<T>(
    f: &NpyFile<MemberReader>,
    path: &Path,
    name: &str,
) -> Result<Vec<T>, SidecarError> {
    let shape = f.shape();
    match room(shape) {
        Some(values) => Ok(values),
        None => Err(SidecarError::Array {
            path: path.to_path_buf(),
            name: name.to_string(),
            reason: format!(
                "its shape {shape:?} needs {} bytes in memory, more than this machine gives now (numpy.load would need them too): check that this is the corpus's sidecar",
                (shape.iter()).fold(std::mem::size_of::<T>() as u128, |n, &d| n
                    .saturating_mul(u128::from(d)))
            ),
        }),
    }
}

/// Every value of an opened array into `values` (made by [`room_for`]), then the rest
/// of its member (nothing: a member that runs on past its array is refused as it
/// opens), so the member's size and CRC-32 are checked.
pub(super) fn read_all<T: npyz::Deserialize>(
    f: NpyFile<MemberReader>,
    mut values: Vec<T>,
    path: &Path,
    name: &str,
) -> Result<Vec<T>, SidecarError> {
    let ended_early = |e: io::Error| match e.kind() {
        // (it read "failed to fill whole buffer")
        io::ErrorKind::UnexpectedEof => SidecarError::Array {
            path: path.to_path_buf(),
            name: name.to_string(),
            reason: "ends early: the file is cut short or damaged; write the sidecar again".into(),
        },
        _ => io_at(path)(e),
    };
    let header = f.header().clone();
    let mut member = f.into_inner();
    let reader = NpyFile::with_header(header, &mut member)
        .data::<T>()
        .map_err(|e| io_at(path)(io::Error::new(io::ErrorKind::InvalidData, e)))?;
    for value in reader {
        values.push(value.map_err(ended_early)?);
    }
    member.finish()?;
    Ok(values)
}

/// An empty vector with room for an array of `shape`, or None where the memory cannot
/// be had.
pub(super) fn room<T>(shape: &[u64]) -> Option<Vec<T>> {
    let count = shape.iter().try_fold(1u64, |n, &d| n.checked_mul(d))?;
    let mut values = Vec::new();
    values
        .try_reserve_exact(usize::try_from(count).ok()?)
        .ok()?;
    Some(values)
}

#[cfg(test)]
mod tests {
    use super::room;

    #[test]
    fn room_that_cannot_be_had_is_none_not_an_abort() {
        assert!(room::<i16>(&[3, 19]).is_some_and(|v| v.capacity() >= 57));
        // 2^60 bytes, past any machine's address space; and a count past u64
        assert!(room::<i16>(&[1 << 40, 1 << 19]).is_none());
        assert!(room::<i8>(&[1 << 40, 1 << 40]).is_none());
    }
}
