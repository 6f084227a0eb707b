//! Published games, replayed: Casella et al.'s non-terminating game, the article's printing of
//! it (box 1), and the historical longest terminating games.
//!
//! [`checks`] recomputes every published figure with the engine and returns one [`Claim`] per
//! claim: the claim, the published value, the computed value and a [`Status`]. Nothing here is
//! a stored answer: the published figures are data, the computed column comes from
//! [`crate::play()`] at every call.

use std::fmt::Write as _;

pub use bataille_claims::{Claim, Status};

use crate::deck::{Card, DeckSpec, card_char};
use crate::hands::{Hands, Player, format_hand, parse_hand};
use crate::play::{Outcome, play};
use crate::reference::{EndRule, play_naive_rule};

/// A published game and what its source says about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublishedGame {
    /// Short stable name, e.g. `bmn-record-nessler-2022`.
    pub name: &'static str,
    /// Who published it, and where.
    pub source: &'static str,
    /// The first hand (leads), top first, `-JQKA` notation.
    pub first: &'static str,
    /// The second hand.
    pub second: &'static str,
    /// The published result.
    pub claim: PublishedOutcome,
}

/// A published result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PublishedOutcome {
    /// The game ends after this many cards and tricks.
    Ends {
        /// Cards turned.
        cards: u64,
        /// Tricks (piles taken).
        tricks: u64,
    },
    /// The game never ends; its loop has this many tricks.
    Loops {
        /// Tricks in one turn of the loop.
        period_tricks: u64,
    },
}

impl PublishedGame {
    /// The two hands.
    pub fn hands(&self) -> Hands {
        Hands::parse(self.first, self.second).expect("published hands are well formed")
    }
}

/// Casella et al., "A non-terminating game of beggar-my-neighbor" (arXiv 2403.13855, 2024):
/// the first non-terminating game, with a loop of 62 tricks (abstract).
pub const CASELLA: PublishedGame = PublishedGame {
    name: "bmn-casella-2024",
    source: "Casella et al. 2024, arXiv 2403.13855",
    first: "---K---Q-KQAJ-----AAJ--J--",
    second: "----------Q----KQ-J-----KA",
    claim: PublishedOutcome::Loops { period_tricks: 62 },
};

/// The historical longest terminating games of the public record list (the records table of
/// Casella et al. 2024 and R. P. Mann's list), newest first.
pub const RECORDS: [PublishedGame; 3] = [
    PublishedGame {
        name: "bmn-record-nessler-2022",
        source: "Nessler 2022, public record list",
        first: "---AJ--Q---------QAKQJJ-QK",
        second: "-----A----KJ-K--------A---",
        claim: PublishedOutcome::Ends { cards: 8344, tricks: 1164 },
    },
    PublishedGame {
        name: "bmn-record-rucklidge-2014",
        source: "Rucklidge 2014, public record list",
        first: "-J------Q------AAA-----QQ-",
        second: "K----JA-----------KQ-K-JJK",
        claim: PublishedOutcome::Ends { cards: 7959, tricks: 1122 },
    },
    PublishedGame {
        name: "bmn-record-mann-wu-2007",
        source: "Mann & Wu 2007, public record list",
        first: "K-KK----K-A-----JAA--Q--J-",
        second: "---Q---Q-J-----J------AQ--",
        claim: PublishedOutcome::Ends { cards: 7157, tricks: 1007 },
    },
];

/// Casella's hands as the article prints them (box 1), penalty cards written 1 to 4 and
/// numerals 0, exactly as in the text.
pub const ARTICLE_BOX1: [&str; 2] = [
    "[0, 0, 0, 3, 0, 0, 2, 0, 3, 2, 4, 1, 0, 0, 0, 0, 4, 4, 1, 0, 0, 1, 0, 0]",
    "[0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 2, 0, 1, 0, 0, 0, 0, 3, 4]",
];

/// How a printed hand differs from the hand it reproduces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintDiff {
    /// Cards printed.
    pub printed_len: usize,
    /// Cards in the original.
    pub original_len: usize,
    /// Cards of each penalty (numerals first) printed and in the original.
    pub counts: [[usize; 5]; 2],
    /// Whether the printed hand has the original's penalty cards in the same order.
    pub same_penalties: bool,
    /// Where numerals were lost, when the penalty cards agree: for each run of numerals of the
    /// original that is shorter in print, (the run's 0-based index among the runs — run `i`
    /// lies just before the `i`-th penalty card, the last run after the last one — its
    /// 1-based first card in the original, its length there, its length in print).
    pub lost_runs: Vec<LostRun>,
}

/// A run of numerals shortened in print (see [`PrintDiff::lost_runs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LostRun {
    /// Index of the run: run `i` is just before the `i`-th penalty card (0-based); the run after
    /// the last penalty card has the index of the number of penalty cards.
    pub run: usize,
    /// Position of the run's first card in the original hand (1-based).
    pub start: usize,
    /// Numerals in the run in the original.
    pub original: usize,
    /// Numerals in the run in print.
    pub printed: usize,
}

