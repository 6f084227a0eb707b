//! How each game is shown to a person and read from one: its description, its positions and
//! moves as text, a person's move read from words, and the program's move when it has no
//! winning one. The answers themselves are [`Engine`]'s; what a front end prints around them
//! is in [`crate::spec`].
//!
//! ```
//! use bataille_takeaway::front::Front;
//! use bataille_takeaway::{Convention, Nim};
//!
//! let nim = Nim { convention: Convention::Misere };
//! let rows = vec![1, 3, 5, 7];
//! let m = nim.parse_move(&rows, &["2", "3"]).unwrap();
//! assert_eq!(Nim::show(&Nim::apply(&rows, &m)), "1-0-5-7");
//! assert!(nim.parse_move(&rows, &["9", "1"]).unwrap_err().contains("there is no row 9"));
//! ```

use crate::dispatch::{DispatchError, Engine, FastAnswer};
use crate::game::Game;
use crate::matches::{MatchGame, MatchPos, Rule, quoted};
use crate::nim::{self, Nim, NimMove};
use crate::solver::MoveTo;
use crate::subtraction::Subtraction;
use crate::two_heaps::{Heap, TwoHeapGame, TwoHeapMove, TwoHeapPos};

/// A move and where it leads, as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move<P> {
    /// The move in words.
    pub text: String,
    /// The position it leads to.
    pub next: P,
}

/// A front end's side of a game: its description, its positions and moves as text, a person's
/// move read, the program's move when it has no winning one.
pub trait Front: FastAnswer {
    /// The game in words.
    fn describe(&self) -> String;
    /// The heap sizes of `p`.
    fn heaps(p: &Self::Position) -> Vec<u64>;
    /// `p` as text.
    fn show(p: &Self::Position) -> String;
    /// The move `m` from `p`, which leads to `next`, as text.
    fn move_text(p: &Self::Position, m: &Self::Move, next: &Self::Position) -> String;
    /// Reads a person's move at `p`, or says why it is not one.
    fn parse_move(&self, p: &Self::Position, words: &[&str]) -> Result<Self::Move, String>;
    /// The program's move when it has no winning one: the smallest legal take from the largest
    /// heap, to make the game last.
    fn fallback(p: &Self::Position) -> Self::Move;
    /// Where `m` leads from `p`.
    fn apply(p: &Self::Position, m: &Self::Move) -> Self::Position;
    /// More lines of a report on `p` (the binary column sums, a threshold).
    fn notes(_engine: &Engine<Self>, _p: &Self::Position) -> Vec<String> {
        Vec::new()
    }
}

/// The size an engine must cover to answer `p` (its largest heap).
pub fn size<G: Front>(p: &G::Position) -> u64 {
    G::heaps(p).into_iter().max().unwrap_or(0)
}

/// The move `m` from `p`, shown.
pub fn shown<G: Front>(p: &G::Position, (m, next): MoveTo<G>) -> Move<G::Position> {
    Move { text: G::move_text(p, &m, &next), next }
}

/// The winning moves from `p`, shown.
pub fn winning<G: Front>(
    engine: &Engine<G>,
    p: &G::Position,
) -> Result<Vec<Move<G::Position>>, DispatchError> {
    Ok(engine.winning(p)?.into_iter().map(|mv| shown::<G>(p, mv)).collect())
}

/// A number a person typed, or why it is not one (`what` names it).
pub fn number(w: &str, what: &str) -> Result<u64, String> {
    w.parse::<u64>().map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => {
            format!("{what} {} is more than {}", quoted(w), u64::MAX)
        }
        _ => format!("{what} {} is not a number", quoted(w)),
    })
}

/// The rule without its first-move note (shown separately).
fn rule_text(rule: Rule) -> String {
    match Rule::new(rule.k(), rule.q()) {
        Ok(r) => r.to_string(),
        Err(_) => rule.to_string(),
    }
}

impl Front for Nim {
    fn describe(&self) -> String {
        format!("nim, {}", self.convention.describe())
    }

    fn heaps(p: &Vec<u64>) -> Vec<u64> {
        p.clone()
    }

    fn show(p: &Vec<u64>) -> String {
        p.iter().map(u64::to_string).collect::<Vec<_>>().join("-")
    }

    fn move_text(_: &Vec<u64>, m: &NimMove, _: &Vec<u64>) -> String {
        m.to_string()
    }

    fn parse_move(&self, r: &Vec<u64>, words: &[&str]) -> Result<NimMove, String> {
        let [row, take] = words[..] else {
            return Err("expected a row and a number, e.g. \"2 3\" (take 3 from row 2)".into());
        };
        let row = number(row, "the row")?;
        let take = number(take, "the number to take")?;
        let i = usize::try_from(row).ok().filter(|&i| (1..=r.len()).contains(&i));
        let Some(i) = i else {
            return Err(format!("there is no row {row}: rows are 1 to {}", r.len()));
        };
        if take == 0 || take > r[i - 1] {
            return Err(format!("row {row} has {}: take 1 to {}", r[i - 1], r[i - 1]));
        }
        Ok(NimMove { row: i - 1, from: r[i - 1], to: r[i - 1] - take })
    }

    fn fallback(r: &Vec<u64>) -> NimMove {
        let i = (0..r.len()).max_by_key(|&i| (r[i], std::cmp::Reverse(i))).expect("rows");
        NimMove { row: i, from: r[i], to: r[i] - 1 }
    }

    fn apply(r: &Vec<u64>, m: &NimMove) -> Vec<u64> {
        m.apply(r)
    }

