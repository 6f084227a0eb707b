//! The positions that reach a loop, or any position: the tree of its ancestors, walked by
//! playing backwards ([`bataille_engine::backward::walk_ancestors`]), counted by depth, with
//! the deals in it.
//!
//! For a position on a loop the tree is that of the whole loop: every position off the loop
//! whose game enters it, with the tricks it plays before (its *tail*). The deals in it are the
//! deals whose game reaches the loop, each listed once per mirror pair as `explore` and `hunt`
//! play them (the first hand lexicographically at most the second) when swapping the players
//! is a symmetry of the game, so that the list is the `loops.csv` of an exhaustive hunt. For a
//! position off a loop, the tree is that of the position itself: the deals listed play into it.
//!
//! The tree is finite (the deck has finitely many positions and a position has one successor),
//! so a walk with no bound is exhaustive; the bounds on depth, ties and visited positions are
//! reported when they cut it ([`Tree::walked`]).
//!
//! [`report`] and [`deals_csv`] render a tree as `bataille cycles ancestors` shows and lists
//! it.

use std::cmp::Ordering;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use bataille_engine::backward::{Ancestor, Bounds, Roots, Walked, walk_ancestors_until};
use bataille_engine::{
    Card, CycleId, Limits, Methods, NoRandom, Outcome, Position, loop_positions, play,
};

/// A deal that reaches the root, as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deal {
    /// The deal (for a loop, the member of its mirror pair that `explore` plays).
    pub deal: Position,
    /// Tricks until it reaches the root (enters the loop).
    pub tricks: u64,
    /// Reveals until then.
    pub cards: u64,
}

/// Where the tree hangs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Root {
    /// A loop: its id, its positions in playing order from the one given, and whether it is its
    /// own mirror image.
    Cycle {
        /// The loop's canonical id.
        id: CycleId,
        /// Its positions, the one asked about first.
        positions: Vec<Position>,
        /// Whether the loop is its own mirror image (then its tree is too).
        self_twin: bool,
    },
    /// A position off any loop.
    Position(Position),
}

/// What to keep of a walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep {
    /// Keep the deals (otherwise only count them).
    pub deals: bool,
    /// How many of the deepest ancestors to keep.
    pub deepest: usize,
}

/// The tree of a position's or a loop's ancestors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    /// What it hangs from.
    pub root: Root,
    /// How the walk ended: complete, or cut by which bound.
    pub walked: Walked,
    /// `by_depth[d]`: positions `d` tricks from the root (`by_depth[0]`: the root's own
    /// positions, 1 for a position, the period for a loop).
    pub by_depth: Vec<u64>,
    /// The deals, counted once per mirror pair for a loop (see the module documentation),
    /// the root's own included.
    pub deal_count: u64,
    /// The deals with their tails, sorted by tail then deal (empty unless kept).
    pub deals: Vec<Deal>,
    /// The deepest ancestors: position, tricks, cards; deepest first, then smallest.
    pub deepest: Vec<(Position, u64, u64)>,
}

/// Why a tree cannot be walked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AncestorsError {
    /// A random method.
    #[error("playing backwards needs deterministic stacking, not {0}")]
    Random(String),
}

/// How a deal of the tree is counted and listed.
#[derive(Debug, Clone, Copy)]
struct DealRule {
    /// ⌊N/2⌋.
    half: usize,
    /// N is even.
    even: bool,
    /// The loop and its mirror image are one cycle (a symmetric game's loop).
    mirror: bool,
    /// The loop is its own mirror.
    self_twin: bool,
}

