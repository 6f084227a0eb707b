//! The article's published figures, typed from seed 002, and the public record table of the
//! authors' repository (github.com/cristal-smac/bataille).

use bataille_engine::Method;

/// A printed mean: its value and the number of decimals printed (for the rounding half-unit).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Printed {
    /// The value as printed.
    pub value: f64,
    /// Decimals printed.
    pub decimals: u32,
}

impl Printed {
    /// Half a unit of the last printed digit: the most the rounding can account for.
    pub fn half_unit(self) -> f64 {
        0.5 * 10f64.powi(-(self.decimals as i32))
    }
}

const fn p(value: f64, decimals: u32) -> Printed {
    Printed { value, decimals }
}

/// "DURÉES MOYENNES DANS LE CAS C = 1": V, natural or optimized, random.
const C1: [(usize, Printed, Printed); 5] = [
    (2, p(1.0, 1), p(1.0, 1)),
    (4, p(3.33, 2), p(3.52, 2)),
    (10, p(14.47, 2), p(24.83, 2)),
    (32, p(129.93, 2), p(256.22, 2)),
    (52, p(338.12, 2), p(674.90, 2)),
];

/// "DURÉES MOYENNES DANS LE CAS C = 4": V, optimized, natural, random.
const C4: [(usize, Printed, Printed, Printed); 7] = [
    (2, p(5.37, 2), p(5.37, 2), p(6.20, 2)),
    (3, p(12.10, 2), p(13.43, 2), p(18.65, 2)),
    (4, p(24.04, 2), p(28.53, 2), p(41.32, 2)),
    (5, p(41.66, 2), p(48.44, 2), p(72.77, 2)),
    (8, p(118.22, 2), p(131.87, 2), p(216.79, 2)),
    (10, p(189.70, 2), p(207.37, 2), p(352.92, 2)),
    (13, p(328.03, 2), p(349.44, 2), p(620.73, 2)),
];

/// The article's mean duration (cards played per player, both players using `method`) for
/// C = `colours`, V = `values`, if it printed one. With C = 1 natural and optimized share a row.
pub fn mean_duration(colours: usize, values: usize, method: Method) -> Option<Printed> {
    match colours {
        1 => C1.iter().find(|r| r.0 == values).and_then(|r| match method {
            Method::Natural | Method::Optimized => Some(r.1),
            Method::Random => Some(r.2),
            _ => None,
        }),
        4 => C4.iter().find(|r| r.0 == values).and_then(|r| match method {
            Method::Optimized => Some(r.1),
            Method::Natural => Some(r.2),
            Method::Random => Some(r.3),
            _ => None,
        }),
        _ => None,
    }
}

/// A public record: the longest finished game known, in tricks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublicRecord {
    /// C.
    pub colours: usize,
    /// V.
    pub values: usize,
    /// Both players' method.
    pub method: Method,
    /// Tricks.
    pub tricks: u64,
    /// What else was published for the same cell.
    pub note: &'static str,
}

const fn rec(
    colours: usize,
    values: usize,
    method: Method,
    tricks: u64,
    note: &'static str,
) -> PublicRecord {
    PublicRecord { colours, values, method, tricks, note }
}

/// The public record table of the authors' repository (github.com/cristal-smac/bataille, 2025):
/// longest finished games in tricks. The optimized column is behind the run logs of the C++
/// explorer that found most of these records (github.com/legrosbuffle/bataille_cpp,
/// `results/`; replayed by `bataille verify`, entries `log-*`): the notes give its longer games.
pub const PUBLIC_RECORDS: &[PublicRecord] = &[
    rec(4, 5, Method::Natural, 453, ""),
    rec(4, 5, Method::Optimized, 311, "a later exhaustive search reports 316"),
    rec(4, 6, Method::Natural, 994, ""),
    rec(4, 6, Method::Optimized, 620, "C++ explorer's logs: 640"),
    rec(4, 7, Method::Natural, 1611, ""),
    rec(4, 7, Method::Optimized, 2427, "C++ explorer's logs: 2505"),
    rec(4, 8, Method::Natural, 2308, "article: 1999"),
    rec(4, 8, Method::Optimized, 1645, "C++ explorer's logs: 1757"),
    rec(4, 9, Method::Natural, 2708, ""),
    rec(4, 9, Method::Optimized, 1936, "C++ explorer's logs: 2209"),
    rec(4, 10, Method::Natural, 3745, ""),
    rec(4, 10, Method::Optimized, 2628, "C++ explorer's logs: 2742"),
    rec(4, 11, Method::Natural, 4211, ""),
    rec(4, 11, Method::Optimized, 15136, "C++ explorer's logs: 15801"),
    rec(4, 12, Method::Natural, 4913, ""),
    rec(4, 12, Method::Optimized, 3206, "C++ explorer's logs: 4160"),
    rec(4, 13, Method::Natural, 5610, "article: 5506"),
    rec(4, 13, Method::Optimized, 4060, "C++ explorer's logs: 5174"),
    rec(1, 16, Method::Natural, 246, ""),
    rec(1, 22, Method::Natural, 1391, ""),
    rec(1, 24, Method::Natural, 886, ""),
    rec(1, 32, Method::Natural, 1810, ""),
    rec(1, 48, Method::Natural, 4146, ""),
    rec(1, 64, Method::Natural, 7568, ""),
];

/// The public record for a cell (with C = 1, natural and optimized are the same game).
pub fn public_record(colours: usize, values: usize, method: Method) -> Option<PublicRecord> {
    let method = if colours == 1 && method == Method::Optimized { Method::Natural } else { method };
    PUBLIC_RECORDS
        .iter()
        .find(|r| (r.colours, r.values, r.method) == (colours, values, method))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The record table here and the deals `bataille verify` replays are typed from the same
    /// sources: they must give the same tricks, and the notes the same logged games.
    #[test]
    fn records_agree_with_the_verified_deals() {
        let entries = bataille_verify::catalogue();
        let published = |name: &str| {
            entries
                .iter()
                .find(|e| e.id == name)
                .unwrap_or_else(|| panic!("no verify entry {name}"))
                .published
                .clone()
        };
        for r in PUBLIC_RECORDS {
            let name = if r.colours == 1 {
                format!("record-c1-v{}", r.values)
            } else {
                format!("record-c{}-v{}-{}", r.colours, r.values, r.method)
            };
            let text = published(&name);
            assert!(text.starts_with(&format!("{} tricks,", r.tricks)), "{name}: {text}");
            if let Some(logged) = r.note.strip_prefix("C++ explorer's logs: ") {
                let name = format!("log-c{}-v{}-{}", r.colours, r.values, r.method);
                assert_eq!(published(&name), format!("{logged} tricks"), "{name}");
            }
        }
    }
}
