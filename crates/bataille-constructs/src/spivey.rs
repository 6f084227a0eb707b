//! Spivey's construction of C = 1 loops (the article's A/B method and its "Généralisation").
//!
//! For V = m·2^k with m odd and m ≥ 5:
//!
//! 1. The **A/B pattern** of m cards: the first player holds n times `[A, B]`, the second n times
//!    `[B, A]` followed by `B` when m = 4n + 1, or n + 1 times `[B, A]` followed by `B` when
//!    m = 4n + 3. In terms of categories (every A above every B) it loops in two tricks: the
//!    hands swap, then swap back.
//! 2. The **insertion step**, applied k times: behind each card of a category put a card of the
//!    next weaker category (`[A, B]` becomes `[A, B, B, C]`). An A against a B is then followed by
//!    a B against a C, so each trick of the old pattern becomes two tricks won by the same
//!    player, who stacks exactly the inserted pair: the new pattern plays the old one at half
//!    speed, with one more category. After k steps there are k + 2 categories and m·2^k cards.
//! 3. A **labelling** gives each category distinct values, every value of a stronger category
//!    above every value of a weaker one. No two cards of a category ever meet, so the game
//!    follows the category loop forever; being deterministic and finite, it loops.
//!
//! [`Plan`] decides whether the construction applies, [`Pattern`] holds the categories,
//! [`Labelling`] and [`Substitution`] turn them into a deal, and [`construct`] does all three.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use bataille_engine::position::quoted;
use bataille_engine::{
    Card, Cycle, DeckSpec, Game, GameResult, Limits, Method, Methods, NoRandom, Outcome, Player,
    Position, PositionError, SpecError, TrickResult, play,
};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The stacking method of the construction. With C = 1 no battle can happen, so natural and
/// optimized stacking are the same game.
pub const METHODS: Methods = Methods { first: Method::Natural, second: Method::Natural };

/// V written as m·2^k with m odd and at least 5: the construction applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    values: usize,
    odd: usize,
    doublings: u32,
}

/// Why the construction does not apply to a V.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotApplicable {
    /// V = 1: a one-card deck ends at the first trick.
    #[error(
        "V=1 is 1·2^0: the construction needs V = m·2^k with m odd and at least 5, and a \
         one-card deck ends at the first trick (the article's wording \"neither 2^k with k ≥ 1 \
         nor 3·2^k\" lets V=1 through; its equivalent form m·2^k with m odd > 3 excludes it)"
    )]
    One,
    /// V = 2^k with k ≥ 1: no odd factor to start the A/B pattern from.
    #[error(
        "V={values} is 2^{k}: the construction needs V = m·2^k with m odd and at least 5, and \
         {values} has no odd factor above 1; whether any C=1 loop exists for V = 2^k is open \
         (the article conjectures none)"
    )]
    PowerOfTwo {
        /// V.
        values: usize,
        /// The exponent.
        k: u32,
    },
    /// V = 3·2^k: the A/B pattern of three cards leaves the first player no card.
    #[error(
        "V={values} is 3·2^{k}: the construction needs V = m·2^k with m odd and at least 5, and \
         here m = 3, for which the A/B pattern gives the first player no card; whether any C=1 \
         loop exists for V = 3·2^k is open (the article conjectures none)"
    )]
    ThreeTimesPowerOfTwo {
        /// V.
        values: usize,
        /// The exponent.
        k: u32,
    },
}

/// Why no plan could be made for a V.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// V is not a deck size the engine plays (0, or more than 255).
    #[error("V={values} is not a valid number of values: {source}")]
    Deck {
        /// The V asked for.
        values: usize,
        /// The engine's reason.
        source: SpecError,
    },
    /// V is a valid deck size outside the theorem's range.
    #[error(transparent)]
    NotApplicable(#[from] NotApplicable),
}

