//! Recipes: the small plain-text files in `experiments/` that say what a table is made of.
//!
//! A recipe is a list of `key = value` lines; `#` starts a comment, blank lines are ignored,
//! every key appears at most once. Lists are comma-separated. The `table` key says which kind
//! of table it is and so which other keys are allowed:
//!
//! | table | keys |
//! | --- | --- |
//! | `durations` | `colours`, `values`, `methods`, `deals`, `seed`, `conventions`, `exact`, `histograms` |
//! | `duels` | `colours`, `values`, `methods`, `deals`, `seed` |
//! | `records` | `sources`, `extra` |
//! | `loop-rates` | `sources`, `speed_natural`, `speed_optimized` |
//!
//! - `colours` (required): C. `values` (required): the list of V.
//! - `methods` (required): stacking methods by name (`natural`, `optimized`, `random`, ...).
//!   For `durations` one row per method (both players use it); for `duels` every ordered pair
//!   of two different methods.
//! - `deals` (default 100000): random deals per cell. `seed` (default 0): the seed of every
//!   cell (each cell is its own run of the search harness with that seed).
//! - `conventions` (default `end`): for the random method, `end` (games played to the end,
//!   the correct rule) and/or `repeat` (stopped at the first repeated position and left out of
//!   the mean, as the article's program did).
//! - `exact` (default 0): also compute the exact mean over all deals, exhaustively, for the
//!   deterministic methods of the decks with at most this many arrangements.
//! - `histograms`: the V whose duration histograms are plotted.
//! - `sources` (required for `records`): result folders (names under the results directory)
//!   whose `longest.csv` are read. `extra` (default `records.csv`): a file under the results
//!   directory read too when it exists (record searches append to it).
//! - For `loop-rates`, `sources` (required) are folders under the results directory searched
//!   for the `summary.csv` of every run; `speed_natural` and `speed_optimized` (required):
//!   52-card deals per second per core, for the times of the extrapolation.

use std::collections::BTreeMap;

use bataille_engine::position::quoted;
use bataille_engine::{DeckSpec, Method};

/// A validated recipe.
#[derive(Debug, Clone, PartialEq)]
pub enum Recipe {
    /// Mean durations (cards per player over finished games), one row per method.
    Durations(Durations),
    /// Win rates of every ordered pair of methods.
    Duels(Duels),
    /// Longest games found, compared with the public records.
    Records(Records),
    /// How rare loops are among random deals and positions.
    LoopRates(LoopRates),
}

/// How the random method is played (see [`bataille_search::RandomConvention`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Convention {
    /// Played to the end: the correct rule.
    End,
    /// Stopped at the first repeated position, left out of the mean: the article's program.
    Repeat,
}

impl Convention {
    /// `end` or `repeat`.
    pub fn name(self) -> &'static str {
        match self {
            Convention::End => "end",
            Convention::Repeat => "repeat",
        }
    }
}

/// A mean-duration table.
#[derive(Debug, Clone, PartialEq)]
pub struct Durations {
    /// C.
    pub colours: usize,
    /// The values V, one column each (each C·V deck validated).
    pub values: Vec<usize>,
    /// One row per method.
    pub methods: Vec<Method>,
    /// Random deals per cell.
    pub deals: u64,
    /// Seed of every cell.
    pub seed: u64,
    /// Conventions of the random method's rows.
    pub conventions: Vec<Convention>,
    /// Exhaustive exact means for decks with at most this many arrangements (0: none).
    pub exact: u128,
    /// The V whose histograms are plotted.
    pub histograms: Vec<usize>,
}

/// A win-rate table.
#[derive(Debug, Clone, PartialEq)]
pub struct Duels {
    /// C.
    pub colours: usize,
    /// The values V.
    pub values: Vec<usize>,
    /// The methods; every ordered pair of two different ones is played.
    pub methods: Vec<Method>,
    /// Random deals per pair.
    pub deals: u64,
    /// Seed of every pair.
    pub seed: u64,
}

