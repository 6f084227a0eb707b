//! Hostile input, third pass (issue 56): the solvers' resume files, the census's signals,
//! locked directories, the solver's time report; each reproducer run through the binary.

use std::fs;
use std::time::{Duration, Instant};

use bataille_cycles::census::{CensusSpec, CensusState, Found};
use bataille_engine::{DeckSpec, Method, Position};
use bataille_search::Shard;

use crate::faults::wait_for;
use crate::hostile::{refused, run_ok, s, spawn_quiet, wait_at_most};

/// Sends `signal` to the child `pid`.
fn signal(pid: u32, signal: i32) {
    // SAFETY: kill(2) on the id of a child the test started and has not waited for.
    unsafe { libc::kill(pid as i32, signal) };
}

// 2. The census's deal-counting phase (a walk of each loop's tree, after the units) stops on a
// signal within a second, exit 130, its counts written as lower bounds; the `time:` line
// counts the phase. The state merged is a complete C=4 V=8 census holding two of the loops
// random deals met (48 tricks, 64 cards), whose trees of ancestors take minutes to walk.
#[test]
fn the_census_stops_while_counting_deals() {
    let dir = scratch!("census-counting");
    let spec = CensusSpec::new(DeckSpec::new(4, 8).unwrap(), Method::Natural).unwrap();
    let mut state = CensusState::new(spec, Shard::WHOLE);
    state.done = state.units;
    for deal in [
        "[6, 5, 1, 8, 1, 5, 7, 6, 4, 2, 8, 3, 5, 3, 6, 7] / [4, 2, 3, 6, 8, 2, 4, 2, 7, 7, 1, 3, 5, 4, 8, 1]",
        "[2, 8, 6, 6, 7, 6, 2, 4, 5, 5, 3, 8, 6, 3, 7, 8] / [2, 1, 4, 1, 7, 5, 1, 8, 4, 7, 4, 2, 3, 5, 3, 1]",
    ] {
        let p: Position = deal.parse().unwrap();
        state.found.push(Found::of_loop(&p, spec.methods()).expect("a loop"));
    }
    let merged = dir.join("state.txt");
    fs::write(&merged, state.to_text()).unwrap();
    let out = dir.join("out");
    let census = ["cycles", "census", "-c", "4", "-v", "8", "--threads", "1"];
    let mut child =
        spawn_quiet(&[&census[..], &["--merge", s(&merged), "--out", s(&out)]].concat());
    wait_for(&out.join(".bataille.lock"));
    std::thread::sleep(Duration::from_millis(1500));
    signal(child.id(), libc::SIGTERM);
    let stopped = Instant::now();
    let status = wait_at_most(&mut child, Duration::from_secs(30)).expect("stopped");
    assert!(stopped.elapsed() < Duration::from_secs(2), "{:?}", stopped.elapsed());
    assert_eq!(status.code(), Some(130));
    let cycles = fs::read_to_string(out.join("cycles.csv")).unwrap();
    let row = cycles.lines().nth(1).expect("the loop's row");
    assert!(row.contains(",false,"), "a count cut short is not complete: {row}");
    let metadata = fs::read_to_string(out.join("metadata.csv")).unwrap();
    let elapsed: f64 = metadata
        .lines()
        .find_map(|l| l.strip_prefix("elapsed_s,"))
        .and_then(|v| v.parse().ok())
        .unwrap();
    assert!(elapsed >= 1.0, "the counting phase is timed: {metadata}");
}

/// A result file's rows without the solver's seconds.
fn rows_without_times(path: &std::path::Path) -> Vec<Vec<String>> {
    crate::solve::without_times(&fs::read_to_string(path).unwrap())
}

