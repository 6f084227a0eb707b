//! What every test module of the `bataille` binary needs: running it (with or without standard
//! input), its output as text, scratch directories, comparing result files.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs the built `bataille` with `args`.
pub(crate) fn bataille(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bataille")).args(args).output().expect("runs")
}

/// Runs the built `bataille` with `args` and `input` on standard input.
pub(crate) fn bataille_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bataille"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child.stdin.take().expect("piped").write_all(input.as_bytes()).expect("writes");
    child.wait_with_output().expect("finishes")
}

/// Standard output, as text.
pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error, as text.
pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output then standard error, as text.
pub(crate) fn text(o: &Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

/// Runs a command that must succeed; returns its standard output and error.
pub(crate) fn run_ok(args: &[&str]) -> String {
    let o = bataille(args);
    assert!(o.status.success(), "{args:?}: {}", text(&o));
    text(&o)
}

/// Runs a command that must succeed; returns its standard output.
pub(crate) fn stdout_ok(args: &[&str]) -> String {
    let o = bataille(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// A fresh scratch directory `name` of the test module `module` (a `module_path!()`), under
/// the target directory: `<module>-tests/<name>`. Use the [`scratch!`] macro.
pub(crate) fn scratch_in(module: &str, name: &str) -> PathBuf {
    let module = module.rsplit("::").next().unwrap_or(module);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{module}-tests")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fresh scratch directory of the calling test module (see [`scratch_in`]).
macro_rules! scratch {
    ($name:expr) => {
        $crate::support::scratch_in(module_path!(), $name)
    };
}

/// The value of `key` in the `summary.csv` of `dir`.
pub(crate) fn summary_value(dir: &Path, key: &str) -> String {
    let s = fs::read_to_string(dir.join("summary.csv")).unwrap();
    let line =
        s.lines().find(|l| l.starts_with(&format!("{key},"))).unwrap_or_else(|| panic!("{key}"));
    line[key.len() + 1..].to_string()
}

/// Asserts that the files `names` are the same bytes in the directories `a` and `b`.
pub(crate) fn assert_same_files(a: &Path, b: &Path, names: &[&str]) {
    for f in names {
        let (x, y) = (fs::read(a.join(f)).unwrap(), fs::read(b.join(f)).unwrap());
        assert!(x == y, "{f} differs between {} and {}", a.display(), b.display());
    }
}
