//! Seed 004 (Fort Boyard's sticks): take 1, 2 or 3, the player who takes the last stick loses.

use super::{Bounds, Check, Claim, Known, data, entry, parse, spaced};
use crate::{Outcome, Solver, Subtraction, check_strategy};

const SOURCE: &str = "seed 004 (Fort Boyard)";

pub(super) fn entries(b: &Bounds) -> Vec<Claim> {
    vec![
        entry("s004-lists", SOURCE, lists(), Known::None),
        entry("s004-4k+1", SOURCE, four_k_plus_one(b), Known::None),
        entry("s004-18-sticks", SOURCE, start(18, 1), Known::None),
        entry("s004-20-sticks", SOURCE, start(20, 3), Known::None),
    ]
}

fn lists() -> Check {
    let game = Subtraction::FORT_BOYARD;
    let mut solver = Solver::new(&game);
    let (mut losing, mut winning) = (Vec::new(), Vec::new());
    for n in 1..=18u64 {
        match solver.outcome(&n).expect("small") {
            Outcome::Lose => losing.push(n),
            Outcome::Win => winning.push(n),
        }
    }
    let pl = parse::numbers(data::FORT_BOYARD_LOSING);
    let pw = parse::numbers(data::FORT_BOYARD_WINNING);
    let mut mismatches = Vec::new();
    if pl != losing {
        mismatches.push("losing".to_string());
    }
    if pw != winning {
        mismatches.push("winning".to_string());
    }
    Check {
        claim: "from 1 to 18 sticks: the losing and the winning counts".into(),
        published: format!("losing {}; winning {}", spaced(&pl), spaced(&pw)),
        computed: format!("losing {}; winning {}", spaced(&losing), spaced(&winning)),
        mismatches,
        evidence: "generic solver".into(),
    }
}

fn four_k_plus_one(b: &Bounds) -> Check {
    let game = Subtraction::FORT_BOYARD;
    let mut solver = Solver::new(&game);
    let max = u64::from(b.matches);
    let bad: Vec<String> = (1..=max)
        .filter(|&n| (solver.outcome(&n).expect("solves") == Outcome::Lose) != (n % 4 == 1))
        .map(|n| format!("n={n}"))
        .collect();
    Check {
        claim: "the losing counts are exactly n = 4k + 1".into(),
        published: "observed up to 18".into(),
        computed: format!("holds for every count up to {max} (generic solver)"),
        mismatches: bad,
        evidence: String::new(),
    }
}

/// From `sticks`, the first player wins by taking `take`, then by making each round 4.
fn start(sticks: u64, take: u64) -> Check {
    let game = Subtraction::FORT_BOYARD;
    let mut solver = Solver::new(&game);
    let takes: Vec<u64> =
        solver.winning_moves(&sticks).expect("small").into_iter().map(|(t, _)| t).collect();
    // Take 1 first, then 4 minus the opponent's take: always leave 4k + 1.
    let strategy = |n: &u64| (n % 4 != 1).then(|| n - (n + 3) % 4);
    let ok = check_strategy(&game, &[sticks], strategy).is_ok();
    let mut mismatches = Vec::new();
    if takes != [take] {
        mismatches.push("move".to_string());
    }
    if !ok {
        mismatches.push("strategy".to_string());
    }
    let claim = if sticks == 18 {
        "18 sticks: the first player wins by taking 1, then 4 sticks a round".to_string()
    } else {
        format!("{sticks} sticks (until 2008): the same, the first player wins")
    };
    Check {
        claim,
        published: if sticks == 18 { "take 1".into() } else { "first player wins".into() },
        computed: format!(
            "winning first move: take {}; leaving 4k + 1 wins against every reply: {}",
            spaced(&takes),
            if ok { "yes" } else { "no" }
        ),
        mismatches,
        evidence: String::new(),
    }
}
