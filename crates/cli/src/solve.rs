//! `c4lab solve` and `c4lab analyze`: the strong solver.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use c4lab_board::{format_moves, parse_moves, Position};
use c4lab_solver::Solver;
use serde_json::json;

/// Table size for the command-line solver, in MiB, when not given.
pub const DEFAULT_TABLE_MB: usize = 256;

/// The solver options shared by `solve` and `analyze`.
#[derive(clap::Args)]
pub struct SolverArgs {
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = DEFAULT_TABLE_MB, value_parser = crate::solve::table_mib)]
    pub table_mb: usize,
    /// An opening book made by `c4lab book`.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Search threads sharing the table for long solves (0: one per core).
    #[arg(long, default_value_t = 1, value_parser = crate::solve::thread_arg)]
    pub threads: usize,
}

/// The largest table `--table-mb` takes (64 GiB): past it the allocation would fail
/// on most machines, or `MiB << 20` wrap on small ones.
const MAX_TABLE_MB: usize = 1 << 16;

/// The most search threads `--threads` takes: more than any core count they could use.
const MAX_THREADS: usize = 1024;

/// Parses `--table-mb`: 1 to 65536 MiB.
pub fn table_mib(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(mb @ 1..=MAX_TABLE_MB) => Ok(mb),
        _ => Err(format!("expected a table size of 1 to {MAX_TABLE_MB} MiB")),
    }
}

/// Parses a count that must be at least 1 (runs, tasks, roots).
pub fn count_arg(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n @ 1..) => Ok(n),
        _ => Err("expected a whole number of at least 1".into()),
    }
}

/// Parses a count of at least 1 that may be large (a budget of positions or steps).
pub fn count_u64_arg(text: &str) -> Result<u64, String> {
    crate::whole::range(1, u64::MAX)(text)
}

/// Parses a count of at least 1 below 2^32 (`--repeat`).
pub fn count_u32_arg(text: &str) -> Result<u32, String> {
    crate::whole::range(1, u32::MAX.into())(text)
}

/// Parses `--threads`: 0 (one per core) to 1024.
pub fn thread_arg(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n @ 0..=MAX_THREADS) => Ok(n),
        _ => Err(format!(
            "expected 0 (one per core) to {MAX_THREADS} threads"
        )),
    }
}

/// The thread count `threads` asks for: itself, or one per core for 0.
pub fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
}

/// A solver with `mb` MiB of table, `threads` search threads (0: one per core) and
/// the book at `book`, if any.
pub fn solver(mb: usize, threads: usize, book: Option<&Path>) -> Result<Solver> {
    // the book first: one that is refused costs no table
    let book = book.map(crate::book::read_book).transpose()?;
    crate::table_memory::ensure_table_memory(mb << 20, 1)?;
    let mut s = Solver::new(mb << 20);
    s.set_threads(thread_count(threads));
    s.set_book(book);
    Ok(s)
}

/// A move sequence as given on a command line or a line of input: `-` (the benchmark
/// files' mark for the empty board) is the empty sequence.
pub fn played(word: &str) -> &str {
    match word.trim() {
        "-" => "",
        _ => word,
    }
}

/// Reads a position from its moves (`-` is the empty board), refusing a finished game.
pub(crate) fn position(word: &str) -> Result<Position, String> {
    let word = played(word);
    let moves = parse_moves(word).map_err(|e| e.to_string())?;
    let p = Position::from_moves(word).map_err(|e| e.to_string())?;
    if let Some(w) = p.winner() {
        return Err(format!(
            "the game is already over: {} made four in a row at move {}; give a position where play goes on",
            w.name(),
            moves.len()
        ));
    }
    Ok(p)
}

