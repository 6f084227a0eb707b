//! A formula in conjunctive normal form, as the solver and the proof checker read it.
//!
//! Literals are DIMACS integers: variable `x` is `x > 0`, its negation `-x`. Clauses are
//! numbered from 1 in the order they are added, which is the numbering of the DIMACS file and
//! of the LRAT proof.
//!
//! The formula has no unit clause: a unit `x` is written as the two clauses `x ∨ z` and
//! `x ∨ ¬z`, z being variable 2. A solver that is given a unit assigns it at once and then
//! shortens the clauses added after it, giving each shortened clause a number of its own,
//! which would shift the numbers of the clauses that follow in its proof; two binary clauses
//! leave nothing to shorten while the formula is read.

use std::fmt::Write as _;
use std::io::{self, Write};

/// A DIMACS literal.
pub type Lit = i32;

/// The literal that is always true: variable 1, fixed by the formula's first two clauses.
pub const TRUE: Lit = 1;
/// The variable that writes unit clauses as pairs of binary clauses.
const PAD: Lit = 2;
/// The literal that is always false.
pub const FALSE: Lit = -1;

/// The value of literal `l` in a model (`value(x)` is the value of variable x).
pub(crate) fn lit_value(l: Lit, value: &mut impl FnMut(Lit) -> bool) -> bool {
    if l > 0 { value(l) } else { !value(-l) }
}

/// A formula: its variables and its clauses, in the order they were added.
#[derive(Debug, Clone)]
pub struct Cnf {
    vars: u32,
    /// Every clause's literals, each clause followed by a 0.
    lits: Vec<Lit>,
    clauses: usize,
}

impl Default for Cnf {
    fn default() -> Cnf {
        Cnf::new()
    }
}

impl Cnf {
    /// A formula with two variables, [`TRUE`] and the pad, and the clauses that fix TRUE.
    pub fn new() -> Cnf {
        let mut f = Cnf { vars: 0, lits: Vec::new(), clauses: 0 };
        f.var();
        f.var();
        f.lits.extend([TRUE, PAD, 0, TRUE, -PAD, 0]);
        f.clauses = 2;
        f
    }

    /// A new variable, as its positive literal.
    pub fn var(&mut self) -> Lit {
        self.vars += 1;
        Lit::try_from(self.vars).expect("fewer than 2^31 variables")
    }

    /// Adds a clause. [`FALSE`] and duplicate literals are dropped; a clause that holds
    /// [`TRUE`], or a literal and its negation, is always true and is not added. A clause left
    /// empty is written `[FALSE]`: the formula is then unsatisfiable, and says so plainly.
    pub fn add(&mut self, clause: &[Lit]) {
        let start = self.lits.len();
        for &l in clause {
            debug_assert!(l != 0 && l.unsigned_abs() <= self.vars, "literal {l} out of range");
            let added = &self.lits[start..];
            if l == TRUE || added.contains(&-l) {
                self.lits.truncate(start);
                return;
            }
            if l != FALSE && !added.contains(&l) {
                self.lits.push(l);
            }
        }
        let unit = match self.lits.len() - start {
            0 => FALSE,
            1 => self.lits.pop().expect("one literal"),
            _ => {
                self.lits.push(0);
                self.clauses += 1;
                return;
            }
        };
        self.lits.extend([unit, PAD, 0, unit, -PAD, 0]);
        self.clauses += 2;
    }

    /// `a → b`, both conjunctions of literals: `¬a₁ ∨ … ∨ b` for each literal b.
    pub fn implies(&mut self, when: &[Lit], then: &[Lit]) {
        let mut clause: Vec<Lit> = when.iter().map(|&l| -l).collect();
        for &b in then {
            clause.push(b);
            self.add(&clause);
            clause.pop();
        }
    }

    /// `x ↔ a₁ ∧ … ∧ aₖ` for a new variable x.
    pub fn and(&mut self, inputs: &[Lit]) -> Lit {
        let x = self.var();
        self.implies(&[x], inputs);
        let mut clause: Vec<Lit> = inputs.iter().map(|&l| -l).collect();
        clause.push(x);
        self.add(&clause);
        x
    }

