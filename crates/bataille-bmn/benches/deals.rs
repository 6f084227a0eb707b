//! Random beggar-my-neighbour deals per second on one thread.
//!
//! ```text
//! cargo bench -p bataille-bmn --bench deals
//! ```
//!
//! - `random/52/draw+play`: draw a uniformly random 52-card deal (seeded xoshiro256++) and
//!   play it to the end or to its loop, as a random search does: the figure to compare with
//!   the public searchers' 0.56 M deals/s per thread.
//! - `random/52/play`: the same deals drawn beforehand (the engine alone).
//! - `random/52/naive`: the naive reference implementation on the same deals, for the ratio.
//! - `random/40-italian/draw+play`: the 40-card deck without aces.
//! - `record/nessler-2022`: the longest known game (8344 cards, 1164 tricks).

use std::hint::black_box;
use std::time::Duration;

use bataille_bmn::published::RECORDS;
use bataille_bmn::reference::play_naive;
use bataille_bmn::{Dealer, DeckSpec, Limits, Scratch, play_deal, play_hands};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn random(c: &mut Criterion) {
    for (name, spec) in [("52", DeckSpec::STANDARD), ("40-italian", DeckSpec::ITALIAN)] {
        let mut group = c.benchmark_group(format!("random/{name}"));
        group.throughput(Throughput::Elements(1));
        group.bench_function("draw+play", |b| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
            let mut dealer = Dealer::new(spec);
            let mut scratch = Scratch::default();
            b.iter(|| play_deal(dealer.deal(&mut rng), Limits::NONE, &mut scratch));
        });
        if spec == DeckSpec::STANDARD {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
            let mut dealer = Dealer::new(spec);
            let deals: Vec<Vec<u8>> = (0..4096).map(|_| dealer.deal(&mut rng).to_vec()).collect();
            group.bench_function("play", |b| {
                let mut scratch = Scratch::default();
                let mut i = 0;
                b.iter(|| {
                    i = (i + 1) % deals.len();
                    play_deal(black_box(&deals[i]), Limits::NONE, &mut scratch)
                });
            });
            group.bench_function("naive", |b| {
                let mut i = 0;
                b.iter(|| {
                    i = (i + 1) % deals.len();
                    let (a, b) = deals[i].split_at(26);
                    play_naive(black_box(a), black_box(b), u64::MAX)
                });
            });
        }
        group.finish();
    }
}

fn record(c: &mut Criterion) {
    let g = &RECORDS[0];
    let h = g.hands();
    let mut group = c.benchmark_group("record");
    group.throughput(Throughput::Elements(1164));
    group.bench_function(g.name, |b| {
        let mut scratch = Scratch::default();
        b.iter(|| {
            play_hands(black_box(h.first()), black_box(h.second()), Limits::NONE, &mut scratch)
        });
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sample_size(40)
}

criterion_group! {
    name = benches;
    config = config();
    targets = random, record
}
criterion_main!(benches);
