//! Hunting loops among positions of every split, not only deals: [`PositionHunt`], a
//! [`DealGame`] of the search harness whose "deals" are positions drawn by a [`Sampler`].
//!
//! Being a game of the harness, a position hunt has everything `bataille hunt` has: seeded
//! work units (the same seed gives the same positions whatever the threads or shards),
//! checkpoints, shards and `merge`, the loops found with the positions that reach them and
//! their tails, the longest games. A "deal" of this game is the N cards of the position, the
//! first hand then the second, followed by one byte: the first hand's length.
//!
//! # Samplers
//!
//! - [`Sampler::Uniform`]: every position of every split with both hands non-empty equally
//!   likely. Every split holds the same number of positions (the arrangements of the deck),
//!   so the split is uniform on 1..N−1 and the cards a uniform arrangement: the rate of looping
//!   positions it measures is that of the deck's positions, with no prior on where loops are.
//!   Very uneven splits end within a few tricks, so they cost little.
//! - [`Sampler::Piles`]: a uniform position whose hands are then made runs of piles, the shape
//!   of every position on a loop ([`crate::piles`]): each pair of cards counted from the bottom
//!   of a hand put in non-increasing order (non-decreasing for a player who stacks
//!   ascending; first-player-first stacking, whose pairs go by player, is refused). A loop
//!   passes through such positions only, so the sampler spends nothing on positions that
//!   cannot lie on a loop (they may still lead into one).
//! - [`Sampler::Insert`] (seeded): a known loop of a smaller deck (a seed), its values mapped to
//!   a random set of the deck's values in their order, and the missing cards inserted at random
//!   places: a position that plays like the seed's loop as long as the new cards stay apart. A
//!   seed whose game ends is refused: it is no known loop.
//! - [`Sampler::Mutate`] (seeded): a position of the same deck (a position of a known loop, or
//!   of a long game) changed by one to four local moves: two cards exchanged, or one card moved
//!   to the other hand; the neighbourhood of a loop holds other positions of its basin and,
//!   perhaps, other loops.

use bataille_engine::position::quoted;
use bataille_engine::{
    Card, DeckSpec, Game, Limits, Method, Methods, Outcome, Position, Scratch, aligned,
    loop_positions, play_deterministic,
};
use bataille_search::game::{Alignment, DealGame, DealRecord};
use bataille_search::sealed::fnv1a;
use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use rand_xoshiro::Xoshiro256PlusPlus;

/// How positions are drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sampler {
    /// Every position of every split equally likely.
    Uniform,
    /// A uniform position, each hand made a run of piles.
    Piles,
    /// Cards of new values inserted into the seeds (positions of smaller decks).
    Insert(Vec<Position>),
    /// One to four local moves away from the seeds (positions of the same deck).
    Mutate(Vec<Position>),
}

impl Sampler {
    /// The name used on the command line and in the identity.
    pub fn name(&self) -> &'static str {
        match self {
            Sampler::Uniform => "uniform",
            Sampler::Piles => "piles",
            Sampler::Insert(_) => "insert",
            Sampler::Mutate(_) => "mutate",
        }
    }

    fn seeds(&self) -> &[Position] {
        match self {
            Sampler::Insert(s) | Sampler::Mutate(s) => s,
            _ => &[],
        }
    }
}

/// Why a hunt cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HuntError {
    /// A method that is not deterministic.
    #[error("a hunt for loops needs deterministic stacking, not {0}")]
    Random(String),
    /// A seeded sampler without seeds.
    #[error("the {0} sampler needs seed positions (--seeds FILE)")]
    NoSeeds(&'static str),
    /// A seed that does not fit the sampler.
    #[error("seed {}: {why}", quoted(.position))]
    Seed {
        /// The seed.
        position: String,
        /// What is wrong.
        why: String,
    },
    /// A deck too small to split.
    #[error("a position hunt needs at least 2 cards, got {0}")]
    TooSmall(usize),
    /// The piles sampler with a method whose piles have no shape in values.
    #[error(
        "the piles sampler draws the piles of natural, optimized or ascending stacking; \
         first-player-first stacking (methods {0}) pairs the cards by player, not by value: use \
         --sampler uniform"
    )]
    PilesMethod(String),
}

