//! `bataille hunt` as a user runs it: `loops.csv` lists every looping deal (each replayed with
//! `bataille play`), resume and shards + merge give the same files, the cap is reported, and
//! the random stacking method is refused; `bataille cycles hunt` lists looping positions.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use crate::hostile::spawn_quiet;
use crate::support::{assert_same_files, bataille, run_ok, summary_value, text};

const RESULTS: [&str; 6] =
    ["summary.csv", "histograms.csv", "records.csv", "cycles.csv", "loops.csv", "state.txt"];

fn rows(path: &Path) -> Vec<csv::StringRecord> {
    csv::Reader::from_path(path).unwrap().records().map(Result::unwrap).collect()
}

#[test]
fn loops_csv_lists_every_looping_deal() {
    let dir = scratch!("c1v7");
    let out = dir.join("out");
    let o = run_ok(&["hunt", "-c", "1", "-v", "7", "--exhaustive", "--out", out.to_str().unwrap()]);
    assert!(o.contains("looping deals kept: "), "{o}");
    let loops = rows(&out.join("loops.csv"));
    assert_eq!(loops.len().to_string(), summary_value(&out, "looping_deals"));
    assert_eq!(summary_value(&out, "loop_deals_truncated"), "false");
    let header = fs::read_to_string(out.join("loops.csv")).unwrap();
    assert!(header.starts_with("cycle_id,deal,tail_tricks\n"), "{header}");
    // Every cycle of cycles.csv has its deals, none else; deals are distinct.
    let cycles: BTreeSet<String> =
        rows(&out.join("cycles.csv")).iter().map(|r| r[0].to_string()).collect();
    let listed: BTreeSet<String> = loops.iter().map(|r| r[0].to_string()).collect();
    assert_eq!(cycles, listed);
    let deals: BTreeSet<&str> = loops.iter().map(|r| &r[1]).collect();
    assert_eq!(deals.len(), loops.len());
    // A few rows replayed by `bataille play`: same loop, same tail.
    for r in loops.iter().step_by(97) {
        let o = run_ok(&["play", &r[1]]);
        assert!(o.contains(&format!("cycle id:  {}", &r[0])), "{o}");
        assert!(o.contains(&format!("tail:      {} tricks", &r[2])), "{o}");
    }
}

