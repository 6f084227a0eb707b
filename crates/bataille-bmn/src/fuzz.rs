//! The fuzz suite's property of beggar-my-neighbour hands (`bataille_fuzz` says how to run a
//! longer campaign): any two texts read as hands answer or are refused, never panic.

use bataille_fuzz::{check, text};

use crate::Hands;

#[test]
fn bmn_hands_parse_or_refuse() {
    check((text("-JQKAjqka01234[], ", 120), text("-JQKA[], 0", 120)), |(a, b)| {
        let _ = Hands::parse(&a, &b);
        Ok(())
    });
}
