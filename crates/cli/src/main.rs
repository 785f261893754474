//! `c4lab`: the command line of the Connect Four research workbench.
//!
//! Exit codes: 0 win / found / ok, 1 loss / unsat / failed check or bench, 2 bad input
//! (or a diagram with no verdict: incomplete, bad root, root already won; `solve` and
//! `hint`: any bad line), 3 budget ran out or stopped (`complete` and `dsat`: Ctrl-C,
//! SIGTERM, SIGHUP or `--max-seconds`; other commands end by the signal), 141 the reader
//! closed the output pipe.

/// `print!` that returns a failed write as the command's error instead of panicking, so
/// a reader that goes away (`c4lab ... | head`) ends the command quietly in `main`.
macro_rules! out {
    ($($arg:tt)+) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($arg)+).map_err(crate::StdoutError)?
    }};
}

/// `println!` that returns a failed write as the command's error (see `out!`).
macro_rules! outln {
    () => {{
        use std::io::Write as _;
        writeln!(std::io::stdout()).map_err(crate::StdoutError)?
    }};
    ($($arg:tt)+) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)+).map_err(crate::StdoutError)?
    }};
}

/// `eprint!` that drops a failed write instead of panicking: standard error carries
/// notes and progress, and its reader going away (`c4lab ... 2>&1 | head`) must not end
/// the command with a panic (a result on standard output still ends it quietly, `out!`).
macro_rules! say {
    ($($arg:tt)+) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)+);
    }};
}

/// `eprintln!` that drops a failed write (see `say!`).
macro_rules! sayln {
    ($($arg:tt)+) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)+);
    }};
}

mod baseline;
mod bench;
mod book;
mod complete;
mod complete_args;
mod complete_bench;
mod convert;
mod corpus;
mod corpus_bench;
mod corpus_paths;
mod dsat;
mod dsat_args;
mod dsat_bench;
mod dsat_out;
mod eval;
mod failure;
mod files;
mod heap;
mod input;
mod line_log;
mod model;
mod model_bench;
mod output;
mod pick;
mod plain;
mod play;
mod selfplay;
mod serve;
mod solution;
mod solve;
mod table_memory;
mod ticker;
mod verify;
mod whole;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use failure::{error_exit, message};
pub use output::stdout;
use output::{StdoutError, BROKEN_PIPE_EXIT};

#[global_allocator]
static HEAP: heap::Counting = heap::Counting;

