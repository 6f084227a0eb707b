//! One game ([`play`]) and many in parallel ([`play_many_array`], [`play_many_list`]).

use std::sync::atomic::{AtomicBool, Ordering};

use bataille_engine::deal::{DealError, DeckOf, check_deal};
use bataille_engine::{
    Card, Game as Ring, GameResult, Limits, MAX_CARDS, MAX_VALUE, Method, Methods, Outcome,
    Position, Scratch, aligned, play as play_game, play_deterministic, play_random, play_traced,
};
use numpy::{PyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::stop::{interruptible, pool};

/// The outcome codes of `play_many`, in order: `OUTCOMES[code]` is `Game.outcome`'s word.
pub(crate) const OUTCOMES: [&str; 5] = ["first", "second", "draw", "loop", "capped"];

/// The result of one game: see `bataille.play`.
#[pyclass(frozen, module = "bataille", get_all)]
#[derive(Debug)]
pub(crate) struct Game {
    /// The deal, in the command line's notation.
    deal: String,
    /// The methods of the two players.
    method: String,
    method2: String,
    /// How the game comes out: one of [`OUTCOMES`].
    outcome: &'static str,
    /// Tricks and cards per player to the end, or to the first repeated position of a loop.
    tricks: u64,
    cards: u64,
    /// For a loop: the tricks and cards before it, one turn of it, and its canonical id.
    tail_tricks: Option<u64>,
    tail_cards: Option<u64>,
    period_tricks: Option<u64>,
    period_cards: Option<u64>,
    cycle_id: Option<String>,
    /// For a loop from equal hands: whether it is aligned, and the engine's words for it.
    aligned: Option<bool>,
    aligned_note: Option<String>,
    /// With `trace=True`: every position, the deal first, as pairs of hands.
    positions: Option<Vec<(Vec<u32>, Vec<u32>)>>,
}

#[pymethods]
impl Game {
    fn __repr__(&self) -> String {
        let mut s = format!(
            "Game(deal='{}', outcome='{}', tricks={}, cards={}",
            self.deal, self.outcome, self.tricks, self.cards
        );
        if let (Some(tail), Some(period), Some(id)) =
            (self.tail_tricks, self.period_tricks, &self.cycle_id)
        {
            s += &format!(", tail_tricks={tail}, period_tricks={period}, cycle_id='{id}'");
        }
        if let Some(a) = self.aligned {
            s += &format!(", aligned={}", if a { "True" } else { "False" });
        }
        if self.method != "natural" || self.method2 != "natural" {
            s += &format!(", method='{}', method2='{}'", self.method, self.method2);
        }
        s + ")"
    }
}

/// Reads a method's name, as the command line does.
pub(crate) fn method(name: &str) -> PyResult<Method> {
    name.parse().map_err(|e| PyValueError::new_err(format!("{e}")))
}

/// The methods of the two players: `method`, and `method2` when given.
pub(crate) fn methods(first: &str, second: Option<&str>) -> PyResult<Methods> {
    let first = method(first)?;
    Ok(Methods::new(first, second.map(method).transpose()?.unwrap_or(first)))
}

/// The limits of `methods` with the trick cap `max_tricks` when given.
pub(crate) fn limits(methods: Methods, max_tricks: Option<u64>) -> PyResult<Limits> {
    let mut limits = Limits::default_for(methods);
    match max_tricks {
        Some(0) => return Err(PyValueError::new_err("max_tricks must be at least 1, got 0")),
        Some(max) => limits.max_tricks = max,
        None => {}
    }
    Ok(limits)
}

fn deal_error(e: DealError) -> PyErr {
    PyValueError::new_err(message(e))
}

/// The words of a refused deal, with the package's names for the options.
fn message(e: DealError) -> String {
    match e {
        DealError::NotWhole(e) => {
            format!("the deal is not a whole deck (partial=True plays any cards): {e}")
        }
        DealError::NoColours => "colours must be at least 1, got 0".to_string(),
        DealError::Values(v) => format!("values must be 1 to {MAX_VALUE}, got {v}"),
        DealError::OtherDeck { spec, colours, values } => {
            let given = |n: Option<usize>| n.map_or("?".to_string(), |n| n.to_string());
            format!(
                "the deal is a {spec} deck, not the one given by colours/values (C={} V={})",
                given(colours),
                given(values)
            )
        }
        e => e.to_string(),
    }
}

/// A hand given as a Python sequence of cards.
fn hand(cards: &Bound<'_, PyAny>, which: &str) -> PyResult<Vec<Card>> {
    let cards: Vec<i64> = cards.extract().map_err(|_| {
        PyValueError::new_err(format!(
            "the {which} hand is not a sequence of cards (whole numbers from 1 to {MAX_VALUE})"
        ))
    })?;
    cards
        .iter()
        .map(|&c| {
            Card::try_from(c).ok().filter(|&c| c >= 1).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{c} in the {which} hand is not a card: cards are whole numbers from 1 to \
                     {MAX_VALUE}"
                ))
            })
        })
        .collect()
}

