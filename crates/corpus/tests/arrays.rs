//! The arrays inside a sidecar: values out of range, Fortran order, shapes their data
//! cannot fill, members named without `.npy` (the container itself: npz.rs).
//! panic, never a silently wrong value) on truncated or damaged archives.

mod common;

use std::io::Write;
use std::process::Command;

use c4lab_corpus::npz::NpzWriter;
use c4lab_corpus::sidecar::{read_labels, write_sidecar, RawArrays, Sidecar};
use c4lab_corpus::SidecarError;
use common::{names, random_labels, read_err};

#[test]
fn a_target_that_is_not_a_number_or_a_flag_out_of_range_is_refused_with_its_place() {
    let dir = common::scratch("npz-values");
    let good = dir.join("good.npz");
    write_sidecar(&good, &random_labels(20, 5, 7)).unwrap();
    let raw = RawArrays::read(&good).unwrap();
    // row 3, slot 2: a labelled slot whose first column is NaN
    let mut nan = raw.clone();
    nan.teacher[3 * 5 + 2] = 2;
    nan.ply_of[3 * 5 + 2] = 4;
    nan.target[(3 * 5 + 2) * 7..(3 * 5 + 3) * 7].copy_from_slice(&[
        f32::NAN,
        1.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ]);
    let p = dir.join("nan.npz");
    nan.write(&p).unwrap();
    let e = read_labels(&p).unwrap_err().to_string();
    assert!(
        e.contains("row 3, slot 2") && e.contains("not a number"),
        "{e}"
    );
    // a teacher flag outside 0-3
    let mut flag = raw;
    flag.teacher[11] = -2;
    let p = dir.join("flag.npz");
    flag.write(&p).unwrap();
    let e = read_labels(&p).unwrap_err().to_string();
    assert!(e.contains("row 2, slot 1") && e.contains("flag -2"), "{e}");
}

#[test]
fn a_fortran_order_array_is_refused_not_read_transposed() {
    let dir = common::scratch("fortran");
    let path = dir.join("perply_targets.npz");
    let script = format!(
        "import numpy as np\n\
         t = np.zeros((2, 3, 7), dtype='<f4'); p = np.full((2, 3), -1, dtype='<i2')\n\
         f = np.zeros((2, 3), dtype='i1'); n = np.zeros(2, dtype='<i2')\n\
         np.savez({:?}, target=np.asfortranarray(t), ply_of=p, teacher=f, n_plies=n)\n",
        path.display().to_string()
    );
    if !common::has_numpy("test") {
        return;
    }
    let ran = Command::new("python3").args(["-c", &script]).status();
    assert!(
        ran.is_ok_and(|s| s.success()),
        "numpy could not write {path:?}"
    );
    let err = Sidecar::open(&path).err().expect("refused");
    assert!(err.to_string().contains("Fortran order"), "{err}");
}

#[test]
fn a_shape_its_data_cannot_fill_is_refused_before_anything_is_allocated() {
    let dir = common::scratch("npz-shapes");
    let bad = dir.join("bad.npz");
    let write = |members: [(&str, Vec<u8>); 4]| write_npz(&bad, members);
    // 2^59 slots: a row buffer of that size would abort the process
    let huge = 1u64 << 59;
    write([
        ("target.npy", npy("<f4", &format!("(0, {huge}, 7)"), &[])),
        ("ply_of.npy", npy("<i2", &format!("(0, {huge})"), &[])),
        ("teacher.npy", npy("|i1", &format!("(0, {huge})"), &[])),
        ("n_plies.npy", npy("<i2", "(0,)", &[])),
    ]);
    let e = read_err(&bad);
    assert!(
        matches!(e, SidecarError::Array { ref name, .. } if name == "target"),
        "{e}"
    );
    assert!(e.to_string().contains("expected 1 to 42"), "{e}");
    // a million rows claimed, one row of data held
    let rows = 1_000_000;
    write([
        (
            "target.npy",
            npy("<f4", &format!("({rows}, 2, 7)"), &[0; 56]),
        ),
        ("ply_of.npy", npy("<i2", &format!("({rows}, 2)"), &[0; 4])),
        ("teacher.npy", npy("|i1", &format!("({rows}, 2)"), &[0; 2])),
        ("n_plies.npy", npy("<i2", &format!("({rows},)"), &[0; 2])),
    ]);
    let e = read_err(&bad);
    names(&e, &bad, Some("target"));
    assert!(
        e.to_string()
            .contains("its shape needs 56000000 bytes of data"),
        "{e}"
    );
    // data a little short of the shape (the member, with its header, holds as many
    // bytes as the data needs): named by its array, before it is read (it read "failed
    // to fill whole buffer")
    write([
        ("target.npy", npy("<f4", "(20, 2, 7)", &[0; 1120])),
        ("ply_of.npy", npy("<i2", "(20, 2)", &[0; 70])),
        ("teacher.npy", npy("|i1", "(20, 2)", &[0; 40])),
        ("n_plies.npy", npy("<i2", "(20,)", &[0; 40])),
    ]);
    let e = read_err(&bad);
    names(&e, &bad, Some("ply_of"));
    assert!(
        e.to_string()
            .contains("array \"ply_of\": its shape needs 80 bytes of data, the member holds 70"),
        "{e}"
    );
}

