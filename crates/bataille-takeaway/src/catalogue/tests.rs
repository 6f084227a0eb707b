//! The catalogue as data: every entry's status is pinned, and none may fail.

use super::{STATUSES, Status, catalogue};

/// The expected status of every entry, by name, in catalogue order.
const EXPECTED: &[(&str, Status)] = &[
    ("s000-example-sums", Status::Ok),
    ("s000-example-lost", Status::Ok),
    ("s000-after-move-sums", Status::Misprint),
    ("s000-reply", Status::False),
    ("s000-reply-sums", Status::Misprint),
    ("s000-bouton", Status::Ok),
    ("s000-marienbad-1357", Status::Ok),
    ("s000-single-matches", Status::Ok),
    ("s000-misere-rule", Status::Ok),
    ("s000-misere-strategy", Status::False),
    ("s000-misere-strategy-fixed", Status::Ok),
    ("s001-digital-sum", Status::Ok),
    ("s001-3579", Status::Computed),
    ("s001-example3", Status::Computed),
    ("s003-illustration", Status::Ok),
    ("s003-2n-list", Status::Ok),
    ("s003-2n-examples", Status::Ok),
    ("s003-2n-monotone", Status::Ok),
    ("s003-2n-sequence", Status::Ok),
    ("s003-fibonacci", Status::Ok),
    ("s003-2n-takes-fibonacci", Status::Ok),
    ("s003-2n-construction", Status::Ok),
    ("s003-decompositions", Status::Ok),
    ("s003-lemma", Status::Ok),
    ("s003-theorem", Status::Ok),
    ("s003-corollary", Status::Ok),
    ("s003-50-matches", Status::Ok),
    ("s003-annex1-pascal", Status::Ok),
    ("s003-annex2-ti83", Status::Ok),
    ("s003-two-heaps-table", Status::False),
    ("s003-two-heaps-print", Status::Misprint),
    ("s003-two-heaps-equal", Status::Ok),
    ("s003-two-heaps-mirror", Status::Ok),
    ("s003-two-heaps-50", Status::Ok),
    ("s003-3n-sequence", Status::Ok),
    ("s003-3n-base", Status::Ok),
    ("s003-3n-insertion-literal", Status::False),
    ("s003-3n-note", Status::False),
    ("s003-3n-insertion", Status::Ok),
    ("s003-3n-continuation", Status::Ok),
    ("s003-4n-sequence", Status::Ok),
    ("s003-4n-base", Status::Ok),
    ("s003-4n-insertion", Status::Ok),
    ("s003-kn-base", Status::False),
    ("s003-kn-recurrence", Status::False),
    ("s003-kn-insertion", Status::Ok),
    ("s003-kn-game-base", Status::Computed),
    ("s003-n+1-list", Status::Misprint),
    ("s003-n+1-conjecture", Status::False),
    ("s003-n+1-rule", Status::Computed),
    ("s004-lists", Status::Ok),
    ("s004-4k+1", Status::Ok),
    ("s004-18-sticks", Status::Ok),
    ("s004-20-sticks", Status::Ok),
];

fn check(name: &str, status: Status, got: &super::Claim) {
    assert_eq!(got.id, name, "catalogue order");
    assert_eq!(
        got.status, status,
        "{name}: {} | {} | {}",
        got.published, got.computed, got.evidence
    );
    assert!(
        !got.claim.is_empty() && !got.published.is_empty() && !got.computed.is_empty(),
        "{name}"
    );
    if matches!(status, Status::Misprint | Status::False) {
        assert!(!got.evidence.is_empty(), "{name}: a disagreement needs its evidence");
    }
}

#[test]
fn every_entry_has_its_expected_status() {
    let entries = catalogue();
    assert_eq!(entries.len(), EXPECTED.len());
    for ((name, status), got) in EXPECTED.iter().zip(&entries) {
        check(name, *status, got);
    }
    assert!(entries.iter().all(|e| e.status != Status::Fail));
    assert!(entries.iter().all(|e| STATUSES.contains(&e.status)));
}

/// The known-disagreement logic itself: an unexpected or a missing disagreement fails.
#[test]
fn unexplained_disagreements_fail() {
    use super::{Check, Known, entry};
    let c = |m: &[&str]| Check {
        claim: "c".into(),
        published: "p".into(),
        computed: "c".into(),
        mismatches: m.iter().map(|s| s.to_string()).collect(),
        evidence: String::new(),
    };
    let known = || Known::False(vec!["x".into()]);
    assert_eq!(entry("t", "s", c(&[]), Known::None).status, Status::Ok);
    assert_eq!(entry("t", "s", c(&["x"]), Known::None).status, Status::Fail);
    assert_eq!(entry("t", "s", c(&["x"]), known()).status, Status::False);
    assert_eq!(entry("t", "s", c(&[]), known()).status, Status::Fail);
    assert_eq!(entry("t", "s", c(&["x", "y"]), known()).status, Status::Fail);
    assert_eq!(
        entry("t", "s", c(&["y"]), Known::Misprint(vec!["y".into()])).status,
        Status::Misprint
    );
    assert_eq!(entry("t", "s", c(&[]), Known::Computed).status, Status::Computed);
    assert_eq!(entry("t", "s", c(&["z"]), Known::Computed).status, Status::Fail);
    assert!(entry("t", "s", c(&["z"]), Known::Computed).evidence.contains("unexplained"));
}
