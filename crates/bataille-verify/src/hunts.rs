//! Claims read from the committed results of the exhaustive hunts, set against the public C++
//! explorer's logs (github.com/legrosbuffle/bataille_cpp, `results/c4v4.txt`,
//! `results/c4v5.txt`, `results/c4v5_opt.txt`).
//!
//! The hunts take hours of CPU; their merged `state.txt` (checksummed) is committed, so these
//! claims check them in a moment: the state covers every deal up to the player swap, its longest
//! games replay to the lengths it records, and the explorer's figures are recomputed from it.
//! The explorer walks the first half of the lexicographic list of arrangements, which plays some
//! deals twice and others never; its count of looping deals is recomputed by walking our list
//! of looping deals the same way ([`Arrangements::orders_ranked_below`]). This module does no
//! I/O: the caller reads the state file.

use bataille_cycles::ancestors::{self, Keep};
use bataille_engine::backward::Bounds;
use bataille_engine::{DeckSpec, Limits, Method, Methods, NoRandom, Outcome, Position, play};
use bataille_search::arrangement::Arrangements;
use bataille_search::state::State;
use bataille_search::stats::Record;

use crate::{Claim, Status};

/// What the C++ explorer's log of one exhaustive run states.
#[derive(Debug, Clone, Copy)]
pub struct PeerLog {
    /// The log file in the explorer's repository.
    pub file: &'static str,
    /// The source column of its claims.
    pub source: &'static str,
    /// Arrangements played (the log's "after N").
    pub played: u128,
    /// Looping arrangements among them (the log's "N loops found").
    pub looping: u64,
    /// The longest game, in tricks (the log's "longest game (L)").
    pub longest_tricks: u64,
    /// That game's deal, in our notation (the log's `cartes_joueur1` / `cartes_joueur2`).
    pub longest_deal: &'static str,
}