// 3. A resumed row must be this question's: a question line edited in metadata.csv (a
// restriction removed, natural relabelled optimized, --prime removed) no longer makes
// --resume certify another question's rows; the formula of each kept period is rebuilt and
// its size compared with the row's.
#[test]
fn a_tampered_question_line_is_refused_on_resume() {
    let dir = scratch!("tampered");
    let edit = |out: &std::path::Path, from: &str, to: &str| {
        let path = out.join("metadata.csv");
        let text = fs::read_to_string(&path).unwrap();
        let question = text.lines().find(|l| l.starts_with("question,")).unwrap();
        assert!(question.contains(from), "{question}");
        fs::write(&path, text.replacen(question, &question.replacen(from, to, 1), 1)).unwrap();
    };
    let solve = ["cycles", "solve", "-c", "4", "-v", "3", "--cards", "--max-period", "12"];
    // A restriction removed.
    let out = dir.join("ties");
    run_ok(&[&solve[..], &["--all", "--max-ties", "1", "--out", s(&out)]].concat());
    edit(&out, " with at most 1 tie per trick", "");
    let t = refused(
        &[&solve[..], &["--all", "--out", s(&out), "--resume"]].concat(),
        &["instances.csv", "was solved for a formula of", "another question's"],
    );
    assert!(!t.contains("certified"), "{t}");
    // Natural relabelled optimized.
    let out = dir.join("method");
    run_ok(&[&solve[..], &["--all", "--out", s(&out)]].concat());
    edit(&out, " natural ", " optimized ");
    refused(
        &[&solve[..], &["-m", "optimized", "--all", "--out", s(&out), "--resume"]].concat(),
        &["was solved for a formula of"],
    );
    // The parts of a split period are checked too; untouched, they resume as they are.
    let out = dir.join("split");
    run_ok(&[&solve[..], &["--all", "--split", "--threads", "2", "--out", s(&out)]].concat());
    let o = run_ok(&[&solve[..], &["--all", "--split", "--out", s(&out), "--resume"]].concat());
    assert!(o.contains("nothing left to solve"), "{o}");
    edit(&out, " natural ", " optimized ");
    refused(
        &[&solve[..], &["-m", "optimized", "--all", "--split", "--out", s(&out), "--resume"]]
            .concat(),
        &["parts.csv", "smallest hand", "was solved for a formula of"],
    );
    // --prime removed from an aligned question.
    let aligned = ["aligned", "solve", "--cards", "8", "--max-rounds", "3"];
    let out = dir.join("prime");
    run_ok(&[&aligned[..], &["--prime", "--out", s(&out)]].concat());
    edit(&out, "prime aligned", "aligned");
    refused(
        &[&aligned[..], &["--out", s(&out), "--resume"]].concat(),
        &["rounds was solved for a formula of", "another question's"],
    );
}

