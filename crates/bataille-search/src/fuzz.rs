//! The fuzz suite's properties of the run state (`bataille_fuzz` says how to run a longer
//! campaign): a damaged state file (explore, hunt, their checkpoints) decodes into a usable
//! state or is refused, and the merged shards of a run list the missing ones.

use bataille_engine::{DeckSpec, Limits, Method, Methods};
use bataille_fuzz::{check, damaged, text};
use proptest::prelude::*;

use crate::plan::{Mode, Plan, Shard};
use crate::{Bataille, State, explore_sequential};

/// The state file of a small hunt, to be damaged.
fn small_state() -> String {
    let spec = DeckSpec::new(2, 3).unwrap();
    let methods = Methods::new(Method::Natural, Method::Natural);
    let game = Bataille::new(spec, methods, Limits::default_for(methods));
    let plan =
        Plan::with_unit_size(&game, Mode::Exhaustive, 0, 3, 16).unwrap().keeping_loop_deals(4);
    explore_sequential(&game, &plan).encode()
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
fn shards_of_a_run_list_the_missing_ones() {
    check((1u64..40, 1u64..200, prop::collection::vec(any::<bool>(), 40)), |(n, units, keep)| {
        let key = Plan::with_unit_size(
            &Bataille::new(
                DeckSpec::new(1, 2).unwrap(),
                Methods::new(Method::Natural, Method::Natural),
                Limits::DETERMINISTIC,
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