/// A records table.
#[derive(Debug, Clone, PartialEq)]
pub struct Records {
    /// Result folders whose `longest.csv` are read.
    pub sources: Vec<String>,
    /// A further file under the results directory, read when it exists.
    pub extra: String,
}

/// A loop-rate table.
#[derive(Debug, Clone, PartialEq)]
pub struct LoopRates {
    /// Result folders searched for runs' `summary.csv`.
    pub sources: Vec<String>,
    /// 52-card natural deals per second per core.
    pub speed_natural: u64,
    /// 52-card optimized deals per second per core.
    pub speed_optimized: u64,
}

/// Why a recipe was refused. Line numbers are 1-based.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecipeError {
    /// A line is neither blank, a comment nor `key = value`.
    #[error("line {line}: expected `key = value`, got {}", quoted(.text))]
    Syntax {
        /// The line.
        line: usize,
        /// Its text.
        text: String,
    },
    /// A key given twice.
    #[error("line {line}: the key `{key}` is given twice")]
    Duplicate {
        /// The second occurrence.
        line: usize,
        /// The key.
        key: String,
    },
    /// A key this kind of table does not take.
    #[error("line {line}: unknown key `{key}` for a `{table}` table (expected one of: {expected})")]
    UnknownKey {
        /// Where.
        line: usize,
        /// The key.
        key: String,
        /// The table kind.
        table: String,
        /// The keys allowed.
        expected: String,
    },
    /// A required key is missing.
    #[error("missing key `{key}`")]
    Missing {
        /// The key.
        key: &'static str,
    },
    /// A value that does not parse or is out of range.
    #[error("line {line}: invalid {key} {}: {expected}", quoted(.value))]
    Value {
        /// Where.
        line: usize,
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// What was expected.
        expected: String,
    },
}

struct Entry {
    line: usize,
    value: String,
}

const DURATION_KEYS: &[&str] =
    &["colours", "values", "methods", "deals", "seed", "conventions", "exact", "histograms"];
const DUEL_KEYS: &[&str] = &["colours", "values", "methods", "deals", "seed"];
const RECORD_KEYS: &[&str] = &["sources", "extra"];
const RATE_KEYS: &[&str] = &["sources", "speed_natural", "speed_optimized"];

/// Default random deals per cell: the article's 100,000.
pub const DEFAULT_DEALS: u64 = 100_000;

