//! Aligned-cycle constructions (the article's box 4): repeating and combining decks.
//!
//! An aligned cycle (see [`bataille_engine::aligned`]) can be laid end to end with copies of
//! itself or with other aligned cycles of the same C, each part's values shifted into its own
//! range above the previous parts: part i's value v becomes v + V_1 + ... + V_(i-1). In round r
//! of the result both players first turn part 1's cards, which meet only each other and play
//! part 1's round r, then part 2's, and so on; the round ends with the concatenation of the
//! parts' round ends. So the result is aligned, its rounds follow all the parts at once, and
//! its loop of rounds lasts the least common multiple of the parts' loops.
//!
//! [`concatenate`] and [`repeat`] build the deals, [`extend`] builds and checks one, and
//! [`even_deck`] uses the two known C = 4 aligned cycles ([`KNOWN_V4`], [`KNOWN_V6`]) to give one
//! for every even V ≥ 4.

use bataille_engine::{
    Card, DeckSpec, GameResult, Limits, Methods, NoRandom, Outcome, Position, PositionError,
    SpecError,
    aligned::{self, Aligned, NotAligned},
    play,
};

/// The C = 4, V = 4 aligned cycle of the article's box 4 (24 tricks, natural stacking).
pub const KNOWN_V4: &str = "[2, 1, 4, 4, 2, 1, 3, 3] / [4, 2, 4, 1, 3, 2, 3, 1]";
/// The C = 4, V = 6 aligned cycle of the article's box 4 (natural stacking).
pub const KNOWN_V6: &str =
    "[2, 1, 5, 5, 6, 2, 6, 6, 4, 1, 4, 4] / [5, 3, 5, 1, 6, 3, 3, 2, 4, 2, 3, 1]";

/// Why decks could not be laid end to end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConcatError {
    /// No deck given, or zero copies asked for.
    #[error("nothing to lay end to end: give at least one deck and one copy")]
    Empty,
    /// A part is not a whole deck (each value 1..V the same number of times).
    #[error("deck {} is not a whole deck: {source}", index + 1)]
    NotADeck {
        /// 0-based index of the part.
        index: usize,
        /// Why.
        source: PositionError,
    },
    /// Two parts have different numbers of colours.
    #[error(
        "deck {} has C={found} but deck 1 has C={expected}: the parts must have the same number of \
         colours to make one deck",
        index + 1
    )]
    Colours {
        /// 0-based index of the part.
        index: usize,
        /// C of the first part.
        expected: usize,
        /// C of this part.
        found: usize,
    },
    /// The result is larger than the engine plays.
    #[error("the combined deck is too large: {0}")]
    TooLarge(SpecError),
}

/// Lays `parts` end to end, hand by hand, shifting each part's values above the previous parts'.
///
/// ```
/// use bataille_constructs::aligned::{concatenate, KNOWN_V4};
/// use bataille_engine::Position;
/// let v4: Position = KNOWN_V4.parse().unwrap();
/// let (deal, spec) = concatenate(&[v4.clone(), v4]).unwrap();
/// assert_eq!(deal.to_string(),
///     "[2, 1, 4, 4, 2, 1, 3, 3, 6, 5, 8, 8, 6, 5, 7, 7] / [4, 2, 4, 1, 3, 2, 3, 1, 8, 6, 8, 5, 7, 6, 7, 5]");
/// assert_eq!(spec.to_string(), "C=4 V=8");
/// ```
pub fn concatenate(parts: &[Position]) -> Result<(Position, DeckSpec), ConcatError> {
    let mut specs = Vec::with_capacity(parts.len());
    for (index, p) in parts.iter().enumerate() {
        specs.push(p.infer_deck().map_err(|source| ConcatError::NotADeck { index, source })?);
    }
    let Some(first) = specs.first() else { return Err(ConcatError::Empty) };
    let colours = first.colours();
    if let Some((index, s)) = specs.iter().enumerate().find(|(_, s)| s.colours() != colours) {
        return Err(ConcatError::Colours { index, expected: colours, found: s.colours() });
    }
    let values: usize = specs.iter().map(|s| s.values()).sum();
    let spec = DeckSpec::new(colours, values).map_err(ConcatError::TooLarge)?;
    let (mut first_hand, mut second_hand) = (Vec::new(), Vec::new());
    let mut shift = 0;
    for (p, s) in parts.iter().zip(&specs) {
        let shift_card = |&c: &Card| (usize::from(c) + shift) as Card;
        first_hand.extend(p.first().iter().map(shift_card));
        second_hand.extend(p.second().iter().map(shift_card));
        shift += s.values();
    }
    let deal = Position::new(first_hand, second_hand).expect("checked by DeckSpec");
    Ok((deal, spec))
}

