//! SVG plots, drawn with `plotters`' SVG backend into a string (text is written as SVG `<text>`
//! elements: no font file is read).

use plotters::prelude::*;

use bataille_engine::Method;
use bataille_search::Stats;

use crate::{ExperimentError, Percent};

/// What the plots read of a cell of the durations table.
pub trait PlottedCell {
    /// V.
    fn values(&self) -> usize;
    /// The row label: `natural`, `random (end)`, ...
    fn label(&self) -> String;
    /// Mean cards per player over finished games.
    fn mean(&self) -> Option<f64>;
    /// The article's value.
    fn published(&self) -> Option<f64>;
    /// The harness's aggregates.
    fn stats(&self) -> &Stats;
}

/// What the plots read of a duel.
pub trait PlottedDuel {
    /// V.
    fn values(&self) -> usize;
    /// The first and second player's methods.
    fn methods(&self) -> (Method, Method);
    /// First wins, second wins, draws, cycles.
    fn shares(&self) -> [Percent; 4];
    /// The harness's aggregates.
    fn stats(&self) -> &Stats;
}

const SIZE: (u32, u32) = (900, 560);

fn err<E: std::fmt::Display>(e: E) -> ExperimentError {
    ExperimentError::Plot(e.to_string())
}

fn colour(label: &str) -> RGBColor {
    match label {
        "natural" => RGBColor(31, 119, 180),
        "optimized" => RGBColor(214, 39, 40),
        "random (end)" | "random" => RGBColor(44, 160, 44),
        "random (repeat)" => RGBColor(148, 103, 189),
        _ => RGBColor(90, 90, 90),
    }
}

/// Mean cards per player against V, one line per row of the table with 95% error bars, and
/// the published values as crosses (log scale).
pub fn means<C: PlottedCell>(colours: usize, cells: &[C]) -> Result<String, ExperimentError> {
    let mut labels: Vec<String> = Vec::new();
    for c in cells {
        if !labels.contains(&c.label()) {
            labels.push(c.label());
        }
    }
    let xs: Vec<f64> = cells.iter().map(|c| c.values() as f64).collect();
    let ys: Vec<f64> = cells
        .iter()
        .flat_map(|c| [c.mean(), c.published()])
        .flatten()
        .filter(|y| *y > 0.0)
        .collect();
    let xmax = xs.iter().copied().fold(1.0, f64::max);
    // No positive value at all (every mean 0): the axis still needs a finite range, or
    // plotters looks for its ticks forever.
    let ymin = match ys.iter().copied().fold(f64::INFINITY, f64::min) {
        y if y.is_finite() => y.max(0.1),
        _ => 0.1,
    };
    let ymax = ys.iter().copied().fold(1.0, f64::max);
    // A log scale has no place for 0 (a mean of 0 cards, or an error bar reaching 0): such
    // points are left out and bars cut at the axis, or the drawing would never end.
    let floor = ymin * 0.8;
    let plotted = |y: f64| (y.is_finite() && y > 0.0).then_some(y);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("Mean cards played per player, C = {colours} (crosses: published)"),
                ("sans-serif", 22),
            )
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..xmax * 1.05 + 1.0, (ymin * 0.8..ymax * 1.25).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("V (values)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_desc("cards per player (log scale)")
            .draw()
            .map_err(err)?;
        for label in &labels {
            let col = colour(label);
            let row: Vec<&C> = cells.iter().filter(|c| &c.label() == label).collect();
            let points: Vec<(f64, f64)> =
                row.iter().filter_map(|c| Some((c.values() as f64, plotted(c.mean()?)?))).collect();
            chart
                .draw_series(LineSeries::new(points.clone(), col.stroke_width(2)))
                .map_err(err)?
                .label(label.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], col.stroke_width(2))
                });
            chart
                .draw_series(row.iter().filter_map(|c| {
                    let (lo, hi) = c.stats().cards.ci95()?;
                    let mean = plotted(c.mean()?)?;
                    Some(ErrorBar::new_vertical(
                        c.values() as f64,
                        lo.max(floor).min(mean),
                        mean,
                        plotted(hi)?.max(mean),
                        col.filled(),
                        8,
                    ))
                }))
                .map_err(err)?;
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 3, col.filled())))
                .map_err(err)?;
            chart
                .draw_series(row.iter().filter_map(|c| {
                    let published = plotted(c.published()?)?;
                    Some(Cross::new((c.values() as f64, published), 6, col.stroke_width(2)))
                }))
                .map_err(err)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Histogram of the cards per player of finished games for one deck, one line per method:
