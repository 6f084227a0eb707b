//! The standing fuzz suite's property of the records file, whose reader is this crate's (see
//! `bataille-fuzz`): any text answers rows or a short error, and a row that reads is one the
//! engine can replay.

use std::path::Path;

use bataille_fuzz::{check, number_text, short, text};
use proptest::prelude::*;

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
        let mut t = if with_header { format!("{head}\n") } else { String::new() };
        t += &rows.join("\n");
        if let Err(e) = crate::records::records_of(Path::new("r.csv"), &t) {
            short(&e.chain())?;
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
            let refused = e.contains("line 2: records are for deterministic");
            prop_assert!(m != "random" || refused, "{e}");
        }
        Ok(())
    });
}
