//! The fuzz suite's properties of the census and blocks state files and of seeds files
//! (`bataille_fuzz` says how to run a longer campaign): damaged, they are read or refused
//! briefly, never with a panic.

use bataille_engine::{DeckSpec, Method};
use bataille_fuzz::{check, damaged, short, text};
use bataille_search::plan::Shard;

use crate::blocks::{BlocksSpec, BlocksState};
use crate::census::{CensusSpec, CensusState};

#[test]
fn census_and_block_states_decode_or_refuse() {
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
}

#[test]
fn seeds_files_read_or_refuse() {
    check(text("0123456789,/[] #\n", 300), |t| {
        if let Err(e) = crate::hunt::read_seeds(&t) {
            short(&e.to_string())?;
        }
        Ok(())
    });
}
