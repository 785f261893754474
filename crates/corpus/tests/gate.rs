//! The integrity gate: clean on a fresh corpus, and every injected corruption found.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use c4lab_board::{Position, WIDTH};
use c4lab_corpus::gate::{check, GateReport, Kind};
use c4lab_corpus::npz::{NpzReader, NpzWriter};
use c4lab_corpus::sidecar::RawArrays;
use c4lab_corpus::transcript::{encode_game, encode_ply, rows, PLY_LEN};

/// A fresh 200-game corpus (no holdout) and its paths.
struct Fixture {
    dir: common::Scratch,
    corpus: PathBuf,
    npz: PathBuf,
}

fn fixture(name: &str) -> Fixture {
    let dir = common::scratch(name);
    common::dataset(&dir, 200, 0, 7);
    Fixture {
        corpus: dir.join("train/corpus_200.txt"),
        npz: dir.join("train/perply_targets.npz"),
        dir,
    }
}

impl Fixture {
    fn bytes(&self) -> Vec<u8> {
        std::fs::read(&self.corpus).unwrap()
    }

    fn rows(&self) -> Vec<Vec<u8>> {
        rows(&self.bytes()).map(|r| r.to_vec()).collect()
    }

    fn raw(&self) -> RawArrays {
        RawArrays::read(&self.npz).unwrap()
    }

    /// Gate on a corrupted corpus (and the original or a corrupted sidecar).
    fn gate(&self, corpus: &[u8], raw: Option<&RawArrays>) -> GateReport {
        let c = self.dir.join("bad.txt");
        std::fs::write(&c, corpus).unwrap();
        let npz = match raw {
            Some(r) => {
                let p = self.dir.join("bad.npz");
                r.write(&p).unwrap();
                p
            }
            None => self.npz.clone(),
        };
        check(&c, Some(&npz)).unwrap()
    }
}

fn join(rows: &[Vec<u8>]) -> Vec<u8> {
    rows.iter()
        .flat_map(|r| r.iter().copied().chain([b'\n']))
        .collect()
}

fn expect(rep: &GateReport, kind: Kind, row: Option<usize>) {
    let k = rep
        .kinds
        .get(&kind)
        .unwrap_or_else(|| panic!("{} not reported:\n{rep}", kind.name()));
    assert!(k.count >= 1);
    if let Some(r) = row {
        assert!(
            k.examples.iter().any(|v| v.row == Some(r)),
            "{} not at row {r}:\n{rep}",
            kind.name()
        );
    }
    assert!(!rep.is_clean());
}

#[test]
fn fresh_corpus_is_clean() {
    let f = fixture("clean");
    let rep = check(&f.corpus, Some(&f.npz)).unwrap();
    assert!(rep.is_clean(), "{rep}");
    assert_eq!(rep.rows, 200);
    assert_eq!(rep.sidecar_rows, Some(200));
    // rewriting an untouched sidecar through the raw path stays clean too
    let rep = f.gate(&f.bytes(), Some(&f.raw()));
    assert!(rep.is_clean(), "{rep}");
    assert_eq!(rep.unlabelled_rows, 0);
    assert!(!rep.to_string().contains("no labelled slot"), "{rep}");
    // a row whose labels are all erased breaks no rule (any slot may be empty), but
    // leaves nothing to train on: the report counts it (it passed unsaid)
    let mut r = f.raw();
    let s = r.slots;
    for k in 3 * s..4 * s {
        r.ply_of[k] = -1;
        r.teacher[k] = 0;
    }
    r.target[3 * s * 7..4 * s * 7].fill(0.0);
    r.n_plies[3] = 0;
    let rep = f.gate(&f.bytes(), Some(&r));
    assert!(rep.is_clean(), "{rep}");
    assert_eq!(rep.unlabelled_rows, 1);
    assert!(
        rep.to_string().starts_with("200 rows, ")
            && rep
                .to_string()
                .contains(", sidecar 200 rows (1 with no labelled slot): clean"),
        "{rep}"
    );
}

