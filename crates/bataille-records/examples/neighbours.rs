//! Is the length of a game a smooth function of the deal? Draws random 32-card deals (natural
//! stacking, seed 1), keeps those of at least 600 tricks, and plays 2,000 neighbours of each
//! (one move of `records::mutate`): how many neighbours give the same game length, and how many
//! a longer one, against the chance that a random deal reaches 600 tricks.
//!
//! `cargo run --release -p bataille-records --example neighbours`

use bataille_engine::{DeckSpec, Method, Methods};
use bataille_records::search::{mutate, replay};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

fn main() {
    let methods = Methods::both(Method::Natural);
    let spec = DeckSpec::new(4, 8).expect("a valid deck");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut deal = spec.sorted_deck();
    let (mut finished, mut long_count, mut total) = (0u64, 0u64, 0u64);
    let mut long = Vec::new();
    for _ in 0..500_000 {
        deal.shuffle(&mut rng);
        let g = replay(&deal, methods);
        if g.outcome.is_finished() {
            finished += 1;
            total += g.tricks;
            if g.tricks >= 600 {
                long_count += 1;
                long.push((g.tricks, deal.clone()));
            }
        }
    }
    println!(
        "random deals: {finished} finished, mean {:.1} tricks, {long_count} of at least 600 ({:.3}%)",
        total as f64 / finished as f64,
        100.0 * long_count as f64 / finished as f64
    );
    let (mut same, mut longer, mut tried) = (0u64, 0u64, 0u64);
    for (length, d) in long.iter().take(200) {
        for _ in 0..2000 {
            let mut c = d.clone();
            mutate(&mut c, &mut rng);
            let g = replay(&c, methods);
            tried += 1;
            same += u64::from(g.tricks == *length && g.outcome.is_finished());
            longer += u64::from(g.tricks > *length && g.outcome.is_finished());
        }
    }
    println!(
        "neighbours of {} such deals: {tried} played, {:.2}% as long, {:.3}% longer",
        long.len().min(200),
        100.0 * same as f64 / tried as f64,
        100.0 * longer as f64 / tried as f64
    );
}
