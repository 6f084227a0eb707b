//! The printer's three formats and the tally, on a small list.

use crate::{Claim, Format, Status, Tally, render};

fn claim(id: &'static str, status: Status, published: &str, evidence: &str) -> Claim {
    Claim {
        id,
        source: "a source",
        claim: format!("claim {id}"),
        published: published.to_string(),
        computed: "computed, \"quoted\"".to_string(),
        status,
        evidence: evidence.to_string(),
    }
}

fn list() -> Vec<Claim> {
    vec![
        claim("one", Status::Ok, "1", "how"),
        claim("second-id", Status::Misprint, "a | b", "line 1\nline 2"),
        claim("three", Status::Fail, "3", ""),
    ]
}

#[test]
fn table_columns_claims_and_evidence() {
    let t = render(&list(), Format::Table { details: false });
    let expected = "\
status            entry      published  computed
ok                one        1          computed, \"quoted\"
                  claim: claim one (a source)
misprint          second-id  a | b      computed, \"quoted\"
                  claim: claim second-id (a source)
                  evidence: line 1
                            line 2
FAIL              three      3          computed, \"quoted\"
                  claim: claim three (a source)
";
    assert_eq!(t, expected);
    let d = render(&list(), Format::Table { details: true });
    assert!(d.contains("claim one (a source)\n                  evidence: how\n"), "{d}");
}

#[test]
fn table_pads_published_to_forty_at_most() {
    let long = "x".repeat(50);
    let t = render(&[claim("a", Status::Ok, &long, "")], Format::Table { details: false });
    assert!(t.starts_with(&format!("status            entry  {:<40}  computed\n", "published")));
    assert!(t.contains(&format!("  {long}  computed")), "{t}");
}

#[test]
fn markdown_escapes_cells() {
    let m = render(&list(), Format::Markdown);
    let lines: Vec<&str> = m.lines().collect();
    assert_eq!(lines[0], "| claim | source | published | computed | status |");
    assert_eq!(lines[1], "| --- | --- | --- | --- | --- |");
    assert_eq!(
        lines[3],
        "| `second-id`: claim second-id | a source | a \\| b | computed, \"quoted\" | misprint |"
    );
    assert_eq!(lines.len(), 5);
}

#[test]
fn csv_round_trips_through_a_csv_reader() {
    let claims = list();
    let text = render(&claims, Format::Csv);
    assert!(text.contains(",\"computed, \"\"quoted\"\"\","), "{text}");
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, ["name", "source", "status", "claim", "published", "computed", "evidence"]);
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), claims.len());
    for (row, c) in rows.iter().zip(&claims) {
        let fields = [c.id, c.source, c.status.label(), &c.claim, &c.published, &c.computed];
        assert_eq!(row.iter().take(6).collect::<Vec<_>>(), fields);
        assert_eq!(&row[6], c.evidence);
    }
}

#[test]
fn csv_matches_the_csv_crate_byte_for_byte() {
    let claims = list();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["name", "source", "status", "claim", "published", "computed", "evidence"])
        .unwrap();
    for c in &claims {
        w.write_record([
            c.id,
            c.source,
            c.status.label(),
            &c.claim,
            &c.published,
            &c.computed,
            &c.evidence,
        ])
        .unwrap();
    }
    let expected = String::from_utf8(w.into_inner().unwrap()).unwrap();
    assert_eq!(render(&claims, Format::Csv), expected);
}

#[test]
fn tally_counts_every_claim() {
    let t = Tally::of(&list());
    assert_eq!((t.total(), t.failed(), t.count(Status::Ok)), (3, 1, 1));
    let shown = [Status::Ok, Status::Misprint, Status::Differs, Status::Fail];
    assert_eq!(
        t.line(&shown),
        "3 claims checked: 1 ok, 1 misprints, 0 explained differences, 1 failed"
    );
    // A status the catalogue does not list is still counted, after the listed ones.
    assert_eq!(t.line(&[Status::Ok]), "3 claims checked: 1 ok, 1 misprints, 1 failed");
    assert_eq!(Tally::of(&[]).line(&[Status::Fail]), "0 claims checked: 0 failed");
}
