//! The standing fuzz suite's properties that need the command line's own internals: the
//! numeric flags and their validators (clap and `checks`), and the solvers' question and
//! resume files, resumed in process. The other parsers of user input
//! are fuzzed in the crates that own them, each in a test module named `fuzz`, on the helpers
//! of the test-only crate `bataille-fuzz` (cases and seed from `BATAILLE_FUZZ_CASES` and
//! `BATAILLE_FUZZ_SEED`, near-valid text, damaged files). Every parser must answer `Ok` or a
//! short error, never panic.
//!
//! `cargo test` runs 256 cases per property from a fixed seed; a longer campaign, every
//! property of the workspace: `BATAILLE_FUZZ_CASES=100000 cargo test --workspace --tests fuzz`
//! (and `BATAILLE_FUZZ_SEED=N` another seed); with `--workspace`, not `-p`, it reuses the
//! build `cargo test --workspace` made.

use std::path::Path;

use bataille_fuzz::{cases, check, csv_damaged, number_text, runner_of, short};
use clap::Parser as _;
use proptest::prelude::*;

#[test]
fn numeric_flags_parse_or_refuse() {
    let flag = prop::sample::select(vec![
        ("explore", "--threads"),
        ("explore", "--top"),
        ("explore", "--random"),
        ("explore", "--max-cycles"),
        ("explore", "--checkpoint-every"),
        ("explore", "-c"),
        ("explore", "-v"),
        ("explore", "--shard"),
        ("records", "--time"),
        ("records", "--chains"),
        ("records", "--threads"),
        ("records", "--iterations"),
        ("records", "--epoch"),
    ]);
    check((flag, number_text()), |((command, flag), value)| {
        let mut args: Vec<String> = match command {
            "explore" => "bataille explore --exhaustive --out x",
            _ => "bataille records search --out x",
        }
        .split(' ')
        .map(String::from)
        .collect();
        for (f, v) in [("-c", "4"), ("-v", "3")] {
            if f != flag {
                args.extend([f.to_string(), v.to_string()]);
            }
        }
        if command == "records" && flag != "--time" && flag != "--iterations" {
            args.extend(["--iterations".to_string(), "10".to_string()]);
        }
        if flag == "--checkpoint-every" {
            args.extend(["--checkpoint".to_string(), "ckpt".to_string()]);
        }
        args.extend([flag.to_string(), value.clone()]);
        if let Err(e) = crate::flags::Cli::try_parse_from(&args) {
            short(&e.to_string())?;
        }
        let _ = crate::checks::threads(&value);
        let _ = crate::checks::seconds(&value);
        let _ = format!("{value}/{value}").parse::<bataille_search::Shard>();
        Ok(())
    });
}

/// Runs the command line `args` (without the program name) in this process: `Ok` or an error
/// whose message is short.
fn run_in_process(args: &[&str]) -> Result<(), TestCaseError> {
    let cli =
        crate::flags::Cli::try_parse_from(std::iter::once("bataille").chain(args.iter().copied()))
            .expect("a valid command line");
    let result = match cli.command {
        crate::flags::Command::Cycles(a) => crate::cycles::run(a),
        crate::flags::Command::Aligned(a) => crate::aligned::run(a),
        _ => unreachable!("a solver command"),
    };
    if let Err(e) = result {
        short(&format!("{e:#}"))?;
    }
    Ok(())
}

/// The solvers' question and resume files (metadata.csv, instances.csv, parts.csv, cycles.csv;
/// rounds.csv and blocks.csv of `aligned solve`), one of them damaged: `--resume` answers or
/// refuses them briefly, never panics. (Each case resumes, and solves again a period or part
/// the damage reopened: small questions, but fewer cases than the parsers' properties.)
#[test]
fn solver_resume_files_read_or_refuse() {
    let base = std::env::temp_dir().join(format!("bataille-fuzz-solve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let s = |p: &Path| p.to_str().expect("a UTF-8 path").to_string();
    let questions: [(&str, &str, &[&str]); 2] = [
        (
            "cycles",
            // (C=1 V=5 has two loops, each turning 6 cards.)
            "cycles solve -c 1 -v 5 --cards --max-period 10 --all --split --threads 1",
            &["metadata.csv", "instances.csv", "parts.csv", "cycles.csv"],
        ),
        (
            "aligned",
            "aligned solve --cards 8 --max-rounds 3",
            &["metadata.csv", "instances.csv", "rounds.csv", "blocks.csv"],
        ),
    ];
    for (name, question, files) in questions {
        let question: Vec<&str> = question.split(' ').collect();
        let valid = base.join(name);
        let out = s(&valid);
        run_in_process(&[&question[..], &["--out", &out]].concat()).expect("the valid files");
        let texts: Vec<String> =
            files.iter().map(|f| std::fs::read_to_string(valid.join(f)).expect(f)).collect();
        let damaged_files =
            (0..files.len()).prop_flat_map(|k| (Just(k), csv_damaged(texts[k].clone())));
        let result = runner_of((cases() / 100).max(16)).run(&damaged_files, |(k, text)| {
            let dir = base.join(format!("{name}-case"));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            for (f, t) in files.iter().zip(&texts) {
                std::fs::write(dir.join(f), t).unwrap();
            }
            std::fs::write(dir.join(files[k]), &text).unwrap();
            run_in_process(&[&question[..], &["--out", &s(&dir), "--resume"]].concat())
        });
        if let Err(e) = result {
            panic!("{name}: {e}");
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}
