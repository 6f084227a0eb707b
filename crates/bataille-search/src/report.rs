//! The results of a run as CSV tables and a short human summary.
//!
//! Every table is a function of the [`State`] alone (and of the game, for deal notation and the
//! aligned test), so two runs that did the same work write byte-identical files. Floating-point
//! values are derived from exact integers and printed with 6 decimals.
//!
//! # Columns
//!
//! *cards* is the game's own measure (see [`DealGame::cards_counted`]): the cards each player
//! turned for bataille, every card turned by either player for beggar-my-neighbour.
//!
//! `summary.csv` — `key,value`, one row per key:
//! `game`, `mode`, `seed`, `unit_size`, `units` (of the whole run), `units_done`, `complete`
//! (`true`/`false`), `deals` (played), `deals_in_run` (the whole run: the closed formula for
//! exhaustive runs), `finished`, `first_wins`, `second_wins`, `draws`, `looping_deals` (deals
//! whose game loops; called `cycles` before the column was renamed), `capped`, `distinct_cycles`
//! (the distinct loops those deals reach; empty when a `--max-cycles` cap dropped some), then for
//! `tricks` and `cards` of finished games: `_mean`, `_sd`, `_ci95_low`, `_ci95_high` (mean ±
//! 1.96 standard errors), `_min`, `_max`; then
//! `shortest_tail_tricks`, `shortest_tail_deal`, `shortest_tail_cycle` (empty without loops;
//! over every looping deal, whether its loop is kept or not). A run with a `--max-cycles` cap
//! ends with `max_cycles`, `cycles_kept`, `cycles_dropped` (`true`/`false`) and
//! `distinct_cycles_estimate` (when some were dropped: the number of distinct loops estimated
//! from the kept ones, see [`crate::stats`]; relative standard error about 1/√`max_cycles`).
//!
//! `histograms.csv` — `measure,value,count`: for `measure` = `tricks` then `cards`, the number of
//! finished games with each value (values with a zero count omitted).
//!
//! `records.csv` — `measure,rank,tricks,cards,winner,deal`: the longest finished games by
//! `tricks` then by `cards`, rank 1 the longest, ties broken by the smaller deal; `winner` is
//! `first`, `second` or `draw`.
//!
//! `cycles.csv` — `cycle_id,period_tricks,period_cards,deals,example_deal,shortest_tail_tricks,
//! shortest_tail_deal,aligned,aligned_position`: one row per distinct loop kept (every loop
//! unless `--max-cycles` caps them: then those of smallest rank, a uniform sample), most
//! reached first (then by id). `example_deal` is the smallest deal reaching it; `aligned` is `yes`, `no` or
//! `n/a` (see [`crate::bataille`] for the definition); `aligned_position` the aligned position
//! on the loop when there is one.
//!
//! `loops.csv` (hunts only: runs keeping looping deals) — `cycle_id,deal,tail_tricks`: every
//! deal kept for each loop (see [`crate::stats`]), loops in the order of `cycles.csv`, deals in
//! increasing order; `tail_tricks` is the number of tricks before the deal enters the loop. In
//! an exhaustive run with swap reduction only the representative of each mirror pair (first
//! hand ≤ second hand) is played and listed. A hunt's `summary.csv` ends with
//! `loop_deals_cap`, `loop_deals_kept` and `loop_deals_truncated` (`true` when some loop is
//! reached by more distinct deals than the cap: its list holds the smallest ones; loops
//! dropped by `--max-cycles` do not count, their deals are not kept).

use std::fmt::Write as _;
use std::io;

use crate::game::{Alignment, DealGame};
use crate::state::State;
use crate::stats::Moments;

fn float(x: Option<f64>) -> String {
    x.map(|x| format!("{x:.6}")).unwrap_or_default()
}

