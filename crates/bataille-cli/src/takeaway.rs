//! `bataille takeaway`: the take-away games of the companion documents (seeds 000, 001, 003,
//! 004): solve a position, play against the program, export tables, verify the documents.
//!
//! The raw clap structures are here; [`GameSpec::new`] validates them into a game and a start
//! position, and [`Engine`] answers with Bouton's closed forms, the compressed match tables or
//! (with `--brute-force`) the generic solver of `bataille-takeaway`.

use std::fs::File;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use bataille_takeaway::catalogue::{self, STATUSES};
use bataille_takeaway::{
    Convention, Game, Heap, MatchGame, MatchPos, MatchTable, Nim, NimMove, Outcome, Rule, Solver,
    Subtraction, TwoHeapGame, TwoHeapMove, TwoHeapPos, TwoHeapTable, nim,
};
use clap::{Args, Subcommand, ValueEnum};

/// Flags of `bataille takeaway`.
#[derive(Debug, Args)]
pub(crate) struct TakeawayArgs {
    #[command(subcommand)]
    command: TakeawayCommand,
}

#[derive(Debug, Subcommand)]
enum TakeawayCommand {
    /// Solve a position: win or loss for the player to move, and every winning move.
    Solve(SolveArgs),
    /// Play against the program, which plays the winning strategy; your moves are read from
    /// standard input, one a line (`quit` to stop).
    Play(PlayArgs),
    /// Export tables as CSV: every position with its winning moves, or the winning sequence.
    #[command(subcommand)]
    Table(TableKind),
    /// Check every checkable claim of seeds 000, 001, 003 and 004 against the solver.
    Verify(VerifyArgs),
}

/// The games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum GameKind {
    /// Nim on any rows: take any number from one row (normal play unless --convention).
    Nim,
    /// Nim where the last match loses; rows 1 3 5 7 unless given.
    Marienbad,
    /// One heap, take 1 to --max-take (normal play unless --convention).
    Subtraction,
    /// Take 1 to 3 sticks, the last stick loses; 18 sticks unless given.
    FortBoyard,
    /// Seed 003: one heap, first move 1 or 2, then at most --rule (2n); the last match loses.
    Matches,
    /// Seed 003, B.II: the same with two heaps, taking from one of them.
    TwoHeaps,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ConventionArg {
    /// The player who takes the last one wins.
    Normal,
    /// The player who takes the last one loses.
    Misere,
}

/// What names a game and a position.
#[derive(Debug, Clone, Args)]
struct GameArgs {
    /// The game.
    #[arg(value_enum)]
    game: GameKind,
    /// The position: the rows (nim, marienbad), the heap (subtraction, fort-boyard, matches),
    /// or the two heaps (two-heaps).
    heaps: Vec<u64>,
    /// Who wins when nothing is left (default: the game's own).
    #[arg(long, value_enum)]
    convention: Option<ConventionArg>,
    /// matches, two-heaps: the most a player may take after a take of n: 2n, 3n, kn, n+1,
    /// kn+q, or a constant.
    #[arg(long)]
    rule: Option<String>,
    /// matches, two-heaps: the most the first player may take.
    #[arg(long)]
    first_max: Option<u32>,
    /// matches, two-heaps: what the opponent took on the previous move (default: none, the
    /// opening).
    #[arg(long)]
    prev: Option<u32>,
    /// subtraction: the most a player may take.
    #[arg(long)]
    max_take: Option<u64>,
    /// Use the generic solver (brute force) instead of the closed form or the table.
    #[arg(long)]
    brute_force: bool,
}

#[derive(Debug, Args)]
struct SolveArgs {
    #[command(flatten)]
    game: GameArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Starter {
    /// You move first.
    You,
    /// The program moves first.
    Program,
}

#[derive(Debug, Args)]
struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Who moves first.
    #[arg(long, value_enum, default_value = "you")]
    first: Starter,
    /// Stop with exit code 2 at the first unreadable or illegal move instead of asking again.
    #[arg(long)]
    strict: bool,
}

