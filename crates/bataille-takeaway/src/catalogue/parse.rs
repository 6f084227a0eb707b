//! Readers for the notations of the documents: couples `(48,7)G13`, triplets `(6, 3, 1)G IB`,
//! decompositions `17 = 1 + F_6 + F_3`, and sequences of numbers.

/// One coordinate of a printed couple or triplet: a number, or the letter `n` ("any").
pub(super) type Coord = Option<u32>;

/// A printed entry: its coordinates, `P` or `G`, and what follows the letter (the winning
/// take `13` of a couple, the move `IB` of a triplet), dots removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Printed {
    pub(super) coords: Vec<Coord>,
    pub(super) won: bool,
    pub(super) tail: String,
}

impl Printed {
    /// The entry as printed, e.g. `(48,7)G13`.
    pub(super) fn show(&self) -> String {
        let c: Vec<String> =
            self.coords.iter().map(|c| c.map_or("n".to_string(), |v| v.to_string())).collect();
        let sep = if self.coords.len() == 2 { "," } else { ", " };
        let tail = if self.tail.is_empty() { String::new() } else { format!(" {}", self.tail) };
        format!("({}){}{tail}", c.join(sep), if self.won { 'G' } else { 'P' })
    }
}

/// Every `(x, y, ...)P` or `(x, y, ...)G tail` in `text`, in order.
pub(super) fn entries(text: &str) -> Vec<Printed> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        rest = &rest[open + 1..];
        let Some(close) = rest.find(')') else { break };
        let inside = &rest[..close];
        rest = &rest[close + 1..];
        let coords: Option<Vec<Coord>> = inside
            .split(',')
            .map(|c| match c.trim() {
                "n" => Some(None),
                v => v.parse().ok().map(Some),
            })
            .collect();
        let Some(coords) = coords else { continue };
        let after = rest.trim_start();
        let won = match after.chars().next() {
            Some('P') => false,
            Some('G') => true,
            _ => continue,
        };
        let after = &after[1..];
        let end = after.find('(').unwrap_or(after.len());
        let tail: String =
            after[..end].chars().filter(|c| !c.is_whitespace() && *c != '.').collect();
        out.push(Printed { coords, won, tail });
    }
    out
}

/// `17 = 1 + F_6 + F_3 (...)` as `(17, [6, 3])`; the text in brackets is ignored.
pub(super) fn decomposition(text: &str) -> Option<(u64, Vec<usize>)> {
    let text = text.split('(').next()?;
    let (a, rhs) = text.split_once('=')?;
    let a = a.trim().parse().ok()?;
    let mut parts = rhs.split('+').map(str::trim);
    if parts.next()? != "1" {
        return None;
    }
    let idx = parts.map(|p| p.strip_prefix("F_")?.parse().ok()).collect::<Option<Vec<_>>>()?;
    Some((a, idx))
}

/// The numbers of a printed sequence.
pub(super) fn numbers(text: &str) -> Vec<u64> {
    text.split_whitespace()
        .map(|w| w.parse().expect("the catalogue's sequences are numbers"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_printed_notations() {
        let e = entries(
            "(48,6)P... (48,7)G13 (47,1)G1(46,1)P (35,8) P (1,n)P (6, 3, 1)G IB (4, 2, 1)G A",
        );
        let shown: Vec<String> = e.iter().map(Printed::show).collect();
        assert_eq!(
            shown,
            [
                "(48,6)P",
                "(48,7)G 13",
                "(47,1)G 1",
                "(46,1)P",
                "(35,8)P",
                "(1,n)P",
                "(6, 3, 1)G IB",
                "(4, 2, 1)G A"
            ]
        );
        assert_eq!(decomposition("21 = 1 + F_6 + F_4 + F_2 (= F_7)"), Some((21, vec![6, 4, 2])));
        assert_eq!(decomposition("21 = 2 + F_6"), None);
        assert_eq!(numbers(" 1 2  3\n5 "), vec![1, 2, 3, 5]);
    }
}
