//! The reports of `bataille bmn play`, written to any `io::Write` as they are made (a trace of
//! millions of tricks is never held whole): the trace of a game, trick by trick, and its
//! summary.

use std::io::Write;

use crate::{DeckSpec, Game, Hands, Outcome, Player, Record, format_hand};

/// Writes the trace of the game `r` of `h`: one line per trick (the leader, the pile in the
/// order played, who takes it, both hands after it), the start and end of its loop marked.
pub fn write_trace(out: &mut dyn Write, h: &Hands, r: &Record) -> std::io::Result<()> {
    let mut g = Box::new(Game::new(h.first(), h.second()));
    let entry = match r.outcome {
        Outcome::Cycle(c) => Some(c.tail_tricks),
        _ => None,
    };
    writeln!(out, "trick  leader  pile (in the order played) -> taker: first hand / second hand")?;
    writeln!(out, "    0  {:<6}  start: {h}", g.leader().name())?;
    for k in 1..=r.tricks {
        if g.winner().is_some() {
            break;
        }
        if entry == Some(k - 1) {
            writeln!(out, "       (the loop starts here)")?;
        }
        let leader = g.leader();
        let t = g.trick();
        writeln!(
            out,
            "{k:>5}  {:<6}  {} -> {}: {}{}",
            leader.name(),
            format_hand(&g.last_pile()),
            t.taker,
            g.to_hands(),
            if t.game_over { "  (game over)" } else { "" }
        )?;
        if t.game_over {
            break;
        }
    }
    if entry.is_some() {
        writeln!(out, "       (back to the position where the loop starts)")?;
    }
    Ok(())
}

/// Writes the summary of the game `r` of `h` (of the deck `deck`, or a partial one): the hands,
/// the deck and split, the outcome (its loop's tail, period and id), the tricks and cards.
pub fn write_summary(
    out: &mut dyn Write,
    h: &Hands,
    deck: Option<DeckSpec>,
    r: &Record,
) -> std::io::Result<()> {
    writeln!(out, "hands:     {h}")?;
    let split = format!("{} / {} cards", h.first().len(), h.second().len());
    let shape = if h.is_deal() { "a deal" } else { "not a deal split" };
    match deck {
        Some(spec) => writeln!(out, "deck:      {spec}; {shape}, {split}")?,
        None => writeln!(out, "deck:      partial, {} cards; {shape}, {split}", h.cards())?,
    }
    match r.outcome {
        Outcome::FirstWins | Outcome::SecondWins => {
            let w = r.outcome.winner().unwrap_or(Player::First);
            writeln!(out, "outcome:   the {w} player wins (the {} player has no card)", w.other())?;
        }
        Outcome::Capped => {
            writeln!(out, "outcome:   stopped at the cap of {} tricks", r.tricks)?;
        }
        Outcome::Cycle(c) => {
            writeln!(out, "outcome:   never ends (loop)")?;
            writeln!(out, "tail:      {} tricks, {} cards", c.tail_tricks, c.tail_cards)?;
            writeln!(out, "period:    {} tricks, {} cards", c.period_tricks, c.period_cards)?;
            writeln!(out, "cycle id:  {}", c.id)?;
        }
    }
    let until = if matches!(r.outcome, Outcome::Cycle(_)) {
        " until the first repeated position"
    } else {
        ""
    };
    writeln!(out, "tricks:    {}{until}", r.tricks)?;
    writeln!(out, "cards:     {}{until}", r.cards)
}
