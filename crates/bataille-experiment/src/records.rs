//! The records table: the longest finished games found per (C, V, method), by tricks and by
//! cards, from the `longest.csv` files of the duration runs and from a shared record file that
//! record searches append to, compared with the public record table.
//!
//! The shared file's columns are read by name, case-insensitively: `colours` (or `c`),
//! `values` (or `v`), `method`, `tricks` and/or `cards`, and optionally `deal`, `source` and
//! `deals` (which deals were searched, e.g. `all` or `random 100000`).
//! Rows that lack them are skipped and counted; a file without the needed columns is reported
//! and otherwise ignored.

use std::collections::BTreeMap;

use bataille_engine::Method;

use crate::recipe::Records;
use crate::{ExperimentError, Output, csv_bytes};
use bataille_records::published::{self, PUBLIC_RECORDS};

/// One finished game read from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Tricks, if given.
    pub tricks: Option<u64>,
    /// Cards per player, if given.
    pub cards: Option<u64>,
    /// The deal, if given.
    pub deal: String,
    /// Where it was read.
    pub source: String,
}

type Key = (usize, usize, String);

/// The best by each measure for every (C, V, method).
#[derive(Debug, Default)]
pub struct Best {
    by_tricks: BTreeMap<Key, Found>,
    by_cards: BTreeMap<Key, Found>,
    /// Lines about the inputs (missing files, skipped rows).
    pub notes: Vec<String>,
}

impl Best {
    fn offer(&mut self, key: Key, f: Found) {
        let better = |a: Option<u64>, b: Option<u64>| a.unwrap_or(0) > b.unwrap_or(0);
        if f.tricks.is_some() {
            let e = self.by_tricks.entry(key.clone()).or_insert_with(|| f.clone());
            if better(f.tricks, e.tricks) {
                *e = f.clone();
            }
        }
        if f.cards.is_some() {
            let e = self.by_cards.entry(key).or_insert_with(|| f.clone());
            if better(f.cards, e.cards) {
                *e = f;
            }
        }
    }

    /// Reads a CSV of games (see the module docs), labelling them with `source`.
    pub fn read(&mut self, source: &str, text: &str) {
        let mut r = csv::ReaderBuilder::new().flexible(true).from_reader(text.as_bytes());
        let Ok(headers) = r.headers().cloned() else {
            self.notes.push(format!("{source}: no header line, ignored"));
            return;
        };
        let col = |names: &[&str]| {
            headers.iter().position(|h| names.iter().any(|n| h.trim().eq_ignore_ascii_case(n)))
        };
        let (c, v, m) =
            (col(&["colours", "colors", "c"]), col(&["values", "v"]), col(&["method", "methods"]));
        let (t, k) = (col(&["tricks"]), col(&["cards"]));
        let (deal, src, deals) = (col(&["deal"]), col(&["source"]), col(&["deals"]));
        let (Some(c), Some(v), Some(m)) = (c, v, m) else {
            self.notes.push(format!(
                "{source}: no colours/values/method columns (found: {}), ignored",
                headers.iter().collect::<Vec<_>>().join(", ")
            ));
            return;
        };
        if t.is_none() && k.is_none() {
            self.notes.push(format!("{source}: neither a tricks nor a cards column, ignored"));
            return;
        }
        let (mut used, mut skipped) = (0, 0);
        for row in r.records() {
            let Ok(row) = row else {
                skipped += 1;
                continue;
            };
            let get = |i: Option<usize>| i.and_then(|i| row.get(i)).map(str::trim).unwrap_or("");
            let num = |i: Option<usize>| get(i).parse::<u64>().ok();
            let method = get(Some(m)).parse::<Method>().ok();
            let (Some(cc), Some(vv), Some(method)) = (num(Some(c)), num(Some(v)), method) else {
                skipped += 1;
                continue;
            };
            let (tricks, cards) = (num(t), num(k));
            if tricks.is_none() && cards.is_none() {
                skipped += 1;
                continue;
            }
            let label = match (get(src), get(deals)) {
                ("", "") => source.to_string(),
                ("", d) => format!("{source} ({d} deals)"),
                (s, _) => format!("{source} ({s})"),
            };
            used += 1;
            self.offer(
                (cc as usize, vv as usize, method.name().to_string()),
                Found { tricks, cards, deal: get(deal).to_string(), source: label },
            );
        }
        if skipped > 0 {
            self.notes.push(format!("{source}: {used} rows read, {skipped} skipped (unreadable)"));
        }
    }
}

