//! The catalogue of checkable claims about bataille, each recomputed with the engine.
//!
//! Every [`Entry`] carries the claim, where it was published, the published value, the value
//! the engine computes and a [`Status`]. Where a source is wrong (a misprint) the entry says so
//! with the evidence; the engine is never bent to match.

mod catalogue;
pub mod hunts;

pub use catalogue::catalogue;

/// How a published value compares with the computed one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// They agree.
    Ok,
    /// They differ, and the published value is a known misprint: the evidence says why and
    /// the computed value is the correct one.
    Misprint,
    /// They differ for a known reason that is not a misprint (the source measured something
    /// else than its words say): the evidence says what, and the computed value stands.
    Differs,
    /// They differ and no explanation is known: a failure.
    Fail,
}

impl Status {
    /// `ok`, `article misprint`, `known difference` or `FAIL`.
    pub fn label(&self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Misprint => "article misprint",
            Status::Differs => "known difference",
            Status::Fail => "FAIL",
        }
    }
}

/// One checked claim.
#[derive(Debug, Clone)]
pub struct Entry {
    /// A short stable name, e.g. `c1-v5-cycle`.
    pub name: &'static str,
    /// Where the claim was published, e.g. `article, box 4`.
    pub source: &'static str,
    /// The claim, in words.
    pub claim: String,
    /// The value as published.
    pub published: String,
    /// The value the engine computes.
    pub computed: String,
    /// The comparison.
    pub status: Status,
    /// Why a misprint is one, or what was compared.
    pub evidence: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every claim of the catalogue holds, except the known misprints and differences, which are
    /// exactly these.
    #[test]
    fn catalogue_passes() {
        let entries = catalogue();
        let failed: Vec<_> = entries.iter().filter(|e| e.status == Status::Fail).collect();
        assert!(failed.is_empty(), "{failed:#?}");
        let misprints: Vec<_> =
            entries.iter().filter(|e| e.status == Status::Misprint).map(|e| e.name).collect();
        assert_eq!(misprints, ["stacking-optimized", "spivey-condition", "optimized-found-list"]);
        let differs: Vec<_> =
            entries.iter().filter(|e| e.status == Status::Differs).map(|e| e.name).collect();
        assert_eq!(
            differs,
            ["maximum-c4-v2-natural", "maximum-c4-v4-natural", "maximum-c4-v4-optimized"]
        );
        let mut names: Vec<_> = entries.iter().map(|e| e.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), entries.len(), "entry names are unique");
    }
}