/// Positions of a deck drawn by a sampler, played until they end or loop.
#[derive(Debug, Clone)]
pub struct PositionHunt {
    spec: DeckSpec,
    methods: Methods,
    sampler: Sampler,
    deck: Vec<Card>,
    /// For each seed of `Insert`: its values, sorted and deduplicated.
    seed_values: Vec<Vec<Card>>,
}

/// The per-thread state of a position hunt.
#[derive(Debug, Clone)]
pub struct HuntWorker {
    /// The N cards then the first hand's length.
    deal: Vec<u8>,
    game: Game,
    scratch: Scratch,
    buffer: Vec<Card>,
}

impl PositionHunt {
    /// Positions of `spec` played with `methods`, drawn by `sampler`. Seeds are checked: an
    /// `Insert` seed must use at most C cards of at most V values (C of each, or fewer) and
    /// loop when played with `methods` (its game may reach the loop after a tail), a `Mutate`
    /// seed must be a position of the deck.
    pub fn new(
        spec: DeckSpec,
        methods: Methods,
        sampler: Sampler,
    ) -> Result<PositionHunt, HuntError> {
        if !methods.is_deterministic() {
            return Err(HuntError::Random(methods.to_string()));
        }
        if spec.cards() < 2 {
            return Err(HuntError::TooSmall(spec.cards()));
        }
        if sampler == Sampler::Piles
            && [methods.first, methods.second].contains(&Method::FirstPlayerFirst)
        {
            return Err(HuntError::PilesMethod(methods.to_string()));
        }
        if matches!(sampler, Sampler::Insert(_) | Sampler::Mutate(_)) && sampler.seeds().is_empty()
        {
            return Err(HuntError::NoSeeds(sampler.name()));
        }
        let mut seed_values = Vec::new();
        for s in sampler.seeds() {
            let bad = |why: String| HuntError::Seed { position: s.to_string(), why };
            match &sampler {
                Sampler::Mutate(_) => {
                    s.check_deck(spec).map_err(|e| bad(e.to_string()))?;
                    if s.first().is_empty() || s.second().is_empty() {
                        return Err(bad("a hand is empty: the game is over, there is nothing to \
                                        change"
                            .to_string()));
                    }
                }
                _ => {
                    let mut values: Vec<Card> =
                        s.first().iter().chain(s.second()).copied().collect();
                    values.sort_unstable();
                    for run in values.chunk_by(|a, b| a == b) {
                        if run.len() > spec.colours() {
                            return Err(bad(format!(
                                "value {} appears {} times, more than C={}",
                                run[0],
                                run.len(),
                                spec.colours()
                            )));
                        }
                    }
                    values.dedup();
                    if values.len() > spec.values() {
                        return Err(bad(format!(
                            "{} distinct values, more than V={}",
                            values.len(),
                            spec.values()
                        )));
                    }
                    let game = Game::new(s);
                    let r = play_deterministic(
                        &game,
                        methods,
                        Limits::DETERMINISTIC,
                        &mut Scratch::default(),
                    );
                    if !matches!(r.outcome, Outcome::Cycle(_)) {
                        let unit = if r.tricks == 1 { "trick" } else { "tricks" };
                        return Err(bad(format!(
                            "its game ends after {} {unit} ({methods}) instead of looping: \
                             the insert sampler starts from known loops (the positions of a \
                             census's or a hunt's cycles.csv)",
                            r.tricks
                        )));
                    }
                    seed_values.push(values);
                }
            }
        }
        Ok(PositionHunt { spec, methods, sampler, deck: spec.sorted_deck(), seed_values })
    }

    /// Rebuilds the hunt named by an identity (see [`DealGame::identity`]), given its seeds:
    /// `None` when the identity is not a position hunt's, or names other seeds.
    pub fn from_identity(identity: &str, seeds: &[Position]) -> Option<PositionHunt> {
        let rest = identity.strip_prefix("positions ")?;
        let w: Vec<&str> = rest.split(' ').collect();
        let (c, v) = (w.first()?.strip_prefix("C=")?, w.get(1)?.strip_prefix("V=")?);
        let spec = DeckSpec::new(c.parse().ok()?, v.parse().ok()?).ok()?;
        let methods: Methods = w.get(2)?.parse().ok()?;
        let sampler = match *w.get(3)? {
            "sampler=uniform" => Sampler::Uniform,
            "sampler=piles" => Sampler::Piles,
            "sampler=insert" => Sampler::Insert(seeds.to_vec()),
            "sampler=mutate" => Sampler::Mutate(seeds.to_vec()),
            _ => return None,
        };
        let hunt = PositionHunt::new(spec, methods, sampler).ok()?;
        (hunt.identity() == identity).then_some(hunt)
    }

