//! A game and a start position named by a front end ([`GameOptions`]: the game, the heaps and
//! the game's options), validated into a [`GameSpec`], and what a front end asks of it: the
//! report of `takeaway solve` ([`GameSpec::solve`]), a game played against the program
//! ([`GameSpec::session`]), a person's move read ([`GameSpec::read_move`]).
//!
//! ```
//! use bataille_takeaway::spec::{GameKind, GameOptions, GameSpec};
//!
//! let spec = GameSpec::new(&GameOptions::new(GameKind::Marienbad, vec![])).unwrap();
//! let report = spec.solve().unwrap();
//! assert!(report.contains("position:  1-3-5-7"));
//! assert!(report.contains("outcome:   P: the player to move loses against best play"));
//! assert_eq!(spec.read_move("4 7").unwrap(), "take 7 from row 4 (7 -> 0)");
//! ```

use std::fmt::Debug;

use crate::dispatch::{DispatchError, Engine};
use crate::front::{Front, shown, size, winning};
use crate::game::{Convention, Outcome};
use crate::matches::{MatchGame, MatchPos, Rule, RuleError};
use crate::nim::Nim;
use crate::subtraction::{Subtraction, SubtractionError};
use crate::two_heaps::{TwoHeapGame, TwoHeapPos};

/// The games a front end names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Nim on any rows: take any number from one row (normal play by default).
    Nim,
    /// Nim where the last match loses; rows 1 3 5 7 unless given.
    Marienbad,
    /// One heap, take 1 to a maximum (normal play by default).
    Subtraction,
    /// Take 1 to 3 sticks, the last stick loses; 18 sticks unless given.
    FortBoyard,
    /// Seed 003: one heap, first move 1 or 2, then at most the rule (2n); the last match loses.
    Matches,
    /// Seed 003, B.II: the same with two heaps, taking from one of them.
    TwoHeaps,
}

impl GameKind {
    /// The game's name on the command line: `nim`, `fort-boyard`, `two-heaps`, ...
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Nim => "nim",
            GameKind::Marienbad => "marienbad",
            GameKind::Subtraction => "subtraction",
            GameKind::FortBoyard => "fort-boyard",
            GameKind::Matches => "matches",
            GameKind::TwoHeaps => "two-heaps",
        }
    }
}

/// What names a game and a position, as a person gave it (the options of `takeaway solve`,
/// `play` and `table positions`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOptions {
    /// The game.
    pub game: GameKind,
    /// The position: the rows (nim, marienbad), the heap (subtraction, fort-boyard, matches),
    /// or the two heaps (two-heaps).
    pub heaps: Vec<u64>,
    /// Who wins when nothing is left (`None`: the game's own).
    pub convention: Option<Convention>,
    /// matches, two-heaps: the most a player may take after a take of n, as written (`2n`,
    /// `kn+q`, a constant; `None`: 2n).
    pub rule: Option<String>,
    /// matches, two-heaps: the most the first player may take (`None`: 2).
    pub first_max: Option<u32>,
    /// matches, two-heaps: what the opponent took on the previous move (`None`: the opening).
    pub prev: Option<u32>,
    /// subtraction: the most a player may take.
    pub max_take: Option<u64>,
    /// Answer with the generic solver (brute force), not the closed form or the table.
    pub brute_force: bool,
}

impl GameOptions {
    /// `game` at `heaps`, every option at its default.
    pub fn new(game: GameKind, heaps: Vec<u64>) -> GameOptions {
        GameOptions {
            game,
            heaps,
            convention: None,
            rule: None,
            first_max: None,
            prev: None,
            max_take: None,
            brute_force: false,
        }
    }
}

