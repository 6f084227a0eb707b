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
//! This checker reads both of CaDiCaL's formats, told apart by the proof's first byte:
//! - text: `ID LITS 0 HINTS 0` and `ID d IDS 0`, one step a line;
//! - binary (CaDiCaL's `binary` option, which the solver here writes: less than half the
//!   bytes): `a` then the ID, the literals, 0, the hints, 0; or `d` then IDs, 0. Every number is
//!   written as `2·|x| + (x < 0)` in 7-bit groups, lowest first, the high bit set on all but
//!   the last group.
//!
//! It reads the DIMACS file (the original clauses are numbered 1, 2, … in file order), and
//! accepts only RUP steps: a negative hint (a RAT step) is refused, since CaDiCaL's LRAT
//! proofs contain none. It shares no code with the solver: it reads the files the solver was
//! given and wrote.

use std::fmt;
use std::io::{self, BufRead};

use rustc_hash::FxHashMap;

/// Where in a file a problem is: a line of a text file, or a byte of a binary proof.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// A line (from 1) of a text file.
    Line(u64),
    /// The offset (from 0) of the first byte of a binary proof's step.
    Byte(u64),
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Line(n) => write!(f, "line {n}"),
            At::Byte(n) => write!(f, "byte {n}"),
        }
    }
}

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
    /// A step is not in the format.
    #[error("{what} {at}: {message}")]
    Syntax {
        /// Which file.
        what: &'static str,
        /// Where.
        at: At,
        /// What is wrong.
        message: String,
    },
    /// A step does not follow from its hints.
    #[error("proof {at}: clause {id} does not follow from its hints ({why})")]
    Step {
        /// Where.
        at: At,
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

/// Checks that `proof` (LRAT, text or binary) refutes `cnf` (DIMACS).
pub fn check(cnf: impl BufRead, mut proof: impl BufRead) -> Result<Checked, LratError> {
    let mut checker = Checker::new(cnf)?;
    let first = proof.fill_buf().map_err(|source| LratError::Io { what: "the proof", source })?;
    if matches!(first.first(), Some(b'a' | b'd')) {
        binary(&mut checker, proof)?;
    } else {
        text(&mut checker, proof)?;
    }
    if !checker.refuted {
        return Err(LratError::NoEmptyClause);
    }
    Ok(Checked { original: checker.original, added: checker.added, deleted: checker.deleted })
}

/// The live clauses and the partial assignment of one step's check.
struct Checker {
    db: FxHashMap<u64, Box<[i32]>>,
    /// `value[v]`: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    trail: Vec<usize>,
    original: u64,
    added: u64,
    deleted: u64,
    last_id: u64,
    refuted: bool,
}

impl Checker {
    /// The checker of the formula `cnf` (DIMACS).
    fn new(cnf: impl BufRead) -> Result<Checker, LratError> {
        let mut db: FxHashMap<u64, Box<[i32]>> = FxHashMap::default();
        let mut vars = 0usize;
        let mut original = 0u64;
        for (n, line) in cnf.lines().enumerate() {
            let line = line.map_err(|source| LratError::Io { what: "the CNF", source })?;
            let line = line.trim();
            if line.is_empty() || line.starts_with('c') || line.starts_with('p') {
                continue;
            }
            let at = At::Line(n as u64 + 1);
            let lits = numbers(line, "the CNF", at)?;
            let Some((0, lits)) = lits.split_last() else {
                return Err(syntax("the CNF", at, "a clause must end with 0"));
            };
            let lits: Vec<i32> =
                lits.iter().map(|&x| to_lit(x, "the CNF", at)).collect::<Result<_, _>>()?;
            vars = vars.max(lits.iter().map(|l| l.unsigned_abs() as usize).max().unwrap_or(0));
            original += 1;
            db.insert(original, lits.into_boxed_slice());
        }
        Ok(Checker {
            db,
            value: vec![0; vars + 1],
            trail: Vec::new(),
            original,
            added: 0,
            deleted: 0,
            last_id: original,
            refuted: false,
        })
    }

    fn delete(&mut self, id: u64) {
        self.db.remove(&id);
        self.deleted += 1;
    }

    /// Checks the step that adds clause `id`, `lits`, from `hints`, and keeps it; after the
    /// empty clause, `refuted` is set and no further step is needed.
    fn add(&mut self, at: At, id: u64, lits: Vec<i32>, hints: &[i64]) -> Result<(), LratError> {
        if id <= self.last_id {
            return Err(syntax("the proof", at, "clause IDs must increase"));
        }
        self.last_id = id;
        let fail = |why: String| LratError::Step { at, id, why };
        let need = lits.iter().map(|l| l.unsigned_abs() as usize).max().unwrap_or(0);
        if need >= self.value.len() {
            self.value.resize(need + 1, 0);
        }
        let (value, trail) = (&mut self.value, &mut self.trail);

        // Assume the clause false, then propagate the hints in order.
        let mut conflict = false;
        for &l in &lits {
            match lit_value(value, l) {
                1 => conflict = true, // the clause holds a literal and its negation
                0 => assign(value, trail, -l),
                _ => {}
            }
        }
        for &h in hints {
            if conflict {
                break;
            }
            if h < 0 {
                undo(value, trail);
                return Err(fail("a RAT step: only RUP steps are accepted".into()));
            }
            let Some(clause) = self.db.get(&(h as u64)) else {
                undo(value, trail);
                return Err(fail(format!("hint {h} is not a live clause")));
            };
            // The literals not yet false: none is a conflict, one must be true.
            let mut unit = None;
            let mut open = 0;
            for &l in clause.iter() {
                if lit_value(value, l) != -1 {
                    open += 1;
                    unit = Some(l);
                    if open > 1 {
                        break;
                    }
                }
            }
            match (open, unit) {
                (0, _) => conflict = true,
                (1, Some(l)) if lit_value(value, l) == 0 => assign(value, trail, l),
                (1, Some(_)) => {} // already true
                _ => {
                    undo(value, trail);
                    return Err(fail(format!("hint {h} is neither unit nor falsified")));
                }
            }
        }
        undo(value, trail);
        if !conflict {
            return Err(fail("the hints end without a conflict".into()));
        }
        self.added += 1;
        if lits.is_empty() {
            self.refuted = true;
        } else {
            self.db.insert(id, lits.into_boxed_slice());
        }
        Ok(())
    }
}

/// Reads a text proof into `checker`, up to its empty clause.
fn text(checker: &mut Checker, proof: impl BufRead) -> Result<(), LratError> {
    for (n, line) in proof.lines().enumerate() {
        let at = At::Line(n as u64 + 1);
        let line = line.map_err(|source| LratError::Io { what: "the proof", source })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let mut words = line.split_ascii_whitespace();
        let id: u64 = words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or_else(|| syntax("the proof", at, "a line must start with a clause ID"))?;
        let rest: Vec<&str> = words.collect();
        if rest.first() == Some(&"d") {
            for w in &rest[1..] {
                let x: u64 = w.parse().map_err(|_| syntax("the proof", at, "bad ID"))?;
                if x == 0 {
                    break;
                }
                checker.delete(x);
            }
            continue;
        }
        let nums: Vec<i64> = rest
            .iter()
            .map(|w| w.parse().map_err(|_| syntax("the proof", at, "not a number")))
            .collect::<Result<_, _>>()?;
        let Some(split) = nums.iter().position(|&x| x == 0) else {
            return Err(syntax("the proof", at, "the clause must end with 0"));
        };
        let (lits, hints) = (&nums[..split], &nums[split + 1..]);
        let Some((0, hints)) = hints.split_last() else {
            return Err(syntax("the proof", at, "the hints must end with 0"));
        };
        let lits: Vec<i32> =
            lits.iter().map(|&x| to_lit(x, "the proof", at)).collect::<Result<_, _>>()?;
        checker.add(at, id, lits, hints)?;
        if checker.refuted {
            break;
        }
    }
    Ok(())
}

/// Reads a binary proof into `checker`, up to its empty clause.
fn binary(checker: &mut Checker, proof: impl BufRead) -> Result<(), LratError> {
    let mut r = Bytes { inner: proof, offset: 0 };
    let mut hints = Vec::new();
    loop {
        let at = At::Byte(r.offset);
        let Some(tag) = r.byte()? else { return Ok(()) };
        match tag {
            b'd' => loop {
                match r.number(at)? {
                    0 => break,
                    x if x > 0 => checker.delete(x as u64),
                    _ => return Err(syntax("the proof", at, "a negative ID")),
                }
            },
            b'a' => {
                let id = match r.number(at)? {
                    x if x > 0 => x as u64,
                    _ => return Err(syntax("the proof", at, "a clause ID must be positive")),
                };
                let mut lits = Vec::new();
                loop {
                    match r.number(at)? {
                        0 => break,
                        x => lits.push(to_lit(x, "the proof", at)?),
                    }
                }
                hints.clear();
                loop {
                    match r.number(at)? {
                        0 => break,
                        x => hints.push(x),
                    }
                }
                checker.add(at, id, lits, &hints)?;
                if checker.refuted {
                    return Ok(());
                }
            }
            other => {
                let message = format!("a step must start with 'a' or 'd', not byte {other:#04x}");
                return Err(syntax("the proof", at, &message));
            }
        }
    }
}

/// A binary proof's bytes, and the offset of the next one.
struct Bytes<R> {
    inner: R,
    offset: u64,
}

impl<R: BufRead> Bytes<R> {
    /// The next byte, or `None` at the end of the file.
    fn byte(&mut self) -> Result<Option<u8>, LratError> {
        let buf =
            self.inner.fill_buf().map_err(|source| LratError::Io { what: "the proof", source })?;
        let Some(&b) = buf.first() else { return Ok(None) };
        self.inner.consume(1);
        self.offset += 1;
        Ok(Some(b))
    }

    /// The next number of the step at `at`: `2·|x| + (x < 0)` in 7-bit groups.
    fn number(&mut self, at: At) -> Result<i64, LratError> {
        let mut x: u64 = 0;
        let mut shift = 0;
        loop {
            let Some(b) = self.byte()? else {
                return Err(syntax("the proof", at, "the file ends inside a step"));
            };
            if shift > 56 {
                return Err(syntax("the proof", at, "a number of more than 63 bits"));
            }
            x |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                if x == 1 {
                    return Err(syntax("the proof", at, "a negative zero"));
                }
                let magnitude = (x >> 1) as i64;
                return Ok(if x & 1 == 1 { -magnitude } else { magnitude });
            }
            shift += 7;
        }
    }
}

