//! Perft: counting action sequences (docs/rules.md section 13).

use super::action::Action;
use super::state::GameState;

/// The number of action sequences of length `depth` from `state`. Depth 0
/// counts 1; a finished game adds nothing at any greater depth. The last
/// ply is counted from the length of the action list without playing it.
#[must_use]
pub fn perft(state: &GameState, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let actions = state.legal_actions();
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|&action| {
            let mut next = *state;
            next.play_unchecked(action);
            perft(&next, depth - 1)
        })
        .sum()
}

/// [`perft`], given up with `None` soon after `stop` is set.
#[must_use]
pub fn perft_until(state: &GameState, depth: u32, stop: &std::sync::atomic::AtomicBool) -> Option<u64> {
    if depth <= 1 {
        return Some(perft(state, depth));
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    let mut total = 0;
    for &action in state.legal_actions().iter() {
        let mut next = *state;
        next.play_unchecked(action);
        total += perft_until(&next, depth - 1, stop)?;
    }
    Some(total)
}

/// Perft that plays every action, the last ply included: the slower count
/// that measures playing as well as generating.
#[must_use]
pub fn perft_full(state: &GameState, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    state
        .legal_actions()
        .iter()
        .map(|&action| {
            let mut next = *state;
            next.play_unchecked(action);
            perft_full(&next, depth - 1)
        })
        .sum()
}

/// The perft count below each first action, in sorted action order.
#[must_use]
pub fn divide(state: &GameState, depth: u32) -> Vec<(Action, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    state
        .legal_actions()
        .sorted()
        .into_iter()
        .map(|action| {
            let mut next = *state;
            next.play_unchecked(action);
            (action, perft(&next, depth - 1))
        })
        .collect()
}
