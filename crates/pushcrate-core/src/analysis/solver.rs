//! The solver: is there a forced win for the side to move within N
//! actions? An AND-OR proof search: at the solver's moves one action must
//! win, at the opponent's every reply must lose. A lower bound on the
//! actions a win needs, both players' counted, prunes lines that cannot win
//! in time; actions are tried likeliest first (the one that settled the
//! position before, then by that bound); a table remembers what is proved;
//! and a runaway (`super::runaway`) proves a position of the solver's
//! without searching the opponent's replies. Answers are proved (with a
//! line), disproved, or unknown.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use super::runaway::{Runaway, runaway};
use super::search::{Answer, Distances};
use crate::rules::{Action, GameState, Outcome, Player};

#[derive(Clone, Copy, Default)]
struct Known {
    /// A win is proved within this many actions.
    win_within: Option<u32>,
    /// No win within this many actions.
    none_within: Option<u32>,
    /// The action that settled the position last: the winning action at
    /// the solver's turn, the refutation at the opponent's. Tried first
    /// when the position is searched again, deeper.
    best: Option<Action>,
}

struct Prover<'a> {
    player: Player,
    distances: Distances,
    table: HashMap<u64, Known>,
    nodes: u64,
    budget: u64,
    cancel: Option<&'a AtomicBool>,
    aborted: bool,
    /// Whether a runaway (a walk home the opponent cannot touch) proves a
    /// win without searching the opponent's replies.
    runaways: bool,
    /// A list of ordered children for each number of actions left, reused
    /// from node to node so that the search allocates nothing once warm.
    buffers: Vec<Vec<(u32, Action, GameState)>>,
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
        if left == 0 || self.distances.plies_needed(state, self.player) > left {
            return Some(false);
        }
        let known = self.table.get(&state.hash()).copied().unwrap_or_default();
        if known.win_within.is_some_and(|d| d <= left) {
            return Some(true);
        }
        if known.none_within.is_some_and(|d| d >= left) {
            return Some(false);
        }
        // After the table: a runaway costs a few flood fills.
        let ours = state.turn() == self.player;
        if ours && self.runaway(state).is_some_and(|r| r.plies <= left) {
            return Some(true);
        }
        self.nodes += 1;
        if self.nodes > self.budget || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.aborted = true;
            return None;
        }
        let mut result = !ours;
        let mut settled_by = None;
        let slot = left as usize;
        if self.buffers.len() <= slot {
            self.buffers.resize_with(slot + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.buffers[slot]);
        self.children(state, known.best, &mut children);
        let mut out_of_budget = false;
        for &(_, action, child) in &children {
            let Some(wins) = self.prove(&child, left - 1) else {
                out_of_budget = true;
                break;
            };
            if ours == wins {
                // A win found, or a refutation.
                result = wins;
                settled_by = Some(action);
                break;
            }
        }
        self.buffers[slot] = children;
        if out_of_budget {
            return None;
        }
        let entry = self.table.entry(state.hash()).or_default();
        if result {
            entry.win_within = Some(entry.win_within.map_or(left, |d| d.min(left)));
        } else {
            entry.none_within = Some(entry.none_within.map_or(left, |d| d.max(left)));
        }
        if settled_by.is_some() {
            entry.best = settled_by;
        }
        Some(result)
    }

    /// `state`'s actions, the likeliest to settle it first: the action
    /// that settled it before, then at the solver's turn the actions that
    /// leave it the fewest actions to win, at the opponent's those that
    /// leave it the most.
    fn ordered(&self, state: &GameState, best: Option<Action>) -> Vec<Action> {
        let mut children = Vec::new();
        self.children(state, best, &mut children);
        children.into_iter().map(|(_, action, _)| action).collect()
    }

    /// Fills `children` with `state`'s actions and the positions they
    /// lead to, in [`Prover::ordered`]'s order, each child played once.
    fn children(
        &self,
        state: &GameState,
        best: Option<Action>,
        children: &mut Vec<(u32, Action, GameState)>,
    ) {
        let ours = state.turn() == self.player;
        children.clear();
        children.extend(state.legal_actions().iter().map(|&action| {
            let mut child = *state;
            child.play_unchecked(action);
            let need = self.distances.plies_needed(&child, self.player);
            let key = if Some(action) == best {
                0
            } else if ours {
                need.saturating_add(1)
            } else {
                u32::MAX - need
            };
            (key, action, child)
        }));
        // A stable sort keeps the engine's order among equals.
        children.sort_by_key(|&(key, _, _)| key);
    }

    /// The runaway of `state`'s side to move, when runaways are on.
    fn runaway(&self, state: &GameState) -> Option<Runaway> {
        if self.runaways { runaway(state) } else { None }
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
            if ours && let Some(walk) = self.runaway(&state).filter(|r| r.plies <= left) {
                // The walk home, whatever the opponent does; it answers
                // with the action that leaves the walker the most to do.
                let reply = |s: &GameState| self.ordered(s, None).first().copied().unwrap_or(Action::Pass);
                line.extend(walk.line(&state, reply));
                break;
            }
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
pub fn solve(state: &GameState, depth: u32, budget: u64, cancel: Option<&AtomicBool>) -> (Answer, u64) {
    solve_with(state, depth, budget, cancel, true)
}

/// [`solve`] without runaways: every reply of the opponent is searched.
/// The plain reference that benchmarks and tests compare with.
#[must_use]
pub fn solve_plain(state: &GameState, depth: u32, budget: u64) -> (Answer, u64) {
    solve_with(state, depth, budget, None, false)
}

fn solve_with(
    state: &GameState,
    depth: u32,
    budget: u64,
    cancel: Option<&AtomicBool>,
    runaways: bool,
) -> (Answer, u64) {
    let mut prover = Prover {
        player: state.turn(),
        distances: Distances::new(state),
        table: HashMap::new(),
        nodes: 0,
        budget,
        cancel,
        aborted: false,
        runaways,
        buffers: Vec::new(),
    };
    if state.is_over() {
        return (Answer::Disproved, 0);
    }
    // A runaway at the start proves a win at once; deepening would spend
    // the budget proving that no shorter one exists.
    if let Some(walk) = prover.runaway(state).filter(|r| r.plies <= depth) {
        let line = prover.line(state, walk.plies);
        debug_assert!(replays_to_a_win(state, &line), "a runaway's line wins");
        return (Answer::Proved { line }, prover.nodes);
    }
    // Deepening finds the shortest forced win first.
    for left in 1..=depth {
        match prover.prove(state, left) {
            Some(true) => {
                let line = prover.line(state, left);
                return (Answer::Proved { line }, prover.nodes);
            }
            Some(false) => {}
            None => return (Answer::Unknown, prover.nodes),
        }
    }
    if prover.aborted { (Answer::Unknown, prover.nodes) } else { (Answer::Disproved, prover.nodes) }
}

/// Whether `line` played from `state` ends in a win of its side to move.
fn replays_to_a_win(state: &GameState, line: &[Action]) -> bool {
    let mover = state.turn();
    let mut state = *state;
    line.iter().all(|&a| state.play(a).is_ok())
        && matches!(state.outcome(), Some(Outcome::Win { winner, .. }) if winner == mover)
}

#[cfg(test)]
mod tests {
    use rand::{Rng as _, SeedableRng as _};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::analysis::runaway::runaway;
    use crate::level::Pack;
    use crate::level::format::parse_pack;

    /// Positions of random games on the bundled and the flawed levels.
    fn positions() -> Vec<GameState> {
        let flawed = parse_pack(crate::level::FLAWED_PACK_TOML).pack.expect("the flawed pack reads");
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut out = Vec::new();
        for pack in [Pack::bundled(), flawed] {
            for level in &pack.levels {
                let start = level.start_state(pack.rules).expect("a valid level");
                for _ in 0..40 {
                    let mut state = start;
                    for _ in 0..rng.random_range(0..40) {
                        let legal = state.legal_actions();
                        if state.is_over() || legal.is_empty() {
                            break;
                        }
                        out.push(state);
                        state.play_unchecked(legal[rng.random_range(0..legal.len())]);
                    }
                }
            }
        }
        out
    }

    /// A runaway is a proof: its walk wins against any replies within its
    /// length, and where the exhaustive search can settle the position
    /// without runaways, it proves a win within that length too.
    #[test]
    fn a_runaway_wins_against_every_reply() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (mut found, mut searched) = (0, 0);
        for state in positions() {
            let distances = Distances::new(&state);
            let Some(walk) = runaway(&state) else { continue };
            found += 1;
            let mover = state.turn();
            for _ in 0..8 {
                let seed = rng.random::<u64>();
                let replies = std::cell::RefCell::new(ChaCha8Rng::seed_from_u64(seed));
                let line = walk.line(&state, |s| {
                    let legal = s.legal_actions();
                    legal[replies.borrow_mut().random_range(0..legal.len())]
                });
                let mut end = state;
                for &action in &line {
                    end.play(action).expect("the line is legal");
                }
                assert!(
                    matches!(end.outcome(), Some(Outcome::Win { winner, .. }) if winner == mover),
                    "the walk {:?} lost its way: {line:?}",
                    walk.walk
                );
                assert!(line.len() as u32 <= walk.plies, "{} > {}", line.len(), walk.plies);
            }
            if walk.plies <= 9 {
                let mut prover = Prover {
                    player: mover,
                    distances,
                    table: HashMap::new(),
                    nodes: 0,
                    budget: 200_000,
                    cancel: None,
                    aborted: false,
                    runaways: false,
                    buffers: Vec::new(),
                };
                if let Some(proved) = prover.prove(&state, walk.plies) {
                    assert!(proved, "the search finds no win within {} actions", walk.plies);
                    searched += 1;
                }
            }
        }
        assert!(found >= 100 && searched >= 30, "{found} runaways, {searched} searched");
    }
}
