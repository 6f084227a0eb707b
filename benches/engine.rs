//! Engine benchmarks: tricks per second on long games (the published 52-card records, and the
//! longest 32-card games of `results/records.csv`), and games per second on fixed sets of
//! seeded random 32- and 52-card deals, natural and optimized stacking; and, on small decks,
//! natural and optimized games played in rings against the same played in registers
//! ([`Packed`]), one at a time and many at once in the lanes of vector registers; and games
//! per second with the random stacking method ([`play_random`], and
//! [`play_random_until_repeat`], the article program's convention).
//!
//! Run with `cargo bench -p bataille-benches --bench engine`.

use std::hint::black_box;

use bataille_engine::{
    Card, DeckSpec, Game, Limits, Method, Methods, Packed, PackedDeal, Position, Scratch,
    SeenPositions, play_deterministic, play_deterministic_rings, play_random,
    play_random_until_repeat,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

const RECORD_52_NATURAL: &str = "[7,4,10,12,11,9,8,1,2,6,13,2,6,2,11,6,1,13,1,11,5,12,5,12,4,7] / \
     [9,9,10,7,8,4,9,6,10,10,3,3,5,3,8,13,3,11,7,2,4,12,1,8,5,13]";
const RECORD_52_OPTIMIZED: &str = "[13,8,13,2,10,13,12,2,3,10,5,6,1,1,6,6,2,11,2,5,12,8,7,9,5,8] / \
     [12,5,4,1,9,11,7,6,1,10,3,9,7,4,11,10,3,8,4,7,12,11,13,3,9,4]";

/// 1237 tricks, natural (`results/records.csv`, found by `bataille records search`).
const LONG_32_NATURAL: &str = "[1, 5, 8, 7, 1, 5, 5, 7, 3, 2, 6, 8, 3, 4, 4, 1] / \
     [2, 4, 7, 5, 6, 6, 2, 7, 4, 3, 8, 1, 8, 2, 6, 3]";
/// 1057 tricks, optimized (`results/records.csv`).
const LONG_32_OPTIMIZED: &str = "[6, 3, 7, 6, 8, 2, 3, 4, 4, 8, 8, 1, 6, 2, 4, 5] / \
     [5, 6, 2, 3, 5, 5, 7, 1, 1, 4, 7, 3, 2, 1, 8, 7]";

/// `count` deals of the deck, shuffled with a fixed seed.
fn random_deals(spec: DeckSpec, count: usize) -> Vec<Vec<Card>> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2025);
    let mut deck = spec.sorted_deck();
    (0..count)
        .map(|_| {
            deck.shuffle(&mut rng);
            deck.clone()
        })
        .collect()
}

fn tricks_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("record-game");
    for (name, deal, m) in [
        ("32-natural", LONG_32_NATURAL, Method::Natural),
        ("32-optimized", LONG_32_OPTIMIZED, Method::Optimized),
        ("52-natural", RECORD_52_NATURAL, Method::Natural),
        ("52-optimized", RECORD_52_OPTIMIZED, Method::Optimized),
    ] {
        let p: Position = deal.parse().unwrap();
        let methods = Methods::both(m);
        let start = Game::new(&p);
        let mut scratch = Scratch::default();
        let tricks =
            play_deterministic(&start, methods, Limits::DETERMINISTIC, &mut scratch).tricks;
        group.throughput(Throughput::Elements(tricks));
        group.bench_function(BenchmarkId::new("tricks", name), |b| {
            b.iter(|| {
                play_deterministic(black_box(&start), methods, Limits::DETERMINISTIC, &mut scratch)
            })
        });
    }
    group.finish();
}

fn games_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("random-deals");
    const DEALS: usize = 1000;
    for (cards, v) in [(32, 8), (52, 13)] {
        let spec = DeckSpec::new(4, v).unwrap();
        let deals = random_deals(spec, DEALS);
        let half = spec.first_hand();
        for m in [Method::Natural, Method::Optimized] {
            let methods = Methods::both(m);
            group.throughput(Throughput::Elements(DEALS as u64));
            group.bench_function(BenchmarkId::new(format!("games-{cards}"), m.name()), |b| {
                let mut scratch = Scratch::default();
                let mut start = Game::default();
                b.iter(|| {
                    let mut tricks = 0u64;
                    for d in &deals {
                        start.set(&d[..half], &d[half..]);
                        tricks += play_deterministic(
                            &start,
                            methods,
                            Limits::DETERMINISTIC,
                            &mut scratch,
                        )
                        .tricks;
                    }
                    black_box(tricks)
                })
            });
        }
    }
    group.finish();
}