/// `cycles hunt` prints positions, not deals, and every position it lists loops: into the one
/// loop of C=4 V=3 that the committed census holds, with the tail `play` gives.
#[test]
fn position_hunts_list_looping_positions_of_every_split() {
    let dir = scratch!("positions");
    let out = dir.join("out");
    let args = ["cycles", "hunt", "-c", "4", "-v", "3", "--random", "20000", "--seed", "1"];
    let o = run_ok(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(o.contains("positions: 20000\n"), "{o}");
    assert!(o.contains("looping positions kept: ") && o.contains(" positions/s on "), "{o}");
    assert!(!o.contains("deal"), "{o}");
    let census =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../results/cycles/c4v3-natural/cycles.csv");
    let census: BTreeSet<String> =
        rows(Path::new(census)).iter().map(|r| r[0].to_string()).collect();
    let loops = rows(&out.join("loops.csv"));
    assert!(!loops.is_empty());
    let found: BTreeSet<String> = loops.iter().map(|r| r[0].to_string()).collect();
    assert_eq!(found, census);
    let lengths: BTreeSet<usize> =
        loops.iter().map(|r| r[1].split('/').next().unwrap().matches(',').count() + 1).collect();
    assert!(lengths.len() > 3, "positions of several splits: {lengths:?}");
    for r in loops.iter().step_by(37) {
        let o = run_ok(&["play", &r[1]]);
        assert!(o.contains(&format!("cycle id:  {}", &r[0])), "{o}");
        assert!(o.contains(&format!("tail:      {} tricks", &r[2])), "{o}");
    }
}

#[test]
fn resumed_and_merged_hunts_equal_one_run() {
    let dir = scratch!("resume");
    // Seven work units of random deals, about 20 of them looping (exhaustive resume and
    // shards are tested on the library; the smallest decks with loops fit in one unit).
    let common = ["-c", "4", "-v", "4", "--random", "100000", "--seed", "3", "--threads", "2"];
    let whole = dir.join("whole");
    let mut a = vec!["hunt", "--out", whole.to_str().unwrap()];
    a.extend(common);
    run_ok(&a);
    assert!(!rows(&whole.join("loops.csv")).is_empty(), "the test needs loops");
    // Interrupted, then resumed.
    let (ckpt, out) = (dir.join("run.ckpt"), dir.join("out"));
    let (ckpt_s, out_s) = (ckpt.to_str().unwrap(), out.to_str().unwrap());
    let mut a = vec!["hunt", "--out", out_s, "--checkpoint", ckpt_s, "--max-units", "1"];
    a.extend(common);
    assert_eq!(bataille(&a).status.code(), Some(130));
    let mut a = vec!["hunt", "--out", out_s, "--checkpoint", ckpt_s, "--resume"];
    a.extend(common);
    run_ok(&a);
    assert_same_files(&whole, &out, &RESULTS);
    // Shards, merged.
    let parts: Vec<String> =
        (1..=3).map(|k| dir.join(format!("part{k}")).to_str().unwrap().to_string()).collect();
    for (k, p) in parts.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        let mut a = vec!["hunt", "--out", p, "--shard", &shard];
        a.extend(common);
        run_ok(&a);
    }
    let merged = dir.join("merged");
    let mut a = vec!["merge", "--out", merged.to_str().unwrap()];
    a.extend(parts.iter().rev().map(String::as_str));
    run_ok(&a);
    assert_same_files(&whole, &merged, &RESULTS);
    // An explore checkpoint does not resume a hunt.
    let ex = dir.join("explore.ckpt");
    let explored = dir.join("explored");
    let mut a =
        vec!["explore", "--out", explored.to_str().unwrap(), "--checkpoint", ex.to_str().unwrap()];
    a.extend(["--max-units", "1"]);
    a.extend(common);
    assert_eq!(bataille(&a).status.code(), Some(130));
    let mut a = vec!["hunt", "--out", out_s, "--checkpoint", ex.to_str().unwrap(), "--resume"];
    a.extend(common);
    let o = bataille(&a);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("this is an explore checkpoint"), "{}", text(&o));
}

#[test]
fn the_cap_is_reported() {
    let dir = scratch!("cap");
    let out = dir.join("out");
    let o = run_ok(&[
        "hunt",
        "-c",
        "1",
        "-v",
        "7",
        "--exhaustive",
        "--keep",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.contains("TRUNCATED"), "{o}");
    assert_eq!(summary_value(&out, "loop_deals_truncated"), "true");
    assert_eq!(summary_value(&out, "loop_deals_cap"), "5");
    let loops = rows(&out.join("loops.csv"));
    let cycles = rows(&out.join("cycles.csv"));
    for c in &cycles {
        let n = loops.iter().filter(|r| r[0] == c[0]).count();
        assert_eq!(n, c[3].parse::<usize>().unwrap().min(5), "{}", &c[0]);
    }
}

#[test]
fn bad_input_is_refused() {
    let dir = scratch!("bad");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let check = |args: &[&str], needle: &str| {
        let mut a = vec!["hunt", "--out", out];
        a.extend(args);
        let o = bataille(&a);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(needle), "{args:?}: {}", text(&o));
    };
    let random = "a repeated position is not a loop";
    check(&["-c", "4", "-v", "3", "-m", "random", "--exhaustive"], random);
    check(&["-c", "4", "-v", "3", "--method2", "random", "--random", "10"], random);
    check(&["-c", "4", "-v", "3", "--exhaustive", "--keep", "0"], "--keep must be at least 1");
    check(&["-c", "4", "-v", "3", "-m", "sideways", "--exhaustive"], "unknown stacking method");
    check(&["-c", "0", "-v", "3", "--exhaustive"], "");
}