/// The Connect Four research workbench.
#[derive(Parser)]
#[command(name = "c4lab", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Verify a diagram exhaustively: win, or the losing line (a counterexample).
    Verify {
        /// Diagram file: level grid, old seven-marker grid, upstream JSON, the 42 cells on one line, or a share link (also percent-encoded, or the whole address); stdin if absent or `-`. Where no file has the name, a share link itself, or a root's moves (that root, every empty cell `?`), as every command reading a diagram takes it.
        file: Option<PathBuf>,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// Give up once the search passes this many positions (a bound for pathological input).
        #[arg(long, default_value_t = c4lab_steady::DEFAULT_BUDGET, value_parser = crate::solve::count_u64_arg)]
        budget: u64,
    },
    /// Blank (set to 9) every cell that is not load-bearing, keeping the win.
    Simplify {
        /// Diagram file (stdin if absent or `-`).
        file: Option<PathBuf>,
        /// Only report the cells that would be cleared (how many, and where), writing nothing.
        #[arg(long)]
        dry_run: bool,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Convert a diagram between the level grid, upstream JSON, the old language and share links.
    Convert {
        /// Diagram file (stdin if absent or `-`).
        file: Option<PathBuf>,
        /// Output form.
        #[arg(long, value_enum, default_value_t = convert::Form::Grid)]
        to: convert::Form,
        /// Mirror the diagram left to right (column c becomes 8 - c), a link's Yellow
        /// line with it, as the Lab's Mirror button does.
        #[arg(long)]
        mirror: bool,
    },
    /// Play Yellow against a diagram (or either colour against a model) in the terminal: type a column 1-7, `u` to undo, `q` to quit.
    Play {
        /// Diagram file (the opponent, with the default --opponent diagram); or a share link (its Yellow line is played first), or a root's moves; `-` reads it from stdin, with --moves and --no-input.
        file: Option<PathBuf>,
        /// Your moves to play first (digits 1-7); with --no-input nothing is read afterwards.
        #[arg(long, default_value = "")]
        moves: String,
        /// Do not read moves from stdin (play only --moves).
        #[arg(long)]
        no_input: bool,
        /// Who plays against you: the diagram (as Red) or a trained model (`--model`).
        #[arg(long, value_enum, default_value = "diagram")]
        opponent: play::Opponent,
        /// The model file, with --opponent model.
        #[arg(long)]
        model: Option<PathBuf>,
        /// Your colour against a model (Red moves first; yellow if not given).
        #[arg(long, value_enum)]
        you: Option<play::Colour>,
    },
    /// Fill the undecided cells (`?`) so the diagram wins: CEGIS with a SAT solver.
    ///
    /// Exit 0 found (the completed grid on stdout), 1 unsat (no completion of these
    /// pinned cells wins), 3 stopped (Ctrl-C, SIGTERM, SIGHUP or --max-seconds), 2 bad input.
    Complete {
        /// Diagram file with `?` cells (stdin if absent or `-`); or a share link, or a root's moves (every empty cell `?`).
        file: Option<PathBuf>,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// Stop after this many seconds (exit 3, the deepest candidate reported).
        #[arg(long, allow_hyphen_values = true, value_parser = complete::seconds_arg)]
        max_seconds: Option<f64>,
        #[command(flatten)]
        search: complete_args::SearchArgs,
        /// Write one JSON line per candidate to this file as it is judged: its number,
        /// the diagram with its levels in the `?` cells, and how it lost (the reason and
        /// the line) or that it won; then the clauses and positions so far. Refused as
        /// --log-rounds of dsat is (standard output, the diagram being read).
        #[arg(long, value_name = "FILE")]
        log_candidates: Option<PathBuf>,
    },
    /// Solve a whole root as one SAT instance: a winning diagram for the `?` cells, or unsat.
    ///
    /// Exit 0 found (the grid on stdout), 1 unsat, 3 budget or stopped, 2 bad input.
    Dsat {
        /// Diagram file: the root's stones, pinned levels, `?` for free cells (stdin if absent or `-`); or a share link, or a root's moves (every empty cell `?`: the question about the root itself).
        file: Option<PathBuf>,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        search: dsat_args::SearchArgs,
        /// Stop after this many seconds (exit 3).
        #[arg(long, allow_hyphen_values = true, value_parser = complete::seconds_arg)]
        max_seconds: Option<f64>,
        /// Write one JSON line per solve-verify round of each search to this file: the
        /// search, the round, the level budget it solved under, how it ended (refuted,
        /// too-few-levels, widened, verdict (found or unsat), stopped), the dead ends and
        /// positions so far, and the seconds since the run started (a search out of
        /// states or rounds ends its log on a round that gave no verdict, refuted or
        /// widened, say; one stopped while it deepens its map, on its last round).
        /// A file that cannot be created is refused before the search; a write that fails
        /// later is a warning after the verdict, which stands (with its exit code). Not
        /// the file standard output goes to, which carries the result.
        #[arg(long, value_name = "FILE")]
        log_rounds: Option<PathBuf>,
    },
    /// Print one diagram of a file of many (upstream's steady_states.txt), by its number or its root, as a level grid; or list them.
    // one of the three, named together when none is given (it named <NUMBER> alone)
    #[command(group(clap::ArgGroup::new("which").required(true).args(["number", "root", "list"])))]
    Pick {
        /// The diagram's number in the file, from 1.
        #[arg(value_parser = crate::whole::any_usize)]
        number: Option<usize>,
        /// The diagram whose root is the position these moves reach (columns 1-7, `-` the empty board).
        #[arg(long, allow_hyphen_values = true)]
        root: Option<String>,
        /// List every diagram: its number, line, stones and root moves, tab-separated.
        #[arg(long)]
        list: bool,
        /// The file of diagrams: six-row diagrams with a blank line between them, `#` comments (`-` standard input).
        #[arg(long, default_value = pick::DEFAULT_STEADY_STATES)]
        steady_states: PathBuf,
    },
    /// Check upstream's whole weak solution graph (branches.txt + steady_states.txt).
    CheckSolution {
        /// Upstream's branches.txt (the default is where `bench verify` reads it).
        #[arg(long, default_value = "../shared/data/upstream/branches.txt")]
        branches: PathBuf,
        /// Upstream's steady_states.txt.
        #[arg(long, default_value = "../shared/data/upstream/steady_states.txt")]
        steady_states: PathBuf,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Solve positions exactly: one line per position, `<moves> <score> <nodes> <microseconds>`.
    Solve {
        /// Positions, one move sequence per line (`-` the empty board), a score after it
        /// allowed (as in the benchmark sets: checked, exit 1 when one differs); stdin if
        /// absent or `-`, answered line by line (blank lines skipped).
        file: Option<PathBuf>,
        /// Only the sign: 1 win, 0 draw, -1 loss for the side to move.
        #[arg(long)]
        weak: bool,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        solver: solve::SolverArgs,
    },
    /// Score every column of a position (full columns marked `-`).
    Analyze {
        /// The position's move sequence (`-` or empty for the empty board).
        #[arg(default_value = "")]
        position: String,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        solver: solve::SolverArgs,
    },
    /// Build an opening book: every position within --depth moves of the empty board, solved.
    Book {
        /// Plies from the empty board (each ply multiplies the positions several-fold;
        /// on two cores depth 1 takes about 1.5 minutes, depth 2 about 5, see docs/solver.md;
        /// at most 10: depth 8 already lists 129,498 positions, out of reach to solve, and
        /// deeper lists run to millions before the first solve).
        #[arg(long, default_value_t = 1, value_parser = crate::whole::range::<u32>(0, c4lab_solver::BOOK_MAX_DEPTH as u64))]
        depth: u32,
        /// Where to write the book.
        #[arg(long)]
        out: PathBuf,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = solve::DEFAULT_TABLE_MB, value_parser = crate::solve::table_mib)]
        table_mb: usize,
        /// Search threads sharing the table (0: one per core).
        #[arg(long, default_value_t = 0, value_parser = crate::solve::thread_arg)]
        threads: usize,
    },
    /// Train the GF(2^8) lookup-table model on a corpus and its per-ply targets.
    Train(model::TrainArgs),
    /// A trained model's move for each position (the Lab's model hint): one line each,
    /// `<moves> <column 1-7>`, or JSON with the network's column scores.
    Hint {
        /// The exported model (from `c4lab train`).
        #[arg(long)]
        model: std::path::PathBuf,
        /// Move sequences (columns 1-7 from the empty board; `-` for the empty board,
        /// printed as `-`); none given: one a line from standard input, as `solve` reads
        /// them (blank lines skipped; a score after the moves, as in the benchmark sets,
        /// is read but not compared), each answered as it comes, a bad line named by
        /// its number.
        positions: Vec<String>,
        /// Machine-readable output: one JSON object a line.
        #[arg(long)]
        json: bool,
    },
    /// Evaluate a model: holdout agreement, optimal-move rate, games against the perfect solver.
    Eval(eval::EvalArgs),
    /// The teacher corpus: generate, check, stats, split, merge, label, sums, verify-sums, overlap.
    Corpus {
        #[command(subcommand)]
        cmd: corpus::Corpus,
    },
    /// Serve the Lab (the browser page and its WebAssembly engine) on 127.0.0.1 (or --host).
    Serve {
        /// Port to listen on (0: any free port; the line it prints names the one taken).
        #[arg(long, default_value_t = 8765)]
        port: u16,
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// Benchmarks that print a table.
    Bench {
        #[command(subcommand)]
        what: bench::Bench,
    },
}

