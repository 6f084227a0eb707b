//! A search for long games that starts where games end (`bataille_engine::backward::beam`):
//! terminal positions (every card in one hand) or a position of a game that ends, played
//! backwards a trick at a time over a beam of positions, the deepest deals met kept. In the
//! steps a front end takes: the start checked and the roots made ([`BeamSearch::prepare`]),
//! the search ([`BeamSearch::search`]), then the report and the rows appended
//! ([`BeamFound::finish`]).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use bataille_engine::backward::{self, Beam, BeamBounds, BeamRoot};
use bataille_engine::position::quoted;
use bataille_engine::{DeckSpec, Game, Methods, NoRandom, Position};
use bataille_records::row::{FoundBy, RecordRow};
use bataille_search::seed::splitmix64;
use bataille_search::stats::Measure;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::error::{Context, Result, bail};
use crate::files::Words;
use crate::progress::Steps;
use crate::provenance::{commit, machine, utc_now};
use crate::records::{append_records, appended, check_records_file, finished_game, replayed};
use crate::say::Say;

/// The most memory the beam's layers may take: the layer kept and the candidates of the next
/// (cut whenever they pass four times the width), each position its cards and 26 bytes.
pub const MAX_BEAM_BYTES: u128 = 8 << 30;

/// The most terminal positions a beam starts from.
pub const MAX_TERMINALS: usize = 1 << 20;

/// Where the beam starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BeamStart {
    /// `count` terminal positions of the deck: every card in the first player's hand, in an
    /// order drawn from the seed (and as many with the hands swapped).
    Terminal {
        /// The deck.
        spec: DeckSpec,
        /// How many orders.
        count: usize,
    },
    /// A position whose game ends, or the position `late` tricks before its game's end.
    Position {
        /// The position.
        position: Position,
        /// Tricks before the end of its game to start from (`None`: the position itself).
        late: Option<u64>,
    },
}

/// A beam search as the caller asked for it.
#[derive(Debug, Clone)]
pub struct BeamConfig {
    /// Where it starts.
    pub start: BeamStart,
    /// The methods, deterministic.
    pub methods: Methods,
    /// Most ties in one trick played backwards.
    pub max_ties: usize,
    /// Positions kept in each layer.
    pub width: usize,
    /// Most positions expanded in all.
    pub budget: u64,
    /// The seed (terminal orders, and the order among positions equally near the split).
    pub seed: u64,
    /// The records file the deals found are appended to, if any.
    pub records: Option<PathBuf>,
    /// The names of these options in refusals.
    pub words: Words,
}

/// A beam search checked, with its roots.
#[derive(Debug)]
pub struct BeamSearch {
    config: BeamConfig,
    spec: DeckSpec,
    roots: Vec<BeamRoot>,
}

/// A beam search done or stopped, not yet reported.
#[derive(Debug)]
pub struct BeamFound {
    run: BeamSearch,
    beam: Beam,
    started: Instant,
}

/// How a beam search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BeamEnd {
    /// The longest games found, by tricks and by cards (as appended to the records file).
    pub rows: Vec<RecordRow>,
    /// Layers played back, positions expanded, deals met.
    pub layers: u64,
    /// Positions expanded.
    pub expanded: u64,
    /// Whether a stop request cut the search short.
    pub stopped: bool,
}

/// The bytes the beam's layers may hold at `width` on positions of `cards` cards.
pub fn beam_bytes(width: usize, cards: usize) -> u128 {
    // The layer kept and the one its cut makes, the candidates (up to four times the width,
    // plus one position's predecessors), and the cut's order of them (24 bytes a candidate).
    (width as u128) * (6 * (cards as u128 + 26) + 4 * 24)
}

