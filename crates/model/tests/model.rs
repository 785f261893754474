//! The model on a small corpus generated here: integer forward pass, export round trip,
//! training that learns, deterministic and resumable runs, reproducible evaluation.

use c4lab_board::{Position, WIDTH};
use c4lab_corpus::dataset::{generate_dataset, layout, DatasetConfig};
use c4lab_corpus::{GenConfig, NoProgress};
use c4lab_model::eval::{agreement, column_scores, optimal_rate, play_games, GameEvent};
use c4lab_model::features::features;
use c4lab_model::train::{loss, policy};
use c4lab_model::{
    load_examples, Example, FeatureSet, Model, Network, Source, TrainConfig, Trainer,
};
use c4lab_solver::Solver;

/// A small train/holdout corpus (alpha-beta teacher), generated once per test binary.
fn corpus() -> (Vec<Example>, Vec<Example>) {
    static LOADED: std::sync::OnceLock<(Vec<Example>, Vec<Example>)> = std::sync::OnceLock::new();
    LOADED
        .get_or_init(|| {
            let dir = tempfile::Builder::new()
                .prefix("c4lab-model-test-")
                .tempdir()
                .unwrap();
            let cfg = DatasetConfig {
                gen: GenConfig::default(),
                games: 400,
                holdout: 80,
            };
            generate_dataset(&cfg, dir.path(), &NoProgress).expect("corpus generates");
            let [train, train_t, hold, hold_t] = layout(dir.path(), 400);
            (
                load_examples(&train, Some(&train_t), Source::Teacher).unwrap(),
                load_examples(&hold, Some(&hold_t), Source::Teacher).unwrap(),
            )
        })
        .clone()
}

fn config(steps: u64) -> TrainConfig {
    TrainConfig {
        steps,
        batch: 16,
        lr: 0.5,
        seed: 7,
        soft_w: 1.0,
        hard_w: 0.5,
        hard_start: 0,
        hard_ramp: 200,
        index_bits: 16,
        features: FeatureSet::Threats,
    }
}

fn trained(examples: &[Example], steps: u64) -> Trainer {
    trained_with(examples, config(steps))
}

fn trained_with(examples: &[Example], config: TrainConfig) -> Trainer {
    let steps = config.steps;
    let mut t = Trainer::new(config).unwrap();
    for _ in 0..steps {
        t.step(examples);
    }
    t
}

#[test]
fn training_lowers_holdout_loss_and_beats_a_uniform_policy() {
    let (train, hold) = corpus();
    assert!(
        train.len() > 2000 && hold.len() > 300,
        "{} {}",
        train.len(),
        hold.len()
    );
    let mean_loss = |net: &Network, set: &[Example]| {
        set.iter().map(|e| loss(net, e)).sum::<f32>() / set.len() as f32
    };
    let uniform_net = Network::new();
    let t = trained(&train, 3000);
    // the training loss falls steeply; the holdout's (board-disjoint positions) falls too
    let (train_before, train_after) = (mean_loss(&uniform_net, &train), mean_loss(&t.net, &train));
    assert!(
        train_after < 0.7 * train_before,
        "training loss {train_before} -> {train_after}"
    );
    let (hold_before, hold_after) = (mean_loss(&uniform_net, &hold), mean_loss(&t.net, &hold));
    assert!(
        hold_after < hold_before,
        "holdout loss {hold_before} -> {hold_after}"
    );
    // a uniform policy over the legal columns agrees with the target this often
    let uniform: f64 = hold
        .iter()
        .map(|e| {
            let legal = (0..WIDTH).filter(|&x| e.position.can_play(x)).count() as f64;
            (e.mask.count_ones() as f64) / legal
        })
        .sum::<f64>()
        / hold.len() as f64;
    let (model, _) = t.net.quantize();
    let a = agreement(&hold, |p| model.best_move(p));
    assert!(
        a.rate() > uniform + 0.07,
        "model {} vs uniform {uniform}",
        a.rate()
    );
    // quantization costs little agreement
    let a = agreement(&hold, |p| model.net_move(p));
    let f = agreement(&hold, |p| t.net.best_move(p));
    assert!(
        (a.rate() - f.rate()).abs() < 0.02,
        "int {} float {}",
        a.rate(),
        f.rate()
    );
}