// 7. --resume with another question says what differs; a larger bound continues a certified
// run (its periods kept, the files then those of a run to the larger bound); a directory that
// does not exist is named as such.
#[test]
fn resume_names_what_differs_and_extends_to_a_larger_bound() {
    let dir = scratch!("extend");
    let solve = ["cycles", "solve", "-c", "4", "-v", "3", "--cards", "--all"];
    let out = dir.join("to-8");
    run_ok(&[&solve[..], &["--max-period", "8", "--out", s(&out)]].concat());
    let before = fs::read_to_string(out.join("instances.csv")).unwrap();
    let t = refused(
        &[&solve[..], &["--max-period", "8", "--max-ties", "0", "--out", s(&out), "--resume"]]
            .concat(),
        &["holds another question", "it has nothing where this run has \"with no tie in any"],
    );
    assert!(t.contains("--max-period"), "{t}");
    refused(
        &[&solve[..], &["--max-period", "6", "--out", s(&out), "--resume"]].concat(),
        &["it has \"8\" where this run has \"6\""],
    );
    // A larger bound: periods 1 to 8 kept as they are, 9 and 10 solved.
    let o = run_ok(&[&solve[..], &["--max-period", "10", "--out", s(&out), "--resume"]].concat());
    assert!(!o.contains("\n1 cards:") && o.contains("10 cards: complete"), "{o}");
    let after = fs::read_to_string(out.join("instances.csv")).unwrap();
    assert!(after.starts_with(&before), "periods 1 to 8 kept:\n{before}\n{after}");
    let fresh = dir.join("to-10");
    run_ok(&[&solve[..], &["--max-period", "10", "--out", s(&fresh)]].concat());
    assert_eq!(
        rows_without_times(&out.join("instances.csv")),
        rows_without_times(&fresh.join("instances.csv"))
    );
    let question = |d: &std::path::Path| {
        let m = fs::read_to_string(d.join("metadata.csv")).unwrap();
        m.lines().find(|l| l.starts_with("question,")).unwrap().to_string()
    };
    assert_eq!(question(&out), question(&fresh));
    assert_eq!(
        fs::read(out.join("cycles.csv")).unwrap(),
        fs::read(fresh.join("cycles.csv")).unwrap()
    );
    // The same for aligned solve's rounds.
    let aligned = ["aligned", "solve", "--cards", "8"];
    let out = dir.join("rounds");
    run_ok(&[&aligned[..], &["--max-rounds", "2", "--out", s(&out)]].concat());
    run_ok(&[&aligned[..], &["--max-rounds", "3", "--out", s(&out), "--resume"]].concat());
    let fresh = dir.join("rounds-3");
    run_ok(&[&aligned[..], &["--max-rounds", "3", "--out", s(&fresh)]].concat());
    for f in ["instances.csv", "rounds.csv", "blocks.csv"] {
        assert_eq!(rows_without_times(&out.join(f)), rows_without_times(&fresh.join(f)), "{f}");
    }
    // No such directory.
    let missing = dir.join("r5");
    refused(
        &[&solve[..], &["--max-period", "8", "--out", s(&missing), "--resume"]].concat(),
        &["r5 does not exist", "nothing to resume"],
    );
    assert!(!missing.exists());
}

// 4. A checkpoint (or an output) inside a directory that another run holds is refused before
// any work, whatever the command; that run's files are untouched.
#[test]
fn outputs_inside_another_runs_directory_are_refused() {
    let dir = scratch!("held");
    let held = dir.join("A");
    let mut first = spawn_quiet(&[
        "explore",
        "-c",
        "4",
        "-v",
        "8",
        "--random",
        "1000000000",
        "--threads",
        "1",
        "--checkpoint",
        s(&dir.join("ckpt")),
        "--out",
        s(&held),
    ]);
    wait_for(&held.join(".bataille.lock"));
    let pid = format!("pid {}", first.id());
    let inside = held.join("state.txt");
    let census = ["cycles", "census", "-c", "3", "-v", "4", "--threads", "1"];
    refused(
        &[&census[..], &["--out", s(&dir.join("B")), "--checkpoint", s(&inside)]].concat(),
        &["the checkpoint", "inside", "another bataille run", &pid],
    );
    assert!(!inside.exists() && !dir.join("B").exists());
    refused(
        &["explore", "-c", "4", "-v", "4", "--random", "1000", "--out", s(&held.join("sub"))],
        &["the output directory", "inside", &pid],
    );
    refused(
        &["aligned", "blocks", "--cards", "8", "--out", s(&held.join("blocks.csv"))],
        &["the output file", "inside", &pid],
    );
    // A path through `..` is resolved: a directory beside the held one is not inside it.
    let beside = crate::hostile::bin()
        .current_dir(&held)
        .args(["explore", "-c", "4", "-v", "4", "--random", "1000", "--out", "../beside"])
        .output()
        .unwrap();
    assert!(beside.status.success(), "{}", String::from_utf8_lossy(&beside.stderr));
    // A lock file that is a FIFO (or another user's) does not hold a directory, nor hang the run.
    let fifo = dir.join("fifo");
    fs::create_dir_all(&fifo).unwrap();
    let name = std::ffi::CString::new(s(&fifo.join(".bataille.lock"))).unwrap();
    // SAFETY: mkfifo(3) on a NUL-terminated path the test owns.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let out = fifo.join("sub");
    let mut child =
        spawn_quiet(&["explore", "-c", "4", "-v", "4", "--random", "1000", "--out", s(&out)]);
    let status = wait_at_most(&mut child, Duration::from_secs(60)).expect("no hang");
    assert!(status.success());
    first.kill().unwrap();
    first.wait().unwrap();
    // Once that run is gone, its directory is a directory like any other.
    run_ok(&[&census[..], &["--out", s(&dir.join("B")), "--checkpoint", s(&inside)]].concat());
}

