//! One game, trick by trick: the engine's one trick loop for the callers that look at every
//! trick (traces, printed sequences) and for the random method.
//!
//! [`Tricks`] plays a game from a start, one trick per [`Iterator::next`], until it ends or
//! reaches the cap of its [`Limits`]; [`Tricks::game`] is the position after the last trick.
//! With [`Tricks::until_repeat`] it also stops before a trick from a position met before, and
//! [`Tricks::finish`] then gives the loop of a deterministic game exactly (tail, period, cards,
//! [`CycleId`](crate::CycleId)) from that single pass. The hot deterministic paths
//! ([`crate::play_deterministic`], [`crate::Packed`]) have loops of their own.
//!
//! ```
//! use bataille_engine::{Game, Limits, Method, Methods, NoRandom, Outcome, SeenPositions, Tricks};
//!
//! let start = Game::new(&"[5, 3] / [2, 4, 1]".parse().unwrap());
//! let mut seen = SeenPositions::default();
//! let natural = Methods::both(Method::Natural);
//! let mut tricks =
//!     Tricks::new(&start, natural, NoRandom, Limits::DETERMINISTIC).until_repeat(&mut seen);
//! let mut positions = vec![tricks.game().to_position().to_string()];
//! while tricks.next().is_some() {
//!     positions.push(tricks.game().to_position().to_string());
//! }
//! assert_eq!(positions[1], "[3, 5, 2] / [4, 1]");
//! assert_eq!(positions.len(), 7, "six tricks, back to the start");
//! let Outcome::Cycle(c) = tricks.finish().outcome else { panic!("the article's V=5 loop") };
//! assert_eq!((c.tail_tricks, c.period_tricks), (0, 6));
//! ```

use std::collections::HashMap;
use std::iter::FusedIterator;

use rand::RngCore;

use crate::game::{Ending, Game, Trick, TrickResult};
use crate::method::Methods;
use crate::outcome::{Cycle, GameResult, Limits, Outcome, walk_loop};
use crate::spec::Card;

/// The tricks of one game, played one per [`Iterator::next`].
///
/// Each item is the [`Trick`] as [`Game::trick`] reports it; [`Tricks::game`] is the position
/// after it, and [`Tricks::tricks`] / [`Tricks::cards`] count the tricks and reveals so far.
/// The iterator ends when a player cannot turn a card at a trick boundary, after a trick that
/// ended the game during a battle, when the cap of tricks is reached, and (with
/// [`Tricks::until_repeat`]) before a trick from a position met before. [`Tricks::finish`]
/// plays what is left and gives the [`GameResult`].
///
/// The random method draws from the generator exactly as [`crate::play_random`] does (which is
/// this iterator played out), so the same seed gives the same game.
pub struct Tricks<'a, R: RngCore> {
    game: Game,
    methods: Methods,
    rng: R,
    max_tricks: u64,
    tricks: u64,
    cards: u64,
    seen: Option<&'a mut SeenPositions>,
    stop: Option<Stop>,
}

/// Why a game stopped.
#[derive(Debug, Clone, Copy)]
enum Stop {
    /// It ended (a win or a draw).
    Ended(Ending),
    /// The cap of tricks was reached.
    Capped,
    /// The position was met before, after this many tricks and reveals.
    Repeat { tricks: u64, cards: u64 },
}

impl<R: RngCore> std::fmt::Debug for Tricks<'_, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tricks")
            .field("game", &self.game)
            .field("methods", &self.methods)
            .field("max_tricks", &self.max_tricks)
            .field("tricks", &self.tricks)
            .field("cards", &self.cards)
            .field("until_repeat", &self.seen.is_some())
            .field("stop", &self.stop)
            .finish()
    }
}

