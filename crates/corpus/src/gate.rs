//! The integrity gate (`corpus check`): every rule of the format
//! (crates/corpus/README.md), legality, and the sidecar's alignment and invariants.
//! Violations are grouped by [`Kind`], each with a count and its first few examples
//! (row, ply, byte).
//!
//! Transcript rules, per row: a final `\n`; no `\r`; a length that is a multiple of
//! 10 and not 0; valid column bytes; stone counts that fit the ply (k stones at ply
//! k, the first player's count equal to or one more than the second's); column bytes
//! equal to the board replayed from the previous ply; byte 7 = `-` at ply 0 and the
//! previous ply's byte 9 after; byte 8 naming the side to move (alternating from
//! `1`); byte 9 a column `A`..`G` that is not full; no ply after a four, and the
//! last ply's move ends the game (a four or a full board). After a
//! mismatch the replay resynchronises on the row's own bytes, so one corruption is
//! reported once.
//!
//! Sidecar rules: four arrays of the right dtypes and shapes, N equal to the corpus
//! rows; `n_plies` = labelled slots; slot `s` of a game with `n` plies holds ply
//! `n-1-s` or -1; teacher flag in {0,1,2,3}, 0 iff the slot is empty; targets finite
//! and non-negative, summing to 1 on a labelled slot (within 1e-5) and 0 elsewhere,
//! with mass only on legal columns; flag 2 one-hot; flags 1 and 3 spread evenly over
//! their columns (within two units of 2^-19 of `SlotLabel::target`'s masses); flag 1
//! only with <= 7 empty cells, on exactly the best moves (solved again here, as flag 3
//! is at boards with <= 7 empty cells); a labelled column never passes up an immediate
//! win, nor lets the opponent win at once where another column would not (no teacher
//! labels so: a label that does belongs to another position, as when rows were
//! swapped); and `target.sum(axis=(1,2)) == (ply_of >= 0).sum(axis=1)` (within 1e-4).

use std::path::Path;

use c4lab_board::{Position, CELLS, WIDTH};

use crate::error::{CorpusError, SidecarError};
use crate::reader::RowReader;
use c4lab_solver::Solver;

use crate::sidecar::{Sidecar, SlotLabel, FLAG_ALPHABETA, FLAG_BOUNDED, FLAG_EXACT};
use crate::teacher::mask_of;
use crate::transcript::{board_from_columns, column_bytes, MOVE_BASE, NO_LAST, PLY_LEN};
use crate::transcript::{SIDE_FIRST, SIDE_SECOND};
pub use crate::violations::{GateReport, Kind, KindReport, Violation};

/// Examples kept per kind unless configured otherwise.
pub const DEFAULT_EXAMPLES: usize = 5;
/// Largest number of empty cells at a flag-1 (bounded exact) slot.
pub const BOUNDED_EMPTY: u32 = 7;

/// A column mask as 1-based column numbers (`3, 5`).
fn columns(mask: u8) -> String {
    let cols: Vec<String> = (0..7)
        .filter(|x| mask & (1 << x) != 0)
        .map(|x| (x + 1).to_string())
        .collect();
    cols.join(", ")
}

fn hex(b: u8) -> String {
    format!("0x{b:02X}")
}