/// Nanoseconds per trick on 1,000 random 52-card deals, natural and optimized: the engine as
/// the searches run it ([`play_deterministic`]: the wide first phase where the processor has
/// it), the ring engine alone, and a lower bound on the same machine: a loop that only reads
/// the two top cards of two rings and compares them, as many times as the games have tricks;
/// and the floor of a lane engine ([`lanes_floor`]), where the processor has AVX-512.
fn nanoseconds_per_trick(c: &mut Criterion) {
    let mut group = c.benchmark_group("tricks-52");
    const DEALS: usize = 1000;
    let spec = DeckSpec::new(4, 13).unwrap();
    let deals = random_deals(spec, DEALS);
    let half = spec.first_hand();
    for m in [Method::Natural, Method::Optimized] {
        let methods = Methods::both(m);
        let mut scratch = Scratch::default();
        let mut start = Game::default();
        let lengths: Vec<u64> = deals
            .iter()
            .map(|d| {
                start.set(&d[..half], &d[half..]);
                play_deterministic(&start, methods, Limits::DETERMINISTIC, &mut scratch).tricks
            })
            .collect();
        let total: u64 = lengths.iter().sum();
        group.throughput(Throughput::Elements(total));
        for (name, rings) in [("engine", false), ("rings", true)] {
            group.bench_function(BenchmarkId::new(name, m.name()), |b| {
                b.iter(|| {
                    let mut tricks = 0u64;
                    for d in &deals {
                        start.set(&d[..half], &d[half..]);
                        let play =
                            if rings { play_deterministic_rings } else { play_deterministic };
                        tricks += play(&start, methods, Limits::DETERMINISTIC, &mut scratch).tricks;
                    }
                    black_box(tricks)
                })
            });
        }
        if m == Method::Natural {
            // Each deal's hands in two rings of 256 cards (the engine's ring size), read one
            // card from each per trick.
            let rings: Vec<([Card; 256], [Card; 256])> = deals
                .iter()
                .map(|d| {
                    let (mut a, mut b) = ([0; 256], [0; 256]);
                    for i in 0..256 {
                        a[i] = d[i % half];
                        b[i] = d[half + i % half];
                    }
                    (a, b)
                })
                .collect();
            group.bench_function(BenchmarkId::new("lower-bound", "read-two-compare"), |b| {
                b.iter(|| {
                    let mut first = 0u64;
                    for ((a, b), &n) in rings.iter().zip(&lengths) {
                        for i in 0..n as usize {
                            first += u64::from(a[i & 255] > b[i & 255]);
                        }
                    }
                    black_box(first)
                })
            });
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx512f") {
                let steps = total as usize / lanes_floor::LANES;
                for (name, stores) in [
                    ("gathers", lanes_floor::Stores::None),
                    ("gathers-scatter", lanes_floor::Stores::Scatter),
                    ("gathers-scalar-stores", lanes_floor::Stores::Scalar),
                ] {
                    let mut rings = lanes_floor::Rings::new(&deals[..lanes_floor::LANES], half);
                    group.bench_function(BenchmarkId::new("lanes-floor", name), |b| {
                        // SAFETY: the processor has AVX-512F (checked above).
                        b.iter(|| black_box(unsafe { lanes_floor::run(&mut rings, steps, stores) }))
                    });
                }
            }
        }
    }
    group.finish();
}

/// The floor of an engine that plays 16 games at a time, one in each 32-bit lane of an AVX-512
/// register, with the hands in small rings in L1 read by gathers (the design of a lane engine
/// for decks too large for a register). One step is a trick of each of the 16 games: the top
/// card of each of the 32 hands gathered (two gathers), compared, and the pair won written at
/// its winner's tail (`Stores`); no battle, no ending check, no refill of a finished lane. So
/// a real lane engine is slower than this, and the benchmark runs `tricks / 16` steps to be
/// read per trick beside the engine's.
#[cfg(target_arch = "x86_64")]
mod lanes_floor {
    use std::arch::x86_64::*;

    use bataille_engine::Card;

