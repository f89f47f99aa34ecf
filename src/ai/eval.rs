//! Evaluation: an engine decision, not a rule.
//!
//! The race evaluator scores a position for a player by the route race —
//! the steps each player still needs to win by the flag over open cells,
//! crates blocking — and by the crate race: destroyed crates and placements
//! left. A win or loss scores ±[`WIN`].

use crate::rules::{Bitboard, GameState, Outcome, Player};

/// The score of a won position.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses at some distance.
pub const WIN_BOUND: i32 = WIN - 10_000;

/// Scores positions for a player.
pub trait Evaluator {
    /// The score of `state` for `player`: higher is better.
    fn evaluate(&self, state: &GameState, player: Player) -> i32;
}

/// The evaluation used by every built-in strategy; see the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct RaceEvaluator;

/// Steps from any cell of `from` to the nearest cell of `to` over `open`.
fn steps(open: Bitboard, from: Bitboard, to: Bitboard) -> Option<u32> {
    if (from & to).any() {
        return Some(0);
    }
    let mut seen = from;
    let mut frontier = from;
    let mut d = 0;
    loop {
        frontier = frontier.dilate() & (open - seen);
        if frontier.is_empty() {
            return None;
        }
        d += 1;
        if (frontier & to).any() {
            return Some(d);
        }
        seen |= frontier;
    }
}

/// Steps `player` still needs to bring the flag home. Crates block; when
/// they cut the way, the floor distance plus a penalty for breaking through.
#[must_use]
pub fn flag_steps(state: &GameState, player: Player) -> u32 {
    const THROUGH_CRATES: u32 = 6;
    let here = Bitboard::from_cell(state.position(player));
    let flag = Bitboard::from_cell(state.flag());
    let goals = state.goals(player);
    let leg = |from: Bitboard, to: Bitboard| -> u32 {
        steps(state.open() | from, from, to)
            .or_else(|| steps(state.floor(), from, to).map(|d| d + THROUGH_CRATES))
            .unwrap_or(200)
    };
    if state.carrier() == Some(player) { leg(here, goals) } else { leg(here, flag) + leg(flag, goals) }
}

impl Evaluator for RaceEvaluator {
    fn evaluate(&self, state: &GameState, player: Player) -> i32 {
        match state.outcome() {
            Some(Outcome::Win { winner, .. }) => return if winner == player { WIN } else { -WIN },
            Some(Outcome::Draw) => return 0,
            None => {}
        }
        let other = player.other();
        let race = flag_steps(state, other) as i32 - flag_steps(state, player) as i32;
        let destroyed = i32::from(state.destroyed(player)) - i32::from(state.destroyed(other));
        let placements = i32::from(state.placements_left(player)) - i32::from(state.placements_left(other));
        let to_move = if state.turn() == player { 1 } else { -1 };
        let carrier = match state.carrier() {
            Some(p) if p == player => 1,
            Some(_) => -1,
            None => 0,
        };
        100 * race + 150 * destroyed + 10 * placements + 30 * to_move + 80 * carrier
    }
}
