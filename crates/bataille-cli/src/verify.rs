//! `bataille verify`: the catalogue of published claims as a table; then the claims of the
//! committed exhaustive hunts, read from their merged state files (`results/hunts/`); then the
//! rows of the records file (`results/records.csv`, written by `bataille records search`)
//! replayed one by one. The last two are sections of their own, so that the catalogue table
//! stays as the claims page of the book shows it.
//!
//! The claims are printed by the one printer of `bataille-claims`, which `bataille bmn verify`
//! and `bataille takeaway verify` use too, through [`crate::args::FormatArgs`] and [`crate::claims::print_claims`].

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};
use bataille_claims::{Claim, Format, Status};
use bataille_records::row::RecordRow;
use bataille_runs::hunts::read_hunts;
use bataille_verify::hunts::{COMMITTED_HUNTS, CommittedHunt};
use bataille_verify::records::replay_table;
use bataille_verify::{STATUSES, catalogue};
use clap::Args;

use crate::checks::shown;
use crate::claims::{exit_code, print_claims};

/// Flags of `bataille verify`.
#[derive(Debug, Args)]
pub(crate) struct VerifyArgs {
    /// Show only the entries whose name contains this text.
    #[arg(long)]
    pub(crate) filter: Option<String>,
    #[command(flatten)]
    pub(crate) format: crate::args::FormatArgs,
    /// The records file whose rows are replayed after the catalogue (default: records.csv of
    /// the results directory; not with --csv, which writes the claims only).
    #[arg(long, value_name = "FILE", conflicts_with = "csv")]
    pub(crate) records: Option<std::path::PathBuf>,
    /// The repository's results directory, which holds the committed hunts and the records
    /// file (default: ./results, else the results directory of the checkout the binary was
    /// built from).
    #[arg(long, value_name = "DIR")]
    pub(crate) results: Option<PathBuf>,
}

/// The results directory of the checkout this binary was built from.
const BUILT_RESULTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../results");

/// The results directory: `--results DIR` (which must exist), else `./results`, else the one of
/// the checkout the binary was built from; `None` when none is there.
fn results_dir(given: Option<&Path>) -> Result<Option<PathBuf>> {
    if let Some(dir) = given {
        if !dir.is_dir() {
            bail!("--results {}: not a directory", dir.display());
        }
        return Ok(Some(dir.to_path_buf()));
    }
    Ok([Path::new("results"), Path::new(BUILT_RESULTS)]
        .into_iter()
        .find(|d| d.join("hunts").is_dir() || d.join("records.csv").is_file())
        .map(Path::to_path_buf))
}