/// the share of games in each bin.
pub fn histogram<C: PlottedCell>(
    colours: usize,
    values: usize,
    cells: &[&C],
) -> Result<String, ExperimentError> {
    // Bins up to the 99.5th percentile of the longest-tailed row, about 80 of them.
    let mut top = 1u64;
    for c in cells {
        let total: u64 = c.stats().cards_histogram.iter().map(|(_, n)| n).sum();
        let mut seen = 0;
        for (v, n) in c.stats().cards_histogram.iter() {
            seen += n;
            if seen * 1000 >= total * 995 {
                top = top.max(v);
                break;
            }
        }
    }
    let width = (top / 80).max(1);
    let bins = top / width + 1;
    let mut rows: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    let mut ymax: f64 = 0.0;
    for c in cells {
        let total: u64 = c.stats().cards_histogram.iter().map(|(_, n)| n).sum();
        let mut counts = vec![0u64; bins as usize];
        for (v, n) in c.stats().cards_histogram.iter() {
            if let Some(slot) = counts.get_mut((v / width) as usize) {
                *slot += n;
            }
        }
        let points: Vec<(f64, f64)> = counts
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                (
                    (i as u64 * width) as f64 + width as f64 / 2.0,
                    100.0 * n as f64 / total.max(1) as f64,
                )
            })
            .collect();
        ymax = points.iter().map(|p| p.1).fold(ymax, f64::max);
        rows.push((c.label(), points));
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let n = colours * values;
        let deals = cells.first().map_or(0, |c| c.stats().deals);
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "Game length, {n} cards (C = {colours}, V = {values}), {deals} random deals"
                ),
                ("sans-serif", 22),
            )
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..(bins * width) as f64, 0f64..ymax * 1.1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(format!("cards played per player (bins of {width}; finished games)"))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_desc("% of finished games")
            .draw()
            .map_err(err)?;
        for (label, points) in rows {
            let col = colour(&label);
            chart
                .draw_series(LineSeries::new(points, col.stroke_width(2)))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], col.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Grouped bars: for every duel, the first player's wins, the second's, and the games that did
/// not end in a win (draws and cycles), with 95% error bars; one panel per deck.
pub fn duels<D: PlottedDuel>(colours: usize, duels: &[D]) -> Result<String, ExperimentError> {
    let mut decks: Vec<usize> = duels.iter().map(|d| d.values()).collect();
    decks.dedup();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (SIZE.0, 360 * decks.len().max(1) as u32))
            .into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let panels = root.split_evenly((decks.len().max(1), 1));
        let kinds = [
            ("first player wins", RGBColor(31, 119, 180)),
            ("second player wins", RGBColor(255, 127, 14)),
            ("draw or cycle", RGBColor(127, 127, 127)),
        ];
        for (panel, &v) in panels.iter().zip(&decks) {
            let these: Vec<&D> = duels.iter().filter(|d| d.values() == v).collect();
            let names: Vec<String> = these
                .iter()
                .map(|d| {
                    let (a, b) = d.methods();
                    format!("{a} vs {b}")
                })
                .collect();
            let n = these.len();
            let mut chart = ChartBuilder::on(panel)
                .caption(
                    format!(
                        "Duels, {} cards (C = {colours}, V = {v}): first method vs second",
                        colours * v
                    ),
                    ("sans-serif", 20),
                )
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d(-0.5f64..n as f64 - 0.5, 0f64..100f64)
                .map_err(err)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(n.max(1))
                .x_label_formatter(&|x| {
                    let i = x.round();
                    if (x - i).abs() < 1e-6 && i >= 0.0 {
                        names.get(i as usize).cloned().unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                .y_desc("% of games")
                .draw()
                .map_err(err)?;
            for (k, (name, col)) in kinds.iter().enumerate() {
                let bar = 0.26;
                let x0 = |i: usize| i as f64 - 0.39 + k as f64 * bar;
                let values: Vec<(usize, f64, f64)> = these
                    .iter()
                    .enumerate()
                    .map(|(i, d)| {
                        let s = d.shares();
                        let p = match k {
                            0 => s[0],
                            1 => s[1],
                            _ => Percent::of(
                                d.stats().draws + d.stats().looping_deals + d.stats().capped,
                                d.stats().deals,
                            ),
                        };
                        (i, p.value, p.half_width)
                    })
                    .collect();
                let col = *col;
                chart
                    .draw_series(values.iter().map(|&(i, p, _)| {
                        Rectangle::new([(x0(i), 0.0), (x0(i) + bar * 0.9, p)], col.filled())
                    }))
                    .map_err(err)?
                    .label(*name)
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 14, y + 5)], col.filled())
                    });
                chart
                    .draw_series(values.iter().map(|&(i, p, h)| {
                        let x = x0(i) + bar * 0.45;
                        ErrorBar::new_vertical(x, p - h, p, p + h, BLACK.stroke_width(1), 6)
                    }))
                    .map_err(err)?;
                chart
                    .draw_series(values.iter().map(|&(i, p, _)| {
                        Text::new(format!("{p:.1}"), (x0(i), p + 6.0), ("sans-serif", 12))
                    }))
                    .map_err(err)?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK)
                .draw()
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}
