//! Measures random deals per second on one thread, without the `bataille` command line.
//!
//! ```text
//! cargo run --release -p bataille-bmn --example rate -- [DEALS] [SEED] [REPEATS] [DECK]
//! ```
//!
//! Defaults: 2,000,000 deals, seed 1, 5 repeats, the standard 52-card deck (`italian` for the
//! 40-card deck). Each repeat draws the same seeded deals (xoshiro256++) and plays them; it
//! prints every repeat and the median, for (a) drawing and playing each deal, as a search does,
//! and (b) playing deals drawn beforehand (the engine alone), with the mean game length as a
//! checksum.

use std::time::Instant;

use bataille_bmn::{Dealer, DeckSpec, Limits, Outcome, Scratch, play_deal};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| -> u64 {
        args.get(i).map_or(default, |s| s.parse().unwrap_or_else(|_| panic!("bad number {s:?}")))
    };
    let deals = arg(0, 2_000_000);
    let seed = arg(1, 1);
    let repeats = arg(2, 5).max(1);
    let spec = match args.get(3).map(String::as_str) {
        None => DeckSpec::STANDARD,
        Some(name) => DeckSpec::preset(name).unwrap_or_else(|e| panic!("{e}")),
    };
    println!("deck: {spec}; {deals} deals, seed {seed}, {repeats} repeats, one thread");

    let mut with_dealing = Vec::new();
    let mut engine_only = Vec::new();
    for rep in 0..repeats {
        // (a) draw + play.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut dealer = Dealer::new(spec);
        let mut scratch = Scratch::default();
        let (mut cards, mut tricks, mut loops) = (0u64, 0u64, 0u64);
        let t0 = Instant::now();
        for _ in 0..deals {
            let r = play_deal(dealer.deal(&mut rng), Limits::NONE, &mut scratch);
            cards += r.cards;
            tricks += r.tricks;
            loops += u64::from(matches!(r.outcome, Outcome::Cycle(_)));
        }
        let a = deals as f64 / t0.elapsed().as_secs_f64();
        with_dealing.push(a);

        // (b) the same deals drawn beforehand, then played.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut dealer = Dealer::new(spec);
        let n = spec.cards();
        let mut all = Vec::with_capacity(deals as usize * n);
        for _ in 0..deals {
            all.extend_from_slice(dealer.deal(&mut rng));
        }
        let mut cards_b = 0u64;
        let t0 = Instant::now();
        for d in all.chunks_exact(n) {
            cards_b += play_deal(d, Limits::NONE, &mut scratch).cards;
        }
        let b = deals as f64 / t0.elapsed().as_secs_f64();
        engine_only.push(b);
        assert_eq!(cards, cards_b, "both passes play the same deals");
        println!(
            "repeat {rep}: {:.3} M deals/s (draw + play), {:.3} M deals/s (play only); \
             mean {:.3} cards, {:.3} tricks; {loops} loops",
            a / 1e6,
            b / 1e6,
            cards as f64 / deals as f64,
            tricks as f64 / deals as f64,
        );
    }
    println!(
        "median: {:.3} M deals/s (draw + play), {:.3} M deals/s (play only)",
        median(&mut with_dealing) / 1e6,
        median(&mut engine_only) / 1e6
    );
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