pub(crate) fn run(args: VerifyArgs) -> Result<ExitCode> {
    let entries: Vec<_> = catalogue()
        .into_iter()
        .filter(|e| args.filter.as_deref().is_none_or(|f| e.id.contains(f)))
        .collect();
    let format = args.format.format();
    let markdown = format == Format::Markdown;
    // The record rows are a table of their own, with no CSV form.
    let with_records =
        format != Format::Csv && args.filter.as_deref().is_none_or(|f| "records".contains(f));
    let hunts: Vec<&CommittedHunt> = COMMITTED_HUNTS
        .iter()
        .filter(|h| {
            args.filter.as_deref().is_none_or(|f| {
                "hunts".contains(f) || h.name.contains(f) || h.ids.iter().any(|id| id.contains(f))
            })
        })
        .collect();
    if entries.is_empty() && hunts.is_empty() && !with_records {
        bail!("no catalogue entry matches --filter {}", shown(&args.filter.unwrap_or_default()));
    }
    // A records file named by the user is read, or the command says why not.
    if let (Some(p), false, false) = (&args.records, with_records, format == Format::Csv) {
        bail!(
            "--records {} is replayed by the records section, which --filter {} leaves out \
             (--filter records replays it alone)",
            p.display(),
            shown(args.filter.as_deref().unwrap_or_default())
        );
    }
    // Read the records file first, so that a malformed one is an input error before any output.
    let results = results_dir(args.results.as_deref())?;
    let records_path = match (&args.records, &results) {
        (Some(p), _) => p.clone(),
        (None, Some(r)) => r.join("records.csv"),
        (None, None) => PathBuf::from("results/records.csv"),
    };
    let rows = if with_records {
        match crate::output::read_records(&records_path)? {
            Some(rows) => Some(rows),
            None if args.records.is_some() => {
                bail!("cannot read the records file {}: it does not exist", records_path.display())
            }
            None => None,
        }
    } else {
        None
    };
    // The hunts' claims are printed in CSV with the catalogue's, as more rows of one table. A
    // filter that names a hunt (or "hunts") keeps all its claims; one that names a claim, that
    // claim and any failure of its hunt (an unreadable state is one failed claim), or all the
    // hunt's claims when it has no such claim to show.
    let none = "no results directory (run from the repository's root, or pass --results DIR)";
    let (mut hunt_claims, missing) = read_hunts(&hunts, results.as_deref(), none);
    if let Some(f) = args.filter.as_deref() {
        let mut kept = Vec::new();
        for h in &hunts {
            let mine: Vec<&Claim> = hunt_claims.iter().filter(|c| h.ids.contains(&c.id)).collect();
            let named: Vec<&Claim> = mine
                .iter()
                .copied()
                .filter(|c| c.id.contains(f) || c.status == Status::Fail)
                .collect();
            let whole = "hunts".contains(f) || h.name.contains(f) || named.is_empty();
            kept.extend(if whole { mine } else { named }.into_iter().cloned());
        }
        hunt_claims = kept;
    }
    if format == Format::Csv {
        let all: Vec<Claim> = entries.into_iter().chain(hunt_claims).collect();
        return Ok(exit_code(print_claims(&all, format, STATUSES)));
    }
    let mut failed = 0;
    let mut first = true;
    if !entries.is_empty() {
        failed += print_claims(&entries, format, STATUSES);
        first = false;
    }
    if !hunts.is_empty() {
        if !first {
            println!();
        }
        if !markdown {
            println!("the committed exhaustive hunts (each read from its merged state):");
        }
        if !hunt_claims.is_empty() {
            failed += print_claims(&hunt_claims, format, STATUSES);
        }
        for (hunt, why) in &missing {
            println!("SKIPPED {}: {why}", hunt.name);
        }
        first = false;
    }
    if first {
        // The record rows are all that was asked: with no records file, nothing is checked.
        let Some(rows) = rows else {
            bail!(
                "no records file {} to replay (run from the repository's root, or pass --results \
                 DIR or --records FILE)",
                records_path.display()
            );
        };
        return Ok(exit_code(check_records(&records_path, &rows, markdown)));
    }
    let rows_missing = rows.is_none();
    let failed = match rows {
        Some(rows) => failed + check_records(&records_path, &rows, markdown),
        None => {
            if with_records && !markdown {
                println!(
                    "\nSKIPPED the record rows: no {} (run from the repository's root, or pass \
                     --results DIR or --records FILE)",
                    records_path.display()
                );
            }
            failed
        }
    };
    if !markdown && (!missing.is_empty() || (with_records && rows_missing)) {
        let claims: usize = missing.iter().map(|(h, _)| h.ids.len()).sum();
        println!(
            "\nNOT everything was checked: {} of the committed hunts ({claims} claims){} were \
             skipped, their files not found",
            missing.len(),
            if with_records && rows_missing { " and the record rows" } else { "" }
        );
    }
    Ok(exit_code(failed))
}

/// Replays every record row and prints one line each, then each cell against the best known
/// game; returns the number of failures.
fn check_records(path: &Path, rows: &[(usize, RecordRow)], markdown: bool) -> usize {
    let (text, failed) = replay_table(&path.display().to_string(), rows, markdown);
    print!("{text}");
    failed
}