#[test]
fn the_forward_pass_is_integer_table_sums_and_export_round_trips_bit_exactly() {
    let (train, hold) = corpus();
    for (bits, features) in [(16, FeatureSet::Threats), (17, FeatureSet::Columns)] {
        let t = trained_with(
            &train,
            TrainConfig {
                index_bits: bits,
                features,
                ..config(300)
            },
        );
        forward_pass_and_round_trip(&t, &hold, bits, features);
    }
    // a table width outside 16..=20 is refused
    assert!(Trainer::new(TrainConfig {
        index_bits: 21,
        ..config(1)
    })
    .is_err());
}

fn forward_pass_and_round_trip(t: &Trainer, hold: &[Example], bits: u32, set: FeatureSet) {
    let (model, scale) = t.net.quantize();
    assert_eq!((model.index_bits(), model.feature_set()), (bits, set));
    // two bytes a score, seven scores a slot, 8 tables a side for the column windows
    // and 13 with the threat windows; then the 32-byte SHA-256
    let tables = if set == FeatureSet::Threats { 13 } else { 8 };
    assert_eq!(model.size_bytes(), 16 + ((2 * 7 * 2 * tables) << bits) + 32);
    assert!(scale > 0.0);
    let bytes = model.to_bytes();
    assert_eq!(bytes.len(), model.size_bytes());
    let back = Model::from_bytes(&bytes).unwrap();
    assert!(back == model, "round trip changed the model");
    assert_eq!(back.to_bytes(), bytes);
    // an independent integer-only forward pass over the exported bytes: table slot
    // lookups and i32 adds, nothing else
    let word = |i: usize| i16::from_le_bytes([bytes[16 + 2 * i], bytes[17 + 2 * i]]) as i32;
    for e in hold.iter().take(500) {
        let mut s = [0i32; WIDTH];
        for f in features(&e.position, model.index_bits(), model.feature_set()) {
            for (x, v) in s.iter_mut().enumerate() {
                let col = if f.mirrored { WIDTH - 1 - x } else { x };
                *v += word(((f.table << model.index_bits()) + f.slot) * WIDTH + col);
            }
        }
        assert_eq!(model.scores(&e.position), s);
        // and its move is legal
        let m = model.best_move(&e.position).unwrap();
        assert!(e.position.can_play(m));
    }
    // damaged files are refused with a reason, a changed weight too (it would only
    // have changed the hints)
    assert!(Model::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    let said = |b: &[u8]| Model::from_bytes(b).err().expect("refused").to_string();
    assert!(said(b"not a model at all").contains("does not start with the c4lab model magic"));
    // a file cut inside its header, or empty, is named so (it said the magic was wrong)
    for cut in [15, 8, 3] {
        assert_eq!(
            said(&bytes[..cut]),
            format!("not a c4lab model: it ends after {cut} bytes, inside the 16-byte header a model starts with: the file was cut short; write or copy it again")
        );
    }
    assert_eq!(said(b""), "not a c4lab model: the file is empty");
    // a checkpoint given as a model is named as one (it said the magic was wrong)
    let mut ckpt = c4lab_model::train::CHECKPOINT_MAGIC.to_vec();
    ckpt.extend([0u8; 64]);
    let e = Model::from_bytes(&ckpt).err().expect("refused").to_string();
    assert!(
        e.contains("it is a training checkpoint, which train --resume takes"),
        "{e}"
    );
    let mut changed = bytes.clone();
    changed[16 + 2 * 1000] ^= 1;
    let e = Model::from_bytes(&changed).err().expect("refused");
    assert!(e.to_string().contains("checksum does not match"), "{e}");
    // a damaged version field is damage, not another build's file (it said "version 3;
    // this program reads version 2"), a flipped bit anywhere in the field
    for (at, bit) in [(8, 1), (10, 0x80)] {
        let mut flipped = bytes.clone();
        flipped[at] ^= bit;
        let e = said(&flipped);
        assert!(
            e.contains("checksum does not match its contents, so the file is damaged (its version field reads"),
            "{e}"
        );
    }
    // and a file cut short says so
    let e = said(&bytes[..bytes.len() / 2]);
    assert!(
        e.contains("the file was cut short, or its header is damaged"),
        "{e}"
    );
    // a version 1 file, written before the checksum, is refused by name (it was read
    // unchecked, a changed weight and all)
    let mut old = changed[..changed.len() - 32].to_vec();
    old[8] = 1;
    let e = Model::from_bytes(&old).err().expect("refused");
    assert!(
        e.to_string()
            .contains("version 1, written before model files carried a checksum"),
        "{e}"
    );
}

/// `bytes` with its last 32 bytes made the SHA-256 of the rest again.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    let body = bytes.len() - 32;
    let sum = Sha256::digest(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum);
    bytes
}

