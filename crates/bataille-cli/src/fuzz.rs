//! The standing fuzz suite: property tests that feed the parsers of user input (deals, bmn
//! hands, take-away games and moves, recipes, the state files of explore, hunt, census, blocks
//! and record searches, seeds files, records files, and the numeric flags and their validators)
//! with arbitrary and near-valid text. Each must answer `Ok` or a short error, never panic.
//!
//! `cargo test` runs [`cases`] cases per property (a few seconds in all) from a fixed seed, so
//! that a failure is reproducible; `BATAILLE_FUZZ_CASES=100000 cargo test --workspace --bin
//! bataille fuzz` runs a longer campaign (and `BATAILLE_FUZZ_SEED=N` another seed); with
//! `--workspace`, not `-p bataille-cli`, it reuses the build `cargo test --workspace` made.

use std::path::Path;

use bataille_engine::Position;
use bataille_search::plan::{Mode, Plan, Shard};
use bataille_search::{Bataille, State, explore_sequential};
use clap::Parser as _;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};

/// Cases per property: `BATAILLE_FUZZ_CASES`, or 256.
fn cases() -> u32 {
    std::env::var("BATAILLE_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256)
}

/// A runner with a fixed seed (`BATAILLE_FUZZ_SEED`, or a constant), no failure files.
fn runner() -> TestRunner {
    runner_of(cases())
}

/// [`runner`], for `cases` cases.
fn runner_of(cases: u32) -> TestRunner {
    let seed = std::env::var("BATAILLE_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x0bad_5eed_0018);
    TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    })
}

/// Runs `test` on values of `strategy`, panicking with the minimal failing input.
fn check<S: Strategy>(strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    if let Err(e) = runner().run(&strategy, test) {
        panic!("{e}");
    }
}

/// Text made of the characters that matter to the parser (`alphabet`) and a little of
/// anything, up to `len` characters.
fn text(alphabet: &'static str, len: usize) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    prop::collection::vec(
        prop_oneof![
            8 => prop::sample::select(chars),
            1 => any::<char>(),
        ],
        0..len,
    )
    .prop_map(|v| v.into_iter().collect())
}

/// Numbers as a user might type them at the limits of their type.
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        prop::sample::select(vec![
            "0",
            "1",
            "-1",
            "255",
            "256",
            "4294967295",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "1e20",
            "1e-12",
            "NaN",
            "inf",
            "-0",
            "",
            " 3",
            "0x10",
        ])
        .prop_map(str::to_string),
        any::<f64>().prop_map(|x| x.to_string()),
    ]
}

/// An error message must stay short, whatever the input's length.
fn short(message: &str) -> Result<(), TestCaseError> {
    prop_assert!(message.len() < 2_000, "an error of {} bytes", message.len());
    Ok(())
}

#[test]
fn deals_parse_or_refuse_briefly() {
    check(text("0123456789,/[] 1", 400), |t| {
        if let Err(e) = Position::parse(&t) {
            short(&e.to_string())?;
        }
        for (c, v, partial) in [(None, None, false), (None, None, true), (Some(0), Some(300), true)]
        {
            if let Err(e) = crate::deal::parse_deal(&t, c, v, partial) {
                short(&format!("{e:#}"))?;
            }
        }
        Ok(())
    });
}

#[test]
fn deals_round_trip() {
    let hand = || prop::collection::vec(1u8..=255, 0..128);
    check((hand(), hand()), |(a, b)| {
        let p = Position::new(a, b).expect("at most 256 cards");
        prop_assert_eq!(Position::parse(&p.to_string()).unwrap(), p.clone());
        prop_assert_eq!(Position::parse(&p.compact()).unwrap(), p);
        Ok(())
    });
}

#[test]
fn bmn_hands_parse_or_refuse() {
    check((text("-JQKAjqka01234[], ", 120), text("-JQKA[], 0", 120)), |(a, b)| {
        let _ = bataille_bmn::Hands::parse(&a, &b);
        Ok(())
    });
}

