//! Seed 001 ("Jeu de Marienbad", 3-5-7-9, the digital sum): the theorem on every position
//! below 3-5-7-9, the verdict for 3-5-7-9, and what example 3's text implies.

use super::{Check, Claim, Known, entry};
use crate::nim;
use crate::{Convention, Nim, NimMove, Outcome, Solver};

const SOURCE: &str = "seed 001, normal play";
const START: [u64; 4] = [3, 5, 7, 9];

pub(super) fn entries() -> Vec<Claim> {
    vec![
        entry("s001-digital-sum", SOURCE, theorem(), Known::None),
        entry("s001-3579", SOURCE, start(), Known::Computed),
        entry("s001-example3", SOURCE, example3(), Known::Computed),
    ]
}

fn theorem() -> Check {
    let game = Nim { convention: Convention::Normal };
    let mut solver = Solver::new(&game);
    let all = nim::positions_below(&START);
    let mismatches: Vec<String> = all
        .iter()
        .filter(|p| {
            let favourable = nim::nim_sum(p) != 0;
            solver.outcome(p).expect("small positions solve").is_win() != favourable
        })
        .map(|p| format!("{p:?}"))
        .collect();
    Check {
        claim: "a configuration is won for the player to move (\"favorable\") exactly when its \
                digital sum is not zero; the last token wins"
            .into(),
        published: "theorem (proved)".into(),
        computed: format!("holds on all {} positions below 3-5-7-9 (solver)", all.len()),
        mismatches,
        evidence: String::new(),
    }
}

fn start() -> Check {
    let game = Nim { convention: Convention::Normal };
    let mut solver = Solver::new(&game);
    let brute: Vec<NimMove> = solver
        .winning_moves(&START.to_vec())
        .expect("solves")
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    let closed = nim::winning_moves(&START, Convention::Normal);
    let shown: Vec<String> = closed.iter().map(NimMove::to_string).collect();
    let outcome = solver.outcome(&START.to_vec()).expect("solves");
    Check {
        claim: "the starting configuration 3-5-7-9, the last token wins".into(),
        published: "no verdict given (the examples' figures are lost)".into(),
        computed: format!(
            "{} (favorable), digital sum {:b}; only winning move: {}",
            outcome.letter(),
            nim::nim_sum(&START),
            shown.join("; ")
        ),
        mismatches: if brute == closed && outcome == Outcome::Win {
            vec![]
        } else {
            vec!["solver".into()]
        },
        evidence: "solver and Bouton's rule agree on the outcome and the winning moves".into(),
    }
}

/// Example 3: "Les 4 colonnes ont une somme digitale non nulle. La colonne de gauche possède
/// un unique 1 à la ligne 4 ... Le joueur doit donc enlever un jeton sur la ligne 4." Which
/// four rows of at most four binary digits fit that text?
fn example3() -> Check {
    let fits: Vec<Vec<u64>> = nim::positions_below(&[15, 15, 15, 15])
        .into_iter()
        .filter(|p| {
            let s = nim::nim_sum(p);
            let top: Vec<usize> = (0..4).filter(|&i| p[i] & 8 != 0).collect();
            s == 15 && top == [3] && p[3] - (p[3] ^ s) == 1
        })
        .collect();
    let mut fourth: Vec<u64> = fits.iter().map(|p| p[3]).collect();
    fourth.dedup();
    Check {
        claim: "example 3: digital sum non-zero in all 4 columns, a single 1 in the leftmost \
                column, in row 4; flipping row 4 removes one token"
            .into(),
        published: "remove 1 token from row 4 (rows lost)".into(),
        computed: format!(
            "fits {} positions of four rows below 16, all with {} tokens in row 4 (1000 -> 0111)",
            fits.len(),
            fourth.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        ),
        mismatches: if fits.is_empty() { vec!["no position fits".into()] } else { vec![] },
        evidence: "not 3-5-7-9, whose digital sum 1000 has a single non-zero column".into(),
    }
}
