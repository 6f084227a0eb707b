//! `bataille records search`, `extend` and `beam`, and the records checks of `bataille verify`: output files,
//! reproducibility across threads, the records file, loops, refusals of bad input.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{bataille, run_ok, text};

/// A small search into `dir/name`; `extra` adds flags (`--records FILE` to append its rows).
fn search(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let o = search_output(dir, name, extra);
    assert!(o.status.success(), "{}", text(&o));
    dir.join(name)
}

/// The same search, whatever its exit status.
fn search_output(dir: &Path, name: &str, extra: &[&str]) -> Output {
    let out = dir.join(name);
    let mut args = vec![
        "records",
        "search",
        "--colours",
        "4",
        "--values",
        "5",
        "--chains",
        "3",
        "--epoch",
        "500",
        "--seed",
        "9",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    bataille(&args)
}

#[test]
fn same_deals_whatever_the_threads_and_records_replay() {
    let dir = scratch!("threads");
    let records = dir.join("records.csv");
    let r = records.to_str().unwrap();
    let a = search(&dir, "one", &["--iterations", "3001", "--threads", "1", "--records", r]);
    let o = search_output(&dir, "two", &["--iterations", "3001", "--threads", "2", "--records", r]);
    assert!(o.status.success(), "{}", text(&o));
    let b = dir.join("two");
    for f in ["best.csv", "cycles.csv", "state.txt"] {
        assert_eq!(fs::read(a.join(f)).unwrap(), fs::read(b.join(f)).unwrap(), "{f}");
    }
    // Two rows (best by tricks, best by cards) under one header: the second run found the same
    // games, and a game the file holds is not appended twice.
    assert!(text(&o).contains("records:   already in "), "{}", text(&o));
    let csv = fs::read_to_string(&records).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert_eq!(
        lines[0],
        "colours,values,method,measure,tricks,cards,deal,seed,command,commit,machine,date"
    );
    assert!(lines[1].starts_with("4,5,natural,tricks,"), "{}", lines[1]);
    assert!(lines[1].contains("--seed 9 --chains 3 --epoch 500 --iterations 3001"), "{}", lines[1]);
    // The best by tricks is the first row of best.csv, and verify replays every row.
    let best = fs::read_to_string(a.join("best.csv")).unwrap();
    let first = best.lines().nth(1).unwrap();
    let fields: Vec<&str> = first.split(',').collect();
    assert!(lines[1].contains(&format!("tricks,{},{}", fields[2], fields[3])), "{first}");
    let r = records.to_str().unwrap();
    let out = run_ok(&["verify", "--filter", "records", "--records", r]);
    assert!(out.contains("2 record rows replayed: 2 ok, 0 failed"), "{out}");
    // A records file whose last line lost its line end (edited by hand) gets one before the
    // next rows (here the other method's games), not a row glued to its last one.
    let cut = dir.join("cut.csv");
    fs::write(&cut, csv.trim_end()).unwrap();
    let c = cut.to_str().unwrap();
    let more = ["--iterations", "3001", "-m", "optimized", "--records", c];
    search(&dir, "three", &more);
    assert_eq!(fs::read_to_string(&cut).unwrap().lines().count(), 5);
    let out = run_ok(&["verify", "--filter", "records", "--records", c]);
    assert!(out.contains("4 record rows replayed: 4 ok, 0 failed"), "{out}");
    // A stated length that the deal does not give is a failure (exit 1).
    let tampered = dir.join("tampered.csv");
    let row: Vec<&str> = lines[1].splitn(6, ',').collect();
    let bad = format!(
        "{}\n4,5,natural,tricks,{},{}",
        lines[0],
        row[4].parse::<u64>().unwrap() + 1,
        row[5]
    );
    fs::write(&tampered, bad + "\n").unwrap();
    let o = bataille(&["verify", "--filter", "records", "--records", tampered.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("FAILED"), "{}", text(&o));
}

#[test]
fn time_budget_replays_with_the_reported_iterations() {
    let dir = scratch!("time");
    let a = search(&dir, "timed", &["--time", "0.3"]);
    let meta = fs::read_to_string(a.join("metadata.csv")).unwrap();
    let replay = meta.lines().find_map(|l| l.strip_prefix("replay,")).unwrap();
    let iterations = replay.rsplit(' ').next().unwrap();
    let b = search(&dir, "replayed", &["--iterations", iterations]);
    assert_eq!(fs::read(a.join("best.csv")).unwrap(), fs::read(b.join("best.csv")).unwrap());
    assert!(!dir.join("records.csv").exists());
}

#[test]
fn loops_go_to_cycles_csv() {
    let dir = scratch!("loops");
    let out = dir.join("out");
    run_ok(&[
        "records",
        "search",
        "-c",
        "1",
        "-v",
        "5",
        "--iterations",
        "2000",
        "--chains",
        "2",
        "--epoch",
        "100",
        "--out",
        out.to_str().unwrap(),
    ]);
    let cycles = fs::read_to_string(out.join("cycles.csv")).unwrap();
    let rows: Vec<&str> = cycles.lines().skip(1).collect();
    assert!(!rows.is_empty(), "{cycles}");
    for row in rows {
        let deal = row.split_once(",\"").unwrap().1.trim_end_matches('"');
        let played = run_ok(&["play", deal]);
        assert!(played.contains("cycle"), "{deal}: {played}");
    }
}

#[test]
fn checkpoint_and_resume() {
    let dir = scratch!("resume");
    let cp = dir.join("cp.txt");
    let cps = cp.to_str().unwrap();
    let whole = search(&dir, "whole", &["--iterations", "2000"]);
    search(&dir, "part", &["--iterations", "700", "--checkpoint", cps]);
    let resumed = search(&dir, "rest", &["--iterations", "2000", "--checkpoint", cps, "--resume"]);
    assert_eq!(
        fs::read(whole.join("state.txt")).unwrap(),
        fs::read(resumed.join("state.txt")).unwrap()
    );
    // A resume asked for fewer iterations than the checkpoint holds is refused, not given the
    // longer run's answer.
    let o =
        search_output(&dir, "fewer", &["--iterations", "1000", "--checkpoint", cps, "--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("beyond --iterations 1000"), "{}", text(&o));
    // An existing checkpoint is not overwritten without --resume.
    let o = bataille(&[
        "records",
        "search",
        "-c",
        "4",
        "-v",
        "5",
        "--iterations",
        "10",
        "--checkpoint",
        cps,
        "--out",
        dir.join("x").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn bad_flags_are_usage_errors() {
    let dir = scratch!("bad");
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let bad_csv = dir.join("bad.csv");
    fs::write(&bad_csv, "a,b\n1,2\n").unwrap();
    let missing = dir.join("missing.csv");
    for args in [
        &[
            "records",
            "search",
            "-c",
            "4",
            "-v",
            "5",
            "--iterations",
            "10",
            "--measure",
            "speed",
            "--out",
            o,
        ][..],
        &[
            "records",
            "search",
            "-c",
            "4",
            "-v",
            "5",
            "--iterations",
            "10",
            "-m",
            "random",
            "--out",
            o,
        ],
        &["records", "search", "-c", "4", "-v", "5", "--iterations", "0", "--out", o],
        &["records", "search", "-c", "4", "-v", "5", "--time", "-1", "--out", o],
        &[
            "records",
            "search",
            "-c",
            "4",
            "-v",
            "5",
            "--time",
            "1",
            "--iterations",
            "5",
            "--out",
            o,
        ],
        &["records", "search", "-c", "4", "-v", "5", "--out", o],
        &[
            "records",
            "search",
            "-c",
            "4",
            "-v",
            "5",
            "--iterations",
            "10",
            "--chains",
            "0",
            "--out",
            o,
        ],
        &[
            "records",
            "search",
            "-c",
            "4",
            "-v",
            "5",
            "--iterations",
            "10",
            "--epoch",
            "0",
            "--out",
            o,
        ],
        &["records", "search", "-c", "0", "-v", "5", "--iterations", "10", "--out", o],
        &["records", "search", "-c", "1", "-v", "1", "--iterations", "10", "--out", o],
        &["records", "search", "-c", "4", "-v", "5", "--iterations", "10", "--resume", "--out", o],
        &["records", "search", "-c", "4", "-v", "5", "--iterations", "x", "--out", o],
        &["records", "nonsense"],
        &["verify", "--records", bad_csv.to_str().unwrap()],
        &["verify", "--records", missing.to_str().unwrap()],
    ] {
        let r = bataille(args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", text(&r));
        assert!(!text(&r).contains("panicked"), "{args:?}");
    }
}

#[test]
fn extend_appends_replayable_longer_deals() {
    let dir = scratch!("extend");
    let records = dir.join("records.csv");
    let r = records.to_str().unwrap();
    // A C=4 V=6 optimized deal of 504 tricks whose game two deals lead into.
    let deal = "[5, 4, 6, 4, 2, 6, 1, 5, 3, 5, 2, 1] / [4, 3, 1, 1, 2, 3, 2, 6, 4, 6, 5, 3]";
    let out = run_ok(&["records", "extend", deal, "-m", "optimized", "--records", r]);
    assert!(out.contains("504 tricks, 608 cards"), "{out}");
    assert!(out.contains("506 tricks, 610 cards (+2 tricks, +2 cards)"), "{out}");
    let text = fs::read_to_string(&records).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.contains("bataille records extend 5,4,6,4,2,6,1,5,3,5,2,1/"), "{text}");
    // Every row replays.
    let v = run_ok(&["verify", "--filter", "records", "--records", r]);
    assert!(v.contains("ok"), "{v}");
    // A deal no deal leads to: nothing appended.
    let root = "[6, 3, 7, 6, 8, 2, 3, 4, 4, 8, 8, 1, 6, 2, 4, 5] / [5, 6, 2, 3, 5, 5, 7, 1, 1, 4, 7, 3, 2, 1, 8, 7]";
    let out = run_ok(&["records", "extend", root, "-m", "optimized", "--records", r]);
    assert!(out.contains("no deal leads to this position"), "{out}");
    assert_eq!(fs::read_to_string(&records).unwrap(), text);
    // From every fifth position of the game, not only its deal: a longer game than from the
    // deal alone (a deal that joins the game later), appended with its command, replayable.
    let args = ["--whole-game", "--every", "5", "--budget", "3000"];
    let out = run_ok(
        &[&["records", "extend", deal, "-m", "optimized", "--records", r][..], &args].concat(),
    );
    assert!(out.contains("101 positions of the game (every 5 tricks)"), "{out}");
    assert!(out.contains("508 tricks, 612 cards (+4 tricks, +4 cards)"), "{out}");
    let text = fs::read_to_string(&records).unwrap();
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(text.contains("--budget 3000 --whole-game --every 5"), "{text}");
    let v = run_ok(&["verify", "--filter", "records", "--records", r]);
    assert!(v.contains("4 record rows replayed: 4 ok"), "{v}");
    // The cell against the best known game: the C++ explorer's logged 640 tricks.
    assert!(
        v.contains("below             C=4 V=6 optimized: ours 508, best known 640 (logs)"),
        "{v}"
    );
    // --every needs --whole-game, and at least 1: refused before any output.
    let o = bataille(&["records", "extend", deal, "--every", "5"]);
    assert_eq!(o.status.code(), Some(2));
    let o = bataille(&["records", "extend", deal, "--whole-game", "--every", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "{}", String::from_utf8_lossy(&o.stdout));
}

/// From a position that is not a deal (a long game of a position hunt, say), the longest deal
/// found is kept whatever its length against the position's own game, which is no deal's (here
/// 8 tricks against 11); its game joins the position's: they end in the same last position.
#[test]
fn extend_from_a_position_keeps_the_longest_deal() {
    let dir = scratch!("extend-position");
    let records = dir.join("records.csv");
    let r = records.to_str().unwrap();
    let position = "2,1,3,3/1,2,3,1,2,3,1,2";
    let out = run_ok(&[
        "records",
        "extend",
        position,
        "--whole-game",
        "--budget",
        "1000",
        "--records",
        r,
    ]);
    assert!(out.contains("game:      C=4 V=3 natural: 11 tricks"), "{out}");
    let found = out.lines().find(|l| l.starts_with("by tricks:")).expect(&out);
    assert!(found.ends_with(": 8 tricks, 12 cards (the longest deal found)"), "{found}");
    let deal =
        found.trim_start_matches("by tricks: ").split("]: ").next().unwrap().to_string() + "]";
    let last = |p: &str| {
        let trace = run_ok(&["play", p, "--trace"]);
        trace.lines().take_while(|l| !l.starts_with("deal:")).last().unwrap().to_string()
    };
    assert_eq!(last(&deal), last(position), "{deal}");
    let v = run_ok(&["verify", "--filter", "records", "--records", r]);
    assert!(v.contains("2 record rows replayed: 2 ok"), "{v}");
    // From a deal (the longest C=4 V=3 game), a search cut by its budget asks for a longer
    // game, and says it is undecided, not that there is none.
    let deal = "[2, 1, 3, 1, 3, 2] / [2, 3, 3, 1, 1, 2]";
    let out = run_ok(&["records", "extend", deal, "--whole-game", "--budget", "1"]);
    assert!(out.contains("undecided: no longer game found within the budget"), "{out}");
}

#[test]
fn extend_refuses_loops_random_and_bad_deals() {
    for args in [
        &["records", "extend", "[5, 3] / [2, 4, 1]"][..],
        &["records", "extend", "1,2/3,4", "-m", "random"],
        &["records", "extend", "1,2/3,3"],
        &["records", "extend", "1,2/3,4", "--budget", "0"],
        &["cycles", "ancestors", "1,2/3,4", "--budget", "0"],
        &["cycles", "census", "-c", "2", "-v", "2", "--budget", "0", "--out", "never"],
        &["records", "extend", "1,2/3,4", "-m", "sideways"],
    ] {
        let o = bataille(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains("error"), "{args:?}: {}", text(&o));
    }
}

#[test]
fn beam_from_a_game_finds_replayable_deals_and_is_reproducible() {
    let dir = scratch!("beam");
    let records = dir.join("records.csv");
    let r = records.to_str().unwrap();
    // The longest C=4 V=3 game (37 tricks), from 5 tricks before its end: a beam wide enough
    // for the whole tree finds deals that reach that position, the deepest a whole game long.
    let deal = "[2, 1, 3, 1, 3, 2] / [2, 3, 3, 1, 1, 2]";
    let args = ["records", "beam", "--from", deal, "--late", "5", "--width", "100000"];
    let out = run_ok(&[&args[..], &["--records", r]].concat());
    assert!(out.contains("from:      "), "{out}");
    assert!(out.contains("(5 tricks, "), "{out}");
    assert!(out.contains("the whole tree (no layer was cut)"), "{out}");
    let found = out.lines().find(|l| l.starts_with("by tricks:")).expect(&out);
    assert!(found.ends_with(": 37 tricks, 54 cards"), "{found}");
    assert!(out.contains("records:   "), "{out}");
    let v = run_ok(&["verify", "--filter", "records", "--records", r]);
    assert!(v.contains("ok") && !v.contains("FAIL"), "{v}");
    let rows = fs::read_to_string(&records).unwrap();
    assert!(rows.contains("bataille records beam --from "), "{rows}");
    // A narrow beam from terminal positions: the same seed, the same answer.
    let terminal = ["records", "beam", "-c", "4", "-v", "4", "--terminal", "200", "--width", "8"];
    let a = run_ok(&[&terminal[..], &["--seed", "3"]].concat());
    let b = run_ok(&[&terminal[..], &["--seed", "3"]].concat());
    let result =
        |t: &str| t.lines().filter(|l| l.starts_with("by ")).collect::<Vec<_>>().join("\n");
    assert_eq!(result(&a), result(&b));
    assert!(a.contains("400 terminal positions") || a.contains("200 terminal positions"), "{a}");
}

#[test]
fn beam_refuses_bad_bounds_and_starts() {
    for args in [
        &["records", "beam", "--from", "1,2/3,4", "--width", "0"][..],
        &["records", "beam", "--from", "1,2/3,4", "--budget", "0"],
        &["records", "beam", "--from", "1,2/3,4", "--width", "100000000000"],
        &["records", "beam", "--from", "[5, 3] / [2, 4, 1]"],
        &["records", "beam", "--from", "1,2/3,3"],
        &["records", "beam", "--from", "1,2/3,4", "-m", "random"],
        &["records", "beam", "-c", "4", "-v", "4", "--terminal", "0"],
        &["records", "beam", "-c", "4", "-v", "4", "--terminal", "99999999"],
        &["records", "beam", "-c", "4", "-v", "99", "--terminal", "1"],
        &["records", "beam", "--terminal", "3"],
        &["records", "beam"],
        &["records", "beam", "--late", "3"],
    ] {
        let o = bataille(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains("error"), "{args:?}: {}", text(&o));
    }
}

#[test]
fn explore_appends_its_longest_games() {
    let dir = scratch!("explore");
    let records = dir.join("records.csv");
    let r = records.to_str().unwrap();
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    // Every C=4 V=3 deal: the longest game is 37 tricks / 54 cards by both measures.
    let out_text =
        run_ok(&["explore", "-c", "4", "-v", "3", "--exhaustive", "--records", r, "--out", o]);
    assert!(out_text.contains("records:   2 appended to "), "{out_text}");
    let rows = fs::read_to_string(&records).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines.len(), 3, "{rows}");
    assert!(lines[1].starts_with("4,3,natural,tricks,37,54,"), "{rows}");
    // --top 0 keeps no game: said so, nothing appended.
    let none = dir.join("none");
    let c4v3 = ["explore", "-c", "4", "-v", "3", "--exhaustive", "--records", r];
    let t = run_ok(&[&c4v3[..], &["--top", "0", "--out", none.to_str().unwrap()]].concat());
    assert!(t.contains("no game kept to append (--top 0 keeps none)"), "{t}");
    assert_eq!(fs::read_to_string(&records).unwrap(), rows);
    assert!(lines[2].starts_with("4,3,natural,cards,37,54,"), "{rows}");
    // Exhaustive: no seed; the command is the one that was run.
    assert!(lines[1].contains(",-,bataille explore -c 4 -v 3 --exhaustive --records "), "{rows}");
    // Random deals: the seed is recorded, and a second run appends below the first; the
    // command to replay it leaves the checkpoint out.
    let ckpt = dir.join("ckpt.txt");
    let c4v4 = ["explore", "-c", "4", "-v", "4", "-m", "optimized", "--random", "2000"];
    let seeded = [&c4v4[..], &["--seed", "7", "--checkpoint", ckpt.to_str().unwrap()]].concat();
    run_ok(&[&seeded[..], &["--records", r, "--out", o, "--replace"]].concat());
    let rows = fs::read_to_string(&records).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines.len(), 5, "{rows}");
    assert!(lines[3].starts_with("4,4,optimized,tricks,"), "{rows}");
    assert!(lines[3].contains(",7,bataille explore "), "{rows}");
    assert!(!lines[3].contains("ckpt") && !lines[3].contains("--checkpoint"), "{rows}");
    assert!(!lines[3].contains("--replace"), "{rows}");
    // Resuming the finished run (a requeued job) finds the same games: none appended again.
    let again = run_ok(&[&seeded[..], &["--resume", "--records", r, "--out", o]].concat());
    assert!(again.contains("records:   already in "), "{again}");
    assert_eq!(fs::read_to_string(&records).unwrap(), rows);
    let v = run_ok(&["verify", "--filter", "records", "--records", r]);
    assert!(v.contains("4 rows") || v.contains("ok"), "{v}");
    assert!(!v.contains("FAIL"), "{v}");
    // A file an editor saved empty, with only a byte-order mark: the header is written first,
    // and the file reads back.
    let marked = dir.join("marked.csv");
    fs::write(&marked, "\u{feff}").unwrap();
    let m = marked.to_str().unwrap();
    let out2 = dir.join("out2");
    let c4v3 = ["explore", "-c", "4", "-v", "3", "--exhaustive", "--records", m];
    run_ok(&[&c4v3[..], &["--out", out2.to_str().unwrap()]].concat());
    let written = fs::read_to_string(&marked).unwrap();
    assert!(written.starts_with("\u{feff}colours,values,"), "{written}");
    assert_eq!(written.lines().count(), 3, "{written}");
    let v = run_ok(&["verify", "--filter", "records", "--records", m]);
    assert!(v.contains("2 ok") && !v.contains("FAIL"), "{v}");
    // Refused before any work: random methods, a file that is not a records file.
    let bad = dir.join("bad.csv");
    fs::write(&bad, "a,b\n1,2\n").unwrap();
    for args in [
        &["explore", "-c", "4", "-v", "3", "-m", "random", "--random", "10", "--records", r][..],
        &["explore", "-c", "4", "-v", "3", "--exhaustive", "--records", bad.to_str().unwrap()],
    ] {
        let args = [args, &["--out", o][..]].concat();
        let o = bataille(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
    }
    assert_eq!(fs::read_to_string(&records).unwrap(), rows);
}