// 5. The time limit counts the solver's calls only: a period undecided at it spent the whole
// limit in the solver, the report says what building and loading the formula took besides,
// and a resume at the same limit keeps it instead of trying again.
#[test]
fn the_time_limit_counts_the_solver_and_the_rest_is_reported() {
    let dir = scratch!("limit");
    let out = dir.join("out");
    let question = ["cycles", "solve", "-c", "4", "-v", "4", "--cards", "--period", "26"];
    let o = run_ok(&[&question[..], &["--time-limit", "0.5", "--out", s(&out)]].concat());
    // (Undecided in 0.5 s on any machine so far; a faster one may decide it.)
    if o.contains("26 cards: UNDECIDED") {
        assert!(o.contains("building the formula") && o.contains("loading it"), "{o}");
        let instances = fs::read_to_string(out.join("instances.csv")).unwrap();
        let row = instances.lines().nth(1).unwrap();
        let solve_s: f64 = row.split(',').nth(7).unwrap().parse().unwrap();
        assert!(solve_s >= 0.5, "the whole limit in the solver: {row}");
        let again = [&question[..], &["--time-limit", "0.5", "--out", s(&out), "--resume"]];
        let o = run_ok(&again.concat());
        assert!(o.contains("nothing left to solve"), "{o}");
    }
}

// 3b. A split period cut short after a part that found loops: the parts solved again on resume
// block only their own loops, so they are the formulas a run without a stop solves, and the
// next resume keeps them (C=1 V=5: two loops turning 6 cards, both in the part of smallest hand
// 2). A row whose formula hash is emptied is refused rather than left unchecked.
#[test]
fn a_split_period_cut_after_a_part_with_loops_resumes_and_is_kept() {
    let dir = scratch!("split-loops");
    let solve = ["cycles", "solve", "-c", "1", "-v", "5", "--cards", "--max-period", "10"];
    let flags = ["--all", "--split", "--threads", "1"];
    let fresh = dir.join("fresh");
    run_ok(&[&solve[..], &flags[..], &["--out", s(&fresh)]].concat());
    // What a kill right after part (6 cards, smallest hand 2) leaves.
    let cut = dir.join("cut");
    fs::create_dir_all(&cut).unwrap();
    for f in ["metadata.csv", "cycles.csv"] {
        fs::copy(fresh.join(f), cut.join(f)).unwrap();
    }
    let keep = |f: &str, row: &dyn Fn(&[&str]) -> bool| {
        let text = fs::read_to_string(fresh.join(f)).unwrap();
        let mut lines = text.lines();
        let mut out = format!("{}\n", lines.next().unwrap());
        for l in lines.filter(|l| row(&l.split(',').collect::<Vec<_>>())) {
            out += &format!("{l}\n");
        }
        fs::write(cut.join(f), out).unwrap();
    };
    let n = |x: &str| x.parse::<u32>().unwrap();
    keep("instances.csv", &|r| n(r[0]) < 6);
    keep("parts.csv", &|r| n(r[0]) < 6 || (n(r[0]) == 6 && n(r[1]) == 2));
    assert!(fs::read_to_string(cut.join("parts.csv")).unwrap().contains("\n6,2,false,complete,2,"));
    run_ok(&[&solve[..], &flags[..], &["--out", s(&cut), "--resume"]].concat());
    for f in ["instances.csv", "parts.csv"] {
        assert_eq!(rows_without_times(&cut.join(f)), rows_without_times(&fresh.join(f)), "{f}");
    }
    let o = run_ok(&[&solve[..], &flags[..], &["--out", s(&cut), "--resume"]].concat());
    assert!(o.contains("nothing left to solve"), "{o}");
    // The formula hash of a part emptied, with the question line edited: refused.
    let text = fs::read_to_string(cut.join("parts.csv")).unwrap();
    let sha = text.lines().nth(1).unwrap().split(',').nth(13).unwrap().to_string();
    fs::write(cut.join("parts.csv"), text.replacen(&sha, "", 1)).unwrap();
    refused(
        &[&solve[..], &flags[..], &["--out", s(&cut), "--resume"]].concat(),
        &["parts.csv", "has no cnf_sha256"],
    );
}