/// A committed exhaustive hunt and the explorer's log of the same deck and method.
#[derive(Debug, Clone, Copy)]
pub struct CommittedHunt {
    /// A short name, e.g. `c4v5-natural`.
    pub name: &'static str,
    /// The ids of its claims: every deal once, the explorer's looping count, the longest game,
    /// and (for a hunt with loops) its looping deals walked back from the loops.
    pub ids: [&'static str; 4],
    /// The merged state, relative to the repository root.
    pub state: &'static str,
    /// The command that recomputes it.
    pub command: &'static str,
    /// Colours.
    pub colours: usize,
    /// Values.
    pub values: usize,
    /// The method of both players.
    pub method: Method,
    /// The explorer's figures.
    pub peer: PeerLog,
}

/// The committed exhaustive hunts this module checks.
pub const COMMITTED_HUNTS: [CommittedHunt; 3] = [
    CommittedHunt {
        name: "c4v4-natural",
        ids: [
            "c4v4-natural-deals",
            "c4v4-natural-looping",
            "c4v4-natural-longest",
            "c4v4-natural-ancestors",
        ],
        state: "results/hunts/c4v4-natural/state.txt",
        command: "bataille hunt -c 4 -v 4 --exhaustive --out results/hunts/c4v4-natural",
        colours: 4,
        values: 4,
        method: Method::Natural,
        peer: PeerLog {
            file: "results/c4v4.txt",
            source: "C++ explorer's log, results/c4v4.txt",
            played: 31_531_501,
            looping: 8235,
            longest_tricks: 145,
            longest_deal: "[1,3,2,2,1,2,1,4] / [4,4,3,4,1,2,3,3]",
        },
    },
    CommittedHunt {
        name: "c4v5-natural",
        ids: [
            "c4v5-natural-deals",
            "c4v5-natural-looping",
            "c4v5-natural-longest",
            "c4v5-natural-ancestors",
        ],
        state: "results/hunts/c4v5-natural-exhaustive/merged/state.txt",
        command: "scripts/c4v5-exhaustive.sh natural, then bataille merge",
        colours: 4,
        values: 5,
        method: Method::Natural,
        peer: PeerLog {
            file: "results/c4v5.txt",
            source: "C++ explorer's log, results/c4v5.txt",
            played: 152_770_117_500,
            looping: 0,
            longest_tricks: 453,
            longest_deal: "[1,1,1,2,1,5,3,4,4,5] / [2,3,5,3,4,5,2,3,4,2]",
        },
    },
    CommittedHunt {
        name: "c4v5-optimized",
        ids: [
            "c4v5-optimized-deals",
            "c4v5-optimized-looping",
            "c4v5-optimized-longest",
            "c4v5-optimized-ancestors",
        ],
        state: "results/hunts/c4v5-optimized-exhaustive/merged/state.txt",
        command: "scripts/c4v5-exhaustive.sh optimized, then bataille merge",
        colours: 4,
        values: 5,
        method: Method::Optimized,
        peer: PeerLog {
            file: "results/c4v5_opt.txt",
            source: "C++ explorer's log, results/c4v5_opt.txt",
            played: 152_770_117_500,
            looping: 18_433,
            longest_tricks: 316,
            longest_deal: "[1,1,4,1,3,4,1,2,2,5] / [5,3,5,4,3,5,3,2,4,2]",
        },
    },
];

/// A deal of the state (both hands, the first player's first) in the engine's notation.
fn position(deal: &[u8]) -> Option<Position> {
    let h = deal.len() / 2;
    Position::new(deal[..h].to_vec(), deal[h..].to_vec()).ok()
}

/// `n` with thousands separators.
fn group(n: u128) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The tricks and cards of a deal replayed by the engine, when it finishes.
fn replay(deal: &Position, methods: Methods) -> Option<(u64, u64)> {
    let r = play(deal, methods, &mut NoRandom, Limits::DETERMINISTIC);
    r.outcome.is_finished().then_some((r.tricks, r.cards))
}

/// The claims of `hunt` checked against its merged `state` (read and decoded by the caller).
pub fn hunt_claims(hunt: &CommittedHunt, state: &State) -> Vec<Claim> {
    let spec = DeckSpec::new(hunt.colours, hunt.values).expect("a valid deck");
    let deck = format!("C={} V={} {}", hunt.colours, hunt.values, hunt.method);
    let methods = Methods::both(hunt.method);
    let arrangements = Arrangements::new(&spec.sorted_deck());
    let total = arrangements.count().expect("a countable deck");
    let classes = arrangements.swap_classes().expect("a countable deck");
    let stats = &state.stats;
    let peer = hunt.peer;
    let ours = format!("{} ({})", hunt.state, hunt.command);
    let mut out = Vec::new();
    let mut ids = hunt.ids.into_iter();
    let mut claim = |source: &'static str,
                     claim: String,
                     published: String,
                     computed: String,
                     status: Status,
                     evidence: String| {
        out.push(Claim {
            id: ids.next().expect("four claims"),
            source,
            claim,
            published,
            computed,
            status,
            evidence,
        });
    };

    // 1. Every deal once up to the player swap.
    let game = format!("bataille {deck}");
    let same_game = state.key.game == game;
    let complete = same_game && state.is_complete();
    let ok = complete && u128::from(stats.deals) == classes;
    claim(
        "the deal count (arrangements + s) / 2, as published",
        format!("the exhaustive {deck} hunt plays every deal once up to the player swap"),
        group(classes),
        format!("{}{}", group(stats.deals.into()), if complete { "" } else { " (incomplete)" }),
        if ok { Status::Ok } else { Status::Fail },
        format!(
            "{ours}: {} of {} units done, game {:?}",
            state.done.len(),
            state.key.units,
            state.key.game
        ),
    );
    if !same_game {
        // The other claims would read deals of another deck.
        return out;
    }

    // 2. The explorer's count of looping deals, recomputed from ours.
    let kept: Vec<&Vec<u8>> = stats.loops.values().flat_map(|l| l.kept.keys()).collect();
    let listed = kept.len() as u64 == stats.looping_deals && !stats.loop_deals_truncated();
    let walked: u64 = kept
        .iter()
        .map(|d| {
            let h = d.len() / 2;
            u64::from(arrangements.orders_ranked_below(&d[..h], &d[h..], peer.played))
        })
        .sum();
    let periods: Vec<String> = {
        let mut p: Vec<u64> = stats.loops.values().map(|l| l.period_tricks).collect();
        p.sort_unstable();
        p.dedup();
        p.iter().map(u64::to_string).collect()
    };
    let status = if listed && walked == peer.looping { Status::Ok } else { Status::Fail };
    claim(
        peer.source,
        format!(
            "looping deals among the {} arrangements the explorer plays (of {})",
            group(peer.played),
            group(total)
        ),
        group(peer.looping.into()),
        group(walked.into()),
        status,
        format!(
            "ours: {} looping deals up to the swap, in {} loops (periods {} tricks){}; the \
             explorer plays the first arrangements of the lexicographic list, which holds some \
             deals in both orders and others in neither: walking our looping deals the same way \
             gives the computed count [{ours}]",
            group(stats.looping_deals.into()),
            stats.loops.len(),
            if periods.is_empty() { "-".to_string() } else { periods.join(", ") },
            if listed {
                ""
            } else {
                ", NOT all listed in the state: the count cannot be recomputed"
            },
        ),
    );

    // 3. The longest game, replayed, against the explorer's.
    let top_tricks = stats.longest_by_tricks.entries().first();
    let top_cards = stats.longest_by_cards.entries().first();
    let peer_deal: Position = peer.longest_deal.parse().expect("a valid deal");
    let peer_replay = replay(&peer_deal, methods);
    fn check(r: Option<&Record>, methods: Methods) -> Option<(&Record, bool, Position)> {
        let r = r?;
        let p = position(&r.deal)?;
        Some((r, replay(&p, methods) == Some((r.tricks, r.cards)), p))
    }
    let (tricks_ok, cards_ok) = (check(top_tricks, methods), check(top_cards, methods));
    let computed = top_tricks.map_or("none".to_string(), |r| r.tricks.to_string());
    let status = match (&tricks_ok, &cards_ok, peer_replay) {
        (Some((r, true, p)), Some((_, true, _)), Some((peer_tricks, _)))
            if peer_tricks == peer.longest_tricks =>
        {
            let (h, d) = (p.first().len(), [p.first(), p.second()].concat());
            if r.tricks == peer.longest_tricks {
                Status::Ok
            } else if r.tricks > peer.longest_tricks
                && arrangements.orders_ranked_below(&d[..h], &d[h..], peer.played) == 0
            {
                // A longer game the explorer never played.
                Status::Differs
            } else {
                Status::Fail
            }
        }
        _ => Status::Fail,
    };
    let describe = |r: &Option<(&Record, bool, Position)>| match r {
        Some((r, ok, p)) => format!(
            "{p}: {} tricks, {} cards per player{}",
            r.tricks,
            r.cards,
            if *ok { ", replayed" } else { ", NOT as replayed" }
        ),
        None => "none".to_string(),
    };
    claim(
        peer.source,
        format!("the longest {deck} game, in tricks"),
        format!("{} ({})", peer.longest_tricks, peer.longest_deal),
        computed,
        status,
        format!(
            "ours, by tricks: {}; by cards: {}; the explorer's deal replays to {} [{ours}]",
            describe(&tricks_ok),
            describe(&cards_ok),
            peer_replay.map_or("no finished game".to_string(), |(t, c)| format!(
                "{t} tricks, {c} cards per player"
            )),
        ),
    );

    // 4. The looping deals, found again by playing backwards from each loop.
    if !stats.loops.is_empty() {
        let (status, computed, evidence) = walked_back(state, methods);
        claim(
            "the hunt's own list of looping deals (its merged state.txt, which loops.csv lists)",
            format!(
                "the deals that reach each {deck} loop, walked back from the loop, are the \
                 hunt's looping deals, with their tails"
            ),
            group(stats.looping_deals.into()),
            computed,
            status,
            format!("{evidence} [{ours}; bataille cycles ancestors POSITION --deals FILE]"),
        );
    }
    out
}

/// The hunt's looping deals (with tails) against the deals of the trees of its loops.
fn walked_back(state: &State, methods: Methods) -> (Status, String, String) {
    let stats = &state.stats;
    let mut found = 0u64;
    let mut differ = Vec::new();
    let mut complete = true;
    for (id, l) in &stats.loops {
        let Some(deal) = position(&l.example) else { continue };
        // The example enters the loop after its tail: a position of the loop.
        let tail = l.kept.get(&l.example).copied().unwrap_or(0);
        let mut p = bataille_engine::Game::new(&deal);
        for _ in 0..tail {
            p.trick(methods, &mut NoRandom);
        }
        let on_loop = p.to_position();
        let keep = Keep { deals: true, deepest: 0 };
        let Ok(t) = ancestors::tree(&on_loop, methods, Bounds::budget(1 << 32), keep) else {
            continue;
        };
        complete &= t.walked.complete();
        found += t.deal_count;
        let mut ours: Vec<(Vec<u8>, u64)> = t
            .deals
            .iter()
            .map(|d| ([d.deal.first(), d.deal.second()].concat(), d.tricks))
            .collect();
        ours.sort();
        let hunt: Vec<(Vec<u8>, u64)> = l.kept.iter().map(|(d, &t)| (d.clone(), t)).collect();
        let is_loop = matches!(
            play(&on_loop, methods, &mut NoRandom, Limits::DETERMINISTIC).outcome,
            Outcome::Cycle(c) if c.tail_tricks == 0 && c.id.0 == *id
        );
        if !is_loop || ours != hunt || l.truncated {
            differ.push(format!("{id:016x}"));
        }
    }
    let ok = differ.is_empty() && complete && found == stats.looping_deals;
    let evidence = format!(
        "{} loops, each walked back from a position of it: {} deals in their trees{}{}",
        stats.loops.len(),
        group(found.into()),
        if complete { ", every tree complete" } else { ", a tree cut by its budget" },
        if differ.is_empty() {
            String::new()
        } else {
            format!("; the lists differ for {}", differ.join(", "))
        }
    );
    (if ok { Status::Ok } else { Status::Fail }, group(found.into()), evidence)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_search::game::{DealOutcome, DealRecord};

    fn committed_c4v4() -> State {
        let text = include_str!("../../../results/hunts/c4v4-natural/state.txt");
        State::decode(text).expect("the committed state reads")
    }

    /// The committed C=4 V=4 hunt reproduces the explorer's log: the 8235 looping arrangements
    /// of its first half from our 8545 looping deals, and its longest game.
    #[test]
    fn c4v4_natural_matches_the_explorer() {
        let claims = hunt_claims(&COMMITTED_HUNTS[0], &committed_c4v4());
        let names: Vec<_> = claims.iter().map(|c| c.id).collect();
        assert_eq!(
            names,
            [
                "c4v4-natural-deals",
                "c4v4-natural-looping",
                "c4v4-natural-longest",
                "c4v4-natural-ancestors"
            ]
        );
        for c in &claims {
            assert_eq!(c.status, Status::Ok, "{c:#?}");
        }
        assert_eq!(claims[0].computed, "31,532,760");
        assert_eq!(claims[1].computed, "8,235");
        assert!(claims[1].evidence.contains("ours: 8,545 looping deals"), "{}", claims[1].evidence);
        assert_eq!(claims[2].computed, "145");
        // The four loops walked back: the 8545 deals, with their tails.
        assert_eq!(claims[3].computed, "8,545");
    }

    /// A state that is not the whole hunt, or whose records do not replay, fails.
    #[test]
    fn wrong_states_fail() {
        let mut state = committed_c4v4();
        // A record one trick longer than its deal plays.
        let record = DealRecord { outcome: DealOutcome::FirstWins, tricks: 146, cards: 182 };
        state.stats.add(&record, &[1, 3, 2, 2, 1, 2, 1, 4, 4, 4, 3, 4, 1, 2, 3, 3]);
        // ... which also makes one deal too many.
        let claims = hunt_claims(&COMMITTED_HUNTS[0], &state);
        assert_eq!(claims[0].status, Status::Fail);
        assert_eq!(claims[2].status, Status::Fail, "{:#?}", claims[2]);
        assert!(claims[2].evidence.contains("NOT as replayed"));
        // The same state read as another hunt's is refused.
        let claims = hunt_claims(&COMMITTED_HUNTS[1], &committed_c4v4());
        assert!(claims.iter().all(|c| c.status == Status::Fail), "{claims:#?}");
    }
}
