//! Hostile input and faults (issues 18 and 56): every reproducer of the issues, run through
//! the binary. No panic, no hang, no silent wrong answer, no lost result: each case ends
//! quickly with the right answer or a refusal (exit 2) that names the offending value.

use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::text;

pub(crate) fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bataille"))
}

/// The binary started in the background with `args`, its output thrown away.
pub(crate) fn spawn_quiet(args: &[&str]) -> Child {
    bin().args(args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap()
}

pub(crate) fn bataille(args: &[&str]) -> Output {
    within(bin().args(args), Duration::from_secs(60))
}

/// Runs `cmd`, killed (and the test failed) if it runs longer than `limit`.
pub(crate) fn within(cmd: &mut Command, limit: Duration) -> Output {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("runs");
    let status = wait_at_most(&mut child, limit)
        .unwrap_or_else(|| panic!("{cmd:?} still runs after {limit:?}"));
    let mut out = Output { status, stdout: Vec::new(), stderr: Vec::new() };
    child.stdout.take().unwrap().read_to_end(&mut out.stdout).unwrap();
    child.stderr.take().unwrap().read_to_end(&mut out.stderr).unwrap();
    out
}

/// The exit status of `child` within `limit`, or `None` (the child killed) when it runs on.
/// Its output must be small (the pipes are read at the end).
pub(crate) fn wait_at_most(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Asserts a refusal: exit 2, no panic, and every `needles` in the message.
pub(crate) fn refused(args: &[&str], needles: &[&str]) -> String {
    let o = bataille(args);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {t}");
    assert!(!t.contains("panicked"), "{args:?}: {t}");
    for n in needles {
        assert!(t.contains(n), "{args:?}: expected {n:?} in: {t}");
    }
    t
}

pub(crate) fn run_ok(args: &[&str]) -> String {
    let o = bataille(args);
    assert!(o.status.success(), "{args:?}: {}", text(&o));
    text(&o)
}

pub(crate) fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The files of a directory, with their bytes.
pub(crate) fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), fs::read(e.path()).unwrap()))
        .collect();
    v.sort();
    v
}

// 1. Arithmetic on user-given sizes.
#[test]
fn subtraction_game_with_the_largest_take_is_a_win() {
    let max = u64::MAX.to_string();
    let o = run_ok(&["takeaway", "solve", "subtraction", &max, "--max-take", &max]);
    assert!(o.contains("N: the player to move wins"), "{o}");
    assert!(o.contains(&format!("take {max} ({max} -> 0)")), "{o}");
    assert!(o.contains("period 18446744073709551616"), "{o}");
}

// 2. A log-scale plot of a mean of 0.
#[test]
fn experiment_with_a_mean_of_zero_ends() {
    let dir = scratch!("mean-zero");
    let recipe = dir.join("zero.recipe");
    fs::write(
        &recipe,
        "table = durations\ncolours = 1\nvalues = 1\nmethods = natural\ndeals = 10\nseed = 1\n\
         conventions = end\n",
    )
    .unwrap();
    let results = dir.join("r");
    let args = ["experiment", "run", s(&recipe), "--threads", "1", "--deals", "200"];
    let o = within(bin().args(args).args(["--results", s(&results)]), Duration::from_secs(30));
    assert!(o.status.success(), "{}", text(&o));
    assert!(fs::read_to_string(results.join("zero/means.svg")).unwrap().contains("<svg"));
}