/// Writes an `.npz` of `members` (name, bytes) to `path`, each as given.
fn write_npz(path: &std::path::Path, members: [(&str, Vec<u8>); 4]) {
    let mut w = NpzWriter::create(path).unwrap();
    for (name, data) in members {
        w.member(name, data.len() as u64)
            .unwrap()
            .write_all(&data)
            .unwrap();
    }
    w.finish().unwrap();
}

/// A `.npy` file: a version 1.0 header holding `dict` (padded as numpy pads it), then
/// `data`.
fn npy_of(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut dict = dict.to_string();
    while !(10 + dict.len() + 1).is_multiple_of(64) {
        dict.push(' ');
    }
    dict.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((dict.len() as u16).to_le_bytes());
    out.extend(dict.as_bytes());
    out.extend(data);
    out
}

/// A `.npy` file: a version 1.0 header for `descr` and `shape`, then `data`.
fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    npy_of(
        &format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}"),
        data,
    )
}

#[test]
fn a_member_numpy_load_would_refuse_or_read_short_is_refused() {
    let dir = common::scratch("npz-numpy-rules");
    let good = dir.join("good.npz");
    write_sidecar(&good, &random_labels(3, 2, 9)).unwrap();
    let raw = RawArrays::read(&good).unwrap();
    let target: Vec<u8> = raw.target.iter().flat_map(|v| v.to_le_bytes()).collect();
    let bad = dir.join("bad.npz");
    // the sidecar with its target member replaced by `member`
    let with_target = |member: Vec<u8>| {
        write_npz(
            &bad,
            [
                ("target.npy", member),
                ("ply_of.npy", npy("<i2", "(3, 2)", &bytes_of(&raw.ply_of))),
                ("teacher.npy", npy("|i1", "(3, 2)", &bytes_of(&raw.teacher))),
                ("n_plies.npy", npy("<i2", "(3,)", &bytes_of(&raw.n_plies))),
            ],
        );
        Sidecar::open(&bad).err().map(|e| e.to_string())
    };
    assert_eq!(
        with_target(npy("<f4", "(3, 2, 7)", &target)),
        None,
        "as written"
    );
    let cases = [
        // numpy.load: "Header does not contain the correct keys"
        (
            npy_of(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2, 7), 'extra': 1}",
                &target,
            ),
            "exactly descr, fortran_order and shape",
        ),
        // numpy.load: "shape is not valid"
        (
            npy("<f4", "[3, 2, 7]", &target),
            "a shape is a tuple of integers",
        ),
        // a fourth row past the shape's three, which numpy.load passes over unread
        (
            npy("<f4", "(3, 2, 7)", &[&target[..], &[0u8; 56]].concat()),
            "holds 56 bytes past the 168 of data its shape needs",
        ),
        // a length field claiming 4 GiB of header (npyz allocated it, or aborted)
        (
            [&b"\x93NUMPY\x02\x00\xF0\xFF\xFF\xFF"[..], &target].concat(),
            "claims 4294967280 bytes, past numpy.load's limit of 10000",
        ),
    ];
    for (member, said) in cases {
        let e = with_target(member).expect("refused");
        assert!(e.contains("array \"target\"") && e.contains(said), "{e}");
    }
}

fn bytes_of<T: Copy + Into<i64>>(values: &[T]) -> Vec<u8> {
    let size = std::mem::size_of::<T>();
    values
        .iter()
        .flat_map(|&v| v.into().to_le_bytes()[..size].to_vec())
        .collect()
}

#[test]
fn members_named_without_npy_are_named_with_the_name_a_sidecar_needs() {
    // numpy's np.load reads members named `target`, `ply_of`...; a sidecar's are
    // `target.npy`...: the message said array "target" was missing while naming
    // "target" among the members held
    let dir = common::scratch("npz-suffix");
    let bad = dir.join("bad.npz");
    let mut w = NpzWriter::create(&bad).unwrap();
    for (name, data) in [
        ("target", npy("<f4", "(0, 2, 7)", &[])),
        ("ply_of", npy("<i2", "(0, 2)", &[])),
        ("teacher", npy("|i1", "(0, 2)", &[])),
        ("n_plies", npy("<i2", "(0,)", &[])),
    ] {
        w.member(name, data.len() as u64)
            .unwrap()
            .write_all(&data)
            .unwrap();
    }
    w.finish().unwrap();
    let e = read_err(&bad).to_string();
    assert!(
        e.contains("no member \"target.npy\" (the file holds \"target\", \"ply_of\""),
        "{e}"
    );
}
