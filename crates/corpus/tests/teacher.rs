//! Teachers, statistics and exact relabelling.

mod common;

use c4lab_board::Position;
use c4lab_corpus::dataset::{generate_dataset, layout, DatasetConfig};
use c4lab_corpus::gate::check;
use c4lab_corpus::generate::play_game;
use c4lab_corpus::label::{relabel, LabelReport, Scope};
use c4lab_corpus::stats::compute;
use c4lab_corpus::teacher::{LabelCache, Teacher};
use c4lab_corpus::{NoProgress, TeacherMode};

#[test]
fn games_are_pure_functions_of_seed_and_index() {
    let cfg = common::fast_config(21);
    let mut t1 = Teacher::new(&cfg.teacher);
    let mut t2 = Teacher::new(&cfg.teacher);
    let a: Vec<_> = (0..20).map(|i| play_game(&cfg, 0, i, &mut t1)).collect();
    // a different order and a teacher with a warm table give the same games
    let b: Vec<_> = (0..20)
        .rev()
        .map(|i| play_game(&cfg, 0, i, &mut t2))
        .collect();
    let b: Vec<_> = b.into_iter().rev().collect();
    assert_eq!(a, b);
    assert_ne!(a[0], play_game(&cfg, 1, 0, &mut t1), "streams differ");
    for g in &a {
        let n = g.moves.len();
        assert_eq!(g.slots.len(), n.min(cfg.slots));
        for (s, l) in g.slots.iter().enumerate() {
            assert_eq!(l.ply as usize, n - 1 - s);
            let empty = 42 - l.ply as u32;
            assert_eq!(l.flag, if empty <= 7 { 1 } else { 2 });
            assert!(l.flag == 1 || l.mask.count_ones() == 1);
        }
    }
}

/// The best columns of `pos` by a full search of its (at most a handful of) empty
/// cells, written here apart from the solver: a win scores more the sooner it comes.
fn best_by_full_search(pos: &Position) -> u8 {
    fn value(pos: &Position) -> i32 {
        if pos.is_full() {
            return 0;
        }
        (0..7)
            .filter(|&x| pos.can_play(x))
            .map(|x| win_or(pos, x))
            .max()
            .expect("a board that is not full has a move")
    }
    fn win_or(pos: &Position, x: usize) -> i32 {
        if pos.is_winning_move(x) {
            42 - pos.moves_played() as i32
        } else {
            -value(&pos.after(x))
        }
    }
    let best = value(pos);
    (0..7)
        .filter(|&x| pos.can_play(x) && win_or(pos, x) == best)
        .fold(0, |m, x| m | 1 << x)
}

#[test]
fn flag_one_labels_are_every_best_move_by_a_full_search() {
    let cfg = common::fast_config(5);
    let mut teacher = Teacher::new(&cfg.teacher);
    let mut checked = 0;
    for i in 0..40 {
        let game = play_game(&cfg, 0, i, &mut teacher);
        for l in game.slots.iter().filter(|l| l.flag == 1) {
            let mut pos = Position::new();
            for &x in &game.moves[..l.ply as usize] {
                pos.play(x as usize);
            }
            let want = best_by_full_search(&pos);
            assert_eq!(l.mask, want, "game {i}, ply {}: {}", l.ply, pos.to_grid());
            checked += 1;
        }
    }
    // (games that end early have no slot of seven empty cells or fewer)
    assert!(checked > 40, "{checked} flag-1 slots");
}