    pub(crate) const LANES: usize = 16;
    /// Cards of each ring (a power of two).
    const RING: usize = 64;

    /// How the pairs won are written.
    #[derive(Clone, Copy, Debug)]
    pub(crate) enum Stores {
        /// Not at all: the gathers and the comparisons only.
        None,
        /// One scatter of the 16 pairs.
        Scatter,
        /// Sixteen scalar stores, from the pairs and tails stored to the stack.
        Scalar,
    }

    /// Two rings of `RING` cards per lane (hand `p` of lane `l` at `(2l + p) * RING`), filled
    /// with the hands of 16 deals repeated, and the rings the pairs are written to (apart, so
    /// that the cards read stay those of the deals).
    #[derive(Debug)]
    pub(crate) struct Rings {
        cards: Vec<u8>,
        won: Vec<u8>,
    }

    impl Rings {
        pub(crate) fn new(deals: &[Vec<Card>], half: usize) -> Rings {
            let mut cards = vec![0u8; 2 * LANES * RING + 4];
            for (l, d) in deals.iter().enumerate() {
                for i in 0..RING {
                    cards[2 * l * RING + i] = d[i % half];
                    cards[(2 * l + 1) * RING + i] = d[half + i % half];
                }
            }
            Rings { cards, won: vec![0u8; 2 * LANES * RING + 4] }
        }
    }

    /// `steps` tricks of each lane; returns the tricks won by the first hands.
    ///
    /// # Safety
    /// The processor has AVX-512F.
    #[target_feature(enable = "avx512f,popcnt")]
    pub(crate) unsafe fn run(r: &mut Rings, steps: usize, stores: Stores) -> u64 {
        let lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let ring = _mm512_set1_epi32(RING as i32);
        let base0 = _mm512_mullo_epi32(lane, _mm512_set1_epi32(2 * RING as i32));
        let base1 = _mm512_add_epi32(base0, ring);
        let wrap = _mm512_set1_epi32(RING as i32 - 1);
        let byte = _mm512_set1_epi32(0xff);
        let (mut head, mut tail0, mut tail1) =
            (_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512());
        let (cards, won) = (r.cards.as_ptr(), r.won.as_mut_ptr());
        let mut first = 0u64;
        for _ in 0..steps {
            let at = _mm512_and_si512(head, wrap);
            // SAFETY: every index is below 2 * LANES * RING, and the buffers have 4 bytes
            // more than that for the 32-bit reads and writes.
            let (a, b) = unsafe {
                (
                    _mm512_i32gather_epi32::<1>(_mm512_add_epi32(base0, at), cards.cast()),
                    _mm512_i32gather_epi32::<1>(_mm512_add_epi32(base1, at), cards.cast()),
                )
            };
            let (a, b) = (_mm512_and_si512(a, byte), _mm512_and_si512(b, byte));
            let gt = _mm512_cmpgt_epu32_mask(a, b);
            let lt = _mm512_cmplt_epu32_mask(a, b);
            let pair = _mm512_or_si512(
                _mm512_max_epu32(a, b),
                _mm512_slli_epi32::<8>(_mm512_min_epu32(a, b)),
            );
            let to = _mm512_mask_blend_epi32(
                gt,
                _mm512_add_epi32(base1, _mm512_and_si512(tail1, wrap)),
                _mm512_add_epi32(base0, _mm512_and_si512(tail0, wrap)),
            );
            match stores {
                Stores::None => {}
                // SAFETY: as above.
                Stores::Scatter => unsafe {
                    _mm512_mask_i32scatter_epi32::<1>(won.cast(), gt | lt, to, pair)
                },
                Stores::Scalar => {
                    let (mut at, mut pairs) = ([0u32; LANES], [0u32; LANES]);
                    // SAFETY: two arrays of 16 u32, and the indices as above.
                    unsafe {
                        _mm512_storeu_si512(at.as_mut_ptr().cast(), to);
                        _mm512_storeu_si512(pairs.as_mut_ptr().cast(), pair);
                        for l in 0..LANES {
                            if (gt | lt) >> l & 1 == 1 {
                                won.add(at[l] as usize)
                                    .cast::<u16>()
                                    .write_unaligned(pairs[l] as u16);
                            }
                        }
                    }
                }
            }
            first += u64::from(gt.count_ones());
            head = _mm512_add_epi32(head, _mm512_set1_epi32(1));
            tail0 = _mm512_mask_add_epi32(tail0, gt, tail0, _mm512_set1_epi32(2));
            tail1 = _mm512_mask_add_epi32(tail1, lt, tail1, _mm512_set1_epi32(2));
        }
        first
    }
}