#[test]
fn training_is_deterministic_and_resumes_exactly() {
    let (train, _) = corpus();
    let straight = trained(&train, 400);
    let again = trained(&train, 400);
    assert!(straight.net == again.net, "same seed, different weights");
    let half = trained(&train, 200);
    let mut resumed = Trainer::resume(config(400), &half.checkpoint()).unwrap();
    assert_eq!(resumed.step, 200);
    for _ in 200..400 {
        resumed.step(&train);
    }
    assert!(resumed.net == straight.net, "resumed run differs");
    assert_eq!(resumed.checkpoint(), straight.checkpoint());
    // the size a reader allows is the size written (a limit made of the model file's
    // two bytes a weight refused a 20-bit run's own checkpoint)
    let size = Trainer::checkpoint_bytes(16, FeatureSet::Threats);
    assert_eq!(straight.checkpoint().len(), size);
    // a checkpoint is tied to its seed and its table width
    let mut other = config(400);
    other.seed = 8;
    assert!(Trainer::resume(other, &half.checkpoint()).is_err());
    let wider = TrainConfig {
        index_bits: 17,
        ..config(400)
    };
    assert!(Trainer::resume(wider, &half.checkpoint()).is_err());
    let columns = TrainConfig {
        features: FeatureSet::Columns,
        ..config(400)
    };
    assert!(Trainer::resume(columns, &half.checkpoint()).is_err());
    // a changed byte is refused by the checksum, not trained on
    // (and a damaged seed is called damage, not a seed to resume with, and so is a
    // damaged settings mark, which read as an older checkpoint, its stream state as the
    // seed)
    const W: usize = 104; // the weights start past the magic, the mark and 11 words
    for byte in [W + 4 * 1000, 8, 32] {
        let mut damaged = half.checkpoint();
        damaged[byte] ^= 1;
        let Err(e) = Trainer::resume(config(400), &damaged) else {
            panic!("byte {byte} changed, and the checkpoint resumed");
        };
        assert!(
            e.to_string().contains("checksum does not match"),
            "byte {byte}: {e}"
        );
    }
    // one cut inside its header is named so (it said the magic was wrong)
    let e = Trainer::resume(config(400), &half.checkpoint()[..20])
        .err()
        .expect("refused");
    assert!(
        e.to_string()
            .contains("it ends after 20 bytes, inside the 32-byte header a checkpoint starts with"),
        "{e}"
    );
    // a weight that is NaN is refused even under a matching checksum
    let mut damaged = half.checkpoint();
    damaged[W + 4 * 1000..W + 4 * 1001].copy_from_slice(&f32::NAN.to_le_bytes());
    let e = Trainer::resume(config(400), &resealed(damaged))
        .err()
        .expect("refused");
    assert!(
        e.to_string().contains("weight 1000 is not a finite number"),
        "{e}"
    );
    // a cut-off checkpoint (a copy that stopped short), or one whose checksum was cut
    // away (it read as a checkpoint from before the checksum, damage and all), is
    // refused as damaged
    let full = half.checkpoint();
    for cut in [&full[..full.len() - 32 - 4 * 3], &full[..full.len() - 32]] {
        let e = Trainer::resume(config(400), cut).err().expect("refused");
        assert!(
            e.to_string().contains("checksum does not match")
                && e.to_string().contains("train afresh"),
            "{e}"
        );
    }
    // the settings a resume must repeat: a changed one is named, with the fix
    let faster = TrainConfig {
        lr: config(400).lr * 2.0,
        ..config(400)
    };
    let e = Trainer::resume(faster, &full).err().expect("refused");
    assert!(
        e.to_string()
            .contains(&format!("used --lr {}", config(400).lr)),
        "{e}"
    );
    let bigger = TrainConfig {
        batch: config(400).batch + 1,
        ..config(400)
    };
    let e = Trainer::resume(bigger, &full).err().expect("refused");
    assert!(e.to_string().contains("used --batch"), "{e}");
    // the examples it was trained on (named by train_on), and no others
    let mut named = Trainer::new(config(400)).unwrap();
    named.train_on(&train).unwrap();
    let ckpt = named.checkpoint();
    let mut same = Trainer::resume(config(400), &ckpt).unwrap();
    same.train_on(&train).unwrap();
    let mut other = Trainer::resume(config(400), &ckpt).unwrap();
    let e = other.train_on(&train[1..]).expect_err("refused");
    assert!(
        e.to_string().contains(&format!(
            "trained on other examples ({} then, {} here",
            train.len(),
            train.len() - 1
        )),
        "{e}"
    );
    // checkpoints written before the settings were recorded (magic, step, stream
    // state, seed, weights, with or without the checksum) resume as they did
    let mut old = full[..8].to_vec();
    old.extend_from_slice(&full[16..40]);
    old.extend_from_slice(&full[W..full.len() - 32]);
    let mut sealed_old = old.clone();
    sealed_old.extend_from_slice(&[0; 32]);
    let sealed_old = resealed(sealed_old);
    let mut again = Trainer::resume(config(400), &full).unwrap();
    again.step(&train);
    for old in [&old[..], &sealed_old[..]] {
        let mut resumed = Trainer::resume(config(400), old).unwrap();
        assert_eq!(resumed.step, 200);
        resumed.step(&train);
        assert!(resumed.net == again.net);
        // (an older checkpoint names no examples: any are taken)
        resumed.train_on(&train[1..]).unwrap();
    }
}