impl<'a, R: RngCore> Tricks<'a, R> {
    /// The game from `start` (copied) with `methods`; `rng` (a generator or a `&mut` to one) is
    /// only drawn from by the random method (deterministic games may pass [`crate::NoRandom`]).
    /// It stops after `limits.max_tricks` tricks.
    pub fn new(start: &Game, methods: Methods, rng: R, limits: Limits) -> Tricks<'a, R> {
        Tricks {
            game: start.clone(),
            methods,
            rng,
            max_tricks: limits.max_tricks,
            tricks: 0,
            cards: 0,
            seen: None,
            stop: None,
        }
    }

    /// Also stops before a trick from a position met before, remembering every position in
    /// `seen` (emptied first; reuse one to keep its capacity). For a deterministic game that is
    /// its first repeated position, and [`Tricks::finish`] gives the loop; with a random method
    /// it is the convention of the article's program (see [`crate::play_random_until_repeat`]).
    /// Allocates one key per position.
    pub fn until_repeat(mut self, seen: &'a mut SeenPositions) -> Tricks<'a, R> {
        seen.seen.clear();
        self.seen = Some(seen);
        self
    }

    /// The position after the last trick played (the start before the first).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The tricks played so far.
    pub fn tricks(&self) -> u64 {
        self.tricks
    }

    /// The reveals (cards each player turned) so far.
    pub fn cards(&self) -> u64 {
        self.cards
    }

    /// Plays the tricks that are left and returns the result: a win or a draw, a capped game,
    /// or at a repeated position ([`Tricks::until_repeat`]) the loop of a deterministic game —
    /// tail, period and their reveals from the positions met, the loop walked once more to
    /// name it — or a capped game with a random method. The tricks and cards are those played
    /// (for a loop, tail + period, as [`crate::play()`] gives them).
    pub fn finish(mut self) -> GameResult {
        if self.stop.is_none() {
            let stop = play_out(
                &mut self.game,
                self.methods,
                &mut self.rng,
                self.max_tricks,
                self.seen.as_deref_mut(),
                &mut self.tricks,
                &mut self.cards,
            );
            self.stop = Some(stop);
        }
        let (tricks, cards) = (self.tricks, self.cards);
        let outcome = match self.stop.expect("a finished game has stopped") {
            Stop::Ended(end) => end.into(),
            Stop::Capped => Outcome::Capped,
            Stop::Repeat { .. } if !self.methods.is_deterministic() => Outcome::Capped,
            Stop::Repeat { tricks: tail_tricks, cards: tail_cards } => {
                let period_tricks = tricks - tail_tricks;
                let (period_cards, id) = walk_loop(&self.game, self.methods, period_tricks);
                debug_assert_eq!(period_cards, cards - tail_cards);
                Outcome::Cycle(Cycle { tail_tricks, tail_cards, period_tricks, period_cards, id })
            }
        };
        GameResult { outcome, tricks, cards }
    }
}

impl<R: RngCore> Iterator for Tricks<'_, R> {
    type Item = Trick;

    #[inline]
    fn next(&mut self) -> Option<Trick> {
        if self.stop.is_some() {
            return None;
        }
        let step = step(
            &mut self.game,
            self.methods,
            &mut self.rng,
            self.max_tricks,
            self.seen.as_deref_mut(),
            &mut self.tricks,
            &mut self.cards,
        );
        match step {
            Ok(t) => {
                if let TrickResult::Ended(end) = t.result {
                    self.stop = Some(Stop::Ended(end));
                }
                Some(t)
            }
            Err(stop) => {
                self.stop = Some(stop);
                None
            }
        }
    }
}

/// The one step of a game: the trick played from `game` if the game goes on, or why it stops
/// (a player cannot turn a card, the cap of `max_tricks` is reached, or the position is in
/// `seen`). Counts the trick and its reveals in `tricks` and `cards`.
#[inline(always)]
fn step<R: RngCore + ?Sized>(
    game: &mut Game,
    methods: Methods,
    rng: &mut R,
    max_tricks: u64,
    seen: Option<&mut SeenPositions>,
    tricks: &mut u64,
    cards: &mut u64,
) -> Result<Trick, Stop> {
    if let Some(end) = game.ending() {
        return Err(Stop::Ended(end));
    }
    if *tricks == max_tricks {
        return Err(Stop::Capped);
    }
    if let Some(seen) = seen
        && let Some((tricks, cards)) = seen.visit(game, *tricks, *cards)
    {
        return Err(Stop::Repeat { tricks, cards });
    }
    let t = game.trick(methods, rng);
    *tricks += 1;
    *cards += u64::from(t.reveals);
    Ok(t)
}

/// [`step`] until the game stops, with the counts in registers: [`Tricks::finish`], which
/// plays the random method's games of the searches ([`crate::play_random`]) at about the speed
/// of a loop written for them.
#[inline(never)]
fn play_out<R: RngCore + ?Sized>(
    game: &mut Game,
    methods: Methods,
    rng: &mut R,
    max_tricks: u64,
    mut seen: Option<&mut SeenPositions>,
    tricks: &mut u64,
    cards: &mut u64,
) -> Stop {
    let (mut n, mut c) = (*tricks, *cards);
    let stop = loop {
        match step(game, methods, rng, max_tricks, seen.as_deref_mut(), &mut n, &mut c) {
            Err(stop) => break stop,
            Ok(Trick { result: TrickResult::Ended(end), .. }) => break Stop::Ended(end),
            Ok(_) => {}
        }
    };
    (*tricks, *cards) = (n, c);
    stop
}

impl<R: RngCore> FusedIterator for Tricks<'_, R> {}

/// The positions a game has been in, for [`Tricks::until_repeat`] and
/// [`crate::play_random_until_repeat`], each with the tricks and reveals played when it was
/// first met: reuse one per worker so that its table keeps its capacity from game to game.
#[derive(Debug, Clone, Default)]
pub struct SeenPositions {
    seen: HashMap<Box<[Card]>, (u64, u64)>,
    key: Vec<Card>,
}