#[derive(Debug, Subcommand)]
enum TableKind {
    /// Every position of a game up to a size, its outcome (P or N) and its winning moves.
    Positions(PositionsArgs),
    /// The winning sequence of seed 003 for a rule: the smallest winning take from each heap.
    Sequence(SequenceArgs),
}

#[derive(Debug, Args)]
struct PositionsArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The largest heap (each row for nim, each heap for two-heaps).
    #[arg(long, default_value_t = 20)]
    max: u64,
    /// nim, marienbad: the number of rows.
    #[arg(long, default_value_t = 3)]
    rows: usize,
    /// matches, two-heaps: the largest previous take listed (default: --max).
    #[arg(long)]
    prev_max: Option<u32>,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    output: Option<String>,
}

#[derive(Debug, Args)]
struct SequenceArgs {
    /// The rule: 2n, 3n, 4n, kn, n+1, kn+q.
    #[arg(long, default_value = "2n")]
    rule: String,
    /// The largest heap.
    #[arg(long, default_value_t = 100)]
    max: u32,
    /// Who wins when nothing is left.
    #[arg(long, value_enum, default_value = "misere")]
    convention: ConventionArg,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    output: Option<String>,
}

#[derive(Debug, Args)]
struct VerifyArgs {
    /// Show only the entries whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
    #[command(flatten)]
    format: crate::args::FormatArgs,
}

pub(crate) fn run(args: TakeawayArgs) -> Result<ExitCode> {
    match args.command {
        TakeawayCommand::Solve(a) => solve(a),
        TakeawayCommand::Play(a) => play(a),
        TakeawayCommand::Table(TableKind::Positions(a)) => positions(a),
        TakeawayCommand::Table(TableKind::Sequence(a)) => sequence(a),
        TakeawayCommand::Verify(a) => verify(a),
    }
}

// ---------------------------------------------------------------------------------------------
// Validated games and positions.

/// A position of one of the games.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Pos {
    Rows(Vec<u64>),
    Heap(u64),
    Match(MatchPos),
    Two(TwoHeapPos),
}

impl Pos {
    fn show(&self) -> String {
        match self {
            Pos::Rows(r) => r.iter().map(u64::to_string).collect::<Vec<_>>().join("-"),
            Pos::Heap(n) => n.to_string(),
            Pos::Match(p) => p.to_string(),
            Pos::Two(p) => p.to_string(),
        }
    }
}

/// A game, validated.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Nim(Nim),
    Subtraction(Subtraction),
    Matches(MatchGame),
    TwoHeaps(TwoHeapGame),
}

impl Kind {
    fn describe(&self) -> String {
        match self {
            Kind::Nim(g) => format!("nim, {}", g.convention.describe()),
            Kind::Subtraction(g) => {
                format!("take 1 to {}, {}", g.max_take(), Game::convention(g).describe())
            }
            Kind::Matches(g) => format!(
                "matches, one heap, first move 1 to {}, then at most {} after a take of n, {}",
                g.rule.first_max(),
                RuleText(g.rule),
                g.convention.describe()
            ),
            Kind::TwoHeaps(g) => format!(
                "matches, two heaps, first move 1 to {}, then at most {} after a take of n, {}",
                g.rule.first_max(),
                RuleText(g.rule),
                g.convention.describe()
            ),
        }
    }

    fn convention(&self) -> Convention {
        match self {
            Kind::Nim(g) => g.convention,
            Kind::Subtraction(g) => Game::convention(g),
            Kind::Matches(g) => g.convention,
            Kind::TwoHeaps(g) => g.convention,
        }
    }
}

/// The rule without its first-move note (shown separately).
struct RuleText(Rule);

impl std::fmt::Display for RuleText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = Rule::new(self.0.k(), self.0.q()).map_err(|_| std::fmt::Error)?;
        write!(f, "{r}")
    }
}

/// A validated game and start position.
#[derive(Debug, Clone)]
struct GameSpec {
    kind: Kind,
    start: Pos,
    brute_force: bool,
}