/// `c4lab solve`: one line per position, `<moves> <score> <nodes> <microseconds>`.
pub fn solve(file: Option<&Path>, weak: bool, json_out: bool, args: &SolverArgs) -> Result<u8> {
    let (name, mut input): (String, Box<dyn BufRead>) = match file {
        Some(p) if p != Path::new("-") => {
            let f = File::open(p).with_context(|| format!("cannot read {}", p.display()))?;
            (p.display().to_string(), Box::new(BufReader::new(f)))
        }
        _ => {
            crate::input::typing_note(
                "reading positions from the terminal, one a line, each answered as it comes; Ctrl-D ends (or name a file)",
            );
            (
                "standard input".to_string(),
                Box::new(std::io::stdin().lock()),
            )
        }
    };
    let mut s = solver(args.table_mb, args.threads, args.book.as_deref())?;
    // (waits for a terminal's first line, as the loop below would; after the solver,
    // whose settings are refused before any input comes)
    let head = input
        .fill_buf()
        .with_context(|| format!("cannot read {name}"))?;
    if let Some(fix) = crate::input::utf16_note(head) {
        anyhow::bail!("cannot read {name}: {fix}");
    }
    let mut out = crate::stdout();
    let mut bad = 0;
    // lines whose given score differs from the solved one
    let mut differ = 0;
    // a line that takes a while is named on a terminal as it runs
    let ticker = crate::ticker::Ticker::on_terminal();
    // line by line as the input comes (a script may feed one position and wait for its
    // score)
    for line in position_lines(input) {
        let PositionLine { n, word, read } = line.with_context(|| format!("cannot read {name}"))?;
        match read {
            Err(e) => {
                bad += 1;
                // a bad line is named, not copied out whole (a 10 MB line, or bytes
                // that are no text, came back in full)
                if json_out {
                    // (JSON escapes what it must itself)
                    let word = word.map_or("(blank)".into(), |w| first_chars(&w, false));
                    writeln!(out, "{}", json!({"line": n, "moves": word, "error": e}))?;
                } else {
                    let word = word.map_or("(blank)".into(), |w| shown(&w));
                    writeln!(out, "{word} error: line {n}: {e}")?;
                }
            }
            Ok((p, given)) => {
                // (a line that reads has its first word)
                let word = word.unwrap_or_default();
                s.reset_nodes();
                let t = Instant::now();
                ticker.start(format!("solve: line {n} ({})", shown(&word)));
                let score = if weak { s.solve_weak(&p) } else { s.solve(&p) };
                ticker.done();
                let us = t.elapsed().as_micros();
                // a score given on the line is the expected one (as in the benchmark
                // sets): checked, by its sign alone under --weak
                if json_out {
                    let mut j = json!({"moves": word, "score": score, "nodes": s.nodes(), "microseconds": us});
                    if let Some(g) = given {
                        j["expected"] = json!(g);
                    }
                    // (a weak score is a sign, and is checked against the expected
                    // one's sign alone)
                    if weak {
                        j["weak"] = json!(true);
                    }
                    writeln!(out, "{j}")?;
                } else {
                    writeln!(out, "{word} {score} {} {us}", s.nodes())?;
                }
                let differs = |g: i32| {
                    if weak {
                        g.signum() != score
                    } else {
                        g != score
                    }
                };
                if let Some(g) = given.filter(|&g| differs(g)) {
                    differ += 1;
                    out.flush()?;
                    let what = if weak { "sign" } else { "score" };
                    sayln!(
                            "line {n}: the solved {what} {score} differs from the expected score {g} given on the line"
                        );
                }
            }
        }
    }
    Ok(match (bad, differ) {
        (0, 0) => 0,
        (0, _) => 1,
        _ => 2,
    })
}

/// The longest line `solve` reads: a position is at most 42 moves and a score.
pub(crate) const MAX_LINE: usize = 1 << 16;

/// A line of positions (`solve`'s and `hint`'s input): its number from 1, its first
/// word (a cut line's, if it starts with one), and the position and score it gives, or
/// why it gives none.
pub(crate) struct PositionLine {
    /// The line's number, blank lines counted.
    pub n: usize,
    /// Its first word (the moves): `None` for a line cut short that starts blank.
    pub word: Option<String>,
    /// The position and the score given after it, or why the line gives none.
    pub read: Result<(Position, Option<i32>), String>,
}

