//! `bataille verify`: the catalogue of published claims as a table, then the rows of the records
//! file (`results/records.csv`, written by `bataille records search`) replayed one by one, in a
//! separate section so that the catalogue table stays as the README shows it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};
use bataille_search::records::{RecordRow, check_row};
use bataille_verify::{Entry, Status, catalogue};

use crate::flags::VerifyArgs;

pub(crate) fn run(args: VerifyArgs) -> Result<ExitCode> {
    let entries: Vec<_> = catalogue()
        .into_iter()
        .filter(|e| args.filter.as_deref().is_none_or(|f| e.name.contains(f)))
        .collect();
    let with_records = args.filter.as_deref().is_none_or(|f| "records".contains(f));
    if entries.is_empty() && !with_records {
        bail!("no catalogue entry matches --filter {:?}", args.filter.unwrap_or_default());
    }
    // Read the records file first, so that a malformed one is an input error before any output.
    let records_path = args.records.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_RECORDS));
    let rows = if with_records {
        match crate::records::read_records(&records_path)? {
            Some(rows) => Some(rows),
            None if args.records.is_some() => {
                bail!("cannot read the records file {}: it does not exist", records_path.display())
            }
            None => None,
        }
    } else {
        None
    };
    if entries.is_empty() {
        let failed = check_records(&records_path, rows.as_deref().unwrap_or(&[]), args.markdown);
        return Ok(if failed == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(crate::EXIT_FINDING)
        });
    }
    if args.markdown {
        print_markdown(&entries);
    } else {
        print_table(&entries, args.details);
    }
    let count = |s: Status| entries.iter().filter(|e| e.status == s).count();
    let (ok, misprints, failed) = (count(Status::Ok), count(Status::Misprint), count(Status::Fail));
    let differs = count(Status::Differs);
    println!();
    println!(
        "{} claims checked: {ok} ok, {misprints} article misprints, {differs} explained \
         differences, {failed} failed",
        entries.len()
    );
    let failed = match rows {
        Some(rows) => failed + check_records(&records_path, &rows, args.markdown),
        None => {
            if with_records && !args.markdown {
                println!(
                    "(no {} here: run from the repository's root, or pass --records FILE, to \
                     replay the record rows)",
                    records_path.display()
                );
            }
            failed
        }
    };
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(crate::EXIT_FINDING) })
}

fn print_table(entries: &[Entry], details: bool) {
    let width = |f: &dyn Fn(&Entry) -> usize| entries.iter().map(f).max().unwrap_or(0);
    let (wn, wp) = (width(&|e| e.name.len()), width(&|e| e.published.chars().count()).min(40));
    println!("{:<16}  {:<wn$}  {:<wp$}  computed", "status", "entry", "published");
    for e in entries {
        println!("{:<16}  {:<wn$}  {:<wp$}  {}", e.status.label(), e.name, e.published, e.computed);
        println!("{:<16}  claim: {} ({})", "", e.claim, e.source);
        if !e.evidence.is_empty() && (details || e.status != Status::Ok) {
            println!("{:<16}  evidence: {}", "", e.evidence);
        }
    }
}

fn print_markdown(entries: &[Entry]) {
    let cell = |t: &str| t.replace('|', "\\|");
    println!("| claim | source | published | computed | status |");
    println!("| --- | --- | --- | --- | --- |");
    for e in entries {
        println!(
            "| `{}`: {} | {} | {} | {} | {} |",
            e.name,
            cell(&e.claim),
            cell(e.source),
            cell(&e.published),
            cell(&e.computed),
            e.status.label()
        );
    }
}

/// The records file read when `--records` is not given.
const DEFAULT_RECORDS: &str = "results/records.csv";

/// Replays every record row and prints one line each; returns the number of failures.
fn check_records(path: &Path, rows: &[(usize, RecordRow)], markdown: bool) -> usize {
    println!();
    if markdown {
        println!("| records file line | deck | method | stated | replayed | status |");
        println!("| --- | --- | --- | --- | --- | --- |");
    } else {
        println!("records of {} (every row replayed):", path.display());
    }
    let mut failed = 0;
    for (line, row) in rows {
        let deck = format!("C={} V={}", row.colours, row.values);
        let stated = format!("{} tricks / {} cards", row.tricks, row.cards);
        let (status, replayed) = match check_row(row) {
            Ok(()) => ("ok", stated.clone()),
            Err(e) => {
                failed += 1;
                ("FAILED", e.to_string())
            }
        };
        if markdown {
            println!("| {line} | {deck} | {} | {stated} | {replayed} | {status} |", row.methods);
        } else {
            println!("{status:<16}  line {line}: {deck} {}, {stated}: {replayed}", row.methods);
        }
    }
    println!();
    println!("{} record rows replayed: {} ok, {failed} failed", rows.len(), rows.len() - failed);
    failed
}
