//! The state of a run (its key, the completed units and the aggregates) and its text form,
//! used both for checkpoints and for the `state.txt` that `merge` reads.
//!
//! The text form is line-oriented and versioned, and ends with a checksum line (64-bit FNV-1a of
//! every byte before it), so a truncated or edited file is refused rather than silently
//! resumed. It holds no time, host or thread count: two runs that did the same work write the
//! same bytes.
//!
//! ```text
//! bataille-search state 1
//! game bataille C=2 V=2 natural
//! mode exhaustive
//! seed 0
//! unit-size 4
//! units 2
//! top 10
//! loop-deals <cap>
//! max-cycles <cap>
//! stride 1
//! done 0 0-2
//! counts <deals> <first> <second> <draws> <looping deals> <capped>
//! moments tricks <n> <sum> <sum of squares>
//! moments cards <n> <sum> <sum of squares>
//! histogram tricks <value>:<count> ...
//! histogram cards <value>:<count> ...
//! record tricks <tricks> <cards> <finish> <deal>
//! record cards <tricks> <cards> <finish> <deal>
//! cycles-dropped
//! shortest-tail <tail tricks> <loop id> <deal>
//! loop <id> <period tricks> <period cards> <deals> <example deal> <shortest tail> <its deal>
//! truncated
//! kept <tail tricks> <deal>
//! checksum <16 hex digits>
//! ```
//!
//! Deals are written as comma-separated card values, both hands end to end. The `loop-deals`,
//! `truncated` and `kept` lines appear only in hunts (runs that keep looping deals, see
//! [`crate::stats`]): `loop-deals` gives the per-loop cap, and each `loop` line is followed by
//! `truncated` when its list hit the cap, then by one `kept` line per deal kept, in increasing
//! deal order. The `max-cycles`, `cycles-dropped` and `shortest-tail` lines appear only in runs
//! that cap the number of distinct loops kept: `cycles-dropped` when some loop was dropped,
//! `shortest-tail` (the shortest over every looping deal, which the kept loops may not hold)
//! when a deal looped. A plain exploration writes exactly the lines it wrote before hunts
//! existed.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::game::DealGame;
use crate::plan::{Mode, RunKey, Shard, UnitSet};
use crate::stats::{Finish, Histogram, LoopStats, Measure, Moments, Record, Stats, cycle_rank};

const MAGIC: &str = "bataille-search state 1";

/// A run's progress: what it is, which units are done, and their aggregates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// What the run is.
    pub key: RunKey,
    /// The units done.
    pub done: UnitSet,
    /// The aggregates of those units.
    pub stats: Stats,
}

/// Why a saved state was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// Not a state file, or of another format version.
    #[error("not a bataille-search state file (expected the first line {MAGIC:?})")]
    Magic,
    /// The checksum line is missing or does not match the content.
    #[error("the state file is corrupt: its checksum does not match its content")]
    Checksum,
    /// A line could not be read.
    #[error("the state file is corrupt at line {line}: {what}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        what: String,
    },
    /// Lines that read well but do not agree with one another.
    #[error("the state file is corrupt: {0}")]
    Inconsistent(String),
    /// The state belongs to another run.
    #[error("the saved state is for another run: {0}")]
    Mismatch(String),
    /// Parts that cannot be merged.
    #[error("cannot merge: {0}")]
    Merge(String),
}

/// Whether a run is a hunt: a hunt keeps looping deals, an explore run none.
fn is_hunt(key: &RunKey) -> bool {
    key.loop_deals != 0
}

/// The first field in which two run keys differ: (what, first value, second value).
fn key_difference(a: &RunKey, b: &RunKey) -> Option<(&'static str, String, String)> {
    fn cap(max: usize) -> String {
        if max == 0 { "all".to_string() } else { max.to_string() }
    }
    let fields = [
        ("game", a.game.clone(), b.game.clone()),
        ("mode", a.mode.to_string(), b.mode.to_string()),
        ("seed", a.seed.to_string(), b.seed.to_string()),
        ("unit size", a.unit_size.to_string(), b.unit_size.to_string()),
        ("units", a.units.to_string(), b.units.to_string()),
        ("top", a.top.to_string(), b.top.to_string()),
        ("loop deals kept", a.loop_deals.to_string(), b.loop_deals.to_string()),
        ("cycles kept (--max-cycles)", cap(a.max_cycles), cap(b.max_cycles)),
    ];
    let found = fields.into_iter().find(|(_, x, y)| x != y);
    debug_assert_eq!(found.is_some(), a != b, "every field of the key is compared");
    found
}