/// The lines of `input` that are not blank, as [`PositionLine`]s, as they come: each
/// cut at [`MAX_LINE`] bytes, a byte-order mark before the first dropped, a line that
/// is no UTF-8 text named by its first bad byte.
pub(crate) fn position_lines(
    input: impl BufRead,
) -> impl Iterator<Item = std::io::Result<PositionLine>> {
    let mut n = 0;
    capped_lines(input, MAX_LINE).filter_map(move |chunk| {
        let (chunk, cut) = match chunk {
            Ok(c) => c,
            Err(e) => return Some(Err(e)),
        };
        n += 1;
        if cut {
            // its first word, marked cut (a line of spaces has none)
            let start = String::from_utf8_lossy(&chunk[..SHOWN_CHARS + 1]).into_owned();
            let word = (start.split_whitespace().next())
                .filter(|w| start.starts_with(w))
                .map(str::to_string);
            let read = Err(format!("the line is longer than {MAX_LINE} bytes, where a position takes at most 42 moves and a score"));
            return Some(Ok(PositionLine { n, word, read }));
        }
        let piece = match n {
            1 => chunk.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&chunk),
            _ => &chunk,
        };
        let (word, read) = match std::str::from_utf8(piece) {
            Ok(line) if line.trim().is_empty() => return None,
            Ok(line) => {
                let word = line.split_whitespace().next().unwrap_or("");
                (word.to_string(), line_position(line))
            }
            Err(e) => {
                let lossy = String::from_utf8_lossy(piece);
                let word = lossy.split_whitespace().next().unwrap_or("").to_string();
                let at = e.valid_up_to();
                let why = format!(
                    "the line is not UTF-8 text (byte {}, 0x{:02X})",
                    at + 1,
                    piece[at]
                );
                (word, Err(why))
            }
        };
        Some(Ok(PositionLine {
            n,
            word: Some(word),
            read,
        }))
    })
}

/// The input's lines, each ended by `\n`, `\r\n` or a lone `\r` (old Mac files, or a
/// mixed file: as `unified_lines` reads them), without the ending and cut at `max`
/// bytes, with true for a line that was cut: the rest of a longer line is skipped
/// without being kept (a stream without line breaks, `/dev/zero`, was read until
/// memory ran out), up to [`RUN_ON`] times `max` bytes: past that the input is no text
/// of lines, and an error ends it (skipped, `/dev/zero` ran for ever, saying nothing).
pub(crate) fn capped_lines(
    mut input: impl BufRead,
    max: usize,
) -> impl Iterator<Item = std::io::Result<(Vec<u8>, bool)>> {
    // the last line ended with `\r`: a `\n` right after it ends the same line
    let mut after_cr = false;
    std::iter::from_fn(move || {
        let mut line = Vec::new();
        let mut cut = false;
        let mut started = false;
        let mut length = 0usize;
        loop {
            if length / RUN_ON > max {
                return Some(Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "a line runs on past {} MiB without a line break: this is no text of lines (a device such as /dev/zero?)",
                        (RUN_ON * max) >> 20
                    ),
                )));
            }
            let buf = match input.fill_buf() {
                Ok(buf) => buf,
                Err(e) => return Some(Err(e)),
            };
            if buf.is_empty() {
                // the last line, with no line break after it
                return started.then_some(Ok((line, cut)));
            }
            if std::mem::take(&mut after_cr) && buf[0] == b'\n' {
                input.consume(1);
                continue;
            }
            started = true;
            let end = buf.iter().position(|&b| b == b'\n' || b == b'\r');
            let body = &buf[..end.unwrap_or(buf.len())];
            let room = max.saturating_sub(line.len());
            cut |= body.len() > room;
            line.extend_from_slice(&body[..body.len().min(room)]);
            let used = body.len();
            length += used;
            match end {
                Some(i) => {
                    after_cr = buf[i] == b'\r';
                    input.consume(used + 1);
                    return Some(Ok((line, cut)));
                }
                None => input.consume(used),
            }
        }
    })
}

/// How many times its cap a line may run on, skipped, before the input is refused.
const RUN_ON: usize = 256;

