//! Measures random deals per second on one thread, without the `bataille` command line.
//!
//! ```text
//! cargo run --release -p bataille-bmn --example rate -- [DEALS] [SEED] [REPEATS] [DECK]
//! ```
//!
//! Defaults: 2,000,000 deals, seed 1, 5 repeats, the standard 52-card deck (`italian` for the
//! 40-card deck). Each repeat draws the same seeded deals (xoshiro256++) and plays them, for
//! (a) drawing and playing each deal, as a search does, and (b) playing deals drawn
//! beforehand (the engine alone). Rates are given per second of the thread's CPU time (what
//! one core does, whatever else runs on the machine) and per second of wall-clock time; the
//! mean game length is a checksum of the deals played.

use std::time::Instant;

use bataille_bmn::{Dealer, DeckSpec, Limits, Outcome, Scratch, play_deal};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// CPU time of this thread, in seconds.
fn cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant of the platform.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Runs `f`, returning (deals per CPU second, deals per wall second).
fn rates(deals: u64, f: impl FnOnce()) -> (f64, f64) {
    let (c0, w0) = (cpu_seconds(), Instant::now());
    f();
    let (c, w) = (cpu_seconds() - c0, w0.elapsed().as_secs_f64());
    (deals as f64 / c, deals as f64 / w)
}

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

    let (mut a_cpu, mut a_wall, mut b_cpu, mut b_wall) = (vec![], vec![], vec![], vec![]);
    for rep in 0..repeats {
        // (a) draw + play.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut dealer = Dealer::new(spec);
        let mut scratch = Scratch::default();
        let (mut cards, mut tricks, mut loops) = (0u64, 0u64, 0u64);
        let (ac, aw) = rates(deals, || {
            for _ in 0..deals {
                let r = play_deal(dealer.deal(&mut rng), Limits::NONE, &mut scratch);
                cards += r.cards;
                tricks += r.tricks;
                loops += u64::from(matches!(r.outcome, Outcome::Cycle(_)));
            }
        });

        // (b) the same deals drawn beforehand, then played.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut dealer = Dealer::new(spec);
        let n = spec.cards();
        let mut all = Vec::with_capacity(deals as usize * n);
        for _ in 0..deals {
            all.extend_from_slice(dealer.deal(&mut rng));
        }
        let mut cards_b = 0u64;
        let (bc, bw) = rates(deals, || {
            for d in all.chunks_exact(n) {
                cards_b += play_deal(d, Limits::NONE, &mut scratch).cards;
            }
        });
        assert_eq!(cards, cards_b, "both passes play the same deals");
        println!(
            "repeat {rep}: draw + play {:.3} M deals/s CPU ({:.3} wall); play only {:.3} M \
             deals/s CPU ({:.3} wall); mean {:.3} cards, {:.3} tricks; {loops} loops",
            ac / 1e6,
            aw / 1e6,
            bc / 1e6,
            bw / 1e6,
            cards as f64 / deals as f64,
            tricks as f64 / deals as f64,
        );
        a_cpu.push(ac);
        a_wall.push(aw);
        b_cpu.push(bc);
        b_wall.push(bw);
    }
    println!(
        "median: draw + play {:.3} M deals/s CPU ({:.3} wall); play only {:.3} M deals/s CPU \
         ({:.3} wall)",
        median(&mut a_cpu) / 1e6,
        median(&mut a_wall) / 1e6,
        median(&mut b_cpu) / 1e6,
        median(&mut b_wall) / 1e6,
    );
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
