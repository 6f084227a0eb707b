//! The committed exhaustive hunts read back for `verify`: each hunt's merged state file, found
//! in a results directory, decoded and turned into the claims it settles
//! (`bataille_verify::hunts`).

use std::path::Path;

use bataille_claims::{Claim, Status};
use bataille_search::state::State;
use bataille_verify::hunts::{CommittedHunt, hunt_claims};

use crate::files::{MAX_STATE_BYTES, read_bounded};

/// The claims of `hunts` whose merged state is in the `results` directory (their paths are
/// given from the repository's root, `results/...`), and for the others why not (`none`: why
/// there is no results directory at all). An unreadable or corrupt state is a failed claim:
/// the committed file does not hold what it should.
pub fn read_hunts<'a>(
    hunts: &[&'a CommittedHunt],
    results: Option<&Path>,
    none: &str,
) -> (Vec<Claim>, Vec<(&'a CommittedHunt, String)>) {
    let mut claims = Vec::new();
    let mut missing = Vec::new();
    for &hunt in hunts {
        let Some(results) = results else {
            missing.push((hunt, none.to_string()));
            continue;
        };
        let path = results.join(hunt.state.strip_prefix("results/").unwrap_or(hunt.state));
        let read = read_bounded(&path, MAX_STATE_BYTES);
        if let Ok(None) = read {
            missing.push((
                hunt,
                format!(
                    "no {}: the hunt is not finished and merged yet ({})",
                    path.display(),
                    hunt.command
                ),
            ));
            continue;
        }
        let state = read
            .map_err(|e| e.to_string())
            .and_then(|t| State::decode(&t.unwrap_or_default()).map_err(|e| e.to_string()));
        match state {
            Ok(state) => claims.extend(hunt_claims(hunt, &state)),
            Err(e) => claims.push(Claim {
                id: hunt.ids[0],
                source: "the committed state file",
                claim: format!("{} reads as a search state", hunt.state),
                published: "a state".to_string(),
                computed: "unreadable".to_string(),
                status: Status::Fail,
                evidence: e,
            }),
        }
    }
    (claims, missing)
}