/// Checks one row's transcript; returns the board before each ply (`None` where the
/// ply's board cannot be trusted), or `None` when the row cannot be cut into plies.
fn check_row(rep: &mut GateReport, row: usize, bytes: &[u8]) -> Option<Vec<Option<Position>>> {
    let r = Some(row);
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\r' {
            let (p, y) = (i / PLY_LEN, i % PLY_LEN);
            rep.add(
                Kind::CarriageReturn,
                r,
                Some(p),
                Some(y),
                "\\r inside a row (a transcript is binary: a copy that converted its line endings to \\r\\n puts one before every \\n; copy it unchanged)",
            );
        }
    }
    // a CRLF line end is said once, above: the rest of the row is checked without it
    // (each such row was also a row-length violation, and its plies went uncounted)
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if bytes.is_empty() {
        rep.add(Kind::EmptyRow, r, None, None, "a row with no ply");
        return None;
    }
    if !bytes.len().is_multiple_of(PLY_LEN) {
        let detail = format!("{} bytes is not a multiple of 10", bytes.len());
        rep.add(Kind::RowLength, r, None, None, detail);
        return None;
    }
    let n = bytes.len() / PLY_LEN;
    rep.plies += n as u64;
    let mut boards = Vec::with_capacity(n);
    // the board the previous ply's move leads to (None once lost)
    let mut replay = Some(Position::new());
    let mut prev_move: Option<u8> = None;
    for k in 0..n {
        let p = &bytes[k * PLY_LEN..(k + 1) * PLY_LEN];
        let at = |b: usize| (Some(k), Some(b));
        let own = match board_from_columns(&p[..WIDTH]) {
            Err(x) => {
                let (pl, by) = at(x);
                rep.add(
                    Kind::ColumnByte,
                    r,
                    pl,
                    by,
                    format!("{} is not a column byte", hex(p[x])),
                );
                None
            }
            Ok((red, yellow)) => {
                let (nr, ny) = (red.count_ones(), yellow.count_ones());
                if nr + ny != k as u32 || !(nr == ny || nr == ny + 1) {
                    let d = format!("{nr} first-player and {ny} second-player stones at ply {k}");
                    rep.add(Kind::StoneCount, r, Some(k), None, d);
                    None
                } else {
                    Some(Position::from_bitboards(red, yellow))
                }
            }
        };
        if let Some(want) = replay {
            let expected = column_bytes(&want);
            if let Some(x) = (0..WIDTH).find(|&x| p[x] != expected[x]) {
                let d = format!(
                    "column byte {} disagrees with the replayed board ({})",
                    hex(p[x]),
                    hex(expected[x])
                );
                let (pl, by) = at(x);
                rep.add(Kind::BoardMismatch, r, pl, by, d);
            }
        }
        let want_last = prev_move.map_or(NO_LAST, |c| c);
        if p[7] != want_last {
            let d = format!(
                "last move {}, expected {} (byte 9 of the previous ply)",
                hex(p[7]),
                hex(want_last)
            );
            let (pl, by) = at(7);
            rep.add(Kind::LastMove, r, pl, by, d);
        }
        let want_side = if k % 2 == 0 { SIDE_FIRST } else { SIDE_SECOND };
        if p[8] != want_side {
            let d = format!("side to move {}, expected {}", hex(p[8]), hex(want_side));
            let (pl, by) = at(8);
            rep.add(Kind::SideToMove, r, pl, by, d);
        }
        // the board this ply is played on: its own bytes when valid, else the replay
        let board = own.or(replay);
        let mv = p[9].wrapping_sub(MOVE_BASE) as usize;
        replay = None;
        if mv >= WIDTH {
            let (pl, by) = at(9);
            rep.add(
                Kind::MoveByte,
                r,
                pl,
                by,
                format!("{} is not a move (A..G)", hex(p[9])),
            );
        } else if let Some(b) = board {
            if b.winner().is_some() {
                let (pl, by) = at(9);
                rep.add(Kind::AfterFour, r, pl, by, "a ply after a four-in-a-row");
            } else if !b.can_play(mv) {
                let (pl, by) = at(9);
                rep.add(
                    Kind::FullColumn,
                    r,
                    pl,
                    by,
                    format!("column {} is already full", mv + 1),
                );
            } else {
                replay = Some(b.after(mv));
            }
        }
        prev_move = Some(p[9]);
        boards.push(board);
    }
    // games are played to their end; this also guards the last move byte, which no
    // later ply repeats
    if let Some(end) = replay {
        if end.winner().is_none() && !end.is_full() {
            let d = format!(
                "the game stops after {n} moves without a four on a board that is not full"
            );
            rep.add(Kind::Unfinished, r, Some(n - 1), Some(9), d);
        }
    }
    Some(boards)
}

