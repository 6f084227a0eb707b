//! What the harness needs from a game whose deals are explored: the [`DealGame`] trait and the
//! per-deal [`DealRecord`].
//!
//! A deal is a sequence of card bytes (the two hands laid end to end, first player first), an
//! arrangement of a fixed multiset. The harness numbers arrangements, splits them into work
//! units, and asks the game to play each deal and say how it came out. Bataille implements it
//! in [`crate::bataille`]; any other two-player deal game on a multiset deck (beggar-my-neighbour)
//! plugs in the same way.

use rand_xoshiro::Xoshiro256PlusPlus;

/// How one deal came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DealOutcome {
    /// The first player won.
    FirstWins,
    /// The second player won.
    SecondWins,
    /// The game ended with neither player winning.
    Draw,
    /// The game loops forever.
    Cycle(CycleInfo),
    /// A trick cap stopped the game first.
    Capped,
}

/// A loop reached by a deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CycleInfo {
    /// The loop's canonical id, shared by every deal that reaches it.
    pub id: u64,
    /// Tricks before the loop is entered.
    pub tail_tricks: u64,
    /// Cards each player turned before the loop is entered.
    pub tail_cards: u64,
    /// Tricks in one turn of the loop.
    pub period_tricks: u64,
    /// Cards each player turned in one turn of the loop.
    pub period_cards: u64,
}

/// What the harness records of one deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DealRecord {
    /// How it came out.
    pub outcome: DealOutcome,
    /// Tricks played (for a loop: until the first repeated position).
    pub tricks: u64,
    /// Cards each player turned, over the same tricks.
    pub cards: u64,
}

/// Whether a loop has the game's special "aligned" property (bataille: the article's box 4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Alignment {
    /// The game has no such notion, or it does not apply to this loop.
    NotApplicable,
    /// The loop has no aligned position.
    No,
    /// The loop holds this aligned position (in the game's deal notation).
    Yes(String),
}

/// A two-player game whose deals are explored: its deal space and how to play one deal.
///
/// Implementations keep all per-deal work allocation-free inside a [`DealGame::Worker`], one per
/// thread. The harness calls, for an exhaustive unit, [`DealGame::seek`] once then
/// [`DealGame::step`] per deal, [`DealGame::is_canonical`] to skip the deals that are another's
/// mirror ([`DealGame::skip_non_canonical`] passing over a run of them at once), and
/// [`DealGame::play`]; for a random unit, [`DealGame::sample`] then [`DealGame::play`]. A game
/// whose [`DealGame::batch`] is above 1 has its deals [`DealGame::stage`]d instead and played
/// together by [`DealGame::play_staged`], which hands them to the tallies in the same order.
pub trait DealGame: Sync {
    /// Per-thread state: the current deal and scratch buffers.
    type Worker: Send;

    /// A fresh worker.
    fn worker(&self) -> Self::Worker;

    /// What is explored, for run headers and summaries (e.g. `bataille C=4 V=4 natural`). Two
    /// runs with the same identity explore the same deal space with the same rules.
    fn identity(&self) -> String;

    /// What the run's items are called in human output: "deals" (the default), or "positions"
    /// for a game whose arrangements are positions of every split. Files keep their `deals`
    /// keys whatever this says.
    fn items(&self) -> &'static str {
        "deals"
    }

    /// The sorted deck: deals are its arrangements.
    fn deck(&self) -> &[u8];

    /// Whether deals come in mirror pairs of which only one is played (then
    /// [`DealGame::is_canonical`] picks it).
    fn reduces_by_swap(&self) -> bool;

    /// Sets the worker's deal to the arrangement of rank `rank` (lexicographic).
    fn seek(&self, w: &mut Self::Worker, rank: u128);

    /// Steps the worker's deal to the next arrangement; `false` after the last one.
    fn step(&self, w: &mut Self::Worker) -> bool;

    /// Whether the worker's deal is the representative of its mirror class (always `true`
    /// unless [`DealGame::reduces_by_swap`]).
    fn is_canonical(&self, w: &Self::Worker) -> bool;

    /// With the worker's deal not canonical: how many arrangements from it on (itself
    /// included, at most `max` ≥ 1) are not canonical either, the deal being left on the last of
    /// them, so that the harness passes over them at once. The default passes over the deal
    /// alone (1).
    #[inline]
    fn skip_non_canonical(&self, w: &mut Self::Worker, max: u64) -> u64 {
        let _ = (w, max);
        1
    }

    /// Sets the worker's deal to a uniformly random arrangement, a function of the random
    /// stream alone (not of the worker's previous deal), so results do not depend on which
    /// worker ran a unit.
    fn sample(&self, w: &mut Self::Worker, rng: &mut Xoshiro256PlusPlus);

    /// Plays the worker's deal.
    fn play(&self, w: &mut Self::Worker, rng: &mut Xoshiro256PlusPlus) -> DealRecord;

    /// How many deals [`DealGame::play_staged`] plays together; 1 (the default) for one at a
    /// time by [`DealGame::play`]. A game that plays deals together must not draw random
    /// numbers to play them, so that the results do not depend on it.
    fn batch(&self) -> usize {
        1
    }

    /// Keeps the worker's deal as deal `i` (below [`DealGame::batch`]) of the next batch.
    fn stage(&self, w: &mut Self::Worker, i: usize) {
        let _ = (w, i);
        unreachable!("a game that plays deals together implements stage");
    }

    /// Plays the first `n` staged deals together, handing each record and deal to `add` in the
    /// order they were staged.
    fn play_staged(
        &self,
        w: &mut Self::Worker,
        n: usize,
        add: &mut impl FnMut(&DealRecord, &[u8]),
    ) {
        let _ = (w, n, add);
        unreachable!("a game that plays deals together implements play_staged");
    }

    /// The worker's current deal (the two hands end to end).
    fn deal<'w>(&self, w: &'w Self::Worker) -> &'w [u8];

    /// A deal in the game's notation.
    fn deal_text(&self, deal: &[u8]) -> String;

    /// What the game's *cards* measure counts, for summaries: `per player` (bataille: the
    /// cards each player turned, the default) or `in all` (beggar-my-neighbour: every card
    /// turned by either player).
    fn cards_counted(&self) -> &'static str {
        "per player"
    }

    /// What plays the games on this machine (vector lanes, registers, rings), for the run's
    /// `metadata.csv`: the choice is made at run time, by the processor's instructions.
    fn engine(&self) -> String {
        "scalar".to_string()
    }

    /// The aligned property of the loop reached from `deal` (default: not applicable).
    fn alignment(&self, deal: &[u8]) -> Alignment {
        let _ = deal;
        Alignment::NotApplicable
    }
}
