//! `bataille takeaway`: the take-away games of the companion documents (seeds 000, 001, 003,
//! 004): solve a position, play against the program, export tables, verify the documents.
//!
//! The raw clap structures are here; [`GameSpec::new`] validates them into a game and a start
//! position of it, and `bataille_takeaway::dispatch::Engine` answers with Bouton's closed
//! forms, the compressed match tables or (with `--brute-force`) the generic solver. What is
//! here is how each game is shown and read ([`Front`]).

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use bataille_takeaway::catalogue::{self, STATUSES};
use bataille_takeaway::dispatch::{Engine, FastAnswer};
use bataille_takeaway::solver::MoveTo;
use bataille_takeaway::{
    Convention, Game, Heap, MatchGame, MatchPos, MatchTable, Nim, NimMove, Outcome, Rule,
    Subtraction, TwoHeapGame, TwoHeapMove, TwoHeapPos, nim,
};
use clap::{Args, Subcommand, ValueEnum};

use crate::output::{AtomicFile, prepare_file_output};

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

/// A validated game with its start position (of that game: the variant says both).
#[derive(Debug, Clone)]
enum GameAt {
    Nim(Nim, Vec<u64>),
    Subtraction(Subtraction, u64),
    Matches(MatchGame, MatchPos),
    TwoHeaps(TwoHeapGame, TwoHeapPos),
}

/// A validated game and start position, and how to answer it.
#[derive(Debug, Clone)]
struct GameSpec {
    game: GameAt,
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
    u32::try_from(v).map_err(|_| anyhow::anyhow!("{what} {v} is too large: at most {}", u32::MAX))
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
        let game = match a.game {
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
                GameAt::Nim(Nim { convention: convention_of(a.convention, default) }, rows)
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
                let [heap] = heap[..] else {
                    bail!("the game takes one heap, not {} numbers", heap.len());
                };
                GameAt::Subtraction(game, heap)
            }
            GameKind::Matches | GameKind::TwoHeaps => {
                let rule: Rule = a.rule.as_deref().unwrap_or("2n").parse()?;
                let rule = rule.with_first_max(a.first_max.unwrap_or(2))?;
                let convention = convention_of(a.convention, Convention::Misere);
                let prev = a.prev.unwrap_or(0);
                if a.game == GameKind::Matches {
                    count(1, "one heap")?;
                    let left = heap_u32(a.heaps[0], "the heap")?;
                    GameAt::Matches(MatchGame { rule, convention }, MatchPos { left, prev })
                } else {
                    count(2, "two heaps")?;
                    let pos = TwoHeapPos {
                        a: heap_u32(a.heaps[0], "the heap")?,
                        b: heap_u32(a.heaps[1], "the heap")?,
                        prev,
                    };
                    GameAt::TwoHeaps(TwoHeapGame { rule, convention }, pos)
                }
            }
        };
        Ok(GameSpec { game, brute_force: a.brute_force })
    }
}

/// The size an engine must cover to answer `p` (its largest heap).
fn size<G: Front>(p: &G::Position) -> u64 {
    G::heaps(p).into_iter().max().unwrap_or(0)
}

/// The rule without its first-move note (shown separately).
struct RuleText(Rule);

impl std::fmt::Display for RuleText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = Rule::new(self.0.k(), self.0.q()).map_err(|_| std::fmt::Error)?;
        write!(f, "{r}")
    }
}

// ---------------------------------------------------------------------------------------------
// What the command line shows and reads of each game; the answers are bataille-takeaway's
// (`dispatch::Engine`).

/// A move and where it leads, as shown.
#[derive(Debug, Clone)]
struct Move<P> {
    text: String,
    next: P,
}