/// A deal given as the command line's text or as a pair of sequences of cards.
pub(crate) fn deal(deal: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(text) = deal.extract::<String>() {
        return Position::parse(&text)
            .map_err(|error| deal_error(DealError::Unreadable { text, error }));
    }
    let pair: Vec<Bound<'_, PyAny>> = deal.extract().unwrap_or_default();
    let [first, second] = &pair[..] else {
        return Err(PyValueError::new_err(
            "a deal is a string such as '[5, 3] / [2, 4, 1]' or a pair of hands such as \
             ([5, 3], [2, 4, 1])",
        ));
    };
    Position::new(hand(first, "first")?, hand(second, "second")?)
        .map_err(|e| PyValueError::new_err(format!("cannot read the deal: {e}")))
}

/// Plays one game: see `bataille.play`.
#[pyfunction]
#[pyo3(signature = (deal, method="natural", method2=None, *, seed=0, trace=false, colours=None,
    values=None, partial=false, max_tricks=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn play(
    py: Python<'_>,
    deal: &Bound<'_, PyAny>,
    method: &str,
    method2: Option<&str>,
    seed: u64,
    trace: bool,
    colours: Option<usize>,
    values: Option<usize>,
    partial: bool,
    max_tricks: Option<u64>,
) -> PyResult<Game> {
    let methods = methods(method, method2)?;
    let limits = limits(methods, max_tricks)?;
    let (deal, _) =
        check_deal(self::deal(deal)?, &DeckOf { colours, values, partial }).map_err(deal_error)?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let stop = AtomicBool::new(false);
    let run = || {
        if !trace {
            return (play_game(&deal, methods, &mut rng, limits), None);
        }
        let mut positions = Vec::new();
        let result = play_traced(&deal, methods, &mut rng, limits, |g: &Ring| {
            if !stop.load(Ordering::Relaxed) {
                let p = g.to_position();
                let hand = |h: &[Card]| h.iter().map(|&c| u32::from(c)).collect();
                positions.push((hand(p.first()), hand(p.second())));
            }
        });
        (result, Some(positions))
    };
    // A deterministic game ends within milliseconds (Brent's detection), and a random one
    // under the default cap within a second: played on this thread, with the interpreter
    // released, they cost no thread. Past that cap, a game runs beside the interpreter, which
    // keeps watching for Ctrl-C.
    let quick = methods.is_deterministic() || limits.max_tricks <= Limits::RANDOM.max_tricks;
    let (result, positions) = if quick {
        py.detach(run)
    } else {
        interruptible(py, &stop, "play stopped before the end of the game", run)?
    };
    Ok(game(&deal, methods, &result, positions))
}

fn game(
    deal: &Position,
    methods: Methods,
    result: &GameResult,
    positions: Option<Vec<(Vec<u32>, Vec<u32>)>>,
) -> Game {
    let cycle = match result.outcome {
        Outcome::Cycle(c) => Some(c),
        _ => None,
    };
    let checked = (cycle.is_some() && deal.first().len() == deal.second().len())
        .then(|| aligned::check(deal, methods));
    Game {
        deal: deal.to_string(),
        method: methods.first.to_string(),
        method2: methods.second.to_string(),
        outcome: OUTCOMES[usize::from(code(&result.outcome))],
        tricks: result.tricks,
        cards: result.cards,
        tail_tricks: cycle.map(|c| c.tail_tricks),
        tail_cards: cycle.map(|c| c.tail_cards),
        period_tricks: cycle.map(|c| c.period_tricks),
        period_cards: cycle.map(|c| c.period_cards),
        cycle_id: cycle.map(|c| c.id.to_string()),
        aligned: checked.as_ref().map(Result::is_ok),
        aligned_note: checked.map(|a| match a {
            Ok(a) => a.summary(),
            Err(why) => why.to_string(),
        }),
        positions,
    }
}

