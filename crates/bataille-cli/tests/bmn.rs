//! `bataille bmn`: beggar-my-neighbour from the command line.

use crate::support::{bataille, stderr, stdout, stdout_ok};

const CASELLA: [&str; 2] = ["---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA"];

#[test]
fn casella_loops() {
    let out = stdout_ok(&["bmn", "play", CASELLA[0], CASELLA[1]]);
    assert!(out.contains("outcome:   never ends (loop)"), "{out}");
    // Casella et al.: a loop of 62 tricks.
    assert!(out.contains("period:    62 tricks,"), "{out}");
    assert!(out.contains("tail:      ") && out.contains("cycle id:  "), "{out}");
}

#[test]
fn hands_starting_with_hyphens_are_values() {
    // Nessler 2022: both hands start with '-', flags before, between and after them.
    let [a, b] = ["---AJ--Q---------QAKQJJ-QK", "-----A----KJ-K--------A---"];
    for args in [
        vec!["bmn", "play", a, b],
        vec!["bmn", "play", "--deck", "standard", a, b],
        vec!["bmn", "play", a, "--max-tricks", "100000", b],
        vec!["bmn", "play", a, b, "--deck", "standard"],
        vec!["bmn", "play", "--", a, b],
    ] {
        let out = stdout_ok(&args);
        assert!(
            out.contains("cards:     8344\ntricks:    1164\n")
                || out.contains("tricks:    1164\ncards:     8344"),
            "{args:?}: {out}"
        );
    }
    // One argument FIRST/SECOND, as `format_deal` writes deals.
    let joined = format!("{a}/{b}");
    assert!(stdout_ok(&["bmn", "play", &joined]).contains("tricks:    1164"));
    // A hand of exactly "--" needs the separator.
    let out = stdout_ok(&["bmn", "play", "--partial", "--", "-J-", "--"]);
    assert!(out.contains("hands:     -J- / --"), "{out}");
}

#[test]
fn trace_lists_every_trick() {
    let out = stdout_ok(&["bmn", "play", "--partial", "--trace", "J-", "00"]);
    assert_eq!(
        out.lines().take(4).collect::<Vec<_>>(),
        [
            "trick  leader  pile (in the order played) -> taker: first hand / second hand",
            "    0  first   start: J- / --",
            "    1  first   J- -> first: -J- / -",
            "    2  first   --J -> first: ---J /   (game over)",
        ]
    );
    // The loop of Casella's game: tail + period tricks, with the loop's start marked.
    let out = stdout_ok(&["bmn", "play", "--trace", CASELLA[0], CASELLA[1]]);
    let tricks = out.lines().filter(|l| l.starts_with(" ") && l.contains(" -> ")).count();
    assert!(
        out.contains(&format!("tricks:    {tricks} until the first repeated position")),
        "{out}"
    );
    assert!(out.contains("(the loop starts here)") && out.contains("(back to the position"));
}

#[test]
fn other_decks() {
    // The 40-card Italian deck (no aces): 28 numerals, 4 J, 4 Q, 4 K.
    let a = "--J---Q---K---J---QK";
    let b = "--K---J---Q---K-J-Q-";
    let out = stdout_ok(&["bmn", "play", "--deck", "italian", a, b]);
    assert!(out.contains("deck:      40 cards (28 numerals, 4 J, 4 Q, 4 K, 0 A); a deal"), "{out}");
    let out = stdout_ok(&["bmn", "play", "--counts", "28,4,4,4,0", a, b]);
    assert!(out.contains("40 cards"), "{out}");
    // The same hands are not a standard deck.
    let o = bataille(&["bmn", "play", a, b]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("aces: 0 instead of 4 (4 missing)"), "{}", stderr(&o));
}

#[test]
fn verify_passes_and_reports_the_misprint() {
    let o = bataille(&["bmn", "verify"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("6 claims checked: 5 ok, 1 misprints, 0 failed"), "{out}");
    assert!(out.contains("misprint          bmn-article-box1-hands"), "{out}");
    assert!(out.contains("numerals: 31 instead of 36 (5 missing)"), "{out}");
    assert!(!out.contains("FAIL"), "{out}");
    let details = stdout_ok(&["bmn", "verify", "--details"]);
    assert!(details.contains("would give 8345 cards, 1165 tricks"), "{details}");
    // The same printer as `bataille verify`: Markdown and CSV.
    let md = stdout_ok(&["bmn", "verify", "--markdown"]);
    assert!(md.starts_with("| claim | source | published | computed | status |\n"), "{md}");
    assert!(md.contains("| `bmn-casella-loop`: "), "{md}");
    let csv = stdout_ok(&["bmn", "verify", "--csv"]);
    let mut r = csv::Reader::from_reader(csv.as_bytes());
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 6);
    assert_eq!(&rows[2][2], "misprint");
    assert!(rows[2][6].contains("\nsecond hand: printed"), "the evidence keeps its lines");
}