/// The command line's side of a game: its description, its positions and moves as text, a
/// person's move read, the program's move when it has no winning one.
trait Front: FastAnswer {
    /// The game in words.
    fn describe(&self) -> String;
    /// The heap sizes of `p`.
    fn heaps(p: &Self::Position) -> Vec<u64>;
    /// `p` as text.
    fn show(p: &Self::Position) -> String;
    /// The move `m` from `p`, which leads to `next`, as text.
    fn move_text(p: &Self::Position, m: &Self::Move, next: &Self::Position) -> String;
    /// Reads a person's move at `p`, or says why it is not one.
    fn parse_move(&self, p: &Self::Position, words: &[&str]) -> Result<Self::Move, String>;
    /// The program's move when it has no winning one: the smallest legal take from the largest
    /// heap, to make the game last.
    fn fallback(p: &Self::Position) -> Self::Move;
    /// Where `m` leads from `p`.
    fn apply(p: &Self::Position, m: &Self::Move) -> Self::Position;
    /// More lines of `solve` about `p`.
    fn notes(_engine: &Engine<Self>, _p: &Self::Position) {}
}

/// The move `m` from `p`, shown.
fn shown<G: Front>(p: &G::Position, (m, next): MoveTo<G>) -> Move<G::Position> {
    Move { text: G::move_text(p, &m, &next), next }
}

/// The winning moves from `p`, shown.
fn winning<G: Front>(engine: &Engine<G>, p: &G::Position) -> Result<Vec<Move<G::Position>>> {
    Ok(engine.winning(p)?.into_iter().map(|mv| shown::<G>(p, mv)).collect())
}

fn number(w: &str, what: &str) -> Result<u64, String> {
    w.parse::<u64>().map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => {
            format!("{what} {} is more than {}", crate::checks::shown(w), u64::MAX)
        }
        _ => format!("{what} {} is not a number", crate::checks::shown(w)),
    })
}

impl Front for Nim {
    fn describe(&self) -> String {
        format!("nim, {}", self.convention.describe())
    }

    fn heaps(p: &Vec<u64>) -> Vec<u64> {
        p.clone()
    }

    fn show(p: &Vec<u64>) -> String {
        p.iter().map(u64::to_string).collect::<Vec<_>>().join("-")
    }

    fn move_text(_: &Vec<u64>, m: &NimMove, _: &Vec<u64>) -> String {
        m.to_string()
    }

    fn parse_move(&self, r: &Vec<u64>, words: &[&str]) -> Result<NimMove, String> {
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
        Ok(NimMove { row: i - 1, from: r[i - 1], to: r[i - 1] - take })
    }

    fn fallback(r: &Vec<u64>) -> NimMove {
        let i = (0..r.len()).max_by_key(|&i| (r[i], std::cmp::Reverse(i))).expect("rows");
        NimMove { row: i, from: r[i], to: r[i] - 1 }
    }

    fn apply(r: &Vec<u64>, m: &NimMove) -> Vec<u64> {
        m.apply(r)
    }

    fn notes(_: &Engine<Nim>, r: &Vec<u64>) {
        let sums: Vec<String> = nim::column_sums(r).iter().map(u32::to_string).collect();
        println!("columns:   {} (binary column sums; nim-sum {})", sums.join(" "), nim::nim_sum(r));
    }
}

impl Front for Subtraction {
    fn describe(&self) -> String {
        format!("take 1 to {}, {}", self.max_take(), Game::convention(self).describe())
    }

    fn heaps(n: &u64) -> Vec<u64> {
        vec![*n]
    }

    fn show(n: &u64) -> String {
        n.to_string()
    }

    fn move_text(n: &u64, t: &u64, next: &u64) -> String {
        format!("take {t} ({n} -> {next})")
    }

    fn parse_move(&self, n: &u64, words: &[&str]) -> Result<u64, String> {
        let [take] = words[..] else {
            return Err("expected how many to take, e.g. \"2\"".into());
        };
        let take = number(take, "the number to take")?;
        let max = self.max_take().min(*n);
        if take == 0 || take > max {
            return Err(format!("you may take 1 to {max}, not {take}"));
        }
        Ok(take)
    }