fn deal_str(deal: &[u8]) -> String {
    let mut s = String::with_capacity(deal.len() * 3);
    for (i, c) in deal.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{c}");
    }
    s
}

impl State {
    /// A fresh state for `shard` of the run `key`.
    pub fn new(key: RunKey, shard: Shard) -> State {
        let stats = key.empty_stats();
        State { key, done: UnitSet::empty(shard), stats }
    }

    /// Whether every unit of the whole run is done.
    pub fn is_complete(&self) -> bool {
        self.done.len() == self.key.units
    }

    /// Checks that every deal the state keeps (longest games, loops' examples, kept and
    /// shortest-tail deals) is a deal of `game`: its deck's cards, followed by the first hand's
    /// length (1 to N − 1) when the game's deals carry one (a position hunt). A state read from
    /// a file is checked so before its deals are played or written.
    pub fn check_deals<G: DealGame>(&self, game: &G) -> Result<(), StateError> {
        let mut deck = game.deck().to_vec();
        deck.sort_unstable();
        let n = deck.len();
        let len = game.deal(&game.worker()).len();
        let fits = |d: &[u8]| {
            let mut cards = d.get(..n).unwrap_or(&[]).to_vec();
            cards.sort_unstable();
            d.len() == len && cards == deck && (len == n || (1..n).contains(&usize::from(d[n])))
        };
        let st = &self.stats;
        let records = st.longest_by_tricks.entries().iter().chain(st.longest_by_cards.entries());
        let loops = st.loops.values().flat_map(|l| {
            [l.example.as_slice(), l.shortest_tail_deal.as_slice()]
                .into_iter()
                .chain(l.kept.keys().map(Vec::as_slice))
        });
        let ok = records.map(|r| r.deal.as_slice()).chain(loops).all(fits)
            && st.shortest_tail().is_none_or(|(_, d, _)| fits(d));
        if ok {
            Ok(())
        } else {
            Err(inconsistent(&format!("a deal it keeps is not one of {}", self.key.game)))
        }
    }

    /// Checks that this saved state can be resumed as `shard` of the run `key`.
    pub fn check_resumable(&self, key: &RunKey, shard: Shard) -> Result<(), StateError> {
        // A hunt keeps looping deals and an explore run none: a checkpoint of the one given to
        // the other is named for what it is.
        if is_hunt(&self.key) != is_hunt(key) {
            let (saved, asked) = if !is_hunt(&self.key) {
                ("an explore", "a hunt (hunt, cycles hunt)")
            } else {
                ("a hunt", "an explore")
            };
            return Err(StateError::Mismatch(format!(
                "this is {saved} checkpoint, and this command is {asked}: resume it with the \
                 command that wrote it"
            )));
        }
        if let Some((name, saved, asked)) = key_difference(&self.key, key) {
            return Err(StateError::Mismatch(format!(
                "{name} is {saved:?} in the checkpoint but {asked:?} on the command line"
            )));
        }
        match self.done.shard() {
            Some(s) if s == shard => Ok(()),
            Some(s) => {
                Err(StateError::Mismatch(format!("the checkpoint is of shard {s}, not {shard}")))
            }
            None => Err(StateError::Mismatch("the checkpoint is a merge of shards".to_string())),
        }
    }

    /// Combines the states of disjoint parts (shards) of one run. When they cover the whole
    /// run the result equals the state of an unsharded run.
    pub fn merge(parts: &[State]) -> Result<State, StateError> {
        let Some((first, rest)) = parts.split_first() else {
            return Err(StateError::Merge("no part given".to_string()));
        };
        let mut out = first.clone();
        for p in rest {
            // (Named for what they are, not by the cap that differs.)
            if is_hunt(&first.key) != is_hunt(&p.key) {
                return Err(StateError::Merge(
                    "the parts are of different runs: one is an explore run, another a hunt"
                        .to_string(),
                ));
            }
            if let Some((name, a, b)) = key_difference(&first.key, &p.key) {
                return Err(StateError::Merge(format!(
                    "the parts are of different runs: {name} is {a:?} in one and {b:?} in another"
                )));
            }
            out.done = out.done.union(&p.done).map_err(StateError::Merge)?;
            out.stats.merge(&p.stats);
        }
        out.done.normalize(out.key.units);
        Ok(out)
    }

