//! `c4lab eval` and `c4lab hint`: a trained model measured on a holdout, and asked for
//! moves.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};
use c4lab_board::Position;
use c4lab_model::eval::{agreement, column_scores, optimality, play_games, GameEvent};
use c4lab_model::Example;

use crate::model::{examples, load_model, pct, solved_rate, CorpusSource};

/// `c4lab eval`'s options.
#[derive(clap::Args)]
pub struct EvalArgs {
    /// The exported model (from `c4lab train`).
    #[arg(long)]
    model: PathBuf,
    /// Holdout corpus.
    #[arg(long)]
    holdout_corpus: PathBuf,
    /// Its sidecar (needed with --corpus-source teacher; default: perply_targets.npz
    /// beside the holdout corpus).
    #[arg(long)]
    holdout_targets: Option<PathBuf>,
    /// Targets: `teacher` (sidecar) or `moves`.
    #[arg(long, value_enum, default_value = "teacher")]
    corpus_source: CorpusSource,
    /// Holdout positions whose optimal move rate is measured with the strong solver (at
    /// 1,000 the rate's standard error is about one point; a few seconds at 14+ stones;
    /// 0 leaves the rate out).
    #[arg(long, default_value_t = 1000, value_parser = crate::whole::any_usize)]
    positions: usize,
    /// Only positions with at least this many stones are sampled (earlier ones cost minutes each); 0 to 42.
    #[arg(long, default_value_t = 14, value_parser = crate::whole::range::<u32>(0, 42))]
    min_stones: u32,
    /// Strong-solver node budget per column (a position over budget is skipped and
    /// counted), for the holdout positions and the --games games; the --empty-games
    /// games are judged by exact replies, with no budget. With --threads above 1 the
    /// threads' race moves node counts, so a position near the budget may be skipped in
    /// one run and not in the next: --threads 1 gives a table that repeats exactly. At
    /// least 1.
    #[arg(long, default_value_t = 2_000_000, value_parser = crate::solve::count_u64_arg)]
    solver_nodes: u64,
    /// Games against the perfect solver (random best replies) from random openings (at
    /// most a million: each costs solves of its positions).
    #[arg(long, default_value_t = 20, value_parser = crate::whole::range::<u64>(0, 1_000_000))]
    games: u64,
    /// Random opening plies before those games (0-41).
    #[arg(long, default_value_t = 12, value_parser = crate::whole::range::<u32>(0, 41))]
    opening: u32,
    /// Games as first player from the empty board against the perfect solver (its
    /// replies are exact, not bounded by --solver-nodes, and the early ones cost minutes
    /// each: give it a book and threads; at most a million).
    #[arg(long, default_value_t = 0, value_parser = crate::whole::range::<u64>(0, 1_000_000))]
    empty_games: u64,
    /// Seed of the position sample, the openings and the solver's choices.
    #[arg(long, default_value_t = 32, value_parser = crate::whole::any_u64)]
    seed: u64,
    #[command(flatten)]
    solver: crate::solve::SolverArgs,
}

/// `c4lab hint`: the model's move for each position; a bad line is reported and the
/// others are still answered (exit 2 when any line was bad).
pub fn hint(path: &Path, positions: &[String], json: bool) -> Result<u8> {
    let model = load_model(path)?;
    let mut code = 0;
    // written, not printed, so a reader that goes away (`| head`) ends the command
    let mut out = crate::stdout();
    // `where_` names a line of standard input ("line 3: "), nothing for an argument
    let mut answer = |moves: &str, pos: Result<Position, String>, where_: &str| -> Result<()> {
        // (who won and when, as `solve` and `analyze` say it; cut after 64 characters,
        // as analyze names it: a 5,000-character argument was given back whole)
        let pos = pos
            .and_then(|p| match p.is_full() {
                true => Err("the game is already over: the board is full, a draw".to_string()),
                false => Ok(p),
            })
            .map_err(|e| format!("{where_}position \"{}\": {e}", crate::solve::shown(moves)));
        let p = match pos {
            Ok(p) => p,
            Err(e) => {
                // (answers before it are out first, so the error comes after them)
                out.flush()?;
                sayln!("error: {e}");
                code = 2;
                return Ok(());
            }
        };
        let h = model.hint(&p);
        // parsed, so only digits 1-7 are left once the whitespace is trimmed; the empty
        // board is printed as `-`, so the first field is never blank
        let moves = match crate::solve::played(moves).trim() {
            "" => "-",
            m => m,
        };
        if json {
            let mut j = h.to_json();
            j["moves"] = moves.into();
            writeln!(out, "{j}")?;
        } else {
            let col = h.column.map_or("-".to_string(), |x| (x + 1).to_string());
            writeln!(out, "{moves} {col}")?;
        }
        // (a script may send one position and wait for its answer)
        out.flush()?;
        Ok(())
    };
    if !positions.is_empty() {
        for moves in positions {
            // `-` is the empty board, as for `solve`, and is printed as given; a blank
            // argument (an unset shell variable, say) is none: it was answered as the
            // empty board, where a blank line of standard input is skipped
            let pos = match moves.trim() {
                "" => Err("no moves given; write the empty board as -".to_string()),
                _ => crate::solve::position(crate::solve::played(moves)),
            };
            answer(moves, pos, "")?;
        }
        return Ok(code);
    }
    // none given: one a line from standard input, read as `solve` reads it (a score may
    // follow the moves, as in the benchmark sets), each answered as it comes (a script
    // may send one and wait for its answer)
    crate::input::typing_note(
        "reading positions from the terminal, one a line, each answered as it comes; Ctrl-D ends",
    );
    let mut input = std::io::stdin().lock();
    let head = std::io::BufRead::fill_buf(&mut input).context("cannot read standard input")?;
    if let Some(fix) = crate::input::utf16_note(head) {
        bail!("cannot read standard input: {fix}");
    }
    for line in crate::solve::position_lines(input) {
        let line = line.context("cannot read standard input")?;
        let word = line.word.as_deref().unwrap_or("(blank)");
        answer(
            word,
            line.read.map(|(p, _score)| p),
            &format!("line {}: ", line.n),
        )?;
    }
    Ok(code)
}