    fn fallback(_: &u64) -> u64 {
        1
    }

    fn apply(n: &u64, t: &u64) -> u64 {
        n - t
    }
}

impl Front for MatchGame {
    fn describe(&self) -> String {
        format!(
            "matches, one heap, first move 1 to {}, then at most {} after a take of n, {}",
            self.rule.first_max(),
            RuleText(self.rule),
            self.convention.describe()
        )
    }

    fn heaps(p: &MatchPos) -> Vec<u64> {
        vec![u64::from(p.left)]
    }

    fn show(p: &MatchPos) -> String {
        p.to_string()
    }

    fn move_text(_: &MatchPos, take: &u32, next: &MatchPos) -> String {
        format!("take {take} -> {next}")
    }

    fn parse_move(&self, m: &MatchPos, words: &[&str]) -> Result<u32, String> {
        let [take] = words[..] else {
            return Err("expected how many matches to take, e.g. \"2\"".into());
        };
        let take = number(take, "the number to take")?;
        let max = self.rule.cap(m.prev).min(u64::from(m.left));
        if take == 0 || take > max {
            return Err(format!("you may take 1 to {max}, not {take}"));
        }
        Ok(take as u32)
    }

    fn fallback(_: &MatchPos) -> u32 {
        1
    }

    fn apply(p: &MatchPos, take: &u32) -> MatchPos {
        MatchPos { left: p.left - take, prev: *take }
    }

    fn notes(engine: &Engine<MatchGame>, m: &MatchPos) {
        let Engine::Fast(t) = engine else { return };
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
}

impl Front for TwoHeapGame {
    fn describe(&self) -> String {
        format!(
            "matches, two heaps, first move 1 to {}, then at most {} after a take of n, {}",
            self.rule.first_max(),
            RuleText(self.rule),
            self.convention.describe()
        )
    }

    fn heaps(p: &TwoHeapPos) -> Vec<u64> {
        vec![u64::from(p.a), u64::from(p.b)]
    }

    fn show(p: &TwoHeapPos) -> String {
        p.to_string()
    }

    fn move_text(_: &TwoHeapPos, m: &TwoHeapMove, next: &TwoHeapPos) -> String {
        format!("{m} -> {next}")
    }

    fn parse_move(&self, m: &TwoHeapPos, words: &[&str]) -> Result<TwoHeapMove, String> {
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
        let max = self.rule.cap(m.prev).min(u64::from(size));
        if max == 0 {
            return Err(format!("heap {heap:?} is empty"));
        }
        if take == 0 || take > max {
            return Err(format!("you may take 1 to {max} from heap {heap:?}, not {take}"));
        }
        Ok(TwoHeapMove { heap, take: take as u32 })
    }

    fn fallback(m: &TwoHeapPos) -> TwoHeapMove {
        TwoHeapMove { heap: if m.a >= m.b { Heap::A } else { Heap::B }, take: 1 }
    }

