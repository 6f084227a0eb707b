//! Search harness throughput: deals per second on one unit (sequential, one core) and on a batch of
//! units over every core (parallel), for the two reference workloads of the issue, and for
//! beggar-my-neighbour through the same harness.
//!
//! Run with `cargo bench -p bataille-benches --bench search`; criterion prints the time per
//! iteration and the throughput in deals/s.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use bataille_engine::{DeckSpec, Limits, Method, Methods};
use bataille_search::{Bataille, Mode, Options, Plan, Shard, Silent, Stats, explore, run_unit};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn game(c: usize, v: usize) -> Bataille {
    let m = Methods::both(Method::Natural);
    Bataille::new(DeckSpec::new(c, v).unwrap(), m, Limits::default_for(m))
}

/// Deals played by units `units` of `plan` (to set the throughput).
fn deals_in(game: &Bataille, plan: &Plan, units: std::ops::Range<u64>) -> u64 {
    let mut w = bataille_search::DealGame::worker(game);
    let mut s = Stats::new(0);
    for u in units {
        run_unit(game, plan, u, &mut w, &mut s);
    }
    s.deals
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("harness");
    g.sample_size(10);

    // Exhaustive C=4 V=4 natural: units from the middle of the rank space.
    let c4v4 = game(4, 4);
    let plan = Plan::new(&c4v4, Mode::Exhaustive, 0, 10).unwrap();
    let mid = plan.key().units / 2;
    g.throughput(Throughput::Elements(deals_in(&c4v4, &plan, mid..mid + 1)));
    g.bench_function("c4v4-exhaustive-natural/1-thread/1-unit", |b| {
        let mut w = bataille_search::DealGame::worker(&c4v4);
        b.iter(|| {
            let mut s = Stats::new(10);
            run_unit(&c4v4, &plan, black_box(mid), &mut w, &mut s);
            s.deals
        })
    });

    // 52-card random natural deals: one unit of 16,384 deals.
    let c4v13 = game(4, 13);
    let plan = Plan::new(&c4v13, Mode::Random { deals: 1 << 20 }, 7, 10).unwrap();
    g.throughput(Throughput::Elements(plan.unit_range(0).1 - plan.unit_range(0).0));
    g.bench_function("c4v13-random-natural/1-thread/1-unit", |b| {
        let mut w = bataille_search::DealGame::worker(&c4v13);
        b.iter(|| {
            let mut s = Stats::new(10);
            run_unit(&c4v13, &plan, black_box(3), &mut w, &mut s);
            s.deals
        })
    });

    // Beggar-my-neighbour through the same harness: one unit of 16,384 random 52-card deals.
    let bmn = bataille_search::bmn::Bmn::new(
        bataille_bmn::DeckSpec::STANDARD,
        bataille_bmn::Limits::NONE,
    );
    let plan = Plan::new(&bmn, Mode::Random { deals: 1 << 20 }, 7, 10).unwrap();
    g.throughput(Throughput::Elements(plan.unit_range(0).1 - plan.unit_range(0).0));
    g.bench_function("bmn-52-random/1-thread/1-unit", |b| {
        let mut w = bataille_search::DealGame::worker(&bmn);
        b.iter(|| {
            let mut s = Stats::new(10);
            run_unit(&bmn, &plan, black_box(3), &mut w, &mut s);
            s.deals
        })
    });

    // The whole driver on every core: C=4 V=3 exhaustive (17,370 deals, many small units).
    let c4v3 = game(4, 3);
    let plan = Plan::with_unit_size(&c4v3, Mode::Exhaustive, 0, 10, 1024).unwrap();
    g.throughput(Throughput::Elements(17_370));
    for threads in [1, 0] {
        let name = if threads == 1 { "1-thread" } else { "all-threads" };
        g.bench_function(format!("c4v3-exhaustive-natural/{name}/driver"), |b| {
            let o = Options { threads, ..Options::default() };
            b.iter(|| {
                let stop = AtomicBool::new(false);
                explore(&c4v3, &plan, Shard::WHOLE, None, &o, &Silent, &stop).unwrap().deals_played
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