impl DealRule {
    /// The deal to list for the ancestor `first / second`, if it stands for one: a deal as it
    /// is, or (for a loop whose mirror image is the same cycle) the member of its mirror pair
    /// that `explore` plays. For odd N a position with ⌈N/2⌉ cards first stands for its mirror,
    /// a deal of the mirror loop.
    fn deal(self, first: &[Card], second: &[Card]) -> Option<(Vec<Card>, Vec<Card>)> {
        if !self.mirror {
            return (first.len() == self.half).then(|| (first.to_vec(), second.to_vec()));
        }
        if self.even {
            if first.len() != self.half {
                return None;
            }
            let ordered = first <= second;
            if self.self_twin {
                // Both members of the pair are in the tree: list the one explore plays.
                return ordered.then(|| (first.to_vec(), second.to_vec()));
            }
            return Some(if ordered {
                (first.to_vec(), second.to_vec())
            } else {
                (second.to_vec(), first.to_vec())
            });
        }
        if first.len() == self.half {
            Some((first.to_vec(), second.to_vec()))
        } else if second.len() == self.half && !self.self_twin {
            Some((second.to_vec(), first.to_vec()))
        } else {
            None
        }
    }
}

/// Walks the tree of `start`'s ancestors (of its loop's, if it lies on one) under `methods`
/// within `bounds`, keeping what `keep` asks.
pub fn tree(
    start: &Position,
    methods: Methods,
    bounds: Bounds,
    keep: Keep,
) -> Result<Tree, AncestorsError> {
    tree_watched(start, methods, bounds, keep, &AtomicBool::new(false), &mut |_| {})
}

/// [`tree`], telling `watch` the ancestors visited so far every
/// [`bataille_engine::backward::WATCH_EVERY`] of them (for a progress display), and ending
/// early once `stop` is set (`walked.stopped`: the counts are then those of the ancestors
/// visited before).
pub fn tree_watched(
    start: &Position,
    methods: Methods,
    bounds: Bounds,
    keep: Keep,
    stop: &AtomicBool,
    watch: &mut dyn FnMut(u64),
) -> Result<Tree, AncestorsError> {
    if !methods.is_deterministic() {
        return Err(AncestorsError::Random(methods.to_string()));
    }
    let n = start.cards();
    let r = play(start, methods, &mut NoRandom, Limits::DETERMINISTIC);
    let root = match r.outcome {
        Outcome::Cycle(c) if c.tail_tricks == 0 => {
            let positions = loop_positions(start, methods).expect("a loop");
            let swapped = start.swapped();
            let self_twin = methods.is_swap_symmetric() && positions.contains(&swapped);
            Root::Cycle { id: c.id, positions, self_twin }
        }
        _ => Root::Position(start.clone()),
    };
    let (roots, rule) = match &root {
        Root::Cycle { positions, self_twin, .. } => (
            Roots::Cycle(positions),
            DealRule {
                half: n / 2,
                even: n.is_multiple_of(2),
                mirror: methods.is_swap_symmetric(),
                self_twin: *self_twin,
            },
        ),
        Root::Position(p) => (
            Roots::Position(p),
            DealRule { half: n / 2, even: n.is_multiple_of(2), mirror: false, self_twin: false },
        ),
    };
    let own: Vec<Position> = match &root {
        Root::Cycle { positions, .. } => positions.clone(),
        Root::Position(p) => vec![p.clone()],
    };
    let mut t = Tree {
        root: root.clone(),
        walked: Walked::default(),
        by_depth: vec![0],
        deal_count: 0,
        deals: Vec::new(),
        deepest: Vec::new(),
    };
    let count = |a: &Ancestor<'_>, t: &mut Tree| {
        let d = a.tricks as usize;
        if t.by_depth.len() <= d {
            t.by_depth.resize(d + 1, 0);
        }
        t.by_depth[d] += 1;
        if let Some((x, y)) = rule.deal(a.first, a.second) {
            t.deal_count += 1;
            if keep.deals {
                let deal = Position::new(x, y).expect("a position");
                t.deals.push(Deal { deal, tricks: a.tricks, cards: a.cards });
            }
        }
        if keep.deepest > 0 {
            keep_deepest(&mut t.deepest, keep.deepest, a);
        }
    };
    for p in &own {
        count(&Ancestor { first: p.first(), second: p.second(), tricks: 0, cards: 0 }, &mut t);
    }
    t.deepest.clear();
    let mut seen = 0u64;
    t.walked = walk_ancestors_until(roots, methods, bounds, stop, &mut |a| {
        seen += 1;
        if seen.is_multiple_of(bataille_engine::backward::WATCH_EVERY) {
            watch(seen);
        }
        count(a, &mut t);
    });
    t.deals.sort_by(|x, y| x.tricks.cmp(&y.tricks).then_with(|| x.deal.canonical_cmp(&y.deal)));
    Ok(t)
}

