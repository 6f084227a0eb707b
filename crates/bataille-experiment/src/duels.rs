//! Win-rate duels: every ordered pair of two different methods, the first player using the
//! first, on random deals (the article's histograms of victories, 100,000 games per duel).
//!
//! The players are not interchangeable when their methods differ, so every deal counts as
//! dealt (no mirror reduction; with random deals it would not apply anyway).

use bataille_engine::{DeckSpec, Limits, Method, Methods};
use bataille_search::stats::Stats;
use bataille_search::{Bataille, Mode};

use crate::plot::PlottedDuel;
use crate::recipe::Duels;
use crate::{ExperimentError, Output, Percent, Settings, csv_bytes, plot, search};

/// One duel.
#[derive(Debug, Clone)]
pub struct Duel {
    /// V.
    pub values: usize,
    /// The first player's method.
    pub first: Method,
    /// The second player's method.
    pub second: Method,
    /// The harness's aggregates.
    pub stats: Stats,
}

impl Duel {
    /// First wins, second wins, draws, cycles (capped games are counted with the cycles: they
    /// did not end).
    pub fn shares(&self) -> [Percent; 4] {
        let s = &self.stats;
        [
            Percent::of(s.first_wins, s.deals),
            Percent::of(s.second_wins, s.deals),
            Percent::of(s.draws, s.deals),
            Percent::of(s.looping_deals + s.capped, s.deals),
        ]
    }
}

/// Runs the duels.
pub fn run(
    d: &Duels,
    settings: &Settings<'_>,
    log: &mut dyn FnMut(&str),
) -> Result<Output, ExperimentError> {
    let mut duels = Vec::new();
    for &v in &d.values {
        let spec = DeckSpec::new(d.colours, v).expect("validated by the recipe");
        for &first in &d.methods {
            for &second in d.methods.iter().filter(|&&m| m != first) {
                let methods = Methods::new(first, second);
                let game = Bataille::new(spec, methods, Limits::default_for(methods));
                log(&format!(
                    "C={} V={v} {first} vs {second}: {} random deals",
                    d.colours, d.deals
                ));
                let stats = search(&game, Mode::Random { deals: d.deals }, d.seed, 1, settings)?;
                duels.push(Duel { values: v, first, second, stats });
            }
        }
    }
    render(d, &duels)
}

impl PlottedDuel for Duel {
    fn values(&self) -> usize {
        self.values
    }
    fn methods(&self) -> (Method, Method) {
        (self.first, self.second)
    }
    fn shares(&self) -> [Percent; 4] {
        Duel::shares(self)
    }
    fn stats(&self) -> &Stats {
        &self.stats
    }
}

fn cell(p: Percent) -> [String; 2] {
    [format!("{:.3}", p.value), format!("{:.3}", p.half_width)]
}

fn render(d: &Duels, duels: &[Duel]) -> Result<Output, ExperimentError> {
    let mut rows = vec![
        [
            "colours",
            "values",
            "first_method",
            "second_method",
            "deals",
            "first_wins_pct",
            "first_wins_ci95",
            "second_wins_pct",
            "second_wins_ci95",
            "draws_pct",
            "draws_ci95",
            "cycles_pct",
            "cycles_ci95",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for x in duels {
        let mut row = vec![
            d.colours.to_string(),
            x.values.to_string(),
            x.first.name().to_string(),
            x.second.name().to_string(),
            x.stats.deals.to_string(),
        ];
        for p in x.shares() {
            row.extend(cell(p));
        }
        rows.push(row);
    }
    // Each method's wins over all its games, in either seat, against the others.
    let mut by_method = vec![
        [
            "colours",
            "values",
            "method",
            "games",
            "wins_pct",
            "wins_ci95",
            "losses_pct",
            "losses_ci95",
        ]
        .map(String::from)
        .to_vec(),
    ];
    let mut md = format!(
        "Win rates, C = {}, {} random deals per ordered pair (seed {}), percent ± 95% CI \
         half-width; the first player uses the first method.\n\n\
         | V | first vs second | first wins | second wins | draws | cycles |\n\
         | --- | --- | --- | --- | --- | --- |\n",
        d.colours, d.deals, d.seed
    );
    let show = |p: Percent| format!("{:.2} ± {:.2}", p.value, p.half_width);
    for x in duels {
        let [a, b, dr, cy] = x.shares();
        md.push_str(&format!(
            "| {} | {} vs {} | {} | {} | {} | {} |\n",
            x.values,
            x.first,
            x.second,
            show(a),
            show(b),
            show(dr),
            show(cy)
        ));
    }
    md.push_str("\n| V | method | wins over all its duels | losses |\n| --- | --- | --- | --- |\n");
    for &v in &d.values {
        for &m in &d.methods {
            let (mut games, mut wins, mut losses) = (0, 0, 0);
            for x in duels.iter().filter(|x| x.values == v) {
                let s = &x.stats;
                if x.first == m {
                    games += s.deals;
                    wins += s.first_wins;
                    losses += s.second_wins;
                } else if x.second == m {
                    games += s.deals;
                    wins += s.second_wins;
                    losses += s.first_wins;
                }
            }
            let (w, l) = (Percent::of(wins, games), Percent::of(losses, games));
            let mut row =
                vec![d.colours.to_string(), v.to_string(), m.name().to_string(), games.to_string()];
            row.extend(cell(w));
            row.extend(cell(l));
            by_method.push(row);
            md.push_str(&format!("| {v} | {m} | {} | {} |\n", show(w), show(l)));
        }
    }
    Ok(Output {
        files: vec![
            ("duels.csv".to_string(), csv_bytes(&rows)?),
            ("methods.csv".to_string(), csv_bytes(&by_method)?),
            ("duels.svg".to_string(), plot::duels(d.colours, duels)?.into_bytes()),
            ("table.md".to_string(), md.clone().into_bytes()),
        ],
        summary: md,
    })
}