// 3, 4, 5, 6, 7. Sizes checked before anything is allocated or started.
#[test]
fn sizes_beyond_their_limits_are_refused_before_any_work() {
    let dir = scratch!("sizes");
    let out = dir.join("out");
    let o = s(&out);
    let search = ["records", "search", "-c", "4", "-v", "3", "--out", o];
    refused(&[&search[..], &["--time", "1e20"]].concat(), &["--time", "1e20", "limit"]);
    refused(&[&search[..], &["--time", "NaN"]].concat(), &["--time"]);
    refused(
        &[&search[..], &["--iterations", "10", "--chains", "4294967295"]].concat(),
        &["4294967295 chains", "limit of 1048576"],
    );
    for k in ["18446744073709551615", "1000000000"] {
        refused(&["aligned", "repeat", "-k", k, "1,2/2,1"], &["--times", k, "at most --times 64"]);
    }
    for top in ["18446744073709551615", "100000000"] {
        refused(
            &["explore", "-c", "4", "-v", "3", "--exhaustive", "--top", top, "--out", o],
            &["--top", top, "limit of 10000"],
        );
    }
    for args in [
        &["explore", "-c", "4", "-v", "3", "--exhaustive", "--out", o][..],
        &["hunt", "-c", "4", "-v", "3", "--exhaustive", "--out", o],
        &["records", "search", "-c", "4", "-v", "3", "--iterations", "9", "--out", o],
        &["experiment", "run", "durations-c1"],
    ] {
        refused(&[args, &["--threads", "100000"]].concat(), &["100000 threads", "limit"]);
    }
    // A checkpoint that cannot be written is found before the run, not at its first save.
    refused(
        &["explore", "-c", "4", "-v", "3", "--exhaustive", "--checkpoint", "/proc/ck", "--out", o],
        &["cannot write the checkpoint /proc/ck.tmp"],
    );
    assert!(!out.exists(), "a refusal writes nothing");
    // A checkpoint in the output directory under the name of one of the results would be
    // replaced by them at the end (or at a stop), and could not be resumed.
    let own = out.with_extension("own");
    fs::create_dir_all(&own).unwrap();
    let o = s(&own);
    for (args, name) in [
        (&["cycles", "hunt", "-c", "4", "-v", "3", "--random", "1000"][..], "cycles.csv"),
        (&["cycles", "census", "-c", "4", "-v", "3"], "state.txt"),
        (&["explore", "-c", "4", "-v", "3", "--random", "1000"], "summary.csv"),
    ] {
        let ckpt = own.join(name);
        refused(
            &[args, &["--checkpoint", s(&ckpt), "--out", o]].concat(),
            &["--checkpoint", "would be overwritten by the results"],
        );
        assert!(!ckpt.exists(), "a refusal writes nothing");
    }
    // The lock file of the directory is removed at the end: no checkpoint there either.
    let lock = own.join(".bataille.lock");
    let explore = ["explore", "-c", "4", "-v", "3", "--random", "1000"];
    refused(
        &[&explore[..], &["--checkpoint", s(&lock), "--out", o]].concat(),
        &["--checkpoint", "would be overwritten"],
    );
    // Files are replaced by a rename: a link (or a device) given as a file is refused, not
    // replaced.
    let target = own.join("target.csv");
    let link = own.join("link.csv");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    refused(
        &["construct", "c1-positions", "--values", "3", "--csv", s(&link)],
        &["not a regular file"],
    );
    let elsewhere = out.with_extension("elsewhere");
    refused(
        &["explore", "-c", "4", "-v", "3", "--random", "1000", "--checkpoint", s(&link)]
            .into_iter()
            .chain(["--out", s(&elsewhere)])
            .collect::<Vec<_>>(),
        &["checkpoint", "not a regular file"],
    );
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink() && !target.exists());
    // One file for the records and the checkpoint: refused before the run, however spelled.
    let both = own.join("both.csv");
    let spelled = format!("{}/./both.csv", s(&own));
    refused(
        &["explore", "-c", "4", "-v", "3", "--exhaustive", "--records", s(&both)]
            .into_iter()
            .chain(["--checkpoint", &spelled, "--out", s(&elsewhere)])
            .collect::<Vec<_>>(),
        &["is the checkpoint or a file written beside it"],
    );
    refused(
        &["records", "search", "-c", "4", "-v", "3", "--iterations", "9", "--records", s(&both)]
            .into_iter()
            .chain(["--checkpoint", &spelled, "--out", s(&elsewhere)])
            .collect::<Vec<_>>(),
        &["is the checkpoint or a file written beside it"],
    );
    assert!(!both.exists() && !elsewhere.exists(), "a refusal writes nothing");
    // A single output file's checkpoint: not a link, not the file's temporary file.
    let catalogue = own.join("blocks.csv");
    let beside = own.join("blocks.csv.tmp");
    for (ckpt, why) in [(&link, "not a regular file"), (&beside, "written beside it")] {
        refused(
            &["aligned", "blocks", "--cards", "4", "--out", s(&catalogue), "--checkpoint", s(ckpt)],
            &[why],
        );
    }
    assert!(!catalogue.exists() && !beside.exists(), "a refusal writes nothing");
    // A file where a directory is expected, a device where a recipe is: said as they are.
    let csv = catalogue.join("x.csv");
    fs::write(&catalogue, "a file\n").unwrap();
    refused(
        &["construct", "c1-positions", "--values", "3", "--csv", s(&csv)],
        &["is not a directory"],
    );
    refused(&["experiment", "run", "/dev/null"], &["is not a recipe file"]);
}