#[test]
fn stats_and_exact_relabelling() {
    let dir = common::scratch("label");
    let cfg = common::dataset(&dir, 60, 0, 13);
    let [train, npz, ..] = layout(&dir, cfg.games);
    let st = compute(&train, &npz).unwrap();
    assert_eq!(st.rows, 60);
    assert!(st.invariant_holds());
    assert_eq!(st.flags[3].slots, 0);
    assert_eq!(st.flags[2].mean_active(), 1.0);
    assert_eq!(st.flags[2].multi, 0);
    assert_eq!(st.labelled() + st.flags[0].slots, 60 * 19);
    let md = st.to_markdown();
    assert!(
        md.contains("| teacher flag |") && md.contains("holds"),
        "{md}"
    );
    // the third outcome is a draw (a game won on the 42nd ply fills the board too: the
    // row said "full board")
    let [r, y, d] = st.outcomes;
    assert_eq!(r + y + d, 60);
    assert!(
        md.contains(&format!(
            "| first player wins / second wins / draws (a full board, no four) | {r} / {y} / {d} |"
        )),
        "{md}"
    );
    let card = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(card.contains("0 violations"), "{card}");

    // relabel the first 20 rows with the exact teacher
    let scope = Scope {
        rows: Some(20),
        min_stones: 16,
        keep_early: false,
    };
    let (rep, labels) = relabel(&train, &npz, &cfg.gen.teacher, &scope, &NoProgress).unwrap();
    assert_eq!(rep.rows, 20);
    assert_eq!(labels.len(), 20);
    let f1 = rep.flags[1];
    assert!(f1.slots > 0);
    // flag 1 came from the exact solver as the relabelling does, so it is counted optimal
    // throughout (that the solver is right there: the test above)
    assert_eq!((f1.mass_optimal, f1.argmax_optimal), (f1.slots, f1.slots));
    let f2 = rep.flags[2];
    assert!(f2.slots > 0 && f2.mass_optimal == f2.argmax_optimal && f2.argmax_optimal <= f2.slots);
    assert!(rep.to_markdown().contains("| 2 |"));
    assert!(labels
        .rows()
        .flatten()
        .all(|l| (l.ply < 0) == (l.flag == 0) && (l.flag == 0 || l.flag == 3)));
    assert!(labels.rows().flatten().all(|l| l.ply < 0 || l.ply >= 16));

    // with keep_early, the early slots keep their original label and flag
    let keep = Scope {
        keep_early: true,
        ..scope
    };
    let (rep2, kept) = relabel(&train, &npz, &cfg.gen.teacher, &keep, &NoProgress).unwrap();
    // the same counts; the report says the early slots were kept
    assert_eq!(
        rep2,
        LabelReport {
            kept_early: true,
            ..rep.clone()
        }
    );
    assert!(rep2
        .to_markdown()
        .contains("they keep their original labels"));
    assert!(rep.to_markdown().contains("they are left empty"));
    let sc = c4lab_corpus::sidecar::Sidecar::open(&npz).unwrap();
    let mut early = 0;
    for (i, (new, solved)) in kept.rows().zip(labels.rows()).enumerate() {
        let (plies, flags) = (sc.ply_row(i), sc.teacher_row(i));
        for (s, (n, l)) in new.iter().zip(solved).enumerate() {
            if l.ply >= 0 {
                assert_eq!(n, l);
            } else {
                assert_eq!((n.ply, n.flag as i8), (plies[s], flags[s].max(0)));
                assert!(n.ply < 0 || (n.flag == 2 && n.mask.count_ones() == 1));
                early += (n.ply >= 0) as u32;
            }
        }
    }
    assert!(early > 0, "no early slot was kept");
}

#[test]
fn exact_teacher_corpus() {
    let dir = common::scratch("exact");
    let mut gen = common::fast_config(2);
    gen.teacher.mode = TeacherMode::Exact;
    gen.teacher.table_bytes = 1 << 24;
    gen.opening_min = 18; // keep exact solves cheap in a test: no labels near the start
    gen.opening_max = 20;
    gen.epsilon = 0.0;
    gen.slots = 6;
    let cfg = DatasetConfig {
        gen,
        games: 12,
        holdout: 0,
    };
    generate_dataset(&cfg, &dir, &NoProgress).unwrap();
    let [train, npz, hold, hold_npz] = layout(&dir, 12);
    let rep = check(&train, Some(&npz)).unwrap();
    assert!(rep.is_clean(), "{rep}");
    // no holdout: none written, and the card lists none (it listed two files of 0 rows)
    assert!(!hold.exists() && !hold_npz.exists());
    let card = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(!card.contains("holdout/corpus.txt |"), "{card}");
    let st = compute(&train, &npz).unwrap();
    assert_eq!(st.flags[1].slots + st.flags[2].slots, 0);
    assert!(st.flags[3].slots > 0);
    assert_eq!(st.slots_per_row, 6);
}

