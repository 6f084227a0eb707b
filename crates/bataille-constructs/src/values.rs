//! The lists of V a person gives `bataille construct`: `18`, `5..200`, `5..=200`, `5,7,9` or
//! a mix.
//!
//! ```
//! use bataille_constructs::values::parse_values;
//!
//! assert_eq!(parse_values("4..6,10").unwrap(), vec![4, 5, 6, 10]);
//! assert!(parse_values("8..5").unwrap_err().to_string().contains("the range 8..5 is empty"));
//! ```

use std::collections::HashSet;
use std::num::ParseIntError;

use bataille_engine::position::quoted;

/// Why a list of V cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValuesError {
    /// An item is not a whole number.
    #[error("cannot read the values {}: {} is not a whole number", quoted(.text), quoted(.item))]
    Number {
        /// The whole list.
        text: String,
        /// The item.
        item: String,
        /// Why it is not a number.
        source: ParseIntError,
    },
    /// A range from a larger V to a smaller one.
    #[error("cannot read the values {}: the range {lo}..{hi} is empty", quoted(.text))]
    Empty {
        /// The whole list.
        text: String,
        /// Where the range starts.
        lo: usize,
        /// Where it ends.
        hi: usize,
    },
}

/// Reads `18`, `5..200`, `5..=200`, `5,7,9` or a mix, in order, without repeats.
pub fn parse_values(text: &str) -> Result<Vec<usize>, ValuesError> {
    let number = |s: &str| {
        s.trim().parse::<usize>().map_err(|source| ValuesError::Number {
            text: text.to_string(),
            item: s.trim().to_string(),
            source,
        })
    };
    let mut out = Vec::new();
    for part in text.split(',') {
        if let Some((lo, hi)) = part.split_once("..") {
            let (lo, hi) = (number(lo)?, number(hi.trim_start_matches('='))?);
            if lo > hi {
                return Err(ValuesError::Empty { text: text.to_string(), lo, hi });
            }
            out.extend(lo..=hi);
        } else {
            out.push(number(part)?);
        }
    }
    let mut seen = HashSet::new();
    out.retain(|v| seen.insert(*v));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_lists() {
        assert_eq!(parse_values("18").unwrap(), vec![18]);
        assert_eq!(parse_values("5..8").unwrap(), vec![5, 6, 7, 8]);
        assert_eq!(parse_values("5..=7,3, 5").unwrap(), vec![5, 6, 7, 3]);
        for (bad, needle) in [("x", "\"x\" is not"), ("5..", "\"\" is not"), ("8..5", "is empty")] {
            let e = parse_values(bad).unwrap_err().to_string();
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }
}
