//! The loop-rate table: how rare loops are among random deals and random positions of C=4
//! decks, V = 6 to 13, from the committed runs, beside the public C++ explorer's logs.
//!
//! The runs are read from their `summary.csv` (the caller finds them under the recipe's source
//! folders): every random run of `bataille hunt`/`explore` on a C=4 deck with the same natural
//! or optimized stacking for both players (deals), and every `bataille cycles hunt` with the
//! uniform sampler (positions of every split, each equally likely). Runs of the same game with
//! the same seed play the same first deals, so only the largest of them counts; the others are
//! added up. The shards `K/N` of one run play disjoint parts of it: they are added up, as one
//! run of that seed (the larger of that sum and any whole run of the seed counts). Each cell
//! gives the looping deals (positions) over those played and a 95% interval: exact for the
//! Poisson count of rare events (the Clopper–Pearson limits of the Poisson mean, the binomial
//! ones' limit for a rate this small), an upper bound of 3.0/n when none looped.
//!
//! The natural deal rates with loops, ours and the explorer's pooled, are fitted by a line in
//! log scale (each V weighted by its number of loops) and extrapolated to V = 13; the table
//! says how many deals a 95% chance of one loop would take there, ln 20 / rate, and how long at
//! the recipe's speeds on 1, 16 and 1,000 cores.

use std::collections::BTreeMap;

use bataille_engine::Method;
use bataille_search::Shard;
use plotters::prelude::*;

use crate::recipe::LoopRates;
use crate::{ExperimentError, Output, csv_bytes};

/// The C++ explorer's looping deals among its random deals, C = 4: `(V, method, looping,
/// deals)`, the last "N loops found after D" line of each run log
/// (github.com/legrosbuffle/bataille_cpp, `results/c4vV_SEED.txt` and `c4vV_opt_SEED.txt`).
pub const EXPLORER_LOOPS: [(usize, Method, u64, u64); 16] = [
    (6, Method::Natural, 6_180, 49_896_488_960),
    (7, Method::Natural, 155, 14_880_342_016),
    (8, Method::Natural, 2, 23_388_487_680),
    (9, Method::Natural, 0, 31_009_538_048),
    (10, Method::Natural, 0, 12_614_369_280),
    (11, Method::Natural, 3, 14_424_211_456),
    (12, Method::Natural, 0, 14_817_427_456),
    (13, Method::Natural, 0, 11_673_796_608),
    (6, Method::Optimized, 0, 746_586_112),
    (7, Method::Optimized, 7_807_717, 13_109_297_152),
    (8, Method::Optimized, 0, 38_647_365_632),
    (9, Method::Optimized, 0, 14_494_466_048),
    (10, Method::Optimized, 0, 9_828_302_848),
    (11, Method::Optimized, 242, 1_308_622_848),
    (12, Method::Optimized, 0, 3_263_168_512),
    (13, Method::Optimized, 0, 4_318_035_968),
];

/// The V of the table.
const VALUES: std::ops::RangeInclusive<usize> = 6..=13;

/// What a run is a sample of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Random deals (`hunt`, `explore`).
    Deals,
    /// Uniformly random positions of every split (`cycles hunt --sampler uniform`).
    Positions,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Deals => "deals",
            Kind::Positions => "positions",
        }
    }
}

/// One run's files as the caller found them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunFiles {
    /// Where the run is (its folder under the results, for the notes and the table).
    pub source: String,
    /// Its `summary.csv`.
    pub summary: String,
    /// Its shard (from its `metadata.csv`); [`Shard::WHOLE`] for a whole run.
    pub shard: Shard,
}

/// One run read.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Run {
    kind: Kind,
    values: usize,
    method: Method,
    seed: u64,
    played: u64,
    looping: u64,
    source: String,
}

