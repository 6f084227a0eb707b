//! `bataille cycles solve` as a user runs it: loops found and replayed, absence certified
//! period by period, resume, and bad questions refused before any work.

use std::fs;

use crate::support::{bataille, run_ok, text};

#[test]
fn loops_are_listed_and_absences_certified() {
    let dir = scratch!("c1v5");
    let out = dir.join("out");
    let out_s = out.to_str().unwrap();
    let args =
        ["cycles", "solve", "-c", "1", "-v", "5", "--max-period", "7", "--all", "--out", out_s];
    let o = run_ok(&args);
    assert!(o.contains("solver:    cadical-"), "{o}");
    assert!(o.contains("certified: every loop of period 1 to 7 is listed in cycles.csv"), "{o}");
    let cycles = fs::read_to_string(out.join("cycles.csv")).unwrap();
    let rows: Vec<&str> = cycles.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{cycles}");
    // Each loop replays as a loop of the period given, with the same id.
    for row in rows {
        let (id, rest) = row.split_once(',').unwrap();
        let position = rest.split_once(",\"").unwrap().1.trim_end_matches('"');
        let p = run_ok(&["play", position]);
        assert!(
            p.contains(&format!("cycle id:  {id}")) && p.contains("period:    6 tricks"),
            "{p}"
        );
    }
    let instances = fs::read_to_string(out.join("instances.csv")).unwrap();
    assert_eq!(instances.lines().count(), 8, "{instances}");
    assert!(instances.lines().skip(1).all(|l| l.contains(",complete,")), "{instances}");
    assert!(!out.join("proofs").exists(), "proofs are removed unless --keep");
    // A resume of a finished question decides nothing again and writes the same rows.
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    run_ok(&resumed);
    let again = fs::read_to_string(out.join("instances.csv")).unwrap();
    assert_eq!(again, instances);
    // Without --resume the directory is protected.
    let o = bataille(&args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    // Another question is not resumed into it, even one whose text begins the same way
    // (periods 1 to 1 against periods 1 to 7), and the files are left as they were.
    for other in [&["--period", "1"][..], &["--max-period", "7", "--all", "--max-ties", "0"]] {
        let mut a = vec!["cycles", "solve", "-c", "1", "-v", "5", "--out", out_s, "--resume"];
        a.extend_from_slice(other);
        let o = bataille(&a);
        assert_eq!(o.status.code(), Some(2), "{other:?}: {}", text(&o));
        assert!(text(&o).contains("holds another question"), "{}", text(&o));
        assert_eq!(fs::read_to_string(out.join("instances.csv")).unwrap(), instances);
    }
}

#[test]
fn first_loop_stops_the_search_and_proofs_are_kept_on_request() {
    let dir = scratch!("first");
    let out = dir.join("out");
    let o = run_ok(&[
        "cycles",
        "solve",
        "-c",
        "1",
        "-v",
        "5",
        "--max-period",
        "9",
        "--keep",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.contains("found: the search stopped at the first loop"), "{o}");
    assert!(o.contains(&format!("proofs:    {}", out.join("proofs").display())), "{o}");
    let kept: Vec<String> = fs::read_dir(out.join("proofs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(kept.contains(&"period-5.lrat".to_string()), "{kept:?}");
    assert!(kept.contains(&"period-6.cnf".to_string()), "{kept:?}");
    // The proof is binary LRAT: a step `a` (an addition) or `d` (deletions) first, where a
    // text proof starts with a clause ID.
    let proof = fs::read(out.join("proofs/period-5.lrat")).unwrap();
    assert!(matches!(proof.first(), Some(b'a' | b'd')), "{:?}", &proof[..proof.len().min(16)]);
    // --replace by another question takes the results replaced away, their proofs and the
    // files of their kind included: here a split question, then an aligned one, then this.
    let listing = |d: &std::path::Path| {
        let mut names: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let o = out.to_str().unwrap();
    let split = ["cycles", "solve", "-c", "1", "-v", "5", "--cards", "--period", "2", "--split"];
    run_ok(&[&split[..], &["--keep", "--replace", "--out", o]].concat());
    let proofs = listing(&out.join("proofs"));
    assert_eq!(proofs.len(), 4, "{proofs:?}");
    assert!(proofs.iter().all(|p| p.starts_with("cards-2-hand-")), "{proofs:?}");
    assert!(listing(&out).contains(&"parts.csv".to_string()));
    run_ok(&["aligned", "solve", "--cards", "4", "--rounds", "1", "--replace", "--out", o]);
    assert_eq!(listing(&out), ["blocks.csv", "instances.csv", "metadata.csv", "rounds.csv"]);
    let two = ["cycles", "solve", "-c", "1", "-v", "5", "--period", "2", "--out", o];
    run_ok(&[&two[..], &["--replace"]].concat());
    assert_eq!(listing(&out), ["cycles.csv", "instances.csv", "metadata.csv"]);
    // A proof being written has a name of its own: a run killed on the way leaves no file that
    // reads as a kept proof, and the next run in the directory removes what it left.
    fs::create_dir_all(out.join("proofs")).unwrap();
    fs::write(out.join("proofs/period-9.lrat.part"), "cut").unwrap();
    fs::write(out.join("proofs/notes.txt"), "mine").unwrap();
    run_ok(&[&two[..], &["--resume"]].concat());
    assert_eq!(listing(&out.join("proofs")), ["notes.txt"]);
}

#[test]
fn periods_counted_in_cards_find_the_c4v3_loop_at_26_cards() {
    let dir = scratch!("cards");
    let out = dir.join("out");
    let out_s = out.to_str().unwrap();
    // C=1 has no battle: its two loops of 6 tricks turn 6 cards, and nothing else turns up to 8.
    let c1 = dir.join("c1");
    let args = ["cycles", "solve", "-c", "1", "-v", "5", "--cards", "--max-period", "8", "--all"];
    let mut with_out = args.to_vec();
    with_out.extend(["--out", c1.to_str().unwrap()]);
    let o = run_ok(&with_out);
    assert!(
        o.contains("certified: every loop whose turn takes 1 to 8 cards per player is listed"),
        "{o}"
    );
    let instances = fs::read_to_string(c1.join("instances.csv")).unwrap();
    assert!(instances.starts_with("period_cards,deals,verdict,"), "{instances}");
    assert_eq!(instances.lines().filter(|l| l.contains(",complete,")).count(), 8, "{instances}");
    assert_eq!(fs::read_to_string(c1.join("cycles.csv")).unwrap().lines().count(), 3);
    let metadata = fs::read_to_string(c1.join("metadata.csv")).unwrap();
    assert!(metadata.contains("periods in cards 1 to 8"), "{metadata}");
    // C=4 V=3: its one loop has 19 tricks and turns 26 cards per player.
    let o = run_ok(&[
        "cycles", "solve", "-c", "4", "-v", "3", "--cards", "--period", "26", "--out", out_s,
    ]);
    assert!(o.contains("26 cards: loop f830e70e556fe9c1 of period 19 tricks (26 cards)"), "{o}");
    // An odd count is refuted at once: each trick gives its winner an even number of cards.
    let odd = dir.join("odd");
    let o = run_ok(&[
        "cycles",
        "solve",
        "-c",
        "4",
        "-v",
        "3",
        "--cards",
        "--period",
        "25",
        "--out",
        odd.to_str().unwrap(),
    ]);
    assert!(o.contains("25 cards: complete"), "{o}");
}

#[test]
fn solver_configurations_give_the_same_answers() {
    let dir = scratch!("configs");
    // C=1 V=5 to 7 tricks: refutations at 1 to 5 and 7, two loops at 6.
    let mut files = Vec::new();
    let question = ["cycles", "solve", "-c", "1", "-v", "5", "--max-period", "7", "--all"];
    for config in ["default", "sat", "unsat"] {
        let out = dir.join(config);
        let mut args = question.to_vec();
        args.extend(["--solver-config", config, "--out", out.to_str().unwrap()]);
        let o = run_ok(&args);
        let solver = match config {
            "default" => "cadical-3.0.1 --binary".to_string(),
            c => format!("cadical-3.0.1 --{c} --binary"),
        };
        assert!(o.contains(&format!("solver:    {solver} (LRAT")), "{o}");
        assert!(o.contains("certified: every loop of period 1 to 7 is listed"), "{o}");
        let instances = fs::read_to_string(out.join("instances.csv")).unwrap();
        assert!(instances.lines().skip(1).all(|l| l.ends_with(&format!(",{solver}"))));
        let metadata = fs::read_to_string(out.join("metadata.csv")).unwrap();
        assert!(metadata.contains(&format!("solver,{solver}\n")), "{metadata}");
        // Verdicts, loop counts and CNF sizes; not the solver's own columns (times, proofs).
        let verdicts: Vec<String> =
            instances.lines().map(|l| l.split(',').take(6).collect::<Vec<_>>().join(",")).collect();
        // The loops by id and period: the position given is any of the loop's.
        let cycles = fs::read_to_string(out.join("cycles.csv")).unwrap();
        let loops: Vec<String> =
            cycles.lines().map(|l| l.split(',').take(3).collect::<Vec<_>>().join(",")).collect();
        files.push((loops, verdicts));
    }
    assert_eq!(files[0].0.len(), 3, "two loops: {:?}", files[0].0);
    assert_eq!(files[0], files[1]);
    assert_eq!(files[0], files[2]);
    // Resumed with another configuration: each row keeps the solver that decided it, and
    // metadata.csv the commands of every run that decided something, first to last.
    let mixed = dir.join("mixed");
    let out = mixed.to_str().unwrap();
    let short = ["cycles", "solve", "-c", "1", "-v", "5", "--max-period", "3"];
    run_ok(&[&short[..], &["--solver-config", "sat", "--out", out]].concat());
    let other = ["cycles", "solve", "-c", "1", "-v", "5", "--max-period", "3", "--max-ties", "0"];
    let o = bataille(&[&other[..], &["--out", out, "--resume"]].concat());
    assert_eq!(o.status.code(), Some(2), "another question: {}", text(&o));
    let read = |name: &str| fs::read_to_string(mixed.join(name)).unwrap();
    let commands = |metadata: &str| -> Vec<String> {
        metadata
            .lines()
            .filter(|l| l.starts_with("earlier_command,") || l.starts_with("command,"))
            .map(str::to_string)
            .collect()
    };
    // Nothing left to solve: the files are kept as they are (the solver line still the one
    // that decided every row), no proof kept, so no proofs directory named.
    let (metadata, instances) = (read("metadata.csv"), read("instances.csv"));
    let keep = [&short[..], &["--keep", "--out", out, "--resume"]].concat();
    let resumed = run_ok(&keep);
    assert!(resumed.contains("nothing left to solve"), "{resumed}");
    assert!(!resumed.contains("proofs:"), "{resumed}");
    assert!(resumed.contains("certified: every loop of period 1 to 3"), "{resumed}");
    assert_eq!((read("metadata.csv"), read("instances.csv")), (metadata, instances.clone()));
    // A period stopped (as a signal leaves it) is solved again, with this run's solver.
    let stop_period_3 = || {
        let rows: Vec<String> = read("instances.csv")
            .lines()
            .map(|l| {
                if l.starts_with("3,") {
                    l.replacen(",complete,", ",stopped,", 1)
                } else {
                    l.into()
                }
            })
            .collect();
        fs::write(mixed.join("instances.csv"), rows.join("\n") + "\n").unwrap();
    };
    stop_period_3();
    let resumed = run_ok(&keep);
    assert!(resumed.contains("period 3: complete"), "{resumed}");
    let rows: Vec<String> = read("instances.csv").lines().skip(1).map(str::to_string).collect();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert!(rows[..2].iter().all(|l| l.ends_with(",cadical-3.0.1 --sat --binary")), "{rows:?}");
    assert!(rows[2].ends_with(",cadical-3.0.1 --binary"), "{rows:?}");
    let metadata = read("metadata.csv");
    let first_two = commands(&metadata);
    assert_eq!(first_two.len(), 2, "{metadata}");
    assert!(
        first_two[0].starts_with("earlier_command,")
            && first_two[0].contains("--solver-config sat")
    );
    assert!(first_two[1].starts_with("command,") && first_two[1].contains("--keep"), "{metadata}");
    // The same command again, solving again, is not written twice.
    stop_period_3();
    run_ok(&keep);
    assert_eq!(commands(&read("metadata.csv")), first_two);
}

#[test]
fn bad_questions_are_refused() {
    let dir = scratch!("bad");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    for (args, message) in [
        (vec!["-c", "4", "-v", "3", "--period", "0"], "0 is not in 1..=100000"),
        (vec!["-c", "4", "-v", "3", "-m", "random", "--period", "3"], "natural or optimized"),
        (vec!["-c", "4", "-v", "13", "--period", "100000"], "clauses, more than"),
        // About 1.6·10^8 clauses and 23 GB once built: refused before.
        (vec!["-c", "2", "-v", "128", "--period", "2"], "clauses, more than the 5e7"),
        (vec!["-c", "4", "-v", "13", "--cards", "--period", "100000"], "100000 cards makes"),
        (vec!["-c", "4", "-v", "255", "--period", "3"], "at most 256 cards"),
        (vec!["-c", "1", "-v", "1", "--period", "2"], "has no loop"),
        (vec!["-c", "4", "-v", "3"], "--period <P>"),
        (vec!["-c", "4", "-v", "3", "--period", "3", "--time-limit", "-1"], "--time-limit"),
        (vec!["-c", "4", "-v", "3", "--period", "3", "--solver-config", "fast"], "default, sat or"),
        (vec!["-c", "4", "-v", "3", "--cards", "--period", "4", "--max-hand", "6"], "1 to 5 on"),
        (
            vec!["-c", "1", "-v", "2", "--cards", "--period", "2", "--max-hand", "1"],
            "no smaller hand",
        ),
        (vec!["-c", "4", "-v", "3", "--period", "4", "--max-hand", "2"], "needs periods counted"),
        (
            vec!["-c", "4", "-v", "3", "--cards", "--deals", "--period", "4", "--max-hand", "2"],
            "not --deals",
        ),
        (vec!["-c", "4", "-v", "3", "--period", "4", "--split"], "needs periods counted"),
        (vec!["-c", "4", "-v", "3", "--cards", "--deals", "--period", "4", "--split"], "--deals"),
        (vec!["-c", "4", "-v", "3", "--cards", "--period", "4", "--threads", "2"], "--split"),
        (
            vec!["-c", "4", "-v", "3", "--cards", "--period", "4", "--split", "--threads", "99999"],
            "more than the limit",
        ),
    ] {
        let mut all = vec!["cycles", "solve"];
        all.extend(args.iter().copied());
        all.extend(["--out", out]);
        let o = bataille(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {}", text(&o));
        assert!(text(&o).contains(message), "{all:?}: {}", text(&o));
    }
    assert!(!std::path::Path::new(out).exists(), "nothing written for a refused question");
}

/// `aligned solve --dry-run` checks the question, gives the last period's formula (the size the
/// solve reports for it) and the periods already in --out, and writes nothing: the cluster
/// launcher's check and count of tasks.
#[test]
fn aligned_solve_dry_run_gives_the_formula_and_the_times_already_measured() {
    let dir = scratch!("aligned-dry-run");
    let out = dir.join("out");
    let out_s = out.to_str().unwrap();
    let dry = |rounds: &str| {
        run_ok(&[
            "aligned",
            "solve",
            "--cards",
            "8",
            "--max-rounds",
            rounds,
            "--dry-run",
            "--out",
            out_s,
        ])
    };
    let o = dry("3");
    assert!(o.contains("dry run:   aligned cycles of 8 cards, 1 to 3 rounds"), "{o}");
    assert!(o.contains("no earlier period measured"), "{o}");
    assert!(
        o.ends_with("clauses=5391\n") && o.contains("cost: tasks=1 seconds=unknown vars=1035 "),
        "{o}"
    );
    assert!(!out.exists(), "a dry run writes nothing");
    run_ok(&["aligned", "solve", "--cards", "8", "--max-rounds", "3", "--out", out_s]);
    let instances = fs::read_to_string(out.join("instances.csv")).unwrap();
    let last = instances.lines().last().unwrap();
    assert!(last.starts_with("3,complete,0,0,1035,5391,"), "{instances}");
    let before = fs::read_to_string(out.join("metadata.csv")).unwrap();
    let o = dry("4");
    assert!(o.contains("formula:   4 rounds: 1270 vars, 6947 clauses"), "{o}");
    assert!(o.contains("took (solver seconds) 1 round: ") && o.contains(", 3 rounds: "), "{o}");
    assert!(o.contains(" s (complete)"), "{o}");
    assert_eq!(fs::read_to_string(out.join("metadata.csv")).unwrap(), before);
    // A question that is not one: refused, exit 2.
    let o = bataille(&[
        "aligned",
        "solve",
        "--cards",
        "7",
        "--rounds",
        "2",
        "--dry-run",
        "--out",
        out_s,
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

#[test]
fn aligned_solve_gives_the_blocks_catalogue_and_certifies_the_rest() {
    let dir = scratch!("aligned8");
    let out = dir.join("out");
    let out_s = out.to_str().unwrap();
    let args = ["aligned", "solve", "--cards", "8", "--max-rounds", "5", "--out", out_s];
    let o = run_ok(&args);
    assert!(
        o.contains("certified: every aligned cycle of 8 cards (values at most 4 times) of 1 to 5 rounds is in blocks.csv: 6 loops (6 cycles of rounds)"),
        "{o}"
    );
    // The rows of the committed catalogue of `aligned blocks --cards 8`, in the same order.
    let blocks = fs::read_to_string(out.join("blocks.csv")).unwrap();
    // One value only (every trick a battle, every game a draw): no cycle, certified.
    for cards in ["4", "8"] {
        let one = dir.join(format!("one-value-{cards}"));
        let a = ["aligned", "solve", "--cards", cards, "-c", cards, "--max-rounds", "2"];
        let o = run_ok(&[&a[..], &["--out", one.to_str().unwrap()]].concat());
        assert!(o.contains("of 1 to 2 rounds is in blocks.csv: 0 loops"), "{o}");
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let catalogue = fs::read_to_string(root.join("results/aligned-blocks/blocks-8.csv")).unwrap();
    assert_eq!(blocks, catalogue);
    let instances = fs::read_to_string(out.join("instances.csv")).unwrap();
    let verdicts: Vec<&str> =
        instances.lines().skip(1).map(|l| l.split(',').nth(1).unwrap()).collect();
    assert_eq!(verdicts, ["complete"; 5], "{instances}");
    // Resumed: nothing decided again, the same files.
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    run_ok(&resumed);
    assert_eq!(fs::read_to_string(out.join("blocks.csv")).unwrap(), blocks);
    assert_eq!(fs::read_to_string(out.join("instances.csv")).unwrap(), instances);
    // Odd hands have no aligned round: certified at once.
    let odd = dir.join("odd");
    let o = run_ok(&[
        "aligned",
        "solve",
        "--cards",
        "6",
        "--rounds",
        "4",
        "--out",
        odd.to_str().unwrap(),
    ]);
    assert!(o.contains("0 loops (0 cycles of rounds)"), "{o}");
    // Refused before any work: an odd number of cards, zero rounds, K = 0, too many cards.
    for bad in [
        &["--cards", "7", "--rounds", "2"][..],
        &["--cards", "8", "--rounds", "0"],
        &["--cards", "8", "--rounds", "2", "--max-mult", "0"],
        &["--cards", "66", "--rounds", "2"],
    ] {
        let target = dir.join("bad");
        let mut a = vec!["aligned", "solve", "--out", target.to_str().unwrap()];
        a.extend_from_slice(bad);
        let o = bataille(&a);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", text(&o));
        assert!(!target.exists(), "{bad:?}: a refused question wrote its output");
    }
}

/// `csv` with its rows that begin with `prefix` made as a period or part undecided after
/// `seconds` in the solver leaves them: that verdict and time, no proof.
fn undecided_at(csv: &str, prefix: &str, seconds: &str) -> String {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut out = format!("{}\n", header.join(","));
    for line in lines {
        let mut fields: Vec<&str> = line.split(',').collect();
        if line.starts_with(prefix) {
            for (f, h) in fields.iter_mut().zip(&header) {
                match *h {
                    "verdict" => *f = "undecided",
                    "solve_s" => *f = seconds,
                    "check_s" | "proof_bytes" | "proof_sha256" | "proof_steps" => *f = "",
                    _ => {}
                }
            }
        }
        out += &(fields.join(",") + "\n");
    }
    assert_ne!(out, csv, "no row begins with {prefix}");
    out
}

/// A period undecided at its time limit is kept by a resume under the same limit (it would
/// only be undecided again, and the answer says to raise the limit); a larger limit, or none,
/// solves it again. The solver seconds stand for the limit, 5% short of it at most.
#[test]
fn a_period_undecided_at_its_limit_waits_for_a_larger_one() {
    let dir = scratch!("undecided-limit");
    let out = dir.join("out");
    let out_s = out.to_str().unwrap();
    let question = ["cycles", "solve", "-c", "1", "-v", "5", "--max-period", "3", "--out", out_s];
    run_ok(&question);
    let read = |name: &str| fs::read_to_string(out.join(name)).unwrap();
    let complete = read("instances.csv");
    let undecided = undecided_at(&complete, "3,", "100.000");
    let resume = |flags: &[&str]| run_ok(&[&question[..], &["--resume"], flags].concat());
    for limit in ["100", "104"] {
        fs::write(out.join("instances.csv"), &undecided).unwrap();
        let metadata = read("metadata.csv");
        let o = resume(&["--time-limit", limit]);
        assert!(o.contains("nothing left to solve"), "{limit}: {o}");
        assert!(o.contains("certified: every loop of period 1 to 2"), "{limit}: {o}");
        assert!(
            o.contains("undecided: period 3 and beyond (raise --time-limit and --resume)"),
            "{limit}: {o}"
        );
        assert!(!o.contains("period 3: "), "{limit}: solved again: {o}");
        assert_eq!((read("instances.csv"), read("metadata.csv")), (undecided.clone(), metadata));
    }
    for flags in [&["--time-limit", "106"][..], &[]] {
        fs::write(out.join("instances.csv"), &undecided).unwrap();
        let o = resume(flags);
        assert!(o.contains("period 3: complete"), "{flags:?}: {o}");
        assert!(o.contains("certified: every loop of period 1 to 3"), "{flags:?}: {o}");
        assert_eq!(without_times(&read("instances.csv")), without_times(&complete));
    }
    // Another solver configuration may decide it within the same limit: solved again.
    fs::write(out.join("instances.csv"), &undecided).unwrap();
    let o = resume(&["--time-limit", "100", "--solver-config", "sat"]);
    assert!(o.contains("period 3: complete"), "{o}");
    assert!(read("instances.csv").ends_with(",cadical-3.0.1 --sat --binary\n"));

    // The same for aligned solve, its cycles of rounds kept with the period.
    let blocks = dir.join("aligned");
    let aligned = ["aligned", "solve", "--cards", "8", "--max-rounds", "5", "--out"];
    let aligned = [&aligned[..], &[blocks.to_str().unwrap(), "--resume"]].concat();
    run_ok(&aligned[..aligned.len() - 1]);
    let read = |name: &str| fs::read_to_string(blocks.join(name)).unwrap();
    let (complete, catalogue) = (read("instances.csv"), read("blocks.csv"));
    let undecided = undecided_at(&complete, "4,", "100.000");
    fs::write(blocks.join("instances.csv"), &undecided).unwrap();
    let o = run_ok(&[&aligned[..], &["--time-limit", "100"]].concat());
    assert!(o.contains("nothing left to solve"), "{o}");
    assert!(o.contains("of 1 to 3 rounds is in blocks.csv"), "{o}");
    assert!(o.contains("undecided: 4 rounds and beyond (raise --time-limit"), "{o}");
    assert_eq!((read("instances.csv"), read("blocks.csv")), (undecided, catalogue.clone()));
    let o = run_ok(&[&aligned[..], &["--time-limit", "1000"]].concat());
    assert!(o.contains("of 1 to 5 rounds is in blocks.csv: 6 loops"), "{o}");
    assert_eq!(without_times(&read("instances.csv")), without_times(&complete));
    assert_eq!(read("blocks.csv"), catalogue);
}

/// The same for the parts of a split period: a part undecided at the limit is kept, a part
/// stopped is solved again, and a larger limit solves the part left.
#[test]
fn a_part_undecided_at_its_limit_waits_for_a_larger_one() {
    let dir = scratch!("undecided-part");
    let (one, out) = (dir.join("one"), dir.join("out"));
    let question = ["cycles", "solve", "-c", "1", "-v", "7", "--cards", "--max-period", "10"];
    let question = [&question[..], &["--all", "--split", "--threads", "2", "--out"]].concat();
    run_ok(&[&question[..], &[one.to_str().unwrap()]].concat());
    let file = |d: &std::path::Path, name: &str| fs::read_to_string(d.join(name)).unwrap();
    fs::create_dir_all(&out).unwrap();
    for name in ["metadata.csv", "cycles.csv"] {
        fs::write(out.join(name), file(&one, name)).unwrap();
    }
    let instances = undecided_at(&file(&one, "instances.csv"), "10,", "100.000");
    fs::write(out.join("instances.csv"), &instances).unwrap();
    let parts = undecided_at(&file(&one, "parts.csv"), "10,3,", "100.000");
    fs::write(out.join("parts.csv"), &parts).unwrap();
    let resume = [&question[..], &[out.to_str().unwrap(), "--resume", "--time-limit"]].concat();
    // Every part decided or undecided at this limit: nothing to solve.
    let o = run_ok(&[&resume[..], &["100"]].concat());
    assert!(o.contains("nothing left to solve"), "{o}");
    assert!(o.contains("undecided: 10 cards and beyond"), "{o}");
    assert_eq!((file(&out, "instances.csv"), file(&out, "parts.csv")), (instances, parts.clone()));
    // Resumed whole, the period is solved whole: its row sums parts, no one formula's limit.
    let whole = dir.join("whole");
    fs::create_dir_all(&whole).unwrap();
    for name in ["metadata.csv", "cycles.csv", "instances.csv", "parts.csv"] {
        fs::write(whole.join(name), file(&out, name)).unwrap();
    }
    let unsplit = [&question[..question.len() - 4], &["--out", whole.to_str().unwrap()]].concat();
    let o = run_ok(&[&unsplit[..], &["--resume", "--time-limit", "100"]].concat());
    assert!(o.contains("10 cards: complete"), "{o}");
    assert!(o.contains("certified: every loop whose turn takes 1 to 10 cards"), "{o}");
    let sorted = |d: &std::path::Path| {
        let mut lines: Vec<String> = file(d, "cycles.csv").lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(&whole), sorted(&one));
    // A part stopped beside it: that one only is solved.
    let stopped = parts.replacen("10,2,false,complete,", "10,2,false,stopped,", 1);
    fs::write(out.join("parts.csv"), stopped).unwrap();
    let o = run_ok(&[&resume[..], &["100"]].concat());
    assert!(o.contains("10 cards, smallest hand 2: complete"), "{o}");
    assert!(!o.contains("smallest hand 3:"), "{o}");
    assert!(o.contains("10 cards: undecided (2 of 3 parts decided)"), "{o}");
    assert!(o.contains("undecided: 10 cards and beyond"), "{o}");
    // A larger limit: the part left is solved, and the files are the uninterrupted run's.
    let o = run_ok(&[&resume[..], &["1000"]].concat());
    assert!(o.contains("10 cards, smallest hand 3: complete"), "{o}");
    assert!(!o.contains("smallest hand 2:"), "{o}");
    assert!(o.contains("certified: every loop whose turn takes 1 to 10 cards"), "{o}");
    assert_eq!(file(&out, "cycles.csv"), file(&one, "cycles.csv"));
    for name in ["instances.csv", "parts.csv"] {
        assert_eq!(without_times(&file(&out, name)), without_times(&file(&one, name)), "{name}");
    }
}

/// Fields of a CSV row, the solver's seconds left out (columns named `solve_s` or `check_s`).
pub(crate) fn without_times(csv: &str) -> Vec<Vec<String>> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            l.split(',')
                .zip(&header)
                .filter(|(_, h)| !matches!(**h, "solve_s" | "check_s"))
                .map(|(f, _)| f.to_string())
                .collect()
        })
        .collect()
}

#[test]
fn split_periods_give_the_same_loops_on_any_number_of_threads_and_resume() {
    let dir = scratch!("split");
    let base = ["cycles", "solve", "-c", "1", "-v", "7", "--cards", "--max-period", "10", "--all"];
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        args.extend(["--out", out.to_str().unwrap()]);
        let o = run_ok(&args);
        (out, o)
    };
    let ids = |out: &std::path::Path| {
        let cycles = fs::read_to_string(out.join("cycles.csv")).unwrap();
        let mut ids: Vec<String> =
            cycles.lines().skip(1).map(|l| l.split(',').next().unwrap().to_string()).collect();
        ids.sort();
        ids
    };
    let (whole, _) = run("whole", &[]);
    let (one, o) = run("one", &["--split", "--threads", "1"]);
    assert!(o.contains("10 cards: complete (3 of 3 parts decided)"), "{o}");
    assert!(o.contains("certified: every loop whose turn takes 1 to 10 cards"), "{o}");
    let (two, _) = run("two", &["--split", "--threads", "2"]);
    // The same loops as the whole formula's (52 of 8 tricks, in more than one part).
    assert_eq!(ids(&one), ids(&whole));
    assert_eq!(ids(&one).len(), 52);
    let file = |out: &std::path::Path, name: &str| fs::read_to_string(out.join(name)).unwrap();
    // The same files whatever the number of threads, times apart.
    assert_eq!(file(&one, "cycles.csv"), file(&two, "cycles.csv"));
    for name in ["instances.csv", "parts.csv"] {
        assert_eq!(without_times(&file(&one, name)), without_times(&file(&two, name)), "{name}");
    }
    let parts = file(&one, "parts.csv");
    assert!(parts.starts_with("period_cards,first_hand,deals,verdict,"), "{parts}");
    assert_eq!(parts.lines().count(), 1 + 10 * 3, "{parts}");
    let firsts: std::collections::BTreeSet<&str> =
        parts.lines().skip(1).filter(|l| l.starts_with("8,")).map(|l| &l[2..3]).collect();
    assert_eq!(firsts.len(), 3, "{parts}");
    assert!(!file(&whole, "instances.csv").is_empty() && !whole.join("parts.csv").exists());

    // A run stopped during period 8: its part 2 undecided (its loops not written yet), part 3
    // and the periods after not started. The resume solves only what is missing and ends
    // with the uninterrupted run's files.
    let cut = dir.join("cut");
    fs::create_dir_all(&cut).unwrap();
    fs::write(cut.join("metadata.csv"), file(&one, "metadata.csv")).unwrap();
    let keep = |csv: &str, f: &dyn Fn(&str) -> bool| -> String {
        let mut lines = csv.lines();
        let mut out = format!("{}\n", lines.next().unwrap());
        for l in lines.filter(|l| f(l)) {
            out.push_str(l);
            out.push('\n');
        }
        out
    };
    let period = |l: &str| l.split(',').next().unwrap().parse::<u32>().unwrap();
    let instances = keep(&file(&one, "instances.csv"), &|l| period(l) < 8);
    fs::write(cut.join("instances.csv"), instances).unwrap();
    let parts = keep(&parts, &|l| period(l) < 8 || l.starts_with("8,1,") || l.starts_with("8,2,"));
    let parts = parts.replace("8,2,false,complete,", "8,2,false,undecided,");
    fs::write(cut.join("parts.csv"), parts).unwrap();
    // The loops of period 8 with a smallest hand of 2 or more are not written yet.
    let cycles = keep(&file(&one, "cycles.csv"), &|l| {
        let position = l.split_once(",\"").unwrap().1;
        let first = position.split(']').next().unwrap().matches(',').count() + 1;
        !(l.contains(",8,8,") && first >= 2)
    });
    assert!(cycles.lines().count() < file(&one, "cycles.csv").lines().count());
    fs::write(cut.join("cycles.csv"), cycles).unwrap();
    let mut args = base.to_vec();
    args.extend(["--split", "--threads", "2", "--resume", "--out", cut.to_str().unwrap()]);
    let o = run_ok(&args);
    for part in 2..=3 {
        assert!(o.contains(&format!("8 cards, smallest hand {part}: complete")), "{o}");
    }
    assert!(!o.contains("8 cards, smallest hand 1:"), "a decided part is not solved again: {o}");
    assert_eq!(file(&cut, "cycles.csv"), file(&one, "cycles.csv"));
    for name in ["instances.csv", "parts.csv"] {
        assert_eq!(without_times(&file(&cut, name)), without_times(&file(&one, name)), "{name}");
    }
    // A damaged parts.csv is refused, not read as decided parts: an unknown verdict, a part
    // the question does not have (C=1 V=7 has 3), a part written twice.
    let good = file(&cut, "parts.csv");
    let last = good.lines().last().unwrap().to_string();
    for (bad, message) in [
        (good.replace("10,3,false,complete,", "10,3,false,done,"), "verdict is \"done\""),
        (good.replace("10,3,false,", "10,4,false,"), "smallest hand 4"),
        (format!("{good}{last}\n"), "there twice"),
    ] {
        fs::write(cut.join("parts.csv"), &bad).unwrap();
        let o = bataille(&args);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains(message), "{message}: {}", text(&o));
    }
    // Nor is an instances row with an unknown verdict read as a decided period.
    fs::write(cut.join("parts.csv"), &good).unwrap();
    let instances = file(&cut, "instances.csv").replace("10,false,complete,", "10,false,done,");
    fs::write(cut.join("instances.csv"), instances).unwrap();
    let o = bataille(&args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("verdict is \"done\""), "{}", text(&o));
}

/// A resume reads back only files that agree with themselves and with the question: a damaged
/// or foreign file is refused with exit 2, never completed into a "certified" answer.
#[test]
fn damaged_files_are_refused_on_resume() {
    let dir = scratch!("damaged");
    let good = dir.join("good");
    let question = ["cycles", "solve", "-c", "1", "-v", "7", "--max-period", "9", "--all"];
    run_ok(&[&question[..], &["--out", good.to_str().unwrap()]].concat());
    let read = |name: &str| fs::read_to_string(good.join(name)).unwrap();
    let (instances, cycles) = (read("instances.csv"), read("cycles.csv"));
    let row = |p: &str| instances.lines().find(|l| l.starts_with(p)).unwrap().to_string();
    let drop_line = |text: &str, n: usize| {
        text.lines().enumerate().filter(|(i, _)| *i != n).map(|(_, l)| format!("{l}\n")).collect()
    };
    let first_loop = cycles.lines().nth(1).unwrap();
    let wrong_id = format!("0000000000000000{}", &first_loop[16..]);
    let three = row("3,");
    let mut fields: Vec<&str> = three.split(',').collect();
    fields[10] = "";
    let no_proof = fields.join(",");
    let cases: Vec<(&str, String, &str)> = vec![
        ("cycles.csv", drop_line(&cycles, 3), "lists 51 loops of period 8, where the run found 52"),
        ("cycles.csv", String::new(), "does not begin with the header"),
        ("cycles.csv", cycles.replacen("\"[", "\"[9, ", 1), "not a C=1 V=7 deck"),
        ("instances.csv", instances.replace(&row("9,"), "9,false,complete,0"), "4 columns"),
        ("instances.csv", instances.replacen("period,", "round,", 1), "header"),
        (
            "instances.csv",
            instances.replace(",complete,52,", ",complete,7,"),
            "where the run found 7",
        ),
        ("instances.csv", instances.replacen("2,false,", "2,true,", 1), "deals=true"),
        ("instances.csv", format!("{instances}{}\n", row("5,")), "period 5 is there twice"),
        (
            "instances.csv",
            format!("{instances}{}\n", row("5,").replacen("5,", "99,", 1)),
            "period 99 is not one of this question's 1 to 9",
        ),
        (
            "instances.csv",
            instances.replacen(&row("3,"), &row("3,").replacen(",0,", ",x,", 1), 1),
            "is \"x\"",
        ),
        // A loop under an id that is not the engine's, or with periods that are not its own.
        ("cycles.csv", cycles.replacen(first_loop, &wrong_id, 1), "not 0000000000000000"),
        (
            "cycles.csv",
            cycles.replacen(first_loop, &first_loop.replacen(",", ",9", 1), 1),
            "tricks and",
        ),
        // A complete period with its proof's hash removed (and no parts to stand for it).
        (
            "instances.csv",
            instances.replace(&row("3,"), &no_proof),
            "complete with no proof of its own",
        ),
    ];
    for (i, (name, bad, message)) in cases.iter().enumerate() {
        let copy = dir.join(format!("bad-{i}"));
        fs::create_dir_all(&copy).unwrap();
        for f in ["instances.csv", "cycles.csv", "metadata.csv"] {
            fs::copy(good.join(f), copy.join(f)).unwrap();
        }
        fs::write(copy.join(name), bad).unwrap();
        let o = bataille(&[&question[..], &["--resume", "--out", copy.to_str().unwrap()]].concat());
        assert_eq!(o.status.code(), Some(2), "case {i}: {}", text(&o));
        assert!(text(&o).contains(message), "case {i}, {message}: {}", text(&o));
    }
    // A loop of a period the question does not have (8, in periods 1 to 7).
    let seven = dir.join("seven");
    let to_seven = ["cycles", "solve", "-c", "1", "-v", "7", "--max-period", "7", "--all"];
    run_ok(&[&to_seven[..], &["--out", seven.to_str().unwrap()]].concat());
    let none = fs::read_to_string(seven.join("cycles.csv")).unwrap();
    fs::write(seven.join("cycles.csv"), format!("{none}{}\n", cycles.lines().nth(1).unwrap()))
        .unwrap();
    let o = bataille(&[&to_seven[..], &["--resume", "--out", seven.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("turns in 8 tricks, not a period of this question"), "{}", text(&o));
    // One period asked alone lists the loops of its divisors too (C=1 V=5 at 12 tricks: loops
    // of 6), and its row counts them: a loop removed is missed on resume, intact files resume.
    let alone = dir.join("alone");
    let twelve = ["cycles", "solve", "-c", "1", "-v", "5", "--period", "12", "--all"];
    run_ok(&[&twelve[..], &["--out", alone.to_str().unwrap()]].concat());
    let listed = fs::read_to_string(alone.join("cycles.csv")).unwrap();
    let found = listed.lines().count() - 1;
    assert!(found > 0 && listed.lines().skip(1).all(|l| l.split(',').nth(1) != Some("12")));
    let resumed = run_ok(&[&twelve[..], &["--resume", "--out", alone.to_str().unwrap()]].concat());
    assert!(resumed.contains("certified"), "{resumed}");
    fs::write(alone.join("cycles.csv"), drop_line(&listed, 1)).unwrap();
    let o = bataille(&[&twelve[..], &["--resume", "--out", alone.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let message = format!("where the run found {found}");
    assert!(text(&o).contains(&message), "{message}: {}", text(&o));
    // The same for aligned solve: a cycle of rounds missing or written twice.
    let blocks = dir.join("aligned");
    let aligned = ["aligned", "solve", "--cards", "8", "--max-rounds", "5"];
    run_ok(&[&aligned[..], &["--out", blocks.to_str().unwrap()]].concat());
    let rounds = fs::read_to_string(blocks.join("rounds.csv")).unwrap();
    let twice = format!("{rounds}{}\n", rounds.lines().nth(1).unwrap());
    for (bad, message) in [(drop_line(&rounds, 2), "lists 5 cycles of 4 rounds"), (twice, "twice")]
    {
        fs::write(blocks.join("rounds.csv"), bad).unwrap();
        let o =
            bataille(&[&aligned[..], &["--resume", "--out", blocks.to_str().unwrap()]].concat());
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains(message), "{message}: {}", text(&o));
    }
    // blocks.csv, made from rounds.csv and kept by a resume with nothing left, which says
    // every cycle is in it: a row removed, or the file gone, is refused too.
    fs::write(blocks.join("rounds.csv"), &rounds).unwrap();
    let catalogue = fs::read_to_string(blocks.join("blocks.csv")).unwrap();
    let resume = [&aligned[..], &["--resume", "--out", blocks.to_str().unwrap()]].concat();
    assert!(run_ok(&resume).contains("nothing left to solve"));
    for bad in [Some(drop_line(&catalogue, 3)), None] {
        match bad {
            Some(text) => fs::write(blocks.join("blocks.csv"), text).unwrap(),
            None => fs::remove_file(blocks.join("blocks.csv")).unwrap(),
        }
        let o = bataille(&resume);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains("blocks.csv"), "{}", text(&o));
        assert!(!text(&o).contains("certified"), "{}", text(&o));
    }
}

/// A period that stopped at its first loop is not complete: resumed with --all, it lists every
/// loop, and counts it, as a run with --all from the start does (with --max-period, where the
/// loops already listed would be blocked were they kept).
#[test]
fn a_period_stopped_at_its_first_loop_is_completed_by_all() {
    let dir = scratch!("found-then-all");
    let (first, whole) = (dir.join("first"), dir.join("whole"));
    let question = ["cycles", "solve", "-c", "1", "-v", "7", "--max-period", "8"];
    let o = run_ok(&[&question[..], &["--out", first.to_str().unwrap()]].concat());
    assert!(o.contains("stopped at the first loop"), "{o}");
    let o =
        run_ok(&[&question[..], &["--all", "--resume", "--out", first.to_str().unwrap()]].concat());
    assert!(o.contains("period 8: complete") && o.contains("certified"), "{o}");
    run_ok(&[&question[..], &["--all", "--out", whole.to_str().unwrap()]].concat());
    let sorted = |d: &std::path::Path| {
        let mut l: Vec<String> =
            fs::read_to_string(d.join("cycles.csv")).unwrap().lines().map(String::from).collect();
        l.sort();
        l
    };
    assert_eq!(sorted(&first), sorted(&whole));
    assert_eq!(sorted(&whole).len(), 53, "C=1 V=7: 52 loops of 8 tricks and the header");
    let instances =
        |d: &std::path::Path| without_times(&fs::read_to_string(d.join("instances.csv")).unwrap());
    assert_eq!(instances(&first), instances(&whole));
}

/// A split period left with an undecided part, then resumed whole (without --split) and
/// stopped again, leaves no stale parts behind: the next resume goes on.
#[test]
fn a_split_period_resumed_whole_leaves_no_stale_parts() {
    let dir = scratch!("split-then-whole");
    let out = dir.join("out");
    let question = ["cycles", "solve", "-c", "1", "-v", "7", "--cards", "--period", "8", "--all"];
    let out_s = out.to_str().unwrap();
    run_ok(&[&question[..], &["--split", "--threads", "1", "--out", out_s]].concat());
    // As a part that ran out of time would leave them.
    let parts = fs::read_to_string(out.join("parts.csv")).unwrap();
    fs::write(out.join("parts.csv"), parts.replace("8,3,false,complete,", "8,3,false,undecided,"))
        .unwrap();
    let instances = fs::read_to_string(out.join("instances.csv")).unwrap();
    fs::write(out.join("instances.csv"), instances.replace(",complete,", ",undecided,")).unwrap();
    let o =
        run_ok(&[&question[..], &["--resume", "--time-limit", "0.001", "--out", out_s]].concat());
    assert!(o.contains("UNDECIDED"), "{o}");
    let o = run_ok(&[&question[..], &["--resume", "--out", out_s]].concat());
    assert!(o.contains("8 cards: complete"), "{o}");
    assert_eq!(fs::read_to_string(out.join("cycles.csv")).unwrap().lines().count(), 53);
}

/// The columns of a row that do not depend on the machine: all but the solver's and the
/// checker's seconds.
fn untimed(file: &std::path::Path) -> Vec<String> {
    let text = fs::read_to_string(file).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let keep = |i: &usize| !matches!(header[*i], "solve_s" | "check_s");
            (0..f.len()).filter(keep).map(|i| f[i]).collect::<Vec<_>>().join(",")
        })
        .collect()
}

#[test]
fn parts_solved_apart_and_merged_give_the_whole_period() {
    let dir = scratch!("merge");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let q =
        ["cycles", "solve", "-c", "1", "-v", "5", "--cards", "--period", "6", "--split", "--all"];
    let with =
        |extra: &[&str]| -> Vec<String> { q.iter().chain(extra).map(|s| s.to_string()).collect() };
    let ok = |args: Vec<String>| run_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    ok(with(&["--out", &path("whole")]));
    let o = ok(with(&["--part", "2", "--out", &path("p2")]));
    assert!(o.contains("part: 6 cards, smallest hand 2 of 2: complete (2 loops found)"), "{o}");
    // One part merged: the period stays undecided, and the open part is named.
    let o = ok(with(&["--merge", &path("p2"), "--out", &path("half")]));
    assert!(o.contains("6 cards: undecided (1 of 2 parts decided)"), "{o}");
    assert!(o.contains("open parts: smallest hand 1"), "{o}");
    assert!(!o.contains("smallest hand 1: complete"), "the merge solves nothing: {o}");
    ok(with(&["--part", "1", "--out", &path("p1")]));
    let o = ok(with(&["--merge", &path("p1"), &path("p2"), "--out", &path("merged")]));
    assert!(o.contains("certified: every position that comes back after 6 cards"), "{o}");
    for f in ["parts.csv", "instances.csv"] {
        let (a, b) = (dir.join("whole").join(f), dir.join("merged").join(f));
        assert_eq!(untimed(&a), untimed(&b), "{f}");
    }
    let cycles = |d: &str| fs::read_to_string(dir.join(d).join("cycles.csv")).unwrap();
    assert_eq!(cycles("whole"), cycles("merged"));
    let meta = fs::read_to_string(dir.join("merged/metadata.csv")).unwrap();
    assert_eq!(meta.matches("earlier_command,").count(), 2, "{meta}");
    // The half-merged directory resumes to the same period.
    ok(with(&["--resume", "--out", &path("half")]));
    assert_eq!(cycles("half"), cycles("whole"));
    // Refused: a part twice, another question's directory, a part out of range, the output
    // among the parts.
    let refused = |args: Vec<String>, words: &str| {
        let o = bataille(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains(words), "{words}: {}", text(&o));
    };
    refused(with(&["--merge", &path("p1"), &path("p1"), "--out", &path("m1")]), "in both");
    refused(with(&["--merge", &path("whole"), &path("p2"), "--out", &path("m2")]), "in both");
    refused(with(&["--part", "3", "--out", &path("p3")]), "has 2 parts, smallest hands 1 to 2");
    refused(with(&["--merge", &path("p1"), "--out", &path("p1")]), "the merge would replace it");
    let other = ["cycles", "solve", "-c", "1", "-v", "5", "--cards", "--period", "4", "--split"];
    run_ok(&[&other[..], &["--part", "1", "--out", &path("o1")]].concat());
    refused(
        with(&["--merge", &path("o1"), "--out", &path("m3")]),
        "is not a part of this question",
    );
}