/// A recipe line: a known key with a plausible or extreme value, or junk.
fn recipe_line() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        "table",
        "colours",
        "values",
        "methods",
        "deals",
        "seed",
        "conventions",
        "exact",
        "histograms",
        "sources",
        "extra",
    ]);
    let value = prop_oneof![
        number_text(),
        prop::sample::select(vec![
            "durations",
            "duels",
            "records",
            "natural, optimized",
            "random",
            "end, repeat",
            "1, 2, 3",
            "true",
            "",
        ])
        .prop_map(str::to_string),
        text("0123456789, =#", 20),
    ];
    prop_oneof![
        4 => (key, value).prop_map(|(k, v)| format!("{k} = {v}")),
        1 => text("abc =#\t,", 30),
    ]
}

#[test]
fn recipes_parse_or_refuse() {
    check(prop::collection::vec(recipe_line(), 0..12), |lines| {
        if let Err(e) = bataille_experiment::Recipe::parse(&lines.join("\n")) {
            short(&e.to_string())?;
        }
        Ok(())
    });
}

/// The state file of a small hunt, to be damaged.
fn small_state() -> String {
    let spec = bataille_engine::DeckSpec::new(2, 3).unwrap();
    let methods = bataille_engine::Methods::new(
        bataille_engine::Method::Natural,
        bataille_engine::Method::Natural,
    );
    let game = Bataille::new(spec, methods, bataille_engine::Limits::default_for(methods));
    let plan =
        Plan::with_unit_size(&game, Mode::Exhaustive, 0, 3, 16).unwrap().keeping_loop_deals(4);
    explore_sequential(&game, &plan).encode()
}

/// A state file with one line replaced by junk or an extreme number, or cut short.
fn damaged(valid: String) -> impl Strategy<Value = String> {
    let lines = valid.lines().count();
    (0..lines, number_text(), 0..valid.len(), 0..3u8).prop_map(move |(i, junk, cut, how)| {
        match how {
            0 => valid
                .lines()
                .enumerate()
                .map(|(j, l)| {
                    if j != i {
                        return l.to_string();
                    }
                    // Keep the line's key, give it an extreme value.
                    match l.split_once(' ') {
                        Some((k, _)) => format!("{k} {junk}"),
                        None => junk.clone(),
                    }
                })
                .collect::<Vec<_>>()
                .join("\n"),
            1 => valid.char_indices().take_while(|&(k, _)| k < cut).map(|(_, c)| c).collect(),
            _ => {
                let mut v = valid.clone().into_bytes();
                v[cut] ^= 0x01;
                String::from_utf8_lossy(&v).into_owned()
            }
        }
    })
}

#[test]
fn state_files_decode_or_refuse() {
    let valid = small_state();
    assert!(State::decode(&valid).is_ok());
    check(damaged(valid), |t| {
        if let Ok(s) = State::decode(&t) {
            // A state that decodes must be usable: its key, its merge with itself.
            let _ = s.key.empty_stats();
            let _ = State::merge(&[s.clone(), s]);
        }
        Ok(())
    });
    check(text("bataille-search state 1\ngame mode seed unit-size 0123456789 \n", 300), |t| {
        let _ = State::decode(&t);
        Ok(())
    });
}