#[test]
fn a_corpus_and_sidecar_given_the_other_way_round_are_named_so() {
    let f = fixture("swapped");
    // (it listed a hundred transcript faults, or called the sidecar damaged, and told
    // the user to write it again)
    let e = check(&f.npz, Some(&f.corpus)).unwrap_err().to_string();
    assert!(
        e.contains("a zip archive (an .npz sidecar?), not a corpus transcript: give the corpus first and its sidecar after it"),
        "{e}"
    );
    // (the gate reports a sidecar it cannot read as a violation of the sidecar's form)
    let e = check(&f.corpus, Some(&f.corpus)).unwrap().to_string();
    assert!(
        e.contains(
            "it starts as a corpus transcript does, not as a zip archive: give the corpus's sidecar"
        ),
        "{e}"
    );
}

/// Two rows of the same length swapped: every transcript rule and the sidecar's shape
/// hold, but the labels now sit on another game's positions, where some pass up an
/// immediate win or let the opponent win at once (no teacher labels so).
#[test]
fn rows_of_equal_length_swapped_are_caught_by_their_labels_tactics() {
    let f = fixture("swap");
    let rows = f.rows();
    let mut caught = 0;
    let mut swaps = 0;
    let mut used = vec![false; rows.len()];
    for a in 0..rows.len() {
        let Some(b) =
            (a + 1..rows.len()).find(|&b| !used[a] && !used[b] && rows[a].len() == rows[b].len())
        else {
            continue;
        };
        used[a] = true;
        used[b] = true;
        let mut swapped = rows.clone();
        swapped.swap(a, b);
        let rep = f.gate(&join(&swapped), None);
        swaps += 1;
        if rep.kinds.get(&Kind::Tactics).is_some_and(|k| {
            k.examples
                .iter()
                .any(|v| v.row == Some(a) || v.row == Some(b))
        }) {
            caught += 1;
        }
        if swaps == 10 {
            break;
        }
    }
    assert_eq!(swaps, 10);
    assert!(caught >= 9, "tactics caught {caught} of {swaps} swaps");
}