/// The code of an outcome in `play_many`'s arrays.
fn code(outcome: &Outcome) -> u8 {
    match outcome {
        Outcome::FirstWins => 0,
        Outcome::SecondWins => 1,
        Outcome::Draw => 2,
        Outcome::Cycle(_) => 3,
        Outcome::Capped => 4,
    }
}

/// One game of `play_many`: its outcome code, tricks, cards, tail, period and cycle id (0
/// without a loop).
type Row = (u8, u64, u64, u64, u64, u64);

/// Deals per unit of `play_many`'s work: each unit is played by one worker, with its own game
/// and scratch.
const UNIT: usize = 1024;

/// The deals of a `play_many` call: the hands of deal `i`, and whether deal `i` is the deck
/// (`Err` with the refusal when it is not).
trait Deals: Sync {
    fn len(&self) -> usize;
    fn hands(&self, i: usize) -> (&[Card], &[Card]);
    fn check(&self, i: usize) -> Result<(), String>;
}

/// Deals given as a list, each read and checked before any is played.
struct Listed(Vec<Position>);

impl Deals for Listed {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn hands(&self, i: usize) -> (&[Card], &[Card]) {
        (self.0[i].first(), self.0[i].second())
    }

    fn check(&self, _: usize) -> Result<(), String> {
        Ok(())
    }
}

/// Deals given as the rows of an array, checked as they are played: a row with the cards of
/// the first row is the deck if the first row is; any other is checked on its own.
struct Rows {
    cards: Vec<Card>,
    width: usize,
    deck: DeckOf,
    /// How many times each card appears in the first row, and whether that row is the deck.
    first: [u16; 256],
    first_ok: Result<(), String>,
}

impl Rows {
    fn new(cards: Vec<Card>, width: usize, deck: DeckOf) -> Rows {
        let mut rows = Rows { cards, width, deck, first: [0; 256], first_ok: Ok(()) };
        if rows.len() > 0 {
            rows.first = count(rows.row(0));
            rows.first_ok = rows.check_alone(0);
        }
        rows
    }

    fn row(&self, i: usize) -> &[Card] {
        &self.cards[i * self.width..(i + 1) * self.width]
    }

    fn check_alone(&self, i: usize) -> Result<(), String> {
        let (first, second) = self.hands(i);
        let deal = Position::new(first.to_vec(), second.to_vec()).map_err(|e| e.to_string())?;
        check_deal(deal, &self.deck).map(|_| ()).map_err(message)
    }
}

/// How many times each card appears in `cards`.
fn count(cards: &[Card]) -> [u16; 256] {
    let mut counts = [0u16; 256];
    for &c in cards {
        counts[usize::from(c)] += 1;
    }
    counts
}

impl Deals for Rows {
    fn len(&self) -> usize {
        self.cards.len().checked_div(self.width).unwrap_or(0)
    }

    fn hands(&self, i: usize) -> (&[Card], &[Card]) {
        self.row(i).split_at(self.width / 2)
    }

    fn check(&self, i: usize) -> Result<(), String> {
        if count(self.row(i)) == self.first { self.first_ok.clone() } else { self.check_alone(i) }
    }
}

/// Plays `deals` on `threads` threads; deal `i` with a random method is played with the seed
/// `seed + i` (wrapping), as `play(deal, seed=seed + i)` would. A deal that is not the deck is
/// refused, the first one named, before its results are handed back.
fn play_all(
    py: Python<'_>,
    deals: &impl Deals,
    methods: Methods,
    limits: Limits,
    seed: u64,
    threads: usize,
) -> PyResult<Vec<Row>> {
    let pool = pool(threads)?;
    let stop = AtomicBool::new(false);
    let units: Vec<u64> = (0..deals.len().div_ceil(UNIT) as u64).collect();
    let kept = "play_many stopped before the end: the games played are dropped";
    let played = interruptible(py, &stop, kept, || {
        pool.map_prefix(&units, |u| {
            let start = u as usize * UNIT;
            let end = (start + UNIT).min(deals.len());
            let mut ring = Ring::default();
            let mut scratch = Scratch::default();
            let mut rows = Vec::with_capacity(end - start);
            for i in start..end {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                if let Err(why) = deals.check(i) {
                    return Some(Err(format!("deal {i}: {why}")));
                }
                let (first, second) = deals.hands(i);
                ring.set(first, second);
                let r = if methods.is_deterministic() {
                    play_deterministic(&ring, methods, limits, &mut scratch)
                } else {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed.wrapping_add(i as u64));
                    play_random(&ring, methods, &mut rng, limits)
                };
                let (tail, period, id) = match r.outcome {
                    Outcome::Cycle(c) => (c.tail_tricks, c.period_tricks, c.id.0),
                    _ => (0, 0, 0),
                };
                rows.push((code(&r.outcome), r.tricks, r.cards, tail, period, id));
            }
            Some(Ok(rows))
        })
    })?;
    let mut all = Vec::with_capacity(deals.len());
    for rows in played {
        all.extend(rows.map_err(PyValueError::new_err)?);
    }
    Ok(all)
}

