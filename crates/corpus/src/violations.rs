//! What the integrity gate finds: the kinds of violation, each one's place (row, ply,
//! byte or slot), and the report that groups them by kind (re-exported by [`crate::gate`]).

use std::collections::BTreeMap;
use std::fmt;

/// A kind of violation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// The file holds no row (no game).
    NoGames,
    /// The file does not end with `\n`.
    FinalNewline,
    /// A `\r` inside a row.
    CarriageReturn,
    /// A row length that is not a multiple of 10.
    RowLength,
    /// A row with no ply.
    EmptyRow,
    /// A byte 0..6 that is not a column byte.
    ColumnByte,
    /// Stone counts that do not fit the ply.
    StoneCount,
    /// Column bytes that disagree with the replayed board.
    BoardMismatch,
    /// Byte 7 not the previous ply's byte 9 (or not `-` at ply 0).
    LastMove,
    /// Byte 8 not `1`/`2`, or not the side to move.
    SideToMove,
    /// Byte 9 not a column `A`..`G`.
    MoveByte,
    /// A move into a full column.
    FullColumn,
    /// A ply after a four-in-a-row.
    AfterFour,
    /// A game that stops before a four or a full board.
    Unfinished,
    /// The sidecar is unreadable, an array is missing or of the wrong dtype/shape, or it
    /// holds a member besides the four arrays.
    SidecarFormat,
    /// The sidecar's N differs from the corpus rows.
    RowCount,
    /// `n_plies` differs from the number of labelled slots.
    NPlies,
    /// A slot's `ply_of` is neither its ply nor -1.
    PlyOf,
    /// A teacher flag outside {0,1,2,3}, or 0 on a labelled slot / not 0 on an empty one.
    TeacherFlag,
    /// A negative or non-finite target value.
    TargetValue,
    /// A labelled slot not summing to 1, or an empty slot with mass.
    TargetSum,
    /// Mass on a full (illegal) column.
    TargetIllegal,
    /// A flag-2 slot that is not one-hot.
    OneHot,
    /// A flag-1 slot with more than 7 empty cells.
    BoundedScope,
    /// A flag-1 or flag-3 slot whose mass is not spread evenly over its columns.
    Uneven,
    /// A flag-1 slot whose columns are not the position's best moves.
    BestMoves,
    /// A labelled column that passes up an immediate win, or hands the opponent one
    /// where another column does not: no teacher labels so, so the label belongs to
    /// another position (rows out of order, a sidecar of another corpus).
    Tactics,
    /// `target.sum(axis=(1,2)) != (ply_of >= 0).sum(axis=1)`.
    Invariant,
}

impl Kind {
    /// A short stable name (`last-move`, `invariant`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Kind::NoGames => "no-games",
            Kind::FinalNewline => "final-newline",
            Kind::CarriageReturn => "carriage-return",
            Kind::RowLength => "row-length",
            Kind::EmptyRow => "empty-row",
            Kind::ColumnByte => "column-byte",
            Kind::StoneCount => "stone-count",
            Kind::BoardMismatch => "board-mismatch",
            Kind::LastMove => "last-move",
            Kind::SideToMove => "side-to-move",
            Kind::MoveByte => "move-byte",
            Kind::FullColumn => "full-column",
            Kind::AfterFour => "after-four",
            Kind::Unfinished => "unfinished",
            Kind::SidecarFormat => "sidecar-format",
            Kind::RowCount => "row-count",
            Kind::NPlies => "n-plies",
            Kind::PlyOf => "ply-of",
            Kind::TeacherFlag => "teacher-flag",
            Kind::TargetValue => "target-value",
            Kind::TargetSum => "target-sum",
            Kind::TargetIllegal => "target-illegal",
            Kind::OneHot => "one-hot",
            Kind::BoundedScope => "bounded-scope",
            Kind::Uneven => "uneven",
            Kind::BestMoves => "best-moves",
            Kind::Tactics => "tactics",
            Kind::Invariant => "invariant",
        }
    }
}