    fn apply(p: &TwoHeapPos, m: &TwoHeapMove) -> TwoHeapPos {
        m.apply(*p)
    }
}

// ---------------------------------------------------------------------------------------------
// solve

fn solve(a: SolveArgs) -> Result<ExitCode> {
    let spec = GameSpec::new(&a.game)?;
    match spec.game {
        GameAt::Nim(g, p) => solve_game(g, &p, spec.brute_force),
        GameAt::Subtraction(g, p) => solve_game(g, &p, spec.brute_force),
        GameAt::Matches(g, p) => solve_game(g, &p, spec.brute_force),
        GameAt::TwoHeaps(g, p) => solve_game(g, &p, spec.brute_force),
    }
}

fn solve_game<G: Front>(game: G, p: &G::Position, brute_force: bool) -> Result<ExitCode> {
    let engine = Engine::new(game, size::<G>(p), brute_force)?;
    let outcome = engine.outcome(p)?;
    let moves = winning(&engine, p)?;
    println!("game:      {}", game.describe());
    println!("position:  {}", G::show(p));
    let over = G::is_over(p);
    match outcome {
        Outcome::Win if over => {
            println!("outcome:   N: the player to move has won (the opponent took the last one)")
        }
        Outcome::Lose if over => {
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
    G::notes(&engine, p);
    println!("solved by: {}", engine.method());
    Ok(ExitCode::SUCCESS)
}

// ---------------------------------------------------------------------------------------------
// play

fn play(a: PlayArgs) -> Result<ExitCode> {
    let spec = GameSpec::new(&a.game)?;
    match spec.game {
        GameAt::Nim(g, p) => play_game(g, p, spec.brute_force, &a),
        GameAt::Subtraction(g, p) => play_game(g, p, spec.brute_force, &a),
        GameAt::Matches(g, p) => play_game(g, p, spec.brute_force, &a),
        GameAt::TwoHeaps(g, p) => play_game(g, p, spec.brute_force, &a),
    }
}

fn play_game<G: Front>(
    game: G,
    mut p: G::Position,
    brute_force: bool,
    a: &PlayArgs,
) -> Result<ExitCode> {
    let engine = Engine::new(game, size::<G>(&p), brute_force)?;
    let misere = game.convention() == Convention::Misere;
    let mut yours = a.first == Starter::You;
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout().lock();
    writeln!(out, "game:      {}", game.describe())?;
    writeln!(out, "position:  {}", G::show(&p))?;
    let start = engine.outcome(&p)?;
    let verdict = match (yours, start) {
        (true, Outcome::Win) => "you can win, if you find the right moves",
        (true, Outcome::Lose) => "you will lose if the program plays well (it does)",
        (false, Outcome::Win) => "the program starts, and wins",
        (false, Outcome::Lose) => "the program starts in a lost position: win it",
    };
    writeln!(out, "{verdict}; enter moves one a line, `quit` to stop")?;
    while !G::is_over(&p) {
        if yours {
            write!(out, "{}: your move> ", G::show(&p))?;
            out.flush()?;
            let Some(line) = read_move(&mut input)? else {
                writeln!(out)?;
                bail!("input ended before the game was over (position {})", G::show(&p));
            };
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            if matches!(text, "quit" | "q" | "exit") {
                writeln!(out, "game abandoned at {}", G::show(&p))?;
                return Ok(ExitCode::SUCCESS);
            }
            let words: Vec<&str> = text.split_whitespace().collect();
            match game.parse_move(&p, &words) {
                Ok(m) => {
                    let next = G::apply(&p, &m);
                    let m = shown::<G>(&p, (m, next));
                    writeln!(out, "you:       {}", m.text)?;
                    p = m.next;
                }
                Err(why) if a.strict => {
                    bail!("bad move {} at {}: {why}", crate::checks::shown(text), G::show(&p))
                }
                Err(why) => {
                    out.flush()?;
                    eprintln!("bad move {}: {why}", crate::checks::shown(text));
                    continue;
                }
            }
        } else {
            let (m, note) = match winning(&engine, &p)?.into_iter().next() {
                Some(m) => (m, ""),
                None => {
                    let m = G::fallback(&p);
                    let next = G::apply(&p, &m);
                    (shown::<G>(&p, (m, next)), " (no winning move here: playing on)")
                }
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

/// The longest line of input a move is read from.
const MAX_MOVE_LINE: u64 = 4096;

/// The next line of `input` (without its end), `None` at the end of the input; a line longer
/// than [`MAX_MOVE_LINE`] bytes, or not text, is refused with the start of it quoted (never
/// read whole: `/dev/zero` ends at once).
fn read_move(input: &mut impl io::BufRead) -> Result<Option<String>> {
    let mut buf = Vec::new();
    let n = io::Read::take(&mut *input, MAX_MOVE_LINE + 1)
        .read_until(b'\n', &mut buf)
        .context("cannot read standard input")?;
    if n == 0 {
        return Ok(None);
    }
    let complete = buf.last() == Some(&b'\n');
    if !complete && buf.len() as u64 > MAX_MOVE_LINE {
        let start = String::from_utf8_lossy(&buf[..64.min(buf.len())]).into_owned();
        bail!(
            "a line of input longer than {MAX_MOVE_LINE} bytes, starting {}: a move is a few \
             words",
            crate::checks::shown(&start)
        );
    }
    let line = String::from_utf8(buf).map_err(|e| {
        let start =
            String::from_utf8_lossy(&e.as_bytes()[..64.min(e.as_bytes().len())]).into_owned();
        anyhow::anyhow!(
            "a line of input that is not text, starting {}",
            crate::checks::shown(&start)
        )
    })?;
    Ok(Some(line))
}

// ---------------------------------------------------------------------------------------------
// table

/// Where a table goes: standard output, or a file written whole or not at all.
enum TableOut {
    Stdout(io::StdoutLock<'static>),
    File(AtomicFile, crate::output::files::Outputs),
}

impl Write for TableOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            TableOut::Stdout(w) => w.write(buf),
            TableOut::File(w, _) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            TableOut::Stdout(w) => w.flush(),
            TableOut::File(w, _) => w.flush(),
        }
    }
}

fn csv_writer(output: Option<&str>) -> Result<csv::Writer<TableOut>> {
    let w = match output {
        Some(path) => {
            let path = Path::new(path);
            // Checked and locked before any work: a directory, a link, no such directory.
            let lock = prepare_file_output(Some(path), None, false)?;
            TableOut::File(AtomicFile::create(path)?, lock)
        }
        None => TableOut::Stdout(io::stdout().lock()),
    };
    Ok(csv::Writer::from_writer(w))
}

/// Ends a table: the file, if any, put in place whole.
fn finish_table(w: csv::Writer<TableOut>) -> Result<()> {
    match w.into_inner().map_err(|e| e.into_error())? {
        TableOut::Stdout(mut out) => out.flush()?,
        TableOut::File(file, _lock) => file.commit()?,
    }
    Ok(())
}

/// The most rows `table positions` writes.
const MAX_TABLE_ROWS: u64 = 20_000_000;

fn joined<P>(moves: &[Move<P>]) -> String {
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
    if matches!(a.game.game, GameKind::Nim | GameKind::Marienbad) && !(1..=8).contains(&a.rows) {
        bail!("--rows must be 1 to 8, not {}", a.rows);
    }
    let prev_max = a.prev_max.unwrap_or(max32);
    let (m, p) = (a.max as f64 + 1.0, f64::from(prev_max) + 1.0);
    let rows = match spec.game {
        GameAt::Nim(..) => (1..=a.rows).map(|i| (m - 1.0 + i as f64) / i as f64).product(),
        GameAt::Subtraction(..) => m,
        GameAt::Matches(..) => m * p,
        GameAt::TwoHeaps(..) => m * (m + 1.0) / 2.0 * p,
    };
    if rows > MAX_TABLE_ROWS as f64 {
        bail!(
            "the table would have about {rows:.0} rows, more than {MAX_TABLE_ROWS}: lower --max, \
             --rows or --prev-max"
        );
    }
    let brute = spec.brute_force;
    match spec.game {
        GameAt::Nim(g, _) => {
            let engine = Engine::new(g, a.max, brute)?;
            let mut w = csv_writer(a.output.as_deref())?;
            w.write_record(["rows", "outcome", "nim_sum", "winning_moves"])?;
            for r in nim::sorted_positions(a.rows, a.max) {
                w.write_record([
                    Nim::show(&r),
                    engine.outcome(&r)?.letter().to_string(),
                    nim::nim_sum(&r).to_string(),
                    joined(&winning(&engine, &r)?),
                ])?;
            }
            finish_table(w)?;
        }
        GameAt::Subtraction(g, _) => {
            let engine = Engine::new(g, a.max, brute)?;
            let mut w = csv_writer(a.output.as_deref())?;
            w.write_record(["objects", "outcome", "winning_take"])?;
            for n in 0..=a.max {
                let take = engine.winning(&n)?.first().map(|(t, _)| t.to_string());
                w.write_record([
                    n.to_string(),
                    engine.outcome(&n)?.letter().to_string(),
                    take.unwrap_or_default(),
                ])?;
            }
            finish_table(w)?;
        }
        GameAt::Matches(g, _) => {
            let engine = Engine::new(g, a.max, brute)?;
            let mut w = csv_writer(a.output.as_deref())?;
            w.write_record(["left", "prev", "outcome", "winning_takes"])?;
            for left in 1..=max32 {
                for prev in 0..=prev_max {
                    let p = MatchPos { left, prev };
                    let takes: Vec<String> =
                        engine.winning(&p)?.iter().map(|(t, _)| t.to_string()).collect();
                    w.write_record([
                        left.to_string(),
                        prev.to_string(),
                        engine.outcome(&p)?.letter().to_string(),
                        takes.join(" "),
                    ])?;
                }
            }
            finish_table(w)?;
        }
        GameAt::TwoHeaps(g, _) => {
            let engine = Engine::new(g, a.max, brute)?;
            let mut w = csv_writer(a.output.as_deref())?;
            w.write_record(["a", "b", "prev", "outcome", "winning_moves"])?;
            for x in 0..=max32 {
                for y in 0..=x {
                    for prev in 0..=prev_max {
                        let p = TwoHeapPos { a: x, b: y, prev };
                        let moves: Vec<String> =
                            engine.winning(&p)?.iter().map(|(m, _)| m.to_string()).collect();
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
            finish_table(w)?;
        }
    }
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
    finish_table(w)?;
    Ok(ExitCode::SUCCESS)
}

// ---------------------------------------------------------------------------------------------
// verify

fn verify(a: VerifyArgs) -> Result<ExitCode> {
    let entries: Vec<_> = catalogue::catalogue()
        .into_iter()
        .filter(|e| a.filter.as_deref().is_none_or(|f| e.id.contains(f)))
        .collect();
    if entries.is_empty() {
        anyhow::bail!(
            "no catalogue entry matches --filter {}",
            crate::checks::shown(&a.filter.unwrap_or_default())
        );
    }
    let failed = crate::claims::print_claims(&entries, a.format.format(), STATUSES);
    Ok(crate::claims::exit_code(failed))
}

/// Reads a take-away game and position from command-line words (`nim 1 3 5`, `matches 20
/// --rule 3n`, ...) and a person's move at it from `line`, as `takeaway play` does, and plays
/// the move if it is legal; nothing is solved. The fuzz suite's entry to these parsers.
#[cfg(test)]
pub(crate) fn read_game_and_move(words: &[String], line: &str) -> Result<()> {
    use clap::Parser;
    #[derive(Parser)]
    struct One {
        #[command(flatten)]
        game: GameArgs,
    }
    fn play<G: Front>(g: &G, p: &G::Position, words: &[&str]) -> Result<()> {
        let m = g.parse_move(p, words).map_err(anyhow::Error::msg)?;
        let _ = G::show(&G::apply(p, &m));
        Ok(())
    }
    let one =
        One::try_parse_from(std::iter::once("takeaway").chain(words.iter().map(String::as_str)))?;
    let spec = GameSpec::new(&one.game)?;
    let words: Vec<&str> = line.split_whitespace().collect();
    match &spec.game {
        GameAt::Nim(g, p) => play(g, p, &words),
        GameAt::Subtraction(g, p) => play(g, p, &words),
        GameAt::Matches(g, p) => play(g, p, &words),
        GameAt::TwoHeaps(g, p) => play(g, p, &words),
    }
}