/// Every transcript corruption, on one fixture.
#[test]
fn transcript_corruptions() {
    let f = fixture("transcript");
    let good = f.rows();

    // byte 7 disagreeing with the previous ply's byte 9
    let mut r = good.clone();
    let b = &mut r[5][3 * PLY_LEN + 7];
    *b = if *b == b'A' { b'B' } else { b'A' };
    let rep = f.gate(&join(&r), None);
    expect(&rep, Kind::LastMove, Some(5));
    assert_eq!(rep.total(), 1, "only the corrupt byte: {rep}");

    // NO_LAST after the first ply
    let mut r = good.clone();
    r[6][PLY_LEN + 7] = b'-';
    expect(&f.gate(&join(&r), None), Kind::LastMove, Some(6));

    // wrong side-to-move byte
    let mut r = good.clone();
    let b = &mut r[8][2 * PLY_LEN + 8];
    *b = if *b == b'1' { b'2' } else { b'1' };
    expect(&f.gate(&join(&r), None), Kind::SideToMove, Some(8));

    // not a column byte
    let mut r = good.clone();
    r[9][4 * PLY_LEN + 2] = 0x7F;
    expect(&f.gate(&join(&r), None), Kind::ColumnByte, Some(9));

    // a valid column byte that disagrees with the replay (ownership flipped)
    let mut r = good.clone();
    let k = (0..good[10].len() / PLY_LEN)
        .find(|&k| r[10][k * PLY_LEN + 3] != 0x81)
        .unwrap();
    r[10][k * PLY_LEN + 3] ^= 1;
    let rep = f.gate(&join(&r), None);
    expect(&rep, Kind::BoardMismatch, Some(10));

    // a stone count that does not fit the ply
    let mut r = good.clone();
    let k = (0..good[11].len() / PLY_LEN)
        .find(|&k| r[11][k * PLY_LEN + 6] == 0x81)
        .unwrap();
    r[11][k * PLY_LEN + 6] = 0x84;
    expect(&f.gate(&join(&r), None), Kind::StoneCount, Some(11));

    // a move byte that is no column
    let mut r = good.clone();
    r[12][9] = b'H';
    expect(&f.gate(&join(&r), None), Kind::MoveByte, Some(12));

    // a move into a full column
    let mut r = good.clone();
    let full = encode_game(&[0, 0, 0, 0, 0, 0]).unwrap();
    let mut row = full.clone();
    let pos = Position::from_moves("111111").unwrap();
    row.extend_from_slice(&encode_ply(&pos, Some(0), 1));
    row[69] = b'A'; // column 1 is full
    r[13] = row;
    expect(&f.gate(&join(&r), None), Kind::FullColumn, Some(13));

    // a ply after a four
    let mut r = good.clone();
    let mut row = encode_game(&[0, 1, 0, 1, 0, 1, 0]).unwrap();
    let pos = Position::from_moves("1212121").unwrap();
    row.extend_from_slice(&encode_ply(&pos, Some(0), 1));
    r[14] = row;
    expect(&f.gate(&join(&r), None), Kind::AfterFour, Some(14));

    // a \r inside a row, and a CRLF line ending
    let mut r = good.clone();
    r[15][2 * PLY_LEN + 4] = b'\r';
    expect(&f.gate(&join(&r), None), Kind::CarriageReturn, Some(15));
    let mut r = good.clone();
    r[16].push(b'\r');
    let rep = f.gate(&join(&r), None);
    expect(&rep, Kind::CarriageReturn, Some(16));
    // said once: the rest of the row is checked, and its plies counted, without the \r
    assert_eq!(rep.kinds.len(), 1, "{rep}");
    assert_eq!(rep.plies, f.gate(&join(&good), None).plies, "{rep}");

    // a row length that is not a multiple of 10
    let mut r = good.clone();
    r[17].pop();
    expect(&f.gate(&join(&r), None), Kind::RowLength, Some(17));

    // an empty row (and so one row too many for the sidecar)
    let mut r = good.clone();
    r.insert(18, Vec::new());
    let rep = f.gate(&join(&r), None);
    expect(&rep, Kind::EmptyRow, Some(18));
    expect(&rep, Kind::RowCount, None);

    // a \n inside a row splits it: lengths and alignment break
    let mut r = good.clone();
    r[19][25] = b'\n';
    let rep = f.gate(&join(&r), None);
    expect(&rep, Kind::RowLength, Some(19));
    expect(&rep, Kind::RowCount, None);

    // a last move changed to another column that does not end the game: no later ply
    // repeats that byte, so only the game's end can tell
    let mut r = good.clone();
    let (i, x) = (0..good.len())
        .find_map(|i| {
            let g = c4lab_corpus::transcript::decode_row(i, &good[i]).unwrap();
            let before = *g.positions.last().unwrap();
            (0..WIDTH)
                .find(|&x| {
                    before.can_play(x) && {
                        let after = before.after(x);
                        after.winner().is_none() && !after.is_full()
                    }
                })
                .map(|x| (i, x))
        })
        .unwrap();
    let last = r[i].len() - 1;
    r[i][last] = b'A' + x as u8;
    let rep = f.gate(&join(&r), None);
    expect(&rep, Kind::Unfinished, Some(i));
    assert_eq!(rep.total(), 1, "only the changed move: {rep}");
    // a row cut short by one ply (the sidecar's slots then point past its end too)
    let mut r = good.clone();
    let n = r[20].len();
    r[20].truncate(n - PLY_LEN);
    expect(&f.gate(&join(&r), None), Kind::Unfinished, Some(20));

    // missing final newline
    let mut all = f.bytes();
    all.pop();
    expect(&f.gate(&all, None), Kind::FinalNewline, Some(199));
}