    /// The sampler.
    pub fn sampler(&self) -> &Sampler {
        &self.sampler
    }

    /// A position of this hunt's "deal" bytes.
    pub fn position(&self, deal: &[u8]) -> Position {
        let n = self.deck.len();
        let a = usize::from(deal[n]);
        Position::new(deal[..a].to_vec(), deal[a..n].to_vec()).expect("a position of the deck")
    }

    /// Draws a position into `deal` (N cards then the first hand's length).
    fn draw(&self, deal: &mut [u8], buffer: &mut Vec<Card>, rng: &mut Xoshiro256PlusPlus) {
        let n = self.deck.len();
        let (cards, split) = deal.split_at_mut(n);
        match &self.sampler {
            Sampler::Uniform | Sampler::Piles => {
                cards.copy_from_slice(&self.deck);
                cards.shuffle(rng);
                let a = rng.random_range(1..n);
                split[0] = a as u8;
                if self.sampler == Sampler::Piles {
                    let (first, second) = cards.split_at_mut(a);
                    as_piles(first, self.methods.first);
                    as_piles(second, self.methods.second);
                }
            }
            Sampler::Insert(seeds) => {
                let k = rng.random_range(0..seeds.len());
                self.insert(&seeds[k], &self.seed_values[k], cards, split, buffer, rng);
            }
            Sampler::Mutate(seeds) => {
                let s = &seeds[rng.random_range(0..seeds.len())];
                let mut a = s.first().len();
                cards[..a].copy_from_slice(s.first());
                cards[a..].copy_from_slice(s.second());
                for _ in 0..rng.random_range(1..=4) {
                    if rng.random_bool(0.75) || n < 3 {
                        // Two cards exchanged, anywhere.
                        let (i, j) = (rng.random_range(0..n), rng.random_range(0..n));
                        cards.swap(i, j);
                    } else {
                        // One card moved to the other hand: the first hand's bottom card to the
                        // second's top, or back; both hands stay non-empty.
                        a = if a == 1 || (a < n - 1 && rng.random_bool(0.5)) {
                            a + 1
                        } else {
                            a - 1
                        };
                    }
                }
                split[0] = a as u8;
            }
        }
    }

    /// A position of the deck from the seed `s` (its distinct values `values`): the seed's
    /// values mapped to a random increasing choice of the deck's values, the deck's other
    /// cards inserted at uniformly random places of the two hands (the whole sequence first
    /// hand then second, the split moving with the insertions before it).
    fn insert(
        &self,
        s: &Position,
        values: &[Card],
        cards: &mut [u8],
        split: &mut [u8],
        buffer: &mut Vec<Card>,
        rng: &mut impl RngCore,
    ) {
        let v = self.spec.values();
        // A random increasing map of the seed's values into 1..=V.
        let mut image: Vec<Card> = (1..=v as Card).collect();
        image.shuffle(rng);
        let mut image = image[..values.len()].to_vec();
        image.sort_unstable();
        let map = |c: Card| image[values.binary_search(&c).expect("a seed value")];
        buffer.clear();
        buffer.extend(s.first().iter().chain(s.second()).map(|&c| map(c)));
        let mut a = s.first().len();
        // The cards of the deck the seed lacks.
        let mut counts = vec![0usize; v + 1];
        for &c in buffer.iter() {
            counts[usize::from(c)] += 1;
        }
        for (value, &count) in counts.iter().enumerate().skip(1) {
            for _ in count..self.spec.colours() {
                let at = rng.random_range(0..=buffer.len());
                buffer.insert(at, value as Card);
                // An insertion at the split goes to either hand.
                if at < a || (at == a && rng.random_bool(0.5)) {
                    a += 1;
                }
            }
        }
        // Both hands non-empty.
        let n = buffer.len();
        let a = a.clamp(1, n - 1);
        cards.copy_from_slice(buffer);
        split[0] = a as u8;
    }
}