    /// The text form (see the module docs).
    pub fn encode(&self) -> String {
        let mut s = String::new();
        let k = &self.key;
        let st = &self.stats;
        let _ = writeln!(s, "{MAGIC}");
        let _ = writeln!(s, "game {}", k.game);
        let _ = writeln!(s, "mode {}", k.mode);
        let _ = writeln!(s, "seed {}", k.seed);
        let _ = writeln!(s, "unit-size {}", k.unit_size);
        let _ = writeln!(s, "units {}", k.units);
        let _ = writeln!(s, "top {}", k.top);
        if k.loop_deals > 0 {
            let _ = writeln!(s, "loop-deals {}", k.loop_deals);
        }
        if k.max_cycles > 0 {
            let _ = writeln!(s, "max-cycles {}", k.max_cycles);
        }
        let _ = writeln!(s, "stride {}", self.done.stride());
        for (class, iv) in self.done.classes() {
            let _ = write!(s, "done {class}");
            for (a, b) in iv {
                let _ = write!(s, " {a}-{b}");
            }
            s.push('\n');
        }
        let _ = writeln!(
            s,
            "counts {} {} {} {} {} {}",
            st.deals, st.first_wins, st.second_wins, st.draws, st.looping_deals, st.capped
        );
        for (name, m) in [("tricks", &st.tricks), ("cards", &st.cards)] {
            let _ = writeln!(s, "moments {name} {} {} {}", m.n, m.sum, m.sum_sq);
        }
        for (name, h) in [("tricks", &st.tricks_histogram), ("cards", &st.cards_histogram)] {
            let _ = write!(s, "histogram {name}");
            for (v, n) in h.iter() {
                let _ = write!(s, " {v}:{n}");
            }
            s.push('\n');
        }
        for list in [&st.longest_by_tricks, &st.longest_by_cards] {
            for r in list.entries() {
                let _ = writeln!(
                    s,
                    "record {} {} {} {} {}",
                    list.measure().name(),
                    r.tricks,
                    r.cards,
                    r.finish.name(),
                    deal_str(&r.deal)
                );
            }
        }
        if k.max_cycles > 0 {
            if st.cycles_dropped {
                let _ = writeln!(s, "cycles-dropped");
            }
            if let Some((tail, deal, id)) = st.shortest_tail() {
                let _ = writeln!(s, "shortest-tail {tail} {id:016x} {}", deal_str(deal));
            }
        }
        for (id, l) in &st.loops {
            let _ = writeln!(
                s,
                "loop {id:016x} {} {} {} {} {} {}",
                l.period_tricks,
                l.period_cards,
                l.deals,
                deal_str(&l.example),
                l.shortest_tail,
                deal_str(&l.shortest_tail_deal)
            );
            if l.truncated {
                let _ = writeln!(s, "truncated");
            }
            for (deal, tail) in &l.kept {
                let _ = writeln!(s, "kept {tail} {}", deal_str(deal));
            }
        }
        crate::sealed::seal(&s)
    }

    /// Reads the text form, checking the version and the checksum.
    pub fn decode(text: &str) -> Result<State, StateError> {
        let body = crate::sealed::open(text, MAGIC).map_err(|e| match e {
            crate::sealed::SealError::Format { .. } => StateError::Magic,
            crate::sealed::SealError::Checksum => StateError::Checksum,
        })?;
        Parser::new(&body).parse()
    }
}

struct Parser<'a> {
    lines: std::iter::Peekable<std::iter::Enumerate<std::str::Lines<'a>>>,
}

type Fields<'a> = (usize, Vec<&'a str>);

impl<'a> Parser<'a> {
    fn new(body: &'a str) -> Parser<'a> {
        let mut lines = body.lines().enumerate().peekable();
        lines.next(); // the magic line, already checked
        Parser { lines }
    }

    fn err(line: usize, what: impl Into<String>) -> StateError {
        StateError::Syntax { line: line + 1, what: what.into() }
    }

    /// The next line, which must start with `tag`; its other fields.
    fn line(&mut self, tag: &str) -> Result<Fields<'a>, StateError> {
        match self.lines.next() {
            Some((i, l)) => {
                let mut f: Vec<&str> = l.split(' ').collect();
                if f[0] != tag {
                    return Err(Parser::err(i, format!("expected {tag:?}, found {:?}", f[0])));
                }
                f.remove(0);
                Ok((i, f))
            }
            None => Err(Parser::err(usize::MAX - 1, format!("missing {tag:?} line"))),
        }
    }

