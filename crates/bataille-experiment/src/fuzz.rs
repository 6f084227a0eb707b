//! The fuzz suite's property of recipes (`bataille_fuzz` says how to run a longer campaign):
//! lines of known keys with plausible or extreme values, or junk, read or refused briefly.

use bataille_fuzz::{check, number_text, short, text};
use proptest::prelude::*;

use crate::Recipe;

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
        if let Err(e) = Recipe::parse(&lines.join("\n")) {
            short(&e.to_string())?;
        }
        Ok(())
    });
}