impl Plan {
    /// Factors `values` as m·2^k, m odd ≥ 5.
    ///
    /// ```
    /// use bataille_constructs::spivey::{NotApplicable, Plan, PlanError};
    /// let plan = Plan::new(18).unwrap();
    /// assert_eq!((plan.odd(), plan.doublings(), plan.categories()), (9, 1, 3));
    /// assert_eq!(Plan::new(12), Err(PlanError::NotApplicable(
    ///     NotApplicable::ThreeTimesPowerOfTwo { values: 12, k: 2 })));
    /// ```
    pub fn new(values: usize) -> Result<Plan, PlanError> {
        DeckSpec::new(1, values).map_err(|source| PlanError::Deck { values, source })?;
        let k = values.trailing_zeros();
        let odd = values >> k;
        match odd {
            1 if k == 0 => Err(NotApplicable::One.into()),
            1 => Err(NotApplicable::PowerOfTwo { values, k }.into()),
            3 => Err(NotApplicable::ThreeTimesPowerOfTwo { values, k }.into()),
            _ => Ok(Plan { values, odd, doublings: k }),
        }
    }

    /// V.
    pub fn values(self) -> usize {
        self.values
    }

    /// m, the odd part of V (at least 5).
    pub fn odd(self) -> usize {
        self.odd
    }

    /// k, the number of insertion steps.
    pub fn doublings(self) -> u32 {
        self.doublings
    }

    /// The number of categories, k + 2.
    pub fn categories(self) -> usize {
        self.doublings as usize + 2
    }
}

/// Two hands of categories, top card first. Category 0 is `A`, the strongest.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pattern {
    hands: [Vec<u8>; 2],
    categories: usize,
}

/// The letter of category `c` (0 is `A`).
pub fn letter(c: usize) -> char {
    char::from(b'A' + c as u8)
}

impl Pattern {
    /// The A/B pattern of `m` cards, `m` odd and at least 5 (see the module docs).
    ///
    /// ```
    /// use bataille_constructs::spivey::Pattern;
    /// assert_eq!(Pattern::two_categories(9).to_string(), "[A, B, A, B] / [B, A, B, A, B]");
    /// assert_eq!(Pattern::two_categories(7).to_string(), "[A, B] / [B, A, B, A, B]");
    /// ```
    pub fn two_categories(m: usize) -> Pattern {
        assert!(m % 2 == 1 && m >= 5, "the A/B pattern needs an odd m >= 5, got {m}");
        let (a, b) = (0, 1);
        let n = m / 4;
        // m = 4n + 1: n times [B, A] then B; m = 4n + 3: n + 1 times [B, A] then B.
        let second_pairs = if m % 4 == 1 { n } else { n + 1 };
        let first = [a, b].repeat(n);
        let mut second = [b, a].repeat(second_pairs);
        second.push(b);
        debug_assert_eq!(first.len() + second.len(), m);
        Pattern { hands: [first, second], categories: 2 }
    }

    /// The insertion step: behind each card of category c a card of category c + 1 (a new,
    /// weakest category behind the cards of the old weakest one).
    ///
    /// ```
    /// use bataille_constructs::spivey::Pattern;
    /// let abc = Pattern::two_categories(9).inserted();
    /// assert_eq!(abc.to_string(),
    ///     "[A, B, B, C, A, B, B, C] / [B, C, A, B, B, C, A, B, B, C]");
    /// ```
    pub fn inserted(&self) -> Pattern {
        let step = |h: &[u8]| h.iter().flat_map(|&c| [c, c + 1]).collect();
        Pattern {
            hands: [step(&self.hands[0]), step(&self.hands[1])],
            categories: self.categories + 1,
        }
    }

    /// The pattern of `plan`: the A/B pattern of m cards, then k insertion steps.
    pub fn of_plan(plan: Plan) -> Pattern {
        let mut p = Pattern::two_categories(plan.odd());
        for _ in 0..plan.doublings() {
            p = p.inserted();
        }
        p
    }

    /// The categories of `player`'s hand, top first.
    pub fn hand(&self, player: Player) -> &[u8] {
        &self.hands[player.index()]
    }

    /// The number of categories.
    pub fn categories(&self) -> usize {
        self.categories
    }

    /// The number of cards.
    pub fn cards(&self) -> usize {
        self.hands[0].len() + self.hands[1].len()
    }