#[test]
fn records_files_parse_or_refuse() {
    let header = bataille_records::row::RECORD_COLUMNS.join(",");
    let row = prop_oneof![
        prop::collection::vec(number_text(), 12).prop_map(|f| f.join(",")),
        text("0123456789,/[] natural\"", 80),
        Just("4,3,natural,tricks,5,20,\"[1, 2] / [3]\",-,c,x,m,d".to_string()),
    ];
    let head = header.clone();
    check((any::<bool>(), prop::collection::vec(row, 0..6)), move |(with_header, rows)| {
        let header = &head;
        let mut t = if with_header { format!("{header}\n") } else { String::new() };
        t += &rows.join("\n");
        if let Err(e) = bataille_runs::records::records_of(Path::new("r.csv"), &t) {
            short(&format!("{e:#}"))?;
        }
        // A row that reads is one the engine can replay: deterministic methods only.
        if let Ok(rows) = bataille_records::row::parse_records(&t) {
            for (line, row) in rows {
                prop_assert!(row.methods.is_deterministic(), "line {line}: {:?}", row.methods);
            }
        }
        Ok(())
    });
    // The same row with each method name: the random one is refused by line.
    let methods = prop::sample::select(vec!["natural", "optimized", "random", "Random", ""]);
    check(methods, move |m| {
        let t = format!("{header}\n4,3,{m},tricks,5,20,\"[1, 2] / [3]\",-,c,x,m,d\n");
        if let Err(e) = bataille_records::row::parse_records(&t) {
            let e = e.to_string();
            prop_assert!(
                m != "random" || e.contains("line 2: records are for deterministic"),
                "{e}"
            );
        }
        Ok(())
    });
}

/// Words of a take-away command line: a game, numbers and the game's flags.
fn takeaway_words() -> impl Strategy<Value = Vec<String>> {
    let game = prop::sample::select(vec![
        "nim",
        "marienbad",
        "subtraction",
        "fort-boyard",
        "matches",
        "two-heaps",
        "chess",
    ]);
    let extra = prop_oneof![
        number_text(),
        number_text().prop_map(|n| format!("--max-take={n}")),
        number_text().prop_map(|n| format!("--prev={n}")),
        number_text().prop_map(|n| format!("--first-max={n}")),
        text("0123456789kn+q ", 12).prop_map(|r| format!("--rule={r}")),
        Just("--convention=misere".to_string()),
    ];
    (game, prop::collection::vec(extra, 0..5)).prop_map(|(g, mut rest)| {
        rest.insert(0, g.to_string());
        rest
    })
}

#[test]
fn takeaway_positions_and_moves_parse_or_refuse() {
    check((takeaway_words(), text("0123456789 -", 30)), |(words, line)| {
        if let Err(e) = crate::takeaway::read_game_and_move(&words, &line) {
            short(&format!("{e:#}"))?;
        }
        Ok(())
    });
}

#[test]
fn census_block_and_search_states_decode_or_refuse() {
    use bataille_cycles::blocks::{BlocksSpec, BlocksState};
    use bataille_cycles::census::{CensusSpec, CensusState};
    use bataille_engine::{DeckSpec, Method, Methods};
    // The committed census of C=4 V=3 (natural stacking: one loop).
    let census = include_str!("../../../results/cycles/c4v3-natural/state.txt").to_string();
    let spec = CensusSpec::new(DeckSpec::new(4, 3).unwrap(), Method::Natural).unwrap();
    assert!(CensusState::from_text(&census, spec, Shard::WHOLE).is_ok());
    check(damaged(census), |t| {
        if let Err(e) = CensusState::from_text(&t, spec, Shard::WHOLE) {
            short(&e.to_string())?;
        }
        Ok(())
    });
    let blocks = BlocksSpec::new(8, 4, 8).unwrap();
    let text_form = BlocksState::new(blocks, Shard::WHOLE).to_text();
    assert!(BlocksState::from_text(&text_form, blocks, Shard::WHOLE).is_ok());
    check(damaged(text_form), |t| {
        if let Err(e) = BlocksState::from_text(&t, blocks, Shard::WHOLE) {
            short(&e.to_string())?;
        }
        Ok(())
    });
    let cfg = bataille_records::search::Config {
        spec: DeckSpec::new(4, 3).unwrap(),
        methods: Methods::new(Method::Natural, Method::Natural),
        measure: bataille_search::stats::Measure::Tricks,
        seed: 1,
        chains: 2,
        anneal: bataille_records::search::Anneal::default(),
    };
    let search = bataille_records::search::SearchState::new(&cfg).encode();
    assert!(bataille_records::search::SearchState::decode(&search, &cfg).is_ok());
    check(damaged(search), |t| {
        if let Err(e) = bataille_records::search::SearchState::decode(&t, &cfg) {
            short(&e.to_string())?;
        }
        Ok(())
    });
}