/// Compares a printed hand with the original it stands for.
pub fn compare_printed(printed: &[Card], original: &[Card]) -> PrintDiff {
    let count = |h: &[Card]| {
        let mut c = [0; 5];
        for &x in h {
            c[usize::from(x)] += 1;
        }
        c
    };
    let runs = |h: &[Card]| -> (Vec<usize>, Vec<Card>) {
        let mut gaps = vec![0];
        let mut pens = Vec::new();
        for &x in h {
            if x == 0 {
                *gaps.last_mut().expect("never empty") += 1;
            } else {
                pens.push(x);
                gaps.push(0);
            }
        }
        (gaps, pens)
    };
    let (pg, pp) = runs(printed);
    let (og, op) = runs(original);
    let same_penalties = pp == op;
    let mut lost_runs = Vec::new();
    if same_penalties {
        let mut start = 1;
        for (i, (&o, &p)) in og.iter().zip(&pg).enumerate() {
            if o != p {
                lost_runs.push(LostRun { run: i, start, original: o, printed: p });
            }
            start += o + 1;
        }
    }
    PrintDiff {
        printed_len: printed.len(),
        original_len: original.len(),
        counts: [count(printed), count(original)],
        same_penalties,
        lost_runs,
    }
}

impl PrintDiff {
    /// A sentence: what the print lost, run by run.
    pub fn describe(&self, original: &[Card]) -> String {
        let mut s = format!("{} cards printed instead of {}", self.printed_len, self.original_len);
        let [pc, oc] = self.counts;
        if pc[1..] == oc[1..] {
            let _ = write!(s, ", all {} penalty cards present", oc[1..].iter().sum::<usize>());
        }
        if !self.same_penalties {
            s.push_str(", penalty cards differ");
            return s;
        }
        let lost: usize = self.lost_runs.iter().map(|r| r.original.saturating_sub(r.printed)).sum();
        let _ = write!(s, " in the same order; {lost} numerals lost: ");
        let parts: Vec<String> = self
            .lost_runs
            .iter()
            .map(|r| {
                let end = r.start + r.original - 1;
                let after = if r.run == 0 {
                    "at the top".to_string()
                } else {
                    let k = penalty_position(original, r.run - 1);
                    format!("after the {} at card {k}", card_char(original[k - 1]))
                };
                format!(
                    "the run of {} numerals {after} (cards {}-{end}) is printed as {}",
                    r.original, r.start, r.printed
                )
            })
            .collect();
        s.push_str(&parts.join("; "));
        s
    }
}

/// The 1-based position of the `i`-th (0-based) penalty card of `hand`.
fn penalty_position(hand: &[Card], i: usize) -> usize {
    hand.iter().enumerate().filter(|&(_, &c)| c != 0).nth(i).map_or(0, |(k, _)| k + 1)
}

/// The statuses the checks can take, in the order of their tally.
pub const STATUSES: &[Status] = &[Status::Ok, Status::Misprint, Status::Fail];

/// Replays every published game and returns the checks, in order: Casella's loop, the legality
/// of its deal, the article's printing of it, then the records.
pub fn checks() -> Vec<Claim> {
    let mut out = vec![casella_loop(), casella_deal(), article_box1()];
    out.extend(RECORDS.iter().map(record));
    out
}

fn outcome_text(r: &crate::play::Record) -> String {
    match r.outcome {
        Outcome::Cycle(c) => format!(
            "loop of {} tricks ({} cards) after {} tricks ({} cards)",
            c.period_tricks, c.period_cards, c.tail_tricks, c.tail_cards
        ),
        Outcome::Capped => "capped".to_string(),
        o => format!("{} cards, {} tricks ({} wins)", r.cards, r.tricks, o.name()),
    }
}

fn casella_loop() -> Claim {
    let PublishedOutcome::Loops { period_tricks } = CASELLA.claim else {
        unreachable!("CASELLA loops")
    };
    let r = play(&CASELLA.hands());
    let status = match r.outcome {
        Outcome::Cycle(c) if c.period_tricks == period_tricks => Status::Ok,
        _ => Status::Fail,
    };
    let evidence = match r.outcome {
        Outcome::Cycle(c) => format!(
            "tail {} tricks / {} cards, period {} tricks / {} cards, cycle id {}",
            c.tail_tricks, c.tail_cards, c.period_tricks, c.period_cards, c.id
        ),
        _ => "the game does not loop".to_string(),
    };
    Claim {
        id: "bmn-casella-loop",
        source: CASELLA.source,
        claim: format!("{} / {} never ends", CASELLA.first, CASELLA.second),
        published: format!("loop of {period_tricks} tricks"),
        computed: outcome_text(&r),
        status,
        evidence,
    }
}