impl Recipe {
    /// Parses and validates a recipe.
    pub fn parse(text: &str) -> Result<Recipe, RecipeError> {
        let mut entries: BTreeMap<String, Entry> = BTreeMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let Some((key, value)) = content.split_once('=') else {
                return Err(RecipeError::Syntax { line, text: raw.trim().to_string() });
            };
            let key = key.trim().to_string();
            if key.is_empty() || key.contains(char::is_whitespace) {
                return Err(RecipeError::Syntax { line, text: raw.trim().to_string() });
            }
            if entries.contains_key(&key) {
                return Err(RecipeError::Duplicate { line, key });
            }
            entries.insert(key, Entry { line, value: value.trim().to_string() });
        }
        let table = entries.remove("table").ok_or(RecipeError::Missing { key: "table" })?;
        let keys = match table.value.as_str() {
            "durations" => DURATION_KEYS,
            "duels" => DUEL_KEYS,
            "records" => RECORD_KEYS,
            "loop-rates" => RATE_KEYS,
            other => {
                return Err(RecipeError::Value {
                    line: table.line,
                    key: "table".into(),
                    value: other.into(),
                    expected: "expected durations, duels, records or loop-rates".into(),
                });
            }
        };
        if let Some((key, e)) = entries.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
            return Err(RecipeError::UnknownKey {
                line: e.line,
                key: key.clone(),
                table: table.value.clone(),
                expected: keys.join(", "),
            });
        }
        let r = Reader { entries };
        match table.value.as_str() {
            "durations" => {
                let colours = r.colours()?;
                let values = r.list("values", None, |s| parse_value(colours, s))?;
                let histograms = r.list("histograms", Some(""), |s| parse_value(colours, s))?;
                if let Some(&v) = histograms.iter().find(|v| !values.contains(v)) {
                    return Err(r.bad("histograms", &v.to_string(), "a V listed in `values`"));
                }
                let conventions = r.list("conventions", Some("end"), |s| match s {
                    "end" => Ok(Convention::End),
                    "repeat" => Ok(Convention::Repeat),
                    _ => Err("expected end or repeat".to_string()),
                })?;
                if conventions.is_empty() {
                    return Err(r.bad("conventions", "", "at least one of end, repeat"));
                }
                Ok(Recipe::Durations(Durations {
                    colours,
                    values: r.non_empty("values", values)?,
                    methods: r.non_empty("methods", r.list("methods", None, parse_method)?)?,
                    deals: r.deals()?,
                    seed: r.number("seed", Some(0))?,
                    conventions,
                    exact: u128::from(r.number("exact", Some(0))?),
                    histograms,
                }))
            }
            "duels" => {
                let colours = r.colours()?;
                let values = r.list("values", None, |s| parse_value(colours, s))?;
                let methods = r.list("methods", None, parse_method)?;
                if methods.len() < 2 {
                    return Err(r.bad(
                        "methods",
                        &r.raw("methods").unwrap_or_default(),
                        "at least two different methods",
                    ));
                }
                Ok(Recipe::Duels(Duels {
                    colours,
                    values: r.non_empty("values", values)?,
                    methods,
                    deals: r.deals()?,
                    seed: r.number("seed", Some(0))?,
                }))
            }
            "loop-rates" => {
                let sources = r.list("sources", None, folder)?;
                let speed = |key: &'static str| -> Result<u64, RecipeError> {
                    let n = r.number(key, None)?;
                    if n == 0 {
                        return Err(r.bad(key, "0", "a positive number of deals per second"));
                    }
                    Ok(n)
                };
                Ok(Recipe::LoopRates(LoopRates {
                    sources: r.non_empty("sources", sources)?,
                    speed_natural: speed("speed_natural")?,
                    speed_optimized: speed("speed_optimized")?,
                }))
            }
            _ => {
                let sources = r.list("sources", None, |s| {
                    if s.is_empty() || s.contains(['/', '\\']) || s.starts_with('.') {
                        Err("expected the name of a folder under the results directory".into())
                    } else {
                        Ok(s.to_string())
                    }
                })?;
                let extra = r.raw("extra").unwrap_or_else(|| "records.csv".to_string());
                if extra.is_empty() || extra.contains(['/', '\\']) || extra.starts_with('.') {
                    return Err(r.bad("extra", &extra, "a file name under the results directory"));
                }
                Ok(Recipe::Records(Records { sources: r.non_empty("sources", sources)?, extra }))
            }
        }
    }

    /// `durations`, `duels`, `records` or `loop-rates`.
    pub fn kind(&self) -> &'static str {
        match self {
            Recipe::Durations(_) => "durations",
            Recipe::Duels(_) => "duels",
            Recipe::Records(_) => "records",
            Recipe::LoopRates(_) => "loop-rates",
        }
    }

    /// The seed, for tables that draw random deals.
    pub fn seed(&self) -> Option<u64> {
        match self {
            Recipe::Durations(d) => Some(d.seed),
            Recipe::Duels(d) => Some(d.seed),
            Recipe::Records(_) | Recipe::LoopRates(_) => None,
        }
    }

    /// The same recipe with `deals` random deals per cell (a reduced or enlarged run).
    pub fn with_deals(mut self, deals: u64) -> Recipe {
        match &mut self {
            Recipe::Durations(d) => d.deals = deals,
            Recipe::Duels(d) => d.deals = deals,
            Recipe::Records(_) | Recipe::LoopRates(_) => {}
        }
        self
    }
}

/// A folder under the results directory: a plain name.
fn folder(s: &str) -> Result<String, String> {
    if s.is_empty() || s.contains(['/', '\\']) || s.starts_with('.') {
        Err("expected the name of a folder under the results directory".into())
    } else {
        Ok(s.to_string())
    }
}