/// A run's cell from its `summary.csv`, or why it does not count.
fn read_run(source: &str, summary: &str) -> Result<Run, String> {
    let mut kv = BTreeMap::new();
    for line in summary.lines().skip(1) {
        if let Some((k, v)) = line.split_once(',') {
            kv.insert(k, v.trim_matches('"'));
        }
    }
    let get = |k: &str| kv.get(k).copied().ok_or_else(|| format!("no {k}"));
    let game = get("game")?;
    let mode = get("mode")?;
    if !mode.starts_with("random ") {
        return Err(format!("{mode}: not a random run"));
    }
    let w: Vec<&str> = game.split(' ').collect();
    let (kind, rest) = match w.first() {
        Some(&"bataille") if w.len() == 4 => (Kind::Deals, &w[1..]),
        Some(&"positions") if w.get(4) == Some(&"sampler=uniform") && w.len() == 5 => {
            (Kind::Positions, &w[1..4])
        }
        _ => return Err(format!("{game}: not a C=4 run with one deterministic method")),
    };
    if rest[0] != "C=4" {
        return Err(format!("{game}: not C=4"));
    }
    let values: usize = rest[1].strip_prefix("V=").and_then(|v| v.parse().ok()).ok_or("bad V")?;
    let method = match rest[2] {
        "natural" => Method::Natural,
        "optimized" => Method::Optimized,
        m => return Err(format!("{game}: method {m} is not natural or optimized for both")),
    };
    let number = |k: &str| -> Result<u64, String> {
        get(k)?.parse().map_err(|_| format!("{k} is not a number"))
    };
    Ok(Run {
        kind,
        values,
        method,
        seed: number("seed")?,
        played: number("deals")?,
        looping: number("looping_deals")?,
        source: source.to_string(),
    })
}

/// Looping deals among those played, with a 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Looping.
    pub looping: u64,
    /// Played.
    pub played: u64,
}

impl Rate {
    /// The rate.
    pub fn value(self) -> f64 {
        self.looping as f64 / self.played as f64
    }

    /// The 95% interval: exact Poisson limits of the count over the sample; `(0, 3.0/n)` (a
    /// one-sided 95% upper bound) when nothing looped.
    pub fn interval(self) -> (f64, f64) {
        let n = self.played as f64;
        if self.looping == 0 {
            return (0.0, -(0.05f64.ln()) / n);
        }
        let (lo, hi) = poisson_limits(self.looping);
        (lo / n, hi / n)
    }
}

/// The two-sided 95% limits of a Poisson mean after `k` ≥ 1 events: the means whose
/// probability of at least (at most) `k` events is 2.5%, found by bisection on the cumulative
/// distribution up to 100 events, and beyond by the Wilson–Hilferty form of the chi-square
/// quantiles that define them (relative error far below the three digits printed).
fn poisson_limits(k: u64) -> (f64, f64) {
    const Z: f64 = 1.959_963_984_540_054;
    if k > 100 {
        let wh = |n: f64, z: f64| n * (1.0 - 1.0 / (9.0 * n) + z / (3.0 * n.sqrt())).powi(3);
        return (wh(k as f64, -Z), wh(k as f64 + 1.0, Z));
    }
    // P(X ≤ k) for a Poisson mean m (m stays below 310, far from underflow).
    let cdf = |m: f64, k: u64| -> f64 {
        let mut term = (-m).exp();
        let mut sum = term;
        for i in 1..=k {
            term *= m / i as f64;
            sum += term;
        }
        sum
    };
    let solve = |f: &dyn Fn(f64) -> f64| {
        // f is increasing from below 0 to above 0 on [0, hi].
        let (mut lo, mut hi) = (0.0, 10.0 + 3.0 * k as f64);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if f(mid) < 0.0 { lo = mid } else { hi = mid }
        }
        0.5 * (lo + hi)
    };
    // Lower: P(X ≥ k) = 0.025, i.e. 1 − P(X ≤ k − 1) = 0.025.
    let lower = solve(&|m| (1.0 - cdf(m, k - 1)) - 0.025);
    // Upper: P(X ≤ k) = 0.025.
    let upper = solve(&|m| 0.025 - cdf(m, k));
    (lower, upper)
}

fn sci(x: f64) -> String {
    if x == 0.0 { "0".to_string() } else { format!("{x:.2e}") }
}

fn rate_text(r: Option<Rate>) -> String {
    match r {
        None => "-".to_string(),
        Some(r) if r.looping == 0 => {
            format!("0 / {} (< {})", sci(r.played as f64), sci(r.interval().1))
        }
        Some(r) => {
            let (lo, hi) = r.interval();
            format!(
                "{} / {} = {} ({} to {})",
                r.looping,
                sci(r.played as f64),
                sci(r.value()),
                sci(lo),
                sci(hi)
            )
        }
    }
}