fn syntax(what: &'static str, at: At, message: &str) -> LratError {
    LratError::Syntax { what, at, message: message.to_string() }
}

fn numbers(line: &str, what: &'static str, at: At) -> Result<Vec<i64>, LratError> {
    line.split_ascii_whitespace()
        .map(|w| w.parse().map_err(|_| syntax(what, at, &format!("not a number: {w:?}"))))
        .collect()
}

fn to_lit(x: i64, what: &'static str, at: At) -> Result<i32, LratError> {
    match i32::try_from(x) {
        Ok(l) if l != 0 && l != i32::MIN => Ok(l),
        _ => Err(syntax(what, at, &format!("bad literal {x}"))),
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

    /// `proof` (text) in the binary format, as CaDiCaL writes it.
    fn to_binary(proof: &str) -> Vec<u8> {
        fn put(out: &mut Vec<u8>, x: i64) {
            let mut u = 2 * x.unsigned_abs() + u64::from(x < 0);
            while u > 0x7f {
                out.push((u & 0x7f) as u8 | 0x80);
                u >>= 7;
            }
            out.push(u as u8);
        }
        let mut out = Vec::new();
        for line in proof.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let rest = if words[1] == "d" {
                out.push(b'd');
                &words[2..]
            } else {
                out.push(b'a');
                &words[..]
            };
            for w in rest {
                put(&mut out, w.parse().unwrap());
            }
        }
        out
    }

    fn run_binary(cnf: &str, proof: &str) -> Result<Checked, LratError> {
        check(cnf.as_bytes(), &to_binary(proof)[..])
    }

    #[test]
    fn a_binary_proof_checks() {
        // The bytes CaDiCaL writes for PROOF: `a`, ID 5 as 10, literal 1 as 2, 0, hints 1
        // and 3 as 2 and 6, 0; and so on. Clause IDs from 64 on take two bytes.
        let bytes = to_binary(PROOF);
        assert_eq!(&bytes[..7], &[b'a', 10, 2, 0, 2, 6, 0]);
        assert_eq!(run_binary(CNF, PROOF).unwrap(), Checked { original: 4, added: 3, deleted: 0 });
        let with_deletion = "5 1 0 1 3 0\n5 d 1 3 0\n6 2 0 5 2 0\n7 0 5 6 4 0\n";
        assert_eq!(
            run_binary(CNF, with_deletion).unwrap(),
            Checked { original: 4, added: 3, deleted: 2 }
        );
        // Deletions may come first (CaDiCaL writes them before the next addition): the
        // file then starts with `d`, and is binary all the same.
        let cnf = format!("{CNF}1 2 0\n");
        let deleting_first = "5 d 5 0\n6 1 0 1 3 0\n7 2 0 6 2 0\n8 0 6 7 4 0\n";
        assert_eq!(to_binary(deleting_first)[0], b'd');
        assert_eq!(
            run_binary(&cnf, deleting_first).unwrap(),
            Checked { original: 5, added: 3, deleted: 1 }
        );
        // A number of two groups: 0x2c + 2·128 = 300, that is 150.
        let mut r = Bytes { inner: &[0x80 | 0x2c, 0x02][..], offset: 0 };
        assert_eq!(r.number(At::Byte(0)).unwrap(), 150);
        assert_eq!(r.offset, 2);
        // The largest: nine groups, 63 bits, 2^63 - 2, that is 2^62 - 1.
        let mut r =
            Bytes { inner: &[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f][..], offset: 0 };
        assert_eq!(r.number(At::Byte(0)).unwrap(), i64::MAX / 2);
    }

    #[test]
    fn every_broken_binary_proof_is_rejected() {
        let bad: [(&[u8], u64, &str); 9] = [
            // A clause ID of 0, a negative one, a negative ID deleted.
            (&[b'a', 0, 2, 0, 2, 6, 0], 0, "must be positive"),
            (&[b'a', 11, 2, 0, 2, 6, 0], 0, "must be positive"),
            (&[b'd', 3, 0], 0, "a negative ID"),
            // A hint missing (clause 5 from clause 1 alone).
            (&[b'a', 10, 2, 0, 2, 0], 0, "without a conflict"),
            // Cut inside a step.
            (&[b'a', 10, 2, 0, 2], 0, "ends inside a step"),
            // A step that is neither an addition nor a deletion.
            (&[b'a', 10, 2, 0, 2, 6, 0, b'x'], 7, "not byte 0x78"),
            // A number that does not fit.
            (&[b'a', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], 0, "63 bits"),
            // A negative zero as the literal.
            (&[b'a', 10, 1, 0, 2, 6, 0], 0, "negative zero"),
            // A RAT step: a negative hint.
            (&[b'a', 10, 2, 0, 5, 0], 0, "RAT"),
        ];
        for (proof, at, message) in bad {
            let e = check(CNF.as_bytes(), proof).unwrap_err().to_string();
            assert!(e.contains(message), "{proof:?}: {e}");
            assert!(e.contains(&format!("byte {at}: ")), "{proof:?}: {e}");
        }
        // The text cases, written in binary, are rejected the same way.
        for (proof, message) in [
            ("5 1 0 1 0\n6 2 0 5 2 0\n7 0 5 6 4 0\n", "without a conflict"),
            ("5 -1 0 1 3 0\n6 2 0 5 2 0\n7 0 5 6 4 0\n", "neither unit"),
            ("5 1 0 1 3 0\n5 d 2 0\n6 2 0 5 2 0\n7 0 5 6 4 0\n", "not a live clause"),
            ("5 1 0 1 3 0\n6 2 0 5 2 0\n", "never derives"),
            ("3 1 0 1 3 0\n", "increase"),
        ] {
            let e = run_binary(CNF, proof).unwrap_err().to_string();
            assert!(e.contains(message), "{proof:?}: {e}");
        }
        let satisfiable = "p cnf 2 3\n1 2 0\n-1 2 0\n1 -2 0\n";
        let e = run_binary(satisfiable, "4 1 0 1 3 0\n5 2 0 4 2 0\n6 0 4 5 0\n").unwrap_err();
        assert!(e.to_string().contains("without a conflict"), "{e}");
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