/// The report of the tree `t` walked under `methods` within `bounds` in `secs` seconds: its
/// root, how much of it was walked, the ancestors by depth, the deals and the deepest
/// ancestors, one line each.
pub fn report(t: &Tree, methods: Methods, bounds: Bounds, secs: f64) -> String {
    let mut s = String::new();
    match &t.root {
        Root::Cycle { id, positions, self_twin } => {
            let _ = writeln!(
                s,
                "root:      the loop {id} ({} tricks{}): its {} positions, the tree of those \
                 that reach it",
                positions.len(),
                if *self_twin { ", its own mirror image" } else { "" },
                positions.len()
            );
        }
        Root::Position(p) => {
            let _ = writeln!(s, "root:      {p} (not on a loop)");
        }
    }
    let _ = writeln!(s, "methods:   {methods}");
    let w = &t.walked;
    let coverage = if w.complete() {
        "complete: every ancestor".to_string()
    } else if w.stopped {
        "INCOMPLETE: stopped by the request (Ctrl-C or SIGTERM); the counts are those of the \
         ancestors visited before"
            .to_string()
    } else if !w.budget_hit {
        let mut cut = Vec::new();
        if w.depth_cut {
            cut.push(format!("depth ≤ {}", bounds.max_depth));
        }
        if w.ties_cut {
            cut.push(format!("ties ≤ {}", bounds.max_ties));
        }
        format!("exhaustive within the bounds ({}), which leave ancestors out", cut.join(", "))
    } else {
        format!("INCOMPLETE: stopped on its budget of {} positions", bounds.budget)
    };
    let _ = writeln!(s, "coverage:  {coverage}");
    let _ = writeln!(s, "ancestors: {} positions", w.visited);
    if w.visited == 0 && w.complete() {
        let _ = writeln!(s, "           no position leads to it: it has no predecessor");
    }
    let depths: Vec<String> =
        t.by_depth.iter().enumerate().skip(1).map(|(d, n)| format!("{d}:{n}")).collect();
    if !depths.is_empty() {
        let _ = writeln!(s, "by depth:  {}", depths.join(" "));
    }
    let mirror = matches!(t.root, Root::Cycle { .. }) && methods.is_swap_symmetric();
    let _ = writeln!(
        s,
        "deals:     {}{}",
        t.deal_count,
        if mirror { " (one per mirror pair, those on the loop included)" } else { "" }
    );
    for (p, tricks, cards) in &t.deepest {
        let _ = writeln!(s, "deepest:   {tricks} tricks, {cards} cards: {p}");
    }
    let _ = writeln!(s, "time:      {secs:.2} s");
    s
}

/// The header of the deals listed by [`deals_csv`].
pub const DEALS_HEADER: &str = "cycle_id,deal,tail_tricks,tail_cards";

/// The deals of the tree `t` (kept by [`Keep::deals`]) as CSV, one per row under
/// [`DEALS_HEADER`]: the loop's id (empty for a position off a loop), the deal, and its tail
/// in tricks and cards.
pub fn deals_csv(t: &Tree) -> String {
    let id = match &t.root {
        Root::Cycle { id, .. } => id.to_string(),
        Root::Position(_) => String::new(),
    };
    let mut csv = format!("{DEALS_HEADER}\n");
    for d in &t.deals {
        let _ = writeln!(csv, "{id},\"{}\",{},{}", d.deal, d.tricks, d.cards);
    }
    csv
}