/// The `summary.csv` rows.
pub fn summary_rows<G: DealGame>(
    game: &G,
    state: &State,
    deals_in_run: u128,
) -> Vec<(String, String)> {
    let k = &state.key;
    let s = &state.stats;
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut put = |key: &str, value: String| rows.push((key.to_string(), value));
    put("game", k.game.clone());
    put("mode", k.mode.to_string());
    put("seed", k.seed.to_string());
    put("unit_size", k.unit_size.to_string());
    put("units", k.units.to_string());
    put("units_done", state.done.len().to_string());
    put("complete", state.is_complete().to_string());
    put("deals", s.deals.to_string());
    put("deals_in_run", deals_in_run.to_string());
    put("finished", s.finished().to_string());
    put("first_wins", s.first_wins.to_string());
    put("second_wins", s.second_wins.to_string());
    put("draws", s.draws.to_string());
    put("looping_deals", s.looping_deals.to_string());
    put("capped", s.capped.to_string());
    let distinct = if s.cycles_dropped { String::new() } else { s.loops.len().to_string() };
    put("distinct_cycles", distinct);
    for (name, m, h) in
        [("tricks", &s.tricks, &s.tricks_histogram), ("cards", &s.cards, &s.cards_histogram)]
    {
        let ci = m.ci95();
        put(&format!("{name}_mean"), float(m.mean()));
        put(&format!("{name}_sd"), float(m.sd()));
        put(&format!("{name}_ci95_low"), float(ci.map(|c| c.0)));
        put(&format!("{name}_ci95_high"), float(ci.map(|c| c.1)));
        put(
            &format!("{name}_min"),
            h.iter().next().map(|(v, _)| v.to_string()).unwrap_or_default(),
        );
        put(
            &format!("{name}_max"),
            h.iter().last().map(|(v, _)| v.to_string()).unwrap_or_default(),
        );
    }
    let tail = s.shortest_tail();
    put("shortest_tail_tricks", tail.map(|t| t.0.to_string()).unwrap_or_default());
    put("shortest_tail_deal", tail.map(|t| game.deal_text(t.1)).unwrap_or_default());
    put("shortest_tail_cycle", tail.map(|t| format!("{:016x}", t.2)).unwrap_or_default());
    if s.loop_deals > 0 {
        put("loop_deals_cap", s.loop_deals.to_string());
        put("loop_deals_kept", s.loops.values().map(|l| l.kept.len()).sum::<usize>().to_string());
        put("loop_deals_truncated", s.loop_deals_truncated().to_string());
    }
    if s.max_cycles > 0 {
        put("max_cycles", s.max_cycles.to_string());
        put("cycles_kept", s.loops.len().to_string());
        put("cycles_dropped", s.cycles_dropped.to_string());
        let estimate = s.distinct_cycles_estimate().map(|e| format!("{e:.0}"));
        put("distinct_cycles_estimate", estimate.unwrap_or_default());
    }
    rows
}

/// Writes `summary.csv`.
pub fn write_summary<G: DealGame, W: io::Write>(
    game: &G,
    state: &State,
    deals_in_run: u128,
    out: W,
) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(["key", "value"])?;
    for (k, v) in summary_rows(game, state, deals_in_run) {
        w.write_record([k, v])?;
    }
    w.flush()?;
    Ok(())
}

/// Writes `histograms.csv`.
pub fn write_histograms<W: io::Write>(state: &State, out: W) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(["measure", "value", "count"])?;
    let s = &state.stats;
    for (name, h) in [("tricks", &s.tricks_histogram), ("cards", &s.cards_histogram)] {
        for (v, n) in h.iter() {
            w.write_record([name, &v.to_string(), &n.to_string()])?;
        }
    }
    w.flush()?;
    Ok(())
}

/// Writes `records.csv`.
pub fn write_records<G: DealGame, W: io::Write>(
    game: &G,
    state: &State,
    out: W,
) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(["measure", "rank", "tricks", "cards", "winner", "deal"])?;
    for list in [&state.stats.longest_by_tricks, &state.stats.longest_by_cards] {
        for (i, r) in list.entries().iter().enumerate() {
            w.write_record([
                list.measure().name(),
                &(i + 1).to_string(),
                &r.tricks.to_string(),
                &r.cards.to_string(),
                r.finish.name(),
                &game.deal_text(&r.deal),
            ])?;
        }
    }
    w.flush()?;
    Ok(())
}

/// One row of `cycles.csv`, with the aligned test done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CycleRow {
    /// Canonical id.
    pub id: u64,
    /// Tricks per turn.
    pub period_tricks: u64,
    /// Cards per turn (the game's own cards measure).
    pub period_cards: u64,
    /// Deals that reach it.
    pub deals: u64,
    /// Smallest deal reaching it.
    pub example: String,
    /// Shortest tail, tricks.
    pub shortest_tail: u64,
    /// Smallest deal with that tail.
    pub shortest_tail_deal: String,
    /// The aligned property.
    pub alignment: Alignment,
}

/// The distinct loops, most reached first (then by id).
pub fn cycle_rows<G: DealGame>(game: &G, state: &State) -> Vec<CycleRow> {
    let mut rows: Vec<CycleRow> = state
        .stats
        .loops
        .iter()
        .map(|(&id, l)| CycleRow {
            id,
            period_tricks: l.period_tricks,
            period_cards: l.period_cards,
            deals: l.deals,
            example: game.deal_text(&l.example),
            shortest_tail: l.shortest_tail,
            shortest_tail_deal: game.deal_text(&l.shortest_tail_deal),
            alignment: game.alignment(&l.example),
        })
        .collect();
    rows.sort_by(|a, b| b.deals.cmp(&a.deals).then(a.id.cmp(&b.id)));
    rows
}