/// `times` copies of `deal`, each shifted above the previous one.
pub fn repeat(deal: &Position, times: usize) -> Result<(Position, DeckSpec), ConcatError> {
    concatenate(&vec![deal.clone(); times])
}

/// A concatenation of decks, played and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extension {
    /// Whether each part is an aligned cycle.
    pub parts: Vec<Result<Aligned, NotAligned>>,
    /// The concatenated deal.
    pub deal: Position,
    /// Its deck.
    pub spec: DeckSpec,
    /// The engine's verdict on it.
    pub result: GameResult,
    /// Whether it is an aligned cycle.
    pub aligned: Result<Aligned, NotAligned>,
    /// When every part is aligned: the period in tricks that the parts predict (see
    /// [`predicted_period`]).
    pub predicted: Option<Predicted>,
}

impl Extension {
    /// Whether the concatenation is an aligned loop with the period its parts predict (when
    /// they all are aligned cycles).
    pub fn is_aligned_loop(&self) -> bool {
        match (&self.result.outcome, &self.aligned, &self.predicted) {
            (Outcome::Cycle(c), Ok(a), Some(p)) => {
                a.period_tricks() == c.period_tricks && p.period_tricks == c.period_tricks
            }
            (Outcome::Cycle(c), Ok(a), None) => a.period_tricks() == c.period_tricks,
            _ => false,
        }
    }
}

/// The loop of a concatenation of aligned cycles, predicted from the parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Predicted {
    /// Rounds before the loop: the largest of the parts' tails.
    pub tail_rounds: usize,
    /// Rounds in the loop: the least common multiple of the parts' periods in rounds.
    pub period_rounds: usize,
    /// Tricks in the loop: each part contributes (period_rounds / its period in rounds) times
    /// its period in tricks.
    pub period_tricks: u64,
}

/// The loop that a concatenation of the aligned cycles `parts` must have.
pub fn predicted_period(parts: &[Aligned]) -> Predicted {
    let tail_rounds = parts.iter().map(|a| a.tail_rounds).max().unwrap_or(0);
    let period_rounds = parts.iter().fold(1, |l, a| l / gcd(l, a.period_rounds) * a.period_rounds);
    let period_tricks =
        parts.iter().map(|a| (period_rounds / a.period_rounds) as u64 * a.period_tricks()).sum();
    Predicted { tail_rounds, period_rounds, period_tricks }
}

fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Concatenates `parts`, plays the result with `methods` (deterministic) and checks it.
pub fn extend(parts: &[Position], methods: Methods) -> Result<Extension, ConcatError> {
    assert!(methods.is_deterministic(), "loops are only defined for deterministic methods");
    let (deal, spec) = concatenate(parts)?;
    let checked: Vec<_> = parts.iter().map(|p| aligned::check(p, methods)).collect();
    let predicted = checked
        .iter()
        .map(|c| c.as_ref().ok().cloned())
        .collect::<Option<Vec<_>>>()
        .map(|all| predicted_period(&all));
    let result = play(&deal, methods, &mut NoRandom, Limits::DETERMINISTIC);
    let aligned = aligned::check(&deal, methods);
    Ok(Extension { parts: checked, deal, spec, result, aligned, predicted })
}