#[test]
fn evaluation_reproduces_from_a_seed() {
    let (train, hold) = corpus();
    let (model, _) = trained(&train, 1000).net.quantize();
    let late: Vec<Position> = hold
        .iter()
        .filter(|e| e.position.moves_played() >= 20)
        .take(40)
        .map(|e| e.position)
        .collect();
    let mut solver = Solver::new(16 << 20);
    let o1 = optimal_rate(&late, &mut solver, 1_000_000, |p| model.best_move(p));
    let o2 = optimal_rate(&late, &mut solver, 1_000_000, |p| model.best_move(p));
    assert_eq!(o1, o2);
    assert_eq!(o1.solved + o1.unsolved, late.len() as u64);
    assert!(o1.solved > 30);
    // keeping the value is weaker than playing a best move
    assert!(o1.optimal <= o1.value_kept && o1.value_kept <= o1.solved);
    // the solver's own best moves are all optimal and value-keeping; its worst moves
    // give the value away somewhere
    let best = |p: &Position| Solver::new(1 << 20).best_moves(p).first().copied();
    let perfect = optimal_rate(&late, &mut solver, 1_000_000, best);
    assert_eq!(
        (perfect.optimal, perfect.value_kept),
        (perfect.solved, perfect.solved)
    );
    let worst = |p: &Position| {
        let scores = column_scores(&mut Solver::new(1 << 20), p, 1_000_000)?;
        (0..WIDTH)
            .filter(|&x| scores[x].is_some())
            .min_by_key(|&x| scores[x])
    };
    let w = optimal_rate(&late, &mut solver, 1_000_000, worst);
    assert!(
        w.value_kept < w.solved && w.optimal <= w.value_kept,
        "{w:?}"
    );
    let g1 = play_games(
        4,
        16,
        3,
        &mut solver,
        2_000_000,
        |p| model.best_move(p),
        |_| {},
    );
    let played = g1.won_starts.0 + g1.drawn_starts.0 + g1.lost_starts.0 + g1.unsolved;
    assert_eq!(played, 4);
    // the same seed plays the same games (checked below, where the second run
    // also reports each game); each reported game replays and ends as reported
    let mut ends = Vec::new();
    let g3 = play_games(
        4,
        16,
        3,
        &mut solver,
        2_000_000,
        |p| model.best_move(p),
        |event| {
            if let GameEvent::Ended(end) = event {
                ends.push(end.clone());
            }
        },
    );
    assert_eq!(g3, g1);
    assert_eq!(ends.len() as u64, played - g1.unsolved);
    for end in &ends {
        let (body, last) = end.moves.split_at(end.moves.len() - 1);
        let before = Position::from_moves(body).expect("a legal line");
        let x = usize::from(last.as_bytes()[0] - b'1');
        // the model plays first after the 16-ply opening
        let model_moved_last = before.moves_played().is_multiple_of(2);
        let expected = if before.is_winning_move(x) {
            if model_moved_last {
                1
            } else {
                -1
            }
        } else {
            assert!(
                before.after(x).is_full(),
                "a game ends at a four or a full board"
            );
            0
        };
        assert_eq!(end.result, expected, "game {}", end.moves);
    }
    let won = ends
        .iter()
        .filter(|e| e.value == 1 && e.result == 1)
        .count() as u64;
    assert_eq!(won, g1.won_starts.1);
    // the policy helper is a distribution over the legal columns
    let p = policy(&late[0], &[0.0; WIDTH]);
    assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
}

