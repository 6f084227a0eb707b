//! The walk up the tree of a position's (or its loop's) ancestors
//! (`bataille_cycles::ancestors`), with its listing of deals: the listing's file checked and
//! locked before the walk ([`Ancestors::prepare`]), then the walk, its report and the listing
//! written ([`Ancestors::walk`]). A walk stopped by the request is reported, and its deals
//! listed, as one stopped on its budget is.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use bataille_cycles::ancestors::{self, Keep, Tree};
use bataille_engine::backward::Bounds;
use bataille_engine::{Methods, Position};

use crate::Error;
use crate::cycles::check_walk_memory;
use crate::error::{Context, Result, bail};
use crate::files::{Outputs, Words, prepare_file_output, write_atomic};
use crate::progress::Steps;

/// Where the deals of the tree are listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listing {
    /// To a CSV file, written whole once the walk is over.
    File(PathBuf),
    /// Handed back to the caller ([`AncestorsEnd::deals`]), to show.
    Returned,
}

/// A walk as the caller asked for it.
#[derive(Debug, Clone)]
pub struct AncestorsConfig {
    /// Whose ancestors: a position of a whole deck (on a loop: the loop's).
    pub position: Position,
    /// The methods, deterministic.
    pub methods: Methods,
    /// How deep, with which tricks, and how many ancestors at most.
    pub bounds: Bounds,
    /// How many of the deepest ancestors to report.
    pub deepest: usize,
    /// Where to list the deals of the tree, if anywhere.
    pub deals: Option<Listing>,
    /// Whether a listing file that exists may be replaced.
    pub replace: bool,
    /// The names of these options in refusals.
    pub words: Words,
}

/// A walk checked, its listing file locked until it is dropped.
#[derive(Debug)]
pub struct Ancestors {
    config: AncestorsConfig,
    _outputs: Outputs,
}

/// What a walk found.
#[derive(Debug, Clone)]
pub struct AncestorsEnd {
    /// The tree: its root, counts, deals and deepest ancestors, and how the walk ended.
    pub tree: Tree,
    /// Its report, one line each ([`bataille_cycles::ancestors::report`]).
    pub report: String,
    /// The deals as CSV, when [`Listing::Returned`].
    pub deals: Option<String>,
}

impl Ancestors {
    /// Checks the walk's budget ([`super::check_walk_memory`]) and the listing file before
    /// the walk, and locks the file: one that exists is replaced only when the caller says so
    /// (a listing may take minutes to make).
    pub fn prepare(config: AncestorsConfig) -> Result<Ancestors> {
        let cards = config.position.cards();
        check_walk_memory(config.bounds.budget, cards, &config.words)?;
        let file = match &config.deals {
            Some(Listing::File(path)) => Some(path.as_path()),
            _ => None,
        };
        if let Some(path) = file
            && path.is_file()
            && !config.replace
        {
            bail!(
                "{} already exists: remove it first, or pass {}",
                path.display(),
                config.words.replace
            );
        }
        let outputs = prepare_file_output(file, None, false, &config.words)?;
        Ok(Ancestors { config, _outputs: outputs })
    }

    /// Walks the tree, telling `progress` the positions visited (of the budget) as it goes;
    /// `stop` ends the walk within milliseconds, what it met then reported as a walk cut by
    /// its budget is. Writes the listing file, or hands the listing back.
    pub fn walk(
        self,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(Steps<'_>),
    ) -> Result<AncestorsEnd> {
        let c = &self.config;
        let started = Instant::now();
        let keep = Keep { deals: c.deals.is_some(), deepest: c.deepest };
        let budget = c.bounds.budget;
        let tree =
            ancestors::tree_watched(&c.position, c.methods, c.bounds, keep, stop, &mut |n| {
                progress(Steps { done: n, from: 0, total: budget, what: "of the budget" });
            })
            .map_err(Error::new)?;
        let secs = started.elapsed().as_secs_f64();
        let report = ancestors::report(&tree, c.methods, c.bounds, secs);
        let deals = match &c.deals {
            None => None,
            Some(Listing::Returned) => Some(ancestors::deals_csv(&tree)),
            Some(Listing::File(path)) => {
                write_atomic(path, ancestors::deals_csv(&tree).as_bytes())
                    .with_context(|| format!("cannot write {}", path.display()))?;
                None
            }
        };
        Ok(AncestorsEnd { tree, report, deals })
    }
}