/// The weighted least-squares line of ln(rate) against V through `points` (V, rate, weight).
fn fit(points: &[(f64, f64, f64)]) -> Option<(f64, f64)> {
    let w: f64 = points.iter().map(|p| p.2).sum();
    if points.len() < 2 || w <= 0.0 {
        return None;
    }
    let mx = points.iter().map(|p| p.2 * p.0).sum::<f64>() / w;
    let my = points.iter().map(|p| p.2 * p.1.ln()).sum::<f64>() / w;
    let sxx: f64 = points.iter().map(|p| p.2 * (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| p.2 * (p.0 - mx) * (p.1.ln() - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    Some((my - slope * mx, slope))
}

/// The table from the runs' summaries (with their shards).
pub fn run(recipe: &LoopRates, runs: &[RunFiles]) -> Result<Output, ExperimentError> {
    let (mut notes, mut ignored) = (Vec::new(), Vec::new());
    // The runs of each (game, seed), by shard count N (1: whole runs) and shard index K.
    type Game = (Kind, usize, &'static str, u64);
    let mut parts: BTreeMap<Game, BTreeMap<u64, BTreeMap<u64, Run>>> = BTreeMap::new();
    for f in runs {
        let source = &f.source;
        match read_run(source, &f.summary) {
            Ok(r) if VALUES.contains(&r.values) => {
                let (k, n) = (f.shard.index(), f.shard.count());
                let key = (r.kind, r.values, r.method.name(), r.seed);
                let slot = parts.entry(key).or_default().entry(n).or_default();
                // Two runs of the same part: the larger counts.
                match slot.get(&k) {
                    Some(b) if b.played >= r.played => notes.push(format!(
                        "{source}: the same deals as {} (same seed), not counted",
                        b.source
                    )),
                    Some(b) => {
                        notes.push(format!(
                            "{}: the same deals as {source} (same seed), not counted",
                            b.source
                        ));
                        slot.insert(k, r);
                    }
                    None => {
                        slot.insert(k, r);
                    }
                }
            }
            Ok(_) => {}
            Err(why) => ignored.push(format!("{source}: {why}")),
        }
    }
    // Of each (game, seed), the whole run or the set of shards that played the most, as one
    // run (a set of shards is named after their folder's parent).
    let mut best: BTreeMap<Game, Run> = BTreeMap::new();
    for (key, by_count) in parts {
        let mut sets: Vec<(u64, Run)> = by_count
            .into_iter()
            .filter_map(|(n, shards)| {
                let count = shards.len();
                let mut runs = shards.into_values();
                let mut set = runs.next()?;
                for r in runs {
                    set.played += r.played;
                    set.looping += r.looping;
                }
                if n > 1 {
                    let parent = set.source.rsplit_once('/').map_or("", |p| p.0);
                    set.source = format!("{parent} ({count} of {n} shards)");
                }
                Some((n, set))
            })
            .collect();
        // The most deals; on a tie the whole run (the smallest N).
        let top = (0..sets.len())
            .max_by_key(|&i| (sets[i].1.played, std::cmp::Reverse(sets[i].0)))
            .unwrap_or(0);
        let (_, kept) = sets.swap_remove(top);
        for (_, other) in &sets {
            notes.push(format!(
                "{}: the same deals as {} (same seed), not counted",
                other.source, kept.source
            ));
        }
        best.insert(key, kept);
    }
    if !ignored.is_empty() {
        notes.push(format!(
            "{} runs not counted (exhaustive, other decks, other methods or samplers), e.g. {}",
            ignored.len(),
            ignored[..ignored.len().min(3)].join("; ")
        ));
    }
    let mut cells: BTreeMap<(Kind, usize, &'static str), (Rate, Vec<String>)> = BTreeMap::new();
    for r in best.values() {
        let e = cells
            .entry((r.kind, r.values, r.method.name()))
            .or_insert((Rate { looping: 0, played: 0 }, Vec::new()));
        e.0.looping += r.looping;
        e.0.played += r.played;
        e.1.push(r.source.clone());
    }
    let explorer = |v: usize, m: Method| {
        EXPLORER_LOOPS
            .iter()
            .find(|e| e.0 == v && e.1 == m)
            .map(|e| Rate { looping: e.2, played: e.3 })
    };

    let mut rows = vec![
        [
            "colours",
            "values",
            "method",
            "kind",
            "looping",
            "played",
            "rate",
            "ci95_low",
            "ci95_high",
            "explorer_looping",
            "explorer_deals",
            "explorer_rate",
            "runs",
        ]
        .map(String::from)
        .to_vec(),
    ];
    let mut md = String::from(
        "Looping deals (or positions) over those played, C = 4, with 95% intervals (an upper \
         bound when none looped), from the committed runs; the C++ explorer's logs beside them.\n\n\
         | V | method | our random deals | the C++ explorer's logs | our random positions (every split) |\n\
         | --- | --- | --- | --- | --- |\n",
    );
    for method in [Method::Natural, Method::Optimized] {
        for v in VALUES {
            let deals = cells.get(&(Kind::Deals, v, method.name())).map(|c| c.0);
            let positions = cells.get(&(Kind::Positions, v, method.name())).map(|c| c.0);
            let ex = explorer(v, method);
            md.push_str(&format!(
                "| {v} | {method} | {} | {} | {} |\n",
                rate_text(deals),
                rate_text(ex),
                rate_text(positions)
            ));
            for kind in [Kind::Deals, Kind::Positions] {
                let Some((rate, sources)) = cells.get(&(kind, v, method.name())) else { continue };
                let (lo, hi) = rate.interval();
                let e = (kind == Kind::Deals).then_some(ex).flatten();
                rows.push(vec![
                    "4".into(),
                    v.to_string(),
                    method.name().into(),
                    kind.name().into(),
                    rate.looping.to_string(),
                    rate.played.to_string(),
                    format!("{:.6e}", rate.value()),
                    format!("{lo:.6e}"),
                    format!("{hi:.6e}"),
                    e.map_or(String::new(), |e| e.looping.to_string()),
                    e.map_or(String::new(), |e| e.played.to_string()),
                    e.map_or(String::new(), |e| format!("{:.6e}", e.value())),
                    sources.join(" "),
                ]);
            }
        }
    }

    // The natural deal rates with loops, ours and the explorer's pooled, fitted in log scale.
    let pooled: Vec<(f64, f64, f64)> = VALUES
        .filter_map(|v| {
            let ours = cells.get(&(Kind::Deals, v, "natural")).map(|c| c.0);
            let ex = explorer(v, Method::Natural);
            let k = ours.map_or(0, |r| r.looping) + ex.map_or(0, |r| r.looping);
            let n = ours.map_or(0, |r| r.played) + ex.map_or(0, |r| r.played);
            (k > 0).then(|| (v as f64, k as f64 / n as f64, k as f64))
        })
        .collect();
    let line = fit(&pooled);
    md.push_str("\nExtrapolation to the 52-card deck (V = 13, natural): ");
    let mut extrapolation = Vec::new();
    match line {
        Some((a, b)) => {
            let r13 = (a + 13.0 * b).exp();
            let needed = 20f64.ln() / r13;
            md.push_str(&format!(
                "the natural deal rates with loops (V = {}; ours and the explorer's pooled), fitted \
                 by ln(rate) = {a:.3} {} {:.3}·V weighted by their loops, give {} at V = 13: a 95% \
                 chance of one loop takes ln 20 / rate = {} deals, ",
                pooled.iter().map(|p| p.0.to_string()).collect::<Vec<_>>().join(", "),
                if b < 0.0 { "−" } else { "+" },
                b.abs(),
                sci(r13),
                sci(needed),
            ));
            let speed = recipe.speed_natural as f64;
            let times: Vec<String> = [1.0, 16.0, 1000.0]
                .iter()
                .map(|&c| {
                    let cores = if c == 1.0 { "1 core".to_string() } else { format!("{c} cores") };
                    format!("{} on {cores}", crate::human_seconds(needed / (speed * c)))
                })
                .collect();
            md.push_str(&format!(
                "at {} deals/s per core: {}. A straight line in log scale is the simplest reading \
                 of four points (V = 6, 7, 8, 11) spanning five orders of magnitude; nothing \
                 says the rate keeps falling that way.\n",
                recipe.speed_natural,
                times.join(", ")
            ));
            extrapolation.push((a, b, r13, needed));
        }
        None => md.push_str("too few rates with loops to fit a line.\n"),
    }
    if !notes.is_empty() {
        md.push_str("\nInputs:\n\n");
        for n in &notes {
            md.push_str(&format!("- {n}\n"));
        }
    }
    let svg = plot(&cells, &explorer, line)?;
    Ok(Output {
        files: vec![
            ("rates.csv".to_string(), csv_bytes(&rows)?),
            ("table.md".to_string(), md.clone().into_bytes()),
            ("rates.svg".to_string(), svg.into_bytes()),
        ],
        summary: md,
    })
}

type Cells = BTreeMap<(Kind, usize, &'static str), (Rate, Vec<String>)>;

/// A series of the plot: its label, colour, offset on the V axis, and its rate for (V, method).
type Series<'a> = (&'static str, RGBColor, f64, Box<dyn Fn(usize, Method) -> Option<Rate> + 'a>);

/// The rates against V in log scale: ours (deals, positions) and the explorer's, with their
/// intervals, upper bounds as open triangles, and the fitted line extended to V = 13.
fn plot(
    cells: &Cells,
    explorer: &dyn Fn(usize, Method) -> Option<Rate>,
    line: Option<(f64, f64)>,
) -> Result<String, ExperimentError> {
    let err = |e: &dyn std::fmt::Display| ExperimentError::Plot(e.to_string());
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Looping deals and positions, C = 4 (log scale)", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(5.5f64..13.5f64, (1e-13f64..1e-1f64).log_scale())
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("V (values; C = 4)")
            .y_desc("looping share")
            .x_labels(8)
            .y_label_formatter(&|y| format!("{y:.0e}"))
            .draw()
            .map_err(|e| err(&e))?;
        let series: [Series<'_>; 5] = [
            (
                "natural, our deals",
                RGBColor(31, 119, 180),
                -0.12,
                Box::new(|v, m| cells.get(&(Kind::Deals, v, m.name())).map(|c| c.0)),
            ),
            ("natural, explorer's deals", RGBColor(255, 127, 14), 0.0, Box::new(explorer)),
            (
                "natural, our positions",
                RGBColor(44, 160, 44),
                0.12,
                Box::new(|v, m| cells.get(&(Kind::Positions, v, m.name())).map(|c| c.0)),
            ),
            (
                "optimized, our deals",
                RGBColor(214, 39, 40),
                -0.06,
                Box::new(|v, m| cells.get(&(Kind::Deals, v, m.name())).map(|c| c.0)),
            ),
            ("optimized, explorer's deals", RGBColor(148, 103, 189), 0.06, Box::new(explorer)),
        ];
        for (i, (label, col, dx, get)) in series.iter().enumerate() {
            let method = if i < 3 { Method::Natural } else { Method::Optimized };
            let pts: Vec<(f64, Rate)> =
                VALUES.filter_map(|v| get(v, method).map(|r| (v as f64 + dx, r))).collect();
            let col = *col;
            chart
                .draw_series(
                    pts.iter()
                        .filter(|(_, r)| r.looping > 0)
                        .map(|&(x, r)| Circle::new((x, r.value()), 4, col.filled())),
                )
                .map_err(|e| err(&e))?
                .label(*label)
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, col.filled()));
            chart
                .draw_series(pts.iter().filter(|(_, r)| r.looping > 0).map(|&(x, r)| {
                    let (lo, hi) = r.interval();
                    ErrorBar::new_vertical(x, lo.max(1e-13), r.value(), hi, col.stroke_width(1), 6)
                }))
                .map_err(|e| err(&e))?;
            // Upper bounds: an open triangle pointing down at the bound.
            chart
                .draw_series(pts.iter().filter(|(_, r)| r.looping == 0).map(|&(x, r)| {
                    TriangleMarker::new((x, r.interval().1), 5, col.stroke_width(1))
                }))
                .map_err(|e| err(&e))?;
        }
        if let Some((a, b)) = line {
            let pts: Vec<(f64, f64)> = (0..=30)
                .map(|i| 6.0 + 7.0 * i as f64 / 30.0)
                .map(|v| (v, (a + b * v).exp()))
                .collect();
            chart
                .draw_series(LineSeries::new(pts, BLACK.stroke_width(1)))
                .map_err(|e| err(&e))?
                .label("natural deals, fitted (log scale), extended to V = 13")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poisson_limits_are_the_published_ones() {
        // Tabulated exact 95% limits of a Poisson mean (Garwood): 1 → 0.0253, 5.572;
        // 10 → 4.795, 18.39.
        let (lo, hi) = poisson_limits(1);
        assert!((lo - 0.02532).abs() < 1e-4 && (hi - 5.5716).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = poisson_limits(10);
        assert!((lo - 4.7954).abs() < 1e-3 && (hi - 18.390).abs() < 1e-2, "{lo} {hi}");
        // Beyond 100 events, the approximation joins the exact limits: 100 → 81.36, 121.63.
        let (lo, hi) = poisson_limits(101);
        assert!((lo - 82.26).abs() < 0.1 && (hi - 122.7).abs() < 0.2, "{lo} {hi}");
        let (lo, hi) = poisson_limits(6180);
        assert!(lo < 6180.0 && hi > 6180.0 && (hi - lo - 2.0 * 1.96 * 6180f64.sqrt()).abs() < 2.0);
        let r = Rate { looping: 0, played: 1_000_000 };
        assert!((r.interval().1 - 2.9957e-6).abs() < 1e-9);
    }

    #[test]
    fn runs_are_counted_once_per_seed_and_filtered() {
        let summary = |game: &str, mode: &str, seed: u64, deals: u64, looping: u64| {
            format!(
                "key,value\ngame,{game}\nmode,{mode}\nseed,{seed}\ndeals,{deals}\nlooping_deals,{looping}\n"
            )
        };
        let whole = |source: &str, summary: String| RunFiles {
            source: source.into(),
            summary,
            shard: Shard::WHOLE,
        };
        let runs = vec![
            whole("a", summary("bataille C=4 V=7 natural", "random 100", 1, 100, 2)),
            whole("b", summary("bataille C=4 V=7 natural", "random 300", 1, 300, 5)),
            whole("c", summary("bataille C=4 V=7 natural", "random 50", 2, 50, 1)),
            whole("d", summary("bataille C=4 V=5 natural", "exhaustive", 0, 9, 0)),
            whole("e", summary("positions C=4 V=7 natural sampler=piles", "random 9", 0, 9, 0)),
            whole("f", summary("positions C=4 V=7 natural sampler=uniform", "random 40", 0, 40, 1)),
        ];
        let recipe =
            LoopRates { sources: vec!["x".into()], speed_natural: 1000, speed_optimized: 1000 };
        let out = run(&recipe, &runs).unwrap();
        let csv = String::from_utf8(out.files[0].1.clone()).unwrap();
        // b and c: 6 looping of 350; a is b's first deals.
        assert!(csv.contains("4,7,natural,deals,6,350,"), "{csv}");
        assert!(csv.contains("4,7,natural,positions,1,40,"), "{csv}");
        assert!(out.summary.contains("a: the same deals as b (same seed), not counted"));
        assert!(out.summary.contains("2 runs not counted"), "{}", out.summary);
        assert!(out.summary.contains("d: exhaustive: not a random run"));
        assert!(out.summary.contains("e: positions C=4 V=7 natural sampler=piles"));
        assert!(out.summary.contains("Extrapolation to the 52-card deck"));
    }

    #[test]
    fn shards_of_one_run_are_added_up() {
        let summary = |deals: u64, looping: u64| {
            format!(
                "key,value\ngame,positions C=4 V=13 natural sampler=uniform\nmode,random 1000\n\
                 seed,1\ndeals,{deals}\nlooping_deals,{looping}\n"
            )
        };
        let file = |source: &str, deals: u64, looping: u64, shard: &str| RunFiles {
            source: source.into(),
            summary: summary(deals, looping),
            shard: shard.parse().unwrap(),
        };
        let recipe =
            LoopRates { sources: vec!["x".into()], speed_natural: 1000, speed_optimized: 1000 };
        let csv = |runs: &[RunFiles]| {
            let out = run(&recipe, runs).unwrap();
            (String::from_utf8(out.files[0].1.clone()).unwrap(), out.summary)
        };
        // Three shards of 100 (one given twice, the larger copy counts), and a whole run of
        // the same seed that played fewer deals: the shards count, added up.
        let (table, notes) = csv(&[
            file("h/s-1", 10, 1, "1/100"),
            file("h/s-2", 10, 0, "2/100"),
            file("h/t-2", 7, 0, "2/100"),
            file("h/s-3", 10, 2, "3/100"),
            file("whole", 25, 1, "1/1"),
        ]);
        assert!(table.contains("4,13,natural,positions,3,30,"), "{table}");
        assert!(table.contains("h (3 of 100 shards)"), "{table}");
        assert!(notes.contains("h/t-2: the same deals as h/s-2"), "{notes}");
        assert!(notes.contains("whole: the same deals as h (3 of 100 shards)"), "{notes}");
        // A whole run that played more than the shards counts instead; a shard 1/1 is whole.
        let (table, _) = csv(&[file("h/s-1", 10, 1, "1/100"), file("whole", 40, 0, "1/1")]);
        assert!(table.contains("4,13,natural,positions,0,40,"), "{table}");
    }
}
