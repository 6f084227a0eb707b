//! The bataille engine: French "bataille" (War) with C colours and V values.
//!
//! It plays games exactly by the rules of Delahaye & Mathieu's article (see the book's
//! docs/rules.md): both players reveal their top card at once, the higher card takes the
//! trick, a tie is a battle (no face-down cards) settled by the next reveals, and the winner
//! puts the cards under his hand in the order of his stacking [`Method`]. A player who must
//! reveal a card and has none loses; if both run out together the game is a draw.
//!
//! The engine does no I/O, spawns no threads and allocates nothing per trick or per game in its
//! hot paths: a [`Game`] is two 256-byte rings, and [`play_deterministic`] reuses a [`Scratch`].
//! Deterministic games are played with Brent's cycle detection and come out as a win, a draw or
//! a [`Cycle`] with its tail, period and canonical [`CycleId`].
//!
//! ```
//! use bataille_engine::{play, DeckSpec, Limits, Method, Methods, NoRandom, Outcome, Position};
//!
//! let deal: Position = "[9, 1, 6, 2] / [5, 8, 4, 7, 3]".parse().unwrap();
//! assert_eq!(deal.infer_deck().unwrap(), DeckSpec::new(1, 9).unwrap());
//! let result = play(&deal, Methods::both(Method::Natural), &mut NoRandom, Limits::DETERMINISTIC);
//! let Outcome::Cycle(cycle) = result.outcome else { panic!("the article says it loops") };
//! assert_eq!(cycle.period_tricks, 20);
//! ```
//!
//! # Crate layout
//!
//! - [`spec`]: [`DeckSpec`] (validated C and V) and the size limits.
//! - [`position`]: [`Position`] (two hands), its notations and deck validation.
//! - [`deal`]: a deal read from text and checked against the deck it must form.
//! - [`method`]: stacking methods ([`Method`], [`Methods`]).
//! - [`game`]: the ring-buffer [`Game`] and the trick.
//! - [`outcome`]: how a game comes out ([`Outcome`], [`GameResult`], [`Limits`]) and a loop
//!   ([`Cycle`]) with its canonical name ([`CycleId`]).
//! - [`play`](mod@play): whole games, Brent's detection, loop listing.
//! - [`aligned`]: the aligned-cycle test of the article's box 4 and the round map
//!   ([`aligned::round_natural`]).
//! - [`backward`]: playing backwards, to extend long games into longer ones.
//! - [`packed`]: natural and optimized games of small decks with each hand in a 64-bit register.
//! - [`tricks`]: one game trick by trick ([`Tricks`]), for traces and the random method.

pub mod aligned;
pub mod backward;
pub mod deal;
pub mod game;
pub mod method;
pub mod outcome;
pub mod packed;
pub mod play;
pub mod position;
pub mod spec;
pub mod tricks;
mod wide;

pub use game::{Ending, Game, NoRandom, OrderError, Trick, TrickResult};
pub use method::{Method, MethodError, Methods};
pub use outcome::{Cycle, CycleId, GameResult, Limits, Outcome};
pub use packed::{Finished, Packed, PackedDeal};
pub use play::{
    Scratch, first_phase, loop_positions, play, play_deterministic, play_deterministic_phased,
    play_deterministic_rings, play_random, play_random_until_repeat, play_traced, wide_first_phase,
};
pub use position::{Player, Position, PositionError};
pub use spec::{Card, DeckSpec, MAX_CARDS, MAX_VALUE, SpecError};
pub use tricks::{SeenPositions, Tricks};