/// The ways to write an even V as 4a + 6b (a, b ≥ 0, not both 0), most V = 6 parts first.
///
/// ```
/// use bataille_constructs::aligned::decompositions;
/// assert_eq!(decompositions(16), vec![(1, 2), (4, 0)]);
/// assert!(decompositions(7).is_empty());
/// ```
pub fn decompositions(values: usize) -> Vec<(usize, usize)> {
    (0..=values / 6)
        .rev()
        .filter(|&b| (values - 6 * b).is_multiple_of(4))
        .map(|b| ((values - 6 * b) / 4, b))
        .filter(|&(a, b)| a + b > 0)
        .collect()
}

/// Why no deck could be built for an even V.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvenError {
    /// V is not 4a + 6b.
    #[error(
        "V={0} is not 4a + 6b: the known aligned cycles (V=4 and V=6) combine only into even V of at \
         least 4"
    )]
    NotEven(usize),
    /// The asked decomposition does not add up to V.
    #[error("4·{a} + 6·{b} = {} is not V={values}", split_sum(*a, *b).map_or("more than 2^64".to_string(), |s| s.to_string()))]
    Decomposition {
        /// V.
        values: usize,
        /// Copies of the V = 4 cycle.
        a: usize,
        /// Copies of the V = 6 cycle.
        b: usize,
    },
}

/// 4a + 6b, or `None` when it does not fit a `usize`.
fn split_sum(a: usize, b: usize) -> Option<usize> {
    a.checked_mul(4)?.checked_add(b.checked_mul(6)?)
}

