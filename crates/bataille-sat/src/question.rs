//! The question a formula asks: a deck, a stacking method, a period counted in tricks or in
//! cards, and the restrictions (deals only, ties, the smaller hand, a part of a split period);
//! why a question is refused. The formulas that answer it are in [`crate::encode`] (its trick
//! formula, and [`Question::check`] with the size bound of either formula) and the stream
//! formula's module.

use bataille_engine::{DeckSpec, Method};

/// What to encode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Question {
    /// The deck.
    pub deck: DeckSpec,
    /// The stacking method of both players: natural or optimized.
    pub method: Method,
    /// When the position comes back: after `period` tricks, or after each player has turned
    /// `period` cards.
    pub counted: Counted,
    /// Tricks (or cards each player turns, see `counted`) after which the position comes back.
    pub period: u32,
    /// Only positions that are deals (first hand of ⌊N/2⌋ cards; with symmetric stacking,
    /// also the mirror of a deal).
    pub deals: bool,
    /// Only loops whose tricks have at most this many ties (a trick of at most `t + 1`
    /// reveals): a restriction that makes the formula smaller, to find loops of large decks
    /// sooner. Then a complete answer certifies only that no loop with such tricks exists.
    /// `None`: every trick the deck allows.
    pub max_ties: Option<u32>,
    /// Only loops in which one player holds at most this many cards at every trick boundary
    /// (fewer than half the deck): lopsided loops, as the C=4 V=7 loops met so far are. Only
    /// for periods counted in cards, among positions of every split. A complete answer then
    /// certifies only that no such loop exists. `None`: every split.
    pub max_hand: Option<u32>,
    /// Only the loops whose smallest hand at a trick boundary holds exactly this many cards:
    /// one *part* of a split period ([`Question::parts`]). Only for periods counted in cards,
    /// among positions of every split. `None`: the whole period.
    pub first_hand: Option<u32>,
}

/// What a period counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Counted {
    /// Tricks: the formula unrolls every trick ([`Encoding`]'s states).
    #[default]
    Tricks,
    /// Cards each player turns in one turn of the loop, battles included: the stream formula
    /// (`crate::stream`), which grows with the cards of one turn rather than with its states.
    /// A loop of P tricks turns at least P cards per player.
    Cards,
}

impl Counted {
    /// The unit, as the outputs name it.
    pub fn unit(self) -> &'static str {
        match self {
            Counted::Tricks => "tricks",
            Counted::Cards => "cards",
        }
    }
}

/// Why a question cannot be encoded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QuestionError {
    /// The method is neither natural nor optimized.
    #[error("the solver encodes natural or optimized stacking, not {0}")]
    Method(&'static str),
    /// The period is 0.
    #[error("the period must be at least 1")]
    ZeroPeriod,
    /// The deck has fewer than 2 cards.
    #[error("a deck of {0} card(s) has no loop: one hand is empty from the start")]
    TinyDeck(usize),
    /// The formula would be too large to build.
    #[error(
        "C={c} V={v} with a period of {period} {unit} makes up to {clauses:.1e} clauses, more \
         than the {limit:.0e} this command builds: choose a smaller period or deck"
    )]
    TooLarge { c: usize, v: usize, period: u32, unit: &'static str, clauses: f64, limit: f64 },
    /// A bound on the smaller hand that is not below half the deck, or is 0.
    #[error(
        "a bound on the smaller hand must be 1 to {most} on a deck of {cards} cards (below \
         half the deck), not {given}"
    )]
    MaxHand { given: u32, cards: usize, most: usize },
    /// A bound on the smaller hand of a deck too small to have one below half the deck.
    #[error("a deck of {0} cards has no smaller hand to bound: --max-hand needs 3 cards or more")]
    MaxHandTiny(usize),
    /// A bound on the smaller hand asked of the trick formula, or of deals.
    #[error(
        "a bound on the smaller hand needs periods counted in cards (--cards), among positions \
         of every split (not --deals)"
    )]
    MaxHandWhere,
    /// A part of a period that is not a length the smallest hand can have.
    #[error("a part of a period is a smallest hand of 1 to {most} cards, not {given}")]
    FirstHand { given: u32, most: usize },
    /// A split period asked of the trick formula, or of deals.
    #[error(
        "splitting a period by the smallest hand needs periods counted in cards (--cards), among \
         positions of every split (not --deals)"
    )]
    SplitWhere,
}

/// The largest formula built, in clauses as [`Question::clause_bound`] and
/// [`crate::AlignedQuestion::clause_bound`] count them: upper bounds, so no formula built has
/// more. The formula and the solver take about 160 to 190 bytes a clause (measured: 3.65·10^7
/// clauses of `-c 1 -v 4 --period 100000`, 5.7 GB; 1.09·10^7 of `-c 1 -v 128 --period 1`,
/// 2.0 GB with its proof checked), so a formula at the limit takes up to about 10 GB.
pub const MAX_CLAUSES: f64 = 5e7;

impl Question {
    /// The largest the smallest hand of a loop can be, at every trick boundary: half the deck,
    /// or the bound of `max_hand`.
    pub(crate) fn smallest_hand_most(&self) -> usize {
        let half = self.deck.cards() / 2;
        self.max_hand.map_or(half, |m| half.min(m as usize))
    }

    /// The parts of a split period: the same question for each length the loop's smallest
    /// hand can have (1 to ⌊N/2⌋, or to `max_hand`), as `first_hand`. Every loop the whole
    /// question has lies in exactly one part (its canonical position's first hand is that
    /// smallest hand), so the parts' loops together are the whole question's, and the period
    /// is complete when every part is. Each part is a smaller formula with a proof of its own,
    /// and the parts can be solved side by side.
    pub fn parts(&self) -> Vec<Question> {
        (1..=self.smallest_hand_most())
            .map(|l| Question { first_hand: Some(l as u32), ..*self })
            .collect()
    }

    /// The most reveals of a trick: on any position of the deck, or fewer if the question
    /// restricts the ties (`max_ties`).
    pub fn max_reveals(&self) -> usize {
        let (c, v, n) = (self.deck.colours(), self.deck.values(), self.deck.cards());
        let any = (n / 2).min(1 + v * (c / 2)).max(1);
        self.max_ties.map_or(any, |t| any.min(t as usize + 1))
    }
}
