//! The catalogue of checkable claims about bataille, each recomputed with the engine.
//!
//! Every entry is a [`Claim`]: the claim, where it was published, the published value, the
//! value the engine computes and a [`Status`]. Where a source is wrong (a misprint) the entry
//! says so with the evidence; the engine is never bent to match.

mod catalogue;
pub mod hunts;
pub mod records;

pub use catalogue::catalogue;

pub use bataille_claims::{Claim, Status};

/// The statuses the catalogue's claims can take, in the order of its tally.
pub const STATUSES: &[Status] = &[Status::Ok, Status::Misprint, Status::Differs, Status::Fail];

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
            entries.iter().filter(|e| e.status == Status::Misprint).map(|e| e.id).collect();
        assert_eq!(misprints, ["stacking-optimized", "spivey-condition", "optimized-found-list"]);
        let differs: Vec<_> =
            entries.iter().filter(|e| e.status == Status::Differs).map(|e| e.id).collect();
        assert_eq!(
            differs,
            ["maximum-c4-v2-natural", "maximum-c4-v4-natural", "maximum-c4-v4-optimized"]
        );
        let mut names: Vec<_> = entries.iter().map(|e| e.id).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), entries.len(), "entry names are unique");
        assert!(entries.iter().all(|e| STATUSES.contains(&e.status)));
    }
}