/// Puts each pair of cards of `hand`, counted from its bottom, in the order of `method`'s
/// piles (the top card of an odd hand alone): non-increasing for natural and optimized
/// stacking (a pile's pairs are the winner's card then the loser's, or sorted strongest
/// first), non-decreasing for ascending stacking (sorted weakest first).
fn as_piles(hand: &mut [Card], method: Method) {
    let o = hand.len() % 2;
    let ascending = method == Method::Ascending;
    for pair in hand[o..].chunks_exact_mut(2) {
        if pair[0] != pair[1] && (pair[0] < pair[1]) != ascending {
            pair.swap(0, 1);
        }
    }
}

impl DealGame for PositionHunt {
    type Worker = HuntWorker;

    fn worker(&self) -> HuntWorker {
        let mut deal = self.deck.clone();
        deal.push((self.deck.len() / 2) as u8);
        HuntWorker {
            deal,
            game: Game::default(),
            scratch: Scratch::default(),
            buffer: Vec::with_capacity(self.deck.len()),
        }
    }

    fn items(&self) -> &'static str {
        "positions"
    }

    /// `positions C=4 V=13 natural sampler=uniform`, the seeded samplers adding the number of
    /// seeds and a hash of them: `sampler=insert seeds=3 hash=…`.
    fn identity(&self) -> String {
        let mut s = format!(
            "positions C={} V={} {} sampler={}",
            self.spec.colours(),
            self.spec.values(),
            self.methods,
            self.sampler.name()
        );
        let seeds = self.sampler.seeds();
        if !seeds.is_empty() {
            let text: Vec<String> = seeds.iter().map(Position::compact).collect();
            let hash = fnv1a(text.join("\n").as_bytes());
            s.push_str(&format!(" seeds={} hash={hash:016x}", seeds.len()));
        }
        s
    }

    fn deck(&self) -> &[u8] {
        &self.deck
    }

    fn reduces_by_swap(&self) -> bool {
        false
    }

    fn seek(&self, _: &mut HuntWorker, _: u128) {
        unreachable!("a position hunt draws its positions at random: no exhaustive mode")
    }

    fn step(&self, _: &mut HuntWorker) -> bool {
        unreachable!("a position hunt draws its positions at random: no exhaustive mode")
    }

    fn is_canonical(&self, _: &HuntWorker) -> bool {
        true
    }

    fn sample(&self, w: &mut HuntWorker, rng: &mut Xoshiro256PlusPlus) {
        self.draw(&mut w.deal, &mut w.buffer, rng);
    }

    fn play(&self, w: &mut HuntWorker, _: &mut Xoshiro256PlusPlus) -> DealRecord {
        let n = self.deck.len();
        let a = usize::from(w.deal[n]);
        w.game.set(&w.deal[..a], &w.deal[a..n]);
        play_deterministic(&w.game, self.methods, Limits::DETERMINISTIC, &mut w.scratch).into()
    }

    fn deal<'w>(&self, w: &'w HuntWorker) -> &'w [u8] {
        &w.deal
    }

    fn deal_text(&self, deal: &[u8]) -> String {
        self.position(deal).to_string()
    }

    fn engine(&self) -> String {
        bataille_engine::first_phase(self.methods).to_string()
    }

    fn alignment(&self, deal: &[u8]) -> Alignment {
        if self.deck.len() % 2 == 1 {
            return Alignment::NotApplicable;
        }
        match loop_positions(&self.position(deal), self.methods) {
            None => Alignment::NotApplicable,
            Some(p) => match aligned::aligned_position(&p, self.methods) {
                Some(q) => Alignment::Yes(q.to_string()),
                None => Alignment::No,
            },
        }
    }
}

/// Why a seeds file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeedsError {
    /// A CSV file with none of the columns that hold positions.
    #[error(
        "a CSV file of seeds needs a column position, deal, example_deal, aligned_position or \
         shortest_tail_deal"
    )]
    Columns,
    /// A line that does not hold a position.
    #[error("line {line}: {why}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// No position at all.
    #[error("no seed position in the file")]
    Empty,
}