    /// `x ↔ a₁ ∨ … ∨ aₖ` for a new variable x.
    pub fn or(&mut self, inputs: &[Lit]) -> Lit {
        -self.and(&inputs.iter().map(|&l| -l).collect::<Vec<_>>())
    }

    /// `count ≥ j` for j = 1..=max, over the inputs: a unary counter (each output equivalent
    /// to its meaning, so it can be both required and forbidden).
    pub fn at_least(&mut self, inputs: &[Lit], max: usize) -> Vec<Lit> {
        // row[j] = "at least j + 1 of the inputs so far".
        let mut row: Vec<Lit> = vec![FALSE; max];
        for (i, &x) in inputs.iter().enumerate() {
            let mut next = row.clone();
            for j in 0..max.min(i + 1) {
                let carry = if j == 0 { x } else { self.and(&[row[j - 1], x]) };
                next[j] = self.or(&[row[j], carry]);
            }
            row = next;
        }
        row
    }

    /// The clauses [`Cnf::at_least`] adds for `inputs` variables (no constant) and `max` ≥ 1:
    /// 6 for each pair (input i, output j ≤ i) of its loop, less 3 for each j = 0 (no `and`)
    /// and 1 for each j = i (`row[j]` is still false, so its `or` drops a clause).
    pub fn at_least_clauses(inputs: f64, max: f64) -> f64 {
        // Σ_i min(max, i + 1): a triangle, then full rows of `max`.
        let cells = if inputs <= max {
            inputs * (inputs + 1.0) / 2.0
        } else {
            max * (max + 1.0) / 2.0 + (inputs - max) * max
        };
        6.0 * cells - 3.0 * inputs - inputs.min(max)
    }

    /// The number of variables.
    pub fn vars(&self) -> u32 {
        self.vars
    }

    /// The number of clauses.
    pub fn len(&self) -> usize {
        self.clauses
    }

    /// Whether the formula has no clause.
    pub fn is_empty(&self) -> bool {
        self.clauses == 0
    }

    /// The clauses, in order.
    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> {
        self.lits.split(|&l| l == 0).take(self.clauses)
    }

    /// The length of the formula's literal list (clause ends included): a mark for
    /// [`Cnf::clauses_from`].
    pub fn literal_count(&self) -> usize {
        self.lits.len()
    }

    /// The clauses added after the mark `at` (a [`Cnf::literal_count`]), in order.
    pub fn clauses_from(&self, at: usize) -> impl Iterator<Item = &[Lit]> {
        self.lits[at..].split(|&l| l == 0).filter(|c| !c.is_empty())
    }

    /// Writes the formula in DIMACS format.
    pub fn write_dimacs<W: Write>(&self, out: &mut W) -> io::Result<()> {
        writeln!(out, "p cnf {} {}", self.vars, self.clauses)?;
        let mut line = String::new();
        for clause in self.clauses() {
            line.clear();
            for l in clause {
                write!(line, "{l} ").expect("writing to a String");
            }
            line.push_str("0\n");
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_are_cleaned_and_written() {
        let mut f = Cnf::new();
        let (a, b) = (f.var(), f.var());
        f.add(&[a, a, -b, FALSE]);
        f.add(&[a, -a]);
        f.add(&[b, TRUE]);
        let x = f.and(&[a, b]);
        assert_eq!(x, 5);
        f.add(&[a]);
        f.add(&[FALSE]);
        let mut out = Vec::new();
        f.write_dimacs(&mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "p cnf 5 10\n1 2 0\n1 -2 0\n3 -4 0\n-5 3 0\n-5 4 0\n-3 -4 5 0\n3 2 0\n3 -2 0\n\
             -1 2 0\n-1 -2 0\n"
        );
    }

    #[test]
    fn the_counters_clauses_are_counted_exactly() {
        for inputs in 1..12 {
            for max in 1..14 {
                let mut f = Cnf::new();
                let xs: Vec<Lit> = (0..inputs).map(|_| f.var()).collect();
                let before = f.len();
                f.at_least(&xs, max);
                let counted = Cnf::at_least_clauses(inputs as f64, max as f64);
                assert_eq!(counted, (f.len() - before) as f64, "{inputs} inputs, {max} outputs");
            }
        }
    }
}
