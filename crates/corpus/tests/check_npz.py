#!/usr/bin/env python3
"""Load a perply_targets.npz with numpy and check names, shapes, dtypes and the invariant.

usage: check_npz.py TARGETS.npz [ROWS [SLOTS]]    exits non-zero on any failure
"""
import sys

import numpy as np


def fail(msg):
    print("check_npz: FAIL: " + msg)
    sys.exit(1)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    path = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else None
    slots = int(sys.argv[3]) if len(sys.argv) > 3 else 19
    with np.load(path) as z:
        names = sorted(z.files)
        if names != sorted(["target", "ply_of", "teacher", "n_plies"]):
            fail("arrays %r" % names)
        target, ply_of, teacher, n_plies = z["target"], z["ply_of"], z["teacher"], z["n_plies"]
    n = target.shape[0]
    if rows is not None and n != rows:
        fail("%d rows, expected %d" % (n, rows))
    want = {
        "target": (target, (n, slots, 7), np.float32),
        "ply_of": (ply_of, (n, slots), np.int16),
        "teacher": (teacher, (n, slots), np.int8),
        "n_plies": (n_plies, (n,), np.int16),
    }
    for name, (a, shape, dtype) in want.items():
        if a.shape != shape:
            fail("%s shape %r, expected %r" % (name, a.shape, shape))
        if a.dtype != dtype:
            fail("%s dtype %s, expected %s" % (name, a.dtype, np.dtype(dtype)))
    labelled = ply_of >= 0
    # the invariant exactly as the contract writes it, `==`, in float32 as numpy sums
    # (masses in whole units of 2^-19 make every sum exact)
    broken = target.sum(axis=(1, 2)) != labelled.sum(axis=1)
    if broken.any():
        rows_broken = np.nonzero(broken)[0]
        fail("invariant broken on rows %r (sums %r)" % (rows_broken[:5].tolist(), target.sum(axis=(1, 2))[rows_broken[:5]].tolist()))
    if not np.array_equal(n_plies, labelled.sum(axis=1)):
        fail("n_plies differs from the labelled slots")
    if not np.array_equal(teacher == 0, ~labelled):
        fail("teacher flag 0 must mark exactly the empty slots")
    if not np.isin(teacher, [0, 1, 2, 3]).all():
        fail("teacher flags outside 0..3")
    slot_sums = target.sum(axis=2)
    if (slot_sums[labelled] != 1.0).any():
        fail("a labelled slot does not sum to exactly 1")
    if (slot_sums[~labelled] != 0).any():
        fail("an empty slot carries mass")
    two = teacher == 2
    if not ((target[two] > 0).sum(axis=1) == 1).all():
        fail("a flag-2 slot is not one-hot")
    # newest first: slot s holds ply n-1-s
    first = ply_of[:, 0]
    for s in range(1, slots):
        col = ply_of[:, s]
        ok = (col == -1) | (col == first - s)
        if not ok.all():
            fail("slot %d out of order" % s)
    print("check_npz: ok: %d rows, %d slots, %d labelled" % (n, slots, int(labelled.sum())))


if __name__ == "__main__":
    main()