    /// How many cards each category holds, strongest first.
    pub fn counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.categories];
        for &c in self.hands.iter().flatten() {
            counts[usize::from(c)] += 1;
        }
        counts
    }

    /// The values each category takes in any labelling: the strongest category the highest
    /// values, and so on down to 1.
    pub fn ranges(&self) -> Vec<RangeInclusive<Card>> {
        let mut high = self.cards();
        self.counts()
            .into_iter()
            .map(|n| {
                let r = (high + 1 - n) as Card..=high as Card;
                high -= n;
                r
            })
            .collect()
    }

    /// The category game as a position: category c is played as the value
    /// `categories - c` (several cards share a value).
    pub fn category_game(&self) -> Position {
        let value =
            |h: &[u8]| h.iter().map(|&c| (self.categories - usize::from(c)) as Card).collect();
        Position::new(value(&self.hands[0]), value(&self.hands[1])).expect("at most 255 cards")
    }

    /// Plays the category game. The loop is returned only if no two cards of the same
    /// category ever met (a tie would not be the category game the construction relies on).
    pub fn category_loop(&self) -> Option<Cycle> {
        let r = play(&self.category_game(), METHODS, &mut NoRandom, Limits::DETERMINISTIC);
        match r.outcome {
            Outcome::Cycle(c) if r.cards == r.tricks => Some(c),
            _ => None,
        }
    }

    /// Replaces each category by values, as `labelling` says.
    pub fn label(&self, labelling: &Labelling) -> Result<(Position, Substitution), LabelError> {
        let substitution = match labelling {
            Labelling::Descending => Substitution {
                values: self.ranges().into_iter().map(|r| r.rev().collect()).collect(),
            },
            Labelling::Ascending => {
                Substitution { values: self.ranges().into_iter().map(|r| r.collect()).collect() }
            }
            Labelling::Random { seed } => {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(*seed);
                let values = self
                    .ranges()
                    .into_iter()
                    .map(|r| {
                        let mut v: Vec<Card> = r.collect();
                        v.shuffle(&mut rng);
                        v
                    })
                    .collect();
                Substitution { values }
            }
            Labelling::Given(s) => {
                self.check_substitution(s)?;
                s.clone()
            }
        };
        let mut next = vec![0; self.categories];
        let mut take = |h: &[u8]| -> Vec<Card> {
            h.iter()
                .map(|&c| {
                    let c = usize::from(c);
                    next[c] += 1;
                    substitution.values[c][next[c] - 1]
                })
                .collect()
        };
        let first = take(&self.hands[0]);
        let second = take(&self.hands[1]);
        let deal = Position::new(first, second).expect("at most 255 cards");
        Ok((deal, substitution))
    }

    fn check_substitution(&self, s: &Substitution) -> Result<(), LabelError> {
        if s.values.len() != self.categories {
            return Err(LabelError::Categories {
                expected: self.categories,
                found: s.values.len(),
            });
        }
        for (c, (given, range)) in s.values.iter().zip(self.ranges()).enumerate() {
            let mut sorted = given.clone();
            sorted.sort_unstable();
            if sorted != range.clone().collect::<Vec<_>>() {
                return Err(LabelError::Values {
                    category: letter(c),
                    count: range.len(),
                    low: *range.start(),
                    high: *range.end(),
                    given: given.clone(),
                });
            }
        }
        Ok(())
    }

    /// Reads `deal` as a labelling of this pattern: the substitution it uses, or where it
    /// departs from the pattern. The deal must hold the values 1 to N once each.
    ///
    /// ```
    /// use bataille_constructs::spivey::{Pattern, Plan};
    /// let pattern = Pattern::of_plan(Plan::new(9).unwrap());
    /// let s = pattern.read(&"[9, 1, 6, 2] / [5, 8, 4, 7, 3]".parse().unwrap()).unwrap();
    /// assert_eq!(s.to_string(), "A = 9, 6, 8, 7; B = 1, 2, 5, 4, 3");
    /// ```
    pub fn read(&self, deal: &Position) -> Result<Substitution, LabelError> {
        let spec = DeckSpec::new(1, self.cards()).expect("a pattern has at most 255 cards");
        deal.check_deck(spec).map_err(LabelError::Deck)?;
        let shape = [self.hands[0].len(), self.hands[1].len()];
        if [deal.first().len(), deal.second().len()] != shape {
            return Err(LabelError::Shape {
                expected: shape,
                found: [deal.first().len(), deal.second().len()],
            });
        }
        let ranges = self.ranges();
        let category = |v: Card| ranges.iter().position(|r| r.contains(&v)).expect("1..=N");
        let mut values = vec![Vec::new(); self.categories];
        for player in [Player::First, Player::Second] {
            for (index, (&v, &c)) in deal.hand(player).iter().zip(self.hand(player)).enumerate() {
                let found = category(v);
                if found != usize::from(c) {
                    return Err(LabelError::Mismatch {
                        player,
                        index,
                        value: v,
                        expected: letter(usize::from(c)),
                        found: letter(found),
                    });
                }
                values[found].push(v);
            }
        }
        Ok(Substitution { values })
    }
}