fn casella_deal() -> Claim {
    let h = CASELLA.hands();
    let legal = h.check_deck(DeckSpec::STANDARD);
    let computed = match &legal {
        Ok(()) => format!("legal deal: {} + {} cards", h.first().len(), h.second().len()),
        Err(e) => e.to_string(),
    };
    Claim {
        id: "bmn-casella-deal",
        source: CASELLA.source,
        claim: "Casella's hands are a 52-card deal, 26 cards each".to_string(),
        published: "legal deal: 26 + 26 cards".to_string(),
        status: if legal.is_ok() && h.is_deal() { Status::Ok } else { Status::Fail },
        evidence: format!("checked against the deck of {}", DeckSpec::STANDARD),
        computed,
    }
}

fn article_box1() -> Claim {
    let printed = [
        parse_hand(ARTICLE_BOX1[0], Player::First).expect("the article's list parses"),
        parse_hand(ARTICLE_BOX1[1], Player::Second).expect("the article's list parses"),
    ];
    let original = CASELLA.hands();
    let diffs: Vec<PrintDiff> = Player::BOTH
        .iter()
        .map(|&p| compare_printed(&printed[p.index()], original.hand(p)))
        .collect();
    let as_printed = Hands::new(printed[0].clone(), printed[1].clone()).expect("47 cards fit");
    let legality = match as_printed.check_deck(DeckSpec::STANDARD) {
        Ok(()) => "a legal 52-card deal".to_string(),
        Err(e) => e.to_string(),
    };
    let r = play(&as_printed);
    let mut evidence = String::new();
    for (p, d) in Player::BOTH.iter().zip(&diffs) {
        let _ = writeln!(
            evidence,
            "{p} hand: printed {} = {}; Casella's {}: {}.",
            format_hand(&printed[p.index()]),
            ARTICLE_BOX1[p.index()],
            format_hand(original.hand(*p)),
            d.describe(original.hand(*p)),
        );
    }
    let _ = write!(
        evidence,
        "As printed, {legality}. Played anyway (47 cards), the game gives: {}.",
        outcome_text(&r)
    );
    let lost: usize = diffs.iter().map(|d| d.original_len - d.printed_len).sum();
    let explained = diffs.iter().all(|d| {
        d.same_penalties
            && d.counts[0][1..] == d.counts[1][1..]
            && d.lost_runs.iter().all(|r| r.printed < r.original)
    });
    Claim {
        id: "bmn-article-box1-hands",
        source: "article, box 1",
        claim: "the article prints Casella's non-terminating hands".to_string(),
        published: format!("{} + {} cards", printed[0].len(), printed[1].len()),
        computed: format!(
            "{} + {} cards: {lost} numerals lost in print, the 16 penalty cards intact",
            original.first().len(),
            original.second().len()
        ),
        status: if explained { Status::Misprint } else { Status::Fail },
        evidence,
    }
}

fn record(g: &PublishedGame) -> Claim {
    let PublishedOutcome::Ends { cards, tricks } = g.claim else { unreachable!("records end") };
    let h = g.hands();
    let r = play(&h);
    let ok = r.outcome.winner().is_some() && r.cards == cards && r.tricks == tricks;
    let other = play_naive_rule(h.first(), h.second(), u64::MAX, EndRule::MustPlay);
    let ending = if (other.cards, other.tricks) == (r.cards, r.tricks) {
        "the loser had to pay and had no card left, so both end rules agree".to_string()
    } else {
        format!(
            "the loser paid with his last card and the game stops there; counting a last lead \
             by the winner (a player out only when asked to play) would give {} cards, {} tricks",
            other.cards, other.tricks
        )
    };
    Claim {
        id: g.name,
        source: g.source,
        claim: format!("{} / {} ends", g.first, g.second),
        published: format!("{cards} cards, {tricks} tricks"),
        computed: outcome_text(&r),
        status: if ok { Status::Ok } else { Status::Fail },
        evidence: format!(
            "cards: every card turned; tricks: every pile taken, the last included; the game \
             stops when one player holds every card. Here {ending}."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_diff_on_a_small_case() {
        let original = parse_hand("--K---Q-", Player::First).unwrap();
        let printed = parse_hand("-K--Q-", Player::First).unwrap();
        let d = compare_printed(&printed, &original);
        assert!(d.same_penalties);
        assert_eq!(
            d.lost_runs,
            [
                LostRun { run: 0, start: 1, original: 2, printed: 1 },
                LostRun { run: 1, start: 4, original: 3, printed: 2 }
            ]
        );
        assert_eq!(
            d.describe(&original),
            "6 cards printed instead of 8, all 2 penalty cards present in the same order; 2 \
             numerals lost: the run of 2 numerals at the top (cards 1-2) is printed as 1; the \
             run of 3 numerals after the K at card 3 (cards 4-6) is printed as 2"
        );
        let other = compare_printed(&parse_hand("-Q--K-", Player::First).unwrap(), &original);
        assert!(!other.same_penalties && other.lost_runs.is_empty());
    }
}
