//! `c4lab bench corpus`: games and labels per second for each teacher.

use anyhow::{bail, Result};
use c4lab_corpus::bench::{bench as run_bench, TABLE_HEADER};
use c4lab_corpus::dataset::MAX_GAMES;
use clap::Args;

use crate::selfplay::{SelfPlay, Teacher, EXACT_CHEAP_FROM_PLY};

/// `c4lab bench corpus`: games and labels per second per teacher.
#[derive(Args, Debug, Clone)]
// (every teacher has its row: the self-play flag that chooses one is not offered)
#[command(mut_arg("teacher", |a| a.hide(true)))]
pub struct BenchCorpus {
    /// Games for the alpha-beta teacher (at most a billion, as `corpus generate`).
    #[arg(long, default_value_t = 20_000, value_parser = crate::whole::range::<u64>(0, MAX_GAMES))]
    pub games: u64,
    /// Games for the exact teacher (0 skips it; at most a billion).
    #[arg(long, default_value_t = 20, value_parser = crate::whole::range::<u64>(0, MAX_GAMES))]
    pub exact_games: u64,
    /// Games for the exact teacher with no random opening and random moves only from
    /// ply 10 on (0 skips it; at most a billion); the rate grows with the games as the
    /// label cache warms.
    #[arg(long, default_value_t = 5_000, value_parser = crate::whole::range::<u64>(0, MAX_GAMES))]
    pub late_games: u64,
    #[command(flatten)]
    pub play: SelfPlay,
    /// Whether `--teacher` was typed (refused at any value, the default too).
    #[arg(skip)]
    pub teacher_typed: bool,
}

/// `c4lab bench corpus`: prints games/s and labels/s for the alpha-beta and the exact
/// teacher, the extrapolated time for 324,000 games, and the peak memory.
pub fn bench(args: BenchCorpus) -> Result<u8> {
    if args.teacher_typed || args.play.teacher != Teacher::Alphabeta {
        bail!("bench corpus times every teacher itself (a row each); leave out --teacher");
    }
    if args.games == 0 {
        bail!("--games 0: the alpha-beta row needs at least one game (a rate of none is no rate)");
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // the teachers' threads (RAYON_NUM_THREADS may give fewer than the cores)
    let threads = c4lab_corpus::generate::worker_threads();
    // every row's settings checked (and a --book read) before the header
    let mut ab = args.play.clone();
    ab.teacher = Teacher::Alphabeta;
    let mut rows = vec![(ab.config()?, args.games, None)];
    if args.exact_games > 0 {
        let mut ex = args.play.clone();
        ex.teacher = Teacher::Exact;
        rows.push((ex.config()?, args.exact_games, None));
    }
    let late_from = args.play.epsilon_from.max(EXACT_CHEAP_FROM_PLY);
    if args.late_games > 0 {
        let mut late = args.play.clone();
        late.teacher = Teacher::Exact;
        late.opening_min = 0;
        late.opening_max = 0;
        late.epsilon_from = late_from;
        rows.push((
            late.config()?,
            args.late_games,
            Some("exact, late random moves"),
        ));
    }
    outln!("{TABLE_HEADER}");
    let mut runs = Vec::new();
    for (cfg, games, name) in &rows {
        // the games done within a row (a slow teacher's row was minutes without a word),
        // named as the row is (the two exact rows' progress read alike)
        let r = run_bench(cfg, *games, *name, &crate::corpus::Bar::clearing())?;
        // each row as its teacher finishes (a run stopped during a slow teacher showed
        // the header alone)
        outln!("{}", r.table_row());
        runs.push(r);
    }
    outln!();
    for r in &runs {
        // a game a thread: fewer games than cores kept only that many busy
        let busy = threads.min(r.games as usize).max(1);
        // (a short run's rate understates a long one's where the label cache warms)
        let warms = if r.teacher.starts_with("exact") {
            "; a longer run goes faster, as the exact labels' shared cache fills"
        } else {
            ""
        };
        outln!(
            "{}: 324,000 games would take {:.0} s at this rate ({busy} thread{} busy; the machine has {cores}{warms})",
            r.teacher,
            324_000.0 / r.games_per_s(),
            if busy == 1 { "" } else { "s" }
        );
    }
    let late = if args.late_games > 0 {
        format!(
            "; exact, late random moves: no opening, epsilon {} from ply {late_from}",
            args.play.epsilon
        )
    } else {
        String::new()
    };
    outln!(
        "(alpha-beta: depth {}, {} nodes{late})",
        args.play.depth,
        args.play.nodes
    );
    if let Some(b) = peak_rss() {
        // (a measurement, not a count: it moves by a little between runs)
        outln!(
            "peak memory: {:.1} MiB resident, as the system counts it",
            b as f64 / (1 << 20) as f64
        );
    }
    Ok(0)
}

/// Peak resident memory of this process in bytes (Linux), if known.
fn peak_rss() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