#[test]
fn seeds_files_read_or_refuse() {
    check(text("0123456789,/[] #\n", 300), |t| {
        if let Err(e) = bataille_cycles::hunt::read_seeds(&t) {
            short(&e.to_string())?;
        }
        Ok(())
    });
}

#[test]
fn numeric_flags_parse_or_refuse() {
    let flag = prop::sample::select(vec![
        ("explore", "--threads"),
        ("explore", "--top"),
        ("explore", "--random"),
        ("explore", "--max-cycles"),
        ("explore", "--checkpoint-every"),
        ("explore", "-c"),
        ("explore", "-v"),
        ("explore", "--shard"),
        ("records", "--time"),
        ("records", "--chains"),
        ("records", "--threads"),
        ("records", "--iterations"),
        ("records", "--epoch"),
    ]);
    check((flag, number_text()), |((command, flag), value)| {
        let mut args = vec!["bataille".to_string()];
        match command {
            "explore" => args.extend(["explore", "--exhaustive", "--out", "x"].map(String::from)),
            _ => args.extend(["records", "search", "--out", "x"].map(String::from)),
        }
        for (f, v) in [("-c", "4"), ("-v", "3")] {
            if f != flag {
                args.extend([f.to_string(), v.to_string()]);
            }
        }
        if command == "records" && flag != "--time" && flag != "--iterations" {
            args.extend(["--iterations".to_string(), "10".to_string()]);
        }
        if flag == "--checkpoint-every" {
            args.extend(["--checkpoint".to_string(), "ckpt".to_string()]);
        }
        args.extend([flag.to_string(), value.clone()]);
        if let Err(e) = crate::flags::Cli::try_parse_from(&args) {
            short(&e.to_string())?;
        }
        let _ = crate::checks::threads(&value);
        let _ = crate::checks::seconds(&value);
        let _ = format!("{value}/{value}").parse::<bataille_search::Shard>();
        Ok(())
    });
}

#[test]
fn shards_of_a_run_list_the_missing_ones() {
    check((1u64..40, 1u64..200, prop::collection::vec(any::<bool>(), 40)), |(n, units, keep)| {
        let key = Plan::with_unit_size(
            &Bataille::new(
                bataille_engine::DeckSpec::new(1, 2).unwrap(),
                bataille_engine::Methods::new(
                    bataille_engine::Method::Natural,
                    bataille_engine::Method::Natural,
                ),
                bataille_engine::Limits::DETERMINISTIC,
            ),
            Mode::Random { deals: units },
            0,
            1,
            1,
        )
        .unwrap()
        .key()
        .clone();
        let parts: Vec<State> = (1..=n)
            .filter(|k| keep[*k as usize % 40])
            .map(|k| {
                let shard = Shard::new(k, n).unwrap();
                let mut s = State::new(key.clone(), shard);
                for u in s.done.pending(shard, units).collect::<Vec<_>>() {
                    s.done.insert(u);
                }
                s
            })
            .collect();
        let Ok(merged) = State::merge(&parts) else { return Ok(()) };
        let (missing, first) = merged.done.incomplete_shards(units, 5);
        let expected: Vec<u64> = (1..=n.min(units)).filter(|k| !keep[*k as usize % 40]).collect();
        prop_assert_eq!(missing, expected.len() as u64);
        prop_assert_eq!(&first[..], &expected[..expected.len().min(5)]);
        Ok(())
    });
}

