//! The article's published mean durations, typed from its tables ("DURÉES MOYENNES"). The
//! public record table is `bataille_records::published`.

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
