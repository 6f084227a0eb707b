//! Mean durations: cards played per player, averaged over the games that end, both players
//! using the same method (the article's "DURÉES MOYENNES" tables).
//!
//! Each cell is one run of the search harness on `deals` random deals with the recipe's seed;
//! its [`Stats`] give the exact sum and sum of squares of the cards of the finished games, hence
//! the mean, its standard error and the 95% interval. Where the deck is small enough the exact
//! mean over *all* deals is computed too ([`exact_mean`]).

use bataille_engine::{DeckSpec, Game, Limits, Method, Methods, Scratch, play_deterministic};
use bataille_search::arrangement::{Arrangements, next_arrangement};
use bataille_search::stats::Stats;
use bataille_search::{Bataille, DealGame, Mode, RandomConvention};

use crate::plot::PlottedCell;
use crate::published::{self, Printed};
use crate::recipe::{Convention, Durations};
use crate::{ExperimentError, Output, Settings, csv_bytes, plot, search};

/// The article's sample size, for the standard error of a published mean.
pub const ARTICLE_DEALS: f64 = 100_000.0;

/// The exact mean over every deal of a deck (every arrangement, split ⌊N/2⌋ / ⌈N/2⌉).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exact {
    /// Arrangements of the deck (deals, the two players told apart).
    pub deals: u128,
    /// Those whose game ends.
    pub finished: u128,
    /// Total cards played per player over the finished games.
    pub cards: u128,
}

impl Exact {
    /// The mean cards per player over the finished games.
    pub fn mean(&self) -> Option<f64> {
        (self.finished > 0).then(|| self.cards as f64 / self.finished as f64)
    }
}

/// The exact mean over all deals of `spec` with both players using the deterministic `method`.
///
/// The harness plays one deal per mirror pair {A, B} when the game reduces by swap; a mirror
/// deal has the same length, so the pair counts twice, except the self-mirror deals A = B,
/// which appear once among all arrangements. They are enumerated and played here (a few
/// thousand at most) and counted once: the result is the mean over every arrangement, as
/// random deals sample it.
pub fn exact_mean(
    spec: DeckSpec,
    method: Method,
    settings: &Settings<'_>,
) -> Result<Exact, ExperimentError> {
    Ok(exhaustive(spec, method, 1, settings)?.0)
}

/// [`exact_mean`] and the exhaustive run's aggregates, keeping the `top` longest games.
fn exhaustive(
    spec: DeckSpec,
    method: Method,
    top: usize,
    settings: &Settings<'_>,
) -> Result<(Exact, Stats), ExperimentError> {
    let methods = Methods::both(method);
    let game = Bataille::new(spec, methods, Limits::DETERMINISTIC);
    let stats = search(&game, Mode::Exhaustive, 0, top, settings)?;
    let k = if game.reduces_by_swap() { 2 } else { 1 };
    let mut exact = Exact {
        deals: u128::from(stats.deals) * k,
        finished: u128::from(stats.finished()) * k,
        cards: stats.cards.sum * k,
    };
    if game.reduces_by_swap() {
        for_each_self_mirror(spec, |hand| {
            let mut g = Game::default();
            g.set(hand, hand);
            let r = play_deterministic(&g, methods, Limits::DETERMINISTIC, &mut Scratch::default());
            exact.deals -= 1;
            if r.outcome.is_finished() {
                exact.finished -= 1;
                exact.cards -= u128::from(r.cards);
            }
        });
    }
    Ok((exact, stats))
}

/// Calls `f` on every hand H such that (H, H) is a deal of `spec` (none unless every value
/// appears an even number of times).
fn for_each_self_mirror(spec: DeckSpec, mut f: impl FnMut(&[u8])) {
    if spec.colours() % 2 == 1 {
        return;
    }
    let deck = spec.sorted_deck();
    let mut half: Vec<u8> = deck.iter().step_by(2).copied().collect();
    loop {
        f(&half);
        if !next_arrangement(&mut half) {
            break;
        }
    }
}

