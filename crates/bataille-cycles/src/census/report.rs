//! What a census reports of the loops it found: each loop with what its canonical position
//! does not say (its cycle id, its aligned position, the deals that reach it, counted by a walk
//! of its tree of ancestors), the rows of `cycles.csv`, and the keys and values of the
//! census's summary.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use bataille_engine::backward::{Bounds, Walked};
use bataille_engine::{Limits, NoRandom, Outcome, aligned, loop_positions, play};
use bataille_search::Shard;
use bataille_search::arrangement::Arrangements;

use super::{CensusSpec, CensusState, Found};
use crate::ancestors::{self, Keep};

/// A loop of the census, with what the report adds: its id, aligned position and deals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopRow {
    /// The loop, by its canonical position.
    pub found: Found,
    /// Its cycle id, as `explore` names it.
    pub id: String,
    /// A position of the loop from which it plays aligned rounds, if it has one.
    pub aligned: Option<String>,
    /// The deals that reach it (a lower bound when the walk was cut).
    pub deals: u64,
    /// The positions off the loop visited by the walk of its tree.
    pub ancestors: u64,
    /// How the walk of its tree ended.
    pub walked: Walked,
}

impl LoopRow {
    /// The row of the loop `f` of the census `spec`, its deals counted by a walk of its tree
    /// within `bounds`; a stop request cuts the walk short (`walked.stopped`, the count then a
    /// lower bound).
    ///
    /// # Panics
    ///
    /// If `f` is not a loop of `spec` (the census's loops are).
    pub fn new(spec: CensusSpec, f: &Found, bounds: Bounds, stop: &AtomicBool) -> LoopRow {
        let p = f.position();
        let methods = spec.methods();
        let id = match play(&p, methods, &mut NoRandom, Limits::DETERMINISTIC).outcome {
            Outcome::Cycle(c) => c.id.to_string(),
            o => panic!("the census's position {p} does not loop: {o:?}"),
        };
        let positions = loop_positions(&p, methods).expect("a loop");
        let aligned = aligned::aligned_position(&positions, methods).map(|q| q.to_string());
        let keep = Keep { deals: false, deepest: 0 };
        let t = ancestors::tree_watched(&p, methods, bounds, keep, stop, &mut |_| {})
            .expect("deterministic methods");
        let ancestors = t.walked.visited;
        LoopRow { found: f.clone(), id, aligned, deals: t.deal_count, ancestors, walked: t.walked }
    }

    /// The deals that reach the loop, in words: "reached by 3 deals", or "at least 3 deals"
    /// and why when the walk was cut.
    pub fn deals_text(&self) -> String {
        let deals = self.deals;
        let s = if deals == 1 { "" } else { "s" };
        if self.walked.stopped {
            format!("at least {deals} deal{s} (the tree walk was stopped by the request)")
        } else if self.walked.budget_hit {
            format!("at least {deals} deal{s} (the tree walk stopped on its budget)")
        } else {
            format!("reached by {deals} deal{s}")
        }
    }
}

/// The header of `cycles.csv`.
pub const CYCLES_HEADER: &str = "cycle_id,period_tricks,period_cards,position,first_min,\
first_max,self_twin,aligned,aligned_position,deals,deals_complete,ancestors";

/// `cycles.csv`: [`CYCLES_HEADER`], then one row per loop.
pub fn cycles_csv(rows: &[LoopRow]) -> String {
    let mut s = format!("{CYCLES_HEADER}\n");
    for r in rows {
        let f = &r.found;
        let _ = writeln!(
            s,
            "{},{},{},\"{}\",{},{},{},{},\"{}\",{},{},{}",
            r.id,
            f.period_tricks,
            f.period_cards,
            f.position(),
            f.first.len(),
            f.first_max,
            f.self_twin,
            if r.aligned.is_some() { "yes" } else { "no" },
            r.aligned.as_deref().unwrap_or(""),
            r.deals,
            r.walked.complete(),
            r.ancestors
        );
    }
    s
}

/// The summary's keys and values: the deck, how much of it the census covers, its counters,
/// and its loops (how many, aligned, periods, reached by deals or not).
pub fn summary(
    spec: CensusSpec,
    state: &CensusState,
    rows: &[LoopRow],
) -> Vec<(&'static str, String)> {
    let deck = spec.deck();
    let arrangements = Arrangements::new(&deck.sorted_deck()).count();
    let positions = arrangements
        .and_then(|a| a.checked_mul(deck.cards() as u128 + 1))
        .map_or("more than 2^128".to_string(), |p| p.to_string());
    let mut periods: Vec<u64> = rows.iter().map(|r| r.found.period_tricks).collect();
    periods.sort_unstable();
    periods.dedup();
    let reached = rows.iter().filter(|r| r.deals > 0).count();
    let unreached = rows.iter().filter(|r| r.deals == 0 && r.walked.complete()).count();
    vec![
        ("deck", deck.to_string()),
        ("method", spec.method().to_string()),
        ("positions", positions),
        (
            "coverage",
            match (state.is_complete(), state.shard == Shard::WHOLE) {
                (true, true) => "complete: every position of every split".to_string(),
                (true, false) => format!(
                    "shard {} complete ({} units): merge the shards for the whole census",
                    state.shard, state.done
                ),
                (false, _) => format!(
                    "INCOMPLETE: {} of {} units of shard {}",
                    state.done,
                    state.shard_units(),
                    state.shard
                ),
            },
        ),
        ("units", state.units.to_string()),
        ("candidates", state.candidates.to_string()),
        ("tricks_walked", state.tricks.to_string()),
        ("cycles", rows.len().to_string()),
        ("aligned_cycles", rows.iter().filter(|r| r.aligned.is_some()).count().to_string()),
        ("periods", periods.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")),
        ("cycles_reached_by_deals", reached.to_string()),
        ("cycles_reached_by_no_deal", unreached.to_string()),
    ]
}
