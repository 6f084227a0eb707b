//! An LRAT proof checker, independent of the solver.
//!
//! An LRAT proof of unsatisfiability lists clauses, each implied by earlier ones, down to the
//! empty clause. Every added clause names the earlier clauses (*hints*) that make it follow by
//! unit propagation: assume every literal of the new clause false; then each hint in turn
//! must either become unit (all its literals false but one, which is then set true, or is
//! true already) or be falsified outright, which ends the check of that clause. Deletions free clauses that are
//! no longer used. Checking is linear in the proof and needs no search, which is why a
//! checker can be this small: its soundness is the soundness of unit propagation.
//!
//! This checker reads the textual format (`ID LITS 0 HINTS 0`, `ID d IDS 0`), the DIMACS file
//! (the original clauses are numbered 1, 2, … in file order), and accepts only RUP steps:
//! a negative hint (a RAT step) is refused, since CaDiCaL's LRAT proofs contain none. It
//! shares no code with the solver: it reads the files the solver was given and wrote.

use std::io::{self, BufRead};

use rustc_hash::FxHashMap;

/// Why a proof is rejected.
#[derive(Debug, thiserror::Error)]
pub enum LratError {
    /// A file could not be read.
    #[error("cannot read {what}")]
    Io {
        /// Which file.
        what: &'static str,
        /// The error.
        source: io::Error,
    },
    /// A line is not in the format.
    #[error("{what} line {line}: {message}")]
    Syntax {
        /// Which file.
        what: &'static str,
        /// The line number (from 1).
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// A step does not follow from its hints.
    #[error("proof line {line}: clause {id} does not follow from its hints ({why})")]
    Step {
        /// The line number (from 1).
        line: u64,
        /// The clause's ID.
        id: u64,
        /// What went wrong.
        why: String,
    },
    /// The proof ends without the empty clause.
    #[error("the proof never derives the empty clause")]
    NoEmptyClause,
}

/// What a proof that checked contained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    /// Clauses of the formula.
    pub original: u64,
    /// Clauses added by the proof.
    pub added: u64,
    /// Clauses deleted by the proof.
    pub deleted: u64,
}

/// Checks that `proof` (LRAT, text) refutes `cnf` (DIMACS).
pub fn check(cnf: impl BufRead, proof: impl BufRead) -> Result<Checked, LratError> {
    let mut db: FxHashMap<u64, Box<[i32]>> = FxHashMap::default();
    let mut vars = 0usize;
    let mut original = 0u64;
    for (n, line) in cnf.lines().enumerate() {
        let line = line.map_err(|source| LratError::Io { what: "the CNF", source })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') || line.starts_with('p') {
            continue;
        }
        let lits = numbers(line, "the CNF", n as u64 + 1)?;
        let Some((0, lits)) = lits.split_last() else {
            return Err(syntax("the CNF", n as u64 + 1, "a clause must end with 0"));
        };
        let lits: Vec<i32> =
            lits.iter().map(|&x| to_lit(x, "the CNF", n as u64 + 1)).collect::<Result<_, _>>()?;
        vars = vars.max(lits.iter().map(|l| l.unsigned_abs() as usize).max().unwrap_or(0));
        original += 1;
        db.insert(original, lits.into_boxed_slice());
    }

    // value[v]: 0 unassigned, 1 true, -1 false.
    let mut value = vec![0i8; vars + 1];
    let mut trail: Vec<usize> = Vec::new();
    let (mut added, mut deleted) = (0u64, 0u64);
    let mut last_id = original;
    let mut refuted = false;
    for (n, line) in proof.lines().enumerate() {
        let line_no = n as u64 + 1;
        let line = line.map_err(|source| LratError::Io { what: "the proof", source })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let mut words = line.split_ascii_whitespace();
        let id: u64 = words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or_else(|| syntax("the proof", line_no, "a line must start with a clause ID"))?;
        let rest: Vec<&str> = words.collect();
        if rest.first() == Some(&"d") {
            for w in &rest[1..] {
                let x: u64 = w.parse().map_err(|_| syntax("the proof", line_no, "bad ID"))?;
                if x == 0 {
                    break;
                }
                db.remove(&x);
                deleted += 1;
            }
            continue;
        }
        if id <= last_id {
            return Err(syntax("the proof", line_no, "clause IDs must increase"));
        }
        last_id = id;
        let nums: Vec<i64> = rest
            .iter()
            .map(|w| w.parse().map_err(|_| syntax("the proof", line_no, "not a number")))
            .collect::<Result<_, _>>()?;
        let Some(split) = nums.iter().position(|&x| x == 0) else {
            return Err(syntax("the proof", line_no, "the clause must end with 0"));
        };
        let (lits, hints) = (&nums[..split], &nums[split + 1..]);
        let Some((0, hints)) = hints.split_last() else {
            return Err(syntax("the proof", line_no, "the hints must end with 0"));
        };
        let lits: Vec<i32> =
            lits.iter().map(|&x| to_lit(x, "the proof", line_no)).collect::<Result<_, _>>()?;
        let fail = |why: String| LratError::Step { line: line_no, id, why };
        let need = lits.iter().map(|l| l.unsigned_abs() as usize).max().unwrap_or(0);
        if need >= value.len() {
            value.resize(need + 1, 0);
        }

        // Assume the clause false, then propagate the hints in order.
        let mut conflict = false;
        for &l in &lits {
            match lit_value(&value, l) {
                1 => conflict = true, // the clause holds a literal and its negation
                0 => assign(&mut value, &mut trail, -l),
                _ => {}
            }
        }
        for &h in hints {
            if conflict {
                break;
            }
            if h < 0 {
                undo(&mut value, &mut trail);
                return Err(fail("a RAT step: only RUP steps are accepted".into()));
            }
            let Some(clause) = db.get(&(h as u64)) else {
                undo(&mut value, &mut trail);
                return Err(fail(format!("hint {h} is not a live clause")));
            };
            // The literals not yet false: none is a conflict, one must be true.
            let mut unit = None;
            let mut open = 0;
            for &l in clause.iter() {
                if lit_value(&value, l) != -1 {
                    open += 1;
                    unit = Some(l);
                    if open > 1 {
                        break;
                    }
                }
            }
            match (open, unit) {
                (0, _) => conflict = true,
                (1, Some(l)) if lit_value(&value, l) == 0 => assign(&mut value, &mut trail, l),
                (1, Some(_)) => {} // already true
                _ => {
                    undo(&mut value, &mut trail);
                    return Err(fail(format!("hint {h} is neither unit nor falsified")));
                }
            }
        }
        undo(&mut value, &mut trail);
        if !conflict {
            return Err(fail("the hints end without a conflict".into()));
        }
        added += 1;
        if lits.is_empty() {
            refuted = true;
            break;
        }
        db.insert(id, lits.into_boxed_slice());
    }
    if !refuted {
        return Err(LratError::NoEmptyClause);
    }
    Ok(Checked { original, added, deleted })
}