/// Why [`GameOptions`] name no game and position. The options are named as the command line
/// spells them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// An option of the match games given for another game.
    #[error("{0} applies to the games matches and two-heaps only")]
    MatchesOnly(&'static str),
    /// `--max-take` given for another game than subtraction.
    #[error("--max-take applies to the game subtraction only")]
    SubtractionOnly,
    /// Nim without rows.
    #[error("the game \"nim\" takes the rows, e.g. 1 3 5 7")]
    NoRows,
    /// Subtraction without its largest take.
    #[error("the game \"subtraction\" needs --max-take")]
    NoMaxTake,
    /// A one-heap game given another number of heaps.
    #[error("the game takes one heap, not {0} numbers")]
    OneHeap(usize),
    /// A match game given another number of heaps than its own.
    #[error("the game {:?} takes {what}, not {given} numbers", game.name())]
    Heaps {
        /// The game.
        game: GameKind,
        /// The heaps it takes, in words.
        what: &'static str,
        /// How many numbers were given.
        given: usize,
    },
    /// A heap of a match game above `u32::MAX`.
    #[error("{what} {value} is too large: at most {max}", max = u32::MAX)]
    TooLarge {
        /// What is too large.
        what: &'static str,
        /// Its value.
        value: u64,
    },
    /// The rule cannot be read, or does not allow the first move.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The subtraction game cannot be built.
    #[error(transparent)]
    Subtraction(#[from] SubtractionError),
}

/// A validated game with its start position (of that game: the variant says both).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameAt {
    /// Nim and Marienbad, and the rows.
    Nim(Nim, Vec<u64>),
    /// A subtraction game (Fort Boyard) and the heap.
    Subtraction(Subtraction, u64),
    /// The match game and its position.
    Matches(MatchGame, MatchPos),
    /// The two-heap match game and its position.
    TwoHeaps(TwoHeapGame, TwoHeapPos),
}

/// A validated game and start position, and how to answer it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSpec {
    /// The game and the start position.
    pub game: GameAt,
    /// Answer with the generic solver (brute force).
    pub brute_force: bool,
}

/// Runs `$body` with `$g` the game and `$p` the position of whichever game `$at` holds.
macro_rules! each_game {
    ($at:expr, $g:ident, $p:ident => $body:expr) => {
        match $at {
            GameAt::Nim($g, $p) => $body,
            GameAt::Subtraction($g, $p) => $body,
            GameAt::Matches($g, $p) => $body,
            GameAt::TwoHeaps($g, $p) => $body,
        }
    };
}

/// `v` as a heap of a match game.
fn heap_u32(v: u64, what: &'static str) -> Result<u32, SpecError> {
    u32::try_from(v).map_err(|_| SpecError::TooLarge { what, value: v })
}