/// What `eval` is doing while one of its long phases runs (the solver's questions take
/// seconds each, minutes near the empty board, and nothing was said until a row came):
/// a line on a terminal that names it with its seconds, elsewhere a line every ten seconds.
struct Progress {
    ticker: crate::ticker::Ticker,
    status: Mutex<String>,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            ticker: crate::ticker::Ticker::on_terminal(),
            status: Mutex::new(String::new()),
        }
    }

    /// Runs `work`, which names each step it starts through the function it is given;
    /// the line is gone once it returns (before the table's next row).
    fn phase<R>(&self, work: impl FnOnce(&dyn Fn(String)) -> R) -> R {
        let note = |what: String| {
            self.ticker.retitle(format!("eval: {what}"));
            *self.status.lock().unwrap_or_else(|e| e.into_inner()) = what;
        };
        let out = crate::plain::with_status_lines("eval", true, &self.status, || work(&note));
        self.ticker.done();
        out
    }
}

/// Names the solver's question in game `index` (of `games`) after `moves`.
fn asking(what: &str, index: u64, games: u64, moves: &str) -> String {
    format!(
        "{what} {} of {games}, move {}: the solver scores the columns",
        index + 1,
        moves.len() + 1
    )
}

/// `c4lab eval`: prints the results table.
pub fn eval(mut a: EvalArgs) -> Result<u8> {
    if a.corpus_source == CorpusSource::Moves && a.holdout_targets.is_some() {
        bail!("--corpus-source moves scores against the played moves and reads no sidecar: leave out --holdout-targets");
    }
    if a.corpus_source == CorpusSource::Teacher && a.holdout_targets.is_none() {
        // (the sidecar beside the holdout, as the corpus commands read it)
        a.holdout_targets = crate::corpus_paths::sidecar_beside(&a.holdout_corpus)?;
        if a.holdout_targets.is_none() {
            bail!("--corpus-source teacher (the default) scores against the holdout's sidecar, and no perply_targets.npz is beside --holdout-corpus: give --holdout-targets, or pass --corpus-source moves");
        }
    }
    let model = load_model(&a.model)?;
    let hold = examples(
        &a.holdout_corpus,
        a.holdout_targets.as_deref(),
        a.corpus_source,
    )?;
    // the solver (and its book) before the first line of the table, so a bad --book
    // leaves no half table
    let mut solver = crate::solve::solver(
        a.solver.table_mb,
        a.solver.threads,
        a.solver.book.as_deref(),
    )?;
    let ag = agreement(&hold, |p| model.best_move(p));
    let progress = Progress::new();
    outln!("| measure | value |");
    outln!("| --- | ---: |");
    // (each ply judged is counted, a board two games met twice)
    let judged = match a.corpus_source {
        CorpusSource::Teacher => "labelled plies",
        CorpusSource::Moves => "plies",
    };
    outln!(
        "| holdout positions ({judged}; a board met twice counts twice) | {} |",
        ag.total
    );
    outln!(
        "| holdout agreement | {} ({} of {}) |",
        pct(&ag),
        ag.agree,
        ag.total
    );
    for (flag, (n, k)) in ag.per_flag.iter().enumerate() {
        if *n > 0 {
            // flag 0: no teacher, the target is the move the game played
            let what = if flag == 0 {
                "agreement with the moves played (no teacher)".to_string()
            } else {
                format!("agreement, teacher flag {flag}")
            };
            outln!("| {what} | {:.1} % of {n} |", 100.0 * *k as f64 / *n as f64);
        }
    }
    let sample = sample_positions(&hold, a.positions, a.min_stones, a.seed);
    // (a sample capped at the pool read only "of 4453" after --positions 5000)
    if !sample.is_empty() && sample.len() < a.positions {
        sayln!(
            "note: --positions {} asks for more than the holdout's {} distinct positions of {}+ stones; the optimal-move rate is measured on all of them",
            a.positions,
            sample.len(),
            a.min_stones
        );
    }
    let raw_ag = agreement(&hold, |p| model.net_move(p));
    if sample.is_empty() {
        if a.positions > 0 {
            // said, not left out: no row at all read as a table cut short
            outln!(
                "| optimal-move rate (strong solver, {}+ stones) | - (no holdout position has {} stones or more) |",
                a.min_stones,
                a.min_stones
            );
        }
        outln!(
            "| the network alone (no tactical checks): agreement | {} |",
            pct(&raw_ag)
        );
    } else {
        // solved once: the network alone is judged on the same positions (solved again,
        // the table warm from the first pass settled positions that pass had skipped)
        let scores: Vec<_> = progress.phase(|note| {
            sample
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    note(format!(
                        "solving holdout position {} of {} for the optimal-move rate",
                        i + 1,
                        sample.len()
                    ));
                    column_scores(&mut solver, p, a.solver_nodes)
                })
                .collect()
        });
        let o = optimality(&sample, &scores, |p| model.best_move(p));
        outln!(
            "| optimal-move rate (strong solver, {}+ stones) | {} ({} of {}; {} over budget) |",
            a.min_stones,
            solved_rate(o.solved, o.rate()),
            o.optimal,
            o.solved,
            o.unsolved
        );
        // (a rate over the positions solved within the budget is one over the easier
        // ones: 6 of 6 read 100 % where the whole sample's rate was 84.5 %)
        let sampled = o.solved + o.unsolved;
        if o.unsolved * 10 > sampled {
            sayln!(
                "note: {} of {sampled} sampled positions ran past --solver-nodes {} and are left out of the optimal-move rate; the rest are the easier ones, so the rate may read high: raise --solver-nodes",
                o.unsolved,
                a.solver_nodes
            );
        }
        outln!(
            "| value-keeping moves (a win stays a win, a draw a draw) | {} |",
            solved_rate(o.solved, o.value_rate())
        );
        let raw = optimality(&sample, &scores, |p| model.net_move(p));
        outln!(
            "| the network alone (no tactical checks): agreement, optimal-move rate | {}, {} ({} of {}) |",
            pct(&raw_ag),
            solved_rate(raw.solved, raw.rate()),
            raw.optimal,
            raw.solved
        );
    }
    if a.games > 0 {
        let g = progress.phase(|note| {
            play_games(
                a.games,
                a.opening,
                a.seed,
                &mut solver,
                a.solver_nodes,
                |p| model.best_move(p),
                |event| {
                    if let GameEvent::Asking { index, moves } = event {
                        note(asking("game", index, a.games, moves));
                    }
                },
            )
        });
        let frac = |(n, k): (u64, u64)| format!("{k} of {n}");
        outln!(
            "| games from {}-ply openings: wins kept | {} |",
            a.opening,
            frac(g.won_starts)
        );
        outln!("| draws kept (not lost) | {} |", frac(g.drawn_starts));
        outln!("| lost starts not lost | {} |", frac(g.lost_starts));
        outln!("| games abandoned (solver over budget) | {} |", g.unsolved);
        if g.no_opening > 0 {
            outln!(
                "| games not played (the opening ran out of moves that do not win at once) | {} |",
                g.no_opening
            );
        }
    }
    if a.empty_games > 0 {
        // exact replies: no node budget (the empty board is a first-player win)
        let g = progress.phase(|note| {
            play_games(
                a.empty_games,
                0,
                a.seed,
                &mut solver,
                u64::MAX,
                |p| model.best_move(p),
                |event| match event {
                    GameEvent::Asking { index, moves } => {
                        note(asking("empty-board game", index, a.empty_games, moves));
                    }
                    GameEvent::Ended(end) => {
                        progress.ticker.done();
                        let word = ["lost", "drawn", "won"][(end.result + 1) as usize];
                        sayln!("empty-board game {}: {word} {}", end.index + 1, end.moves);
                    }
                },
            )
        });
        let (n, k) = g.won_starts;
        outln!("| games from the empty board as first player: won | {k} of {n} |");
    }
    Ok(0)
}

/// Up to `n` distinct holdout positions with at least `min_stones` stones, seeded.
pub(crate) fn sample_positions(
    hold: &[Example],
    n: usize,
    min_stones: u32,
    seed: u64,
) -> Vec<Position> {
    let mut pool: Vec<Position> = hold
        .iter()
        .filter(|e| e.position.moves_played() >= min_stones)
        .map(|e| e.position)
        .collect();
    pool.sort_by_key(|p| (p.moves_played(), p.key()));
    pool.dedup();
    let mut rng = c4lab_corpus::rng::Rng::new(seed);
    // a partial Fisher-Yates shuffle: the first n are the sample
    let n = n.min(pool.len());
    for i in 0..n {
        let j = i + rng.below((pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(n);
    pool
}