#[test]
fn the_shared_label_cache_changes_no_game() {
    // exact self-play from 24-26 random plies (cheap solves): positions of at most 32
    // stones go through the cache, and a second pass over the same games is answered
    // from it
    let mut cfg = common::fast_config(5);
    cfg.teacher.mode = TeacherMode::Exact;
    cfg.teacher.table_bytes = 1 << 24;
    cfg.opening_min = 24;
    cfg.opening_max = 26;
    cfg.epsilon = 0.0;
    let cache = std::sync::Arc::new(LabelCache::new(32));
    let mut cached = Teacher::with_cache(&cfg.teacher, cache.clone());
    let mut plain = Teacher::new(&cfg.teacher);
    let a: Vec<_> = (0..6).map(|i| play_game(&cfg, 0, i, &mut cached)).collect();
    let stored = cache.len();
    assert!(stored > 0, "no early position was cached");
    let b: Vec<_> = (0..6).map(|i| play_game(&cfg, 0, i, &mut plain)).collect();
    assert_eq!(a, b);
    let hits = cache.hits();
    let again: Vec<_> = (0..6).map(|i| play_game(&cfg, 0, i, &mut cached)).collect();
    assert_eq!(again, a);
    assert_eq!(cache.len(), stored, "the second pass stored nothing new");
    assert!(
        cache.hits() - hits >= stored as u64,
        "the second pass was answered from the cache: {} hits for {stored} labels",
        cache.hits() - hits
    );
}

#[test]
fn random_moves_wait_for_epsilon_from() {
    // every ply from 8 on is random in `late`, none is in `never`: the first 8 moves agree
    let mut late = common::fast_config(9);
    late.opening_min = 0;
    late.opening_max = 0;
    late.epsilon = 1.0;
    late.epsilon_from = 8;
    let mut never = late.clone();
    never.epsilon_from = 42;
    let back = c4lab_corpus::GenConfig::from_kv(&late.to_kv()).unwrap();
    assert_eq!(
        back.epsilon_from, 8,
        "the setting survives the shard header"
    );
    let mut t = Teacher::new(&late.teacher);
    let mut differ = 0;
    for i in 0..12 {
        let a = play_game(&late, 0, i, &mut t);
        let b = play_game(&never, 0, i, &mut t);
        assert!(a.moves.len() > 8 && b.moves.len() > 8);
        assert_eq!(a.moves[..8], b.moves[..8], "game {i} deviated before ply 8");
        differ += usize::from(a.moves != b.moves);
    }
    assert!(differ >= 10, "only {differ} of 12 games took random moves");
}

#[test]
fn settings_no_game_or_teacher_can_honour_are_refused() {
    let ok = common::fast_config(1);
    assert!(ok.validate().is_ok());
    let refused = |change: &dyn Fn(&mut c4lab_corpus::generate::GenConfig), said: &str| {
        let mut cfg = ok.clone();
        change(&mut cfg);
        let e = cfg.validate().unwrap_err().to_string();
        assert!(e.contains(said), "{e}");
    };
    // an opening past the board (the card recorded "50..=60 random opening plies")
    refused(
        &|c| (c.opening_min, c.opening_max) = (50, 60),
        "opening_max must be at most 41",
    );
    // a search of no plies or no nodes, whose labels still said "alpha-beta search"
    refused(&|c| c.teacher.depth = 0, "at least 1");
    refused(&|c| c.teacher.node_budget = 0, "at least 1");
    // the exact teacher searches to the end, whatever the depth setting
    let mut exact = ok.clone();
    exact.teacher.mode = TeacherMode::Exact;
    exact.teacher.depth = 0;
    assert!(exact.validate().is_ok());
}