/// One cell of the table.
#[derive(Debug, Clone)]
pub struct Cell {
    /// V.
    pub values: usize,
    /// Both players' method.
    pub method: Method,
    /// The random method's convention (`None` for deterministic methods).
    pub convention: Option<Convention>,
    /// The harness's aggregates.
    pub stats: Stats,
    /// The article's value.
    pub published: Option<Printed>,
    /// The exact mean over all deals, where computed.
    pub exact: Option<Exact>,
    /// The exhaustive run behind [`Cell::exact`] (its longest games are the deck's records).
    pub exhaustive: Option<Stats>,
}

impl Cell {
    /// Mean cards per player over finished games.
    pub fn mean(&self) -> Option<f64> {
        self.stats.cards.mean()
    }

    /// Standard error of the mean.
    pub fn se(&self) -> Option<f64> {
        Some(self.stats.cards.sd()? / (self.stats.cards.n as f64).sqrt())
    }

    /// The standard error of (ours − published): the printed mean is itself the mean of
    /// 100,000 random deals, whose standard error is taken as sd / √100,000 with our sd.
    pub fn se_diff(&self) -> Option<f64> {
        let sd = self.stats.cards.sd()?;
        Some((self.se()?.powi(2) + sd * sd / ARTICLE_DEALS).sqrt())
    }

    /// (ours − published) / [`Cell::se_diff`]; `None` without a published value or without
    /// spread (every game the same length: then [`Cell::flagged`] still compares the values).
    pub fn diff_se(&self) -> Option<f64> {
        let se = self.se_diff().filter(|&se| se > 0.0)?;
        Some((self.mean()? - self.published?.value) / se)
    }

    /// Whether the gap to the published value exceeds 3 standard errors of the difference plus
    /// the printed rounding.
    pub fn flagged(&self) -> bool {
        match (self.mean(), self.se_diff(), self.published) {
            (Some(m), Some(se), Some(p)) => (m - p.value).abs() > 3.0 * se + p.half_unit(),
            _ => false,
        }
    }

    /// (published − exact) / the standard error of a 100,000-deal mean.
    pub fn published_vs_exact_se(&self) -> Option<f64> {
        let sd = self.stats.cards.sd().filter(|&sd| sd > 0.0)?;
        Some((self.published?.value - self.exact?.mean()?) / (sd / ARTICLE_DEALS.sqrt()))
    }

    /// The row label: `natural`, `random (end)`, `random (repeat)`.
    pub fn label(&self) -> String {
        match self.convention {
            None => self.method.name().to_string(),
            Some(c) => format!("{} ({})", self.method.name(), c.name()),
        }
    }
}

impl PlottedCell for Cell {
    fn values(&self) -> usize {
        self.values
    }
    fn label(&self) -> String {
        Cell::label(self)
    }
    fn mean(&self) -> Option<f64> {
        Cell::mean(self)
    }
    fn published(&self) -> Option<f64> {
        self.published.map(|p| p.value)
    }
    fn stats(&self) -> &Stats {
        &self.stats
    }
}

fn fmt(x: Option<f64>, decimals: usize) -> String {
    x.map_or(String::new(), |x| format!("{x:.decimals$}"))
}

/// Runs the table.
pub fn run(
    d: &Durations,
    settings: &Settings<'_>,
    log: &mut dyn FnMut(&str),
) -> Result<Output, ExperimentError> {
    let mut cells = Vec::new();
    for &v in &d.values {
        let spec = DeckSpec::new(d.colours, v).expect("validated by the recipe");
        for &method in &d.methods {
            let conventions: Vec<Option<Convention>> = if method.is_deterministic() {
                vec![None]
            } else {
                d.conventions.iter().map(|&c| Some(c)).collect()
            };
            let (exact, exhaustive_stats) = if method.is_deterministic()
                && Arrangements::new(&spec.sorted_deck()).count().is_some_and(|n| n <= d.exact)
            {
                log(&format!("C={} V={v} {method}: exact mean over all deals", d.colours));
                let (e, s) = exhaustive(spec, method, 3, settings)?;
                (Some(e), Some(s))
            } else {
                (None, None)
            };
            for convention in conventions {
                let rc = match convention {
                    Some(Convention::Repeat) => RandomConvention::StopOnRepeat,
                    _ => RandomConvention::PlayedToEnd,
                };
                let methods = Methods::both(method);
                let game =
                    Bataille::with_convention(spec, methods, Limits::default_for(methods), rc);
                log(&format!("{}: {} random deals", game.identity(), d.deals));
                let stats = search(&game, Mode::Random { deals: d.deals }, d.seed, 3, settings)?;
                cells.push(Cell {
                    values: v,
                    method,
                    convention,
                    stats,
                    published: published::mean_duration(d.colours, v, method),
                    exact,
                    exhaustive: exhaustive_stats.clone(),
                });
            }
        }
    }
    render(d, &cells)
}