/// Builds the table from the sources' `longest.csv` texts (`None`: the file is missing) and the
/// shared record file (`None`: absent).
pub fn run(
    recipe: &Records,
    sources: &[(String, Option<String>)],
    extra: Option<&str>,
) -> Result<Output, ExperimentError> {
    let mut best = Best::default();
    for (name, text) in sources {
        match text {
            Some(t) => best.read(&format!("{name}/longest.csv"), t),
            None => best.notes.push(format!("{name}/longest.csv: missing (run that recipe first)")),
        }
    }
    match extra {
        Some(t) => best.read(&recipe.extra, t),
        None => best.notes.push(format!("{}: absent", recipe.extra)),
    }
    let mut keys: Vec<Key> = best.by_tricks.keys().chain(best.by_cards.keys()).cloned().collect();
    for r in PUBLIC_RECORDS {
        keys.push((r.colours, r.values, r.method.name().to_string()));
    }
    keys.sort();
    keys.dedup();
    let mut rows = vec![
        [
            "colours",
            "values",
            "method",
            "best_tricks",
            "best_tricks_cards",
            "best_tricks_source",
            "best_tricks_deal",
            "best_cards",
            "best_cards_tricks",
            "best_cards_source",
            "best_cards_deal",
            "public_tricks",
            "public_note",
        ]
        .map(String::from)
        .to_vec(),
    ];
    let mut md = String::from(
        "Longest finished games found per (C, V, method) in the runs read, against the public \
         record table (tricks).\n\n\
         | C | V | method | longest (tricks) | its cards | longest (cards) | its tricks | public record (tricks) | source |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    let n = |x: Option<u64>| x.map_or(String::new(), |x| x.to_string());
    for key in &keys {
        let t = best.by_tricks.get(key);
        let k = best.by_cards.get(key);
        let public =
            key.2.parse::<Method>().ok().and_then(|m| published::public_record(key.0, key.1, m));
        rows.push(vec![
            key.0.to_string(),
            key.1.to_string(),
            key.2.clone(),
            n(t.and_then(|f| f.tricks)),
            n(t.and_then(|f| f.cards)),
            t.map_or(String::new(), |f| f.source.clone()),
            t.map_or(String::new(), |f| f.deal.clone()),
            n(k.and_then(|f| f.cards)),
            n(k.and_then(|f| f.tricks)),
            k.map_or(String::new(), |f| f.source.clone()),
            k.map_or(String::new(), |f| f.deal.clone()),
            n(public.map(|p| p.tricks)),
            public.map_or(String::new(), |p| p.notes()),
        ]);
        let public_text = match public {
            Some(p) if p.notes().is_empty() => p.tricks.to_string(),
            Some(p) => format!("{} ({})", p.tricks, p.notes()),
            None => String::new(),
        };
        let mut sources: Vec<&str> = t.iter().chain(k.iter()).map(|f| f.source.as_str()).collect();
        sources.dedup();
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            key.0,
            key.1,
            key.2,
            n(t.and_then(|f| f.tricks)),
            n(t.and_then(|f| f.cards)),
            n(k.and_then(|f| f.cards)),
            n(k.and_then(|f| f.tricks)),
            public_text,
            sources.join(", ")
        ));
    }
    if !best.notes.is_empty() {
        md.push_str("\nInputs:\n\n");
        for note in &best.notes {
            md.push_str(&format!("- {note}\n"));
        }
    }
    Ok(Output {
        files: vec![
            ("best.csv".to_string(), csv_bytes(&rows)?),
            ("table.md".to_string(), md.clone().into_bytes()),
        ],
        summary: md,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_by_column_name_and_keeps_the_best() {
        let mut b = Best::default();
        b.read(
            "a",
            "colours,values,method,convention,measure,rank,tricks,cards,finish,deal\n\
             4,8,natural,,tricks,1,900,950,first,[1] / [2]\n\
             4,8,natural,,cards,1,880,990,first,[3] / [4]\n",
        );
        b.read("shared", "Deal,Tricks,C,V,Method,Source\n[5] / [6],1000,4,8,natural,search 7\nx,y,z\n,12,4,8,natural,\n");
        b.read("bad", "a,b\n1,2\n");
        let key = (4, 8, "natural".to_string());
        assert_eq!(b.by_tricks[&key].tricks, Some(1000));
        assert_eq!(b.by_tricks[&key].source, "shared (search 7)");
        assert_eq!(b.by_cards[&key].cards, Some(990));
        assert_eq!(b.notes.len(), 2, "{:?}", b.notes);
        assert!(b.notes[0].starts_with("shared: 2 rows read, 1 skipped"), "{:?}", b.notes);
        assert!(b.notes[1].starts_with("bad: no colours/values/method columns"), "{:?}", b.notes);
    }

    #[test]
    fn table_without_inputs_lists_the_public_records() {
        let recipe = Records { sources: vec!["x".into()], extra: "records.csv".into() };
        let out = run(&recipe, &[("x".into(), None)], None).unwrap();
        assert!(out.summary.contains("| 4 | 13 | natural |  |  |  |  | 5610 (article: 5506) |"));
        assert!(out.summary.contains("- records.csv: absent"));
    }
}
