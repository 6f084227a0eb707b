//! `bataille explore` and `bataille merge` as a user runs them: output files, reproducibility
//! across threads, shards + merge, interruption + resume, and refusals of bad input.

use std::fs;
use std::path::PathBuf;

use crate::support::{assert_same_files, bataille, run_ok, summary_value, text};

const RESULTS: [&str; 5] =
    ["summary.csv", "histograms.csv", "records.csv", "cycles.csv", "state.txt"];

#[test]
fn exhaustive_c4_v3_writes_the_tables() {
    let dir = scratch!("c4v3");
    let out = dir.join("out");
    let o =
        run_ok(&["explore", "-c", "4", "-v", "3", "--exhaustive", "--out", out.to_str().unwrap()]);
    assert!(o.contains("deals:     17370"), "{o}");
    let summary = fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.starts_with("key,value\ngame,bataille C=4 V=3 natural\n"), "{summary}");
    assert!(summary.contains("\ndeals,17370\n") && summary.contains("\ncomplete,true\n"));
    let cycles = fs::read_to_string(out.join("cycles.csv")).unwrap();
    assert!(cycles.starts_with("cycle_id,period_tricks,period_cards,deals,example_deal,"));
    let meta = fs::read_to_string(out.join("metadata.csv")).unwrap();
    assert!(meta.contains("\nthreads,") && meta.contains("\nelapsed_s,"), "{meta}");
    // The command as typed, without this machine's paths: the output directory lies outside
    // the working directory of the test.
    assert!(
        meta.starts_with(
            "key,value\ncommand,bataille explore -c 4 -v 3 --exhaustive --out '<outside>/out'\n"
        ),
        "{meta}"
    );
}

#[test]
fn same_files_whatever_the_threads() {
    let dir = scratch!("threads");
    for (name, args) in [
        ("random", &["-c", "4", "-v", "5", "--random", "40000", "--seed", "7"][..]),
        ("exhaustive", &["-c", "2", "-v", "5", "--exhaustive", "-m", "optimized"][..]),
    ] {
        let outs: Vec<PathBuf> = [1, 2, 3]
            .iter()
            .map(|t| {
                let out = dir.join(format!("{name}-{t}"));
                let t = t.to_string();
                let mut a = vec!["explore", "--threads", &t, "--out", out.to_str().unwrap()];
                a.extend(args);
                run_ok(&a);
                out
            })
            .collect();
        assert_same_files(&outs[0], &outs[1], &RESULTS);
        assert_same_files(&outs[0], &outs[2], &RESULTS);
    }
}

#[test]
fn merged_shards_equal_one_run() {
    let dir = scratch!("shards");
    let common = ["-c", "4", "-v", "5", "--random", "60000", "--seed", "3", "-m", "natural"];
    let whole = dir.join("whole");
    let mut a = vec!["explore", "--out", whole.to_str().unwrap()];
    a.extend(common);
    run_ok(&a);
    let parts: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("part{k}"))).collect();
    for (k, p) in parts.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        let mut a = vec!["explore", "--shard", &shard, "--out", p.to_str().unwrap()];
        a.extend(common);
        run_ok(&a);
    }
    let merged = dir.join("merged");
    let (p1, p2, p3) =
        (parts[0].to_str().unwrap(), parts[1].to_str().unwrap(), parts[2].to_str().unwrap());
    run_ok(&["merge", p3, p1, p2, "--out", merged.to_str().unwrap()]);
    assert_same_files(&whole, &merged, &RESULTS);
    // Two of three parts: refused, naming the missing shard; merged with --partial, and
    // flagged incomplete.
    let partial = dir.join("partial");
    let o = bataille(&["merge", p1, p2, "--out", partial.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("shard 3 of 3 is missing or unfinished"), "{}", text(&o));
    assert!(!partial.exists());
    let o = run_ok(&["merge", p1, p2, "--partial", "--out", partial.to_str().unwrap()]);
    assert!(o.contains("partial:   shard 3 of 3 is missing"), "{o}");
    // The same part twice is refused.
    let o = bataille(&["merge", p1, p1, "--out", dir.join("twice").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("given twice"), "{}", text(&o));
    // A part as the output, even with --replace, is refused: the merge would replace it.
    let before = fs::read(parts[0].join("state.txt")).unwrap();
    let o = bataille(&["merge", p1, p2, p3, "--out", p1, "--replace"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("is one of the parts to merge"), "{}", text(&o));
    assert_eq!(fs::read(parts[0].join("state.txt")).unwrap(), before);
}

#[test]
fn interrupted_then_resumed_equals_one_run() {
    let dir = scratch!("resume");
    let common = ["-c", "4", "-v", "4", "--random", "70000", "--seed", "11", "--threads", "2"];
    let whole = dir.join("whole");
    let mut a = vec!["explore", "--out", whole.to_str().unwrap()];
    a.extend(common);
    run_ok(&a);
    let ckpt = dir.join("run.ckpt");
    let out = dir.join("out");
    let (ckpt_s, out_s) = (ckpt.to_str().unwrap(), out.to_str().unwrap());
    let mut a = vec!["explore", "--out", out_s, "--checkpoint", ckpt_s, "--max-units", "2"];
    a.extend(common);
    let o = bataille(&a);
    assert_eq!(o.status.code(), Some(130), "{}", text(&o));
    assert!(text(&o).contains("--resume"), "{}", text(&o));
    // Without --resume an existing checkpoint is not overwritten.
    let o = bataille(&a);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let mut a = vec!["explore", "--out", out_s, "--checkpoint", ckpt_s, "--resume"];
    a.extend(common);
    run_ok(&a);
    assert_same_files(&whole, &out, &RESULTS);
    // A checkpoint of another run, or a damaged one, is refused.
    let mut other =
        vec!["explore", "--out", out_s, "--checkpoint", ckpt_s, "--resume", "--seed", "12"];
    other.extend(&common[..6]);
    let o = bataille(&other);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("seed is \"11\" in the checkpoint"), "{}", text(&o));
    let saved = fs::read_to_string(&ckpt).unwrap();
    fs::write(&ckpt, saved.replacen("counts ", "counts 9", 1)).unwrap();
    let o = bataille(&a);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("checksum"), "{}", text(&o));
}