impl BeamSearch {
    /// Checks the bounds, the start and the records file, and makes the roots: the terminal
    /// positions, or the start (or its late position) with the rest of its game.
    pub fn prepare(config: BeamConfig, say: &dyn Say) -> Result<BeamSearch> {
        let w = &config.words;
        if config.width == 0 {
            bail!("a beam of width 0 keeps nothing: give a width of at least 1");
        }
        if config.budget == 0 {
            bail!("{} 0 expands nothing: give a budget of at least 1", w.budget);
        }
        if !config.methods.is_deterministic() {
            bail!("a search backwards needs deterministic methods, not {}", config.methods);
        }
        let spec = match &config.start {
            BeamStart::Terminal { spec, count } => {
                if *count == 0 || *count > MAX_TERMINALS {
                    bail!(
                        "{count} terminal positions: give from 1 to {MAX_TERMINALS} (each is one \
                         order of the whole deck in one hand)"
                    );
                }
                *spec
            }
            BeamStart::Position { position, .. } => position.infer_deck().with_context(|| {
                format!("{} is not a whole deck", quoted(&position.to_string()))
            })?,
        };
        let bytes = beam_bytes(config.width, spec.cards());
        if bytes > MAX_BEAM_BYTES {
            bail!(
                "a beam of width {} on {} cards could hold up to {:.1} GiB of positions, more \
                 than the limit of {} GiB: lower the width (at most {})",
                config.width,
                spec.cards(),
                bytes as f64 / f64::from(1u32 << 30),
                MAX_BEAM_BYTES >> 30,
                MAX_BEAM_BYTES / beam_bytes(1, spec.cards())
            );
        }
        if let Some(records) = &config.records {
            check_records_file(records)?;
        }
        let methods = config.methods;
        let roots = match &config.start {
            BeamStart::Terminal { spec, count } => {
                let mut roots = Vec::with_capacity(2 * count);
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(splitmix64(config.seed));
                for _ in 0..*count {
                    let mut hand = spec.sorted_deck();
                    hand.shuffle(&mut rng);
                    for p in
                        [Position::new(hand.clone(), Vec::new()), Position::new(Vec::new(), hand)]
                    {
                        let position = p.expect("a whole deck in one hand");
                        roots.push(BeamRoot { position, tricks: 0, cards: 0 });
                    }
                }
                say.line(&format!(
                    "start:     {count} terminal positions of C={} V={} (every card in one hand, \
                     in orders drawn from seed {}), {methods}",
                    spec.colours(),
                    spec.values(),
                    config.seed
                ));
                roots
            }
            BeamStart::Position { position, late } => {
                let game = finished_game(
                    position,
                    spec,
                    methods,
                    "a search backwards starts from a game that ends",
                    say,
                )?;
                let root = match late {
                    None => BeamRoot {
                        position: position.clone(),
                        tricks: game.tricks,
                        cards: game.cards,
                    },
                    Some(t) => {
                        let root = late_position(position, methods, game.tricks, game.cards, *t);
                        say.line(&format!(
                            "from:      {} ({} tricks, {} cards before the end)",
                            root.position, root.tricks, root.cards
                        ));
                        root
                    }
                };
                vec![root]
            }
        };
        Ok(BeamSearch { config, spec, roots })
    }