// 8. Stopped within seconds, and checkpoints within seconds, whatever the deck.
#[test]
fn sigterm_stops_a_huge_deck_within_seconds_and_checkpoints_are_timely() {
    let dir = scratch!("sigterm");
    let (ckpt, out) = (dir.join("ckpt"), dir.join("out"));
    let mut child = spawn_quiet(
        &[
            &["explore", "-c", "1", "-v", "20", "--exhaustive", "--threads", "1"][..],
            &["--no-estimate-limit", "--checkpoint-every", "1", "--checkpoint", s(&ckpt)],
            &["--out", s(&out)],
        ]
        .concat(),
    );
    // A checkpoint within seconds (the estimate's sample takes about 0.3 s).
    let started = Instant::now();
    while !ckpt.exists() && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(ckpt.exists(), "no checkpoint after {:?}", started.elapsed());
    let state = fs::read_to_string(&ckpt).unwrap();
    assert!(state.contains("\nunit-size 1048576\n"), "{state}");
    // SIGTERM: stopped within seconds, with exit 130 and the partial results saved.
    // SAFETY: kill(2) on the id of a child this test started and has not waited for.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let stopped = Instant::now();
    let status = wait_at_most(&mut child, Duration::from_secs(10)).expect("stopped");
    assert!(stopped.elapsed() < Duration::from_secs(5), "{:?}", stopped.elapsed());
    assert_eq!(status.code(), Some(130));
    assert!(fs::read_to_string(out.join("summary.csv")).unwrap().contains("complete,false"));
}

// 9. Runs that cannot finish are refused after an estimate.
#[test]
fn a_run_that_cannot_finish_is_estimated_and_refused() {
    let dir = scratch!("estimate");
    let out = dir.join("out");
    let t = refused(
        &["explore", "-c", "4", "-v", "6", "--exhaustive", "--threads", "1", "--out", s(&out)],
        &["estimate:", "years", "more than the limit of 30 days", "--no-estimate-limit"],
    );
    assert!(t.contains("--shard K/N"), "{t}");
    assert!(!out.exists(), "a refusal writes nothing");
    // A record search's iterations are deals played: the same estimate.
    let many = "18446744073709551615";
    let t = refused(
        &["records", "search", "-c", "4", "-v", "4", "--iterations", many, "--out", s(&out)],
        &["estimate:", "years", "more than the limit of 30 days", "lower --iterations"],
    );
    assert!(t.contains("--no-estimate-limit"), "{t}");
    assert!(!out.exists(), "a refusal writes nothing");
}