/// Lets every argument that takes a value take a negative number, in every subcommand:
/// `--lr -1` was "unexpected argument '-1'", where `--lr=-1` is named as no step size.
fn negative_values(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|a| {
        if a.get_action().takes_values() {
            a.allow_negative_numbers(true)
        } else {
            a
        }
    })
    .mut_subcommands(negative_values)
}

fn main() -> ExitCode {
    // (the matches too: a check of auto-complete's settings asks which were typed)
    let parsed = negative_values(Cli::command())
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let cli = match parsed {
        Ok((mut cli, matches)) => {
            note_typed(&mut cli.command, &matches);
            cli
        }
        // help and version go to standard output, whose failure (a full disk) is no
        // success; a usage error goes to standard error with clap's status, 2
        Err(e) => {
            let code = e.exit_code();
            return match e.print() {
                Err(failed) if failed.kind() == std::io::ErrorKind::BrokenPipe => {
                    ExitCode::from(BROKEN_PIPE_EXIT)
                }
                Err(failed) if code == 0 => {
                    sayln!("error: cannot write standard output: {failed}");
                    ExitCode::from(2)
                }
                _ => ExitCode::from(code as u8),
            };
        }
    };
    let result = match cli.command {
        Command::Verify { file, json, budget } => verify::verify(file.as_deref(), json, budget),
        Command::Simplify {
            file,
            dry_run,
            json,
        } => verify::simplify(file.as_deref(), dry_run, json),
        Command::Complete {
            file,
            json,
            max_seconds,
            search,
            log_candidates,
        } => complete::complete(
            file.as_deref(),
            json,
            max_seconds,
            &search,
            log_candidates.as_deref(),
        ),
        Command::Dsat {
            file,
            json,
            search,
            max_seconds,
            log_rounds,
        } => search.check().and_then(|()| {
            dsat::dsat(
                file.as_deref(),
                json,
                max_seconds,
                search.options(),
                &search.widen_after,
                &search.local_work,
                log_rounds.as_deref(),
            )
        }),
        Command::Convert { file, to, mirror } => convert::convert(file.as_deref(), to, mirror),
        Command::Play {
            file,
            moves,
            no_input,
            opponent,
            model,
            you,
        } => match opponent {
            // an option that goes with the other opponent is refused, not ignored
            play::Opponent::Diagram if model.is_some() || you.is_some() => Err(anyhow::anyhow!(
                "--model and --you go with --opponent model; against a diagram you are Yellow"
            )),
            play::Opponent::Diagram => match file {
                Some(f) => play::play(&f, &moves, no_input),
                None => Err(anyhow::anyhow!(
                    "play against a diagram needs its file (or --opponent model --model FILE)"
                )),
            },
            play::Opponent::Model if file.is_some() => Err(anyhow::anyhow!(
                "--opponent model plays the model, not a diagram: leave out the diagram file"
            )),
            play::Opponent::Model => match model {
                Some(m) => {
                    play::play_model(&m, you.unwrap_or(play::Colour::Yellow), &moves, no_input)
                }
                None => Err(anyhow::anyhow!(
                    "--opponent model needs --model FILE (made by c4lab train)"
                )),
            },
        },
        Command::Pick {
            number,
            root,
            list: _,
            steady_states,
        } => {
            // (clap lets exactly one of the three through)
            let which = match (number, root) {
                (Some(n), _) => pick::Which::Number(n),
                (None, Some(r)) => pick::Which::Root(r),
                (None, None) => pick::Which::List,
            };
            pick::pick(&steady_states, which)
        }
        Command::CheckSolution {
            branches,
            steady_states,
            json,
        } => solution::check(&branches, &steady_states, json),
        Command::Solve {
            file,
            weak,
            json,
            solver,
        } => solve::solve(file.as_deref(), weak, json, &solver),
        Command::Analyze {
            position,
            json,
            solver,
        } => solve::analyze(&position, json, &solver),
        Command::Book {
            depth,
            out,
            table_mb,
            threads,
        } => book::build(depth, &out, table_mb, threads),
        Command::Serve { port, host, open } => serve::serve(&host, port, open),
        Command::Corpus { cmd } => corpus::run(cmd),
        Command::Train(args) => model::train(args),
        Command::Eval(args) => eval::eval(args),
        Command::Hint {
            model,
            positions,
            json,
        } => eval::hint(&model, &positions, json),
        Command::Bench { what } => bench::run(what),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e)
            if e.downcast_ref::<StdoutError>()
                .map(|out| &out.0)
                .or_else(|| e.downcast_ref::<std::io::Error>())
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            // the reader went away (`c4lab play ... | head`): no message, but no success
            // either (a failed check must not pass for one): the status of a program
            // SIGPIPE stops, which Rust's runtime ignores
            ExitCode::from(BROKEN_PIPE_EXIT)
        }
        Err(e) => {
            sayln!("error: {}", message(&e));
            ExitCode::from(error_exit(&e))
        }
    }
}

