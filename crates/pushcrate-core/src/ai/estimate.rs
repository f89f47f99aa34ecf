//! A balance estimate before any game: the fitted evaluation's chance that
//! the first player wins, read at the start after a shallow search.
//!
//! The fitted weights are in thousandths of a logit of the chance to win
//! (docs/ai.md, "The fitted evaluation"), so a search's value at the start
//! is a probability once passed through the logistic function, at the
//! scale [`SCALE`] fitted to the balance check's scores. Its accuracy
//! against the balance check on generated levels that neither fit saw is
//! measured, not assumed: [`ACCURACY`].

use super::eval::WIN_BOUND;
use super::{AlphaBeta, FeatureEvaluator, Limits, Weights};
use crate::rules::{GameState, Player};

/// The search behind the estimate: expert's depth and budget, without
/// expert's random choice among equal actions.
pub const LIMITS: Limits = Limits { depth: 4, nodes: 40_000, time: None };

/// Logits of the first player's score per thousand of the search's value.
/// The fitted weights are in thousandths of a logit of the chance to win
/// from positions *of games* (after a few random actions, mid-game);
/// from the start, the value of a level's layout is worth more: the balance
/// check's scores on 25 generated development levels (`open`, no symmetry,
/// seed 7002, none of them among the held-out levels of [`ACCURACY`]) are
/// fitted best (log loss) at 2.5 times the weights' own scale, the search
/// at [`LIMITS`] (docs/ai.md, "The balance estimate"). A second scale
/// and a first-move offset, fitted alike on 49 development levels (24 of
/// them half-turn), came no nearer on the held-out levels, so it stays.
pub const SCALE: f64 = 2.5;

/// How near the estimate came to the default balance check (the fitted
/// agents') on 200 held-out generated levels, eight packs of every style,
/// with and without symmetry (docs/ai.md, "The balance estimate", with the
/// commands that measure it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Accuracy {
    /// Levels measured.
    pub levels: u32,
    /// Mean absolute error of the first player's score, in points.
    pub mean_error: f64,
    /// How often the estimate named the check's side (player 1 ahead,
    /// balanced, player 2 ahead), 0 to 1.
    pub same_side: f64,
}

/// The estimate's measured accuracy.
pub const ACCURACY: Accuracy = Accuracy { levels: 200, mean_error: 24.6, same_side: 0.81 };

/// What the estimate says of a level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The player who moves first.
    pub first: Player,
    /// The first player's expected score, 0 to 1.
    pub first_player: f64,
    /// The search's value for the first player, in thousandths of a logit
    /// (beyond ±[`WIN_BOUND`]: a win found).
    pub value: i32,
    /// Positions searched.
    pub nodes: u64,
}

impl Estimate {
    /// The estimate in words, with its accuracy: "the first player
    /// (player 1) scores 57% (±25 points on 200 held-out levels)".
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "the first player ({}) scores {:.0}% (±{:.0} points on {} held-out levels)",
            self.first,
            100.0 * self.first_player,
            ACCURACY.mean_error,
            ACCURACY.levels
        )
    }
}

/// The first player's expected score at `start`, before any game; `None`
/// when the game is already over.
#[must_use]
pub fn estimate(start: &GameState) -> Option<Estimate> {
    let mut search = AlphaBeta::new(FeatureEvaluator::new(Weights::fitted()), LIMITS);
    let (_, value) = search.best(start)?;
    let first_player = win_probability(value, SCALE);
    Some(Estimate { first: start.turn(), first_player, value, nodes: search.nodes() })
}

/// The chance to win that a fitted search's `value` (thousandths of a
/// logit) stands for, read at `scale` times the weights' own scale: a
/// found win 1, a found loss 0, else the logistic function.
#[must_use]
pub fn win_probability(value: i32, scale: f64) -> f64 {
    if value >= WIN_BOUND {
        1.0
    } else if value <= -WIN_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-scale * f64::from(value) / 1000.0).exp())
    }
}