fn parse_method(s: &str) -> Result<Method, String> {
    s.parse().map_err(|e: bataille_engine::MethodError| e.to_string())
}

fn parse_value(colours: usize, s: &str) -> Result<usize, String> {
    let v: usize = s.parse().map_err(|_| "expected a whole number of values V".to_string())?;
    DeckSpec::new(colours, v).map_err(|e| e.to_string())?;
    Ok(v)
}

struct Reader {
    entries: BTreeMap<String, Entry>,
}

impl Reader {
    fn raw(&self, key: &str) -> Option<String> {
        self.entries.get(key).map(|e| e.value.clone())
    }

    fn bad(&self, key: &str, value: &str, expected: &str) -> RecipeError {
        RecipeError::Value {
            line: self.entries.get(key).map_or(0, |e| e.line),
            key: key.into(),
            value: value.into(),
            expected: expected.into(),
        }
    }

    fn number(&self, key: &'static str, default: Option<u64>) -> Result<u64, RecipeError> {
        match (self.entries.get(key), default) {
            (None, Some(d)) => Ok(d),
            (None, None) => Err(RecipeError::Missing { key }),
            (Some(e), _) => e
                .value
                .replace('_', "")
                .parse()
                .map_err(|_| self.bad(key, &e.value, "expected a non-negative whole number")),
        }
    }

    /// `colours`: a C that some deck has (the values are checked with it, on their line).
    fn colours(&self) -> Result<usize, RecipeError> {
        let c = self.number("colours", None)?;
        if c == 0 || c > bataille_engine::MAX_CARDS as u64 {
            let expected = format!("1 to {} colours", bataille_engine::MAX_CARDS);
            return Err(self.bad("colours", &c.to_string(), &expected));
        }
        Ok(c as usize)
    }

    fn deals(&self) -> Result<u64, RecipeError> {
        let d = self.number("deals", Some(DEFAULT_DEALS))?;
        if d == 0 {
            return Err(self.bad("deals", "0", "at least 1 deal"));
        }
        Ok(d)
    }

