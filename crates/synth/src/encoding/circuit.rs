//! The decision rule of one playable set as a circuit over the undecided cells' level
//! variables (SPEC §2, rule 3), built once per playable set and shared by every position
//! with that set, with the small gates it is made of.

use c4lab_board::WIDTH;
use c4lab_steady::LEVELS;

use super::{Domain, Encoding, FREE_LEVELS};
use crate::sat::{Lit, Var};
use crate::SynthError;

/// The decision circuit of one playable set.
#[derive(Debug, Clone, Copy)]
pub(super) struct Circuit {
    /// True when some level is held by exactly one playable cell.
    pub(super) some_unique: Lit,
    /// Per column: true when the rule plays that column's playable cell.
    pub(super) pick: [Lit; WIDTH],
}

impl Encoding {
    fn falsity(&self) -> Lit {
        !self.truth
    }

    /// "cell has level l" as a literal (constants fold to truth / falsity).
    fn has_level(&self, cell: u64, l: u8) -> Lit {
        match self.cells[cell.trailing_zeros() as usize] {
            Domain::Fixed(f) if f == l => self.truth,
            Domain::Free(base) if l < FREE_LEVELS => Var::new(base + u32::from(l)).pos_lit(),
            _ => self.falsity(),
        }
    }

    pub(super) fn exactly_one(&mut self, lits: &[Lit]) -> Result<(), SynthError> {
        self.add(lits)?;
        for i in 0..lits.len() {
            for j in i + 1..lits.len() {
                self.add(&[!lits[i], !lits[j]])?;
            }
        }
        Ok(())
    }

    /// A literal forced true when `a AND b` holds (and free otherwise): enough for a
    /// literal that the clauses only ever use negated (see [`Encoding::circuit`]).
    fn and_implied(&mut self, a: Lit, b: Lit) -> Result<Lit, SynthError> {
        let (t, f) = (self.truth, self.falsity());
        if a == f || b == f || a == !b {
            return Ok(f);
        }
        if a == t || a == b {
            return Ok(b);
        }
        if b == t {
            return Ok(a);
        }
        let g = self.fresh().pos_lit();
        self.add(&[g, !a, !b])?;
        Ok(g)
    }

    /// A literal equivalent to the disjunction of `lits`.
    fn or_many(&mut self, lits: &[Lit]) -> Result<Lit, SynthError> {
        let (t, f) = (self.truth, self.falsity());
        if lits.contains(&t) {
            return Ok(t);
        }
        let live: Vec<Lit> = lits.iter().copied().filter(|&l| l != f).collect();
        match live.len() {
            0 => return Ok(f),
            1 => return Ok(live[0]),
            _ => {}
        }
        let g = self.fresh().pos_lit();
        let mut long = Vec::with_capacity(live.len() + 1);
        long.push(!g);
        for &l in &live {
            self.add(&[g, !l])?;
            long.push(l);
        }
        self.add(&long)?;
        Ok(g)
    }

    /// A literal equivalent to "exactly one of `items` holds".
    fn exactly_one_gate(&mut self, items: &[Lit]) -> Result<Lit, SynthError> {
        let (t, f) = (self.truth, self.falsity());
        let fixed = items.iter().filter(|&&l| l == t).count();
        let vars: Vec<Lit> = items
            .iter()
            .copied()
            .filter(|&l| l != t && l != f)
            .collect();
        if fixed >= 2 {
            return Ok(f);
        }
        if fixed == 1 {
            // exactly one already: none of the others may join it
            let any = self.or_many(&vars)?;
            return Ok(!any);
        }
        match vars.len() {
            0 => return Ok(f),
            1 => return Ok(vars[0]),
            _ => {}
        }
        let u = self.fresh().pos_lit();
        let mut at_least = Vec::with_capacity(vars.len() + 1);
        at_least.push(!u);
        at_least.extend_from_slice(&vars);
        self.add(&at_least)?;
        for i in 0..vars.len() {
            for j in i + 1..vars.len() {
                self.add(&[!u, !vars[i], !vars[j]])?;
            }
        }
        for i in 0..vars.len() {
            let mut clause = Vec::with_capacity(vars.len() + 1);
            clause.push(u);
            for (k, &v) in vars.iter().enumerate() {
                clause.push(if k == i { !v } else { v });
            }
            self.add(&clause)?;
        }
        Ok(u)
    }

    /// The decision circuit of the playable set `open`, built once and shared.
    ///
    /// `unique[l]` ("exactly one playable cell has level `l`") is defined both ways.
    /// `below[l]` ("no level under `l` is unique") and `pick[x]` are only forced true
    /// when their condition holds, never forced false: the position clauses use them
    /// negated only (a pick implies its consequences; "some level is unique" is
    /// `NOT below[last]`), so a solver setting one true without cause only adds
    /// constraints, while the rule's real pick is always forced. This one-sided form
    /// needs about a quarter of the variables of a two-sided one.
    pub(super) fn circuit(&mut self, open: u64) -> Result<Circuit, SynthError> {
        if let Some(c) = self.circuits.get(&open) {
            return Ok(*c);
        }
        let cells: Vec<(usize, u64)> = (0..WIDTH)
            .filter_map(|x| {
                let c = open & c4lab_board::column_mask(x);
                (c != 0).then_some((x, c))
            })
            .collect();
        let (t, f) = (self.truth, self.falsity());
        // per column, the (has level l, l unique, none below l) triples that pick it
        let mut conditions: [Vec<[Lit; 3]>; WIDTH] = Default::default();
        let mut below = t;
        for l in 0..LEVELS as u8 {
            if below == f {
                break;
            }
            let items: Vec<Lit> = cells.iter().map(|&(_, c)| self.has_level(c, l)).collect();
            let unique = self.exactly_one_gate(&items)?;
            if unique == f {
                continue;
            }
            for (&(x, _), &item) in cells.iter().zip(&items) {
                if item != f {
                    conditions[x].push([item, unique, below]);
                }
            }
            below = self.and_implied(below, !unique)?;
        }
        let mut pick = [f; WIDTH];
        for x in 0..WIDTH {
            if conditions[x].iter().any(|c| c.iter().all(|&l| l == t)) {
                pick[x] = t;
                continue;
            }
            if conditions[x].is_empty() {
                continue;
            }
            let p = self.fresh().pos_lit();
            for c in &conditions[x] {
                let mut clause = vec![p];
                clause.extend(c.iter().filter(|&&l| l != t).map(|&l| !l));
                self.add(&clause)?;
            }
            pick[x] = p;
        }
        let circuit = Circuit {
            some_unique: !below,
            pick,
        };
        self.circuits.insert(open, circuit);
        self.stats.circuits += 1;
        Ok(circuit)
    }
}
