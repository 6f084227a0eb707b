//! Finite impartial games: the [`Game`] trait, the two play [`Convention`]s and [`Outcome`]s.
//!
//! A game is impartial when both players have the same moves from every position, so a
//! position alone says who wins: the player to move wins (an N-position, [`Outcome::Win`]) or
//! loses (a P-position, [`Outcome::Lose`]) against best play. Under **normal play** the player
//! who cannot move loses (the one who took the last object won); under **misère play** the
//! player who cannot move wins (the one who took the last object lost: Marienbad, Fort Boyard,
//! the match game of seed 003).

use std::fmt::{self, Debug};
use std::hash::Hash;

/// Who wins when no move is left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Convention {
    /// The player who takes the last object wins (the player left without a move loses).
    Normal,
    /// The player who takes the last object loses (the player left without a move wins).
    Misere,
}

impl Convention {
    /// `normal` or `misère`.
    pub fn name(self) -> &'static str {
        match self {
            Convention::Normal => "normal",
            Convention::Misere => "misère",
        }
    }

    /// The rule in words.
    pub fn describe(self) -> &'static str {
        match self {
            Convention::Normal => "normal play: the player who takes the last one wins",
            Convention::Misere => "misère play: the player who takes the last one loses",
        }
    }

    /// The outcome, for the player to move, of a position with no move.
    pub fn terminal_outcome(self) -> Outcome {
        match self {
            Convention::Normal => Outcome::Lose,
            Convention::Misere => Outcome::Win,
        }
    }
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The outcome of a position for the player to move, against best play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player to move wins: an N-position ("gagnante", "favorable" in the documents).
    Win,
    /// The player to move loses: a P-position ("perdante", "défavorable").
    Lose,
}

impl Outcome {
    /// `N` for a win of the player to move, `P` for a loss, as in the literature.
    pub fn letter(self) -> char {
        match self {
            Outcome::Win => 'N',
            Outcome::Lose => 'P',
        }
    }

    /// `true` for [`Outcome::Win`].
    pub fn is_win(self) -> bool {
        self == Outcome::Win
    }

    /// [`Outcome::Win`] when `win`, else [`Outcome::Lose`].
    pub fn from_win(win: bool) -> Outcome {
        if win { Outcome::Win } else { Outcome::Lose }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Win => "win for the player to move (N-position)",
            Outcome::Lose => "loss for the player to move (P-position)",
        })
    }
}

/// A finite impartial game whose every line of play ends (the position graph has no cycle).
///
/// The [`Solver`](crate::Solver) needs only the moves; [`Game::canonical`] lets a game merge
/// positions that are the same game (Nim heaps in any order, say) so that each is solved once.
pub trait Game {
    /// A position: what is left, plus whatever the rules remember (the previous take).
    type Position: Clone + Eq + Hash + Debug;
    /// A move, as a player names it.
    type Move: Clone + PartialEq + Debug;

    /// Who wins when no move is left.
    fn convention(&self) -> Convention;

    /// Pushes every legal move from `p` with the position it leads to onto `out` (which the
    /// caller has cleared). Nothing is pushed when the game is over.
    fn moves(&self, p: &Self::Position, out: &mut Vec<(Self::Move, Self::Position)>);

    /// A representative of the positions equivalent to `p` (same outcome, same game tree up to
    /// renaming). The default is `p` itself.
    fn canonical(&self, p: &Self::Position) -> Self::Position {
        p.clone()
    }
}
