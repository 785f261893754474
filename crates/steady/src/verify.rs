//! The exhaustive verifier (the README's "Verification order"): Red follows the
//! diagram, every Yellow reply is searched depth-first in column order, transpositions
//! are shared.

use c4lab_board::{
    has_four, winning_cells, Player, Position, StonesError, BOARD_MASK, BOTTOM_MASK,
};

use crate::agent::{choose_without_win, Choice};
use crate::keyset::KeySet;
use crate::{level_name, Diagram, Levels, RootError};
use c4lab_board::column_of;

/// The node budget: a bound for pathological input, never hit by a real diagram.
pub const DEFAULT_BUDGET: u64 = 5_000_000;

/// Why a line is lost for Red.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LossReason {
    /// No level is held by exactly one playable cell; the tied levels present.
    NoMove {
        /// Levels held by two or more playable cells.
        tied: Vec<u8>,
    },
    /// Yellow completes a four.
    YellowWins,
    /// The board fills without a four for Red.
    Draw,
}

impl LossReason {
    /// The reason's name: `no-move`, `yellow-wins` or `draw`.
    pub fn name(&self) -> &'static str {
        match self {
            LossReason::NoMove { .. } => "no-move",
            LossReason::YellowWins => "yellow-wins",
            LossReason::Draw => "draw",
        }
    }
}

/// A line on which the diagram loses: the moves from the root and why it ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counterexample {
    /// The moves from the root (0-based columns), Red first, alternating.
    pub line: Vec<u8>,
    /// How the line ends.
    pub reason: LossReason,
}

impl Counterexample {
    /// Its reason in words, with the line (`yellow-wins after 4453 (moves from the root,
    /// Red first)`, or `... at the root` when the line is empty).
    pub fn describe(&self) -> String {
        let why = match &self.reason {
            LossReason::NoMove { tied } if tied.is_empty() => {
                "no-move (no playable cell holds a level)".into()
            }
            LossReason::NoMove { tied } => {
                let tied: Vec<String> = tied.iter().map(|&l| level_name(l).to_string()).collect();
                format!("no-move (no level unique; tied: {})", tied.join(", "))
            }
            LossReason::YellowWins => "yellow-wins".to_string(),
            LossReason::Draw => "draw".to_string(),
        };
        if self.line.is_empty() {
            return format!("{why} at the root");
        }
        format!(
            "{why} after {} (moves from the root, Red first)",
            c4lab_board::format_moves(&self.line)
        )
    }

    /// Yellow's moves of the line (every second move, from the root's reply on).
    pub fn yellow_moves(&self) -> Vec<u8> {
        self.line.iter().skip(1).step_by(2).copied().collect()
    }

    /// As JSON: `reason`, `line` (moves from the root, Red first), `yellow` (Yellow's
    /// moves of it) and, where the diagram names no move, the `tied` levels.
    pub fn to_json(&self) -> serde_json::Value {
        use c4lab_board::format_moves;
        let mut j = serde_json::json!({
            "reason": self.reason.name(),
            "line": format_moves(&self.line),
            "yellow": format_moves(&self.yellow_moves()),
        });
        if let LossReason::NoMove { tied } = &self.reason {
            j["tied"] = serde_json::json!(tied);
        }
        j
    }
}

/// The outcome of verifying a diagram.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Red makes four on every line.
    Win {
        /// Distinct Red-to-move positions searched where Red had no immediate win.
        positions: u64,
    },
    /// Some Yellow line beats the diagram.
    Loss {
        /// The first losing line in search order.
        counterexample: Counterexample,
        /// Positions searched before it was found.
        positions: u64,
    },
    /// The diagram holds `?` cells and has no verdict.
    Incomplete {
        /// How many cells are undecided.
        undecided: usize,
    },
    /// The root already holds a four.
    RootTerminal {
        /// Who holds it.
        winner: Player,
    },
    /// The stones are not a legal Red-to-move root.
    BadRoot {
        /// Why, naming the column, row or counts at fault.
        reason: String,
    },
    /// The node budget ran out.
    Budget {
        /// Positions searched.
        positions: u64,
    },
}