// 8. A question of deals concludes about loops through a deal, not about every loop.
#[test]
fn the_conclusion_of_a_question_of_deals_says_so() {
    let dir = scratch!("deals");
    let o = run_ok(&[
        "cycles",
        "solve",
        "-c",
        "1",
        "-v",
        "5",
        "--cards",
        "--deals",
        "--max-period",
        "6",
        "--all",
        "--out",
        s(&dir.join("out")),
    ]);
    assert!(
        o.contains("certified: every loop through a deal whose turn takes 1 to 6 cards per player"),
        "{o}"
    );
}

// Smaller points: `cycles ancestors` and `records extend --whole-game` stopped by a signal
// report what they found so far, within a second, and exit 130.
#[test]
fn backward_walks_stop_on_a_signal_and_report() {
    // A position on one of the C=4 V=8 loops random deals met: its tree takes minutes.
    let spec = CensusSpec::new(DeckSpec::new(4, 8).unwrap(), Method::Natural).unwrap();
    let deal: Position = "[6, 5, 1, 8, 1, 5, 7, 6, 4, 2, 8, 3, 5, 3, 6, 7] / [4, 2, 3, 6, 8, 2, 4, 2, 7, 7, 1, 3, 5, 4, 8, 1]"
        .parse()
        .unwrap();
    let on_loop = Found::of_loop(&deal, spec.methods()).unwrap().position().to_string();
    // The best optimized 52-card deal known: 5958 tricks, each position searched backwards.
    let record = "[3, 10, 12, 13, 2, 13, 6, 4, 2, 9, 4, 7, 1, 8, 9, 3, 4, 3, 5, 2, 1, 5, 7, 11, 1, 3] / [11, 5, 9, 2, 1, 13, 10, 5, 6, 11, 7, 13, 8, 9, 10, 4, 12, 11, 7, 8, 6, 6, 8, 12, 12, 10]";
    let runs: [(&[&str], &str); 2] = [
        (
            &["cycles", "ancestors", &on_loop, "-c", "4", "-v", "8"],
            "INCOMPLETE: stopped by the request",
        ),
        (
            &[
                "records",
                "extend",
                record,
                "-m",
                "optimized",
                "--whole-game",
                "--budget",
                "1000000",
            ],
            "STOPPED by the request",
        ),
    ];
    for (args, said) in runs {
        let mut child = crate::hostile::bin()
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        signal(child.id(), libc::SIGTERM);
        let stopped = Instant::now();
        let status = wait_at_most(&mut child, Duration::from_secs(30)).expect("stopped");
        assert!(stopped.elapsed() < Duration::from_secs(2), "{args:?}: {:?}", stopped.elapsed());
        assert_eq!(status.code(), Some(130), "{args:?}");
        let mut out = String::new();
        std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
        assert!(out.contains(said), "{args:?}: {out}");
    }
}
