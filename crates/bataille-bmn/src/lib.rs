//! Beggar-my-neighbour (French "bataille anglaise"): an allocation-free engine.
//!
//! The rules are those of the 1911 Encyclopaedia Britannica, as used by the published records
//! and by Casella et al.'s non-terminating game:
//!
//! - Only penalty cards matter: a jack makes the opponent pay 1 card, a queen 2, a king 3, an
//!   ace 4; every other card is a numeral. A card is its penalty ([`Card`], `0..=4`), and hands
//!   are written top first with `-` for a numeral: `---K---Q-KQAJ-----AAJ--J--`.
//! - The first hand leads. The players turn cards alternately onto a pile. When a penalty card
//!   is turned the opponent pays that many cards, one by one; a penalty card turned while paying
//!   stops the payment, and the other player now owes the new penalty. When a payment ends with
//!   numerals only, the player of the last penalty card takes the pile, puts it under his hand
//!   in the order it was played (first card played nearest the top), and leads the next trick.
//! - A player who must play and has no card loses, and the game is over as soon as one player
//!   holds every card (see [`play`](mod@play) for this convention and the two measures:
//!   *cards* turned and *tricks*, the piles taken).
//! - A loop is a return to the same two hands (numerals indistinguishable) with the same player
//!   to lead, at a trick boundary. Games are played with Brent's cycle detection and come out
//!   as a win, or a [`Cycle`] with its tail and period, in tricks and in cards, and a canonical
//!   [`CycleId`].
//!
//! The engine does no I/O and spawns no threads. A [`Game`] stores each hand as a ring of
//! penalty cards, each with the numerals in front of it ([`game`] explains the encoding), so
//! a trick costs one step per penalty card; [`play_deal`] plays a deal given as a slice of
//! penalties, reusing a [`Scratch`], without allocating.
//!
//! ```
//! use bataille_bmn::{DeckSpec, Hands, Outcome, play};
//!
//! let h = Hands::parse("---AJ--Q---------QAKQJJ-QK", "-----A----KJ-K--------A---").unwrap();
//! h.check_deck(DeckSpec::STANDARD).unwrap();
//! let r = play(&h);
//! assert_eq!((r.outcome, r.cards, r.tricks), (Outcome::SecondWins, 8344, 1164));
//! ```
//!
//! # For search harnesses
//!
//! A search explores *deals*: arrangements of a [`DeckSpec`] ([`DeckSpec::arrangements`]
//! counts them; the first hand leads, so swapping the hands is not a symmetry). One worker
//! keeps a [`Scratch`] and a [`Dealer`], and for each deal calls [`play_deal`], which returns a
//! [`Record`] (outcome, tricks, cards, and for a loop its [`Cycle`]); [`format_deal`] writes a
//! deal as text.
//!
//! # Crate layout
//!
//! - [`deck`]: [`Card`], [`DeckSpec`] (validated counts of each penalty) and the size limit.
//! - [`hands`]: [`Hands`] (two hands), [`Player`], their notation and validation.
//! - [`game`]: the run-length encoded [`Game`] and the trick.
//! - [`play`](mod@play): whole games, [`Record`], [`Outcome`], Brent's detection, cycle ids.
//! - [`deal`]: uniformly random deals ([`Dealer`]) and the text form of a deal.
//! - [`published`]: Casella's game, the article's printing of it, the record games, and the
//!   checks that replay them.
//! - [`reference`](mod@reference): a deliberately naive implementation, to cross-check the engine.
//! - [`report`]: the trace and the summary of a game, written to any `io::Write` the caller
//!   gives (`bataille bmn play`'s standard output).

pub mod deal;
pub mod deck;
pub mod game;
pub mod hands;
pub mod play;
pub mod published;
pub mod reference;
pub mod report;

#[cfg(test)]
mod fuzz;
#[cfg(test)]
mod tests;

pub use deal::{Dealer, format_deal, parse_deal, shuffle};
pub use deck::{CARD_CHARS, Card, DeckError, DeckSpec, MAX_CARDS, MAX_PENALTY, card_char};
pub use game::{Game, Trick};
pub use hands::{Hands, HandsError, Player, format_hand, parse_hand};
pub use play::{
    Cycle, CycleId, Limits, Outcome, Record, Scratch, loop_positions, play, play_deal, play_hands,
};