/// The position a line of `solve`'s input names, and the score given after it: its
/// first word, which a score may follow (as in the benchmark sets) and nothing else, so
/// that moves written with separators (`4 4 5 3`) are refused rather than read as their
/// first move.
fn line_position(line: &str) -> Result<(Position, Option<i32>), String> {
    let mut words = line.split_whitespace();
    let word = words.next().unwrap_or("");
    if word.starts_with('#') {
        return Err(
            "a line starting with `#` is no position: no comment is read here (remove the line)"
                .into(),
        );
    }
    // the moves first: what follows them is judged once they read as a game
    let p = position(word)?;
    let rest: Vec<&str> = words.collect();
    // the line's digits run together, when that is what was meant: a game that can
    // be played (else the common form)
    let joined: String = line.split_whitespace().collect();
    let joinable = joined.bytes().all(|b| (b'1'..=b'7').contains(&b)) && position(&joined).is_ok();
    let example = if joinable { joined } else { "4453".to_string() };
    // moves written with separators, or something else after the moves and the score
    // (it was told to join moves that had no separators)
    let more_moves = rest
        .iter()
        .all(|w| w.bytes().all(|b| (b'1'..=b'7').contains(&b)));
    let separated = || {
        let fix = if more_moves {
            format!("write the moves without separators, as {example}")
        } else if rest.len() == 1 {
            "give a whole-number score there, or nothing".to_string()
        } else {
            "leave out all but a score".to_string()
        };
        format!(
            "{:?} follows the moves, where only a score may (`<moves> [score]`); {fix}",
            rest.join(" ")
        )
    };
    let score: Option<i32> = match rest.as_slice() {
        [] => None,
        // a whole number too large for any score is still a score, out of range below
        // (but a long run of columns is more moves, written with a space)
        [w] if whole_number(w) && !(more_moves && w.parse::<i32>().is_err()) => {
            Some(w.parse().unwrap_or(if w.starts_with('-') {
                i32::MIN
            } else {
                i32::MAX
            }))
        }
        [score] => Some(score.parse().map_err(|_| separated())?),
        _ => return Err(separated()),
    };
    // a score no game from here can end with is no benchmark score: more moves written
    // with a space (`44 53`) read as one
    if let Some(score) = score {
        let n = p.moves_played();
        let (low, high) = c4lab_solver::score_bounds(n);
        if !(low..=high).contains(&score) {
            // more moves written with a space (`44 53`) read as a score: said where the
            // line's digits joined make a game
            let joined = if joinable {
                format!("; if it is more moves, write them without separators, as {example}")
            } else {
                String::new()
            };
            return Err(format!(
                "the score {} after the moves is impossible after {n} moves (scores there lie in {low}..={high}){joined}",
                rest[0]
            ));
        }
    }
    Ok((p, score))
}

