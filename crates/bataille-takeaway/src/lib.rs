//! Exact solver for the take-away games of the companion documents (seeds 000, 001, 003, 004).
//!
//! Two players alternately take objects (matches, sticks, tokens); the same moves are open to
//! both (impartial games), every game ends, and the outcome is decided by who takes the last
//! object: under normal play he wins, under misère play he loses. This crate decides every
//! position (win or loss for the player to move) and lists every winning move:
//!
//! - by a generic exact [`Solver`] (retrograde analysis of the reachable positions) for any
//!   [`Game`], the brute force everything else is tested against;
//! - by closed forms where they exist: Bouton's rules for [`nim`] on any heaps, normal and
//!   misère (Marienbad 1-3-5-7, 3-5-7-9), and the `k + 1` periodicity of [`subtraction`] games
//!   (Fort Boyard: take 1 to 3, the last stick loses);
//! - by compressed tables for the match game of seed 003 ([`MatchTable`]: one heap, first move
//!   1 or 2, then at most `k·n + q` after a take of `n`, the last match loses) and its two-heap
//!   variant ([`TwoHeapTable`]), which store the smallest winning take of each heap size.
//!
//! [`constructions`] implements the sequences and programs that seed 003 proposes, as written,
//! and [`catalogue`] checks every checkable claim of the four documents against the solver.
//!
//! ```
//! use bataille_takeaway::{Convention, MatchGame, MatchPos, MatchTable, Outcome, Rule, nim};
//!
//! // Seed 000: 1-3-5-7 is lost for the player to move, in Marienbad (misère) and in Nim.
//! assert_eq!(nim::outcome(&[1, 3, 5, 7], Convention::Misere), Outcome::Lose);
//! // Seed 003: with 50 matches and the 2n rule, the first player wins by taking 2.
//! let table = MatchTable::new(MatchGame::misere(Rule::DOUBLE), 50).unwrap();
//! assert_eq!(table.winning_takes(MatchPos::opening(50)), Some(vec![2]));
//! ```
//!
//! The crate does no I/O: its reports and tables are rendered to a `String` or any `io::Write`.
//!
//! # Crate layout
//!
//! - [`game`]: the [`Game`] trait, [`Convention`] (normal, misère) and [`Outcome`].
//! - [`solver`]: the generic [`Solver`] and [`check_strategy`].
//! - [`nim`]: Nim, Bouton's closed forms, binary column sums.
//! - [`subtraction`]: take 1 to k from one heap ([`Subtraction`]).
//! - [`matches`]: the match game of seed 003 ([`Rule`], [`MatchPos`], [`MatchGame`],
//!   [`MatchTable`]), Fibonacci and Zeckendorf.
//! - [`two_heaps`]: its two-heap variant.
//! - [`dispatch`]: [`dispatch::Engine`], the one entry point that answers a position of any of
//!   these games (closed form, table, or the generic solver on request).
//! - [`spec`]: a game and position as a front end names them ([`spec::GameOptions`]),
//!   validated ([`spec::GameSpec`]); the report of a solved position, a game played against
//!   the program ([`spec::Session`]), a person's move read.
//! - [`front`]: how each game is shown and read ([`front::Front`]: positions and moves as
//!   text, a person's move parsed).
//! - [`table`]: the CSV tables of every position up to a size and of the winning sequence.
//! - [`constructions`]: the document's sequence constructions and programs, as written.
//! - [`catalogue`]: the verified claims of seeds 000, 001, 003 and 004.

pub mod catalogue;
pub mod constructions;
pub mod dispatch;
pub mod front;
pub mod game;
pub mod matches;
pub mod nim;
pub mod solver;
pub mod spec;
pub mod subtraction;
pub mod table;
pub mod two_heaps;

pub use game::{Convention, Game, Outcome};
pub use matches::{MatchGame, MatchPos, MatchTable, Rule, RuleError};
pub use nim::{Nim, NimMove};
pub use solver::{SolveError, Solver, StrategyFailure, check_strategy};
pub use subtraction::{Subtraction, SubtractionError};
pub use two_heaps::{Heap, TwoHeapGame, TwoHeapMove, TwoHeapPos, TwoHeapTable};

#[cfg(test)]
mod fuzz;
