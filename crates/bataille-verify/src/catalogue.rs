//! The entries of the catalogue.

use bataille_engine::{Limits, Method, Methods, NoRandom, Outcome, Position, play};

use crate::{Entry, Status};

/// Runs every check and returns the entries in catalogue order.
pub fn catalogue() -> Vec<Entry> {
    vec![cycle("c1-v5-cycle", "[5, 3] / [2, 4, 1]", Method::Natural, 6)]
}

fn cycle(name: &'static str, deal: &str, m: Method, period: u64) -> Entry {
    let p: Position = deal.parse().expect("catalogue deals parse");
    let r = play(&p, Methods::both(m), &mut NoRandom, Limits::DETERMINISTIC);
    let computed = match r.outcome {
        Outcome::Cycle(c) => format!("loop of {} tricks", c.period_tricks),
        o => o.name().to_string(),
    };
    let published = format!("loop of {period} tricks");
    let status = if computed == published { Status::Ok } else { Status::Fail };
    Entry {
        name,
        source: "article",
        claim: format!("{deal} loops ({m})"),
        published,
        computed,
        status,
        evidence: String::new(),
    }
}