    /// Searches, telling `progress` the positions expanded against the budget; `stop` ends the
    /// search within milliseconds, the best deals found before kept.
    pub fn search(self, stop: &AtomicBool, progress: &mut dyn FnMut(Steps<'_>)) -> BeamFound {
        let started = Instant::now();
        let c = &self.config;
        let bounds = BeamBounds { width: c.width, budget: c.budget, max_ties: c.max_ties };
        // Among positions equally near the split, an order drawn from the seed: the workspace's
        // mixing function over the first hand's length and the cards, eight at a time.
        let seed = c.seed;
        let order = move |cards: &[u8], first: usize| {
            cards.chunks(8).fold(splitmix64(seed ^ first as u64), |h, chunk| {
                splitmix64(h ^ chunk.iter().fold(0u64, |w, &x| (w << 8) | u64::from(x)))
            })
        };
        let total = c.budget;
        let beam = backward::beam(
            &self.roots,
            c.methods,
            bounds,
            &order,
            stop,
            &mut |layers, expanded| {
                if layers.is_multiple_of(64) {
                    let what = format!("{layers} tricks back");
                    progress(Steps { done: expanded, from: 0, total, what: &what });
                }
            },
        );
        BeamFound { run: self, beam, started }
    }
}

/// The position `late` tricks before the end of the game from `start` (the start itself when
/// the game is shorter), with the tricks and cards left to play from it.
fn late_position(
    start: &Position,
    methods: Methods,
    tricks: u64,
    cards: u64,
    late: u64,
) -> BeamRoot {
    let skip = tricks.saturating_sub(late);
    let mut g = Game::new(start);
    let mut played = 0;
    for _ in 0..skip {
        played += u64::from(g.trick(methods, &mut NoRandom).reveals);
    }
    BeamRoot { position: g.to_position(), tricks: tricks - skip, cards: cards - played }
}

impl BeamFound {
    /// Says what was searched and the longest deals found (each replayed first: it must play
    /// the game announced), appends them to the records file, or says that none was met.
    pub fn finish(self, say: &dyn Say) -> Result<BeamEnd> {
        let BeamFound { run, beam: b, started } = self;
        let BeamSearch { config, spec, .. } = run;
        let methods = config.methods;
        let ended = match (b.stopped, b.exhausted) {
            (true, _) => "STOPPED by the request".to_string(),
            (_, true) if b.cut => "the beam died out (no predecessor left)".to_string(),
            (_, true) => "the whole tree (no layer was cut)".to_string(),
            _ => format!("stopped at the budget of {} positions", config.budget),
        };
        say.line(&format!(
            "searched:  {} tricks back, {} positions expanded, {} deals met, width {}: {ended}, \
             in {:.2} s",
            b.layers,
            b.expanded,
            b.deals,
            config.width,
            started.elapsed().as_secs_f64()
        ));
        if !b.improvements.is_empty() {
            let steps: Vec<String> =
                b.improvements.iter().map(|(layer, t)| format!("{t}@{layer}")).collect();
            let shown = if steps.len() > 12 { &steps[steps.len() - 12..] } else { &steps[..] };
            say.line(&format!(
                "gains:     the longest deal by tricks after each layer that improved it \
                 (tricks@layer): {}",
                shown.join(" ")
            ));
        }
        let command = replay_command(&config);
        let (commit, machine, date) = (commit(), machine(), utc_now());
        let mut rows = Vec::new();
        for (measure, found) in [(Measure::Tricks, &b.by_tricks), (Measure::Cards, &b.by_cards)] {
            let Some((deal, tricks, cards)) = found else { continue };
            let g = replayed(deal, *tricks, *cards, methods)?;
            say.line(&format!(
                "by {:<7} {deal}: {} tricks, {} cards",
                format!("{}:", measure.name()),
                g.tricks,
                g.cards
            ));
            rows.push(RecordRow {
                spec,
                methods,
                measure,
                tricks: g.tricks,
                cards: g.cards,
                deal: deal.clone(),
                found_by: FoundBy {
                    seed: Some(config.seed),
                    command: command.clone(),
                    commit: commit.clone(),
                    machine: machine.clone(),
                    date: date.clone(),
                },
            });
        }
        if rows.is_empty() {
            if b.stopped {
                say.line("stopped: no deal met before the stop (nothing is claimed)");
            } else if b.exhausted && !b.cut {
                say.line("no deal leads to the start (its whole tree searched)");
            } else {
                say.line("undecided: no deal met within the bounds (a wider beam or a larger budget searches further)");
            }
        } else if let Some(records) = &config.records {
            say.line(&appended(records, append_records(records, &rows)?, rows.len()));
        }
        if b.stopped && !rows.is_empty() {
            say.line(
                "stopped: the search was cut short; the deals above are the best found before",
            );
        }
        Ok(BeamEnd { rows, layers: b.layers, expanded: b.expanded, stopped: b.stopped })
    }
}

/// The command that finds the same deals again, for the records file.
fn replay_command(c: &BeamConfig) -> String {
    let methods = c.methods;
    let mut command = "bataille records beam".to_string();
    match &c.start {
        BeamStart::Terminal { spec, count } => {
            command += &format!(" -c {} -v {} --terminal {count}", spec.colours(), spec.values());
        }
        BeamStart::Position { position, late } => {
            command += &format!(" --from {}", position.compact());
            if let Some(t) = late {
                command += &format!(" --late {t}");
            }
        }
    }
    command += &format!(" --method {}", methods.first);
    if methods.second != methods.first {
        command += &format!(" --method2 {}", methods.second);
    }
    command += &format!(
        " --max-ties {} --width {} --budget {} --seed {}",
        c.max_ties, c.width, c.budget, c.seed
    );
    command
}
