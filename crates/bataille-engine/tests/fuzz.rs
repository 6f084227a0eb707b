//! The fuzz suite's properties of deals (`bataille_fuzz` says how to run a longer campaign):
//! any text read as a position or as a deal of a deck answers or is refused briefly, and a
//! position reads back from both of its notations.

use bataille_engine::Position;
use bataille_engine::deal::{DeckOf, read_deal};
use bataille_fuzz::{chain, check, short, text};
use proptest::prelude::*;

#[test]
fn deals_parse_or_refuse_briefly() {
    check(text("0123456789,/[] 1", 400), |t| {
        if let Err(e) = Position::parse(&t) {
            short(&chain(&e))?;
        }
        for (colours, values, partial) in
            [(None, None, false), (None, None, true), (Some(0), Some(300), true)]
        {
            if let Err(e) = read_deal(&t, &DeckOf { colours, values, partial }) {
                short(&chain(&e))?;
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