/// Whether `word` is a whole number in decimal, with an optional sign.
fn whole_number(word: &str) -> bool {
    let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `c4lab analyze`: the score of every column.
pub fn analyze(moves: &str, json_out: bool, args: &SolverArgs) -> Result<u8> {
    // `-` is the empty board, as for `solve`
    let moves = played(moves).trim();
    let p = match position(moves) {
        Ok(p) => p,
        Err(e) => bail!("position \"{}\": {e}", shown(moves)),
    };
    // (`solve` scores a full board 0; analyze has no move to score there)
    if p.is_full() {
        bail!("position {moves:?}: the game is already over: the board is full, a draw");
    }
    let mut s = solver(args.table_mb, args.threads, args.book.as_deref())?;
    let t = Instant::now();
    let ticker = crate::ticker::Ticker::on_terminal();
    let of = if moves.is_empty() {
        "the empty board".to_string()
    } else {
        shown(moves)
    };
    ticker.start(format!("analyze: scoring every column of {of}"));
    let scores = s.analyze(&p);
    ticker.done();
    let best = scores.iter().flatten().max().copied();
    // the columns (1-7) that reach the best score
    let best_columns: Vec<usize> = (0..7)
        .filter(|&x| scores[x].is_some() && scores[x] == best)
        .map(|x| x + 1)
        .collect();
    if json_out {
        outln!(
            "{}",
            // (`-` for the empty board, as `solve --json` and `hint` write it: it was "")
            json!({"moves": match moves.is_empty() {
                true => "-".to_string(),
                false => format_moves(&parse_moves(moves)?),
            }, "scores": scores, "best": best,
            "best_columns": best_columns, "nodes": s.nodes(), "microseconds": t.elapsed().as_micros()})
        );
        return Ok(0);
    }
    outln!(
        "position {} ({} to move)",
        if moves.is_empty() {
            "empty board"
        } else {
            moves
        },
        p.to_move().name()
    );
    // the same widths in both rows, so each score sits under its column
    outln!(
        "column{}",
        (1..=7).map(|x| format!("{x:>5}")).collect::<String>()
    );
    out!("score ");
    for sc in scores {
        match sc {
            Some(v) => out!("{v:>5}"),
            None => out!("    -"),
        }
    }
    outln!();
    let best_cols: Vec<String> = best_columns.iter().map(usize::to_string).collect();
    outln!(
        "best: {} (score {}), {} nodes, {:.3} s",
        best_cols.join(", "),
        best.map_or("-".into(), |b| b.to_string()),
        s.nodes(),
        t.elapsed().as_secs_f64()
    );
    Ok(0)
}

/// The characters of a bad word shown at most: more than any game's moves (42), so a
/// bad line of moves comes back whole, to be matched with its input (40 cut a full
/// board's moves), and a runaway line does not.
const SHOWN_CHARS: usize = 64;

/// A bad line's first word as an error names it: control characters escaped, cut
/// after [`SHOWN_CHARS`] characters.
pub(crate) fn shown(word: &str) -> String {
    first_chars(word, true)
}

/// The first [`SHOWN_CHARS`] characters of `word`, marked `…` when it goes on, its
/// control characters escaped when `escape` (JSON escapes them itself).
fn first_chars(word: &str, escape: bool) -> String {
    let head = word.chars().take(SHOWN_CHARS);
    let mut out: String = if escape {
        head.flat_map(char::escape_debug).collect()
    } else {
        head.collect()
    };
    if word.chars().nth(SHOWN_CHARS).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::capped_lines;

    fn lines(input: &[u8], max: usize) -> Vec<(String, bool)> {
        capped_lines(input, max)
            .map(|l| {
                let (l, cut) = l.unwrap();
                (String::from_utf8(l).unwrap(), cut)
            })
            .collect()
    }

    #[test]
    fn a_line_that_runs_on_past_its_bound_is_an_error() {
        // a cut line is skipped up to the bound, the next one read as usual
        let mut input = vec![b'7'; 10 * super::RUN_ON];
        input.extend(b"\n44\n");
        let got = lines(&input, 10);
        assert_eq!(got.len(), 2);
        assert!(got[0].1 && got[1] == ("44".to_string(), false));
        // past it: an error, where an endless stream without a line break ran for ever
        let endless = std::io::BufReader::new(std::io::repeat(0));
        let e = capped_lines(endless, 10).next().unwrap().unwrap_err();
        assert!(e.to_string().contains("this is no text of lines"), "{e}");
    }

    #[test]
    fn every_line_ending_ends_a_line_and_long_lines_are_cut() {
        let got = lines(b"a\r\nb\rc\n\r\nd", 10);
        let want = [
            ("a", false),
            ("b", false),
            ("c", false),
            ("", false),
            ("d", false),
        ];
        assert_eq!(got, want.map(|(l, c)| (l.to_string(), c)));
        // the cap is on the line, not its ending; past it the rest is skipped
        let got = lines(b"abc\r\nxxxxx\ryy", 3);
        let want = [("abc", false), ("xxx", true), ("yy", false)];
        assert_eq!(got, want.map(|(l, c)| (l.to_string(), c)));
        // a file of lone carriage returns is as many lines however long it is (it was
        // one line, cut)
        let many = b"4453\r".repeat(20_000);
        assert_eq!(lines(&many, 1 << 16).len(), 20_000);
        assert!(lines(b"", 4).is_empty());
        // a `\r\n` split between two reads is one ending
        let byte_by_byte = std::io::BufReader::with_capacity(1, &b"a\r\nb\r"[..]);
        let got: Vec<Vec<u8>> = capped_lines(byte_by_byte, 10)
            .map(|l| l.unwrap().0)
            .collect();
        assert_eq!(got, [b"a".to_vec(), b"b".to_vec()]);
    }
}