// 10. A used output directory is refused unless it is this run's own or --replace is given.
#[test]
fn a_used_output_directory_is_refused_unless_resumed_or_replaced() {
    let dir = scratch!("used-out");
    let out = dir.join("out");
    let o = s(&out);
    let c4v3 = ["-c", "4", "-v", "3", "--exhaustive", "--out", o];
    run_ok(&[&["explore"][..], &c4v3].concat());
    let before = snapshot(&out);
    // The same run again, or another deck: refused, the results untouched.
    refused(&[&["explore"][..], &c4v3].concat(), &["not empty", "--replace"]);
    refused(&["explore", "-c", "2", "-v", "3", "--exhaustive", "--out", o], &["not empty"]);
    refused(&["merge", o, "--out", o], &["is one of the parts to merge"]);
    assert_eq!(snapshot(&out), before);
    // A hunt replaces it: its files only, the explore's own gone.
    run_ok(&["hunt", "-c", "2", "-v", "3", "--exhaustive", "--out", o, "--replace"]);
    let after = snapshot(&out);
    assert!(after.iter().any(|(n, _)| n == "loops.csv"));
    assert_ne!(after, before);
    run_ok(&["explore", "-c", "4", "-v", "3", "--exhaustive", "--out", o, "--replace"]);
    let names = |v: &[(String, Vec<u8>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&snapshot(&out)), names(&before), "no file of the hunt is left");
    // An interrupted run resumes into its own output directory, not into another run's.
    let (ckpt, own) = (dir.join("ckpt"), dir.join("own"));
    let random = ["-c", "4", "-v", "4", "--random", "70000", "--seed", "3", "--threads", "2"];
    let first = [&random[..], &["--checkpoint", s(&ckpt), "--out", s(&own)]].concat();
    let o1 = bataille(&[&["explore"][..], &first, &["--max-units", "1"]].concat());
    assert_eq!(o1.status.code(), Some(130), "{}", text(&o1));
    refused(
        &[&["explore"][..], &random, &["--checkpoint", s(&ckpt), "--resume"], &["--out", o]]
            .concat(),
        &["not empty", "not this run's"],
    );
    run_ok(&[&["explore"][..], &first, &["--resume"]].concat());
    // Resuming results that lost their metadata.csv says so; an output directory that is a
    // link to nowhere is named as such.
    let solved = dir.join("solved");
    let question = ["cycles", "solve", "-c", "1", "-v", "5", "--period", "2", "--out", s(&solved)];
    run_ok(&question);
    fs::remove_file(solved.join("metadata.csv")).unwrap();
    refused(&[&question[..], &["--resume"]].concat(), &["not this run's", "no metadata.csv"]);
    #[cfg(unix)]
    {
        let link = dir.join("link");
        std::os::unix::fs::symlink(dir.join("nowhere"), &link).unwrap();
        refused(
            &["cycles", "solve", "-c", "1", "-v", "5", "--period", "2", "--out", s(&link)],
            &["is a symbolic link to", "does not exist"],
        );
    }
}

// 11. The records file is checked before any work, and read within bounds.
#[test]
fn records_file_is_checked_before_any_work() {
    let dir = scratch!("records-file");
    let out = dir.join("out");
    let explore = ["explore", "-c", "2", "-v", "3", "--exhaustive", "--out", s(&out)];
    let with = |r: &str| -> Vec<String> {
        explore.iter().chain(&["--records", r]).map(|a| a.to_string()).collect()
    };
    let refused = |args: &[String], needles: &[&str]| {
        refused(&args.iter().map(String::as_str).collect::<Vec<_>>(), needles)
    };
    let run_ok = |args: &[String]| run_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    refused(&with("/proc/x/r.csv"), &["/proc/x/r.csv", "the directory /proc/x does not exist"]);
    refused(&with("/dev/zero"), &["/dev/zero", "not a regular file"]);
    let verify = ["verify", "--records", "/dev/zero"].map(String::from);
    refused(&verify, &["/dev/zero", "not a regular file"]);
    let sub = dir.join("sub");
    fs::create_dir(&sub).unwrap();
    refused(&with(s(&sub)), &[s(&sub), "not a regular file"]);
    let nested = dir.join("missing/deeper/r.csv");
    refused(&with(s(&nested)), &["missing/deeper does not exist"]);
    assert!(!dir.join("missing").exists(), "no directory is created");
    assert!(!out.exists(), "refused before any work");
    // An empty file is a records file with no rows yet.
    let empty = dir.join("empty.csv");
    fs::write(&empty, "").unwrap();
    run_ok(&with(s(&empty)));
    let rows = fs::read_to_string(&empty).unwrap();
    assert!(rows.starts_with("colours,values,method,"), "{rows}");
    assert_eq!(rows.lines().count(), 3, "{rows}");
    let o2 = dir.join("o2");
    let search = ["records", "search", "-c", "4", "-v", "3", "--iterations", "10"];
    let search: Vec<String> = search
        .iter()
        .chain(&["--records", "/proc/x/r.csv", "--out", s(&o2)])
        .map(|a| a.to_string())
        .collect();
    refused(&search, &["/proc/x"]);
    assert!(!dir.join("o2").exists());
    // A records file that the results would overwrite (`out` holds the run above).
    refused(&with(s(&out.join("records.csv"))), &["would be overwritten"]);
}