    /// The next line if it starts with `tag`.
    fn optional(&mut self, tag: &str) -> Result<Option<Fields<'a>>, StateError> {
        match self.lines.peek() {
            Some((_, l)) if l.split(' ').next() == Some(tag) => self.line(tag).map(Some),
            _ => Ok(None),
        }
    }

    /// The next line if it starts with `prefix` (a tag and more).
    fn optional_prefix(&mut self, prefix: &str) -> Result<Option<Fields<'a>>, StateError> {
        match self.lines.peek() {
            Some((_, l)) if l.starts_with(prefix) => {
                let tag = prefix.split(' ').next().unwrap_or("");
                self.line(tag).map(Some)
            }
            _ => Ok(None),
        }
    }

    fn parse(mut self) -> Result<State, StateError> {
        let (i, game) = self.line("game")?;
        let game = game.join(" ");
        if game.is_empty() {
            return Err(Parser::err(i, "empty game"));
        }
        let (i, f) = self.line("mode")?;
        let mode = match f[..] {
            ["exhaustive"] => Mode::Exhaustive,
            ["random", n] => Mode::Random { deals: num(i, n)? },
            _ => return Err(Parser::err(i, "bad mode")),
        };
        let seed = self.single("seed")?;
        let unit_size = self.single("unit-size")?;
        let units = self.single("units")?;
        let top = self.single("top")? as usize;
        let loop_deals = match self.optional("loop-deals")? {
            Some((i, f)) => match f[..] {
                [x] => num::<usize>(i, x)?,
                _ => return Err(Parser::err(i, "expected one number after \"loop-deals\"")),
            },
            None => 0,
        };
        let max_cycles = match self.optional("max-cycles")? {
            Some((i, f)) => match f[..] {
                [x] => match num::<usize>(i, x)? {
                    0 => return Err(Parser::err(i, "max-cycles 0")),
                    x => x,
                },
                _ => return Err(Parser::err(i, "expected one number after \"max-cycles\"")),
            },
            None => 0,
        };
        let stride_line = self.next_index();
        let stride = self.single("stride")?;
        if stride == 0 {
            return Err(Parser::err(stride_line, "stride 0"));
        }
        let mut classes = BTreeMap::new();
        while let Some((i, f)) = self.optional("done")? {
            let class = num(i, f.first().copied().unwrap_or(""))?;
            let mut iv = Vec::new();
            for r in &f[1..] {
                let (a, b) = r.split_once('-').ok_or_else(|| Parser::err(i, "bad interval"))?;
                let (a, b) = (num(i, a)?, num(i, b)?);
                if a >= b || iv.last().is_some_and(|&(_, e)| e >= a) {
                    return Err(Parser::err(i, "intervals out of order"));
                }
                iv.push((a, b));
            }
            if class >= stride || classes.insert(class, iv).is_some() {
                return Err(Parser::err(i, "bad class"));
            }
        }
        // Every unit done is one of the run's (unit = class + j · stride < units).
        let inside = classes.iter().all(|(&class, iv): (&u64, &Vec<(u64, u64)>)| {
            iv.last().is_none_or(|&(_, end)| {
                (end - 1)
                    .checked_mul(stride)
                    .and_then(|x| x.checked_add(class))
                    .is_some_and(|u| u < units)
            })
        });
        if !inside {
            return Err(inconsistent("a unit done is not one of the run's"));
        }
        let done = UnitSet::from_parts(stride, classes);
        if done.len() > units {
            return Err(inconsistent("more units done than the run has"));
        }
        let mut stats = Stats::with_loop_deals(top, loop_deals).keeping_cycles(max_cycles);
        let (i, f) = self.line("counts")?;
        let c: Vec<u64> = f.iter().map(|x| num(i, x)).collect::<Result<_, _>>()?;
        let [deals, first, second, draws, looping, capped] = c[..] else {
            return Err(Parser::err(i, "expected 6 counts"));
        };
        (stats.deals, stats.first_wins, stats.second_wins) = (deals, first, second);
        (stats.draws, stats.looping_deals, stats.capped) = (draws, looping, capped);
        stats.tricks = self.moments("tricks")?;
        stats.cards = self.moments("cards")?;
        stats.tricks_histogram = self.histogram("tricks")?;
        stats.cards_histogram = self.histogram("cards")?;
        check_counts(&stats, done.len().checked_mul(unit_size))?;
        for measure in [Measure::Tricks, Measure::Cards] {
            let mut records = Vec::new();
            let prefix = format!("record {} ", measure.name());
            while let Some((i, f)) = self.optional_prefix(&prefix)? {
                let [_, t, c, fin, deal] = f[..] else {
                    return Err(Parser::err(i, "expected 5 record fields"));
                };
                let finish = Finish::from_name(fin).ok_or_else(|| Parser::err(i, "bad finish"))?;
                records.push(Record {
                    tricks: num(i, t)?,
                    cards: num(i, c)?,
                    finish,
                    deal: cards(i, deal)?,
                });
            }
            if records.len() > top {
                return Err(inconsistent("more records than kept"));
            }
            stats.set_records(measure, records);
        }
        let mut shortest = None;
        if max_cycles > 0 {
            stats.cycles_dropped = self.optional("cycles-dropped")?.is_some();
            if let Some((i, f)) = self.optional("shortest-tail")? {
                let [tail, id, deal] = f[..] else {
                    return Err(Parser::err(i, "expected 3 shortest-tail fields"));
                };
                let id = u64::from_str_radix(id, 16).map_err(|_| Parser::err(i, "bad loop id"))?;
                shortest = Some((num(i, tail)?, cards(i, deal)?, id));
            }
            if shortest.is_some() != (stats.looping_deals > 0) {
                return Err(inconsistent("a shortest tail is given iff a deal loops"));
            }
        }
        while let Some((i, f)) = self.optional("loop")? {
            let [id, pt, pc, d, ex, tail, tail_deal] = f[..] else {
                return Err(Parser::err(i, "expected 7 loop fields"));
            };
            let id = u64::from_str_radix(id, 16).map_err(|_| Parser::err(i, "bad loop id"))?;
            let mut l = LoopStats {
                period_tricks: num(i, pt)?,
                period_cards: num(i, pc)?,
                deals: num(i, d)?,
                example: cards(i, ex)?,
                shortest_tail: num(i, tail)?,
                shortest_tail_deal: cards(i, tail_deal)?,
                kept: BTreeMap::new(),
                truncated: self.optional("truncated")?.is_some(),
            };
            while let Some((i, f)) = self.optional("kept")? {
                let [tail, deal] = f[..] else {
                    return Err(Parser::err(i, "expected 2 kept-deal fields"));
                };
                if l.kept.insert(cards(i, deal)?, num(i, tail)?).is_some() {
                    return Err(Parser::err(i, "a kept deal repeated"));
                }
            }
            if l.kept.len() > loop_deals || l.kept.len() as u64 > l.deals {
                return Err(Parser::err(i, "more kept deals than the loop has or the cap allows"));
            }
            if stats.loops.insert(id, l).is_some() {
                return Err(Parser::err(i, "a loop repeated"));
            }
        }
        if let Some((i, l)) = self.lines.next() {
            return Err(Parser::err(i, format!("unexpected line {l:?}")));
        }
        check_loops(&stats, shortest.as_ref())?;
        stats.set_ranks();
        stats.set_shortest_tail(shortest);
        let key = RunKey { game, mode, seed, unit_size, units, top, loop_deals, max_cycles };
        Ok(State { key, done, stats })
    }

    /// The index of the next line (for an error found after reading it).
    fn next_index(&mut self) -> usize {
        self.lines.peek().map_or(usize::MAX - 1, |(i, _)| *i)
    }

    fn single(&mut self, tag: &str) -> Result<u64, StateError> {
        let (i, f) = self.line(tag)?;
        match f[..] {
            [x] => num(i, x),
            _ => Err(Parser::err(i, format!("expected one number after {tag:?}"))),
        }
    }

    fn moments(&mut self, name: &str) -> Result<Moments, StateError> {
        let (i, f) = self.line("moments")?;
        match f[..] {
            [m, n, s, q] if m == name => {
                Ok(Moments { n: num(i, n)?, sum: num(i, s)?, sum_sq: num(i, q)? })
            }
            _ => Err(Parser::err(i, format!("expected the {name} moments"))),
        }
    }

    fn histogram(&mut self, name: &str) -> Result<Histogram, StateError> {
        let (i, f) = self.line("histogram")?;
        if f.first() != Some(&name) {
            return Err(Parser::err(i, format!("expected the {name} histogram")));
        }
        let mut h = Histogram::default();
        let mut last = None;
        for pair in &f[1..] {
            let (v, n) =
                pair.split_once(':').ok_or_else(|| Parser::err(i, "bad histogram pair"))?;
            let (v, n): (u64, u64) = (num(i, v)?, num(i, n)?);
            // As written: increasing values, each counted at least once.
            if n == 0 || last.is_some_and(|l| l >= v) {
                return Err(Parser::err(i, "histogram values out of order, repeated or counted 0"));
            }
            last = Some(v);
            h.add_n(v, n);
        }
        Ok(h)
    }
}

