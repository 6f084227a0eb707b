//! `bataille verify`: the catalogue of published claims as a table.

use std::process::ExitCode;

use anyhow::{Result, bail};
use bataille_verify::{Entry, Status, catalogue};

use crate::flags::VerifyArgs;

pub(crate) fn run(args: VerifyArgs) -> Result<ExitCode> {
    let entries: Vec<_> = catalogue()
        .into_iter()
        .filter(|e| args.filter.as_deref().is_none_or(|f| e.name.contains(f)))
        .collect();
    if entries.is_empty() {
        bail!("no catalogue entry matches --filter {:?}", args.filter.unwrap_or_default());
    }
    if args.markdown {
        print_markdown(&entries);
    } else {
        print_table(&entries, args.details);
    }
    let count = |s: Status| entries.iter().filter(|e| e.status == s).count();
    let (ok, misprints, failed) = (count(Status::Ok), count(Status::Misprint), count(Status::Fail));
    println!();
    println!(
        "{} claims checked: {ok} ok, {misprints} article misprints, {failed} failed",
        entries.len()
    );
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