/// A run killed with SIGKILL, with no chance to save anything, resumes from its last
/// checkpoint and ends with exactly the files of an uninterrupted run.
#[test]
fn killed_run_resumes_from_its_last_checkpoint() {
    use std::time::{Duration, Instant};
    let dir = scratch!("killed");
    let (full, cut, ck) = (dir.join("full"), dir.join("cut"), dir.join("run.ckpt"));
    let args = ["hunt", "-c", "2", "-v", "6", "--exhaustive", "--threads", "1"];
    let (cut_s, ck_s) = (cut.to_str().unwrap(), ck.to_str().unwrap());
    let mut child = spawn_quiet(
        &[&args[..], &["--checkpoint", ck_s, "--checkpoint-every", "1", "--out", cut_s]].concat(),
    );
    // Killed as soon as its first checkpoint is there (std's `kill` is SIGKILL on Unix).
    let started = Instant::now();
    while !ck.exists() {
        assert!(child.try_wait().unwrap().is_none(), "the run ended before its first checkpoint");
        assert!(started.elapsed() < Duration::from_secs(120), "no checkpoint after 2 minutes");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    run_ok(&[&args[..], &["--checkpoint", ck_s, "--resume", "--out", cut_s]].concat());
    run_ok(&[&args[..], &["--out", full.to_str().unwrap()]].concat());
    assert_same_files(&full, &cut, &RESULTS);
    // The resumed run played only what the checkpoint had not.
    let deals = |d: &Path| {
        let m = fs::read_to_string(d.join("metadata.csv")).unwrap();
        let line = m.lines().find(|l| l.starts_with("deals_played,")).unwrap().to_string();
        line["deals_played,".len()..].parse::<u64>().unwrap()
    };
    assert!(deals(&cut) < deals(&full), "{} of {}", deals(&cut), deals(&full));
}

/// A census out of reach (more than 30 days even at a rate faster than any measured) is refused
/// before anything is written, whole or in a shard, unless --no-estimate-limit is given.
#[test]
fn a_census_out_of_reach_is_refused() {
    let dir = scratch!("census-out-of-reach");
    let out = dir.join("out");
    for extra in [&[][..], &["--shard", "1/1000", "--threads", "2"]] {
        let args = [&["cycles", "census", "-c", "4", "-v", "13"][..], extra].concat();
        let o = bataille(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains("positions left: even at"), "{}", text(&o));
        assert!(text(&o).contains("--no-estimate-limit"), "{}", text(&o));
        assert!(!out.exists());
    }
    // A deck within reach starts as before (C=4 V=3 takes a moment).
    run_ok(&["cycles", "census", "-c", "4", "-v", "3", "--out", out.to_str().unwrap()]);
}

/// `cycles census --dry-run` and `aligned blocks --dry-run` price a shard on a sample of its
/// units and write nothing; a shard that cannot be is refused as the run would be.
#[test]
fn census_and_blocks_dry_runs_price_a_shard_and_write_nothing() {
    let dir = scratch!("units-dry-run");
    let out = dir.join("out");
    let out_s = out.to_str().unwrap();
    let census = ["cycles", "census", "-c", "4", "-v", "4", "--threads", "2", "--out", out_s];
    let blocks = ["aligned", "blocks", "--cards", "12", "--threads", "2", "--out", out_s];
    for (run, units) in [(&census[..], 131_072), (&blocks[..], 122)] {
        let o = run_ok(&[run, &["--shard", "2/4", "--dry-run"]].concat());
        let cost =
            o.lines().find_map(|l| l.strip_prefix("cost: ")).unwrap_or_else(|| panic!("{o}"));
        assert!(cost.starts_with(&format!("units={units} seconds=")), "{o}");
        assert!(cost.contains(" threads=2 ") && cost.ends_with(" cut=0"), "{o}");
        assert!(o.contains("run:       4 shards: about "), "{o}");
        assert!(!out.exists(), "a dry run wrote {}", out.display());
        let o = bataille(&[run, &["--shard", "1/1000000", "--dry-run"]].concat());
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains("fewer than 1000000 shards"), "{}", text(&o));
    }
}

