//! Constructions of infinite bataille games, and the exhaustive census of C = 1 positions.
//!
//! The article (Delahaye & Mathieu, seed 002 of the repository's references) proves loops
//! exist by construction; this crate builds them and hands them to the engine to check:
//!
//! - Spivey's C = 1 loops for every V = m·2^k with m odd ≥ 5 ([`spivey`]);
//! - aligned cycles laid end to end, with their values shifted, for C = 4 and every even V
//!   ([`aligned`]), and decks covered by aligned blocks with order-preserving value maps
//!   ([`cover`]);
//! - Lakshtanov's 52-card loop under the "first player's card first" rule ([`lakshtanov`]);
//! - and, for the V where Spivey's method does not apply, a census of every position of the
//!   C = 1 deck: which lie on a loop ([`positions`]).
//!
//! ```
//! use bataille_constructs::spivey::{construct, Labelling};
//! use bataille_engine::Outcome;
//!
//! let c = construct(9, &Labelling::Given("A=9,6,8,7 B=1,2,5,4,3".parse().unwrap())).unwrap();
//! assert_eq!(c.pattern.to_string(), "[A, B, A, B] / [B, A, B, A, B]");
//! assert_eq!(c.deal.to_string(), "[9, 1, 6, 2] / [5, 8, 4, 7, 3]");
//! let Outcome::Cycle(cycle) = c.play().outcome else { panic!("Spivey's deals loop") };
//! assert_eq!(cycle.period_tricks, 20);
//! ```
//!
//! No I/O, no threads, no clap: the `bataille` command (`construct`, `aligned`) prints what
//! [`report`] renders.
//!
//! # Crate layout
//!
//! - [`spivey`]: [`spivey::Plan`] (V = m·2^k), [`spivey::Pattern`] (categories A, B, ...),
//!   labellings and [`spivey::construct`].
//! - [`aligned`]: [`aligned::concatenate`], [`aligned::repeat`], [`aligned::extend`] (build and
//!   check), the known V = 4 and V = 6 cycles and [`aligned::even_deck`].
//! - [`cover`]: decks covered by aligned blocks ([`cover::cover`], [`cover::cover_deck`]).
//! - [`lakshtanov`]: the 52-card deal of box 3 and [`lakshtanov::battles`].
//! - [`positions`]: [`positions::census`] over every C = 1 position, [`positions::brute_force`]
//!   to check it, and the ranking of positions.
//! - [`report`]: the reports of `bataille construct` (Spivey, Lakshtanov, even V, the census)
//!   rendered to text, with whether what they check held.
//! - [`values`]: the lists of V a person gives (`5..200`, `5,7,9`).

pub mod aligned;
pub mod cover;
pub mod lakshtanov;
pub mod positions;
pub mod report;
pub mod spivey;
pub mod values;