/// Every sidecar corruption, on one fixture.
#[test]
fn sidecar_corruptions() {
    let f = fixture("sidecar");
    let corpus = f.bytes();
    let good = f.raw();
    let s = good.slots;
    let rows: Vec<Vec<u8>> = f.rows();
    let n_of = |i: usize| rows[i].len() / PLY_LEN;

    // misaligned rows: one row fewer in the sidecar
    let mut r = good.clone();
    r.rows -= 1;
    r.target.truncate(r.rows * s * 7);
    r.ply_of.truncate(r.rows * s);
    r.teacher.truncate(r.rows * s);
    r.n_plies.truncate(r.rows);
    expect(&f.gate(&corpus, Some(&r)), Kind::RowCount, None);

    // a sidecar longer than the corpus, damaged in target rows the corpus does not
    // reach (past what is read ahead): the member is still checked to its end
    let mut r = good.clone();
    let extra = 3000;
    r.rows += extra;
    r.target.extend(std::iter::repeat_n(0.0, extra * s * 7));
    r.ply_of.extend(std::iter::repeat_n(-1, extra * s));
    r.teacher.extend(std::iter::repeat_n(0, extra * s));
    r.n_plies.extend(std::iter::repeat_n(0, extra));
    let long = f.dir.join("long.npz");
    r.write(&long).unwrap();
    let rep = check(&f.corpus, Some(&long)).unwrap();
    expect(&rep, Kind::RowCount, None);
    assert_eq!(rep.count(Kind::SidecarFormat), 0, "{rep}");
    let mut bytes = std::fs::read(&long).unwrap();
    let header = |i: usize| bytes[i..].starts_with(b"PK\x03\x04");
    let next = (0..bytes.len())
        .find(|&i| header(i) && bytes[i + 30..].starts_with(b"ply_of"))
        .unwrap();
    assert!(next > 1 << 20, "{next}");
    bytes[next - 1] ^= 0x01; // the last byte of target's data
    std::fs::write(&long, &bytes).unwrap();
    let rep = check(&f.corpus, Some(&long)).unwrap();
    expect(&rep, Kind::SidecarFormat, None);
    let format = &rep.kinds[&Kind::SidecarFormat].examples;
    assert!(
        format
            .iter()
            .any(|v| v.detail.contains("target.npy") && v.detail.contains("CRC-32 mismatch")),
        "{rep}"
    );

    // misaligned rows: labels shifted by one row
    let mut r = good.clone();
    r.target.drain(..s * 7);
    r.target.extend(std::iter::repeat_n(0.0, s * 7));
    r.ply_of.drain(..s);
    r.ply_of.extend(std::iter::repeat_n(-1, s));
    r.teacher.drain(..s);
    r.teacher.extend(std::iter::repeat_n(0, s));
    r.n_plies.remove(0);
    r.n_plies.push(0);
    let rep = f.gate(&corpus, Some(&r));
    assert!(
        rep.count(Kind::PlyOf) + rep.count(Kind::TargetIllegal) > 0,
        "{rep}"
    );

    // a target not summing to 1
    let mut r = good.clone();
    r.target[3 * s * 7 + 2 * 7..3 * s * 7 + 3 * 7]
        .copy_from_slice(&[0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    let rep = f.gate(&corpus, Some(&r));
    expect(&rep, Kind::TargetSum, Some(3));
    expect(&rep, Kind::Invariant, Some(3));

    // the invariant broken by mass on an empty slot
    let i = (0..good.rows)
        .find(|&i| n_of(i) < s)
        .expect("a game shorter than S");
    let mut r = good.clone();
    r.target[i * s * 7 + (s - 1) * 7] = 1.0;
    let rep = f.gate(&corpus, Some(&r));
    expect(&rep, Kind::Invariant, Some(i));

    // a negative target
    let mut r = good.clone();
    r.target[4 * s * 7] = -0.25;
    expect(&f.gate(&corpus, Some(&r)), Kind::TargetValue, Some(4));

    // ply_of out of place
    let mut r = good.clone();
    r.ply_of[5 * s] -= 1;
    let rep = f.gate(&corpus, Some(&r));
    expect(&rep, Kind::PlyOf, Some(5));
    // named by its slot (it read "row 5, byte 0: slot 0: ...")
    let v = &rep.kinds[&Kind::PlyOf].examples[0];
    assert_eq!((v.slot, v.byte), (Some(0), None));
    assert!(v.to_string().starts_with("row 5, slot 0: ply_of"), "{v}");

    // teacher flag 5, and flag 0 on a labelled slot
    let mut r = good.clone();
    r.teacher[6 * s + 1] = 5;
    expect(&f.gate(&corpus, Some(&r)), Kind::TeacherFlag, Some(6));
    let mut r = good.clone();
    r.teacher[7 * s] = 0;
    expect(&f.gate(&corpus, Some(&r)), Kind::TeacherFlag, Some(7));

    // n_plies wrong
    let mut r = good.clone();
    r.n_plies[8] += 1;
    expect(&f.gate(&corpus, Some(&r)), Kind::NPlies, Some(8));

    // flag 2 not one-hot
    let (i, slot) = (0..good.rows)
        .flat_map(|i| (0..s).map(move |k| (i, k)))
        .find(|&(i, k)| good.teacher[i * s + k] == 2)
        .unwrap();
    let mut r = good.clone();
    let t = &mut r.target[(i * s + slot) * 7..(i * s + slot + 1) * 7];
    let x = t.iter().position(|&v| v == 1.0).unwrap();
    let y = (x + 1) % WIDTH;
    t[x] = 0.5;
    t[y] = 0.5;
    let rep = f.gate(&corpus, Some(&r));
    expect(&rep, Kind::OneHot, Some(i));
    assert!(
        rep.to_string()
            .contains("is not one-hot (one column at exactly 1.0)"),
        "{rep}"
    );

    // flag 1 with more than 7 empty cells
    let (i, slot) = (0..good.rows)
        .flat_map(|i| (0..s).map(move |k| (i, k)))
        .find(|&(i, k)| good.teacher[i * s + k] == 2 && good.ply_of[i * s + k] < 30)
        .unwrap();
    let mut r = good.clone();
    r.teacher[i * s + slot] = 1;
    expect(&f.gate(&corpus, Some(&r)), Kind::BoundedScope, Some(i));

    // flag-1 labels: mass spread unevenly, and columns that are not the best moves
    let games: Vec<_> = rows
        .iter()
        .enumerate()
        .map(|(i, b)| c4lab_corpus::transcript::decode_row(i, b).unwrap())
        .collect();
    let (i, slot, x) = (0..good.rows)
        .flat_map(|i| (0..s).map(move |k| (i, k)))
        .filter(|&(i, k)| good.teacher[i * s + k] == 1)
        .find_map(|(i, k)| {
            let p = games[i].positions[good.ply_of[i * s + k] as usize];
            let t = &good.target[(i * s + k) * 7..(i * s + k + 1) * 7];
            // a legal column the label gives no mass: not a best move
            (0..WIDTH)
                .find(|&x| p.can_play(x) && t[x] == 0.0)
                .map(|x| (i, k, x))
        })
        .expect("a flag-1 slot without every legal column");
    let at = (i * s + slot) * 7..(i * s + slot + 1) * 7;
    let mut r = good.clone();
    let t = &mut r.target[at.clone()];
    let best = t.iter().position(|&v| v > 0.0).unwrap();
    t.fill(0.0);
    t[best] = 0.9;
    t[x] = 0.1;
    let rep = f.gate(&corpus, Some(&r));
    expect(&rep, Kind::Uneven, Some(i));
    let mut r = good.clone();
    let t = &mut r.target[at];
    t.fill(0.0);
    t[x] = 1.0;
    let rep = f.gate(&corpus, Some(&r));
    expect(&rep, Kind::BestMoves, Some(i));
    // (where the wrong column also passes up a win or lets one in, the tactics say so)
    assert!(
        rep.kinds.len() <= 2
            && rep
                .kinds
                .keys()
                .all(|k| matches!(k, Kind::BestMoves | Kind::Tactics))
            && rep.kinds.values().all(|k| k.count == 1),
        "only the wrong label: {rep}"
    );
    // the same wrong label said to be the full exact solver's: solved again there too
    // (at most 7 empty cells), where it passed as flag 3
    r.teacher[i * s + slot] = 3;
    let rep = f.gate(&corpus, Some(&r));
    expect(&rep, Kind::BestMoves, Some(i));
    assert!(rep.to_string().contains("flag 3 labels columns"), "{rep}");

    // mass on a full column
    let (i, slot, x) = (0..good.rows)
        .flat_map(|i| (0..s).map(move |k| (i, k)))
        .filter(|&(i, k)| good.ply_of[i * s + k] >= 0)
        .find_map(|(i, k)| {
            let p = games[i].positions[good.ply_of[i * s + k] as usize];
            (0..WIDTH).find(|&x| !p.can_play(x)).map(|x| (i, k, x))
        })
        .expect("some labelled board with a full column");
    let mut r = good.clone();
    let t = &mut r.target[(i * s + slot) * 7..(i * s + slot + 1) * 7];
    t.fill(0.0);
    t[x] = 1.0;
    expect(&f.gate(&corpus, Some(&r)), Kind::TargetIllegal, Some(i));

    // not an npz at all
    let junk = f.dir.join("junk.npz");
    std::fs::write(&junk, b"not a zip").unwrap();
    let rep = check(&f.corpus, Some(Path::new(&junk))).unwrap();
    expect(&rep, Kind::SidecarFormat, None);
    // no file at all: an input that cannot be read, as a missing corpus is, not a
    // format violation
    let e = check(&f.corpus, Some(Path::new("/nonexistent/x.npz"))).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("/nonexistent/x.npz: No such file"),
        "{e}"
    );
    // a missing array: the archive copied without n_plies is refused, naming it
    let source = NpzReader::open(&f.npz).unwrap();
    let partial = f.dir.join("partial.npz");
    let mut w = NpzWriter::create(&partial).unwrap();
    for m in source.members() {
        if m.name == "n_plies.npy" {
            continue;
        }
        let mut data = Vec::new();
        source
            .member(&m.name)
            .unwrap()
            .unwrap()
            .read_to_end(&mut data)
            .unwrap();
        w.member(&m.name, data.len() as u64)
            .unwrap()
            .write_all(&data)
            .unwrap();
    }
    w.finish().unwrap();
    let rep = check(&f.corpus, Some(&partial)).unwrap();
    expect(&rep, Kind::SidecarFormat, None);
    assert!(rep.to_string().contains("n_plies"), "{rep}");
    // every array and more: a member of another name is named (it was passed over in
    // silence), and nothing else is flagged; an array's name given twice (a patched
    // archive: `zip` writes no such thing) is refused, where one of the two was read
    let more = f.dir.join("more.npz");
    let mut w = NpzWriter::create(&more).unwrap();
    let names = ["target", "ply_of", "teacher", "n_plies", "n_plies"];
    for (i, from) in names.iter().enumerate() {
        let mut data = Vec::new();
        let member = format!("{from}.npy");
        let mut r = source.member(&member).unwrap().unwrap();
        r.read_to_end(&mut data).unwrap();
        let name = if i == 4 { "notes_x.npy".into() } else { member };
        w.member(&name, data.len() as u64)
            .unwrap()
            .write_all(&data)
            .unwrap();
    }
    w.finish().unwrap();
    let rep = check(&f.corpus, Some(&more)).unwrap();
    assert_eq!(rep.count(Kind::SidecarFormat), 1, "{rep}");
    assert_eq!(rep.kinds.len(), 1, "{rep}");
    let said = rep.to_string();
    assert!(
        said.contains("member \"notes_x.npy\" is no array of a sidecar"),
        "{said}"
    );
    let mut bytes = std::fs::read(&more).unwrap();
    let at: Vec<usize> = (0..bytes.len() - 11)
        .filter(|&i| &bytes[i..i + 11] == b"notes_x.npy")
        .collect();
    assert_eq!(at.len(), 2, "a local header and the central directory");
    for i in at {
        bytes[i..i + 11].copy_from_slice(b"n_plies.npy");
    }
    std::fs::write(&more, &bytes).unwrap();
    let rep = check(&f.corpus, Some(&more)).unwrap();
    expect(&rep, Kind::SidecarFormat, None);
    assert_eq!(rep.kinds.len(), 1, "{rep}");
    let said = rep.to_string();
    assert!(
        said.contains("its directory names a member twice"),
        "{said}"
    );
}