#[test]
fn bad_input_is_refused() {
    let dir = scratch!("bad");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let check = |args: &[&str], needle: &str| {
        let o = bataille(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(needle), "{args:?}: {}", text(&o));
        assert!(!text(&o).contains("panicked"), "{args:?}");
    };
    check(
        &["explore", "-c", "4", "-v", "3", "--exhaustive", "--shard", "0/3", "--out", out],
        "invalid shard \"0/3\"",
    );
    check(
        &["explore", "-c", "4", "-v", "3", "--exhaustive", "--shard", "x", "--out", out],
        "invalid shard",
    );
    check(&["explore", "-c", "4", "-v", "3", "--random", "0", "--out", out], "at least 1 deal");
    check(
        &["explore", "-c", "4", "-v", "3", "--exhaustive", "--random", "5", "--out", out],
        "cannot be used with",
    );
    check(&["explore", "-c", "4", "-v", "3", "--out", out], "required");
    check(
        &["explore", "-c", "4", "-v", "13", "--exhaustive", "--out", out],
        "more than 2^64 arrangements",
    );
    check(&["explore", "-c", "0", "-v", "3", "--exhaustive", "--out", out], "colours");
    check(
        &["explore", "-c", "4", "-v", "3", "-m", "clever", "--exhaustive", "--out", out],
        "unknown stacking method",
    );
    check(
        &["explore", "-c", "4", "-v", "3", "--exhaustive", "--resume", "--out", out],
        "--checkpoint",
    );
    check(&["merge", dir.to_str().unwrap(), "--out", out], "state.txt");
    check(
        &["explore", "-c", "4", "-v", "3", "--exhaustive", "--max-cycles", "0", "--out", out],
        "--max-cycles",
    );
    let ckpt = dir.join("no-such-dir").join("x.ckpt");
    let ckpt = ckpt.to_str().unwrap();
    check(
        &["explore", "-c", "2", "-v", "2", "--exhaustive", "--checkpoint", ckpt, "--out", out],
        "does not exist",
    );
}

