//! `bataille takeaway`: solve, play (driven through standard input), table, verify.

use crate::support::{bataille, bataille_with_input, stderr, stdout, text};

/// `solve` on published positions: (arguments, lines the answer must contain).
#[test]
fn solve_published_positions() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["nim", "33", "59", "25", "3"], &["outcome:   P", "columns:   2 2 2 0 2 4"]),
        (&["nim", "28", "59", "25", "3"], &["winning:   take 53 from row 2 (59 -> 6)"]),
        (&["marienbad"], &["position:  1-3-5-7", "outcome:   P", "misère"]),
        (&["nim", "3", "5", "7", "9"], &["winning:   take 8 from row 4 (9 -> 1)"]),
        (&["fort-boyard"], &["position:  18", "winning:   take 1 (18 -> 17)"]),
        (&["fort-boyard", "20"], &["winning:   take 3 (20 -> 17)"]),
        (&["matches", "50"], &["winning:   take 2 -> (48,2)", "(50,n) is won for n >= 1"]),
        (&["matches", "48", "--prev", "6"], &["outcome:   P", "(48,n) is won for n >= 7"]),
        (&["matches", "81", "--rule", "n+1", "--prev", "79"], &["take 80 -> (1,80)"]),
        (&["two-heaps", "6", "2", "--prev", "1"], &["winning:   2B -> (6, 0, 2)"]),
        (&["two-heaps", "50", "50"], &["outcome:   P"]),
        (&["matches", "41", "--rule", "3n", "--brute-force"], &["generic solver", "outcome:   P"]),
        (&["subtraction", "9", "--max-take", "2", "--convention", "misere"], &["take 2 (9 -> 7)"]),
    ];
    for (args, want) in cases {
        let mut full = vec!["takeaway", "solve"];
        full.extend_from_slice(args);
        let o = bataille(&full);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        for w in *want {
            assert!(out.contains(w), "{args:?}: missing {w:?} in\n{out}");
        }
    }
}

/// Brute force and the closed forms or tables give the same answer.
#[test]
fn brute_force_agrees() {
    for args in [
        &["nim", "2", "5", "6"][..],
        &["marienbad", "1", "1", "4"],
        &["matches", "30", "--rule", "2n"],
        &["two-heaps", "7", "4", "--prev", "2"],
        &["fort-boyard", "14"],
    ] {
        let mut full = vec!["takeaway", "solve"];
        full.extend_from_slice(args);
        let fast = stdout(&bataille(&full));
        full.push("--brute-force");
        let brute = stdout(&bataille(&full));
        let strip = |s: &str| -> String {
            s.lines().filter(|l| l.starts_with("outcome") || l.starts_with("winning")).collect()
        };
        assert_eq!(strip(&fast), strip(&brute), "{args:?}");
        assert!(!strip(&fast).is_empty());
    }
}