    fn notes(_: &Engine<Nim>, r: &Vec<u64>) -> Vec<String> {
        let sums: Vec<String> = nim::column_sums(r).iter().map(u32::to_string).collect();
        vec![format!(
            "columns:   {} (binary column sums; nim-sum {})",
            sums.join(" "),
            nim::nim_sum(r)
        )]
    }
}

impl Front for Subtraction {
    fn describe(&self) -> String {
        format!("take 1 to {}, {}", self.max_take(), Game::convention(self).describe())
    }

    fn heaps(n: &u64) -> Vec<u64> {
        vec![*n]
    }

    fn show(n: &u64) -> String {
        n.to_string()
    }

    fn move_text(n: &u64, t: &u64, next: &u64) -> String {
        format!("take {t} ({n} -> {next})")
    }

    fn parse_move(&self, n: &u64, words: &[&str]) -> Result<u64, String> {
        let [take] = words[..] else {
            return Err("expected how many to take, e.g. \"2\"".into());
        };
        let take = number(take, "the number to take")?;
        let max = self.max_take().min(*n);
        if take == 0 || take > max {
            return Err(format!("you may take 1 to {max}, not {take}"));
        }
        Ok(take)
    }

    fn fallback(_: &u64) -> u64 {
        1
    }

    fn apply(n: &u64, t: &u64) -> u64 {
        n - t
    }
}

impl Front for MatchGame {
    fn describe(&self) -> String {
        format!(
            "matches, one heap, first move 1 to {}, then at most {} after a take of n, {}",
            self.rule.first_max(),
            rule_text(self.rule),
            self.convention.describe()
        )
    }

    fn heaps(p: &MatchPos) -> Vec<u64> {
        vec![u64::from(p.left)]
    }

    fn show(p: &MatchPos) -> String {
        p.to_string()
    }

    fn move_text(_: &MatchPos, take: &u32, next: &MatchPos) -> String {
        format!("take {take} -> {next}")
    }

    fn parse_move(&self, m: &MatchPos, words: &[&str]) -> Result<u32, String> {
        let [take] = words[..] else {
            return Err("expected how many matches to take, e.g. \"2\"".into());
        };
        let take = number(take, "the number to take")?;
        let max = self.rule.cap(m.prev).min(u64::from(m.left));
        if take == 0 || take > max {
            return Err(format!("you may take 1 to {max}, not {take}"));
        }
        Ok(take as u32)
    }

    fn fallback(_: &MatchPos) -> u32 {
        1
    }

    fn apply(p: &MatchPos, take: &u32) -> MatchPos {
        MatchPos { left: p.left - take, prev: *take }
    }

    fn notes(engine: &Engine<MatchGame>, m: &MatchPos) -> Vec<String> {
        let Engine::Fast(t) = engine else { return Vec::new() };
        vec![match (t.min_winning_take(m.left), t.threshold(m.left)) {
            (Some(take), Some(n)) => format!(
                "threshold: from {} matches the smallest winning take is {take}; ({},n) is won \
                 for n >= {n}",
                m.left, m.left
            ),
            (Some(take), None) => format!(
                "threshold: from {} matches the smallest winning take is {take}, which no \
                 previous take allows",
                m.left
            ),
            (None, _) => format!("threshold: no take wins from {} matches", m.left),
        }]
    }
}

impl Front for TwoHeapGame {
    fn describe(&self) -> String {
        format!(
            "matches, two heaps, first move 1 to {}, then at most {} after a take of n, {}",
            self.rule.first_max(),
            rule_text(self.rule),
            self.convention.describe()
        )
    }

    fn heaps(p: &TwoHeapPos) -> Vec<u64> {
        vec![u64::from(p.a), u64::from(p.b)]
    }

    fn show(p: &TwoHeapPos) -> String {
        p.to_string()
    }

    fn move_text(_: &TwoHeapPos, m: &TwoHeapMove, next: &TwoHeapPos) -> String {
        format!("{m} -> {next}")
    }

    fn parse_move(&self, m: &TwoHeapPos, words: &[&str]) -> Result<TwoHeapMove, String> {
        let joined: String = words.concat().to_ascii_uppercase();
        let (heap, digits) = if let Some(d) = joined.strip_suffix('A') {
            (Heap::A, d)
        } else if let Some(d) = joined.strip_suffix('B') {
            (Heap::B, d)
        } else if let Some(d) = joined.strip_prefix('A') {
            (Heap::A, d)
        } else if let Some(d) = joined.strip_prefix('B') {
            (Heap::B, d)
        } else {
            return Err("expected a number and a heap, e.g. \"3A\" or \"2 B\"".into());
        };
        let take = number(digits, "the number to take")?;
        let size = if heap == Heap::A { m.a } else { m.b };
        let max = self.rule.cap(m.prev).min(u64::from(size));
        if max == 0 {
            return Err(format!("heap {heap:?} is empty"));
        }
        if take == 0 || take > max {
            return Err(format!("you may take 1 to {max} from heap {heap:?}, not {take}"));
        }
        Ok(TwoHeapMove { heap, take: take as u32 })
    }

    fn fallback(m: &TwoHeapPos) -> TwoHeapMove {
        TwoHeapMove { heap: if m.a >= m.b { Heap::A } else { Heap::B }, take: 1 }
    }

    fn apply(p: &TwoHeapPos, m: &TwoHeapMove) -> TwoHeapPos {
        m.apply(*p)
    }
}