#[test]
fn the_model_takes_a_win_and_never_hands_one_over() {
    // an untrained model (all scores zero) would play the centre
    let (model, _) = Network::new().quantize();
    // Red to move with three on the bottom row: column 4 wins at once
    let win = Position::from_moves("112233").unwrap();
    assert_eq!(model.best_move(&win), Some(3));
    assert_eq!(
        model.net_move(&win),
        Some(3),
        "the centre, by the tie order"
    );
    // Yellow to move must block column 4 (Red threatens the bottom row)
    let block = Position::from_moves("11223").unwrap();
    assert_eq!(model.best_move(&block), Some(3));
    // Red to move after 421212: Yellow stacks three in column 2; only column 2 blocks
    let vertical = Position::from_moves("421212").unwrap();
    assert!(vertical.winner().is_none() && vertical.winning_moves() == 0);
    assert_eq!(model.best_move(&vertical), Some(1));
    assert_ne!(model.net_move(&vertical), Some(1));
}

#[test]
fn the_model_forces_a_win_in_two_and_denies_one() {
    // an untrained model plays the centre by the tie order; the checks decide here
    let (model, _) = Network::new().quantize();
    // Red holds the bottom of columns 3 and 4: columns 2 or 5 make an open three
    // (two threats Yellow cannot both block)
    let attack = Position::from_moves("3344").unwrap();
    assert_eq!(model.net_move(&attack), Some(3));
    assert!(matches!(model.best_move(&attack), Some(1 | 4)));
    // Yellow to move after 334: only columns 2 and 5 keep Red from an open three
    let defend = Position::from_moves("334").unwrap();
    assert_eq!(model.net_move(&defend), Some(3));
    assert!(matches!(model.best_move(&defend), Some(1 | 4)));

    // wherever a move forces a four on the next turn, the model's move is optimal
    let mut solver = Solver::new(16 << 20);
    let mut rng = 7u64;
    let mut forced = 0;
    for _ in 0..400 {
        let mut p = Position::new();
        while p.winner().is_none() && !p.is_full() && p.winning_moves() == 0 {
            let forcing = (0..WIDTH).any(|x| {
                p.can_play(x) && {
                    let a = p.after(x);
                    a.winning_moves() == 0
                        && a.moves_played() < 42
                        && (0..WIDTH).filter(|&y| a.can_play(y)).all(|y| {
                            let q = a.after(y);
                            q.moves_played() < 42 && q.winning_moves() != 0
                        })
                }
            });
            if forcing && p.moves_played() >= 14 {
                forced += 1;
                let x = model.best_move(&p).unwrap();
                assert!(
                    solver.best_moves(&p).contains(&x),
                    "the model's move {x} is not optimal at a forced win"
                );
            }
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let legal: Vec<usize> = (0..WIDTH).filter(|&x| p.can_play(x)).collect();
            p.play(legal[(rng >> 33) as usize % legal.len()]);
        }
    }
    assert!(forced >= 20, "only {forced} forced wins met");
}

