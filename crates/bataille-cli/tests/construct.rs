//! `bataille construct` and `bataille aligned`, run as a user would.

use crate::support::{bataille, stderr, stdout};

/// Runs `args`, checks the exit code and that every needle is in stdout; returns stdout.
fn check(args: &[&str], code: i32, needles: &[&str]) -> String {
    let o = bataille(args);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(code), "{args:?}\nstdout:\n{out}\nstderr:\n{err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    for n in needles {
        assert!(out.contains(n), "{args:?}: missing {n:?} in\n{out}");
    }
    out
}

const V4: &str = "[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1]";
const V6: &str = "[2, 1, 5, 5, 6, 2, 6, 6, 4, 1, 4, 4] / [5, 3, 5, 1, 6, 3, 3, 2, 4, 2, 3, 1]";

#[test]
fn spivey_reproduces_the_article() {
    check(
        &["construct", "spivey", "--values", "18"],
        0,
        &[
            "[A, B, B, C, A, B, B, C] / [B, C, A, B, B, C, A, B, B, C]",
            "deal:          [18, 14, 13, 5, 17, 12, 11, 4] / [10, 3, 16, 9, 8, 2, 15, 7, 6, 1]",
            "tail:          0 tricks",
            "period:        360 tricks, 360 cards per player (as predicted)",
        ],
    );
    check(
        &["construct", "spivey", "-v", "9", "--substitution", "A=9,6,8,7 B=1,2,5,4,3"],
        0,
        &["deal:          [9, 1, 6, 2] / [5, 8, 4, 7, 3]", "period:        20 tricks"],
    );
    check(
        &[
            "construct",
            "spivey",
            "-v",
            "18",
            "--deal",
            "[18,14,13,5,17,12,11,4]/[10,3,16,9,8,2,15,7,6,1]",
        ],
        0,
        &["read from the deal: it follows the pattern", "C = 5, 4, 3, 2, 1"],
    );
    // A deal off the pattern is a finding, not an error.
    check(
        &["construct", "spivey", "-v", "5", "--deal", "[5, 4] / [3, 2, 1]"],
        1,
        &["does not follow the pattern: card 2 of the first hand is 4, a A"],
    );
    check(
        &["construct", "spivey", "-v", "40", "--labelling", "random", "--seed", "3"],
        0,
        &["random, seed 3", "(as predicted)"],
    );
}

#[test]
fn spivey_explains_where_it_does_not_apply_and_scripts_over_v() {
    check(&["construct", "spivey", "-v", "12"], 0, &["does not apply", "V=12 is 3·2^2"]);
    check(&["construct", "spivey", "-v", "64"], 0, &["does not apply", "V=64 is 2^6"]);
    let out = check(&["construct", "spivey", "--values", "1..12"], 0, &[]);
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), 12);
    let status = |v: usize| rows[v - 1].split(',').nth(3).unwrap().to_string();
    for v in [1, 2, 3, 4, 6, 8, 12] {
        assert_eq!(status(v), "not-applicable", "V={v}");
    }
    for v in [5, 7, 9, 10, 11] {
        assert_eq!(status(v), "loop", "V={v}");
    }
    assert!(rows[4].starts_with("5,5,0,loop,2,3,2,6,0,6,\"5,3/2,4,1\""), "{}", rows[4]);
    let out = check(
        &["construct", "spivey", "-v", "200..255", "--predict-only"],
        0,
        &["224,7,5,predicted"],
    );
    assert_eq!(out.lines().count(), 57);
}