/// The CSV columns a seed position is read from, in order of preference.
const SEED_COLUMNS: [&str; 5] =
    ["position", "deal", "example_deal", "aligned_position", "shortest_tail_deal"];

/// The seed positions of a file: either one position per line (`#` starts a comment; the
/// form [`write_seeds`] writes), or a CSV file with a header and a column of positions (the
/// `cycles.csv` of a census or a hunt, a hunt's `loops.csv`): the first of `position`, `deal`,
/// `example_deal`, `aligned_position`, `shortest_tail_deal` found; empty cells are skipped.
/// Duplicates are dropped, the order kept.
pub fn read_seeds(text: &str) -> Result<Vec<Position>, SeedsError> {
    let first = text.lines().next().unwrap_or("");
    let mut seeds: Vec<Position> = Vec::new();
    let mut push = |p: Position| {
        if !seeds.contains(&p) {
            seeds.push(p);
        }
    };
    if SEED_COLUMNS.iter().any(|c| first.split(',').any(|h| h.trim() == *c)) {
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let headers = r.headers().map_err(|e| SeedsError::Line { line: 1, why: e.to_string() })?;
        let col = SEED_COLUMNS
            .iter()
            .find_map(|c| headers.iter().position(|h| h == *c))
            .ok_or(SeedsError::Columns)?;
        for (i, rec) in r.records().enumerate() {
            let line = i + 2;
            let rec = rec.map_err(|e| SeedsError::Line { line, why: e.to_string() })?;
            let cell = rec.get(col).unwrap_or("").trim();
            if cell.is_empty() {
                continue;
            }
            let p = cell.parse().map_err(|e: bataille_engine::PositionError| SeedsError::Line {
                line,
                why: e.to_string(),
            })?;
            push(p);
        }
    } else {
        for (i, l) in text.lines().enumerate() {
            let l = l.split('#').next().unwrap_or("").trim();
            if l.is_empty() {
                continue;
            }
            let p = l.parse().map_err(|e: bataille_engine::PositionError| SeedsError::Line {
                line: i + 1,
                why: e.to_string(),
            })?;
            push(p);
        }
    }
    if seeds.is_empty() {
        return Err(SeedsError::Empty);
    }
    Ok(seeds)
}

/// `seeds.txt`: one position per line, in the compact notation, as [`read_seeds`] reads it.
pub fn write_seeds(seeds: &[Position]) -> String {
    seeds.iter().map(|p| format!("{}\n", p.compact())).collect()
}

#[cfg(test)]
mod tests {
    use bataille_engine::{Method, NoRandom, Outcome, play};
    use bataille_search::{Mode, Plan, explore_sequential};
    use rand::SeedableRng;

    use super::*;

    fn natural() -> Methods {
        Methods::both(Method::Natural)
    }

    #[test]
    fn every_sampler_draws_positions_of_the_deck() {
        let spec = DeckSpec::new(4, 6).unwrap();
        let seed: Position = "[2, 1, 3, 3, 4, 2, 4, 1] / [3, 2, 3, 1, 2, 1, 4, 4]".parse().unwrap();
        let aligned6: Position =
            "[2, 1, 5, 5, 6, 2, 6, 6, 4, 1, 4, 4] / [5, 3, 5, 1, 6, 3, 3, 2, 4, 2, 3, 1]"
                .parse()
                .unwrap();
        for sampler in [
            Sampler::Uniform,
            Sampler::Piles,
            Sampler::Insert(vec![seed.clone()]),
            Sampler::Mutate(vec![aligned6.clone()]),
        ] {
            let name = sampler.name();
            let hunt = PositionHunt::new(spec, natural(), sampler).unwrap();
            let mut w = hunt.worker();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
            let mut splits = std::collections::BTreeSet::new();
            for _ in 0..2000 {
                hunt.sample(&mut w, &mut rng);
                let p = hunt.position(hunt.deal(&w));
                p.check_deck(spec).unwrap_or_else(|e| panic!("{name}: {p}: {e}"));
                assert!(!p.first().is_empty() && !p.second().is_empty(), "{name}: {p}");
                splits.insert(p.first().len());
                if name == "piles" {
                    let reader = crate::piles::Reader::new(Method::Natural, 6).unwrap();
                    assert!(reader.accepts(p.first()) && reader.accepts(p.second()), "{p}");
                }
            }
            assert!(splits.len() > 3, "{name}: {splits:?}");
        }
    }

