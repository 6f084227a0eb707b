//! `bataille experiment run` as a user runs it: the shipped recipes parse, a small run writes
//! the same files whatever the threads, records read the shared file if present, bad recipes are
//! refused with exit code 2.

use std::fs;
use std::path::Path;

use crate::support::{bataille, text};

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path).display().to_string()
}

#[test]
fn shipped_recipes_parse() {
    for name in ["durations-c1", "durations-c4", "duels", "records"] {
        let path = repo(&format!("experiments/{name}.recipe"));
        let text = fs::read_to_string(&path).unwrap();
        bataille_experiment::Recipe::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}

#[test]
fn small_run_is_thread_independent_and_feeds_records() {
    let dir = scratch!("small");
    let recipe = dir.join("tiny.recipe");
    fs::write(
        &recipe,
        "table = durations\ncolours = 4\nvalues = 2, 3\nmethods = natural, random\n\
         deals = 500\nseed = 3\nhistograms = 3\n",
    )
    .unwrap();
    let (one, two) = (dir.join("one"), dir.join("two"));
    for (threads, out) in [("1", &one), ("2", &two)] {
        let o = bataille(&[
            "experiment",
            "run",
            recipe.to_str().unwrap(),
            "--threads",
            threads,
            "--results",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o));
    }
    for f in [
        "durations.csv",
        "longest.csv",
        "histograms.csv",
        "means.svg",
        "histogram-v3.svg",
        "table.md",
    ] {
        assert_eq!(
            fs::read(one.join("tiny").join(f)).unwrap(),
            fs::read(two.join("tiny").join(f)).unwrap(),
            "{f}"
        );
    }
    let note = fs::read_to_string(one.join("tiny/NOTE.md")).unwrap();
    assert!(
        note.contains("- seed: 3") && note.contains("- commit: ") && note.contains("- threads: 1"),
        "{note}"
    );
    // The recipe was named by an absolute path outside the working directory: no machine path
    // in the note.
    assert!(note.contains("- recipe: `<outside>/tiny.recipe`"), "{note}");

    // The records table reads that run's longest games, and the shared file when present.
    let records = dir.join("records.recipe");
    fs::write(&records, "table = records\nsources = tiny\n").unwrap();
    let o = bataille(&[
        "experiment",
        "run",
        records.to_str().unwrap(),
        "--results",
        one.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("- records.csv: absent"), "{}", text(&o));
    fs::write(one.join("records.csv"), "c,v,method,tricks,cards,deal\n4,3,natural,9999,9999,x\n")
        .unwrap();
    // A second run does not replace the first one's results without --replace.
    let again =
        ["experiment", "run", records.to_str().unwrap(), "--results", one.to_str().unwrap()];
    let o = bataille(&again);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("already holds results: pass --replace"), "{}", text(&o));
    let o = bataille(&[&again[..], &["--replace"]].concat());
    assert!(o.status.success(), "{}", text(&o));
    let best = fs::read_to_string(one.join("records/best.csv")).unwrap();
    assert!(best.lines().any(|l| l.starts_with("4,3,natural,9999,9999,records.csv,x,")), "{best}");
}

#[test]
fn bad_recipes_are_refused() {
    let dir = scratch!("bad");
    let check = |content: &str, expected: &str| {
        let path = dir.join("bad.recipe");
        fs::write(&path, content).unwrap();
        let o = bataille(&[
            "experiment",
            "run",
            path.to_str().unwrap(),
            "--results",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains(expected), "{}", text(&o));
    };
    check("table = durations\ncolours = 4\nvalues = 8\nmethods = lazy", "invalid methods \"lazy\"");
    check("table = durations\ncolours = 4\nmethods = natural", "missing key `values`");
    let o = bataille(&["experiment", "run", "/nonexistent/recipe"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no recipe at /nonexistent/recipe"), "{}", text(&o));
    let path = repo("experiments/duels");
    let o =
        bataille(&["experiment", "run", &path, "--deals", "0", "--results", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--deals must be at least 1, got 0"), "{}", text(&o));
}
