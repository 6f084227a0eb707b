//! Runs the built `bataille` binary as a user would.

use std::fs;
use std::process::Command;

use crate::support::{bataille, stderr, stdout};

#[test]
fn play_article_v5() {
    let o = bataille(&["play", "[5, 3] / [2, 4, 1]", "--trace"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("[5, 3] / [2, 4, 1] →\n[3, 5, 2] / [4, 1] →"), "{out}");
    assert!(out.contains("period:    6 tricks"), "{out}");
}

#[test]
fn bad_input_is_a_usage_error() {
    for args in [
        &["play", "1,2,3"][..],
        &["play", "1,1,2/2,3"],
        &["play", "5,3/2,4,1", "--method", "clever"],
        &["play", "5,3/2,4,1", "--colours", "2"],
        &["play", "5,3/2,4,1", "--seed", "x"],
        &["play", "1/2", "--colours", "0", "--values", "2"],
        &["play", "1/2", "--colours", "4", "--values", "65"],
        &["play", "1,300/2"],
        &["play", "[1,2/3"],
        &["play", "5,3/2,4,1", "--max-tricks", "-1"],
        &["nonsense"],
    ] {
        let o = bataille(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(!stderr(&o).is_empty(), "{args:?}");
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

/// `--max-tricks 0` would stop every game before its first trick: every command that takes
/// the flag refuses it, with the same message, before any work.
#[test]
fn max_tricks_zero_is_refused_everywhere() {
    let dir = std::env::temp_dir().join(format!("bataille-max-tricks-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    for args in [
        &["play", "5,3/2,4,1", "--max-tricks", "0"][..],
        &["play", "5,3/2,4,1", "-m", "random", "--max-tricks", "0"],
        &["explore", "-c", "2", "-v", "3", "--exhaustive", "--max-tricks", "0", "--out", out],
        &["bmn", "play", "--max-tricks", "0", "--partial", "A-/-J"],
        &["bmn", "explore", "--counts", "2,1,1,0,0", "--exhaustive", "--max-tricks", "0"],
    ] {
        let mut args = args.to_vec();
        if args[..2] == ["bmn", "explore"] {
            args.extend(["--out", out]);
        }
        let o = bataille(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert_eq!(stderr(&o), "bataille: error: --max-tricks must be at least 1, got 0\n");
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
        assert!(!dir.exists(), "{args:?} created its output directory");
    }
    // 1 is a cap like any other.
    let o = bataille(&["play", "5,3/2,4,1", "--max-tricks", "1"]);
    assert!(stdout(&o).contains("stopped at the cap of 1 trick\n"), "{}", stdout(&o));
}

#[test]
fn verify_passes_and_claims_page_is_current() {
    let o = bataille(&["verify", "--markdown"]);
    assert!(o.status.success(), "{}", stdout(&o));
    let out = stdout(&o);
    let table = out.split("\n\n").next().unwrap().trim();
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/claims.md"))
            .expect("docs/claims.md");
    let start = page.find("<!-- verify:start -->").expect("start marker") + 21;
    let end = page.find("<!-- verify:end -->").expect("end marker");
    assert_eq!(
        page[start..end].trim(),
        table,
        "the table of docs/claims.md is stale: paste `bataille verify --markdown`"
    );
    assert!(out.contains("0 failed"), "{out}");
}

#[test]
fn verify_filter() {
    let o = bataille(&["verify", "--filter", "c1-v5"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("2 claims checked"), "{}", stdout(&o));
    let o = bataille(&["verify", "--filter", "no-such-entry"]);
    assert_eq!(o.status.code(), Some(2));
    // A filter that names one claim of a committed hunt shows that claim, not the hunt's all;
    // a claim the hunt does not have shows the hunt's claims.
    let o = bataille(&["verify", "--filter", "c4v4-natural-longest"]);
    assert!(stdout(&o).contains("1 claims checked: 1 ok"), "{}", stdout(&o));
    let o = bataille(&["verify", "--filter", "c4v5-natural-ancestors"]);
    assert!(stdout(&o).contains("3 claims checked: 3 ok"), "{}", stdout(&o));
    // ... and a hunt whose state cannot be read fails, whichever of its claims is named.
    let dir = scratch!("verify-filter");
    let hunt = dir.join("results/hunts/c4v4-natural");
    fs::create_dir_all(&hunt).unwrap();
    let committed =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../results/hunts/c4v4-natural/state.txt");
    let mut state = fs::read(committed).unwrap();
    state[200] ^= 1;
    fs::write(hunt.join("state.txt"), state).unwrap();
    let results = dir.join("results");
    let args =
        ["verify", "--results", results.to_str().unwrap(), "--filter", "c4v4-natural-longest"];
    let o = bataille(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("checksum does not match"), "{}", stdout(&o));
    // A records file the user names is not left unread by a filter that excludes it.
    let o = bataille(&["verify", "--filter", "c1-v5", "--records", "no-such-file.csv"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("which --filter \"c1-v5\" leaves out"), "{}", stderr(&o));
    // The record rows alone, from a results directory with no records file: nothing is
    // checked, which is an error, not "0 rows replayed".
    let empty = dir.join("no-records");
    fs::create_dir_all(&empty).unwrap();
    let o = bataille(&["verify", "--filter", "records", "--results", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("no records file"), "{}", stderr(&o));
    assert!(!stdout(&o).contains("replayed"), "{}", stdout(&o));
    // CSV: the catalogue only, no tally and no record rows.
    let o = bataille(&["verify", "--csv", "--filter", "c1-v5"]);
    assert!(o.status.success());
    let mut r = csv::Reader::from_reader(o.stdout.as_slice());
    let ids: Vec<String> = r.records().map(|r| r.unwrap()[0].to_string()).collect();
    assert_eq!(ids, ["c1-v5-cycle", "c1-v5-sequence"]);
    for args in
        [&["verify", "--csv", "--filter", "records"][..], &["verify", "--csv", "--records", "x"]]
    {
        assert_eq!(bataille(args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn play_outcomes_and_options() {
    let check = |args: &[&str], needles: &[&str]| {
        let o = bataille(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        for n in needles {
            assert!(out.contains(n), "{args:?}: missing {n:?} in\n{out}");
        }
    };
    check(&["play", "1,1,2,2/2,2,1,1"], &["outcome:   draw", "tricks:    5"]);
    check(&["play", "1,1,1,2/2,2,1,2", "-m", "natural"], &["the second player wins"]);
    check(&["play", "5,3/2,4,1", "--max-tricks", "3"], &["stopped at the cap of 3 tricks"]);
    check(&["play", "1,2/3", "--partial"], &["partial deck"]);
    check(
        &["play", "4,1/2,3", "--method2", "ascending"],
        &["period:    4 tricks", "aligned:   yes"],
    );
    check(&["play", "5,3/2,4,1", "--colours", "1", "--values", "5"], &["C=1 V=5"]);
    // The random method is reproducible by seed.
    let a = bataille(&["play", "5,3,1,1,2/2,4,5,3,4", "-m", "random", "--seed", "7", "--trace"]);
    let b = bataille(&["play", "5,3,1,1,2/2,4,5,3,4", "-m", "random", "--seed", "7", "--trace"]);
    assert!(a.status.success());
    assert_eq!(stdout(&a), stdout(&b));
}

#[test]
fn scripted_orders_replay_box_3() {
    let o = bataille(&["play", "[4, 1] / [2, 3]", "--orders", "4,2;1,3;4,1;2,3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("come back to the start: a loop of 4 tricks"), "{}", stdout(&o));
    let o = bataille(&["play", "[4, 1] / [2, 3]", "--orders", "4,2;3,3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not an arrangement of the cards won"), "{}", stderr(&o));
}

/// The committed hunts reproduce the C++ explorer's logs; a damaged copy of a state
/// is a failed claim (exit 1), and a directory without the hunts says so without failing.
#[test]
fn verify_reads_the_committed_hunts() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let verify = |dir: &std::path::Path, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_bataille"))
            .arg("verify")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("runs")
    };
    let run = |dir: &std::path::Path| verify(dir, &["--filter", "c4v4-natural-"]);
    // Each committed hunt, read from the repository: C=4 V=4 natural (the explorer's 8,235
    // looping arrangements, the 8,545 looping deals walked back from the four loops), C=4 V=5
    // natural (every deal, no loop, the 453-trick game) and optimized (the explorer's 18,433
    // looping arrangements recomputed from our 19,051 looping deals, which are also those
    // walked back from the loop, the 316-trick game).
    for (filter, claims, line) in [
        ("c4v4-natural-", 4, "c4v4-natural-ancestors  8,545"),
        ("c4v5-natural-", 3, "c4v5-natural-deals    152,770,174,200"),
        ("c4v5-optimized-", 4, "c4v5-optimized-looping    18,433"),
        ("c4v5-optimized-", 4, "c4v5-optimized-ancestors  19,051"),
    ] {
        let o = verify(std::path::Path::new(root), &["--filter", filter]);
        assert!(o.status.success(), "{}", stdout(&o));
        let tally = format!("{claims} claims checked: {claims} ok");
        assert!(stdout(&o).contains(&tally), "{}", stdout(&o));
        assert!(stdout(&o).contains(line), "{}", stdout(&o));
    }
    let o = verify(std::path::Path::new(root), &["--filter", "c4v5-optimized-looping", "--csv"]);
    assert!(stdout(&o).contains("ours: 19,051 looping deals"), "{}", stdout(&o));

    let dir = std::env::temp_dir().join(format!("bataille-verify-hunts-{}", std::process::id()));
    let state = dir.join("results/hunts/c4v4-natural");
    std::fs::create_dir_all(&state).unwrap();
    let o = run(&dir);
    assert!(o.status.success(), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("SKIPPED c4v4-natural: no results/hunts/c4v4-natural/state.txt"), "{out}");
    assert!(
        out.contains("NOT everything was checked: 1 of the committed hunts (4 claims)"),
        "{out}"
    );
    // Run from a directory without results, verify reads those of the checkout it was built
    // from; `--results` names another, which must exist.
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let o = run(&elsewhere);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("4 claims checked: 4 ok"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("SKIPPED"), "{}", stdout(&o));
    let o = verify(&elsewhere, &["--results", "missing", "--filter", "c4v4-natural-"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--results missing: not a directory"));
    let text = std::fs::read_to_string(format!("{root}/results/hunts/c4v4-natural/state.txt"));
    std::fs::write(state.join("state.txt"), text.unwrap().replacen("8545", "8546", 1)).unwrap();
    let o = run(&dir);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("checksum does not match"), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}
