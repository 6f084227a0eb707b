//! The fuzz suite's property of take-away games and moves (`bataille_fuzz` says how to run a
//! longer campaign): any game, position and options (numbers at their limits, a rule as
//! typed) are validated or refused briefly, and any line read as a person's move at that
//! position is played or refused briefly, as `takeaway play` reads it; nothing is solved.

use bataille_fuzz::{chain, check, short, text};
use proptest::prelude::*;

use crate::Convention;
use crate::spec::{GameKind, GameOptions, GameSpec};

/// A number as a person might give one, small or at the limits of the types.
fn number() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..40,
        any::<u64>(),
        Just(u64::from(u32::MAX)),
        Just(u64::from(u32::MAX) + 1),
        Just(u64::MAX),
    ]
}

/// A small number, or one at the limit of `u32`.
fn number_u32() -> impl Strategy<Value = u32> {
    prop_oneof![0u32..40, any::<u32>(), Just(u32::MAX)]
}

/// A game, its heaps and its options (some of which do not apply to it).
fn game_options() -> impl Strategy<Value = GameOptions> {
    let game = prop::sample::select(vec![
        GameKind::Nim,
        GameKind::Marienbad,
        GameKind::Subtraction,
        GameKind::FortBoyard,
        GameKind::Matches,
        GameKind::TwoHeaps,
    ]);
    let convention =
        prop::option::of(prop::sample::select(vec![Convention::Normal, Convention::Misere]));
    (
        (game, prop::collection::vec(number(), 0..5), convention),
        (
            prop::option::of(text("0123456789kn+q ", 12)),
            prop::option::of(number_u32()),
            prop::option::of(number_u32()),
            prop::option::of(number()),
        ),
    )
        .prop_map(|((game, heaps, convention), (rule, first_max, prev, max_take))| {
            GameOptions {
                game,
                heaps,
                convention,
                rule,
                first_max,
                prev,
                max_take,
                brute_force: false,
            }
        })
}

#[test]
fn takeaway_positions_and_moves_parse_or_refuse() {
    check((game_options(), text("0123456789 -AB", 30)), |(options, line)| {
        match GameSpec::new(&options) {
            Err(e) => short(&chain(&e))?,
            Ok(spec) => {
                if let Err(why) = spec.read_move(&line) {
                    short(&why)?;
                }
            }
        }
        Ok(())
    });
}