impl GameSpec {
    /// Validates `a` into a game and a start position.
    pub fn new(a: &GameOptions) -> Result<GameSpec, SpecError> {
        let is_matches = matches!(a.game, GameKind::Matches | GameKind::TwoHeaps);
        if !is_matches {
            for (given, flag) in [
                (a.rule.is_some(), "--rule"),
                (a.first_max.is_some(), "--first-max"),
                (a.prev.is_some(), "--prev"),
            ] {
                if given {
                    return Err(SpecError::MatchesOnly(flag));
                }
            }
        }
        if a.max_take.is_some() && a.game != GameKind::Subtraction {
            return Err(SpecError::SubtractionOnly);
        }
        let count = |want: usize, what: &'static str| {
            if a.heaps.len() != want {
                return Err(SpecError::Heaps { game: a.game, what, given: a.heaps.len() });
            }
            Ok(())
        };
        let convention = |default| a.convention.unwrap_or(default);
        let game = match a.game {
            GameKind::Nim | GameKind::Marienbad => {
                let (default, rows) = if a.game == GameKind::Nim {
                    (Convention::Normal, a.heaps.clone())
                } else if a.heaps.is_empty() {
                    (Convention::Misere, vec![1, 3, 5, 7])
                } else {
                    (Convention::Misere, a.heaps.clone())
                };
                if rows.is_empty() {
                    return Err(SpecError::NoRows);
                }
                GameAt::Nim(Nim { convention: convention(default) }, rows)
            }
            GameKind::Subtraction | GameKind::FortBoyard => {
                let (game, heap) = if a.game == GameKind::FortBoyard {
                    let heaps = if a.heaps.is_empty() { vec![18] } else { a.heaps.clone() };
                    (Subtraction::new(3, convention(Convention::Misere))?, heaps)
                } else {
                    let max = a.max_take.ok_or(SpecError::NoMaxTake)?;
                    (Subtraction::new(max, convention(Convention::Normal))?, a.heaps.clone())
                };
                let [heap] = heap[..] else {
                    return Err(SpecError::OneHeap(heap.len()));
                };
                GameAt::Subtraction(game, heap)
            }
            GameKind::Matches | GameKind::TwoHeaps => {
                let rule: Rule = a.rule.as_deref().unwrap_or("2n").parse()?;
                let rule = rule.with_first_max(a.first_max.unwrap_or(2))?;
                let convention = convention(Convention::Misere);
                let prev = a.prev.unwrap_or(0);
                if a.game == GameKind::Matches {
                    count(1, "one heap")?;
                    let left = heap_u32(a.heaps[0], "the heap")?;
                    GameAt::Matches(MatchGame { rule, convention }, MatchPos { left, prev })
                } else {
                    count(2, "two heaps")?;
                    let pos = TwoHeapPos {
                        a: heap_u32(a.heaps[0], "the heap")?,
                        b: heap_u32(a.heaps[1], "the heap")?,
                        prev,
                    };
                    GameAt::TwoHeaps(TwoHeapGame { rule, convention }, pos)
                }
            }
        };
        Ok(GameSpec { game, brute_force: a.brute_force })
    }

    /// The report of `takeaway solve`: the game, the position, its outcome for the player to
    /// move, every winning move, the game's notes and how it was solved; one line each, every
    /// line ended.
    pub fn solve(&self) -> Result<String, DispatchError> {
        each_game!(&self.game, g, p => solve_game(*g, p, self.brute_force))
    }

    /// A game played against the program from the start position.
    pub fn session(&self) -> Result<Box<dyn Session>, DispatchError> {
        each_game!(&self.game, g, p => Sitting::boxed(*g, p, self.brute_force))
    }

    /// Reads a person's move at the start position from `line` (its words), as `takeaway play`
    /// does, and plays it: the move as shown, or why it is not one. Nothing is solved.
    pub fn read_move(&self, line: &str) -> Result<String, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        each_game!(&self.game, g, p => read_move(g, p, &words))
    }
}

fn read_move<G: Front>(game: &G, p: &G::Position, words: &[&str]) -> Result<String, String> {
    let m = game.parse_move(p, words)?;
    let next = G::apply(p, &m);
    Ok(shown::<G>(p, (m, next)).text)
}

fn solve_game<G: Front>(
    game: G,
    p: &G::Position,
    brute_force: bool,
) -> Result<String, DispatchError> {
    let engine = Engine::new(game, size::<G>(p), brute_force)?;
    let outcome = engine.outcome(p)?;
    let moves = winning(&engine, p)?;
    let mut out = String::new();
    let mut line = |text: &str| {
        out.push_str(text);
        out.push('\n');
    };
    line(&format!("game:      {}", game.describe()));
    line(&format!("position:  {}", G::show(p)));
    let over = G::is_over(p);
    line(match outcome {
        Outcome::Win if over => {
            "outcome:   N: the player to move has won (the opponent took the last one)"
        }
        Outcome::Lose if over => {
            "outcome:   P: the player to move has lost (the opponent took the last one)"
        }
        Outcome::Win => "outcome:   N: the player to move wins",
        Outcome::Lose => "outcome:   P: the player to move loses against best play",
    });
    if moves.is_empty() {
        line("winning:   none");
    }
    for (i, m) in moves.iter().enumerate() {
        line(&format!("{}{}", if i == 0 { "winning:   " } else { "           " }, m.text));
    }
    for note in G::notes(&engine, p) {
        line(&note);
    }
    line(&format!("solved by: {}", engine.method()));
    Ok(out)
}