/// Keeps `a` among the `k` deepest ancestors (by tricks, then the smaller position).
fn keep_deepest(deepest: &mut Vec<(Position, u64, u64)>, k: usize, a: &Ancestor<'_>) {
    if deepest.len() == k {
        let last = deepest.last().expect("k > 0");
        let cmp = a.tricks.cmp(&last.1).then_with(|| {
            let p = Position::new(a.first.to_vec(), a.second.to_vec()).expect("a position");
            last.0.canonical_cmp(&p)
        });
        if cmp != Ordering::Greater {
            return;
        }
    }
    let p = Position::new(a.first.to_vec(), a.second.to_vec()).expect("a position");
    // Deepest first, then the smaller position.
    let at = deepest.partition_point(|q| {
        q.1 > a.tricks || (q.1 == a.tricks && q.0.canonical_cmp(&p) == Ordering::Less)
    });
    deepest.insert(at, (p, a.tricks, a.cards));
    deepest.truncate(k);
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_engine::Method;

    #[test]
    fn the_article_c1_v5_loop() {
        // [5, 3] / [2, 4, 1] lies on a 6-trick loop; its mirror loop is another one.
        let p: Position = "[5, 3] / [2, 4, 1]".parse().unwrap();
        let natural = Methods::both(Method::Natural);
        let keep = Keep { deals: true, deepest: 3 };
        let t = tree(&p, natural, Bounds::budget(u64::MAX), keep).unwrap();
        assert!(t.walked.complete());
        let Root::Cycle { positions, self_twin, .. } = &t.root else { panic!("a loop") };
        assert_eq!((positions.len(), *self_twin), (6, false));
        assert_eq!(t.by_depth[0], 6);
        // The deals (2 / 3 cards) counted: those on the loop and those reaching it, with the
        // ⌈N/2⌉ / ⌊N/2⌋ ones standing for deals of the mirror loop.
        assert!(t.deal_count >= 3, "{t:?}");
        assert_eq!(t.deals.len() as u64, t.deal_count);
        assert!(t.deals.iter().all(|d| d.deal.first().len() == 2));
        for d in &t.deals {
            let r = play(&d.deal, natural, &mut NoRandom, Limits::DETERMINISTIC);
            let Outcome::Cycle(c) = r.outcome else { panic!("{}", d.deal) };
            assert_eq!(c.tail_tricks, d.tricks, "{}", d.deal);
        }
        assert!(t.deepest.windows(2).all(|w| w[0].1 >= w[1].1));
    }

    #[test]
    fn the_c4_v3_hunt_walked_back() {
        // The exhaustive C=4 V=3 hunt keeps its 360 looping deals with their tails; the tree of
        // its one loop holds exactly those deals, with the same tails (the C=4 V=4 and V=5 hunts
        // are checked the same way by `bataille verify`, from their committed states).
        use bataille_engine::DeckSpec;
        use bataille_search::{Bataille, Mode, Plan, explore_sequential};
        let natural = Methods::both(Method::Natural);
        let game = Bataille::new(DeckSpec::new(4, 3).unwrap(), natural, Limits::DETERMINISTIC);
        let plan = Plan::new(&game, Mode::Exhaustive, 0, 1).unwrap().keeping_loop_deals(1000);
        let state = explore_sequential(&game, &plan);
        let loops = &state.stats.loops;
        assert_eq!(loops.len(), 1);
        let l = loops.values().next().unwrap();
        let (deal, tail) = l.kept.iter().find(|(_, t)| **t == 0).unwrap();
        assert_eq!(*tail, 0);
        let p = Position::new(deal[..6].to_vec(), deal[6..].to_vec()).unwrap();
        let keep = Keep { deals: true, deepest: 0 };
        let t = tree(&p, natural, Bounds::budget(u64::MAX), keep).unwrap();
        assert!(t.walked.complete());
        let mut walked: Vec<(Vec<u8>, u64)> = t
            .deals
            .iter()
            .map(|d| ([d.deal.first(), d.deal.second()].concat(), d.tricks))
            .collect();
        walked.sort();
        let hunt: Vec<(Vec<u8>, u64)> = l.kept.iter().map(|(d, t)| (d.clone(), *t)).collect();
        assert_eq!(hunt.len(), 360);
        assert_eq!(walked, hunt);
        assert_eq!(t.deal_count, 360);
    }
}