/// Natural and optimized games of random deals of small decks, by the engine's rings
/// ([`play_deterministic`]) and by [`Packed`], one at a time and many at once in vector lanes
/// (which hand the games still running after its first phase to [`play_deterministic`], as the
/// searches do).
fn small_decks(c: &mut Criterion) {
    const DEALS: usize = 1000;
    for method in [Method::Natural, Method::Optimized] {
        let mut group = c.benchmark_group(format!("small-decks-{method}"));
        let methods = Methods::both(method);
        for (colours, v) in [(4, 4), (4, 5), (2, 6), (1, 8)] {
            let spec = DeckSpec::new(colours, v).unwrap();
            let deals = random_deals(spec, DEALS);
            let half = spec.first_hand();
            let packed = Packed::new(spec.cards(), v as Card, method).unwrap();
            let name = format!("C{colours}V{v}");
            group.throughput(Throughput::Elements(DEALS as u64));
            let mut scratch = Scratch::default();
            let mut start = Game::default();
            let mut ring = |d: &[Card], scratch: &mut Scratch| {
                start.set(&d[..half], &d[half..]);
                play_deterministic(&start, methods, Limits::DETERMINISTIC, scratch).tricks
            };
            group.bench_function(BenchmarkId::new("rings", &name), |b| {
                b.iter(|| black_box(deals.iter().map(|d| ring(d, &mut scratch)).sum::<u64>()))
            });
            group.bench_function(BenchmarkId::new("packed", &name), |b| {
                b.iter(|| {
                    let games = deals.iter().map(|d| {
                        match packed.play(&d[..half], &d[half..], Limits::DETERMINISTIC) {
                            Some(r) => u64::from(r.tricks),
                            None => ring(d, &mut scratch),
                        }
                    });
                    black_box(games.sum::<u64>())
                })
            });
            let packed_deals: Vec<PackedDeal> =
                deals.iter().map(|d| packed.pack(&d[..half], &d[half..])).collect();
            let mut results = vec![None; DEALS];
            group.bench_function(BenchmarkId::new("lanes", &name), |b| {
                b.iter(|| {
                    packed.play_many(&packed_deals, Limits::DETERMINISTIC, &mut results);
                    let games = deals.iter().zip(&results).map(|(d, r)| match r {
                        Some(r) => u64::from(r.tricks),
                        None => ring(d, &mut scratch),
                    });
                    black_box(games.sum::<u64>())
                })
            });
        }
        group.finish();
    }
}

/// Games with the random method for both players, on a fixed set of seeded 32-card deals with
/// a fixed stream: played out ([`play_random`]), and stopped at the first repeated position as
/// the article's program did ([`play_random_until_repeat`], which keeps every position met).
fn random_method(c: &mut Criterion) {
    const DEALS: usize = 200;
    let mut group = c.benchmark_group("random-method");
    let spec = DeckSpec::new(4, 8).unwrap();
    let deals = random_deals(spec, DEALS);
    let half = spec.first_hand();
    let methods = Methods::both(Method::Random);
    let limits = Limits::RANDOM;
    group.throughput(Throughput::Elements(DEALS as u64));
    let mut start = Game::default();
    group.bench_function("games-32/play-random", |b| {
        b.iter(|| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
            let mut tricks = 0u64;
            for d in &deals {
                start.set(&d[..half], &d[half..]);
                tricks += play_random(&start, methods, &mut rng, limits).tricks;
            }
            black_box(tricks)
        })
    });
    let mut seen = SeenPositions::default();
    group.bench_function("games-32/until-repeat", |b| {
        b.iter(|| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
            let mut tricks = 0u64;
            for d in &deals {
                start.set(&d[..half], &d[half..]);
                tricks +=
                    play_random_until_repeat(&start, methods, &mut rng, limits, &mut seen).tricks;
            }
            black_box(tricks)
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    tricks_per_second,
    games_per_second,
    nanoseconds_per_trick,
    small_decks,
    random_method
);
criterion_main!(benches);