fn render(d: &Durations, cells: &[Cell]) -> Result<Output, ExperimentError> {
    let c = d.colours;
    let mut rows = vec![
        [
            "colours",
            "values",
            "method",
            "convention",
            "deals",
            "finished",
            "stopped",
            "mean_cards",
            "sd_cards",
            "se",
            "ci95_low",
            "ci95_high",
            "mean_tricks",
            "published",
            "se_diff",
            "diff_se",
            "flag",
            "exact_mean",
            "exact_deals",
            "published_vs_exact_se",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for cell in cells {
        let s = &cell.stats;
        let ci = s.cards.ci95();
        rows.push(vec![
            c.to_string(),
            cell.values.to_string(),
            cell.method.name().to_string(),
            cell.convention.map_or("", |c| c.name()).to_string(),
            s.deals.to_string(),
            s.finished().to_string(),
            (s.looping_deals + s.capped).to_string(),
            fmt(cell.mean(), 4),
            fmt(s.cards.sd(), 4),
            fmt(cell.se(), 4),
            fmt(ci.map(|c| c.0), 4),
            fmt(ci.map(|c| c.1), 4),
            fmt(s.tricks.mean(), 4),
            cell.published
                .map_or(String::new(), |p| format!("{:.*}", p.decimals as usize, p.value)),
            fmt(cell.se_diff(), 4),
            fmt(cell.diff_se(), 2),
            if cell.flagged() { "yes" } else { "" }.to_string(),
            fmt(cell.exact.and_then(|e| e.mean()), 4),
            cell.exact.map_or(String::new(), |e| e.deals.to_string()),
            fmt(cell.published_vs_exact_se(), 2),
        ]);
    }
    let mut files = vec![("durations.csv".to_string(), csv_bytes(&rows)?)];

    // The longest finished games of each cell, by each measure.
    let mut longest = vec![
        [
            "colours",
            "values",
            "method",
            "convention",
            "deals",
            "measure",
            "rank",
            "tricks",
            "cards",
            "finish",
            "deal",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for cell in cells {
        let game = Bataille::new(
            DeckSpec::new(c, cell.values).expect("validated"),
            Methods::both(cell.method),
            Limits::DETERMINISTIC,
        );
        // All deals where the exhaustive run was made (first: on a tie it is the record that
        // counts), then the random deals.
        let runs = [
            ("all".to_string(), cell.exhaustive.as_ref()),
            (format!("random {}", cell.stats.deals), Some(&cell.stats)),
        ];
        let lists = runs.iter().filter_map(|(deals, s)| Some((deals, (*s)?)));
        let lists = lists
            .flat_map(|(deals, s)| [(deals, &s.longest_by_tricks), (deals, &s.longest_by_cards)]);
        for (deals, list) in lists {
            for (i, r) in list.entries().iter().enumerate() {
                longest.push(vec![
                    c.to_string(),
                    cell.values.to_string(),
                    cell.method.name().to_string(),
                    cell.convention.map_or("", |c| c.name()).to_string(),
                    deals.clone(),
                    list.measure().name().to_string(),
                    (i + 1).to_string(),
                    r.tricks.to_string(),
                    r.cards.to_string(),
                    r.finish.name().to_string(),
                    game.deal_text(&r.deal),
                ]);
            }
        }
    }
    files.push(("longest.csv".to_string(), csv_bytes(&longest)?));

    // Exact histograms of the cards per player of the finished games, for the chosen V.
    let mut hist = vec![
        ["colours", "values", "method", "convention", "cards", "games"].map(String::from).to_vec(),
    ];
    for cell in cells.iter().filter(|cell| d.histograms.contains(&cell.values)) {
        for (cards, games) in cell.stats.cards_histogram.iter() {
            hist.push(vec![
                c.to_string(),
                cell.values.to_string(),
                cell.method.name().to_string(),
                cell.convention.map_or("", |c| c.name()).to_string(),
                cards.to_string(),
                games.to_string(),
            ]);
        }
    }
    if !d.histograms.is_empty() {
        files.push(("histograms.csv".to_string(), csv_bytes(&hist)?));
    }

    files.push(("means.svg".to_string(), plot::means(c, cells)?.into_bytes()));
    for &v in &d.histograms {
        let chosen: Vec<&Cell> = cells
            .iter()
            .filter(|cell| cell.values == v && cell.method.is_deterministic())
            .collect();
        if !chosen.is_empty() {
            files.push((
                format!("histogram-v{v}.svg"),
                plot::histogram(c, v, &chosen)?.into_bytes(),
            ));
        }
    }
    let table = markdown(d, cells);
    files.push(("table.md".to_string(), table.clone().into_bytes()));
    Ok(Output { files, summary: table })
}

/// The table in Markdown: one line per cell.
fn markdown(d: &Durations, cells: &[Cell]) -> String {
    let mut out = format!(
        "Mean cards played per player over finished games, C = {}, {} random deals per cell \
         (seed {}); 95% CI; gap to the printed value in standard errors of the difference of \
         two 100,000-deal means (⚠ beyond 3 SE plus the printed rounding); exact mean over all \
         deals where computed; stopped: games that did not end (loops, or under the published \
         convention a repeated position), left out of the means.\n\n\
         | V | method | ours | 95% CI | published | gap (SE) | exact | stopped |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- |\n",
        d.colours, d.deals, d.seed
    );
    for cell in cells {
        let ci = cell.stats.cards.ci95();
        let method = if d.colours == 1 && cell.method == Method::Natural {
            "natural = optimized".to_string()
        } else {
            cell.label()
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {}{} | {} | {} |\n",
            cell.values,
            method,
            fmt(cell.mean(), 2),
            ci.map_or(String::new(), |(a, b)| format!("{a:.2} – {b:.2}")),
            cell.published
                .map_or(String::new(), |p| format!("{:.*}", p.decimals as usize, p.value)),
            match (cell.diff_se(), cell.published, cell.mean()) {
                (Some(z), _, _) => format!("{z:.1}"),
                (None, Some(_), Some(_)) => "no spread".to_string(),
                _ => String::new(),
            },
            if cell.flagged() { " ⚠" } else { "" },
            fmt(cell.exact.and_then(|e| e.mean()), 3),
            cell.stats.looping_deals + cell.stats.capped,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_engine::{NoRandom, Position, play};

    /// Every arrangement played one by one with the engine, no reduction: (deals, finished,
    /// cards).
    fn brute_force(spec: DeckSpec, method: Method) -> Exact {
        let mut deck = spec.sorted_deck();
        let half = deck.len() / 2;
        let mut e = Exact { deals: 0, finished: 0, cards: 0 };
        loop {
            let p = Position::new(deck[..half].to_vec(), deck[half..].to_vec()).unwrap();
            let r = play(&p, Methods::both(method), &mut NoRandom, Limits::DETERMINISTIC);
            e.deals += 1;
            if r.outcome.is_finished() {
                e.finished += 1;
                e.cards += u128::from(r.cards);
            }
            if !next_arrangement(&mut deck) {
                return e;
            }
        }
    }

    #[test]
    fn exact_means_equal_brute_force() {
        for (c, v) in [(1, 2), (1, 4), (1, 6), (1, 7), (2, 3), (2, 4), (4, 2), (3, 3), (2, 5)] {
            let spec = DeckSpec::new(c, v).unwrap();
            for m in [Method::Natural, Method::Optimized] {
                assert_eq!(
                    exact_mean(spec, m, &Settings::new(2)).unwrap(),
                    brute_force(spec, m),
                    "C={c} V={v} {m}"
                );
            }
        }
    }

    #[test]
    fn self_mirror_deals() {
        let count = |c, v| {
            let mut n = 0u128;
            for_each_self_mirror(DeckSpec::new(c, v).unwrap(), |_| n += 1);
            n
        };
        let equal = |c, v| {
            Arrangements::new(&DeckSpec::new(c, v).unwrap().sorted_deck()).equal_halves().unwrap()
        };
        for (c, v) in [(2, 3), (4, 2), (4, 4), (1, 4), (3, 2)] {
            assert_eq!(count(c, v), equal(c, v), "C={c} V={v}");
        }
    }
}