    #[test]
    fn inserting_into_an_aligned_cycle_keeps_its_order() {
        // One colour more of nothing: with as many values as the seed, no card is inserted and
        // the seed comes back with its values unchanged.
        let spec = DeckSpec::new(4, 4).unwrap();
        let seed: Position = "[2, 1, 3, 3, 4, 2, 4, 1] / [3, 2, 3, 1, 2, 1, 4, 4]".parse().unwrap();
        let hunt = PositionHunt::new(spec, natural(), Sampler::Insert(vec![seed.clone()])).unwrap();
        let mut w = hunt.worker();
        hunt.sample(&mut w, &mut Xoshiro256PlusPlus::seed_from_u64(1));
        assert_eq!(hunt.position(hunt.deal(&w)), seed);
    }

    #[test]
    fn the_hunt_finds_the_c4_v4_loops_and_replays_them() {
        // Positions of C=4 V=4 drawn uniformly: the four natural loops of the census are the
        // only ones a position can reach, and every kept position replays to its loop.
        let spec = DeckSpec::new(4, 4).unwrap();
        let hunt = PositionHunt::new(spec, natural(), Sampler::Piles).unwrap();
        let plan = Plan::with_unit_size(&hunt, Mode::Random { deals: 200_000 }, 3, 1, 50_000)
            .unwrap()
            .keeping_loop_deals(10);
        let state = explore_sequential(&hunt, &plan);
        let census =
            ["422b964339f7ccff", "a0864449c88fa259", "0052e2c4fb500f59", "3cffcb90809f75cf"];
        assert!(!state.stats.loops.is_empty());
        for (id, l) in &state.stats.loops {
            assert!(census.contains(&format!("{id:016x}").as_str()), "{id:016x}");
            for (deal, &tail) in &l.kept {
                let p = hunt.position(deal);
                let r = play(&p, natural(), &mut NoRandom, Limits::DETERMINISTIC);
                let Outcome::Cycle(c) = r.outcome else { panic!("{p}") };
                assert_eq!((c.id.0, c.tail_tricks), (*id, tail));
            }
        }
        // The same seed gives the same positions.
        assert_eq!(explore_sequential(&hunt, &plan), state);
    }

    /// The piles sampler follows each player's method: ascending piles pair weakest first,
    /// so that its positions lie on loops (C=1 V=7 ascending: many do), and first-player-first
    /// stacking, whose pairs have no order in values, is refused.
    #[test]
    fn piles_follow_the_stacking_method() {
        let spec = DeckSpec::new(1, 7).unwrap();
        let ascending = Methods::both(Method::Ascending);
        let hunt = PositionHunt::new(spec, ascending, Sampler::Piles).unwrap();
        let mut w = hunt.worker();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut on_loops = 0;
        for _ in 0..2000 {
            hunt.sample(&mut w, &mut rng);
            let p = hunt.position(hunt.deal(&w));
            for hand in [p.first(), p.second()] {
                let bottom = &hand[hand.len() % 2..];
                assert!(bottom.chunks_exact(2).all(|pair| pair[0] <= pair[1]), "{p}");
            }
            let r = play(&p, ascending, &mut NoRandom, Limits::DETERMINISTIC);
            on_loops += usize::from(matches!(r.outcome, Outcome::Cycle(c) if c.tail_tricks == 0));
        }
        assert!(on_loops > 0);
        for methods in [
            Methods::both(Method::FirstPlayerFirst),
            Methods::new(Method::Natural, Method::FirstPlayerFirst),
        ] {
            let e = PositionHunt::new(spec, methods, Sampler::Piles).unwrap_err();
            assert!(matches!(e, HuntError::PilesMethod(_)), "{e}");
            assert!(PositionHunt::new(spec, methods, Sampler::Uniform).is_ok());
        }
    }

