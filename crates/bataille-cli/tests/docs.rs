//! The documentation stays sound: every relative link of the README, ARCHITECTURE.md and the
//! book (`docs/`) points at a file of the repository, and at a heading of it when it names one;
//! and nothing refers to notes kept outside the repository.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Markdown files whose links are checked, relative to the root.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("docs/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut pages = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    walk(&root().join("docs"), &mut pages);
    pages.sort();
    pages
}

/// The lines of a page outside fenced code blocks (with their numbers, from 1), their inline
/// code spans removed.
fn prose(text: &str) -> Vec<(usize, String)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            lines.push((n + 1, without_code_spans(line)));
        }
    }
    lines
}

/// `line` without its code spans (a run of backticks to the next run of the same length).
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].len() - rest[start..].trim_start_matches('`').len();
        let after = &rest[start + ticks..];
        let fence = "`".repeat(ticks);
        match after.find(&fence) {
            // The span's text is kept for headings (GitHub keeps it in the anchor).
            Some(end) => {
                out.push_str(&after[..end].replace("](", "] ("));
                rest = &after[end + ticks..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of the inline links and images of `line`: `[text](target)`, `![alt](target)`.
fn links(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        found.push(target.to_string());
        rest = &after[end..];
    }
    found
}

/// GitHub's anchors of the headings of a page: lower case, only letters, digits, `-`, `_` and
/// spaces kept, spaces made hyphens, repeated anchors numbered.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for (_, line) in prose(text) {
        let Some(heading) = line.strip_prefix('#') else { continue };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        // A link in a heading keeps its text only.
        let mut title = String::new();
        let mut rest = heading.trim();
        while let Some(i) = rest.find("](") {
            title.push_str(&rest[..i]);
            rest = rest[i..].split_once(')').map_or("", |(_, r)| r);
        }
        title.push_str(rest);
        let base: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

/// `path` with its `.` and `..` taken out, or `None` if it climbs above its start.
fn normalized(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(part) => out.push(part),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// What is wrong with the links of the page `page` (relative to the root), one line each.
fn broken_links(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(page)).expect("a readable page");
    let dir = page.parent().unwrap_or(Path::new(""));
    let mut broken = Vec::new();
    for (n, line) in prose(&text) {
        for target in links(&line) {
            let at = format!("{}:{n}: link ({target})", page.display());
            if target.is_empty() {
                broken.push(format!("{at}: empty"));
                continue;
            }
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let Some(path) = normalized(&dir.join(file)) else {
                broken.push(format!("{at}: outside the repository"));
                continue;
            };
            let full = root().join(&path);
            if !full.exists() {
                broken.push(format!("{at}: no file {}", path.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            let headings = if file.is_empty() {
                anchors(&text)
            } else if full.extension().is_some_and(|e| e == "md") {
                anchors(&std::fs::read_to_string(&full).expect("a readable page"))
            } else {
                continue;
            };
            if !headings.contains(anchor) {
                broken.push(format!("{at}: no heading #{anchor} in {}", path.display()));
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    for page in pages() {
        let page = page.strip_prefix(root()).expect("under the root").to_path_buf();
        broken.extend(broken_links(&page));
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_checker_sees_what_it_should() {
    assert_eq!(links("see [a](b.md#c) and ![d](../e.svg \"t\")"), ["b.md#c", "../e.svg"]);
    assert!(links(&without_code_spans("`[a](b)` and ``[c](d)``")).is_empty());
    let headings = anchors(
        "# The engine's two phases\n```\n# not a heading\n```\n## `play` (C=1)\n## `play` (C=1)\n",
    );
    let expected = ["the-engines-two-phases", "play-c1", "play-c1-1"];
    assert_eq!(headings, expected.iter().map(|s| s.to_string()).collect());
    assert_eq!(normalized(Path::new("docs/../README.md")), Some(PathBuf::from("README.md")));
    assert_eq!(normalized(Path::new("docs/../../x")), None);
}

/// The sources are cited by name and address in the text: no page, comment or script sends
/// the reader to notes that are not in the repository.
#[test]
fn no_reference_to_notes_outside_the_repository() {
    let names = [["REFER", "ENCE.md"].concat(), ["DEVEL", "OPERS.md"].concat()];
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a readable directory") {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !matches!(name, "target" | "results" | ".git") {
                    walk(&path, out);
                }
            } else if ["rs", "md", "toml", "sh", "py", "recipe"]
                .iter()
                .any(|e| path.extension().is_some_and(|x| x == *e))
            {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for dir in ["crates", "benches", "docs", "scripts", "experiments"] {
        walk(&root().join(dir), &mut files);
    }
    for file in ["README.md", "ARCHITECTURE.md", "Cargo.toml", ".ci/run"] {
        files.push(root().join(file));
    }
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            if names.iter().any(|name| line.contains(name.as_str())) {
                found.push(format!("{}:{}", file.display(), n + 1));
            }
        }
    }
    assert!(found.is_empty(), "references to notes outside the repository:\n{}", found.join("\n"));
}