/// Checks that the loops read agree with the counts and the cap: every looping deal in its
/// loop unless the cap dropped loops, exactly `max_cycles` loops then, and a shortest tail
/// that is the least of the kept loops' or belongs to a dropped loop.
/// A state whose lines disagree with one another (no one line is to blame).
fn inconsistent(what: &str) -> StateError {
    StateError::Inconsistent(what.to_string())
}

/// The counts agree with one another: every deal finished (won or drawn), looped or was capped;
/// no more deals than the units done hold (`most`, when it fits in 64 bits); the moments and
/// histograms count exactly the finished games, and the moments are the histograms' sums.
fn check_counts(stats: &Stats, most: Option<u64>) -> Result<(), StateError> {
    let sum = |xs: &[u64]| xs.iter().try_fold(0u64, |s, &x| s.checked_add(x));
    let finished = sum(&[stats.first_wins, stats.second_wins, stats.draws]);
    let all = finished.and_then(|f| sum(&[f, stats.looping_deals, stats.capped]));
    let Some(finished) = finished.filter(|_| all == Some(stats.deals)) else {
        return Err(inconsistent("the outcomes do not add up to the deals counted"));
    };
    if most.is_some_and(|m| stats.deals > m) {
        return Err(inconsistent("more deals than the units done hold"));
    }
    for (name, m, h) in [
        ("tricks", &stats.tricks, &stats.tricks_histogram),
        ("cards", &stats.cards, &stats.cards_histogram),
    ] {
        let totals = h.iter().try_fold((0u64, 0u128, 0u128), |(n, s, q), (v, c)| {
            let (v, c) = (u128::from(v), u128::from(c));
            Some((n.checked_add(u64::try_from(c).ok()?)?, s.checked_add(v * c)?, {
                q.checked_add(v.checked_mul(v)?.checked_mul(c)?)?
            }))
        });
        if m.n != finished || totals != Some((m.n, m.sum, m.sum_sq)) {
            return Err(inconsistent(&format!(
                "the {name} moments and histogram do not count the finished games"
            )));
        }
    }
    Ok(())
}