// 12. A full disk (here, a file size limit): the file is named, the old files stay, no
// temporary file is left.
#[test]
fn a_failed_write_names_the_file_and_keeps_the_old_results() {
    let dir = scratch!("full-disk");
    let out = dir.join("out");
    run_ok(&["explore", "-c", "4", "-v", "3", "--exhaustive", "--out", s(&out)]);
    let before = snapshot(&out);
    // Files of at most 1 KB (ulimit -f counts 1 KB blocks in bash); SIGXFSZ ignored, so that
    // a larger write (records.csv, state.txt) fails with EFBIG as on a full disk.
    let limited = |args: &str| {
        let script = format!("ulimit -f 1; trap '' XFSZ; exec \"$0\" {args}");
        let mut cmd = Command::new("bash");
        cmd.args(["-c", &script, env!("CARGO_BIN_EXE_bataille")]);
        within(&mut cmd, Duration::from_secs(60))
    };
    let other = "explore -c 4 -v 3 --random 5000 --seed 1";
    let o = limited(&format!("{other} --replace --out '{}'", s(&out)));
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("cannot write") && t.contains(s(&out)), "{t}");
    assert_eq!(snapshot(&out), before, "the old results stay whole");
    // A new directory: nothing left behind at all.
    let fresh = dir.join("fresh");
    let o = limited(&format!("{other} --out '{}'", s(&fresh)));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!fresh.exists(), "{:?}", fs::read_dir(&fresh).map(|d| d.count()));
}

// 13. Merging with shards missing.
#[test]
fn merge_names_the_missing_shards() {
    let dir = scratch!("merge-missing");
    let parts: Vec<PathBuf> = (1..=8).map(|k| dir.join(format!("part{k}"))).collect();
    for (k, p) in parts.iter().enumerate() {
        if k == 2 || k == 6 {
            continue;
        }
        let shard = format!("{}/8", k + 1);
        // 13 units of random deals, so that each of the 8 shards has some.
        let deals = ["-c", "4", "-v", "3", "--random", "200000", "--seed", "5"];
        run_ok(&[&["explore"][..], &deals, &["--shard", &shard, "--out", s(p)]].concat());
    }
    let present: Vec<&str> =
        parts.iter().enumerate().filter(|(k, _)| *k != 2 && *k != 6).map(|(_, p)| s(p)).collect();
    let merged = dir.join("merged");
    let args = [&["merge"][..], &present, &["--out", s(&merged)]].concat();
    refused(&args, &["shards 3, 7 of 8 are missing or unfinished", "--partial"]);
    assert!(!merged.exists());
    let o = run_ok(&[&args[..], &["--partial"]].concat());
    assert!(o.contains("shards 3, 7 of 8 are missing"), "{o}");
    let summary = fs::read_to_string(merged.join("summary.csv")).unwrap();
    assert!(summary.contains("complete,false"), "{summary}");
}

// 14. A --time too short to evaluate anything.
#[test]
fn records_search_that_evaluates_nothing_is_refused() {
    let dir = scratch!("no-time");
    let records = dir.join("records.csv");
    let t = refused(
        &["records", "search", "-c", "4", "-v", "3", "--time", "1e-12"]
            .into_iter()
            .chain(["--records", s(&records), "--out", s(&dir.join("out"))])
            .collect::<Vec<_>>(),
        &["no deal was evaluated", "--iterations"],
    );
    assert!(!t.contains("--iterations 0"), "{t}");
    assert!(!records.exists(), "nothing appended");
}

// 15. Smaller refusals.
#[test]
fn malformed_small_inputs_are_refused_clearly() {
    refused(&["play", "-v", "300", "--partial", "255/1"], &["--values", "300"]);
    refused(&["play", "-c", "0", "--partial", "1/1"], &["--colours", "0"]);
    refused(&["play", "-c", "2", "--partial", "5,3/5,4,5"], &["value 5 appears 3 times"]);
    run_ok(&["play", "-c", "2", "--partial", "5,3/5,4,1"]);
    refused(&["play", "1,,2/1,2"], &["missing between two commas"]);
    let dir = scratch!("small");
    let recipe = dir.join("c0.recipe");
    fs::write(&recipe, "table = durations\ncolours = 0\nvalues = 2\nmethods = natural\n").unwrap();
    refused(&["experiment", "run", s(&recipe)], &["line 2: invalid colours \"0\""]);
    refused(&["explore", "-c", "4", "-v", "3", "--out", "x"], &["--exhaustive", "--random"]);
    // 120 KB (one argument may not exceed 128 KB).
    let huge = format!("{}/1", "7,".repeat(60_000));
    let t = refused(&["play", &huge], &["not", "bytes in all"]);
    assert!(t.len() < 1_000, "{} bytes of error", t.len());
}

