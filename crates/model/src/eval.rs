//! Evaluation: agreement with a corpus's targets (overall and per teacher flag), the
//! optimal-move rate measured with the strong solver, and games against the perfect
//! solver from random openings.

use c4lab_board::{Position, WIDTH};
use c4lab_corpus::rng::Rng;
use c4lab_solver::{Outcome, Solver};

use crate::train::Example;

/// How often a model's move lies in the target's support.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Examples scored.
    pub total: u64,
    /// Examples whose move was a target column.
    pub agree: u64,
    /// Per teacher flag 0..=3: (examples, agreeing).
    pub per_flag: [(u64, u64); 4],
}

impl Agreement {
    /// The share of agreeing examples (0 when there are none).
    pub fn rate(&self) -> f64 {
        self.agree as f64 / self.total.max(1) as f64
    }
}

/// Agreement of the moves `choose` picks with `examples`' targets.
pub fn agreement(examples: &[Example], choose: impl Fn(&Position) -> Option<usize>) -> Agreement {
    let mut a = Agreement::default();
    for e in examples {
        let ok = choose(&e.position).is_some_and(|x| e.mask & (1 << x) != 0);
        a.total += 1;
        a.agree += ok as u64;
        let f = &mut a.per_flag[(e.flag as usize).min(3)];
        f.0 += 1;
        f.1 += ok as u64;
    }
    a
}

/// The optimal-move rate over positions the strong solver could settle.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Optimality {
    /// Positions whose every column was solved within the budget.
    pub solved: u64,
    /// Of those, positions where the move chosen had the best score.
    pub optimal: u64,
    /// Of those, positions where the move chosen kept the game's value (a won position
    /// stays won, a drawn one drawn, whatever the distance; in a lost position every
    /// move counts): optimal or not, it gives nothing away.
    pub value_kept: u64,
    /// Positions skipped because a column ran out of budget.
    pub unsolved: u64,
}

impl Optimality {
    /// The share of optimal moves among solved positions.
    pub fn rate(&self) -> f64 {
        self.optimal as f64 / self.solved.max(1) as f64
    }

    /// The share of value-keeping moves among solved positions.
    pub fn value_rate(&self) -> f64 {
        self.value_kept as f64 / self.solved.max(1) as f64
    }
}

/// Every column's exact score in `pos` within `max_nodes` a column, or None.
pub fn column_scores(
    solver: &mut Solver,
    pos: &Position,
    max_nodes: u64,
) -> Option<[Option<i32>; WIDTH]> {
    let mut out = [None; WIDTH];
    for (x, slot) in out.iter_mut().enumerate() {
        if !pos.can_play(x) {
            continue;
        }
        if pos.is_winning_move(x) {
            *slot = Some(c4lab_solver::immediate_win_score(pos.moves_played()));
            continue;
        }
        match solver.solve_with_budget(&pos.after(x), max_nodes) {
            Outcome::Exact(s) => *slot = Some(-s),
            Outcome::Unknown { .. } => return None,
        }
    }
    Some(out)
}

/// How often `choose` plays a best move in `positions`, by the strong solver.
pub fn optimal_rate(
    positions: &[Position],
    solver: &mut Solver,
    max_nodes: u64,
    choose: impl Fn(&Position) -> Option<usize>,
) -> Optimality {
    let scores: Vec<_> = positions
        .iter()
        .map(|p| column_scores(solver, p, max_nodes))
        .collect();
    optimality(positions, &scores, choose)
}

/// How often `choose` plays a best move in `positions`, given each one's column scores
/// (None: over budget) from [`column_scores`]; two players judged on the same scores
/// are judged on the same positions.
pub fn optimality(
    positions: &[Position],
    scores: &[Option<[Option<i32>; WIDTH]>],
    choose: impl Fn(&Position) -> Option<usize>,
) -> Optimality {
    let mut o = Optimality::default();
    for (p, scores) in positions.iter().zip(scores) {
        let Some(scores) = scores else {
            o.unsolved += 1;
            continue;
        };
        let best = scores.iter().flatten().max().copied();
        let chosen = choose(p).and_then(|x| scores.get(x).copied().flatten());
        o.solved += 1;
        o.optimal += (chosen.is_some() && chosen == best) as u64;
        o.value_kept += chosen
            .zip(best)
            .is_some_and(|(c, b)| c.signum() == b.signum()) as u64;
    }
    o
}

