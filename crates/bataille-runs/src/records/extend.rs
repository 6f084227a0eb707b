//! A finished game made longer by playing backwards (`bataille_engine::backward`): the deals
//! from which its start (or, for the whole game, any of its positions) is reached, farthest
//! first, each replayed and appended to the records file. In the steps a front end takes: the
//! start and the records file checked ([`Extend::prepare`]), the search backwards
//! ([`Extend::search`]), then the report and the rows appended ([`Extended::finish`]).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use bataille_engine::backward::{self, Extension, GameExtension};
use bataille_engine::position::quoted;
use bataille_engine::{DeckSpec, GameResult, Methods, Position};
use bataille_records::row::{FoundBy, RecordRow};
use bataille_search::stats::Measure;

use crate::error::{Context, Result};
use crate::files::Words;
use crate::progress::Steps;
use crate::provenance::{commit, machine, utc_now};
use crate::records::{append_records, appended, check_records_file, finished_game, replayed};
use crate::say::Say;

/// A search backwards as the caller asked for it.
#[derive(Debug, Clone)]
pub struct ExtendConfig {
    /// The start: a deal, or any position of a whole deck whose game ends.
    pub start: Position,
    /// The methods, deterministic.
    pub methods: Methods,
    /// Most ties in one trick played backwards.
    pub max_ties: usize,
    /// Most positions searched (from each position of the game, for the whole game).
    pub budget: u64,
    /// `Some(n)`: search backwards from the start and every n-th position of its game (n ≥ 1),
    /// not only from the start.
    pub every: Option<u64>,
    /// The records file the deals found are appended to, if any.
    pub records: Option<PathBuf>,
    /// The names of these options in refusals.
    pub words: Words,
}

/// A search backwards checked: the start's game, which ends.
#[derive(Debug)]
pub struct Extend {
    config: ExtendConfig,
    spec: DeckSpec,
    /// The start's own game.
    game: GameResult,
}

/// A search backwards done or stopped, not yet reported.
#[derive(Debug)]
pub struct Extended {
    run: Extend,
    found: Found,
    started: Instant,
}

/// What the search backwards found, from the start or from the whole game.
#[derive(Debug)]
enum Found {
    Start(Extension),
    Game(GameExtension),
}

/// How a search backwards ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtendEnd {
    /// The longer games found, by tricks and by cards (as appended to the records file).
    pub rows: Vec<RecordRow>,
    /// Whether a stop request cut the search short.
    pub stopped: bool,
}

impl Extend {
    /// Checks the budget's memory and the records file, plays the start's game, which must
    /// end, and says what it extends: the start and its game.
    pub fn prepare(config: ExtendConfig, say: &dyn Say) -> Result<Extend> {
        let start = &config.start;
        let spec = start
            .infer_deck()
            .with_context(|| format!("{} is not a whole deck", quoted(&start.to_string())))?;
        crate::cycles::check_walk_memory(config.budget, start.cards(), &config.words)?;
        if let Some(records) = &config.records {
            check_records_file(records)?;
        }
        let methods = config.methods;
        let game =
            finished_game(start, spec, methods, "only a finished game can be extended", say)?;
        Ok(Extend { config, spec, game })
    }

    /// The steps the search counts for its progress: the positions of the game it searches
    /// from (the whole game), or the positions of its budget.
    pub fn steps(&self) -> u64 {
        match self.config.every {
            Some(every) => self.game.tricks / every + 1,
            None => self.config.budget,
        }
    }