#[test]
fn play_a_won_game_through_stdin() {
    // 18 sticks: the person follows the 4k + 1 strategy and wins.
    let o = bataille_with_input(&["takeaway", "play", "fort-boyard"], "1\n3\n3\n3\n3\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("you can win"), "{out}");
    assert!(out.contains("(no winning move here: playing on)"), "{out}");
    assert!(out.contains("the program took the last one: you win"), "{out}");
}

#[test]
fn play_a_lost_game_through_stdin() {
    // The program starts from 50 matches and wins whatever the person does.
    let o = bataille_with_input(
        &["takeaway", "play", "matches", "50", "--first", "program"],
        &"1\n".repeat(50),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("program:   take 2 -> (48,2)"), "{out}");
    assert!(out.contains("you took the last one: the program wins"), "{out}");
}

#[test]
fn play_two_heaps_and_nim() {
    let o = bataille_with_input(&["takeaway", "play", "two-heaps", "2", "2"], "1a\nA 1\n");
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("you:       1A -> (1, 2, 1)"), "{out}");
    assert!(out.contains("program:   2B -> (1, 0, 2)"), "{out}");
    assert!(out.contains("you took the last one: the program wins"), "{out}");
    let o = bataille_with_input(&["takeaway", "play", "nim", "1", "2"], "2 1\n2 1\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("you took the last one: you win"), "{}", stdout(&o));
}

#[test]
fn play_bad_moves_and_end_of_input() {
    // Bad moves are reported and asked again; the input then ends before the game does.
    let o = bataille_with_input(&["takeaway", "play", "matches", "20"], "3\nfoo\n0\n\n1\n");
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("bad move \"3\": you may take 1 to 2, not 3"), "{err}");
    assert!(err.contains("bad move \"foo\""), "{err}");
    assert!(err.contains("bad move \"0\""), "{err}");
    assert!(err.contains("input ended before the game was over"), "{err}");
    assert!(stdout(&o).contains("you:       take 1 -> (19,1)"));
    // Nothing at all on standard input.
    let o = bataille_with_input(&["takeaway", "play", "nim", "1", "2"], "");
    assert_eq!(o.status.code(), Some(2));
    // --strict stops at the first bad move.
    let o = bataille_with_input(&["takeaway", "play", "nim", "3", "4", "--strict"], "5 1\n1 1\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("there is no row 5: rows are 1 to 2"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));
}

/// The exported 2n, 3n and 4n sequences are the ones seed 003 publishes.
#[test]
fn table_sequences_are_the_published_ones() {
    let published = [
        (
            "2n",
            "1 2 3 1 5 1 2 8 1 2 3 1 13 1 2 3 1 5 1 2 21 1 2 3 1 5 1 2 8 1 2 3 1 34 1 2 3 1 5 1 2 8 \
             1 2 3 1 13 1 2 3 1 5 1 2 55",
        ),
        (
            "3n",
            "1 2 3 4 1 6 1 8 1 2 11 1 2 3 15 1 2 3 4 1 21 1 2 3 4 1 6 1 29 1 2 3 4 1 6 1 8 1 2 40 \
             1 2 3 4 1 6 1 8 1 2",
        ),
        (
            "4n",
            "1 2 3 4 5 1 7 1 9 1 2 12 1 2 15 1 2 3 19 1 2 3 4 24 1 2 3 4 5 1 31 1 2 3 4 5 1 7 1 40 \
             1 2 3 4 5 1 7 1 9",
        ),
    ];
    for (rule, want) in published {
        let want: Vec<&str> = want.split_whitespace().collect();
        let max = (want.len() + 1).to_string();
        let o = bataille(&["takeaway", "table", "sequence", "--rule", rule, "--max", &max]);
        assert!(o.status.success(), "{}", stderr(&o));
        let mut r = csv::Reader::from_reader(o.stdout.as_slice());
        let headers = r.headers().expect("header").clone();
        assert_eq!(&headers[1], "winning_take");
        let got: Vec<String> = r.records().map(|rec| rec.expect("record")[1].to_string()).collect();
        assert_eq!(got, want, "{rule}");
    }
}

#[test]
fn table_positions_to_a_file() {
    let dir = std::env::temp_dir().join(format!("bataille-takeaway-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("fb.csv");
    let o = bataille(&[
        "takeaway",
        "table",
        "positions",
        "fort-boyard",
        "--max",
        "18",
        "--output",
        path.to_str().expect("utf-8 path"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut r = csv::Reader::from_path(&path).expect("reads");
    let losing: Vec<String> = r
        .records()
        .map(|rec| rec.expect("record"))
        .filter(|rec| &rec[1] == "P")
        .map(|rec| rec[0].to_string())
        .collect();
    assert_eq!(losing, ["1", "5", "9", "13", "17"]);
    // Written whole, by a rename: nothing left beside it.
    let beside: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(beside, ["fb.csv"]);
    // A link is refused, not replaced.
    let link = dir.join("link.csv");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    let l = link.to_str().unwrap();
    let o = bataille(&["takeaway", "table", "positions", "nim", "--max", "3", "--output", l]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).expect("cleans up");
}

#[test]
fn verify_has_no_unexplained_mismatch() {
    let o = bataille(&["takeaway", "verify"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains("54 claims checked: 38 ok, 4 misprints, 8 false claims, 4 computed, 0 failed"),
        "{out}"
    );
    assert!(out.contains("s000-reply"), "{out}");
    assert!(out.contains("take 53 from row 2 (59 -> 6)"), "{out}");
    let o = bataille(&["takeaway", "verify", "--csv", "--filter", "s004"]);
    assert!(o.status.success());
    let mut r = csv::Reader::from_reader(o.stdout.as_slice());
    assert_eq!(r.records().count(), 4);
    // A filter that matches nothing is an error, as for `bataille verify`, not "0 checked".
    let o = bataille(&["takeaway", "verify", "--filter", "zzz"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no catalogue entry matches"), "{}", text(&o));
    let o = bataille(&["takeaway", "verify", "--markdown", "--filter", "s004"]);
    assert!(o.status.success());
    let md = String::from_utf8(o.stdout).unwrap();
    assert!(md.contains("| `s004-18-sticks`: 18 sticks: "), "{md}");
    assert!(
        md.ends_with(
            "\n\n4 claims checked: 4 ok, 0 misprints, 0 false claims, 0 computed, 0 failed\n"
        ),
        "{md}"
    );
}

#[test]
fn bad_input_is_a_usage_error() {
    for args in [
        &["takeaway", "solve", "chess", "1"][..],
        &["takeaway", "solve", "nim"],
        &["takeaway", "solve", "nim", "1", "x"],
        &["takeaway", "solve", "nim", "3", "--rule", "2n"],
        &["takeaway", "solve", "matches", "5", "--rule", "0n"],
        &["takeaway", "solve", "matches", "5", "--rule", "two"],
        &["takeaway", "solve", "matches", "5", "6"],
        &["takeaway", "solve", "matches", "5", "--first-max", "0"],
        &["takeaway", "solve", "matches", "4000000000"],
        &["takeaway", "solve", "matches", "300000000"],
        &["takeaway", "solve", "two-heaps", "9000", "1"],
        &["takeaway", "solve", "subtraction", "9"],
        &["takeaway", "solve", "subtraction", "9", "--max-take", "0"],
        &["takeaway", "table", "positions", "nim", "1", "2"],
        &["takeaway", "table", "positions", "nim", "--rows", "0"],
        &["takeaway", "table", "positions", "nim", "--rows", "8", "--max", "64"],
        &["takeaway", "table", "positions", "two-heaps", "--max", "5000"],
        &["takeaway", "table", "sequence", "--rule", "n+"],
        &["takeaway", "table", "positions", "fort-boyard", "--output", "/nonexistent/dir/x.csv"],
        &["takeaway", "play", "nim", "1", "--first", "nobody"],
    ] {
        let o = bataille_with_input(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        let err = stderr(&o);
        assert!(!err.is_empty(), "{args:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