/// A game played against the program: the position reached, a person's moves read and played,
/// the program's replies (a winning move when it has one).
pub trait Session: Debug {
    /// The game in words.
    fn describe(&self) -> String;
    /// The position reached, as text.
    fn show(&self) -> String;
    /// Whether no object is left.
    fn is_over(&self) -> bool;
    /// Who wins when nothing is left.
    fn convention(&self) -> Convention;
    /// The outcome of the position reached for the player to move.
    fn outcome(&self) -> Result<Outcome, DispatchError>;
    /// Reads a person's move from `words` and plays it: the move as shown, or why it is not
    /// one (nothing played).
    fn play(&mut self, words: &[&str]) -> Result<String, String>;
    /// Plays the program's move: the move as shown, and whether it is a winning one (when
    /// there is none, the smallest legal take from the largest heap, to make the game last).
    fn reply(&mut self) -> Result<(String, bool), DispatchError>;

    /// Who should win from the position reached, in words, when the person moves first
    /// (`you_first`) or the program does.
    fn verdict(&self, you_first: bool) -> Result<&'static str, DispatchError> {
        Ok(match (you_first, self.outcome()?) {
            (true, Outcome::Win) => "you can win, if you find the right moves",
            (true, Outcome::Lose) => "you will lose if the program plays well (it does)",
            (false, Outcome::Win) => "the program starts, and wins",
            (false, Outcome::Lose) => "the program starts in a lost position: win it",
        })
    }

    /// The line that ends a game over, the person having taken the last one or not
    /// (`you_last`): who won.
    fn ending(&self, you_last: bool) -> String {
        let you_win = you_last != (self.convention() == Convention::Misere);
        format!(
            "{} took the last one: {}",
            if you_last { "you" } else { "the program" },
            if you_win { "you win" } else { "the program wins" }
        )
    }
}

/// The [`Session`] of a game `G`.
struct Sitting<G: Front> {
    game: G,
    engine: Engine<G>,
    at: G::Position,
}

impl<G: Front + Debug> Debug for Sitting<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sitting").field("game", &self.game).field("at", &self.at).finish()
    }
}

impl<G: Front + Debug + 'static> Sitting<G> {
    /// A game of `game` from `at`, as a [`Session`].
    fn boxed(
        game: G,
        at: &G::Position,
        brute_force: bool,
    ) -> Result<Box<dyn Session>, DispatchError> {
        let engine = Engine::new(game, size::<G>(at), brute_force)?;
        Ok(Box::new(Sitting { game, engine, at: at.clone() }))
    }
}

impl<G: Front + Debug> Session for Sitting<G> {
    fn describe(&self) -> String {
        self.game.describe()
    }

    fn show(&self) -> String {
        G::show(&self.at)
    }

    fn is_over(&self) -> bool {
        G::is_over(&self.at)
    }

    fn convention(&self) -> Convention {
        self.game.convention()
    }

    fn outcome(&self) -> Result<Outcome, DispatchError> {
        self.engine.outcome(&self.at)
    }

    fn play(&mut self, words: &[&str]) -> Result<String, String> {
        let m = self.game.parse_move(&self.at, words)?;
        let next = G::apply(&self.at, &m);
        let m = shown::<G>(&self.at, (m, next));
        self.at = m.next;
        Ok(m.text)
    }

    fn reply(&mut self) -> Result<(String, bool), DispatchError> {
        let (m, wins) = match winning(&self.engine, &self.at)?.into_iter().next() {
            Some(m) => (m, true),
            None => {
                let m = G::fallback(&self.at);
                let next = G::apply(&self.at, &m);
                (shown::<G>(&self.at, (m, next)), false)
            }
        };
        self.at = m.next;
        Ok((m.text, wins))
    }
}