    /// Searches backwards, telling `progress` how far it is; `stop` ends the search within
    /// milliseconds, the best deals found before kept.
    pub fn search(self, stop: &AtomicBool, progress: &mut dyn FnMut(Steps<'_>)) -> Extended {
        let started = Instant::now();
        let c = &self.config;
        let total = self.steps();
        let found = match c.every {
            Some(every) => Found::Game(backward::extend_game(
                &c.start,
                c.methods,
                c.max_ties,
                c.budget,
                every,
                stop,
                &mut |done| {
                    progress(Steps { done, from: 0, total, what: "searched backwards" });
                },
            )),
            None => Found::Start(backward::extend_watched(
                &c.start,
                c.methods,
                c.max_ties,
                c.budget,
                stop,
                &mut |seen| {
                    let what = format!("{seen} positions before it");
                    progress(Steps { done: seen, from: 0, total, what: &what });
                },
            )),
        };
        Extended { run: self, found, started }
    }
}

impl Extended {
    /// Says what was searched and the longer games found (each replayed first: it must play
    /// the game announced), appends them to the records file, or says why none was found.
    pub fn finish(self, say: &dyn Say) -> Result<ExtendEnd> {
        let Extended { run, found, started } = self;
        let Extend { config, spec, game: r } = run;
        let (start, methods) = (&config.start, config.methods);
        let ties = format!("tricks of at most {} ties", config.max_ties);
        // The longest deal found by each measure: (deal, tricks, cards) of its whole game.
        let (found, complete, ties_cut, stopped) = match found {
            Found::Game(e) => {
                let searched = match (e.stopped, e.complete, e.ties_cut) {
                    (true, ..) => {
                        "STOPPED by the request, the rest of the game not searched".to_string()
                    }
                    (_, true, false) => "each whole tree".to_string(),
                    (_, true, true) => {
                        format!("each whole tree of {ties} (longer tricks left out)")
                    }
                    (_, false, _) => {
                        format!("some stopped at the budget of {} positions", config.budget)
                    }
                };
                say.line(&format!(
                    "searched:  {} positions of the game (every {} tricks), {} positions before \
                     them, {searched} in {:.2} s",
                    e.positions,
                    config.every.unwrap_or(1),
                    e.visited,
                    started.elapsed().as_secs_f64()
                ));
                ([e.by_tricks, e.by_cards], e.complete, e.ties_cut, e.stopped)
            }
            Found::Start(e) => {
                let searched = match (e.stopped, e.complete, e.ties_cut) {
                    (true, ..) => "STOPPED by the request".to_string(),
                    (_, true, false) => "the whole tree".to_string(),
                    (_, true, true) => format!("the whole tree of {ties} (longer tricks left out)"),
                    (_, false, _) => {
                        format!("stopped at the budget of {} positions", config.budget)
                    }
                };
                say.line(&format!(
                    "searched:  {} positions before it ({} deals), {searched} in {:.2} s",
                    e.visited,
                    e.deals,
                    started.elapsed().as_secs_f64()
                ));
                let whole = |f: Option<(Position, u64, u64)>| {
                    f.map(|(d, t, c)| (d, r.tricks + t, r.cards + c))
                };
                ([whole(e.by_tricks), whole(e.by_cards)], e.complete, e.ties_cut, e.stopped)
            }
        };
        let mut rows = Vec::new();
        let command = replay_command(&config);
        let (commit, machine, date) = (commit(), machine(), utc_now());
        for (measure, found) in [(Measure::Tricks, &found[0]), (Measure::Cards, &found[1])] {
            let Some((deal, tricks, cards)) = found else { continue };
            let g = replayed(deal, *tricks, *cards, methods)?;
            // From a deal, a deal whose game is longer; from any other position (a long game of
            // a position hunt, say), the longest deal found: the start's own game is no deal's.
            let longer = match measure {
                _ if !start.is_deal() => true,
                Measure::Tricks => (g.tricks, g.cards) > (r.tricks, r.cards),
                Measure::Cards => (g.cards, g.tricks) > (r.cards, r.tricks),
            };
            if !longer {
                continue;
            }
            let signed = |a: u64, b: u64| format!("{:+}", a as i128 - b as i128);
            let against = if start.is_deal() {
                format!("{} tricks, {} cards", signed(g.tricks, r.tricks), signed(g.cards, r.cards))
            } else {
                "the longest deal found".to_string()
            };
            say.line(&format!(
                "by {:<7} {deal}: {} tricks, {} cards ({against})",
                format!("{}:", measure.name()),
                g.tricks,
                g.cards,
            ));
            rows.push(RecordRow {
                spec,
                methods,
                measure,
                tricks: g.tricks,
                cards: g.cards,
                deal: deal.clone(),
                found_by: FoundBy {
                    seed: None,
                    command: command.clone(),
                    commit: commit.clone(),
                    machine: machine.clone(),
                    date: date.clone(),
                },
            });
        }
        if rows.is_empty() && stopped {
            say.line("stopped: no longer game found before the stop (nothing is claimed)");
        } else if rows.is_empty() {
            let what = match (config.every.is_some(), start.is_deal()) {
                (true, true) => "no deal leads to a longer game through a position of this one",
                (true, false) => "no deal leads to a position of this game",
                (false, _) => "no deal leads to this position",
            };
            let budget = config.words.budget;
            match (complete, ties_cut) {
                (true, false) => say.line(what),
                (true, true) => say.line(&format!("{what} through {ties}")),
                (false, _) if !start.is_deal() => say.line(&format!(
                    "undecided: no deal found within the budget (a larger {budget} searches \
                     further)"
                )),
                (false, _) => say.line(&format!(
                    "undecided: no longer game found within the budget (a larger {budget} \
                     searches further)"
                )),
            }
        } else if let Some(records) = &config.records {
            say.line(&appended(records, append_records(records, &rows)?, rows.len()));
        }
        if stopped {
            say.line(
                "stopped: the search was cut short; the deals above are the best found before",
            );
        }
        Ok(ExtendEnd { rows, stopped })
    }
}

/// The command that finds the same deals again, for the records file.
fn replay_command(c: &ExtendConfig) -> String {
    let methods = c.methods;
    let mut command =
        format!("bataille records extend {} --method {}", c.start.compact(), methods.first);
    if methods.second != methods.first {
        command += &format!(" --method2 {}", methods.second);
    }
    command += &format!(" --max-ties {} --budget {}", c.max_ties, c.budget);
    if let Some(every) = c.every {
        command += &format!(" --whole-game --every {every}");
    }
    command
}
