//! Runs the built `bataille` binary as a user would.

use std::process::{Command, Output};

fn bataille(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bataille")).args(args).output().expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn play_article_v5() {
    let o = bataille(&["play", "[5, 3] / [2, 4, 1]", "--trace"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("[5, 3] / [2, 4, 1] →\n[3, 5, 2] / [4, 1] →"), "{out}");
    assert!(out.contains("period:    6 tricks"), "{out}");
}

#[test]
fn bad_input_is_a_usage_error() {
    for args in [
        &["play", "1,2,3"][..],
        &["play", "1,1,2/2,3"],
        &["play", "5,3/2,4,1", "--method", "clever"],
        &["play", "5,3/2,4,1", "--colours", "2"],
        &["play", "5,3/2,4,1", "--seed", "x"],
        &["nonsense"],
    ] {
        let o = bataille(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(!stderr(&o).is_empty(), "{args:?}");
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}