/// Checks one row's sidecar slots against the row's boards.
fn check_slots(
    rep: &mut GateReport,
    row: usize,
    boards: Option<&[Option<Position>]>,
    sc: &Sidecar,
    target: &[f32],
    solver: &mut Solver,
) {
    let r = Some(row);
    let plies = sc.ply_row(row);
    let flags = sc.teacher_row(row);
    let n = boards.map(|b| b.len());
    let labelled = plies.iter().filter(|&&p| p >= 0).count();
    rep.unlabelled_rows += u64::from(labelled == 0);
    if sc.n_plies[row] as i64 != labelled as i64 {
        let d = format!("n_plies {} but {labelled} labelled slots", sc.n_plies[row]);
        rep.add(Kind::NPlies, r, None, None, d);
    }
    let mut row_sum = 0f64;
    for s in 0..sc.slots {
        let (ply, flag) = (plies[s], flags[s]);
        let t = &target[s * 7..s * 7 + 7];
        let slot = Some(s);
        let want = n.and_then(|n| n.checked_sub(1 + s));
        let ply_ok = ply == -1 || (ply >= 0 && n.is_none_or(|_| want == Some(ply as usize)));
        if !ply_ok {
            let w = want.map_or("-1".to_string(), |w| format!("{w} or -1"));
            rep.add_slot(
                Kind::PlyOf,
                r,
                None,
                slot,
                format!("ply_of {ply}, expected {w}"),
            );
        }
        if !(0..=3).contains(&flag) {
            rep.add_slot(
                Kind::TeacherFlag,
                r,
                None,
                slot,
                format!("teacher flag {flag} is not 0..3"),
            );
        } else if (flag == 0) != (ply < 0) {
            let d = format!("teacher flag {flag} with ply_of {ply} (0 iff unlabelled)");
            rep.add_slot(Kind::TeacherFlag, r, None, slot, d);
        }
        if t.iter().any(|v| !v.is_finite() || *v < 0.0) {
            rep.add_slot(Kind::TargetValue, r, None, slot, format!("target {t:?}"));
        }
        let sum: f64 = t.iter().map(|&v| v as f64).sum();
        row_sum += sum;
        if ply < 0 {
            if sum != 0.0 {
                rep.add_slot(
                    Kind::TargetSum,
                    r,
                    None,
                    slot,
                    format!("empty slot with mass {sum}"),
                );
            }
            continue;
        }
        if (sum - 1.0).abs() > 1e-5 {
            rep.add_slot(
                Kind::TargetSum,
                r,
                None,
                slot,
                format!("target sums to {sum}"),
            );
        }
        let active = t.iter().filter(|&&v| v > 0.0).count();
        if flag as u8 == FLAG_ALPHABETA && !(active == 1 && t.contains(&1.0)) {
            rep.add_slot(
                Kind::OneHot,
                r,
                None,
                slot,
                format!("flag 2 target {t:?} is not one-hot (one column at exactly 1.0)"),
            );
        }
        let mask = SlotLabel::mask_of_target(t);
        let even = SlotLabel {
            ply,
            flag: flag as u8,
            mask,
        }
        .target();
        let exact = flag as u8 == FLAG_BOUNDED || flag as u8 == FLAG_EXACT;
        if exact
            && t.iter()
                .zip(even)
                .any(|(a, b)| (a - b).abs() > crate::sidecar::EVEN_TOLERANCE)
        {
            let d = format!("flag {flag} target {t:?} is not spread evenly");
            rep.add_slot(Kind::Uneven, r, None, slot, d);
        }
        let board = boards.and_then(|b| b.get(ply as usize).copied().flatten());
        if let Some(b) = board.filter(|b| mask != 0 && b.winner().is_none() && !b.is_full()) {
            check_tactics(rep, row, ply as usize, s, flag, mask, &b);
        }
        if let Some(b) = board {
            if let Some(x) = (0..WIDTH).find(|&x| t[x] > 0.0 && !b.can_play(x)) {
                let d = format!("mass {} on full column {}", t[x], x + 1);
                rep.add_slot(Kind::TargetIllegal, r, Some(ply as usize), slot, d);
            }
            let empty = CELLS as u32 - b.moves_played();
            if flag as u8 == FLAG_BOUNDED && empty > BOUNDED_EMPTY {
                let d = format!("flag 1 at a board with {empty} empty cells (at most 7)");
                rep.add_slot(Kind::BoundedScope, r, Some(ply as usize), slot, d);
            } else if (flag as u8 == FLAG_BOUNDED
                || (flag as u8 == FLAG_EXACT && empty <= BOUNDED_EMPTY))
                && mask != 0
                && b.winner().is_none()
                && !b.is_full()
            {
                // at most 7 empty cells: the exact answer costs a few thousand nodes (a
                // slot without mass is reported by its sum alone); a flag-3 label there
                // too (one that made a win a draw passed), though not nearer the start,
                // where solving again would cost what the exact teacher did
                let best = mask_of(&solver.best_moves(&b));
                if best != mask {
                    let d = format!(
                        "flag {flag} labels columns {} but the best moves are {}",
                        columns(mask),
                        columns(best)
                    );
                    rep.add_slot(Kind::BestMoves, r, Some(ply as usize), slot, d);
                }
            }
        }
    }
    if (row_sum - labelled as f64).abs() > 1e-4 {
        let d = format!("target sum {row_sum:.6} but {labelled} labelled slots");
        rep.add(Kind::Invariant, r, None, None, d);
    }
}