/// A CSV file with one field of one row replaced by junk or an extreme number, a row dropped
/// or doubled, or the text cut short or a bit flipped.
fn csv_damaged(valid: String) -> impl Strategy<Value = String> {
    let lines: Vec<String> = valid.lines().map(str::to_string).collect();
    let n = lines.len().max(1);
    (0..n, 0..20usize, number_text(), 0..valid.len().max(1), 0..5u8).prop_map(
        move |(i, j, junk, cut, how)| match how {
            0 | 1 => {
                let mut l = lines.clone();
                if let Some(line) = l.get_mut(i) {
                    let mut f: Vec<String> = line.split(',').map(str::to_string).collect();
                    let k = j % f.len();
                    f[k] = if how == 0 { junk.clone() } else { String::new() };
                    *line = f.join(",");
                }
                l.join("\n") + "\n"
            }
            2 => {
                let mut l = lines.clone();
                if i < l.len() {
                    if j % 2 == 0 {
                        l.remove(i);
                    } else {
                        let row = l[i].clone();
                        l.insert(i, row);
                    }
                }
                l.join("\n") + "\n"
            }
            3 => valid.char_indices().take_while(|&(k, _)| k < cut).map(|(_, c)| c).collect(),
            _ => {
                let mut v = valid.clone().into_bytes();
                if !v.is_empty() {
                    let at = cut % v.len();
                    v[at] ^= 1 << (j % 8);
                }
                String::from_utf8_lossy(&v).into_owned()
            }
        },
    )
}

/// Runs the command line `args` (without the program name) in this process: `Ok` or an error
/// whose message is short.
fn run_in_process(args: &[&str]) -> Result<(), TestCaseError> {
    let cli =
        crate::flags::Cli::try_parse_from(std::iter::once("bataille").chain(args.iter().copied()))
            .expect("a valid command line");
    let result = match cli.command {
        crate::flags::Command::Cycles(a) => crate::cycles::run(a),
        crate::flags::Command::Aligned(a) => crate::aligned::run(a),
        _ => unreachable!("a solver command"),
    };
    if let Err(e) = result {
        short(&format!("{e:#}"))?;
    }
    Ok(())
}

/// The solvers' question and resume files (metadata.csv, instances.csv, parts.csv, cycles.csv;
/// rounds.csv and blocks.csv of `aligned solve`), one of them damaged: `--resume` answers or
/// refuses them briefly, never panics. (Each case resumes, and solves again a period or part
/// the damage reopened: small questions, but fewer cases than the parsers' properties.)
#[test]
fn solver_resume_files_read_or_refuse() {
    let base = std::env::temp_dir().join(format!("bataille-fuzz-solve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let s = |p: &Path| p.to_str().expect("a UTF-8 path").to_string();
    let questions: [(&str, Vec<&str>, &[&str]); 2] = [
        (
            "cycles",
            // (C=1 V=5 has two loops, each turning 6 cards.)
            vec![
                "cycles",
                "solve",
                "-c",
                "1",
                "-v",
                "5",
                "--cards",
                "--max-period",
                "10",
                "--all",
                "--split",
                "--threads",
                "1",
            ],
            &["metadata.csv", "instances.csv", "parts.csv", "cycles.csv"],
        ),
        (
            "aligned",
            vec!["aligned", "solve", "--cards", "8", "--max-rounds", "3"],
            &["metadata.csv", "instances.csv", "rounds.csv", "blocks.csv"],
        ),
    ];
    for (name, question, files) in questions {
        let valid = base.join(name);
        let out = s(&valid);
        run_in_process(&[&question[..], &["--out", &out]].concat()).expect("the valid files");
        let texts: Vec<String> =
            files.iter().map(|f| std::fs::read_to_string(valid.join(f)).expect(f)).collect();
        let damaged_files =
            (0..files.len()).prop_flat_map(|k| (Just(k), csv_damaged(texts[k].clone())));
        let result = runner_of((cases() / 100).max(16)).run(&damaged_files, |(k, text)| {
            let dir = base.join(format!("{name}-case"));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            for (f, t) in files.iter().zip(&texts) {
                std::fs::write(dir.join(f), t).unwrap();
            }
            std::fs::write(dir.join(files[k]), &text).unwrap();
            run_in_process(&[&question[..], &["--out", &s(&dir), "--resume"]].concat())
        });
        if let Err(e) = result {
            panic!("{name}: {e}");
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}