/// The arrays of `play_many`, one per column of `rows`.
fn arrays<'py>(py: Python<'py>, rows: Vec<Row>) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("outcome", PyArray1::from_iter(py, rows.iter().map(|r| r.0)))?;
    out.set_item("tricks", PyArray1::from_iter(py, rows.iter().map(|r| r.1)))?;
    out.set_item("cards", PyArray1::from_iter(py, rows.iter().map(|r| r.2)))?;
    out.set_item("tail_tricks", PyArray1::from_iter(py, rows.iter().map(|r| r.3)))?;
    out.set_item("period_tricks", PyArray1::from_iter(py, rows.iter().map(|r| r.4)))?;
    out.set_item("cycle_id", PyArray1::from_iter(py, rows.iter().map(|r| r.5)))?;
    Ok(out)
}

/// `play_many` on a 2-D array of cards, one deal per row (the first hand is the first half,
/// rounded down): see `bataille.play_many`.
#[pyfunction]
#[pyo3(signature = (deals, method="natural", method2=None, *, seed=0, threads=0,
    max_tricks=None, colours=None, values=None, partial=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_many_array<'py>(
    py: Python<'py>,
    deals: PyReadonlyArray2<'py, u8>,
    method: &str,
    method2: Option<&str>,
    seed: u64,
    threads: usize,
    max_tricks: Option<u64>,
    colours: Option<usize>,
    values: Option<usize>,
    partial: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let methods = methods(method, method2)?;
    let limits = limits(methods, max_tricks)?;
    let view = deals.as_array();
    let width = view.ncols();
    if width > MAX_CARDS {
        return Err(PyValueError::new_err(format!(
            "deals of {width} cards: the engine plays at most {MAX_CARDS}"
        )));
    }
    if width == 0 && view.nrows() > 0 {
        return Err(PyValueError::new_err(
            "deals of 0 cards: both hands are empty, there is no game to play",
        ));
    }
    // A copy, row by row: the games are played with the interpreter released, when Python
    // code could change the array.
    let cards: Vec<Card> = view.iter().copied().collect();
    let deals = Rows::new(cards, width, DeckOf { colours, values, partial });
    let rows = play_all(py, &deals, methods, limits, seed, threads)?;
    arrays(py, rows)
}

/// `play_many` on a sequence of deals, each a string or a pair of hands: see
/// `bataille.play_many`.
#[pyfunction]
#[pyo3(signature = (deals, method="natural", method2=None, *, seed=0, threads=0,
    max_tricks=None, colours=None, values=None, partial=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn play_many_list<'py>(
    py: Python<'py>,
    deals: Vec<Bound<'py, PyAny>>,
    method: &str,
    method2: Option<&str>,
    seed: u64,
    threads: usize,
    max_tricks: Option<u64>,
    colours: Option<usize>,
    values: Option<usize>,
    partial: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let methods = methods(method, method2)?;
    let limits = limits(methods, max_tricks)?;
    let deck = DeckOf { colours, values, partial };
    let all = deals
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let refused = |why: String| PyValueError::new_err(format!("deal {i}: {why}"));
            let d = self::deal(d).map_err(|e| refused(e.value(py).to_string()))?;
            check_deal(d, &deck).map(|(d, _)| d).map_err(|e| refused(message(e)))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let rows = play_all(py, &Listed(all), methods, limits, seed, threads)?;
    arrays(py, rows)
}