/// Every teacher takes an immediate win, and otherwise never hands the opponent one
/// when some move does not (the exact solvers' best moves score above any move that
/// loses at once; the search teacher looks for both first): a label that does either
/// was made for another position.
fn check_tactics(
    rep: &mut GateReport,
    row: usize,
    ply: usize,
    slot: usize,
    flag: i8,
    mask: u8,
    b: &Position,
) {
    // (mass on a full column is reported as target-illegal)
    let mask = mask & column_set(b.playable());
    let wins = column_set(b.winning_moves());
    let safe = column_set(c4lab_solver::non_losing_moves(b));
    // "column 3" or "columns 2, 6"
    let named = |m: u8| {
        let s = if m.count_ones() == 1 { "" } else { "s" };
        format!("column{s} {}", columns(m))
    };
    let d = if wins != 0 {
        (mask & !wins != 0).then(|| {
            format!(
                "flag {flag} labels {} but {} {} at once",
                named(mask),
                named(wins),
                if wins.count_ones() == 1 {
                    "wins"
                } else {
                    "win"
                }
            )
        })
    } else if safe != 0 {
        let bad = mask & !safe;
        (bad != 0).then(|| {
            format!(
                "flag {flag} labels {}, which {} the opponent win at once where {} {} not",
                named(bad),
                if bad.count_ones() == 1 { "lets" } else { "let" },
                named(safe),
                if safe.count_ones() == 1 { "does" } else { "do" }
            )
        })
    } else {
        None
    };
    if let Some(d) = d {
        rep.add_slot(Kind::Tactics, Some(row), Some(ply), Some(slot), d);
    }
}

/// The columns (bit `x` for column `x`) that hold one of `cells`.
fn column_set(cells: u64) -> u8 {
    (0..WIDTH)
        .filter(|&x| cells & c4lab_board::column_mask(x) != 0)
        .fold(0, |m, x| m | 1 << x)
}

/// Runs the gate on a corpus file and, if given, its sidecar.
pub fn check(corpus: &Path, sidecar: Option<&Path>) -> Result<GateReport, CorpusError> {
    check_with(corpus, sidecar, DEFAULT_EXAMPLES)
}

/// Runs the gate on an input that a command builds on (split, relabel, overlap), and
/// refuses it on any violation: a sidecar of another corpus with the same row count
/// passes every reader, and would be published or measured as if it fitted.
pub fn require_clean(corpus: &Path, sidecar: &Path) -> Result<(), CorpusError> {
    require_clean_holding(corpus, sidecar, true)
}

/// [`require_clean`] for a shard's corpus, which may hold no game where its block of games
/// is empty (more shards than games): `games` false lets a corpus of no rows pass.
pub(crate) fn require_clean_holding(
    corpus: &Path,
    sidecar: &Path,
    games: bool,
) -> Result<(), CorpusError> {
    read_twice(corpus)?;
    // a sidecar that is not there or is no readable .npz is named as what it is, not
    // as a violation (it read "fails the integrity gate (... No such file or directory")
    // (only a file that is not there: a folder, a loop of links or a file it may not
    // read is named by the error that opening it gives)
    if std::fs::metadata(sidecar).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
        return Err(CorpusError::Invalid(format!(
            "no sidecar {}: the file is not there; give the corpus's sidecar (perply_targets.npz beside it, as `corpus generate` writes it)",
            sidecar.display()
        )));
    }
    let mut rep = check_opened(corpus, Some(Ok(Sidecar::open(sidecar)?)), 1)?;
    if !games {
        rep.kinds.remove(&Kind::NoGames);
    }
    match first_violation(&rep) {
        None => Ok(()),
        Some((kind, first)) => Err(CorpusError::Gate {
            corpus: corpus.to_path_buf(),
            sidecar: sidecar.to_path_buf(),
            violations: rep.total(),
            kind,
            first,
        }),
    }
}

/// [`require_clean`] for a corpus read without its sidecar (the played moves alone):
/// the transcript's rules.
pub fn require_clean_transcript(corpus: &Path) -> Result<(), CorpusError> {
    read_twice(corpus)?;
    let rep = check_with(corpus, None, 1)?;
    match first_violation(&rep) {
        None => Ok(()),
        Some((kind, first)) => Err(CorpusError::TranscriptGate {
            corpus: corpus.to_path_buf(),
            violations: rep.total(),
            kind,
            first,
        }),
    }
}

