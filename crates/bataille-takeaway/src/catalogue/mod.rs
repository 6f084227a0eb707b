//! The checkable claims of seeds 000, 001, 003 and 004, each recomputed with the solver.
//!
//! Every entry is a [`Claim`]: a claim, where it was published, the value as published, the
//! value computed here and a [`Status`]. A check lists the items where the document and the
//! computation disagree (positions, terms, columns). The catalogue states, for each entry,
//! which disagreements are known and why (a misprint, or a claim of the document that is
//! false); an entry whose disagreements are exactly the known ones takes that status, any other
//! disagreement (or a known one that no longer shows) is a [`Status::Fail`]. The solver is
//! never bent to match a document.
//!
//! All bounds are fixed ([`BOUNDS`]), so the catalogue gives the same table on every machine.

mod data;
mod parse;
mod seed000;
mod seed001;
mod seed003;
mod seed004;

pub use bataille_claims::{Claim, Status};

/// The statuses the entries can take, in the order of their tally. [`Status::Misprint`] covers
/// the defects of the documents' text conversion too; [`Status::False`] is a claim or
/// conjecture of a document that does not hold (the evidence gives the smallest
/// counterexample); [`Status::Computed`] an entry with nothing published to compare with (the
/// figures were lost, or the document gives no verdict).
pub const STATUSES: &[Status] =
    &[Status::Ok, Status::Misprint, Status::False, Status::Computed, Status::Fail];

/// The fixed bounds of the checks.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// Largest heap of the one-heap match tables (`2n`, `3n`, `4n`, `kn`, `n+1`).
    pub matches: u32,
    /// Largest `k` of the `kn` checks.
    pub k_max: u32,
    /// Largest heap of the two-heap table.
    pub two_heaps: u32,
    /// Largest heap for which every position is also solved by the generic solver.
    pub brute: u32,
    /// Largest heap of the two-heap strategy check.
    pub mirror: u32,
}

/// The bounds used by [`catalogue`].
pub const BOUNDS: Bounds =
    Bounds { matches: 1_000_000, k_max: 12, two_heaps: 200, brute: 120, mirror: 24 };

/// What the catalogue knows about the disagreements of an entry.
#[derive(Debug, Clone)]
enum Known {
    /// No disagreement is expected.
    None,
    /// Exactly these items are misprinted.
    Misprint(Vec<String>),
    /// The claim is false at exactly these items.
    False(Vec<String>),
    /// Nothing was published; any disagreement (an internal consistency check) is a failure.
    Computed,
}

/// The outcome of one check, before the catalogue's knowledge is applied.
#[derive(Debug, Clone, Default)]
struct Check {
    claim: String,
    published: String,
    computed: String,
    /// The items where document and computation disagree, smallest first.
    mismatches: Vec<String>,
    evidence: String,
}

fn entry(name: &'static str, source: &'static str, check: Check, known: Known) -> Claim {
    let (status, expected) = match &known {
        Known::None => (Status::Ok, &[][..]),
        Known::Misprint(k) => (Status::Misprint, &k[..]),
        Known::False(k) => (Status::False, &k[..]),
        Known::Computed => (Status::Computed, &[][..]),
    };
    let status = if check.mismatches == expected { status } else { Status::Fail };
    let mut evidence = check.evidence;
    if status == Status::Fail {
        let extra = format!(
            "unexplained: disagreements [{}], expected [{}]",
            check.mismatches.join(", "),
            expected.join(", ")
        );
        evidence = if evidence.is_empty() { extra } else { format!("{evidence}; {extra}") };
    }
    Claim {
        id: name,
        source,
        claim: check.claim,
        published: check.published,
        computed: check.computed,
        status,
        evidence,
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Joins numbers with spaces.
fn spaced<T: ToString>(v: &[T]) -> String {
    v.iter().map(T::to_string).collect::<Vec<_>>().join(" ")
}

/// Runs every check and returns the entries in catalogue order (seeds 000, 001, 003, 004).
pub fn catalogue() -> Vec<Claim> {
    let b = BOUNDS;
    let mut out = Vec::new();
    out.extend(seed000::entries());
    out.extend(seed001::entries());
    out.extend(seed003::entries(&b));
    out.extend(seed004::entries(&b));
    out
}

#[cfg(test)]
mod tests;
