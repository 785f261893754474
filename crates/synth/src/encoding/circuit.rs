//! The decision rule of one playable set as a circuit over the undecided cells' level
//! variables (the rule's third clause: the lowest unique level), built once per playable set and shared by every position
//! with that set, with the small gates it is made of. Under a level budget the circuits
//! may be built for the levels within it only and extended level by level as it grows.

use c4lab_board::WIDTH;

use super::{Domain, Encoding, FREE_LEVELS};
use crate::sat::{Lit, Var};
use crate::SynthError;

/// The decision circuit of one playable set.
#[derive(Debug, Clone, Copy)]
pub(super) struct Circuit {
    /// Implies that some level is held by exactly one playable cell (equivalent to it
    /// when every level is built; see [`Encoding::build_levels_on_demand`]).
    pub(super) some_unique: Lit,
    /// Per column: true when the rule plays that column's playable cell.
    pub(super) pick: [Lit; WIDTH],
    /// Forced true when no level built so far is held by exactly one playable cell.
    below: Lit,
}

/// The playable cells of `open` as (column, one-cell mask), in column order.
fn columns(open: u64) -> Vec<(usize, u64)> {
    (0..WIDTH)
        .filter_map(|x| {
            let c = open & c4lab_board::column_mask(x);
            (c != 0).then_some((x, c))
        })
        .collect()
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

    /// A literal equivalent to `a AND b`.
    fn and_both(&mut self, a: Lit, b: Lit) -> Result<Lit, SynthError> {
        Ok(!self.or_many(&[!a, !b])?)
    }

    /// For playable cells `cells` (one per column, in column order) and a level `l`:
    /// a literal equivalent to "exactly one of them has level `l`" and, when
    /// `want_any`, one equivalent to "some of them has". Built as a balanced tree over
    /// the columns whose inner nodes are cached by (cells, level), so playable sets
    /// that share a half share its gates: a set of seven columns costs four clauses a
    /// level once its halves exist, where one flat gate costs about thirty.
    fn tally(
        &mut self,
        cells: &[u64],
        l: u8,
        want_any: bool,
    ) -> Result<(Option<Lit>, Lit), SynthError> {
        if let [cell] = cells {
            let item = self.has_level(*cell, l);
            return Ok((Some(item), item));
        }
        let key = (cells.iter().fold(0, |set, &c| set | c), l);
        let cached = self.tallies.get(&key).copied();
        if let Some((any, unique)) = cached {
            if any.is_some() || !want_any {
                return Ok((any, unique));
            }
        }
        let (left, right) = cells.split_at(cells.len() / 2);
        let (any_left, unique_left) = self.tally(left, l, true)?;
        let (any_right, unique_right) = self.tally(right, l, true)?;
        let (any_left, any_right) = (any_left.expect("asked for"), any_right.expect("asked for"));
        let unique = match cached {
            Some((_, unique)) => unique,
            None => self.unique_of_halves(any_left, unique_left, any_right, unique_right)?,
        };
        let any = if want_any {
            Some(self.or_many(&[any_left, any_right])?)
        } else {
            None
        };
        self.tallies.insert(key, (any, unique));
        Ok((any, unique))
    }

    /// "Exactly one in the union" from each half's "some" and "exactly one": exactly
    /// one half has exactly one, and the other has none.
    fn unique_of_halves(
        &mut self,
        any_left: Lit,
        unique_left: Lit,
        any_right: Lit,
        unique_right: Lit,
    ) -> Result<Lit, SynthError> {
        let (t, f) = (self.truth, self.falsity());
        let lits = [any_left, unique_left, any_right, unique_right];
        if lits.iter().any(|&l| l == t || l == f) {
            // constants fold through the general gates
            let only_left = self.and_both(unique_left, !any_right)?;
            let only_right = self.and_both(unique_right, !any_left)?;
            return self.or_many(&[only_left, only_right]);
        }
        // as "exactly one" implies "some" in each half, u holds exactly when one half
        // has exactly one and the halves are not both taken
        let u = self.fresh().pos_lit();
        self.add(&[!u, unique_left, unique_right])?;
        self.add(&[!u, !any_left, !any_right])?;
        self.add(&[u, !unique_left, any_right])?;
        self.add(&[u, !unique_right, any_left])?;
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
        let cells = columns(open);
        let cell_bits: Vec<u64> = cells.iter().map(|&(_, c)| c).collect();
        let (t, f) = (self.truth, self.falsity());
        // per column, the (has level l, l unique, none below l) triples that pick it
        let mut conditions: [Vec<[Lit; 3]>; WIDTH] = Default::default();
        let mut below = t;
        for l in 0..self.built_levels {
            if below == f {
                break;
            }
            let items: Vec<Lit> = cells.iter().map(|&(_, c)| self.has_level(c, l)).collect();
            let (_, unique) = self.tally(&cell_bits, l, false)?;
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
                // a `?` cell may still be picked at a level built later: it needs a
                // gate now, since the positions encoded before then use this one
                let later = below != f
                    && self.built_levels < FREE_LEVELS
                    && cells.iter().any(|&(cx, c)| {
                        cx == x
                            && matches!(self.cells[c.trailing_zeros() as usize], Domain::Free(_))
                    });
                if later {
                    pick[x] = self.fresh().pos_lit();
                }
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
        let some_unique = if self.built_levels >= FREE_LEVELS {
            !below
        } else {
            let relay = self.fresh().pos_lit();
            self.relay(relay, below)?;
            relay
        };
        let circuit = Circuit {
            some_unique,
            pick,
            below,
        };
        self.circuits.insert(open, circuit);
        self.stats.circuits += 1;
        Ok(circuit)
    }

    /// Builds the circuits' gates only for the levels the `?` cells may take, `first` of
    /// them to begin with, and the rest as [`Encoding::level_budget`] lets them in. Under
    /// a level budget the gates of the levels above it can only be false: they cost
    /// memory, and time to propagate again after every restart. Call it
    /// before anything is encoded; it changes nothing when a pinned cell holds a level
    /// of `first` or above (those levels must be built from the start), or when no cell
    /// is `?`.
    pub fn build_levels_on_demand(&mut self, first: u8) -> Result<(), SynthError> {
        let pinned_top = self
            .cells
            .iter()
            .filter_map(|c| match c {
                Domain::Fixed(l) => Some(l + 1),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let first = first.max(pinned_top).max(1);
        self.build_level_used()?;
        if first < FREE_LEVELS && !self.level_used.is_empty() && self.circuits.is_empty() {
            self.built_levels = first;
        }
        Ok(())
    }

    /// Extends every circuit to the levels below `levels` (no-op when built already).
    /// Sound whatever comes later: a pick implied at a new level is the rule's pick, and
    /// each relay clause holds for every diagram (see [`Encoding::relay`]).
    pub(super) fn build_levels(&mut self, levels: u8) -> Result<(), SynthError> {
        let f = self.falsity();
        let t = self.truth;
        while self.built_levels < levels.min(FREE_LEVELS) {
            let l = self.built_levels;
            self.built_levels += 1;
            let mut sets: Vec<u64> = self.circuits.keys().copied().collect();
            sets.sort_unstable();
            for open in sets {
                let mut circuit = self.circuits[&open];
                if circuit.below == f {
                    // a lower level is always unique: the pick is settled
                    continue;
                }
                let cells = columns(open);
                let bits: Vec<u64> = cells.iter().map(|&(_, c)| c).collect();
                let (_, unique) = self.tally(&bits, l, false)?;
                if unique != f {
                    for &(x, cell) in &cells {
                        let item = self.has_level(cell, l);
                        let pick = circuit.pick[x];
                        if item == f || pick == t {
                            continue;
                        }
                        if pick == f {
                            // every `?` cell's column got a gate when the circuit was
                            // built (see `circuit`), and no pinned cell holds a level
                            // this high
                            return Err(SynthError::Internal(format!(
                                "no pick gate for column {x} at level {l}"
                            )));
                        }
                        let mut clause = vec![pick];
                        clause.extend(
                            [item, unique, circuit.below]
                                .iter()
                                .filter(|&&l| l != t)
                                .map(|&l| !l),
                        );
                        self.add(&clause)?;
                    }
                    circuit.below = self.and_implied(circuit.below, !unique)?;
                }
                self.relay(circuit.some_unique, circuit.below)?;
                self.circuits.insert(open, circuit);
            }
        }
        Ok(())
    }

    /// The clause "a position with this playable set is reached (`relay`) and no level
    /// built so far is unique (`below`), so some `?` cell holds a level not built yet":
    /// the rule needs a unique level, and only `?` cells can hold the levels not built.
    fn relay(&mut self, relay: Lit, below: Lit) -> Result<(), SynthError> {
        if below == self.falsity() {
            return Ok(());
        }
        let mut clause = vec![!relay];
        if below != self.truth {
            clause.push(!below);
        }
        clause.extend(
            self.level_used
                .iter()
                .skip(usize::from(self.built_levels))
                .copied(),
        );
        self.add(&clause)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    use c4lab_board::{column_mask, Position, HEIGHT, WIDTH};
    use c4lab_steady::{Cell, Diagram};

    use super::super::{Encoding, FREE_LEVELS};
    use super::Circuit;
    use crate::sat::{self, Lit, SatOutcome};
    use c4lab_board::column_of;

    /// Whether some model satisfies `assumptions` and `extra`.
    fn admits(enc: &mut Encoding, assumptions: &[Lit], extra: Lit) -> bool {
        let mut all = assumptions.to_vec();
        all.push(extra);
        enc.backend().solve(&all).expect("solves") == SatOutcome::Sat
    }

    /// The diagram of `root` with about one empty cell in `one_in` pinned to a random
    /// level below `below` (so constants fold into the gates as well), the rest `?`.
    fn pinned_at_random(
        root: &Position,
        rng: &mut fastrand::Rng,
        one_in: u8,
        below: u8,
    ) -> Diagram {
        Diagram::from_root(root, |_, _| {
            if rng.u8(0..one_in) == 0 {
                Cell::Level(rng.u8(0..below))
            } else {
                Cell::Undecided
            }
        })
    }

    /// An encoding of `template` below `root` on the backend `name`.
    fn encoding(template: &Diagram, root: &Position, name: &str) -> Encoding {
        let backend = sat::open(name, Arc::new(AtomicBool::new(false))).expect("opens");
        Encoding::new(template, root, backend).expect("encodes")
    }

    /// One cell in each of a random set of columns (stones included), at least one.
    fn random_set(rng: &mut fastrand::Rng) -> u64 {
        loop {
            let mut open = 0u64;
            for x in 0..WIDTH {
                if rng.bool() {
                    open |= 1 << (x * (HEIGHT + 1) + rng.usize(0..HEIGHT));
                }
            }
            if open != 0 {
                return open;
            }
        }
    }

    /// `template` with its `?` cells set to random levels below `levels`.
    fn random_levels(template: &Diagram, rng: &mut fastrand::Rng, levels: u8) -> Diagram {
        let mut d = template.clone();
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                if template.cell(x, y) == Cell::Undecided {
                    d.set(x, y, Cell::Level(rng.u8(0..levels)));
                }
            }
        }
        d
    }

    /// Under `assume` (a diagram's levels), the circuit of `open` acts as the rule, whose
    /// pick there is `pick`: the pick is forced, and "some level is unique" can hold
    /// exactly when one is (one-sided gates); BatSat does not branch on gates, so its
    /// models set none without cause: the rule's pick is the one column a model picks.
    fn assert_acts_as_the_rule(
        enc: &mut Encoding,
        name: &str,
        assume: &[Lit],
        circuit: &Circuit,
        pick: Option<(u64, u8)>,
    ) {
        if let Some((cell, _)) = pick {
            assert!(
                !admits(enc, assume, !circuit.pick[column_of(cell)]),
                "{name}"
            );
        }
        assert_eq!(
            admits(enc, assume, circuit.some_unique),
            pick.is_some(),
            "{name}"
        );
        if name == "batsat" {
            let model = enc.backend().solve(assume).expect("solves");
            assert_eq!(model, SatOutcome::Sat);
            for (x, &lit) in circuit.pick.iter().enumerate() {
                let picked = pick.is_some_and(|(cell, _)| column_of(cell) == x);
                assert_eq!(enc.backend().value(lit), picked, "{name} column {x}");
            }
        }
    }

    #[test]
    fn circuits_built_level_by_level_pick_what_the_rule_picks() {
        let root = Position::from_moves("4453").expect("legal");
        let mut rng = fastrand::Rng::with_seed(5);
        // a few cells pinned below the first budget
        let template = pinned_at_random(&root, &mut rng, 5, 3);
        for name in sat::backends() {
            let mut enc = encoding(&template, &root, name);
            enc.build_levels_on_demand(3).expect("builds");
            assert_eq!(enc.built_levels, 3);
            let sets: Vec<u64> = (0..60).map(|_| random_set(&mut rng)).collect();
            for &open in &sets {
                enc.circuit(open).expect("builds");
            }
            for levels in 3..=FREE_LEVELS {
                let budget = enc.level_budget(levels).expect("extends");
                assert_eq!(enc.built_levels, levels);
                for &open in &sets {
                    let circuit = enc.circuit(open).expect("built");
                    // `?` cells within the budget, so that ties are common
                    let d = random_levels(&template, &mut rng, levels);
                    let mut assume = enc.assumptions_for(&d);
                    assume.extend(&budget);
                    let pick = d.levels().pick(open);
                    assert_acts_as_the_rule(&mut enc, name, &assume, &circuit, pick);
                }
            }
        }
    }

    #[test]
    fn circuits_pick_what_the_rule_picks_and_their_gates_count_exactly() {
        let root = Position::from_moves("44").expect("legal");
        let mut rng = fastrand::Rng::with_seed(11);
        // a third of the empty cells pinned
        let template = pinned_at_random(&root, &mut rng, 3, 5);
        for name in sat::backends() {
            let mut enc = encoding(&template, &root, name);
            for _ in 0..150 {
                let open = random_set(&mut rng);
                // the `?` cells from a few levels, so that ties are common
                let d = random_levels(&template, &mut rng, 5);
                let assume = enc.assumptions_for(&d);
                let circuit = enc.circuit(open).expect("builds");
                let cells: Vec<u64> = (0..WIDTH)
                    .map(|x| open & column_mask(x))
                    .filter(|&c| c != 0)
                    .collect();
                let levels = d.levels();
                for l in 0..FREE_LEVELS {
                    let exactly_one = (levels.mask(l) & open).count_ones() == 1;
                    let (_, unique) = enc.tally(&cells, l, false).expect("builds");
                    assert_eq!(admits(&mut enc, &assume, unique), exactly_one, "{name} {l}");
                    assert_eq!(
                        admits(&mut enc, &assume, !unique),
                        !exactly_one,
                        "{name} {l}"
                    );
                }
                assert_acts_as_the_rule(&mut enc, name, &assume, &circuit, levels.pick(open));
            }
        }
    }
}