/// Refuses a corpus that cannot be read twice (a pipe, a terminal): a command that
/// gates its input reads it again for its work, and found the pipe empty the second
/// time ("0 rows but its sidecar has 200"). A path that is not there is left to the
/// reader's own message.
fn read_twice(corpus: &Path) -> Result<(), CorpusError> {
    match std::fs::metadata(corpus) {
        Ok(m) if !m.is_file() && !m.is_dir() => Err(CorpusError::Invalid(format!(
            "{} is not a regular file (a pipe or a device): this command reads the corpus twice, once for the integrity gate and once for its work; save it to a file and name that",
            corpus.display()
        ))),
        _ => Ok(()),
    }
}

/// The name of the first kind of violation in `rep` and its first example.
fn first_violation(rep: &GateReport) -> Option<(&'static str, String)> {
    let (kind, found) = rep.kinds.iter().next()?;
    let first = found
        .examples
        .first()
        .map_or_else(String::new, |v| v.to_string());
    Some((kind.name(), first))
}

/// [`check`], keeping `examples` examples per kind.
pub fn check_with(
    corpus: &Path,
    sidecar: Option<&Path>,
    examples: usize,
) -> Result<GateReport, CorpusError> {
    check_opened(corpus, sidecar.map(Sidecar::open), examples)
}

/// [`check_with`] with the sidecar already opened, or its failure to open (a
/// `sidecar-format` violation).
fn check_opened(
    corpus: &Path,
    opened: Option<Result<Sidecar, SidecarError>>,
    examples: usize,
) -> Result<GateReport, CorpusError> {
    let mut rep = GateReport {
        max_examples: examples,
        ..GateReport::default()
    };
    let sc = match opened {
        None => None,
        Some(Ok(sc)) => {
            // a published sidecar holds the four arrays and nothing else (the format)
            for stray in sc.stray_members() {
                rep.add(Kind::SidecarFormat, None, None, None, stray);
            }
            Some(sc)
        }
        // a sidecar that cannot be read (a folder, a file it may not open, a failing
        // disk) is an input error as an unreadable corpus is, not a format violation
        Some(Err(e @ SidecarError::Io { .. })) => return Err(e.into()),
        Some(Err(e)) => {
            rep.add(Kind::SidecarFormat, None, None, None, e.to_string());
            None
        }
    };
    let mut targets = match &sc {
        Some(sc) => Some(sc.targets()?),
        None => None,
    };
    rep.sidecar_rows = sc.as_ref().map(|s| s.rows);
    let mut rows = RowReader::open(corpus)?;
    // for the flag-1 labels' best moves (positions of at most 7 empty cells)
    let mut solver = Solver::new(1 << 20);
    let mut last_terminated = true;
    let mut target_failed = false;
    while let Some(raw) = rows.next_row()? {
        let (i, terminated) = (raw.index, raw.terminated);
        let boards = check_row(&mut rep, i, raw.bytes);
        last_terminated = terminated;
        rep.rows = i + 1;
        let Some(sc) = &sc else { continue };
        if i >= sc.rows || target_failed {
            continue;
        }
        match targets.as_mut().and_then(|t| t.next()) {
            Some(Ok(t)) => check_slots(&mut rep, i, boards.as_deref(), sc, &t, &mut solver),
            Some(Err(e @ SidecarError::Io { .. })) => return Err(e.into()),
            Some(Err(e)) => {
                // damage to the archive (a CRC-32 checked once a member is read to its
                // end) is no row's: the row reached then was named, wherever it lay
                let row = (!matches!(e, SidecarError::Container { .. })).then_some(i);
                rep.add(Kind::SidecarFormat, row, None, None, e.to_string());
                target_failed = true;
            }
            None => target_failed = true,
        }
    }
    // a corpus shorter than the sidecar leaves target rows unread: check them too
    if let (Some(t), false) = (targets.as_mut(), target_failed) {
        match t.finish() {
            Ok(()) => {}
            Err(e @ SidecarError::Io { .. }) => return Err(e.into()),
            Err(e) => rep.add(Kind::SidecarFormat, None, None, None, e.to_string()),
        }
    }
    if !last_terminated {
        let row = rep.rows - 1;
        rep.add(
            Kind::FinalNewline,
            Some(row),
            None,
            None,
            "the file does not end with \\n",
        );
    }
    if rep.rows == 0 {
        // (a corpus truncated to nothing passed as "clean")
        rep.add(
            Kind::NoGames,
            None,
            None,
            None,
            "the corpus holds no rows; a corpus holds a row per game, and `corpus generate` writes at least one",
        );
    }
    if let Some(sc) = &sc {
        if sc.rows != rep.rows {
            let d = format!("the sidecar has {} rows, the corpus {}", sc.rows, rep.rows);
            rep.add(Kind::RowCount, None, None, None, d);
        }
    }
    Ok(rep)
}