/// Writes `cycles.csv` from [`cycle_rows`].
pub fn write_cycles<W: io::Write>(rows: &[CycleRow], out: W) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "cycle_id",
        "period_tricks",
        "period_cards",
        "deals",
        "example_deal",
        "shortest_tail_tricks",
        "shortest_tail_deal",
        "aligned",
        "aligned_position",
    ])?;
    for r in rows {
        let (aligned, position) = match &r.alignment {
            Alignment::NotApplicable => ("n/a", ""),
            Alignment::No => ("no", ""),
            Alignment::Yes(p) => ("yes", p.as_str()),
        };
        w.write_record([
            &format!("{:016x}", r.id),
            &r.period_tricks.to_string(),
            &r.period_cards.to_string(),
            &r.deals.to_string(),
            &r.example,
            &r.shortest_tail.to_string(),
            &r.shortest_tail_deal,
            aligned,
            position,
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// Writes `loops.csv`: the kept deals of each loop, loops in the order of `rows` (from
/// [`cycle_rows`]).
pub fn write_loops<G: DealGame, W: io::Write>(
    game: &G,
    state: &State,
    rows: &[CycleRow],
    out: W,
) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(["cycle_id", "deal", "tail_tricks"])?;
    for r in rows {
        let id = format!("{:016x}", r.id);
        for (deal, tail) in state.stats.loops.get(&r.id).map(|l| &l.kept).into_iter().flatten() {
            w.write_record([id.as_str(), &game.deal_text(deal), &tail.to_string()])?;
        }
    }
    w.flush()?;
    Ok(())
}

fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        String::new()
    } else {
        format!(" ({:.3}%)", 100.0 * part as f64 / whole as f64)
    }
}

fn mean_line(name: &str, m: &Moments) -> String {
    match (m.mean(), m.ci95()) {
        (Some(mean), Some((lo, hi))) => format!("{name} {mean:.3} (95% CI {lo:.3} to {hi:.3})"),
        (Some(mean), None) => format!("{name} {mean:.3}"),
        _ => format!("{name} -"),
    }
}

/// A short human summary (a few lines, no trailing newline missing).
pub fn human_summary<G: DealGame>(game: &G, state: &State, cycles: &[CycleRow]) -> String {
    let s = &state.stats;
    let mut t = String::new();
    let _ = writeln!(t, "{} — {} (seed {})", state.key.game, state.key.mode, state.key.seed);
    if !state.is_complete() {
        let (done, units) = (state.done.len(), state.key.units);
        let line = match state.done.shard().filter(|s| s.count() > 1) {
            Some(shard) if shard.units(units) == done => format!(
                "units:     shard {shard} complete: {done} of the run's {units} units (merge the \
                 shards for the whole run)"
            ),
            Some(shard) => format!(
                "units:     {done} of the {} units of shard {shard} done (INCOMPLETE)",
                shard.units(units)
            ),
            None => format!("units:     {done} of {units} done (INCOMPLETE)"),
        };
        let _ = writeln!(t, "{line}");
    }
    let items = game.items();
    let _ = writeln!(t, "{:<11}{}", format!("{items}:"), s.deals);
    let _ = writeln!(
        t,
        "finished:  {}{}: first {}, second {}, draws {}",
        s.finished(),
        pct(s.finished(), s.deals),
        s.first_wins,
        s.second_wins,
        s.draws
    );
    let distinct = if !s.cycles_dropped {
        format!("{} distinct cycles", s.loops.len())
    } else {
        let k = s.max_cycles;
        match s.distinct_cycles_estimate() {
            Some(e) => format!(
                "about {e:.0} distinct cycles (estimated; the {k} of smallest rank are kept, \
                 --max-cycles)"
            ),
            None => format!("more than {k} distinct cycles (the {k} of smallest rank are kept)"),
        }
    };
    let _ =
        writeln!(t, "loops:     {}{}, {distinct}", s.looping_deals, pct(s.looping_deals, s.deals));
    if s.capped > 0 {
        let _ = writeln!(t, "capped:    {}", s.capped);
    }
    let _ = writeln!(
        t,
        "means:     {}; {} {} (finished games)",
        mean_line("tricks", &s.tricks),
        mean_line("cards", &s.cards),
        game.cards_counted()
    );
    for list in [&s.longest_by_tricks, &s.longest_by_cards] {
        if let Some(r) = list.entries().first() {
            let _ = writeln!(
                t,
                "longest by {}: {} tricks, {} cards: {}",
                list.measure().name(),
                r.tricks,
                r.cards,
                game.deal_text(&r.deal)
            );
        }
    }
    if let Some((tail, deal, id)) = s.shortest_tail() {
        let _ = writeln!(
            t,
            "shortest tail: {tail} tricks into cycle {id:016x}: {}",
            game.deal_text(deal)
        );
    }
    let aligned = cycles.iter().filter(|c| matches!(c.alignment, Alignment::Yes(_))).count();
    if s.loop_deals > 0 {
        let kept: usize = s.loops.values().map(|l| l.kept.len()).sum();
        let mut cut = if s.loop_deals_truncated() {
            format!(" (TRUNCATED: some loop has more than {} {items})", s.loop_deals)
        } else {
            String::new()
        };
        if s.cycles_dropped {
            cut.push_str(" (only those of the cycles kept by --max-cycles)");
        }
        let _ = writeln!(t, "looping {items} kept: {kept}{cut}");
    }
    if !cycles.is_empty() {
        let kept = if s.cycles_dropped { " kept" } else { "" };
        let _ = writeln!(t, "aligned cycles: {aligned} of {}{kept}", cycles.len());
        for c in cycles.iter().take(5) {
            let _ = writeln!(
                t,
                "  cycle {:016x}: period {} tricks, reached by {} {items}, e.g. {}",
                c.id, c.period_tricks, c.deals, c.example
            );
        }
    }
    t
}
