//! Hostile input and faults, second pass (issue 28): each reproducer of the issue, run through
//! the binary. Concurrent runs, full standard output, late refusals, overwrites, unbounded input,
//! and the smaller messages.

use std::fs;
use std::io::Read as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::hostile::{
    bataille, bin, refused, run_ok, s, snapshot, spawn_quiet, wait_at_most, within,
};
use crate::support::{stderr, stdout, text};

/// Waits until `path` exists (a run has started and locked its outputs).
pub(crate) fn wait_for(path: &std::path::Path) {
    let started = Instant::now();
    while !path.exists() {
        assert!(started.elapsed() < Duration::from_secs(30), "no {} after 30 s", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until process `pid` has used `cpu` of CPU time (user and system, from
/// `/proc/PID/stat`), at most 120 s of wall time.
fn wait_for_cpu(pid: u32, cpu: Duration) {
    let started = Instant::now();
    let ticks = 100.0; // USER_HZ on Linux
    loop {
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // Fields after the command name (which is in parentheses), from the state: utime and
        // stime are the 12th and 13th of them.
        let rest = stat.rsplit_once(')').map_or("", |r| r.1);
        let f: Vec<&str> = rest.split_whitespace().collect();
        let field = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
        let used = (field(11) + field(12)) / ticks;
        if used >= cpu.as_secs_f64() {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{used} s of CPU after 120 s");
        std::thread::sleep(Duration::from_millis(50));
    }
}

// 1. Two runs on one output directory, or one checkpoint: the second is refused before any
// work, with the first one's pid; a killed run's lock does not outlive it.
#[test]
fn a_second_run_on_the_same_outputs_is_refused_with_the_first_ones_pid() {
    let dir = scratch!("locks");
    let (out, ckpt) = (dir.join("out"), dir.join("ckpt"));
    let mut first = spawn_quiet(
        &[
            &["explore", "-c", "4", "-v", "8", "--random", "100000000", "--threads", "1"][..],
            &["--checkpoint", s(&ckpt), "--out", s(&out)],
        ]
        .concat(),
    );
    wait_for(&out.join(".bataille.lock"));
    let pid = format!("pid {}", first.id());
    let started = Instant::now();
    let small = ["explore", "-c", "4", "-v", "4", "--random", "3000", "--threads", "1"];
    refused(&[&small[..], &["--out", s(&out), "--replace"]].concat(), &["in use", &pid]);
    let other = dir.join("other");
    refused(&[&small[..], &["--checkpoint", s(&ckpt), "--out", s(&other)]].concat(), &[&pid]);
    assert!(!other.exists(), "refused before anything is written");
    assert!(started.elapsed() < Duration::from_secs(10), "refused before any work");
    // SIGKILL: the lock goes with the process.
    first.kill().unwrap();
    first.wait().unwrap();
    run_ok(&[&small[..], &["--out", s(&out), "--replace"]].concat());

    // The race: many runs started at once on one directory. One writes it; every
    // other is refused (in use, or not empty), and the files are all that one's.
    let mix = dir.join("mix");
    let children: Vec<_> =
        (1..=6)
            .map(|seed| {
                let seed = seed.to_string();
                spawn_quiet(&[
                &["explore", "-c", "4", "-v", "4", "--random", "30000", "--threads", "1"][..],
                &["--seed", &seed, "--out", s(&mix)],
            ]
            .concat())
            })
            .collect();
    let codes: Vec<i32> = children
        .into_iter()
        .map(|mut c| wait_at_most(&mut c, Duration::from_secs(60)).unwrap().code().unwrap())
        .collect();
    assert_eq!(codes.iter().filter(|&&c| c == 0).count(), 1, "{codes:?}");
    assert!(codes.iter().all(|&c| c == 0 || c == 2), "{codes:?}");
    let winner = codes.iter().position(|&c| c == 0).unwrap() + 1;
    let metadata = fs::read_to_string(mix.join("metadata.csv")).unwrap();
    assert!(metadata.contains(&format!("--seed {winner} ")), "{metadata}");
    let state = fs::read_to_string(mix.join("state.txt")).unwrap();
    assert!(state.contains(&format!("\nseed {winner}\n")), "{state}");
}

// 2. A records file with a random-method row: refused by line, never a panic.
#[test]
fn a_records_row_with_the_random_method_is_refused_by_line() {
    let dir = scratch!("random-row");
    let records = dir.join("r.csv");
    let committed = concat!(env!("CARGO_MANIFEST_DIR"), "/../../results/records.csv");
    let header = fs::read_to_string(committed).unwrap().lines().next().unwrap().to_string();
    assert!(header.starts_with("colours,values,method,measure,"), "{header}");
    let row = "4,3,random,tricks,5,20,\"[1, 2, 3, 1, 2, 3] / [1, 2, 3, 1, 2, 3]\",-,c,x,m,d";
    fs::write(&records, format!("{header}\n{row}\n")).unwrap();
    let needles = ["line 2", "records are for deterministic methods"];
    refused(&["verify", "--filter", "records", "--records", s(&records)], &needles);
    let out = dir.join("out");
    refused(
        &[
            "explore",
            "-c",
            "2",
            "-v",
            "3",
            "--exhaustive",
            "--records",
            s(&records),
            "--out",
            s(&out),
        ],
        &needles,
    );
    assert!(!out.exists(), "refused before any work");
}

// 3. A full standard output is an error (exit 2, one line); a closed pipe stays quiet.
#[test]
fn a_full_standard_output_is_a_clear_error() {
    let dir = scratch!("dev-full");
    let cases: Vec<Vec<String>> = vec![
        vec!["play".into(), "5,3/2,4,1".into()],
        vec!["verify".into(), "--filter".into(), "c4-v2".into()],
        vec!["takeaway".into(), "solve".into(), "nim".into(), "1".into(), "2".into()],
        vec!["bmn".into(), "verify".into()],
        vec!["construct".into(), "spivey".into(), "-v".into(), "4".into()],
        vec![
            "explore".into(),
            "-c".into(),
            "4".into(),
            "-v".into(),
            "3".into(),
            "--exhaustive".into(),
            "--out".into(),
            s(&dir.join("e")).into(),
        ],
    ];
    for args in &cases {
        let full = fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let mut child = bin().args(args).stdout(full).stderr(Stdio::piped()).spawn().unwrap();
        let status = wait_at_most(&mut child, Duration::from_secs(60)).expect("ends");
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        assert_eq!(status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("cannot write to standard output"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    // A closed pipe: the quiet end of a Unix filter (killed by SIGPIPE, 141 in the shell). The
    // table is 9 MB, more than a pipe holds, so the writer meets the closed pipe.
    let script = format!(
        "\"{}\" takeaway table positions nim --max 100 --rows 3 | head -n 1 >/dev/null; \
         echo ${{PIPESTATUS[0]}}",
        env!("CARGO_BIN_EXE_bataille")
    );
    let o = within(Command::new("bash").args(["-c", &script]), Duration::from_secs(60));
    assert_eq!(stdout(&o).trim(), "141", "{}", text(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", text(&o));
}

// 4. Brute force of a take-away game: sized and refused before any memory is taken.
#[test]
fn takeaway_brute_force_is_refused_before_the_work() {
    let started = Instant::now();
    refused(
        &["takeaway", "solve", "nim", "100000000", "3", "--brute-force"],
        &["--brute-force", "positions", "more than its limit"],
    );
    refused(
        &["takeaway", "solve", "subtraction", "1000000000", "--max-take", "3", "--brute-force"],
        &["--brute-force", "more than its limit"],
    );
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

// 5. `takeaway play` reads lines with a bound and quotes them short.
#[test]
fn takeaway_play_reads_bounded_lines() {
    let zero = fs::File::open("/dev/zero").unwrap();
    let o = within(
        bin().args(["takeaway", "play", "nim", "1", "2", "3"]).stdin(zero),
        Duration::from_secs(20),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("longer than 4096 bytes") && err.len() < 300, "{err}");
    // A 10 MB line of text: the same, not echoed.
    let mut child = bin()
        .args(["takeaway", "play", "nim", "1", "2", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write as _;
        let _ = stdin.write_all(&vec![b'7'; 10 << 20]);
    });
    let status = wait_at_most(&mut child, Duration::from_secs(20)).expect("ends");
    let _ = writer.join();
    let mut out = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(out.len() + err.len() < 2_000, "{} bytes echoed", out.len() + err.len());
}

// 6. Playing backwards: the budget bounds the work even where one position has a huge number of
// predecessors, and a budget whose queue could not fit in memory is refused.
#[test]
fn records_extend_is_bounded_by_its_budget() {
    // A 256-card C=2 V=128 position whose second hand ends with a sorted pile of 49 tied pairs
    // (optimized stacking): 48! orders of ties, every one a predecessor.
    let mut count = [2u8; 129];
    let mut pile = vec![60u8];
    for v in (2..=50).rev() {
        pile.extend([v, v]);
    }
    pile.push(1);
    for &c in &pile {
        count[usize::from(c)] -= 1;
    }
    let rest: Vec<u8> =
        (1..=128u8).rev().flat_map(|v| vec![v; usize::from(count[usize::from(v)])]).collect();
    let (a, b) = rest.split_at(rest.len() / 2);
    let hand = |h: &[u8]| h.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let position = format!("{}/{},{}", hand(a), hand(b), hand(&pile));
    let started = Instant::now();
    let out = run_ok(&[
        "records",
        "extend",
        &position,
        "-m",
        "optimized",
        "--max-ties",
        "32",
        "--budget",
        "200000",
    ]);
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    assert!(out.contains("200000 positions before it"), "{out}");
    assert!(out.contains("stopped at the budget of 200000 positions"), "{out}");
    // The start is a position, not a deal: what is sought is a deal before it.
    assert!(out.contains("undecided: no deal found within the budget"), "{out}");
    refused(
        &["records", "extend", &position, "-m", "optimized", "--budget", "100000000"],
        &["--budget 100000000 on 256 cards", "GiB", "lower --budget"],
    );
}

// 7. Stopping a huge deck takes well under a second, and keeps the deals played.
#[test]
fn sigterm_stops_random_deals_of_the_largest_deck_at_once() {
    let dir = scratch!("sigterm-255");
    let (ckpt, out) = (dir.join("ckpt"), dir.join("out"));
    let mut child = spawn_quiet(
        &[
            &["explore", "-c", "1", "-v", "255", "--random", "100000000", "--threads", "2"][..],
            &["--no-estimate-limit", "--checkpoint", s(&ckpt), "--out", s(&out)],
        ]
        .concat(),
    );
    wait_for(&out.join(".bataille.lock"));
    // Units done: the child has had 6 s of CPU, several units of 64 deals (about 0.5 s of CPU
    // each in the test build on a quiet machine; with every core busy, 3 s once left none
    // done); counted by the kernel, so a busy machine only makes the test wait longer.
    wait_for_cpu(child.id(), Duration::from_secs(6));
    // SAFETY: kill(2) on the id of a child this test started and has not waited for.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let stopped = Instant::now();
    let status = wait_at_most(&mut child, Duration::from_secs(20)).expect("stopped");
    assert!(stopped.elapsed() < Duration::from_secs(2), "{:?}", stopped.elapsed());
    assert_eq!(status.code(), Some(130));
    let summary = fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.contains("complete,false"), "{summary}");
    let deals = summary.lines().find_map(|l| l.strip_prefix("deals,")).unwrap();
    assert!(deals.parse::<u64>().unwrap() > 0, "{summary}");
}

// 7b. A signal sent twice at once, as `timeout -s TERM` sends it (to the command, then to its
// process group), is one request: the solver stops cleanly and the directory resumes.
#[test]
fn a_signal_sent_twice_at_once_is_one_request() {
    let dir = scratch!("sigterm-twice");
    let out = dir.join("out");
    let question = ["cycles", "solve", "-c", "4", "-v", "4", "--cards", "--period", "26"];
    let mut child = spawn_quiet(&[&question[..], &["--out", s(&out)]].concat());
    // The question's files are written before the first period is solved.
    wait_for(&out.join("metadata.csv"));
    wait_for_cpu(child.id(), Duration::from_millis(300));
    for _ in 0..2 {
        // SAFETY: kill(2) on the id of a child this test started and has not waited for.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        std::thread::sleep(Duration::from_millis(5));
    }
    let status = wait_at_most(&mut child, Duration::from_secs(30)).expect("stopped");
    assert_eq!(status.code(), Some(130));
    let instances = fs::read_to_string(out.join("instances.csv")).unwrap();
    assert!(instances.contains("\n26,false,stopped,"), "{instances}");
    let o = run_ok(&[&question[..], &["--resume", "--time-limit", "1", "--out", s(&out)]].concat());
    // (Undecided again in 1 s on any machine so far; a faster one may decide it.) A period cut
    // by its time limit is written `undecided`, not `stopped`.
    assert!(o.contains("26 cards: UNDECIDED") || o.contains("26 cards: complete"), "{o}");
    let instances = fs::read_to_string(out.join("instances.csv")).unwrap();
    if o.contains("26 cards: UNDECIDED") {
        assert!(instances.contains("\n26,false,undecided,"), "{instances}");
        assert!(o.contains("undecided: 26 cards and beyond (raise --time-limit"), "{o}");
    }
}

// 8. Estimates by time, whatever the count.
#[test]
fn long_runs_are_estimated_by_time() {
    let dir = scratch!("estimates");
    let out = dir.join("out");
    refused(
        &["explore", "-c", "1", "-v", "255", "--random", "1000000000", "--out", s(&out)],
        &["estimate:", "days", "more than the limit of 30 days"],
    );
    let recipe = concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/durations-c1.recipe");
    refused(
        &["experiment", "run", recipe, "--deals", "18446744073709551615", "--results", s(&out)],
        &["estimate:", "years", "more than the limit of 30 days"],
    );
    assert!(!out.exists(), "refused before any work");
}

// 9. Every output path is checked, created and locked before the first deal.
#[test]
fn output_paths_are_refused_before_the_work() {
    let dir = scratch!("late");
    let same = dir.join("cx");
    let started = Instant::now();
    refused(
        &["explore", "-c", "4", "-v", "5", "--exhaustive", "--no-estimate-limit"]
            .into_iter()
            .chain(["--checkpoint", s(&same), "--out", s(&same)])
            .collect::<Vec<_>>(),
        &["checkpoint", "output directory"],
    );
    let recipe = concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/durations-c1.recipe");
    refused(&["experiment", "run", recipe, "--results", "/proc/x"], &["/proc/x"]);
    refused(&["aligned", "blocks", "--cards", "12", "--out", "/proc/x/b.csv"], &["/proc/x"]);
    refused(&["construct", "c1-positions", "-v", "2..9", "--csv", "/proc/x/c.csv"], &["/proc/x"]);
    refused(&["cycles", "ancestors", "3,1/2,3,1,2", "--deals", "/proc/x/d.csv"], &["/proc/x"]);
    // A listing that exists is replaced only on request.
    let listing = scratch!("listing").join("d.csv");
    fs::write(&listing, "precious\n").unwrap();
    let ancestors = ["cycles", "ancestors", "5,3/2,4,1", "--deals", s(&listing)];
    refused(&ancestors, &["already exists", "--replace"]);
    assert_eq!(fs::read_to_string(&listing).unwrap(), "precious\n");
    run_ok(&[&ancestors[..], &["--replace"]].concat());
    assert!(fs::read_to_string(&listing).unwrap().starts_with("cycle_id,deal,"));
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
}

// 10, 11. `experiment run`: results replaced whole or not at all, and only with --replace.
#[test]
fn experiment_results_are_replaced_whole_and_only_when_asked() {
    let dir = scratch!("experiment-replace");
    let results = dir.join("results");
    let recipe = concat!(env!("CARGO_MANIFEST_DIR"), "/../../experiments/durations-c1.recipe");
    let args = ["experiment", "run", recipe, "--deals", "200", "--threads", "1"];
    let with = |extra: &[&str]| -> Vec<String> {
        args.iter()
            .chain(["--results", s(&results)].iter())
            .chain(extra)
            .map(|a| a.to_string())
            .collect()
    };
    let strs = |v: &[String]| v.iter().map(String::to_string).collect::<Vec<_>>();
    let first = strs(&with(&[]));
    run_ok(&first.iter().map(String::as_str).collect::<Vec<_>>());
    let table = results.join("durations-c1");
    let before = snapshot(&table);
    assert!(
        before.iter().any(|(n, _)| n.ends_with(".svg")),
        "{:?}",
        before.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    refused(&first.iter().map(String::as_str).collect::<Vec<_>>(), &["--replace"]);
    assert_eq!(snapshot(&table), before);
    // A disk that fills (a 1 KB file size limit): the old set stays whole, nothing half-written.
    let again = with(&["--replace", "--seed", "9"]).join("' '");
    let script = format!("ulimit -f 1; trap '' XFSZ; exec \"$0\" '{again}'");
    let o = within(
        Command::new("bash").args(["-c", &script, env!("CARGO_BIN_EXE_bataille")]),
        Duration::from_secs(120),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(snapshot(&table), before, "the old results stay whole");
    let left: Vec<_> = fs::read_dir(&results).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("durations-c1")], "no staging left");
    // `records search` appends to a records file only when one is named.
    let cwd = dir.join("repo");
    fs::create_dir_all(cwd.join("results")).unwrap();
    fs::write(cwd.join("results/records.csv"), "").unwrap();
    let o = within(
        bin()
            .args(["records", "search", "-c", "4", "-v", "3", "--iterations", "200"])
            .args(["--out", "search"])
            .current_dir(&cwd),
        Duration::from_secs(60),
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(fs::read_to_string(cwd.join("results/records.csv")).unwrap(), "");
}

// 13. The smaller ones.
#[test]
fn smaller_refusals_and_messages() {
    let dir = scratch!("smaller");
    let recipe = dir.join("r.recipe");
    fs::write(&recipe, "table = durations\ncolours = 1\nvalues = 3,,4\nmethods = natural\n")
        .unwrap();
    refused(&["experiment", "run", s(&recipe)], &["line 3"]);
    let o = bataille(&["construct", "aligned", "-v", "4..1000"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(stdout(&o).is_empty(), "nothing printed before the refusal: {}", stdout(&o));
    refused(&["construct", "aligned", "-v", "0"], &["at least 1"]);
    refused(&["bmn", "play", "--partial", "", ""], &["both hands are empty"]);
    // One of -c and -v given: the deal is checked against the deck they make, not one
    // inferred from its cards.
    refused(&["cycles", "ancestors", "[1, 2] / [3, 9]", "-v", "4"], &["not a C=1 V=4 deck"]);
    refused(&["play", "[1, 1, 2] / [2, 3, 3]", "-v", "2"], &["not a C=3 V=2 deck"]);
    run_ok(&["play", "[1, 1, 2] / [2, 3, 3]", "-c", "2"]);
    // A scripted game that ends says how, in words.
    let t = run_ok(&["play", "1,1,1/1", "--partial", "--orders", "1,1,1,1"]);
    assert!(t.contains("trick 1 (the first player wins: the second has no card"), "{t}");
    // --replace leaves a file it did not write.
    let out = dir.join("out");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("loops.csv"), "my own notes\n").unwrap();
    run_ok(&["explore", "-c", "4", "-v", "3", "--exhaustive", "--out", s(&out), "--replace"]);
    assert_eq!(fs::read_to_string(out.join("loops.csv")).unwrap(), "my own notes\n");
    // Shards: a finished one says so; more shards than units is refused.
    let part = dir.join("part");
    let t = run_ok(&[
        "explore",
        "-c",
        "3",
        "-v",
        "4",
        "--exhaustive",
        "--shard",
        "1/2",
        "--out",
        s(&part),
    ]);
    assert!(t.contains("shard 1/2 complete") && !t.contains("(incomplete)"), "{t}");
    refused(
        &[
            "explore",
            "-c",
            "2",
            "-v",
            "2",
            "--exhaustive",
            "--shard",
            "2/1000000",
            "--out",
            s(&dir.join("x")),
        ],
        &["1 work unit,", "fewer than 1000000 shards"],
    );
    // Negative numbers reach the flag's own check.
    let t = refused(
        &["records", "search", "-c", "4", "-v", "3", "--time", "-1", "--out", s(&dir.join("y"))],
        &["expected a positive number of seconds, got -1"],
    );
    assert!(!t.contains("-- -1"), "{t}");
    // One trick, one comma too many, numbers too large.
    let t = run_ok(&["play", "[2] / [1]", "--orders", "2,1"]);
    assert!(t.contains("after 1 trick the position"), "{t}");
    refused(&["play", "1,2,/3,3"], &["a card is missing after the last comma in hand \"1,2,\""]);
    let t =
        refused(&["takeaway", "solve", "matches", "18446744073709551615"], &["at most 4294967295"]);
    assert!(!t.contains("conversion"), "{t}");
    let t = refused(
        &["takeaway", "table", "positions", "nim", "--rows", "1000"],
        &["--rows must be 1 to 8"],
    );
    assert!(!t.contains("inf"), "{t}");
    // A checkpoint of another command, and one with CRLF line ends.
    let (ckpt, e) = (dir.join("e.ckpt"), dir.join("e"));
    let random = ["-c", "4", "-v", "3", "--random", "100000", "--checkpoint", s(&ckpt)];
    let o = bataille(&[&["explore"][..], &random, &["--max-units", "1", "--out", s(&e)]].concat());
    assert_eq!(o.status.code(), Some(130), "{}", text(&o));
    refused(
        &[&["hunt"][..], &random, &["--resume", "--out", s(&dir.join("h"))]].concat(),
        &["this is an explore checkpoint"],
    );
    let crlf = fs::read_to_string(&ckpt).unwrap().replace('\n', "\r\n");
    fs::write(&ckpt, crlf).unwrap();
    run_ok(&[&["explore"][..], &random, &["--resume", "--out", s(&e)]].concat());
}