fn convention_of(c: Option<ConventionArg>, default: Convention) -> Convention {
    match c {
        None => default,
        Some(ConventionArg::Normal) => Convention::Normal,
        Some(ConventionArg::Misere) => Convention::Misere,
    }
}

fn heap_u32(v: u64, what: &str) -> Result<u32> {
    u32::try_from(v).with_context(|| format!("{what} {v} is too large: at most {}", u32::MAX))
}

impl GameSpec {
    fn new(a: &GameArgs) -> Result<GameSpec> {
        let is_matches = matches!(a.game, GameKind::Matches | GameKind::TwoHeaps);
        if !is_matches {
            for (given, flag) in [
                (a.rule.is_some(), "--rule"),
                (a.first_max.is_some(), "--first-max"),
                (a.prev.is_some(), "--prev"),
            ] {
                if given {
                    bail!("{flag} applies to the games matches and two-heaps only");
                }
            }
        }
        if a.max_take.is_some() && a.game != GameKind::Subtraction {
            bail!("--max-take applies to the game subtraction only");
        }
        let count = |want: usize, what: &str| -> Result<()> {
            if a.heaps.len() != want {
                bail!(
                    "the game {:?} takes {what}, not {} numbers",
                    a.game.to_possible_value().expect("named").get_name(),
                    a.heaps.len()
                );
            }
            Ok(())
        };
        let spec = match a.game {
            GameKind::Nim | GameKind::Marienbad => {
                let (default, rows) = if a.game == GameKind::Nim {
                    (Convention::Normal, a.heaps.clone())
                } else if a.heaps.is_empty() {
                    (Convention::Misere, vec![1, 3, 5, 7])
                } else {
                    (Convention::Misere, a.heaps.clone())
                };
                if rows.is_empty() {
                    bail!("the game \"nim\" takes the rows, e.g. 1 3 5 7");
                }
                let kind = Kind::Nim(Nim { convention: convention_of(a.convention, default) });
                GameSpec { kind, start: Pos::Rows(rows), brute_force: a.brute_force }
            }
            GameKind::Subtraction | GameKind::FortBoyard => {
                let (game, heap) = if a.game == GameKind::FortBoyard {
                    let heaps = if a.heaps.is_empty() { vec![18] } else { a.heaps.clone() };
                    let c = convention_of(a.convention, Convention::Misere);
                    (Subtraction::new(3, c)?, heaps)
                } else {
                    let max = a.max_take.context("the game \"subtraction\" needs --max-take")?;
                    let c = convention_of(a.convention, Convention::Normal);
                    (Subtraction::new(max, c)?, a.heaps.clone())
                };
                if heap.len() != 1 {
                    bail!("the game takes one heap, not {} numbers", heap.len());
                }
                GameSpec {
                    kind: Kind::Subtraction(game),
                    start: Pos::Heap(heap[0]),
                    brute_force: a.brute_force,
                }
            }
            GameKind::Matches | GameKind::TwoHeaps => {
                let rule: Rule = a.rule.as_deref().unwrap_or("2n").parse()?;
                let rule = rule.with_first_max(a.first_max.unwrap_or(2))?;
                let convention = convention_of(a.convention, Convention::Misere);
                let prev = a.prev.unwrap_or(0);
                if a.game == GameKind::Matches {
                    count(1, "one heap")?;
                    let left = heap_u32(a.heaps[0], "the heap")?;
                    GameSpec {
                        kind: Kind::Matches(MatchGame { rule, convention }),
                        start: Pos::Match(MatchPos { left, prev }),
                        brute_force: a.brute_force,
                    }
                } else {
                    count(2, "two heaps")?;
                    let pos = TwoHeapPos {
                        a: heap_u32(a.heaps[0], "the heap")?,
                        b: heap_u32(a.heaps[1], "the heap")?,
                        prev,
                    };
                    GameSpec {
                        kind: Kind::TwoHeaps(TwoHeapGame { rule, convention }),
                        start: Pos::Two(pos),
                        brute_force: a.brute_force,
                    }
                }
            }
        };
        Ok(spec)
    }