/// `cycles census` in shards, merged: the files of one run; the merge refuses to write over
/// one of its own inputs, and a budget whose walk could not fit in memory is refused.
#[test]
fn census_shards_merge_into_the_whole_run() {
    let dir = scratch!("census");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let c4v3 = ["cycles", "census", "-c", "4", "-v", "3"];
    run_ok(&[&c4v3[..], &["--out", &path("whole")]].concat());
    for k in 1..=2 {
        run_ok(
            &[&c4v3[..], &["--shard", &format!("{k}/2"), "--out", &path(&format!("s{k}"))]]
                .concat(),
        );
    }
    let states = [path("s1/state.txt"), path("s2/state.txt")];
    let merge = |out: &str, extra: &[&str]| {
        bataille(&[&c4v3[..], &["--merge", &states[0], &states[1], "--out", out], extra].concat())
    };
    let o = merge(&path("merged"), &[]);
    assert!(o.status.success(), "{}", text(&o));
    for f in ["cycles.csv", "summary.csv", "state.txt"] {
        assert_eq!(
            fs::read(dir.join("whole").join(f)).unwrap(),
            fs::read(dir.join("merged").join(f)).unwrap(),
            "{f}"
        );
    }
    let before = fs::read(dir.join("s1/state.txt")).unwrap();
    let o = merge(&path("s1"), &["--replace"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("would be overwritten by the results"), "{}", text(&o));
    assert_eq!(fs::read(dir.join("s1/state.txt")).unwrap(), before);
    let o =
        bataille(&[&c4v3[..], &["--budget", "18446744073709551615", "--out", &path("b")]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("lower --budget"), "{}", text(&o));
}

/// A part whose kept longest game was edited (a deal of another deck) and sealed again is
/// refused by `merge`: it would have gone to records.csv.
#[test]
fn a_forged_longest_game_is_not_merged() {
    let dir = scratch!("forged");
    let part = dir.join("part");
    run_ok(&["explore", "-c", "4", "-v", "3", "--random", "2000", "--out", part.to_str().unwrap()]);
    let state = fs::read_to_string(part.join("state.txt")).unwrap();
    let body = bataille_search::sealed::open(&state, "bataille-search state 1").unwrap();
    let forged: Vec<String> = body
        .lines()
        .map(|l| {
            if l.starts_with("record tricks ") {
                let mut f: Vec<&str> = l.split(' ').collect();
                let last = f.len() - 1;
                f[last] = "9,9,9,9,9,9,9,9,9,9,9,9";
                f.join(" ")
            } else {
                l.to_string()
            }
        })
        .collect();
    fs::write(part.join("state.txt"), bataille_search::sealed::seal(&(forged.join("\n") + "\n")))
        .unwrap();
    let merged = dir.join("merged");
    let o = bataille(&["merge", part.to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("not one of"), "{}", text(&o));
    assert!(!merged.exists());
    // An explore part and a hunt part: named for what they are.
    let (hunted, explored) = (dir.join("hunted"), dir.join("explored"));
    let small = ["-c", "4", "-v", "3", "--random", "2000", "--out"];
    run_ok(&[&["hunt"][..], &small, &[hunted.to_str().unwrap()]].concat());
    run_ok(&[&["explore"][..], &small, &[explored.to_str().unwrap()]].concat());
    let (h, e, m) =
        (hunted.to_str().unwrap(), explored.to_str().unwrap(), merged.to_str().unwrap());
    let o = bataille(&["merge", e, h, "--out", m]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("one is an explore run, another a hunt"), "{}", text(&o));
}