/// The parts for an even V: `a` copies of [`KNOWN_V4`] followed by `b` copies of [`KNOWN_V6`],
/// with (a, b) the first of [`decompositions`] unless given.
pub fn even_deck(values: usize, split: Option<(usize, usize)>) -> Result<Vec<Position>, EvenError> {
    let (a, b) = match split {
        Some((a, b)) if split_sum(a, b) == Some(values) && a + b > 0 => (a, b),
        Some((a, b)) => return Err(EvenError::Decomposition { values, a, b }),
        None => *decompositions(values).first().ok_or(EvenError::NotEven(values))?,
    };
    let v4: Position = KNOWN_V4.parse().expect("a valid deal");
    let v6: Position = KNOWN_V6.parse().expect("a valid deal");
    Ok(std::iter::repeat_n(v4, a).chain(std::iter::repeat_n(v6, b)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_engine::{Method, Outcome};

    const NATURAL: Methods = Methods { first: Method::Natural, second: Method::Natural };

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    /// Checks that the extension is an aligned loop with the predicted period; returns it.
    fn verified(parts: &[Position], methods: Methods) -> u64 {
        let e = extend(parts, methods).unwrap();
        let Outcome::Cycle(c) = e.result.outcome else { panic!("{}: {:?}", e.deal, e.result) };
        let a = e.aligned.as_ref().unwrap_or_else(|why| panic!("{}: {why}", e.deal));
        let p = e.predicted.expect("aligned parts");
        assert_eq!(a.period_tricks(), c.period_tricks, "{}", e.deal);
        assert_eq!((a.tail_rounds, a.period_rounds), (p.tail_rounds, p.period_rounds));
        assert_eq!(c.period_tricks, p.period_tricks, "{}", e.deal);
        c.period_tricks
    }

    #[test]
    fn known_cycles_are_aligned() {
        let v4 = aligned::check(&pos(KNOWN_V4), NATURAL).unwrap();
        assert_eq!((v4.tail_rounds, v4.period_rounds, v4.period_tricks()), (0, 4, 24));
        let v6 = aligned::check(&pos(KNOWN_V6), NATURAL).unwrap();
        assert_eq!(v6.tail_rounds, 0);
    }

    #[test]
    fn repeating_multiplies_the_period() {
        for (deal, period) in [(KNOWN_V4, 24), (KNOWN_V6, 0)] {
            let deal = pos(deal);
            let base = verified(std::slice::from_ref(&deal), NATURAL);
            assert!(period == 0 || base == period);
            for k in 1..=6 {
                assert_eq!(verified(&vec![deal.clone(); k], NATURAL), k as u64 * base, "k={k}");
            }
        }
    }

    /// Every even V from 4 to 40, every decomposition 4a + 6b, in both orders of the parts.
    #[test]
    fn every_even_deck_from_4_to_40() {
        for values in (4..=40).step_by(2) {
            let ways = decompositions(values);
            assert!(!ways.is_empty(), "V={values}");
            for split in ways {
                let parts = even_deck(values, Some(split)).unwrap();
                let (_, spec) = concatenate(&parts).unwrap();
                assert_eq!(spec, DeckSpec::new(4, values).unwrap());
                let period = verified(&parts, NATURAL);
                let mut reversed = parts.clone();
                reversed.reverse();
                assert_eq!(verified(&reversed, NATURAL), period, "V={values} reversed");
            }
        }
    }

    #[test]
    fn non_aligned_cycles_do_not_extend() {
        // The C=1 V=5 loop has unequal hands; twice over it is no loop at all.
        let v5 = pos("[5, 3] / [2, 4, 1]");
        let e = extend(&[v5.clone(), v5], NATURAL).unwrap();
        assert!(matches!(e.parts[0], Err(NotAligned::UnequalHands { first: 2, second: 3 })));
        assert!(e.predicted.is_none());
        assert!(e.aligned.is_err());
        // The optimized C=4 V=5 loop has equal hands but is not aligned.
        let opt5 = pos("[3, 1, 5, 4, 3, 2, 4, 3, 3, 2] / [1, 1, 5, 4, 2, 2, 5, 4, 5, 1]");
        let opt = Methods::both(Method::Optimized);
        assert!(matches!(
            play(&opt5, opt, &mut NoRandom, Limits::DETERMINISTIC).outcome,
            Outcome::Cycle(_)
        ));
        let e = extend(&[opt5.clone(), opt5], opt).unwrap();
        assert!(e.parts[0].is_err());
        assert!(e.aligned.is_err());
    }

    #[test]
    fn errors() {
        assert_eq!(concatenate(&[]), Err(ConcatError::Empty));
        assert_eq!(repeat(&pos(KNOWN_V4), 0), Err(ConcatError::Empty));
        let e = concatenate(&[pos(KNOWN_V4), pos("[5, 3] / [2, 4, 1]")]).unwrap_err();
        assert_eq!(e, ConcatError::Colours { index: 1, expected: 4, found: 1 });
        let e = concatenate(&[pos(KNOWN_V4), pos("[1, 1] / [2]")]).unwrap_err().to_string();
        assert!(e.starts_with("deck 2 is not a whole deck"), "{e}");
        let e = repeat(&pos(KNOWN_V4), 17).unwrap_err().to_string();
        assert!(e.contains("too large"), "{e}");
        assert_eq!(
            even_deck(10, Some((1, 2))),
            Err(EvenError::Decomposition { values: 10, a: 1, b: 2 })
        );
        assert_eq!(even_deck(7, None), Err(EvenError::NotEven(7)));
        assert_eq!(even_deck(2, None), Err(EvenError::NotEven(2)));
        // A split whose 4a or 6b wraps around to V is no decomposition of V.
        let wraps = (1usize << 62) + 3;
        let e = even_deck(12, Some((wraps, 0))).unwrap_err();
        assert_eq!(e, EvenError::Decomposition { values: 12, a: wraps, b: 0 });
        assert!(e.to_string().contains("more than 2^64"), "{e}");
        let e = even_deck(12, Some((usize::MAX, 0))).unwrap_err().to_string();
        assert!(e.contains("more than 2^64"), "{e}");
    }
}