impl SeenPositions {
    /// Records the position of `g`, met after `tricks` tricks and `cards` reveals; if it was
    /// met before, records nothing and returns the tricks and reveals of that first time.
    pub(crate) fn visit(&mut self, g: &Game, tricks: u64, cards: u64) -> Option<(u64, u64)> {
        self.key.clear();
        // The first hand's length, then both hands: the cards alone would not tell where the
        // first hand ends.
        let len0 = g.len(crate::Player::First);
        self.key.push((len0 & 0xff) as Card);
        self.key.push((len0 >> 8) as Card);
        self.key.extend(g.hand(crate::Player::First));
        self.key.extend(g.hand(crate::Player::Second));
        if let Some(&first) = self.seen.get(self.key.as_slice()) {
            return Some(first);
        }
        self.seen.insert(self.key.as_slice().into(), (tricks, cards));
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::NoRandom;
    use crate::method::Method;
    use crate::play::{play, play_random};
    use crate::position::Position;

    fn natural() -> Methods {
        Methods::both(Method::Natural)
    }

    #[test]
    fn items_and_positions() {
        let start = Game::new(&"[1, 1, 2, 2] / [2, 2, 1, 1]".parse().unwrap());
        let mut t = Tricks::new(&start, natural(), NoRandom, Limits::DETERMINISTIC);
        assert_eq!(t.game().to_position(), start.to_position());
        let mut after = Vec::new();
        while let Some(trick) = t.next() {
            after.push((trick, t.game().to_position().to_string()));
        }
        assert_eq!(t.next(), None, "fused");
        assert_eq!(after.len() as u64, t.tricks());
        let r = t.finish();
        assert_eq!(r.outcome, Outcome::Draw);
        assert_eq!(r, play(&start.to_position(), natural(), &mut NoRandom, Limits::DETERMINISTIC));
    }

    #[test]
    fn cap_and_empty_hand() {
        let start = Game::new(&"[5, 3] / [2, 4, 1]".parse().unwrap());
        let r = Tricks::new(&start, natural(), NoRandom, Limits { max_tricks: 3 }).finish();
        assert_eq!((r.outcome, r.tricks, r.cards), (Outcome::Capped, 3, 3));
        let empty = Game::new(&"[] / [1]".parse().unwrap());
        let mut t = Tricks::new(&empty, natural(), NoRandom, Limits::DETERMINISTIC);
        assert_eq!(t.next(), None);
        assert_eq!(t.finish().outcome, Outcome::SecondWins);
    }

    /// One pass with the positions remembered gives what Brent's algorithm gives, loops (tail,
    /// period, cards, id) included, on every deal of small decks, for several methods.
    #[test]
    fn until_repeat_agrees_with_play() {
        let mut seen = SeenPositions::default();
        let mut loops = 0;
        for (deck, methods) in [
            ("1,2,3,4,5", natural()),
            ("1,2,3,4,5,6,7", natural()),
            ("1,2,3,4", Methods::new(Method::Natural, Method::Ascending)),
            ("1,2,3,4,5,6", Methods::new(Method::FirstPlayerFirst, Method::Natural)),
            ("1,1,1,2,2,2,3,3,3", natural()),
            ("1,1,2,2,3,3,4,4", Methods::both(Method::Optimized)),
        ] {
            let mut cards: Vec<Card> = deck.split(',').map(|c| c.parse().unwrap()).collect();
            loop {
                for split in [cards.len() / 2, 1] {
                    let p =
                        Position::new(cards[..split].to_vec(), cards[split..].to_vec()).unwrap();
                    let start = Game::new(&p);
                    let once = Tricks::new(&start, methods, NoRandom, Limits::DETERMINISTIC)
                        .until_repeat(&mut seen)
                        .finish();
                    assert_eq!(once, play(&p, methods, &mut NoRandom, Limits::DETERMINISTIC));
                    loops += usize::from(matches!(once.outcome, Outcome::Cycle(_)));
                }
                if !next_permutation(&mut cards) {
                    break;
                }
            }
        }
        assert!(loops > 100, "{loops} deals loop");
    }

    fn next_permutation(a: &mut [Card]) -> bool {
        let Some(i) = a.windows(2).rposition(|w| w[0] < w[1]) else { return false };
        let j = a.iter().rposition(|&x| x > a[i]).unwrap();
        a.swap(i, j);
        a[i + 1..].reverse();
        true
    }

    #[test]
    fn random_method_same_stream_same_game() {
        use rand::SeedableRng;
        use rand_xoshiro::Xoshiro256PlusPlus;
        let start = Game::new(&"5,3,1,1,2/2,4,5,3,4".parse().unwrap());
        let methods = Methods::new(Method::Natural, Method::Random);
        let limits = Limits { max_tricks: 10_000 };
        for seed in 0..20 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut t = Tricks::new(&start, methods, &mut rng, limits);
            let n = t.by_ref().count() as u64;
            let r = t.finish();
            assert_eq!(n, r.tricks);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            assert_eq!(r, play_random(&start, methods, &mut rng, limits), "seed {seed}");
        }
    }

    #[test]
    fn repeat_needs_both_hands_and_the_split() {
        // Same cards, different split: not the same position.
        let mut seen = SeenPositions::default();
        assert_eq!(seen.visit(&Game::new(&"[1, 2] / [3]".parse().unwrap()), 0, 0), None);
        assert_eq!(seen.visit(&Game::new(&"[1] / [2, 3]".parse().unwrap()), 1, 1), None);
        assert_eq!(seen.visit(&Game::new(&"[1, 2] / [3]".parse().unwrap()), 2, 3), Some((0, 0)));
    }
}
