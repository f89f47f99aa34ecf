//! The solver: is there a forced win for the side to move within N
//! actions? An AND-OR proof search: at the solver's moves one action must
//! win, at the opponent's every reply must lose. The lower bound of the
//! analysis prunes lines that cannot win in time; a table remembers what is
//! proved. Answers are proved (with a line), disproved, or unknown.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use super::search::{Distances, Verdict};
use crate::rules::{Action, GameState, Outcome, Player};

#[derive(Clone, Copy, Default)]
struct Known {
    /// A win is proved within this many actions.
    win_within: Option<u32>,
    /// No win within this many actions.
    none_within: Option<u32>,
}

struct Prover<'a> {
    player: Player,
    distances: Distances,
    table: HashMap<u64, Known>,
    nodes: u64,
    budget: u64,
    cancel: Option<&'a AtomicBool>,
    aborted: bool,
}

impl Prover<'_> {
    /// Whether `player` forces a win within `left` actions; `None` when the
    /// budget ran out.
    fn prove(&mut self, state: &GameState, left: u32) -> Option<bool> {
        match state.outcome() {
            Some(Outcome::Win { winner, .. }) => return Some(winner == self.player),
            Some(Outcome::Draw) => return Some(false),
            None => {}
        }
        if left == 0 || self.distances.lower_bound(state, self.player) > left {
            return Some(false);
        }
        let known = self.table.get(&state.hash()).copied().unwrap_or_default();
        if known.win_within.is_some_and(|d| d <= left) {
            return Some(true);
        }
        if known.none_within.is_some_and(|d| d >= left) {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > self.budget || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.aborted = true;
            return None;
        }
        let ours = state.turn() == self.player;
        let mut result = !ours;
        for &action in state.legal_actions().iter() {
            let mut child = *state;
            child.play_unchecked(action);
            let wins = self.prove(&child, left - 1)?;
            if ours && wins {
                result = true;
                break;
            }
            if !ours && !wins {
                result = false;
                break;
            }
        }
        let entry = self.table.entry(state.hash()).or_default();
        if result {
            entry.win_within = Some(entry.win_within.map_or(left, |d| d.min(left)));
        } else {
            entry.none_within = Some(entry.none_within.map_or(left, |d| d.max(left)));
        }
        Some(result)
    }

    /// A line of a proved win: the winning action at the solver's turns,
    /// at the opponent's the reply that holds out longest.
    fn line(&mut self, state: &GameState, left: u32) -> Vec<Action> {
        let mut line = Vec::new();
        let mut state = *state;
        let mut left = left;
        while state.outcome().is_none() && left > 0 {
            let ours = state.turn() == self.player;
            let mut chosen = None;
            for &action in state.legal_actions().iter() {
                let mut child = state;
                child.play_unchecked(action);
                if ours {
                    if self.prove(&child, left - 1) == Some(true) {
                        chosen = Some(action);
                        break;
                    }
                } else {
                    // Prefer a reply that is not lost a move sooner.
                    let quick = left >= 2 && self.prove(&child, left - 2) == Some(true);
                    if chosen.is_none() || !quick {
                        chosen = Some(action);
                        if !quick {
                            break;
                        }
                    }
                }
            }
            let Some(action) = chosen else { break };
            line.push(action);
            state.play_unchecked(action);
            left -= 1;
        }
        line
    }
}

/// Whether the side to move of `state` forces a win within `depth` actions.
/// Returns the verdict and the positions searched.
#[must_use]
pub fn solve(state: &GameState, depth: u32, budget: u64, cancel: Option<&AtomicBool>) -> (Verdict, u64) {
    let mut prover = Prover {
        player: state.turn(),
        distances: Distances::new(state),
        table: HashMap::new(),
        nodes: 0,
        budget,
        cancel,
        aborted: false,
    };
    if state.is_over() {
        return (Verdict::Disproved, 0);
    }
    // Deepening finds the shortest forced win first.
    for left in 1..=depth {
        match prover.prove(state, left) {
            Some(true) => {
                let line = prover.line(state, left);
                return (Verdict::Proved { line }, prover.nodes);
            }
            Some(false) => {}
            None => return (Verdict::Unknown, prover.nodes),
        }
    }
    if prover.aborted { (Verdict::Unknown, prover.nodes) } else { (Verdict::Disproved, prover.nodes) }
}
