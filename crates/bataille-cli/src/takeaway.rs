//! `bataille takeaway`: the take-away games of the companion documents (seeds 000, 001, 003,
//! 004): solve a position, play against the program, export tables, verify the documents.
//!
//! The raw clap structures are here; `bataille_takeaway::spec::GameSpec` validates them into a
//! game and a start position of it and answers (Bouton's closed forms, the compressed match
//! tables or, with `--brute-force`, the generic solver), `bataille_takeaway::table` renders the
//! tables. What is here is reading the flags and standard input, and printing.

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use bataille_takeaway::catalogue::{self, STATUSES};
use bataille_takeaway::spec::{GameKind as Kind, GameOptions, GameSpec};
use bataille_takeaway::table::{self, MAX_TABLE_ROWS, PositionsTable, TableError};
use bataille_takeaway::{Convention, MatchGame, MatchTable, Rule};
use clap::{Args, Subcommand, ValueEnum};

use crate::checks::shown;
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

impl GameArgs {
    /// The options as the library names them.
    fn options(&self) -> GameOptions {
        GameOptions {
            game: match self.game {
                GameKind::Nim => Kind::Nim,
                GameKind::Marienbad => Kind::Marienbad,
                GameKind::Subtraction => Kind::Subtraction,
                GameKind::FortBoyard => Kind::FortBoyard,
                GameKind::Matches => Kind::Matches,
                GameKind::TwoHeaps => Kind::TwoHeaps,
            },
            heaps: self.heaps.clone(),
            convention: self.convention.map(ConventionArg::convention),
            rule: self.rule.clone(),
            first_max: self.first_max,
            prev: self.prev,
            max_take: self.max_take,
            brute_force: self.brute_force,
        }
    }
}

impl ConventionArg {
    fn convention(self) -> Convention {
        match self {
            ConventionArg::Normal => Convention::Normal,
            ConventionArg::Misere => Convention::Misere,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// solve

fn solve(a: SolveArgs) -> Result<ExitCode> {
    let spec = GameSpec::new(&a.game.options())?;
    print!("{}", spec.solve()?);
    Ok(ExitCode::SUCCESS)
}

// ---------------------------------------------------------------------------------------------
// play

fn play(a: PlayArgs) -> Result<ExitCode> {
    let mut game = GameSpec::new(&a.game.options())?.session()?;
    let mut yours = a.first == Starter::You;
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout().lock();
    writeln!(out, "game:      {}", game.describe())?;
    writeln!(out, "position:  {}", game.show())?;
    writeln!(out, "{}; enter moves one a line, `quit` to stop", game.verdict(yours)?)?;
    while !game.is_over() {
        if yours {
            write!(out, "{}: your move> ", game.show())?;
            out.flush()?;
            let Some(line) = read_move(&mut input)? else {
                writeln!(out)?;
                bail!("input ended before the game was over (position {})", game.show());
            };
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            if matches!(text, "quit" | "q" | "exit") {
                writeln!(out, "game abandoned at {}", game.show())?;
                return Ok(ExitCode::SUCCESS);
            }
            let at = game.show();
            match game.play(&text.split_whitespace().collect::<Vec<_>>()) {
                Ok(m) => writeln!(out, "you:       {m}")?,
                Err(why) if a.strict => bail!("bad move {} at {at}: {why}", shown(text)),
                Err(why) => {
                    out.flush()?;
                    eprintln!("bad move {}: {why}", shown(text));
                    continue;
                }
            }
        } else {
            let (m, wins) = game.reply()?;
            let note = if wins { "" } else { " (no winning move here: playing on)" };
            writeln!(out, "program:   {m}{note}")?;
        }
        yours = !yours;
    }
    // The player to move now did not take the last one.
    writeln!(out, "{}", game.ending(!yours))?;
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
            shown(&start)
        );
    }
    let line = String::from_utf8(buf).map_err(|e| {
        let start =
            String::from_utf8_lossy(&e.as_bytes()[..64.min(e.as_bytes().len())]).into_owned();
        anyhow::anyhow!("a line of input that is not text, starting {}", shown(&start))
    })?;
    Ok(Some(line))
}

// ---------------------------------------------------------------------------------------------
// table

/// Writes a table to standard output, or to `output`, checked and locked before any row and
/// put in place whole (`bataille_runs::files`).
fn write_table(
    output: Option<&str>,
    write: impl FnOnce(&mut dyn Write) -> Result<(), TableError>,
) -> Result<()> {
    match output {
        Some(path) => {
            let path = Path::new(path);
            // Checked and locked before any work: a directory, a link, no such directory.
            let _lock = prepare_file_output(Some(path), None, false)?;
            let mut file = AtomicFile::create(path)?;
            write(&mut file)?;
            file.commit()?;
        }
        None => write(&mut io::stdout().lock())?,
    }
    Ok(())
}

fn positions(a: PositionsArgs) -> Result<ExitCode> {
    if !a.game.heaps.is_empty() {
        bail!("`table positions` lists every position up to --max: give no position");
    }
    // A placeholder position of the right shape; the table covers every position up to --max.
    let mut options = a.game.options();
    options.heaps = if a.game.game == GameKind::TwoHeaps { vec![0, 0] } else { vec![0] };
    let spec = GameSpec::new(&options)?;
    let max = u32::try_from(a.max)
        .map_err(|_| anyhow!("--max {} is too large: at most {}", a.max, u32::MAX))?;
    if matches!(a.game.game, GameKind::Nim | GameKind::Marienbad) && !(1..=8).contains(&a.rows) {
        bail!("--rows must be 1 to 8, not {}", a.rows);
    }
    let prev_max = a.prev_max.unwrap_or(max);
    let rows = table::positions_rows(&spec.game, a.max, a.rows, prev_max);
    if rows > MAX_TABLE_ROWS as f64 {
        bail!(
            "the table would have about {rows:.0} rows, more than {MAX_TABLE_ROWS}: lower --max, \
             --rows or --prev-max"
        );
    }
    let table = PositionsTable::new(&spec, max, a.rows, prev_max)?;
    write_table(a.output.as_deref(), |w| table.write(w))?;
    Ok(ExitCode::SUCCESS)
}

fn sequence(a: SequenceArgs) -> Result<ExitCode> {
    let rule: Rule = a.rule.parse()?;
    let t = MatchTable::new(MatchGame { rule, convention: a.convention.convention() }, a.max)?;
    write_table(a.output.as_deref(), |w| table::write_sequence(&t, w))?;
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
            shown(&a.filter.unwrap_or_default())
        );
    }
    let failed = crate::claims::print_claims(&entries, a.format.format(), STATUSES);
    Ok(crate::claims::exit_code(failed))
}