    /// The size the engine must cover (the largest heap).
    fn size(&self) -> u64 {
        match &self.start {
            Pos::Rows(r) => r.iter().copied().max().unwrap_or(0),
            Pos::Heap(n) => *n,
            Pos::Match(p) => u64::from(p.left),
            Pos::Two(p) => u64::from(p.a.max(p.b)),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The engine: closed forms, tables, or the generic solver.

/// A move and where it leads.
#[derive(Debug, Clone)]
struct Move {
    text: String,
    next: Pos,
}

/// Answers positions of one game.
enum Engine {
    Nim(Nim),
    Subtraction(Subtraction),
    Matches(MatchTable),
    TwoHeaps(TwoHeapTable),
    Brute(Kind),
}

/// Positions the generic solver may store before giving up.
const BRUTE_LIMIT: usize = 20_000_000;

impl Engine {
    fn new(spec: &GameSpec, size: u64) -> Result<Engine> {
        if spec.brute_force {
            return Ok(Engine::Brute(spec.kind));
        }
        Ok(match spec.kind {
            Kind::Nim(g) => Engine::Nim(g),
            Kind::Subtraction(g) => Engine::Subtraction(g),
            Kind::Matches(g) => Engine::Matches(MatchTable::new(g, heap_u32(size, "the heap")?)?),
            Kind::TwoHeaps(g) => {
                Engine::TwoHeaps(TwoHeapTable::new(g, heap_u32(size, "the heap")?)?)
            }
        })
    }

    fn method(&self) -> String {
        match self {
            Engine::Nim(_) => "Bouton's closed form".into(),
            Engine::Subtraction(g) => format!("closed form (period {})", g.period()),
            Engine::Matches(t) => format!("table of every heap up to {}", t.max_left()),
            Engine::TwoHeaps(t) => format!("table of every pair of heaps up to {}", t.max()),
            Engine::Brute(_) => "generic solver (brute force)".into(),
        }
    }

    fn outcome(&self, p: &Pos) -> Result<Outcome> {
        Ok(match (self, p) {
            (Engine::Nim(g), Pos::Rows(r)) => nim::outcome(r, g.convention),
            (Engine::Subtraction(g), Pos::Heap(n)) => g.outcome(*n),
            (Engine::Matches(t), Pos::Match(m)) => t.outcome(*m).context("beyond the table")?,
            (Engine::TwoHeaps(t), Pos::Two(m)) => t.outcome(*m).context("beyond the table")?,
            (Engine::Brute(kind), p) => {
                let won = !self.winning(p)?.is_empty();
                if is_over(p) {
                    kind.convention().terminal_outcome()
                } else {
                    Outcome::from_win(won)
                }
            }
            _ => unreachable!("positions match their game"),
        })
    }

    fn winning(&self, p: &Pos) -> Result<Vec<Move>> {
        let moves = match (self, p) {
            (Engine::Nim(g), Pos::Rows(r)) => {
                nim::winning_moves(r, g.convention).iter().map(|m| nim_move(r, m)).collect()
            }
            (Engine::Subtraction(g), Pos::Heap(n)) => {
                g.winning_take(*n).map(|t| heap_move(*n, t)).into_iter().collect()
            }
            (Engine::Matches(t), Pos::Match(m)) => t
                .winning_takes(*m)
                .context("beyond the table")?
                .into_iter()
                .map(|take| match_move(*m, take))
                .collect(),
            (Engine::TwoHeaps(t), Pos::Two(m)) => t
                .winning_moves(*m)
                .context("beyond the table")?
                .into_iter()
                .map(|mv| two_move(*m, mv))
                .collect(),
            (Engine::Brute(kind), p) => brute_winning(*kind, p)?,
            _ => unreachable!("positions match their game"),
        };
        Ok(moves)
    }
}

fn nim_move(r: &[u64], m: &NimMove) -> Move {
    Move { text: m.to_string(), next: Pos::Rows(m.apply(r)) }
}

fn heap_move(n: u64, t: u64) -> Move {
    Move { text: format!("take {t} ({n} -> {})", n - t), next: Pos::Heap(n - t) }
}

fn match_move(p: MatchPos, take: u32) -> Move {
    let next = MatchPos { left: p.left - take, prev: take };
    Move { text: format!("take {take} -> {next}"), next: Pos::Match(next) }
}

fn two_move(p: TwoHeapPos, m: TwoHeapMove) -> Move {
    let next = m.apply(p);
    Move { text: format!("{m} -> {next}"), next: Pos::Two(next) }
}

fn brute_winning(kind: Kind, p: &Pos) -> Result<Vec<Move>> {
    fn run<G: Game>(
        g: &G,
        p: &G::Position,
        show: impl Fn(&G::Move, &G::Position) -> Move,
    ) -> Result<Vec<Move>> {
        let mut s = Solver::with_limit(g, BRUTE_LIMIT);
        Ok(s.winning_moves(p)?.iter().map(|(m, q)| show(m, q)).collect())
    }
    match (kind, p) {
        (Kind::Nim(g), Pos::Rows(r)) => run(&g, r, |m, _| nim_move(r, m)),
        (Kind::Subtraction(g), Pos::Heap(n)) => run(&g, n, |t, _| heap_move(*n, *t)),
        (Kind::Matches(g), Pos::Match(m)) => run(&g, m, |t, _| match_move(*m, *t)),
        (Kind::TwoHeaps(g), Pos::Two(m)) => run(&g, m, |mv, _| two_move(*m, *mv)),
        _ => unreachable!("positions match their game"),
    }
}

fn is_over(p: &Pos) -> bool {
    match p {
        Pos::Rows(r) => r.iter().all(|&h| h == 0),
        Pos::Heap(n) => *n == 0,
        Pos::Match(m) => m.left == 0,
        Pos::Two(m) => m.a == 0 && m.b == 0,
    }
}

// ---------------------------------------------------------------------------------------------
// solve

fn solve(a: SolveArgs) -> Result<ExitCode> {
    let spec = GameSpec::new(&a.game)?;
    let engine = Engine::new(&spec, spec.size())?;
    let p = &spec.start;
    let outcome = engine.outcome(p)?;
    let moves = engine.winning(p)?;
    println!("game:      {}", spec.kind.describe());
    println!("position:  {}", p.show());
    match outcome {
        Outcome::Win if is_over(p) => {
            println!("outcome:   N: the player to move has won (the opponent took the last one)")
        }
        Outcome::Lose if is_over(p) => {
            println!("outcome:   P: the player to move has lost (the opponent took the last one)")
        }
        Outcome::Win => println!("outcome:   N: the player to move wins"),
        Outcome::Lose => println!("outcome:   P: the player to move loses against best play"),
    }
    if moves.is_empty() {
        println!("winning:   none");
    }
    for (i, m) in moves.iter().enumerate() {
        println!("{}{}", if i == 0 { "winning:   " } else { "           " }, m.text);
    }
    if let (Engine::Matches(t), Pos::Match(m)) = (&engine, p) {
        match (t.min_winning_take(m.left), t.threshold(m.left)) {
            (Some(take), Some(n)) => println!(
                "threshold: from {} matches the smallest winning take is {take}; ({},n) is won \
                 for n >= {n}",
                m.left, m.left
            ),
            (Some(take), None) => println!(
                "threshold: from {} matches the smallest winning take is {take}, which no \
                 previous take allows",
                m.left
            ),
            (None, _) => println!("threshold: no take wins from {} matches", m.left),
        }
    }
    if let (Kind::Nim(_), Pos::Rows(r)) = (spec.kind, p) {
        let sums: Vec<String> = nim::column_sums(r).iter().map(u32::to_string).collect();
        println!("columns:   {} (binary column sums; nim-sum {})", sums.join(" "), nim::nim_sum(r));
    }
    println!("solved by: {}", engine.method());
    Ok(ExitCode::SUCCESS)
}

// ---------------------------------------------------------------------------------------------
// play

/// Reads a person's move at `p`, or says why it is not one.
fn parse_move(kind: &Kind, p: &Pos, text: &str) -> Result<Move, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let number = |w: &str, what: &str| -> Result<u64, String> {
        w.parse::<u64>().map_err(|_| format!("{what} {w:?} is not a number"))
    };
    match (kind, p) {
        (Kind::Nim(_), Pos::Rows(r)) => {
            let [row, take] = words[..] else {
                return Err("expected a row and a number, e.g. \"2 3\" (take 3 from row 2)".into());
            };
            let row = number(row, "the row")?;
            let take = number(take, "the number to take")?;
            let i = usize::try_from(row).ok().filter(|&i| (1..=r.len()).contains(&i));
            let Some(i) = i else {
                return Err(format!("there is no row {row}: rows are 1 to {}", r.len()));
            };
            if take == 0 || take > r[i - 1] {
                return Err(format!("row {row} has {}: take 1 to {}", r[i - 1], r[i - 1]));
            }
            Ok(nim_move(r, &NimMove { row: i - 1, from: r[i - 1], to: r[i - 1] - take }))
        }
        (Kind::Subtraction(g), Pos::Heap(n)) => {
            let [take] = words[..] else {
                return Err("expected how many to take, e.g. \"2\"".into());
            };
            let take = number(take, "the number to take")?;
            let max = g.max_take().min(*n);
            if take == 0 || take > max {
                return Err(format!("you may take 1 to {max}, not {take}"));
            }
            Ok(heap_move(*n, take))
        }
        (Kind::Matches(g), Pos::Match(m)) => {
            let [take] = words[..] else {
                return Err("expected how many matches to take, e.g. \"2\"".into());
            };
            let take = number(take, "the number to take")?;
            let max = g.rule.cap(m.prev).min(u64::from(m.left));
            if take == 0 || take > max {
                return Err(format!("you may take 1 to {max}, not {take}"));
            }
            Ok(match_move(*m, take as u32))
        }
        (Kind::TwoHeaps(g), Pos::Two(m)) => {
            let joined: String = words.concat().to_ascii_uppercase();
            let (heap, digits) = if let Some(d) = joined.strip_suffix('A') {
                (Heap::A, d)
            } else if let Some(d) = joined.strip_suffix('B') {
                (Heap::B, d)
            } else if let Some(d) = joined.strip_prefix('A') {
                (Heap::A, d)
            } else if let Some(d) = joined.strip_prefix('B') {
                (Heap::B, d)
            } else {
                return Err("expected a number and a heap, e.g. \"3A\" or \"2 B\"".into());
            };
            let take = number(digits, "the number to take")?;
            let size = if heap == Heap::A { m.a } else { m.b };
            let max = g.rule.cap(m.prev).min(u64::from(size));
            if max == 0 {
                return Err(format!("heap {heap:?} is empty"));
            }
            if take == 0 || take > max {
                return Err(format!("you may take 1 to {max} from heap {heap:?}, not {take}"));
            }
            Ok(two_move(*m, TwoHeapMove { heap, take: take as u32 }))
        }
        _ => unreachable!("positions match their game"),
    }
}

/// The program's move when it has no winning one: the smallest legal take from the largest
/// heap, to make the game last.
fn fallback(kind: &Kind, p: &Pos) -> Move {
    match (kind, p) {
        (_, Pos::Rows(r)) => {
            let i = (0..r.len()).max_by_key(|&i| (r[i], std::cmp::Reverse(i))).expect("rows");
            nim_move(r, &NimMove { row: i, from: r[i], to: r[i] - 1 })
        }
        (_, Pos::Heap(n)) => heap_move(*n, 1),
        (_, Pos::Match(m)) => match_move(*m, 1),
        (_, Pos::Two(m)) => {
            two_move(*m, TwoHeapMove { heap: if m.a >= m.b { Heap::A } else { Heap::B }, take: 1 })
        }
    }
}

fn play(a: PlayArgs) -> Result<ExitCode> {
    let spec = GameSpec::new(&a.game)?;
    let engine = Engine::new(&spec, spec.size())?;
    let misere = spec.kind.convention() == Convention::Misere;
    let mut p = spec.start.clone();
    let mut yours = a.first == Starter::You;
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = io::stdout().lock();
    writeln!(out, "game:      {}", spec.kind.describe())?;
    writeln!(out, "position:  {}", p.show())?;
    let start = engine.outcome(&p)?;
    let verdict = match (yours, start) {
        (true, Outcome::Win) => "you can win, if you find the right moves",
        (true, Outcome::Lose) => "you will lose if the program plays well (it does)",
        (false, Outcome::Win) => "the program starts, and wins",
        (false, Outcome::Lose) => "the program starts in a lost position: win it",
    };
    writeln!(out, "{verdict}; enter moves one a line, `quit` to stop")?;
    while !is_over(&p) {
        if yours {
            write!(out, "{}: your move> ", p.show())?;
            out.flush()?;
            let Some(line) = lines.next() else {
                writeln!(out)?;
                bail!("input ended before the game was over (position {})", p.show());
            };
            let line = line.context("cannot read standard input")?;
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            if matches!(text, "quit" | "q" | "exit") {
                writeln!(out, "game abandoned at {}", p.show())?;
                return Ok(ExitCode::SUCCESS);
            }
            match parse_move(&spec.kind, &p, text) {
                Ok(m) => {
                    writeln!(out, "you:       {}", m.text)?;
                    p = m.next;
                }
                Err(why) if a.strict => bail!("bad move {text:?} at {}: {why}", p.show()),
                Err(why) => {
                    out.flush()?;
                    eprintln!("bad move {text:?}: {why}");
                    continue;
                }
            }
        } else {
            let winning = engine.winning(&p)?;
            let (m, note) = match winning.into_iter().next() {
                Some(m) => (m, ""),
                None => (fallback(&spec.kind, &p), " (no winning move here: playing on)"),
            };
            writeln!(out, "program:   {}{note}", m.text)?;
            p = m.next;
        }
        yours = !yours;
    }
    // The player to move now did not take the last one.
    let last_was_you = !yours;
    let you_win = last_was_you != misere;
    writeln!(
        out,
        "{} took the last one: {}",
        if last_was_you { "you" } else { "the program" },
        if you_win { "you win" } else { "the program wins" }
    )?;
    Ok(ExitCode::SUCCESS)
}

// ---------------------------------------------------------------------------------------------
// table

fn csv_writer(output: Option<&str>) -> Result<csv::Writer<Box<dyn Write>>> {
    let w: Box<dyn Write> = match output {
        Some(path) => {
            Box::new(File::create(path).with_context(|| format!("cannot create {path}"))?)
        }
        None => Box::new(io::stdout().lock()),
    };
    Ok(csv::Writer::from_writer(w))
}

/// The most rows `table positions` writes.
const MAX_TABLE_ROWS: u64 = 20_000_000;

fn joined(moves: &[Move]) -> String {
    moves.iter().map(|m| m.text.as_str()).collect::<Vec<_>>().join("; ")
}

fn positions(a: PositionsArgs) -> Result<ExitCode> {
    if !a.game.heaps.is_empty() {
        bail!("`table positions` lists every position up to --max: give no position");
    }
    // A placeholder position of the right shape; the table covers every position up to --max.
    let mut args = a.game.clone();
    args.heaps = if a.game.game == GameKind::TwoHeaps { vec![0, 0] } else { vec![0] };
    let spec = GameSpec::new(&args)?;
    let max32 = heap_u32(a.max, "--max")?;
    let prev_max = a.prev_max.unwrap_or(max32);
    let (m, p) = (a.max as f64 + 1.0, f64::from(prev_max) + 1.0);
    let rows = match spec.kind {
        Kind::Nim(_) => (1..=a.rows).map(|i| (m - 1.0 + i as f64) / i as f64).product(),
        Kind::Subtraction(_) => m,
        Kind::Matches(_) => m * p,
        Kind::TwoHeaps(_) => m * (m + 1.0) / 2.0 * p,
    };
    if rows > MAX_TABLE_ROWS as f64 {
        bail!(
            "the table would have about {rows:.0} rows, more than {MAX_TABLE_ROWS}: lower --max, \
             --rows or --prev-max"
        );
    }
    let engine = Engine::new(&spec, a.max)?;
    let mut w = csv_writer(a.output.as_deref())?;
    match spec.kind {
        Kind::Nim(_) => {
            if a.rows == 0 || a.rows > 8 {
                bail!("--rows must be 1 to 8, not {}", a.rows);
            }
            w.write_record(["rows", "outcome", "nim_sum", "winning_moves"])?;
            for r in nim::sorted_positions(a.rows, a.max) {
                let p = Pos::Rows(r.clone());
                w.write_record([
                    p.show(),
                    engine.outcome(&p)?.letter().to_string(),
                    nim::nim_sum(&r).to_string(),
                    joined(&engine.winning(&p)?),
                ])?;
            }
        }
        Kind::Subtraction(_) => {
            w.write_record(["objects", "outcome", "winning_take"])?;
            for n in 0..=a.max {
                let p = Pos::Heap(n);
                let take = engine.winning(&p)?.first().map(|m| match &m.next {
                    Pos::Heap(left) => (n - left).to_string(),
                    _ => unreachable!("a heap leads to a heap"),
                });
                w.write_record([
                    n.to_string(),
                    engine.outcome(&p)?.letter().to_string(),
                    take.unwrap_or_default(),
                ])?;
            }
        }
        Kind::Matches(_) => {
            w.write_record(["left", "prev", "outcome", "winning_takes"])?;
            for left in 1..=max32 {
                for prev in 0..=prev_max {
                    let p = Pos::Match(MatchPos { left, prev });
                    let takes: Vec<String> = engine
                        .winning(&p)?
                        .iter()
                        .map(|m| match &m.next {
                            Pos::Match(q) => q.prev.to_string(),
                            _ => unreachable!("a heap leads to a heap"),
                        })
                        .collect();
                    w.write_record([
                        left.to_string(),
                        prev.to_string(),
                        engine.outcome(&p)?.letter().to_string(),
                        takes.join(" "),
                    ])?;
                }
            }
        }
        Kind::TwoHeaps(_) => {
            w.write_record(["a", "b", "prev", "outcome", "winning_moves"])?;
            for x in 0..=max32 {
                for y in 0..=x {
                    for prev in 0..=prev_max {
                        let p = Pos::Two(TwoHeapPos { a: x, b: y, prev });
                        let moves: Vec<String> = engine
                            .winning(&p)?
                            .iter()
                            .map(|m| m.text.split(' ').next().unwrap_or_default().to_string())
                            .collect();
                        w.write_record([
                            x.to_string(),
                            y.to_string(),
                            prev.to_string(),
                            engine.outcome(&p)?.letter().to_string(),
                            moves.join(" "),
                        ])?;
                    }
                }
            }
        }
    }
    w.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn sequence(a: SequenceArgs) -> Result<ExitCode> {
    let rule: Rule = a.rule.parse()?;
    let convention = convention_of(Some(a.convention), Convention::Misere);
    let t = MatchTable::new(MatchGame { rule, convention }, a.max)?;
    let mut w = csv_writer(a.output.as_deref())?;
    w.write_record(["matches", "winning_take", "first_winning_prev", "base", "first_player_wins"])?;
    for left in 2..=a.max {
        let take = t.min_winning_take(left);
        w.write_record([
            left.to_string(),
            take.map(|m| m.to_string()).unwrap_or_default(),
            t.threshold(left).map(|n| n.to_string()).unwrap_or_default(),
            (take == Some(left - 1)).to_string(),
            t.outcome(MatchPos::opening(left)).expect("in the table").is_win().to_string(),
        ])?;
    }
    w.flush()?;
    Ok(ExitCode::SUCCESS)
}

// ---------------------------------------------------------------------------------------------
// verify

fn verify(a: VerifyArgs) -> Result<ExitCode> {
    let entries: Vec<_> = catalogue::catalogue()
        .into_iter()
        .filter(|e| a.filter.as_deref().is_none_or(|f| e.id.contains(f)))
        .collect();
    let failed = crate::claims::print_claims(&entries, a.format.format(), STATUSES);
    Ok(crate::claims::exit_code(failed))
}