/// Numeric flags at their limits: every value is accepted or refused quickly, never a panic.
/// `BATAILLE_FUZZ_CASES` above the default also tries each flag with random numbers.
#[test]
fn numeric_flags_at_their_limits() {
    let dir = scratch!("numeric");
    let out = dir.join("out");
    let o = s(&out);
    let mut values: Vec<String> =
        ["0", "-1", "18446744073709551615", "18446744073709551616", "1e20", "NaN", "4294967295"]
            .map(String::from)
            .to_vec();
    let extra: usize =
        std::env::var("BATAILLE_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..extra / 1000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        values.push((x >> (x % 64)).to_string());
    }
    let explore = ["explore", "-c", "4", "-v", "3", "--exhaustive", "--threads", "1", "--out", o];
    let ckpt = dir.join("ckpt");
    let checkpointed = [&explore[..], &["--checkpoint", s(&ckpt)]].concat();
    let search = ["records", "search", "-c", "4", "-v", "3", "--out", o];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (explore.to_vec(), "--top"),
        (explore.to_vec(), "--max-cycles"),
        (explore.to_vec(), "--max-tricks"),
        (explore.to_vec(), "--threads"),
        (checkpointed, "--checkpoint-every"),
        (["hunt", "-c", "4", "-v", "3", "--exhaustive", "--out", o].to_vec(), "--keep"),
        ([&search[..], &["--iterations", "50"]].concat(), "--chains"),
        ([&search[..], &["--iterations", "50"]].concat(), "--epoch"),
        (search.to_vec(), "--time"),
        (["play", "1,2/2,1"].to_vec(), "--max-tricks"),
        (["aligned", "repeat", "1,2/2,1"].to_vec(), "-k"),
        (["takeaway", "solve", "subtraction", "7"].to_vec(), "--max-take"),
    ];
    for (args, flag) in &cases {
        for v in &values {
            let _ = fs::remove_dir_all(&out);
            let _ = fs::remove_file(&ckpt);
            let mut a = args.clone();
            a.extend([*flag, v.as_str()]);
            let o = bataille(&a);
            let t = text(&o);
            assert!(matches!(o.status.code(), Some(0 | 2)), "{a:?}: {t}");
            assert!(!t.contains("panicked"), "{a:?}: {t}");
        }
    }
    // A checkpoint period with no checkpoint to write is a mistake, not a default.
    let o = bataille(&[&explore[..], &["--checkpoint-every", "5"]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--checkpoint <FILE>"), "{}", text(&o));
}

// Issue 56, 1. A long input is quoted short in an error, whatever the command.
#[test]
fn long_inputs_are_quoted_short() {
    // A deal of 10,000 cards (58,897 bytes), whose whole text the error once repeated. Run
    // without `refused`, which would repeat it too on a failure.
    let hand =
        |r: std::ops::RangeInclusive<u32>| r.map(|c| c.to_string()).collect::<Vec<_>>().join(", ");
    let deal = format!("[{}] / [{}]", hand(1..=5000), hand(5001..=10_000));
    let o = bataille(&["records", "extend", &deal]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t:.2000}");
    assert!(t.len() < 1_000, "{} bytes of error: {t:.2000}", t.len());
    assert!(t.starts_with("bataille: error: invalid deal \"[1, 2, 3, "), "{t}");
    assert!(t.contains("… (58897 bytes in all): \"256\" is not a card"), "{t}");
    // A seed of 200 cards (603 bytes) that does not fit the deck.
    let dir = scratch!("long-inputs");
    let seeds = dir.join("seeds.txt");
    let hand = vec!["1, 2, 3"; 33].join(", ") + ", 1";
    fs::write(&seeds, format!("[{hand}] / [{hand}]\n")).unwrap();
    let t = refused(
        &["cycles", "hunt", "-c", "4", "-v", "3", "--sampler", "insert", "--seeds", s(&seeds)]
            .into_iter()
            .chain(["--random", "100", "--out", s(&dir.join("out"))])
            .collect::<Vec<_>>(),
        &["seed \"[1, 2, 3, 1,", "(603 bytes in all): value 1 appears 68 times"],
    );
    assert!(t.len() < 300, "{} bytes of error", t.len());
}

// Issue 56, 2. `verify --records`: a date that is not one is refused by file and line; a
// deal of the right cards split otherwise is named by its split.
#[test]
fn verify_records_checks_the_date_and_names_a_split() {
    let dir = scratch!("records-rows");
    let committed =
        fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../results/records.csv"))
            .unwrap();
    let header = committed.lines().next().unwrap();
    let row = committed.lines().nth(1).unwrap();
    let date = row.rsplit(',').next().unwrap();
    assert_eq!(date.len(), "2026-11-21T09:54:40Z".len(), "{row}");
    let undated = dir.join("undated.csv");
    fs::write(&undated, format!("{header}\n{}not a date\n", &row[..row.len() - date.len()]))
        .unwrap();
    refused(
        &["verify", "--filter", "records", "--records", s(&undated)],
        &["undated.csv line 2: invalid date \"not a date\"", "YYYY-MM-DDTHH:MM:SSZ"],
    );
    let split = dir.join("split.csv");
    let row = format!("1,5,natural,tricks,3,3,\"[1] / [2, 3, 4, 5]\",-,x,abc,m,{date}");
    fs::write(&split, format!("{header}\n{row}\n")).unwrap();
    let o = bataille(&["verify", "--filter", "records", "--records", s(&split)]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("1/4 is not a deal's split: a deal of 5 cards is split 2/3"), "{t}");
    assert!(!t.contains("not a 5-card deal"), "{t}");
}

// Issue 56, 3. An epoch of 0 is refused for itself, not with the temperatures the user never
// set.
#[test]
fn records_search_with_an_epoch_of_0_names_the_epoch_only() {
    let dir = scratch!("epoch-0");
    let t = refused(
        &["records", "search", "-c", "4", "-v", "3", "--epoch", "0", "--iterations", "10"]
            .into_iter()
            .chain(["--out", s(&dir.join("out"))])
            .collect::<Vec<_>>(),
        &["--epoch must be at least 1 iteration, got 0"],
    );
    assert!(!t.contains("temperature"), "{t}");
}

// Issue 56, 4. Whenever `--max-cycles` drops loops, the summary has the estimate docs/formats.md
// promises: a cap that leaves too few kept loops to estimate from is refused.
#[test]
fn max_cycles_too_few_to_estimate_is_refused() {
    let dir = scratch!("max-cycles");
    let out = dir.join("out");
    let hunt = ["cycles", "hunt", "-c", "1", "-v", "9", "--random", "20000", "--out", s(&out)];
    for k in ["1", "2"] {
        refused(
            &[&hunt[..], &["--max-cycles", k]].concat(),
            &["--max-cycles", &format!("expected at least 3 loops kept, got {k}")],
        );
    }
    assert!(!out.exists(), "a refusal writes nothing");
    run_ok(&[&hunt[..], &["--max-cycles", "3"]].concat());
    assert_eq!(crate::support::summary_value(&out, "cycles_dropped"), "true");
    let estimate = crate::support::summary_value(&out, "distinct_cycles_estimate");
    assert!(estimate.parse::<u64>().is_ok_and(|e| e > 3), "{estimate:?}");
}

// Issue 56, 5. The insert sampler starts from known loops: a seed whose game ends is refused.
#[test]
fn an_insert_seed_that_does_not_loop_is_refused() {
    let dir = scratch!("insert-ends");
    let seeds = dir.join("seeds.txt");
    fs::write(&seeds, "[5, 3] / [2, 4, 1]\n[1, 2] / [3]\n").unwrap();
    refused(
        &["cycles", "hunt", "-c", "4", "-v", "5", "--sampler", "insert", "--seeds", s(&seeds)]
            .into_iter()
            .chain(["--random", "100", "--out", s(&dir.join("out"))])
            .collect::<Vec<_>>(),
        &["seed \"[1, 2] / [3]\": its game ends after 2 tricks (natural) instead of looping"],
    );
    assert!(!dir.join("out").exists(), "a refusal writes nothing");
    fs::write(&seeds, "[5, 3] / [2, 4, 1]\n").unwrap();
    run_ok(
        &["cycles", "hunt", "-c", "4", "-v", "5", "--sampler", "insert", "--seeds", s(&seeds)]
            .into_iter()
            .chain(["--random", "100", "--out", s(&dir.join("out"))])
            .collect::<Vec<_>>(),
    );
}