/// Games against the perfect solver from random openings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Games {
    /// Games whose start was won for the model, and of those, won.
    pub won_starts: (u64, u64),
    /// Games whose start was drawn for the model, and of those, not lost.
    pub drawn_starts: (u64, u64),
    /// Games whose start was lost for the model, and of those, not lost.
    pub lost_starts: (u64, u64),
    /// Games abandoned because the solver ran out of budget.
    pub unsolved: u64,
    /// Games not played because the random opening ran out of moves that do not win
    /// at once before its length.
    pub no_opening: u64,
}

/// One finished game of [`play_games`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEnd {
    /// The game's index.
    pub index: u64,
    /// The moves from the empty board, columns 1-7.
    pub moves: String,
    /// The start's value for the model: 1 won, 0 drawn, -1 lost.
    pub value: i32,
    /// The result for the model: 1 won, 0 drawn, -1 lost.
    pub result: i32,
}

/// What [`play_games`] reports as it plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEvent<'a> {
    /// The solver is asked about the position after `moves` in game `index` (near the
    /// empty board one question takes minutes).
    Asking {
        /// The game's index.
        index: u64,
        /// The moves so far, columns 1-7.
        moves: &'a str,
    },
    /// A game was played to its end.
    Ended(&'a GameEnd),
}

/// Plays `games` games: `opening` random plies (seeded), then the model moves for
/// the side to move and the solver answers with a random best move (within
/// `max_nodes` a column), until the game ends;
/// `report` is told of each solver question and of each game played to its end.
pub fn play_games(
    games: u64,
    opening: u32,
    seed: u64,
    solver: &mut Solver,
    max_nodes: u64,
    choose: impl Fn(&Position) -> Option<usize>,
    mut report: impl FnMut(GameEvent<'_>),
) -> Games {
    let mut out = Games::default();
    'game: for g in 0..games {
        let mut rng = Rng::for_game(seed, 2, g);
        // a random opening that leaves the game undecided by a move at once
        let mut pos = Position::new();
        let mut moves = String::new();
        for _ in 0..opening {
            let legal: Vec<usize> = (0..WIDTH)
                .filter(|&x| pos.can_play(x) && !pos.is_winning_move(x))
                .collect();
            if legal.is_empty() {
                out.no_opening += 1;
                continue 'game;
            }
            let x = legal[rng.below(legal.len() as u64) as usize];
            moves.push(char::from(b'1' + x as u8));
            pos = pos.after(x);
        }
        report(GameEvent::Asking {
            index: g,
            moves: &moves,
        });
        let Some(start) = column_scores(solver, &pos, max_nodes) else {
            out.unsolved += 1;
            continue;
        };
        let value = start.iter().flatten().max().copied().unwrap_or(0).signum();
        let model_side = pos.moves_played() & 1;
        let mut result = 0; // +1 the model won, -1 it lost
        while !pos.is_full() {
            let models_turn = pos.moves_played() & 1 == model_side;
            let x = if models_turn {
                choose(&pos).expect("a move on a board that is not full")
            } else {
                report(GameEvent::Asking {
                    index: g,
                    moves: &moves,
                });
                let Some(s) = column_scores(solver, &pos, max_nodes) else {
                    out.unsolved += 1;
                    continue 'game;
                };
                let best = s.iter().flatten().max().copied();
                let bests: Vec<usize> = (0..WIDTH)
                    .filter(|&x| s[x].is_some() && s[x] == best)
                    .collect();
                bests[rng.below(bests.len() as u64) as usize]
            };
            moves.push(char::from(b'1' + x as u8));
            if pos.is_winning_move(x) {
                result = if models_turn { 1 } else { -1 };
                break;
            }
            pos = pos.after(x);
        }
        report(GameEvent::Ended(&GameEnd {
            index: g,
            moves,
            value,
            result,
        }));
        let slot = match value {
            1 => &mut out.won_starts,
            0 => &mut out.drawn_starts,
            _ => &mut out.lost_starts,
        };
        slot.0 += 1;
        slot.1 += if value == 1 {
            (result == 1) as u64
        } else {
            (result >= 0) as u64
        };
    }
    out
}