/// One violation: where (row, ply, byte or slot, when they apply) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The row (0-based).
    pub row: Option<usize>,
    /// The ply (0-based).
    pub ply: Option<usize>,
    /// The byte within the ply (0..9).
    pub byte: Option<usize>,
    /// The sidecar slot (0 the newest ply), for sidecar kinds.
    pub slot: Option<usize>,
    /// What is wrong.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(r) = self.row {
            write!(f, "row {r}")?;
        }
        if let Some(p) = self.ply {
            write!(f, ", ply {p}")?;
        }
        if let Some(b) = self.byte {
            write!(f, ", byte {b}")?;
        }
        if let Some(s) = self.slot {
            write!(f, ", slot {s}")?;
        }
        if self.row.is_some() {
            write!(f, ": ")?;
        }
        write!(f, "{}", self.detail)
    }
}

/// The violations of one kind: how many, and the first few.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KindReport {
    /// Number of violations.
    pub count: u64,
    /// The first ones found.
    pub examples: Vec<Violation>,
}

/// The gate's findings.
#[derive(Debug, Clone, Default)]
pub struct GateReport {
    /// Corpus rows read.
    pub rows: usize,
    /// Plies read.
    pub plies: u64,
    /// Sidecar rows, when a sidecar was checked and readable.
    pub sidecar_rows: Option<usize>,
    /// Sidecar rows with no labelled slot: no violation (the format lets any slot be
    /// empty), but nothing to train on, so the report counts them.
    pub unlabelled_rows: u64,
    /// Violations by kind.
    pub kinds: BTreeMap<Kind, KindReport>,
    /// Examples kept per kind.
    pub max_examples: usize,
}

impl GateReport {
    /// True when nothing was found.
    pub fn is_clean(&self) -> bool {
        self.kinds.is_empty()
    }

    /// Total violations.
    pub fn total(&self) -> u64 {
        self.kinds.values().map(|k| k.count).sum()
    }

    /// The count of one kind.
    pub fn count(&self, kind: Kind) -> u64 {
        self.kinds.get(&kind).map_or(0, |k| k.count)
    }

    pub(crate) fn add(
        &mut self,
        kind: Kind,
        row: Option<usize>,
        ply: Option<usize>,
        byte: Option<usize>,
        detail: impl Into<String>,
    ) {
        self.push(
            kind,
            Violation {
                row,
                ply,
                byte,
                slot: None,
                detail: detail.into(),
            },
        );
    }

    /// Adds a violation of a sidecar slot.
    pub(crate) fn add_slot(
        &mut self,
        kind: Kind,
        row: Option<usize>,
        ply: Option<usize>,
        slot: Option<usize>,
        detail: impl Into<String>,
    ) {
        self.push(
            kind,
            Violation {
                row,
                ply,
                byte: None,
                slot,
                detail: detail.into(),
            },
        );
    }

    fn push(&mut self, kind: Kind, v: Violation) {
        let max = self.max_examples;
        let k = self.kinds.entry(kind).or_default();
        k.count += 1;
        if k.examples.len() < max {
            k.examples.push(v);
        }
    }
}

impl fmt::Display for GateReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} rows, {} plies", self.rows, self.plies)?;
        if let Some(n) = self.sidecar_rows {
            write!(f, ", sidecar {n} rows")?;
            if self.unlabelled_rows > 0 {
                write!(f, " ({} with no labelled slot)", self.unlabelled_rows)?;
            }
        }
        if self.is_clean() {
            return writeln!(f, ": clean (0 violations)");
        }
        let n = self.total();
        writeln!(f, ": {n} violation{}", if n == 1 { "" } else { "s" })?;
        for (kind, k) in &self.kinds {
            writeln!(f, "{}: {}", kind.name(), k.count)?;
            for v in &k.examples {
                writeln!(f, "  {v}")?;
            }
            if k.count > k.examples.len() as u64 {
                writeln!(f, "  ... and {} more", k.count - k.examples.len() as u64)?;
            }
        }
        Ok(())
    }
}