fn syntax(what: &'static str, line: u64, message: &str) -> LratError {
    LratError::Syntax { what, line, message: message.to_string() }
}

fn numbers(line: &str, what: &'static str, n: u64) -> Result<Vec<i64>, LratError> {
    line.split_ascii_whitespace()
        .map(|w| w.parse().map_err(|_| syntax(what, n, &format!("not a number: {w:?}"))))
        .collect()
}

fn to_lit(x: i64, what: &'static str, n: u64) -> Result<i32, LratError> {
    match i32::try_from(x) {
        Ok(l) if l != 0 && l != i32::MIN => Ok(l),
        _ => Err(syntax(what, n, &format!("bad literal {x}"))),
    }
}

fn lit_value(value: &[i8], l: i32) -> i8 {
    let v = value.get(l.unsigned_abs() as usize).copied().unwrap_or(0);
    if l > 0 { v } else { -v }
}

fn assign(value: &mut Vec<i8>, trail: &mut Vec<usize>, l: i32) {
    let v = l.unsigned_abs() as usize;
    if v >= value.len() {
        value.resize(v + 1, 0);
    }
    value[v] = if l > 0 { 1 } else { -1 };
    trail.push(v);
}

fn undo(value: &mut [i8], trail: &mut Vec<usize>) {
    for v in trail.drain(..) {
        value[v] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The four clauses over a and b, and the proof CaDiCaL writes for them.
    const CNF: &str = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";
    const PROOF: &str = "5 1 0 1 3 0\n6 2 0 5 2 0\n7 0 5 6 4 0\n";

    fn run(cnf: &str, proof: &str) -> Result<Checked, LratError> {
        check(cnf.as_bytes(), proof.as_bytes())
    }

    /// A file that cannot be read is said once: what was read in the error, the cause as its
    /// source (which a report of the whole chain prints after it), also inside a solver error.
    #[test]
    fn a_read_error_names_its_cause_once() {
        struct Failing;
        impl io::Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let e = check(io::BufReader::new(Failing), PROOF.as_bytes()).unwrap_err();
        let e = crate::solve::SolveError::from(e);
        let mut chain = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            chain = format!("{chain}: {s}");
            source = s.source();
        }
        assert_eq!(
            chain,
            "the solver's proof did not check, no verdict: cannot read the CNF: disk on fire"
        );
    }

    #[test]
    fn a_real_proof_checks() {
        assert_eq!(run(CNF, PROOF).unwrap(), Checked { original: 4, added: 3, deleted: 0 });
        // A hint whose one literal not false is true already is a unit too.
        let cnf = "p cnf 2 3\n1 0\n-1 2 0\n-1 -2 0\n";
        assert!(run(cnf, "4 -1 0 1 2 3 0\n5 0 1 4 0\n").is_ok());
        // Deleting clauses no longer needed is fine.
        assert!(run(CNF, "5 1 0 1 3 0\n5 d 1 3 0\n6 2 0 5 2 0\n7 0 5 6 4 0\n").is_ok());
    }

    #[test]
    fn every_broken_proof_is_rejected() {
        let bad = [
            // A hint missing: clause 5 does not follow from clause 1 alone.
            ("5 1 0 1 0\n6 2 0 5 2 0\n7 0 5 6 4 0\n", "without a conflict"),
            // A wrong literal.
            ("5 -1 0 1 3 0\n6 2 0 5 2 0\n7 0 5 6 4 0\n", "neither unit"),
            // A deleted clause used as a hint.
            ("5 1 0 1 3 0\n5 d 2 0\n6 2 0 5 2 0\n7 0 5 6 4 0\n", "not a live clause"),
            // No empty clause.
            ("5 1 0 1 3 0\n6 2 0 5 2 0\n", "never derives"),
            // A RAT step.
            ("5 1 0 -2 0\n", "RAT"),
            // IDs that go back.
            ("3 1 0 1 3 0\n", "increase"),
            // Garbage.
            ("5 1 0 x 0\n", "not a number"),
        ];
        for (proof, message) in bad {
            let e = run(CNF, proof).unwrap_err().to_string();
            assert!(e.contains(message), "{proof:?}: {e}");
        }
        // A proof of a formula that is satisfiable cannot check: drop the last clause.
        let e = run("p cnf 2 3\n1 2 0\n-1 2 0\n1 -2 0\n", "4 1 0 1 3 0\n5 2 0 4 2 0\n6 0 4 5 0\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("without a conflict"), "{e}");
    }
}