#[test]
fn a_steps_loss_is_the_objective_both_weights_make() {
    // an untrained network plays every legal column alike, so each cross-entropy is the
    // log of the legal columns' count: the step's loss is (soft + hard) times it (the
    // played-move term was left out, and `--soft-w 0` read 0 from the first step on)
    let (train, _) = corpus();
    let e = *train.iter().find(|e| e.mask.count_ones() == 1).unwrap();
    let legal = (0..WIDTH).filter(|&x| e.position.can_play(x)).count() as f32;
    for (soft_w, hard_w) in [(1.0, 0.5), (0.0, 1.0), (2.0, 0.0)] {
        let mut t = Trainer::new(TrainConfig {
            soft_w,
            hard_w,
            hard_ramp: 0,
            batch: 1,
            ..config(1)
        })
        .unwrap();
        let l = t.step(std::slice::from_ref(&e));
        let want = (soft_w + hard_w) * legal.ln();
        assert!(
            (l - want).abs() < 1e-5,
            "{soft_w} {hard_w}: {l} against {want}"
        );
    }
}

#[test]
fn a_diverged_networks_loss_is_nan() {
    // a step size that blows the weights up makes the policy NaN; the loss said so
    // (it read as a finite number, and `train` went on to its next scan of the weights,
    // up to 100,000 steps later)
    let (train, _) = corpus();
    let mut t = Trainer::new(TrainConfig {
        lr: 1e38,
        ..config(1000)
    })
    .unwrap();
    let nan_at = (1..=1000).find(|_| t.step(&train).is_nan());
    assert!(
        nan_at.is_some(),
        "the loss stayed a number over 1,000 steps"
    );
    assert!(t.net.first_non_finite().is_some(), "NaN at step {nan_at:?}");
}

#[test]
fn loss_weights_that_would_train_nothing_are_refused() {
    let refused = |soft_w: f32, hard_w: f32| {
        let config = TrainConfig {
            soft_w,
            hard_w,
            ..config(10)
        };
        match Trainer::new(config) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("weights {soft_w} and {hard_w} were taken"),
        }
    };
    assert!(refused(f32::NAN, 0.5).contains("--soft-w NaN"));
    assert!(refused(1.0, f32::INFINITY).contains("--hard-w inf"));
    assert!(refused(-1.0, 0.5).contains("--soft-w -1"));
    assert!(refused(0.0, 0.0).contains("both 0"));
    // one weight at 0 is a real choice: the played moves alone, or the teacher alone
    assert!(Trainer::new(TrainConfig {
        soft_w: 0.0,
        ..config(10)
    })
    .is_ok());
}