    #[test]
    fn seeds_are_read_from_lists_and_tables() {
        let list = "# two seeds\n5,3/2,4,1\n\n[1, 2] / [3]  # a comment\n5,3/2,4,1\n";
        let seeds = read_seeds(list).unwrap();
        assert_eq!(seeds.len(), 2);
        assert_eq!(read_seeds(&write_seeds(&seeds)).unwrap(), seeds);
        let csv = "cycle_id,period_tricks,example_deal\nab,6,\"[5, 3] / [2, 4, 1]\"\ncd,4,\n";
        assert_eq!(read_seeds(csv).unwrap(), seeds[..1]);
        assert_eq!(read_seeds("# nothing\n"), Err(SeedsError::Empty));
        assert!(matches!(read_seeds("1,2/3\nx/1\n"), Err(SeedsError::Line { line: 2, .. })));
    }

    #[test]
    fn identities_round_trip_and_name_the_seeds() {
        let spec = DeckSpec::new(4, 5).unwrap();
        let seed: Position = "[2, 1, 3, 3, 4, 2, 4, 1] / [3, 2, 3, 1, 2, 1, 4, 4]".parse().unwrap();
        let h = PositionHunt::new(spec, natural(), Sampler::Insert(vec![seed.clone()])).unwrap();
        let id = h.identity();
        assert!(id.starts_with("positions C=4 V=5 natural sampler=insert seeds=1 hash="), "{id}");
        assert!(PositionHunt::from_identity(&id, std::slice::from_ref(&seed)).is_some());
        assert!(PositionHunt::from_identity(&id, &[seed.swapped()]).is_none());
        let u = PositionHunt::new(spec, natural(), Sampler::Uniform).unwrap();
        assert!(PositionHunt::from_identity(&u.identity(), &[]).is_some());
        let big: Position = "[6, 1, 4] / [2, 3, 5]".parse().unwrap();
        assert!(PositionHunt::new(spec, natural(), Sampler::Insert(vec![big])).is_err());
        assert!(PositionHunt::new(spec, natural(), Sampler::Mutate(vec![])).is_err());
        // A mutate seed whose game is over has nothing to change.
        let c1 = DeckSpec::new(1, 6).unwrap();
        let over: Position = "[] / [1, 2, 3, 4, 5, 6]".parse().unwrap();
        assert!(PositionHunt::new(c1, natural(), Sampler::Mutate(vec![over.clone()])).is_err());
        assert!(PositionHunt::new(c1, natural(), Sampler::Mutate(vec![over.swapped()])).is_err());
        // An insert seed must loop: a game that ends (here at once) is no known loop.
        let e = PositionHunt::new(c1, natural(), Sampler::Insert(vec![over])).unwrap_err();
        assert!(e.to_string().contains("ends after 0 tricks (natural) instead of looping"), "{e}");
    }

    #[test]
    fn insert_seeds_must_loop() {
        let c1 = DeckSpec::new(1, 6).unwrap();
        let looping: Position = "[5, 3] / [2, 4, 1]".parse().unwrap();
        assert!(PositionHunt::new(c1, natural(), Sampler::Insert(vec![looping])).is_ok());
        let ends: Position = "[1, 2] / [3]".parse().unwrap();
        let e = PositionHunt::new(c1, natural(), Sampler::Insert(vec![ends])).unwrap_err();
        assert!(matches!(e, HuntError::Seed { .. }), "{e}");
        let e = e.to_string();
        assert!(e.starts_with("seed \"[1, 2] / [3]\": its game ends after 2 tricks"), "{e}");
        assert!(e.contains("known loops"), "{e}");
        // A seed whose game enters a loop after a tail (of 3 tricks) is accepted too.
        let tail: Position = "[1, 2, 4] / [3, 5]".parse().unwrap();
        assert!(PositionHunt::new(c1, natural(), Sampler::Insert(vec![tail])).is_ok());
    }

    #[test]
    fn a_long_seed_is_quoted_short() {
        let c1 = DeckSpec::new(1, 6).unwrap();
        let long: Position = format!("{0} / {0}", "1, ".repeat(40) + "1").parse().unwrap();
        let e = PositionHunt::new(c1, natural(), Sampler::Insert(vec![long])).unwrap_err();
        let e = e.to_string();
        assert!(e.starts_with("seed \"[1, 1, 1,"), "{e}");
        assert!(e.contains("… (249 bytes in all): value 1 appears 82 times, more than C=1"), "{e}");
    }
}
