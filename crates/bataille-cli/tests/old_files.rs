//! Files written before `summary.csv` renamed its `cycles` column to `looping_deals`: state
//! files (`state.txt`, `--checkpoint`) are read, merged and resumed by this binary with exactly
//! the same results.
//!
//! `fixtures/old-format/` holds what the binary of that time wrote for
//! `bataille hunt -c 1 -v 9 --random 60000 --seed 3 --keep 2 --max-cycles 5` (loops kept per
//! deal and capped, so that every optional line of the state format is there): the `state.txt`
//! of `--shard 1/2` and `--shard 2/2`, the checkpoint of a run stopped after one unit
//! (`--max-units 1 --checkpoint`), and the result files of the whole run (`full/`).

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::run_ok;

const ARGS: [&str; 13] = [
    "hunt",
    "-c",
    "1",
    "-v",
    "9",
    "--random",
    "60000",
    "--seed",
    "3",
    "--keep",
    "2",
    "--max-cycles",
    "5",
];

const RESULTS: [&str; 6] =
    ["summary.csv", "histograms.csv", "records.csv", "cycles.csv", "loops.csv", "state.txt"];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/old-format")
}

/// The old result file `name`, as this binary writes it: the same but for the renamed column.
fn old_result(name: &str) -> Vec<u8> {
    let bytes = fs::read(fixtures().join("full").join(name)).unwrap();
    if name != "summary.csv" {
        return bytes;
    }
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.contains("\ncycles,35928\n"), "{text}");
    text.replace("\ncycles,", "\nlooping_deals,").into_bytes()
}

#[test]
fn old_state_files_merge_and_resume_to_the_same_results() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("old-files");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let s = |p: &Path| p.to_str().unwrap().to_string();

    // The whole run by this binary.
    let fresh = dir.join("fresh");
    run_ok(&[&ARGS[..], &["--out", &s(&fresh)]].concat());
    // The old shards merged.
    let merged = dir.join("merged");
    let (one, two) = (fixtures().join("shard-1"), fixtures().join("shard-2"));
    run_ok(&["merge", &s(&one), &s(&two), "--out", &s(&merged)]);
    // The old checkpoint resumed (copied: a resumed run rewrites its checkpoint).
    let checkpoint = dir.join("checkpoint.txt");
    fs::copy(fixtures().join("checkpoint.txt"), &checkpoint).unwrap();
    let resumed = dir.join("resumed");
    run_ok(
        &[&ARGS[..], &["--checkpoint", &s(&checkpoint), "--resume", "--out", &s(&resumed)]]
            .concat(),
    );

    for name in RESULTS {
        let old = old_result(name);
        for d in [&fresh, &merged, &resumed] {
            assert!(fs::read(d.join(name)).unwrap() == old, "{name} of {} differs", d.display());
        }
    }
}
