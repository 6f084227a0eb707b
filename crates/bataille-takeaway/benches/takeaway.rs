//! Solver benchmarks: the compressed match tables against the generic solver (brute force),
//! and Bouton's closed form against the solver for Nim.
//!
//! `cargo bench -p bataille-takeaway --bench takeaway`

use std::hint::black_box;

use bataille_takeaway::{
    Convention, MatchGame, MatchPos, MatchTable, Nim, Rule, Solver, TwoHeapGame, TwoHeapTable, nim,
};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn match_tables(c: &mut Criterion) {
    let mut g = c.benchmark_group("match_table");
    g.sample_size(10);
    for (rule, max) in
        [("2n", 1_000_000u32), ("2n", 10_000_000), ("3n", 1_000_000), ("n+1", 1_000_000)]
    {
        let game = MatchGame::misere(rule.parse::<Rule>().unwrap());
        g.bench_with_input(BenchmarkId::new(rule, max), &max, |b, &max| {
            b.iter(|| MatchTable::new(game, black_box(max)).unwrap().min_winning_take(max))
        });
    }
    g.finish();
}

/// The same question, every position (a, n) with a <= 300: table against brute force.
fn table_vs_brute(c: &mut Criterion) {
    let game = MatchGame::misere(Rule::DOUBLE);
    let mut g = c.benchmark_group("all_positions_300");
    g.sample_size(10);
    g.bench_function("table", |b| {
        b.iter(|| {
            let t = MatchTable::new(game, 300).unwrap();
            (1..=300u32)
                .flat_map(|a| (0..=a).map(move |n| MatchPos { left: a, prev: n }))
                .filter(|&p| t.outcome(p).unwrap().is_win())
                .count()
        })
    });
    g.bench_function("generic_solver", |b| {
        b.iter(|| {
            let mut s = Solver::new(&game);
            (1..=300u32)
                .flat_map(|a| (0..=a).map(move |n| MatchPos { left: a, prev: n }))
                .filter(|p| s.outcome(p).unwrap().is_win())
                .count()
        })
    });
    g.finish();
}

fn two_heaps(c: &mut Criterion) {
    let game = TwoHeapGame { rule: Rule::DOUBLE, convention: Convention::Misere };
    let mut g = c.benchmark_group("two_heap_table");
    g.sample_size(10);
    g.bench_function("1000", |b| {
        b.iter(|| TwoHeapTable::new(game, black_box(1000)).unwrap().max())
    });
    g.finish();
}

fn nim_bench(c: &mut Criterion) {
    let positions: Vec<Vec<u64>> = nim::sorted_positions(4, 9);
    let mut g = c.benchmark_group("nim_4_rows_up_to_9");
    g.sample_size(10);
    g.bench_function("closed_form", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter(|p| !nim::winning_moves(p, Convention::Misere).is_empty())
                .count()
        })
    });
    g.bench_function("generic_solver", |b| {
        b.iter(|| {
            let game = Nim { convention: Convention::Misere };
            let mut s = Solver::new(&game);
            positions.iter().filter(|p| !s.winning_moves(p).unwrap().is_empty()).count()
        })
    });
    g.finish();
}

criterion_group!(benches, match_tables, table_vs_brute, two_heaps, nim_bench);
criterion_main!(benches);