impl fmt::Display for Pattern {
    /// `[A, B, A, B] / [B, A, B, A, B]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |h: &[u8]| {
            h.iter().map(|&c| letter(usize::from(c)).to_string()).collect::<Vec<_>>().join(", ")
        };
        write!(f, "[{}] / [{}]", show(&self.hands[0]), show(&self.hands[1]))
    }
}

/// The values given to each category, strongest category first, each in reading order (the
/// first hand top to bottom, then the second).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Substitution {
    values: Vec<Vec<Card>>,
}

impl Substitution {
    /// The values of each category, strongest first, in reading order.
    pub fn values(&self) -> &[Vec<Card>] {
        &self.values
    }
}

impl fmt::Display for Substitution {
    /// `A = 9, 6, 8, 7; B = 1, 2, 5, 4, 3` (also the accepted input form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (c, vals) in self.values.iter().enumerate() {
            if c > 0 {
                f.write_str("; ")?;
            }
            let shown: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
            write!(f, "{} = {}", letter(c), shown.join(", "))?;
        }
        Ok(())
    }
}

/// A substitution that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read the substitution {}: {why}", quoted(.text))]
pub struct SubstitutionParseError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub why: String,
}

impl FromStr for Substitution {
    type Err = SubstitutionParseError;

    /// Reads `A = 9, 6, 8, 7; B = 1, 2, 5, 4, 3` or `A=9,6,8,7 B=1,2,5,4,3`: a letter starts
    /// a category (A, B, C, ... in order), the numbers after it are its values in reading order.
    fn from_str(text: &str) -> Result<Substitution, SubstitutionParseError> {
        let err = |why: String| SubstitutionParseError { text: text.to_string(), why };
        let mut values: Vec<Vec<Card>> = Vec::new();
        let tokens = text
            .split(|c: char| c == ',' || c == ';' || c == '=' || c.is_whitespace())
            .filter(|t| !t.is_empty());
        for token in tokens {
            let first = token.chars().next().expect("non-empty");
            if first.is_ascii_alphabetic() {
                let expected = letter(values.len());
                if token.len() != 1 || first.to_ascii_uppercase() != expected {
                    return Err(err(format!("expected category {expected}, got {token:?}")));
                }
                values.push(Vec::new());
            } else {
                let Some(current) = values.last_mut() else {
                    return Err(err(format!("{token:?} comes before the first category letter")));
                };
                match token.parse::<u16>() {
                    Ok(v) if (1..=255).contains(&v) => current.push(v as Card),
                    _ => return Err(err(format!("{token:?} is not a card value from 1 to 255"))),
                }
            }
        }
        if values.is_empty() {
            return Err(err("no category given".to_string()));
        }
        Ok(Substitution { values })
    }
}

/// How the categories are replaced by values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Labelling {
    /// In reading order, each category's values from its highest down. For V = 18 this is the
    /// article's deal `[18, 14, 13, 5, 17, 12, 11, 4] / [10, 3, 16, 9, 8, 2, 15, 7, 6, 1]`.
    Descending,
    /// In reading order, each category's values from its lowest up.
    Ascending,
    /// Each category's values shuffled by a generator seeded with `seed`.
    Random {
        /// The seed.
        seed: u64,
    },
    /// An explicit substitution.
    Given(Substitution),
}

