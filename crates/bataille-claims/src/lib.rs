//! The checked claims of the workspace's catalogues, and how they are printed.
//!
//! Three catalogues compare published figures with what the workspace computes:
//! `bataille_verify::catalogue` (the article about French bataille and the record files),
//! `bataille_bmn::published::checks` (the published beggar-my-neighbour games) and
//! `bataille_takeaway::catalogue::catalogue` (the take-away games of the companion
//! documents). Each returns a list of [`Claim`]s: what was claimed, where, the value as
//! published, the value computed and a [`Status`] that says how the two compare and, when they
//! differ, why.
//!
//! [`render`] prints such a list in one of three [`Format`]s (a plain table, Markdown, CSV) and
//! [`Tally`] counts it by status, for the one-line summary under a table. Rendering returns
//! `String`s: this crate does no I/O.
//!
//! ```
//! use bataille_claims::{Claim, Format, Status, Tally, render};
//!
//! let claims = [Claim {
//!     id: "c1-v5-cycle",
//!     source: "article, Parties infinies (C=1)",
//!     claim: "[5, 3] / [2, 4, 1] loops (natural)".to_string(),
//!     published: "loop of 6 tricks".to_string(),
//!     computed: "loop of 6 tricks".to_string(),
//!     status: Status::Ok,
//!     evidence: String::new(),
//! }];
//! assert!(render(&claims, Format::Markdown).contains("| `c1-v5-cycle`: [5, 3] / [2, 4, 1]"));
//! let tally = Tally::of(&claims);
//! assert_eq!(tally.failed(), 0);
//! assert_eq!(tally.line(&[Status::Ok, Status::Fail]), "1 claims checked: 1 ok, 0 failed");
//! ```

mod render;

pub use render::{Format, render};

/// How a published value compares with the computed one.
///
/// Every catalogue uses some of these (its own list says which, for the tally): the article's
/// catalogue has no false claims, the take-away documents no known differences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// They agree.
    Ok,
    /// They differ because the source misprints the value (or its text conversion lost part
    /// of it): the evidence says why, and the computed value is the right one.
    Misprint,
    /// They differ for a known reason that is not a misprint (the source measured something
    /// else than its words say): the evidence says what, and the computed value stands.
    Differs,
    /// The source's claim or conjecture is false: the evidence gives the smallest
    /// counterexample.
    False,
    /// Nothing was published to compare with (the figures were lost, or the source gives no
    /// verdict): the computed value is given for reference.
    Computed,
    /// They differ and no explanation is known: a failure.
    Fail,
}

impl Status {
    /// Every status, in the order of a tally.
    pub const ALL: [Status; 6] = [
        Status::Ok,
        Status::Misprint,
        Status::Differs,
        Status::False,
        Status::Computed,
        Status::Fail,
    ];

    /// The status as the tables print it: `ok`, `misprint`, `known difference`,
    /// `false claim`, `computed` or `FAIL`.
    pub fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Misprint => "misprint",
            Status::Differs => "known difference",
            Status::False => "false claim",
            Status::Computed => "computed",
            Status::Fail => "FAIL",
        }
    }

    /// The words after a count in the tally: `ok`, `misprints`, `explained
    /// differences`, `false claims`, `computed` or `failed`.
    pub fn counted(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Misprint => "misprints",
            Status::Differs => "explained differences",
            Status::False => "false claims",
            Status::Computed => "computed",
            Status::Fail => "failed",
        }
    }
}

/// One checked claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// A short stable identifier, unique in its catalogue, e.g. `c1-v5-cycle` (the `entry`
    /// column of the table, `name` in CSV).
    pub id: &'static str,
    /// Where the claim was published, e.g. `article, box 4`.
    pub source: &'static str,
    /// The claim, in words.
    pub claim: String,
    /// The value as published.
    pub published: String,
    /// The value computed here.
    pub computed: String,
    /// How the two compare.
    pub status: Status,
    /// What was compared, or why a disagreement is explained; may hold several lines.
    pub evidence: String,
}

/// The number of claims of each status in a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    counts: [usize; Status::ALL.len()],
}

impl Tally {
    /// Counts `claims`.
    pub fn of(claims: &[Claim]) -> Tally {
        let mut t = Tally::default();
        for c in claims {
            t.counts[c.status as usize] += 1;
        }
        t
    }

    /// The claims of status `s`.
    pub fn count(&self, s: Status) -> usize {
        self.counts[s as usize]
    }

    /// All the claims counted.
    pub fn total(&self) -> usize {
        self.counts.iter().sum()
    }

    /// The claims that failed ([`Status::Fail`]).
    pub fn failed(&self) -> usize {
        self.count(Status::Fail)
    }

    /// The summary line, e.g. `32 claims checked: 26 ok, 3 misprints, 3 explained
    /// differences, 0 failed`, with a count for each of `shown` (the statuses the catalogue
    /// uses, so that a count of zero is printed too), in that order. A status outside `shown`
    /// that some claim has is counted as well, after them: no claim goes uncounted.
    pub fn line(&self, shown: &[Status]) -> String {
        let extra = Status::ALL.into_iter().filter(|s| !shown.contains(s) && self.count(*s) > 0);
        let parts: Vec<String> = shown
            .iter()
            .copied()
            .chain(extra)
            .map(|s| format!("{} {}", self.count(s), s.counted()))
            .collect();
        format!("{} claims checked: {}", self.total(), parts.join(", "))
    }
}

#[cfg(test)]
mod tests;