fn check_loops(stats: &Stats, shortest: Option<&(u64, Vec<u8>, u64)>) -> Result<(), StateError> {
    let bad = |what: &str| Err(inconsistent(what));
    if stats.loops.values().any(|l| l.deals == 0) {
        return bad("a loop reached by no deal");
    }
    let total = stats.loops.values().try_fold(0u64, |sum, l| sum.checked_add(l.deals));
    let dropped = stats.cycles_dropped;
    match total {
        // A dropped loop had deals: they are counted but in no kept loop.
        Some(n)
            if (n == stats.looping_deals && !dropped) || (n < stats.looping_deals && dropped) => {}
        _ => return bad("the loops' deals do not add up to the looping deals counted"),
    }
    if stats.max_cycles == 0 {
        return Ok(());
    }
    if stats.loops.len() > stats.max_cycles || (dropped && stats.loops.len() < stats.max_cycles) {
        return bad("the number of loops does not fit max-cycles");
    }
    let least = stats
        .loops
        .iter()
        .map(|(&id, l)| (l.shortest_tail, l.shortest_tail_deal.as_slice(), id))
        .min_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    let Some((tail, deal, id)) = shortest.map(|(t, d, id)| (*t, d.as_slice(), *id)) else {
        return Ok(()); // no deal loops (checked by the caller)
    };
    let worst_rank = stats.loops.keys().map(|&id| cycle_rank(id)).max();
    let consistent = match stats.loops.get(&id) {
        // A kept loop holds the shortest tail: it is the least of the loops'.
        Some(_) => least == Some((tail, deal, id)),
        // A dropped loop: it ranks after every kept one and is no longer than theirs.
        None => {
            dropped
                && worst_rank.is_some_and(|w| cycle_rank(id) > w)
                && least.is_none_or(|(t, d, _)| (tail, deal) < (t, d))
        }
    };
    if !consistent {
        return bad("the shortest tail does not agree with the loops");
    }
    Ok(())
}

fn num<T: std::str::FromStr>(line: usize, s: &str) -> Result<T, StateError> {
    s.parse().map_err(|_| Parser::err(line, format!("{s:?} is not a number")))
}

fn cards(line: usize, s: &str) -> Result<Vec<u8>, StateError> {
    s.split(',').map(|c| num::<u8>(line, c)).collect()
}