/// Why a labelling does not fit a pattern, or a deal does not follow it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    /// The substitution names another number of categories.
    #[error("the pattern has {expected} categories, the substitution gives {found}")]
    Categories {
        /// Categories of the pattern.
        expected: usize,
        /// Categories given.
        found: usize,
    },
    /// A category is not given exactly its values.
    #[error(
        "category {category} must take the {count} values {low} to {high}, each once (every value \
         of a stronger category above every value of a weaker one), got {given:?}"
    )]
    Values {
        /// The category.
        category: char,
        /// How many cards it has.
        count: usize,
        /// Its lowest value.
        low: Card,
        /// Its highest value.
        high: Card,
        /// The values given.
        given: Vec<Card>,
    },
    /// The deal is not the C = 1 deck of the pattern's size.
    #[error("{0}")]
    Deck(PositionError),
    /// The hands are not the pattern's lengths.
    #[error(
        "the pattern's hands hold {} and {} cards, the deal's {} and {}",
        expected[0], expected[1], found[0], found[1]
    )]
    Shape {
        /// The pattern's hand lengths.
        expected: [usize; 2],
        /// The deal's.
        found: [usize; 2],
    },
    /// A card is of the wrong category.
    #[error(
        "card {} of the {} hand is {value}, a {found}, where the pattern has a {expected}",
        index + 1, if *player == Player::First { "first" } else { "second" }
    )]
    Mismatch {
        /// Whose hand.
        player: Player,
        /// 0-based index from the top.
        index: usize,
        /// The card.
        value: Card,
        /// The pattern's category there.
        expected: char,
        /// The card's category.
        found: char,
    },
}

/// Why no construction was made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpiveyError {
    /// No plan for this V.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// The labelling does not fit.
    #[error(transparent)]
    Label(#[from] LabelError),
}

/// A deal built by Spivey's method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Construction {
    /// How V factors.
    pub plan: Plan,
    /// The category pattern.
    pub pattern: Pattern,
    /// The values given to the categories.
    pub substitution: Substitution,
    /// The deal (often an unequal split: see [`Position::is_deal`]).
    pub deal: Position,
}

impl Construction {
    /// Plays the deal with natural stacking (the same as optimized for C = 1).
    pub fn play(&self) -> GameResult {
        play(&self.deal, METHODS, &mut NoRandom, Limits::DETERMINISTIC)
    }

    /// The period predicted without looking for a repeat. Which card wins a trick depends only
    /// on the categories, so the category game moves every card: after one turn of the category
    /// loop (2^(k+1) tricks) the card in each slot (reading order) has moved to a slot of its
    /// category by a permutation π that depends on the pattern alone. The deal comes back after
    /// exactly ord(π) turns (not earlier: the categories come back only at multiples of their
    /// period). So every labelling of a pattern has the same period.
    pub fn predicted_period(&self) -> PredictedPeriod {
        let category_tricks = 2u64 << self.plan.doublings();
        let mut g = Game::new(&self.deal);
        for _ in 0..category_tricks {
            let t = g.trick(METHODS, &mut NoRandom);
            debug_assert!(matches!(t.result, TrickResult::Taken(_)));
        }
        let after = g.to_position();
        debug_assert_eq!(
            [after.first().len(), after.second().len()],
            [self.deal.first().len(), self.deal.second().len()]
        );
        // slot_of[v] = the slot (reading order) where value v now lies.
        let read =
            |p: &Position| -> Vec<Card> { p.first().iter().chain(p.second()).copied().collect() };
        let (before, now) = (read(&self.deal), read(&after));
        let mut slot_of = vec![0usize; before.len() + 1];
        for (i, &v) in now.iter().enumerate() {
            slot_of[usize::from(v)] = i;
        }
        let mut seen = vec![false; before.len()];
        let mut order: u128 = 1;
        for start in 0..before.len() {
            let mut len: u128 = 0;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                len += 1;
                i = slot_of[usize::from(before[i])];
            }
            if len > 0 {
                order = order / gcd(order, len) * len;
            }
        }
        PredictedPeriod { category_tricks, order }
    }
}

