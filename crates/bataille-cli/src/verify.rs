//! `bataille verify`: the catalogue of published claims as a table.

use std::process::ExitCode;

use anyhow::Result;
use bataille_verify::{Status, catalogue};

use crate::flags::VerifyArgs;

pub(crate) fn run(args: VerifyArgs) -> Result<ExitCode> {
    let entries: Vec<_> = catalogue()
        .into_iter()
        .filter(|e| args.filter.as_deref().is_none_or(|f| e.name.contains(f)))
        .collect();
    let failed = entries.iter().filter(|e| e.status == Status::Fail).count();
    for e in &entries {
        println!(
            "{:<28} {:<18} {} | {} | {}",
            e.name,
            e.status.label(),
            e.claim,
            e.published,
            e.computed
        );
        if (args.details || e.status != Status::Ok) && !e.evidence.is_empty() {
            println!("    {}", e.evidence);
        }
    }
    println!("{} checked, {} failed", entries.len(), failed);
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(crate::EXIT_FINDING) })
}