#[test]
fn max_cycles_keeps_a_sample_and_estimates_the_rest() {
    let dir = scratch!("max-cycles");
    let common = ["-c", "1", "-v", "9", "--random", "40000", "--seed", "5"];
    let all = dir.join("all");
    let mut a = vec!["explore", "--out", all.to_str().unwrap()];
    a.extend(common);
    run_ok(&a);
    let distinct: usize = summary_value(&all, "distinct_cycles").parse().unwrap();
    assert!(distinct > 8, "the test needs more distinct cycles: {distinct}");
    let capped = dir.join("capped");
    let mut a = vec!["explore", "--max-cycles", "4", "--out", capped.to_str().unwrap()];
    a.extend(common);
    let o = run_ok(&a);
    assert!(o.contains("distinct cycles (estimated; the 4 of smallest rank are kept"), "{o}");
    let looping = summary_value(&all, "looping_deals");
    assert!(looping.parse::<u64>().unwrap() > 0, "{looping}");
    assert_eq!(summary_value(&capped, "looping_deals"), looping);
    assert_eq!(summary_value(&capped, "distinct_cycles"), "");
    assert_eq!(summary_value(&capped, "cycles_kept"), "4");
    assert_eq!(summary_value(&capped, "cycles_dropped"), "true");
    let estimate: f64 = summary_value(&capped, "distinct_cycles_estimate").parse().unwrap();
    assert!(estimate > 0.0);
    for key in ["shortest_tail_tricks", "shortest_tail_deal", "tricks_mean"] {
        assert_eq!(summary_value(&capped, key), summary_value(&all, key), "{key}");
    }
    // The kept rows are rows of the full list, unchanged.
    let full = fs::read_to_string(all.join("cycles.csv")).unwrap();
    let kept = fs::read_to_string(capped.join("cycles.csv")).unwrap();
    assert_eq!(kept.lines().count(), 5, "{kept}");
    for row in kept.lines() {
        assert!(full.lines().any(|l| l == row), "{row}");
    }
    // Shards merged, and a resume with another cap refused.
    let parts: Vec<PathBuf> = (1..=2).map(|k| dir.join(format!("part{k}"))).collect();
    for (k, p) in parts.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        let mut a =
            vec!["explore", "--max-cycles", "4", "--shard", &shard, "--out", p.to_str().unwrap()];
        a.extend(common);
        run_ok(&a);
    }
    let merged = dir.join("merged");
    let (p1, p2) = (parts[0].to_str().unwrap(), parts[1].to_str().unwrap());
    run_ok(&["merge", p2, p1, "--out", merged.to_str().unwrap()]);
    assert_same_files(&capped, &merged, &RESULTS);
    let ckpt = dir.join("run.ckpt");
    let ckpt = ckpt.to_str().unwrap();
    let out = dir.join("out");
    let mut a = vec!["explore", "--out", out.to_str().unwrap(), "--checkpoint", ckpt];
    a.extend(["--max-cycles", "4", "--max-units", "1"]);
    a.extend(common);
    assert_eq!(bataille(&a).status.code(), Some(130));
    let mut a = vec!["explore", "--out", out.to_str().unwrap(), "--checkpoint", ckpt];
    a.extend(["--resume", "--max-cycles", "5"]);
    a.extend(common);
    let o = bataille(&a);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("cycles kept (--max-cycles) is \"4\""), "{}", text(&o));
}

/// `--dry-run` measures the run on a sample of its own units and writes nothing: the whole
/// small run is its sample (its time is then the sample's), a large one is priced from it, and
/// the `cost:` line a script reads holds what the human lines say.
#[test]
fn a_dry_run_prices_the_run_and_writes_nothing() {
    let dir = scratch!("dry-run");
    let out = dir.join("out");
    let o = run_ok(&[
        "explore",
        "-c",
        "4",
        "-v",
        "3",
        "--exhaustive",
        "--dry-run",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.contains("sample:    1 of the shard's 1 units, 17370 deals"), "{o}");
    assert!(!out.exists(), "a dry run created its output directory");
    let cost = o.lines().find_map(|l| l.strip_prefix("cost: ")).expect("a cost line");
    let value = |key: &str| -> f64 {
        let word = cost.split(' ').find_map(|w| w.strip_prefix(&format!("{key}="))).unwrap();
        word.parse().unwrap()
    };
    assert_eq!((value("units"), value("deals")), (1.0, 17370.0), "{cost}");
    assert!(value("memory_bytes") > 0.0 && value("output_bytes") > 1000.0, "{cost}");
    // 10^10 random 52-card deals in 1,000 shards: shard 1 has 611 units of 16,384 deals,
    // and is priced from the few it played.
    let o = run_ok(&[
        "explore",
        "-c",
        "4",
        "-v",
        "13",
        "--random",
        "10000000000",
        "--shard",
        "1/1000",
        "--threads",
        "1",
        "--dry-run",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.contains("of the shard's 611 units"), "{o}");
    assert!(o.contains("run:       1000 shards"), "{o}");
    let cost = o.lines().find_map(|l| l.strip_prefix("cost: ")).unwrap();
    let seconds: f64 = cost
        .split(' ')
        .find_map(|w| w.strip_prefix("seconds="))
        .and_then(|s| s.parse().ok())
        .unwrap();
    // At least a microsecond a deal on any machine, far less than a second.
    assert!(seconds > 1e7 * 1e-6 && seconds < 1e7, "{cost}");
    assert!(!out.exists());
}