impl Verdict {
    /// The verdict's name: `win`, `loss`, `incomplete`, `root-terminal`, `bad-root`, `budget`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Win { .. } => "win",
            Verdict::Loss { .. } => "loss",
            Verdict::Incomplete { .. } => "incomplete",
            Verdict::RootTerminal { .. } => "root-terminal",
            Verdict::BadRoot { .. } => "bad-root",
            Verdict::Budget { .. } => "budget",
        }
    }

    /// True for `win`.
    pub fn is_win(&self) -> bool {
        matches!(self, Verdict::Win { .. })
    }

    /// The verdict as a JSON object: `verdict`, and per kind `positions`, the losing
    /// line's fields (see [`Counterexample::to_json`]), `undecided`, `winner` or
    /// `message`.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let mut j = json!({ "verdict": self.name() });
        match self {
            Verdict::Win { positions } | Verdict::Budget { positions } => {
                j["positions"] = json!(positions)
            }
            Verdict::Loss {
                counterexample,
                positions,
            } => {
                j["positions"] = json!(positions);
                // the losing line's fields, beside the verdict's
                if let serde_json::Value::Object(fields) = counterexample.to_json() {
                    j.as_object_mut().expect("an object").extend(fields);
                }
            }
            Verdict::Incomplete { undecided } => j["undecided"] = json!(undecided),
            Verdict::RootTerminal { winner } => j["winner"] = json!(winner.name()),
            Verdict::BadRoot { reason } => j["message"] = json!(reason),
        }
        j
    }
}

#[derive(Debug, Clone)]
enum Stop {
    Loss(LossReason),
    Budget,
}

/// Verifies diagrams; keeps its transposition set between calls to save allocations.
#[derive(Debug, Clone)]
pub struct Verifier {
    budget: u64,
    seen: KeySet,
    line: [u8; 42],
    depth: usize,
    stop: Option<Stop>,
}

impl Default for Verifier {
    fn default() -> Self {
        Verifier::new()
    }
}

impl Verifier {
    /// A verifier with the default budget of 5,000,000 positions.
    pub fn new() -> Verifier {
        Verifier::with_budget(DEFAULT_BUDGET)
    }

    /// A verifier that gives up once a search enters more than `budget` distinct
    /// positions (on entering position `budget + 1`, which the verdict counts).
    pub fn with_budget(budget: u64) -> Verifier {
        Verifier {
            budget,
            seen: KeySet::new(),
            line: [0; 42],
            depth: 0,
            stop: None,
        }
    }

    /// Verifies a diagram from the root its stones describe.
    pub fn verify(&mut self, diagram: &Diagram) -> Verdict {
        // the root first: no level, decided or not, can mend a root that is not one
        let (red, yellow) = diagram.stones();
        let four = |p: Player| {
            if p == Player::Red {
                has_four(red)
            } else {
                has_four(yellow)
            }
        };
        let winner = [Player::Red, Player::Yellow].into_iter().find(|&p| four(p));
        match (diagram.root(), winner) {
            (
                Err(RootError::Stones(
                    e @ (StonesError::Floating { .. }
                    | StonesError::Counts { .. }
                    | StonesError::Unreachable(_)),
                )),
                _,
            ) => Verdict::BadRoot {
                reason: e.to_string(),
            },
            (_, Some(winner)) => Verdict::RootTerminal { winner },
            (Err(e), None) => Verdict::BadRoot {
                // the verdict's name already says "bad root"
                reason: e.to_string().trim_start_matches("bad root: ").to_string(),
            },
            (Ok(_), None) if diagram.undecided() > 0 => Verdict::Incomplete {
                undecided: diagram.undecided(),
            },
            (Ok(root), None) => self.verify_root(&root.position, &diagram.levels()),
        }
    }