    fn list<T: PartialEq>(
        &self,
        key: &'static str,
        default: Option<&str>,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Vec<T>, RecipeError> {
        let (line, text) = match (self.entries.get(key), default) {
            (Some(e), _) => (e.line, e.value.as_str()),
            (None, Some(d)) => (0, d),
            (None, None) => return Err(RecipeError::Missing { key }),
        };
        let mut out = Vec::new();
        // An empty list is allowed (`histograms =`); an empty item between commas is not.
        let items: Vec<&str> = text.split(',').map(str::trim).collect();
        if items.len() > 1 && items.iter().any(|s| s.is_empty()) {
            return Err(RecipeError::Value {
                line,
                key: key.into(),
                value: text.into(),
                expected: "a comma-separated list with an item between every two commas".into(),
            });
        }
        for item in items.into_iter().filter(|s| !s.is_empty()) {
            let v = parse(item).map_err(|expected| RecipeError::Value {
                line,
                key: key.into(),
                value: item.into(),
                expected,
            })?;
            if out.contains(&v) {
                return Err(RecipeError::Value {
                    line,
                    key: key.into(),
                    value: item.into(),
                    expected: "each item once".into(),
                });
            }
            out.push(v);
        }
        Ok(out)
    }

    fn non_empty<T>(&self, key: &'static str, v: Vec<T>) -> Result<Vec<T>, RecipeError> {
        if v.is_empty() {
            return Err(self.bad(key, "", "at least one item"));
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_recipe() {
        let r = Recipe::parse(
            "# C = 1\ntable = durations\ncolours = 1\nvalues = 2, 4, 10 # columns\n\
             methods = natural, random\nseed = 7\nconventions = end, repeat\nexact = 1_000\n",
        )
        .unwrap();
        let Recipe::Durations(d) = r else { panic!("{r:?}") };
        assert_eq!(d.values, [2, 4, 10]);
        assert_eq!(d.methods, [Method::Natural, Method::Random]);
        assert_eq!((d.deals, d.seed, d.exact), (DEFAULT_DEALS, 7, 1000));
        assert_eq!(d.conventions, [Convention::End, Convention::Repeat]);
        assert!(d.histograms.is_empty());
    }

    #[test]
    fn duels_and_records_recipes() {
        let r = Recipe::parse(
            "table = duels\ncolours = 4\nvalues = 8, 13\nmethods = optimized, natural\ndeals = 5",
        )
        .unwrap();
        assert_eq!(r.seed(), Some(0));
        let Recipe::Duels(d) = r.with_deals(9) else { panic!() };
        assert_eq!((d.deals, d.values.as_slice()), (9, &[8, 13][..]));
        let r = Recipe::parse("table = records\nsources = a, b").unwrap();
        assert_eq!(
            r,
            Recipe::Records(Records {
                sources: vec!["a".into(), "b".into()],
                extra: "records.csv".into()
            })
        );
    }

    #[test]
    fn bad_recipes() {
        let check = |text: &str, expected: &str| {
            let e = Recipe::parse(text).unwrap_err().to_string();
            assert_eq!(e, expected, "{text}");
        };
        let head = "table = durations\ncolours = 4\n";
        check("", "missing key `table`");
        check(
            "table = sums",
            "line 1: invalid table \"sums\": expected durations, duels, records or loop-rates",
        );
        check(
            &format!("{head}values = 3,,4\nmethods = natural"),
            "line 3: invalid values \"3,,4\": a comma-separated list with an item between every \
             two commas",
        );
        check("table durations", "line 1: expected `key = value`, got \"table durations\"");
        check(
            &format!("{head}values = 2\nmethods = natural\nvalues = 3"),
            "line 5: the key `values` is given twice",
        );
        check(
            &format!("{head}values = 2\nmethods = natural\nsources = x"),
            "line 5: unknown key `sources` for a `durations` table (expected one of: colours, \
             values, methods, deals, seed, conventions, exact, histograms)",
        );
        check(&format!("{head}methods = natural"), "missing key `values`");
        check(
            &format!("{head}values = 2, x\nmethods = natural"),
            "line 3: invalid values \"x\": expected a whole number of values V",
        );
        check(
            &format!("{head}values = 2, 2\nmethods = natural"),
            "line 3: invalid values \"2\": each item once",
        );
        check(
            &format!("{head}values = 2\nmethods = natural, lazy"),
            "line 4: invalid methods \"lazy\": unknown stacking method \"lazy\": expected one of natural, optimized, \
             random, ascending, first-player-first",
        );
        check(
            &format!("{head}values = 2\nmethods = natural\ndeals = 0"),
            "line 5: invalid deals \"0\": at least 1 deal",
        );
        check(
            &format!("{head}values = 2\nmethods = natural\ndeals = -3"),
            "line 5: invalid deals \"-3\": expected a non-negative whole number",
        );
        check(
            &format!("{head}values = 2\nmethods = random\nconventions = end, later"),
            "line 5: invalid conventions \"later\": expected end or repeat",
        );
        check(
            &format!("{head}values = 2\nmethods = natural\nhistograms = 3"),
            "line 5: invalid histograms \"3\": a V listed in `values`",
        );
        check(
            "table = duels\ncolours = 4\nvalues = 8\nmethods = natural",
            "line 4: invalid methods \"natural\": at least two different methods",
        );
        check(
            "table = records\nsources = ../x",
            "line 2: invalid sources \"../x\": expected the name of a folder under the results directory",
        );
        check(
            "table = durations\ncolours = 0\nvalues = 2\nmethods = natural",
            "line 2: invalid colours \"0\": 1 to 256 colours",
        );
        let e = Recipe::parse("table = durations\ncolours = 4\nvalues = 100\nmethods = natural")
            .unwrap_err();
        assert!(e.to_string().starts_with("line 3: invalid values \"100\": "), "{e}");
    }
}