/// Records which flags were typed, for the settings whose checks ask (`complete`,
/// `bench complete`, `bench dsat`, `bench corpus`).
fn note_typed(command: &mut Command, matches: &clap::ArgMatches) {
    match command {
        Command::Complete { search, .. } => {
            if let Some(m) = matches.subcommand_matches("complete") {
                search.note_typed(m);
            }
        }
        Command::Bench {
            what: bench::Bench::Complete(args),
        } => {
            let bench = matches.subcommand_matches("bench");
            if let Some(m) = bench.and_then(|b| b.subcommand_matches("complete")) {
                args.search.note_typed(m);
            }
        }
        Command::Bench {
            what: bench::Bench::Corpus(args),
        } => {
            let bench = matches.subcommand_matches("bench");
            if let Some(m) = bench.and_then(|b| b.subcommand_matches("corpus")) {
                args.teacher_typed = typed_flags::<corpus_bench::BenchCorpus>(m)
                    .iter()
                    .any(|flag| flag == "--teacher");
            }
        }
        Command::Bench {
            what: bench::Bench::Dsat(args),
        } => {
            let bench = matches.subcommand_matches("bench");
            if let Some(m) = bench.and_then(|b| b.subcommand_matches("dsat")) {
                args.typed_search = typed_flags::<dsat_args::SearchArgs>(m);
            }
        }
        _ => {}
    }
}

/// The long flags of the settings `A` holds that were typed on the command line (for
/// checks that refuse a setting typed where it has no effect, even at its default).
fn typed_flags<A: clap::Args>(matches: &clap::ArgMatches) -> Vec<String> {
    A::augment_args(clap::Command::new("settings"))
        .get_arguments()
        .filter(|arg| {
            matches.value_source(arg.get_id().as_str())
                == Some(clap::parser::ValueSource::CommandLine)
        })
        .filter_map(|arg| arg.get_long().map(|long| format!("--{long}")))
        .collect()
}