    /// Verifies the level layer `levels` from `root`, a Red-to-move position without a four.
    pub fn verify_root(&mut self, root: &Position, levels: &Levels) -> Verdict {
        self.seen.clear();
        self.depth = 0;
        self.stop = None;
        if root.mask() == BOARD_MASK {
            // a full board without a four is a draw before the diagram is consulted
            self.stop = Some(Stop::Loss(LossReason::Draw));
        } else if root.winning_moves() == 0 {
            self.seen.insert(root.key());
            self.red_node(root.current(), root.mask(), levels);
        }
        let positions = self.seen.len() as u64;
        match self.stop.take() {
            None => Verdict::Win { positions },
            Some(Stop::Budget) => Verdict::Budget { positions },
            Some(Stop::Loss(reason)) => Verdict::Loss {
                counterexample: Counterexample {
                    line: self.line[..self.depth].to_vec(),
                    reason,
                },
                positions,
            },
        }
    }

    /// Searches the Red-to-move position with Red's stones `red`, where Red has no
    /// immediate win, just entered into the transposition set. Returns false when the search stops (a loss, kept in `self.stop`
    /// with its line in `self.line[..self.depth]`, or the budget).
    fn red_node(&mut self, red: u64, mask: u64, levels: &Levels) -> bool {
        // first visit only: transpositions are skipped before the call
        if self.seen.len() as u64 > self.budget {
            self.stop = Some(Stop::Budget);
            return false;
        }
        let playable = (mask + BOTTOM_MASK) & BOARD_MASK;
        let cell = match choose_without_win(red, mask, playable, levels) {
            Choice::Block(cell) | Choice::Level(cell, _) => cell,
            Choice::Win => return true,
            Choice::NoMove => {
                return self.lose(LossReason::NoMove {
                    tied: levels.tied(playable, u8::MAX),
                });
            }
        };
        let (red, mask) = (red | cell, mask | cell);
        self.push(cell);
        if mask == BOARD_MASK {
            return self.lose(LossReason::Draw);
        }
        let playable = (mask + BOTTOM_MASK) & BOARD_MASK;
        let wins = winning_cells(red ^ mask, mask) & playable;
        if wins != 0 {
            self.push(wins & wins.wrapping_neg());
            return self.lose(LossReason::YellowWins);
        }
        // cells where Red completes a four; a reply that leaves one playable is won
        let red_wins = winning_cells(red, mask);
        let mut replies = playable;
        while replies != 0 {
            let reply = replies & replies.wrapping_neg();
            replies ^= reply;
            let next = mask | reply;
            if next == BOARD_MASK {
                self.push(reply);
                return self.lose(LossReason::Draw);
            }
            let next_playable = (playable ^ reply) | ((reply << 1) & BOARD_MASK);
            if red_wins & next_playable != 0 {
                continue;
            }
            if !self.seen.insert(red + next) {
                continue;
            }
            self.push(reply);
            if !self.red_node(red, next, levels) {
                return false;
            }
            self.depth -= 1;
        }
        self.depth -= 1;
        true
    }

    #[inline(always)]
    fn push(&mut self, cell: u64) {
        self.line[self.depth] = column_of(cell) as u8;
        self.depth += 1;
    }

    #[cold]
    fn lose(&mut self, reason: LossReason) -> bool {
        self.stop = Some(Stop::Loss(reason));
        false
    }
}

/// The threads [`verify_many`] runs on: rayon's pool (all cores unless
/// `RAYON_NUM_THREADS` says otherwise) with the `parallel` feature, else 1.
pub fn verify_many_threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads()
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}

/// Verifies many diagrams, on all cores when the `parallel` feature is on.
pub fn verify_many(diagrams: &[Diagram]) -> Vec<Verdict> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        diagrams
            .par_iter()
            .map_init(Verifier::new, |v, d| v.verify(d))
            .collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut v = Verifier::new();
        diagrams.iter().map(|d| v.verify(d)).collect()
    }
}