/// The period of a construction predicted from its category loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PredictedPeriod {
    /// Tricks in one turn of the category loop, 2^(k+1).
    pub category_tricks: u64,
    /// The order of the permutation of values after one turn of the category loop.
    pub order: u128,
}

impl PredictedPeriod {
    /// Tricks in one turn of the loop: `category_tricks · order`.
    pub fn tricks(self) -> u128 {
        u128::from(self.category_tricks) * self.order
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Builds the deal for `values` labelled by `labelling`.
///
/// ```
/// use bataille_constructs::spivey::{construct, Labelling};
/// use bataille_engine::Outcome;
/// let c = construct(18, &Labelling::Descending).unwrap();
/// assert_eq!(c.deal.to_string(),
///     "[18, 14, 13, 5, 17, 12, 11, 4] / [10, 3, 16, 9, 8, 2, 15, 7, 6, 1]");
/// let Outcome::Cycle(cycle) = c.play().outcome else { panic!("Spivey's deals loop") };
/// assert_eq!(cycle.period_tricks, 360);
/// ```
pub fn construct(values: usize, labelling: &Labelling) -> Result<Construction, SpiveyError> {
    let plan = Plan::new(values)?;
    let pattern = Pattern::of_plan(plan);
    let (deal, substitution) = pattern.label(labelling)?;
    Ok(Construction { plan, pattern, substitution, deal })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cycle(r: &GameResult) -> Cycle {
        match r.outcome {
            Outcome::Cycle(c) => c,
            o => panic!("expected a loop, got {o:?}"),
        }
    }

    #[test]
    fn plans() {
        let check = |v: usize, expected: Result<(usize, u32), &str>| {
            let got = Plan::new(v).map(|p| (p.odd(), p.doublings())).map_err(|e| e.to_string());
            match (got, expected) {
                (Ok(g), Ok(e)) => assert_eq!(g, e, "V={v}"),
                (Err(g), Err(e)) => assert!(g.contains(e), "V={v}: {g}"),
                (g, e) => panic!("V={v}: {g:?} vs {e:?}"),
            }
        };
        check(0, Err("V=0 is not a valid number of values"));
        check(256, Err("V=256 is not a valid number of values"));
        check(1, Err("V=1 is 1·2^0"));
        check(2, Err("V=2 is 2^1"));
        check(3, Err("V=3 is 3·2^0"));
        check(5, Ok((5, 0)));
        check(10, Ok((5, 1)));
        check(12, Err("V=12 is 3·2^2"));
        check(128, Err("V=128 is 2^7"));
        check(160, Ok((5, 5)));
        check(192, Err("V=192 is 3·2^6"));
        check(255, Ok((255, 0)));
        // The plan exists exactly when V is neither 2^k (k >= 1) nor 3·2^k nor 1.
        for v in 1..=255usize {
            let excluded =
                v == 1 || v.is_power_of_two() || (v % 3 == 0 && (v / 3).is_power_of_two());
            assert_eq!(Plan::new(v).is_ok(), !excluded, "V={v}");
        }
    }

    #[test]
    fn ab_patterns_follow_the_article() {
        // m = 4n + 1: n times [B, A] then B; m = 4n + 3: n + 1 times [B, A] then B.
        let check = |m: usize, expected: &str| {
            assert_eq!(Pattern::two_categories(m).to_string(), expected, "m={m}");
        };
        check(5, "[A, B] / [B, A, B]");
        check(7, "[A, B] / [B, A, B, A, B]");
        check(9, "[A, B, A, B] / [B, A, B, A, B]");
        check(11, "[A, B, A, B] / [B, A, B, A, B, A, B]");
    }

    #[test]
    fn every_pattern_is_a_category_loop_of_two_to_the_k_plus_1_tricks() {
        for v in 5..=255 {
            let Ok(plan) = Plan::new(v) else { continue };
            let p = Pattern::of_plan(plan);
            assert_eq!(p.cards(), v);
            assert_eq!(p.categories(), plan.categories());
            let c = p.category_loop().unwrap_or_else(|| panic!("V={v}: {p}"));
            assert_eq!(c.tail_tricks, 0, "V={v}");
            assert_eq!(c.period_tricks, 2 << plan.doublings(), "V={v}");
        }
    }

    /// Every V from 5 to 200 where the construction applies, with the default labelling: the
    /// engine finds the deal on a loop (tail 0), of the period predicted by the category loop
    /// and the permutation of slots. A random labelling has the same predicted period, and the
    /// engine confirms it wherever that takes under 2^16 tricks.
    #[test]
    fn every_qualifying_v_from_5_to_200_loops() {
        let mut built = 0;
        let mut random_played = 0;
        for v in 5..=200 {
            if Plan::new(v).is_err() {
                continue;
            }
            let c = construct(v, &Labelling::Descending).unwrap();
            let predicted = c.predicted_period().tricks();
            let cy = cycle(&c.play());
            assert_eq!(cy.tail_tricks, 0, "V={v}");
            assert_eq!(u128::from(cy.period_tricks), predicted, "V={v}");
            assert_eq!(cy.period_cards, cy.period_tricks, "C=1 has no battle");
            let r = construct(v, &Labelling::Random { seed: v as u64 }).unwrap();
            assert_ne!(r.deal, c.deal, "V={v}");
            assert_eq!(r.predicted_period().tricks(), predicted, "V={v}");
            if predicted < 1 << 16 {
                let cy = cycle(&r.play());
                assert_eq!((cy.tail_tricks, u128::from(cy.period_tricks)), (0, predicted), "V={v}");
                random_played += 1;
            }
            built += 1;
        }
        // 196 values, less 2^k (k = 3..7: 5 of them) and 3·2^k (k = 1..6: 6 of them).
        assert_eq!(built, 196 - 5 - 6);
        assert!(random_played * 2 > built, "{random_played} of {built} random labellings played");
    }

    /// For V = 5 and 9 the A/B pattern is a deal split, and the deals lying on a loop are
    /// exactly its labellings (12 = 2!·3! and 2880 = 4!·5!): every position of the deal split
    /// is played by the engine.
    #[test]
    fn for_v_5_and_9_the_deals_on_a_loop_are_the_ab_labellings() {
        for (v, labellings) in [(5, 12), (9, 2880)] {
            let pattern = Pattern::of_plan(Plan::new(v).unwrap());
            let (mut on_loop, mut following) = (0, 0);
            for r in 0..crate::positions::positions(v) {
                let p = crate::positions::unrank(v, r);
                if !p.is_deal() {
                    continue;
                }
                let follows = pattern.read(&p).is_ok();
                following += u32::from(follows);
                let r = play(&p, METHODS, &mut NoRandom, Limits::DETERMINISTIC);
                if matches!(r.outcome, Outcome::Cycle(c) if c.tail_tricks == 0) {
                    on_loop += 1;
                    assert!(follows, "V={v}: {p} lies on a loop but does not follow {pattern}");
                }
            }
            assert_eq!((on_loop, following), (labellings, labellings), "V={v}");
        }
    }

    #[test]
    fn counts_and_ranges() {
        let p = Pattern::of_plan(Plan::new(18).unwrap());
        assert_eq!(p.counts(), vec![4, 9, 5]);
        assert_eq!(p.ranges(), vec![15..=18, 6..=14, 1..=5]);
    }

    #[test]
    fn article_v18_deal_is_the_descending_labelling() {
        let deal: Position =
            "[18, 14, 13, 5, 17, 12, 11, 4] / [10, 3, 16, 9, 8, 2, 15, 7, 6, 1]".parse().unwrap();
        let c = construct(18, &Labelling::Descending).unwrap();
        assert_eq!(
            c.pattern.to_string(),
            "[A, B, B, C, A, B, B, C] / [B, C, A, B, B, C, A, B, B, C]"
        );
        assert_eq!(c.deal, deal);
        // Reading the article's deal against the pattern gives back the same substitution.
        assert_eq!(c.pattern.read(&deal).unwrap(), c.substitution);
        assert_eq!(
            c.substitution.to_string(),
            "A = 18, 17, 16, 15; B = 14, 13, 12, 11, 10, 9, 8, 7, 6; C = 5, 4, 3, 2, 1"
        );
        let cy = cycle(&c.play());
        assert_eq!((cy.tail_tricks, cy.period_tricks), (0, 360));
        assert_eq!(c.predicted_period(), PredictedPeriod { category_tricks: 4, order: 90 });
    }

    #[test]
    fn article_v9_deal_is_a_labelling_of_the_ab_pattern() {
        let deal: Position = "[9, 1, 6, 2] / [5, 8, 4, 7, 3]".parse().unwrap();
        let pattern = Pattern::of_plan(Plan::new(9).unwrap());
        let s = pattern.read(&deal).unwrap();
        let c = construct(9, &Labelling::Given(s)).unwrap();
        assert_eq!(c.deal, deal);
        let cy = cycle(&c.play());
        assert_eq!((cy.tail_tricks, cy.period_tricks), (0, 20));
        // The article's V=5 deal is a labelling of the V=5 pattern too.
        let v5: Position = "[5, 3] / [2, 4, 1]".parse().unwrap();
        assert!(Pattern::of_plan(Plan::new(5).unwrap()).read(&v5).is_ok());
    }

    #[test]
    fn read_errors() {
        let pattern = Pattern::of_plan(Plan::new(9).unwrap());
        let err = |text: &str| pattern.read(&text.parse().unwrap()).unwrap_err().to_string();
        assert!(
            err("[9, 8, 6, 2] / [5, 1, 4, 7, 3]").contains("card 2 of the first hand is 8, a A")
        );
        assert!(err("[9, 1, 6] / [2, 5, 8, 4, 7, 3]").contains("hands hold 4 and 5 cards"));
        assert!(err("[9, 1, 6, 2] / [5, 8, 4, 7, 10]").contains("value 10"));
    }

    #[test]
    fn substitutions() {
        let s: Substitution = "A=9,6,8,7 B=1,2,5,4,3".parse().unwrap();
        assert_eq!(s.to_string(), "A = 9, 6, 8, 7; B = 1, 2, 5, 4, 3");
        assert_eq!(s.to_string().parse::<Substitution>().unwrap(), s);
        for (bad, needle) in [
            ("", "no category"),
            ("9, 6", "before the first category"),
            ("A=9 C=1", "expected category B"),
            ("A=9,4x", "\"4x\" is not a card"),
            ("A=9,x", "expected category B, got \"x\""),
            ("A=9,300", "\"300\" is not a card"),
        ] {
            let e = bad.parse::<Substitution>().unwrap_err().to_string();
            assert!(e.contains(needle), "{bad:?}: {e}");
        }
        let p = Pattern::of_plan(Plan::new(9).unwrap());
        let label = |t: &str| p.label(&Labelling::Given(t.parse().unwrap())).map(|x| x.0);
        assert!(matches!(
            label("A=9,8,7,6"),
            Err(LabelError::Categories { expected: 2, found: 1 })
        ));
        let e = label("A=9,8,7,5 B=6,4,3,2,1").unwrap_err().to_string();
        assert!(e.contains("category A must take the 4 values 6 to 9"), "{e}");
        let e = label("A=9,8,7,6 B=5,4,3,2").unwrap_err().to_string();
        assert!(e.contains("category B must take the 5 values 1 to 5"), "{e}");
    }

    #[test]
    fn labellings_are_labellings_and_random_is_seeded() {
        let p = Pattern::of_plan(Plan::new(40).unwrap());
        for l in [
            Labelling::Descending,
            Labelling::Ascending,
            Labelling::Random { seed: 1 },
            Labelling::Random { seed: 2 },
        ] {
            let (deal, s) = p.label(&l).unwrap();
            assert_eq!(p.read(&deal).unwrap(), s, "{l:?}");
        }
        let a = p.label(&Labelling::Random { seed: 7 }).unwrap();
        assert_eq!(a, p.label(&Labelling::Random { seed: 7 }).unwrap());
        assert_ne!(a, p.label(&Labelling::Random { seed: 8 }).unwrap());
    }
}