#[test]
fn bad_input_is_a_usage_error() {
    let long = "-".repeat(300);
    for args in [
        &["bmn", "play", "---X", "----"][..],
        &["bmn", "play", CASELLA[0]],
        &["bmn", "play", "-J-", "--"],
        &["bmn", "play", "-J-", "--", "--trace"],
        &["bmn", "play", "[0, 0, 3", "---"],
        &["bmn", "play", "--partial", "[0, 7]", "---"],
        &["bmn", "play", "---K---Q-KQAJ-----AAJ--J-", CASELLA[1]],
        &["bmn", "play", "--deck", "tarot", CASELLA[0], CASELLA[1]],
        &["bmn", "play", "--counts", "36,4,4", CASELLA[0], CASELLA[1]],
        &["bmn", "play", "--counts", "250,4,4,4,4", CASELLA[0], CASELLA[1]],
        &["bmn", "play", "--deck", "standard", "--counts", "36,4,4,4,4", CASELLA[0], CASELLA[1]],
        &["bmn", "play", "--partial", "--deck", "standard", CASELLA[0], CASELLA[1]],
        &["bmn", "play", "--max-tricks", "many", CASELLA[0], CASELLA[1]],
        &["bmn", "play", "--partial", &long, "-"],
        &["bmn", "play", "a/b/c"],
        &["bmn", "verify", "--nonsense"],
        &["bmn", "verify", "--csv", "--markdown"],
        &["bmn"],
    ] {
        let o = bataille(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        let err = stderr(&o);
        assert!(!err.is_empty() && !err.contains("panicked"), "{args:?}: {err}");
    }
    // The messages name the bad value.
    let err = stderr(&bataille(&["bmn", "play", "---X", "----"]));
    assert!(err.contains("the first hand \"---X\" has \"X\" at position 4"), "{err}");
    let err = stderr(&bataille(&["bmn", "play", "--deck", "tarot", CASELLA[0], CASELLA[1]]));
    assert!(err.contains("unknown deck \"tarot\""), "{err}");
    let err = stderr(&bataille(&["bmn", "play", "--partial", &long, "-"]));
    assert!(err.contains("301 cards, more than the engine supports (at most 255)"), "{err}");
}

#[test]
fn explore_runs_through_the_harness() {
    let dir = std::env::temp_dir().join(format!("bmn-explore-{}", std::process::id()));
    let run = |extra: &[&str], out: &std::path::Path| {
        let mut args = vec!["bmn", "explore", "--exhaustive", "--out"];
        let out = out.to_str().unwrap().to_string();
        args.push(&out);
        args.extend_from_slice(extra);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_bataille"))
            .args(&args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let out = run(&["--counts", "6,1,1,0,0"], &dir.join("small"));
    // 8 cards, 6 numerals, one J, one Q: 8!/6! = 56 arrangements, each a deal of its own.
    assert!(out.contains("deals:     56\n"), "{out}");
    assert!(out.contains("in all (both players)"), "{out}");
    // That deck is one work unit: it cannot be split in shards.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_bataille"))
        .args(["bmn", "explore", "--counts", "6,1,1,0,0", "--exhaustive", "--shard", "1/2"])
        .arg("--out")
        .arg(dir.join("refused"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("the run has 1 work unit, fewer than 2 shards"), "{err}");
    // Two shards merged give the files of the whole run (a deck of three units).
    run(&["--counts", "6,2,2,1,1"], &dir.join("all"));
    for k in 1..=2 {
        let shard = format!("{k}/2");
        run(&["--counts", "6,2,2,1,1", "--shard", &shard], &dir.join(format!("s{k}")));
    }
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_bataille"))
        .args(["merge"])
        .arg(dir.join("s1"))
        .arg(dir.join("s2"))
        .arg("--out")
        .arg(dir.join("merged"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["summary.csv", "histograms.csv", "records.csv", "cycles.csv"] {
        let a = std::fs::read(dir.join("all").join(f)).unwrap();
        let b = std::fs::read(dir.join("merged").join(f)).unwrap();
        assert_eq!(a, b, "{f}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
