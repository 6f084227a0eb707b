//! The fuzz suite's property of the record search's state file (`bataille_fuzz` says how to
//! run a longer campaign): damaged, it decodes or is refused briefly, never with a panic.

use bataille_engine::{DeckSpec, Method, Methods};
use bataille_fuzz::{check, damaged, short};
use bataille_search::stats::Measure;

use crate::search::{Anneal, Config, SearchState};

#[test]
fn search_states_decode_or_refuse() {
    let cfg = Config {
        spec: DeckSpec::new(4, 3).unwrap(),
        methods: Methods::new(Method::Natural, Method::Natural),
        measure: Measure::Tricks,
        seed: 1,
        chains: 2,
        anneal: Anneal::default(),
    };
    let search = SearchState::new(&cfg).encode();
    assert!(SearchState::decode(&search, &cfg).is_ok());
    check(damaged(search), |t| {
        if let Err(e) = SearchState::decode(&t, &cfg) {
            short(&e.to_string())?;
        }
        Ok(())
    });
}