#[test]
fn construct_bad_input() {
    for args in [
        &["construct", "spivey", "-v", "0"][..],
        &["construct", "spivey", "-v", "256"],
        &["construct", "spivey", "-v", "5..300"],
        &["construct", "spivey", "-v", "x"],
        &["construct", "spivey", "-v", "9", "--substitution", "A=9,8,7,5 B=6,4,3,2,1"],
        &["construct", "spivey", "-v", "9", "--substitution", "A=9,x"],
        &["construct", "spivey", "-v", "5,7", "--deal", "5,3/2,4,1"],
        &["construct", "spivey", "-v", "9", "--labelling", "clever"],
        // A labelling to read on a V the construction does not apply to is not ignored.
        &["construct", "spivey", "-v", "12", "--deal", "[1, 2] / [3, 4]"],
        &["construct", "spivey", "-v", "6", "--substitution", "A=1,2 B=3,4,5,6"],
        &["construct", "aligned", "-v", "10", "--split", "2,2"],
        &["construct", "aligned", "-v", "10", "--split", "x"],
        &["construct", "c1-positions", "-v", "14"],
        &["construct", "c1-positions", "-v", "0"],
        &["construct", "c1-positions", "-v", "11", "--brute-force"],
    ] {
        let o = bataille(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&o.stdout));
        assert!(!err.is_empty() && !err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn lakshtanov_loops_without_battles() {
    check(
        &["construct", "lakshtanov"],
        0,
        &["C=4 V=13, 26 / 26 cards", "outcome:   infinite game (loop)", "battles:   none"],
    );
}

#[test]
fn aligned_decks_for_every_even_v_from_4_to_26() {
    let out = check(&["construct", "aligned", "--values", "4..26", "--all"], 0, &[]);
    let mut even = 0;
    for row in out.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        let v: usize = f[0].parse().unwrap();
        if v % 2 == 1 {
            assert_eq!(f[4], "not-applicable", "{row}");
        } else {
            assert_eq!(f[4], "aligned-loop", "{row}");
            even += 1;
        }
    }
    // One row per decomposition 4a + 6b of each even V.
    assert!(even > 12, "{out}");
    check(&["construct", "aligned", "-v", "7"], 0, &["does not apply"]);
    check(
        &["construct", "aligned", "-v", "10"],
        0,
        &["V=10, 20 / 20 cards", "from the parts: as found"],
    );
}

#[test]
fn c1_positions() {
    check(
        &["construct", "c1-positions", "-v", "6"],
        0,
        &["positions:     5040", "loops:         none"],
    );
    check(
        &["construct", "c1-positions", "-v", "5", "--brute-force"],
        0,
        &["on a loop:     24 positions", "brute force:   the same census"],
    );
}

#[test]
fn c1_positions_csv_counts_the_loops_of_every_period() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("construct-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("census.csv");
    let plain = check(&["construct", "c1-positions", "-v", "4..9"], 0, &[]);
    // The same screen output with --csv.
    let with_csv =
        check(&["construct", "c1-positions", "-v", "4..9", "--csv", csv.to_str().unwrap()], 0, &[]);
    let no_time =
        |t: &str| t.lines().filter(|l| !l.starts_with("time:")).collect::<Vec<_>>().join("\n");
    assert_eq!(no_time(&plain), no_time(&with_csv));
    // V=9 has 672 loops: the screen lists 10 of them, the CSV counts them all by period.
    assert!(plain.contains("loops:         672 (periods [20, 30] tricks)"), "{plain}");
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "values,period_tricks,loops,example_position\n\
         4,,0,\n\
         5,6,4,\"[1, 4, 2] / [5, 3]\"\n\
         6,,0,\n\
         7,8,104,\"[1, 4, 2, 6, 5] / [7, 3]\"\n\
         8,,0,\n\
         9,20,288,\"[1, 6, 2, 7, 3] / [8, 4, 9, 5]\"\n\
         9,30,384,\"[1, 6, 2] / [7, 3, 8, 4, 9, 5]\"\n"
    );
    // Refused before any work when its directory does not exist.
    let missing = dir.join("no-such-dir").join("census.csv");
    let o = bataille(&["construct", "c1-positions", "-v", "9", "--csv", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not exist"));
    assert!(o.stdout.is_empty());
}

#[test]
fn aligned_check() {
    check(
        &["aligned", "check", V4],
        0,
        &[
            "aligned:   yes: rounds of 8 cards",
            "    4       6  [2, 1, 4, 4, 2, 1, 3, 3]",
            "period:    4 rounds, 24 tricks",
        ],
    );
    check(
        &["aligned", "check", "[5, 3] / [2, 4, 1]"],
        1,
        &["aligned:   no: the hands hold 2 and 3 cards"],
    );
    check(&["aligned", "check", "5,3/2,4,1,1"], 2, &[]);
    check(&["aligned", "check", V4, "--method", "random"], 2, &[]);
}

#[test]
fn aligned_repeat_and_combine() {
    check(
        &["aligned", "repeat", V4, "--times", "2"],
        0,
        &[
            "[2, 1, 4, 4, 2, 1, 3, 3, 6, 5, 8, 8, 6, 5, 7, 7] / [4, 2, 4, 1, 3, 2, 3, 1, 8, 6, 8, 5, 7, 6, 7, 5]",
            "period 48 tricks",
            "aligned:   yes",
        ],
    );
    check(&["aligned", "combine", V4, V6], 0, &["C=4 V=10", "period 60 tricks", "as found"]);
    check(&["aligned", "repeat", "[5, 3] / [2, 4, 1]", "-k", "2"], 1, &["NOT aligned", "no loop"]);
    check(
        &[
            "aligned",
            "repeat",
            "[3, 1, 5, 4, 3, 2, 4, 3, 3, 2] / [1, 1, 5, 4, 2, 2, 5, 4, 5, 1]",
            "-k",
            "2",
            "-m",
            "optimized",
        ],
        1,
        &["NOT aligned", "aligned:   no"],
    );
    check(&["aligned", "repeat", V4, "--times", "0"], 2, &[]);
    check(&["aligned", "combine", V4, "[5, 3] / [2, 4, 1]"], 2, &[]);
    // A --deal that is not the deck is a bad input, refused before anything is printed; one
    // that does not follow the pattern is a finding (exit 1).
    let out =
        check(&["construct", "spivey", "--values", "5", "--deal", "[5, 3] / [2, 4, 9]"], 2, &[]);
    assert!(out.is_empty(), "{out}");
    check(&["construct", "spivey", "--values", "5", "--deal", "[5, 3] / [2, 1, 4]"], 1, &[]);
    // Ranges are checked whole before any row is printed.
    for args in [
        &["aligned", "cover", "-c", "1", "-v", "250..257"][..],
        &["aligned", "cover", "-c", "4", "-v", "65"],
        &["construct", "aligned", "--values", "4..10", "--split", "1,0"],
    ] {
        let out = check(args, 2, &[]);
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    // A directory with no catalogue in it is refused, not read as "no cover".
    let empty = std::env::temp_dir().join(format!("bataille-no-catalogue-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let out = check(
        &["aligned", "cover", "-c", "4", "-v", "4", "--catalogue", empty.to_str().unwrap()],
        2,
        &[],
    );
    assert!(out.is_empty(), "{out}");
    std::fs::remove_dir_all(&empty).unwrap();
    // The round cap is a depth of the search: bounded (it overflowed the stack, or an add).
    for rounds in ["0", "1001", "18446744073709551615"] {
        check(&["aligned", "blocks", "--cards", "8", "--max-rounds", rounds], 2, &[]);
    }
}

/// `aligned blocks` writes the committed 8-card catalogue again, and every row of a unit whose
/// loops include a block repeated (the 8-card block `[2, 1, 2, 2] / [3, 2, 2, 1]` twice: its
/// 16-card round of 6 tricks is two turns of a 3-trick loop) replays as an aligned loop.
#[test]
fn aligned_blocks_catalogue_replays() {
    let committed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../results/aligned-blocks/blocks-8.csv"
    ))
    .unwrap();
    assert_eq!(check(&["aligned", "blocks", "--cards", "8", "--threads", "1"], 0, &[]), committed);
    // Unit 423 of 486: round-1 outcomes 220122.
    let out = check(
        &["aligned", "blocks", "--cards", "16", "--max-multiplicity", "16", "--shard", "423/486"],
        0,
        &["\"[2, 1, 2, 2, 2, 1, 2, 2] / [3, 2, 2, 1, 3, 2, 2, 1]\",1,6,"],
    );
    assert_eq!(out.lines().count(), 37_908, "the header and 37,907 loops");
}

/// The checkpoints of the three shards of `aligned blocks --cards 8`, merged, give the
/// catalogue of the run without shards; a missing shard is named and nothing is written.
#[test]
fn aligned_blocks_shards_merge() {
    let dir = scratch!("blocks-merge");
    let ckpt = |k: u32| dir.join(format!("shard-{k}.ckpt")).display().to_string();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let out = dir.join(format!("shard-{k}.csv")).display().to_string();
        let args = ["aligned", "blocks", "--cards", "8", "--shard", &shard, "--checkpoint"];
        check(&[&args[..], &[&ckpt(k), "--out", &out]].concat(), 0, &[]);
    }
    let whole = check(&["aligned", "blocks", "--cards", "8"], 0, &[]);
    let merged = check(
        &["aligned", "blocks", "--cards", "8", "--merge", &ckpt(2), &ckpt(1), &ckpt(3)],
        0,
        &[],
    );
    assert_eq!(merged, whole);
    let o = bataille(&["aligned", "blocks", "--cards", "8", "--merge", &ckpt(1), &ckpt(3)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing shards 2/3"));
    assert!(o.stdout.is_empty());
    let o = bataille(&["aligned", "blocks", "--cards", "10", "--merge", &ckpt(1)]);
    assert_eq!(o.status.code(), Some(2), "another run's checkpoint");
}
