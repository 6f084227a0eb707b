//! Where a result comes from, as its files record it: the command that made it, as typed but
//! without any absolute path of this machine (a path inside the working directory is written
//! relative to it, any other as `<outside>/NAME`), and the command that makes the same result
//! again (without the options of a resumed run).

use std::path::Path;

/// `bataille` and `args` (the words after the program), each shown without machine paths and
/// quoted for a POSIX shell; with `replay`, without the checkpoint options (`--checkpoint`,
/// `--checkpoint-every`, `--resume`, `--replace`), since a replay starts afresh. `cwd` is the
/// working directory the paths are relative to.
///
/// ```
/// use std::path::Path;
/// use bataille_runs::provenance::command;
///
/// let args = ["explore", "-c", "4", "--out", "/home/me/runs/a b", "--resume"];
/// let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
/// let cwd = Some(Path::new("/home/me"));
/// assert_eq!(command(args.clone(), cwd, false), "bataille explore -c 4 --out 'runs/a b' --resume");
/// assert_eq!(command(args, None, true), "bataille explore -c 4 --out '<outside>/a b'");
/// ```
pub fn command(args: Vec<String>, cwd: Option<&Path>, replay: bool) -> String {
    let mut words = vec!["bataille".to_string()];
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        if replay {
            match a.as_str() {
                "--resume" | "--replace" => continue,
                "--checkpoint" | "--checkpoint-every" => {
                    args.next();
                    continue;
                }
                _ if a.starts_with("--checkpoint=") || a.starts_with("--checkpoint-every=") => {
                    continue;
                }
                _ => {}
            }
        }
        words.push(quote(&shown(&a, cwd)));
    }
    words.join(" ")
}

/// An argument without absolute paths: `PATH` or `--flag=PATH` made relative to `cwd` when
/// inside it, `<outside>/NAME` otherwise; any other argument as it is.
fn shown(arg: &str, cwd: Option<&Path>) -> String {
    if arg.starts_with("--")
        && let Some((flag, value)) = arg.split_once('=')
    {
        return format!("{flag}={}", shown_path(value, cwd));
    }
    shown_path(arg, cwd)
}

/// A path as the files write it: relative to `cwd` when inside it, `<outside>/NAME` otherwise
/// (no machine path in a written file).
pub fn shown_path(text: &str, cwd: Option<&Path>) -> String {
    let path = Path::new(text);
    if !path.is_absolute() {
        return text.to_string();
    }
    if let Some(inside) = cwd.and_then(|c| path.strip_prefix(c).ok()) {
        let inside = inside.to_string_lossy();
        return if inside.is_empty() { ".".to_string() } else { inside.into_owned() };
    }
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    format!("<outside>/{name}")
}

/// `word` as a POSIX shell reads it back: as it is when made of safe characters, otherwise in
/// single quotes.
fn quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown_words(args: &[&str], cwd: &str, replay: bool) -> String {
        let args = args.iter().map(|a| a.to_string()).collect();
        command(args, Some(Path::new(cwd)), replay)
    }

    #[test]
    fn commands_carry_no_absolute_path() {
        let cwd = "/home/someone/bataille";
        let args = [
            "hunt",
            "--out",
            "/home/someone/bataille/results/hunts/x",
            "--checkpoint",
            "/tmp/hunt-ckpt/x.ckpt",
            "--records=/home/someone/bataille/results/records.csv",
            "--seed",
            "3",
        ];
        assert_eq!(
            shown_words(&args, cwd, false),
            "bataille hunt --out results/hunts/x --checkpoint '<outside>/x.ckpt' \
             --records=results/records.csv --seed 3"
        );
        assert_eq!(
            shown_words(&args, cwd, true),
            "bataille hunt --out results/hunts/x --records=results/records.csv --seed 3"
        );
        // Relative paths, the directory itself, a sibling directory with a longer name, words
        // that need quotes.
        let args = ["explore", "--out", "out/x", "/home/someone/bataille", "/home/someone/bat"];
        assert_eq!(
            shown_words(&args, cwd, false),
            "bataille explore --out out/x . '<outside>/bat'"
        );
        assert_eq!(
            shown_words(&["play", "[1, 2] / [2, 1]", "it's"], cwd, false),
            "bataille play '[1, 2] / [2, 1]' 'it'\\''s'"
        );
        assert_eq!(shown_words(&["--out", "/"], cwd, false), "bataille --out '<outside>/'");
        // Without a working directory every absolute path is outside.
        let args = vec!["/home/someone/bataille/x".to_string()];
        assert_eq!(command(args, None, false), "bataille '<outside>/x'");
    }
}
