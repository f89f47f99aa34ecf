//! Monte Carlo tree search (UCT), seeded. Playouts are random and capped;
//! a capped playout is scored by the sign of the evaluation.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::eval::{Evaluator, RaceEvaluator};
use super::game::Game;
use crate::rules::{Action, GameState, Player};

struct Node {
    action: Option<Action>,
    /// The player who chose `action` (whose result this node's wins count).
    mover: Player,
    children: Vec<usize>,
    untried: Vec<Action>,
    visits: u32,
    wins: f64,
}

/// UCT with `iterations` playouts per decision.
pub struct Mcts {
    iterations: u32,
    playout_cap: u32,
    exploration: f64,
    rng: ChaCha8Rng,
    /// Set from outside to end a search early (Ctrl-C, a closed window).
    cancel: Option<Arc<AtomicBool>>,
}

impl Mcts {
    /// A searcher with its own seeded random source.
    #[must_use]
    pub fn new(iterations: u32, seed: u64) -> Mcts {
        Mcts {
            iterations,
            playout_cap: 60,
            exploration: 1.4,
            rng: ChaCha8Rng::seed_from_u64(seed),
            cancel: None,
        }
    }

    /// The same searcher, giving up soon after `cancel` is set (with the
    /// most visited action so far).
    #[must_use]
    pub fn cancellable(mut self, cancel: Arc<AtomicBool>) -> Mcts {
        self.cancel = Some(cancel);
        self
    }

    fn playout(&mut self, mut state: GameState) -> Option<Player> {
        for _ in 0..self.playout_cap {
            if let Some(result) = state.result() {
                return result;
            }
            let actions = state.actions();
            state.apply(actions[self.rng.random_range(0..actions.len())]);
        }
        if let Some(result) = state.result() {
            return result;
        }
        let score = RaceEvaluator.evaluate(&state, Player::One);
        match score.signum() {
            1 => Some(Player::One),
            -1 => Some(Player::Two),
            _ => None,
        }
    }

    /// The most visited action after the playouts, or `None` when the game
    /// is over.
    pub fn best(&mut self, root_state: &GameState) -> Option<Action> {
        let root_actions = root_state.actions();
        if root_actions.is_empty() {
            return None;
        }
        if root_actions.len() == 1 {
            return root_actions.first().copied();
        }
        let mut nodes = vec![Node {
            action: None,
            mover: root_state.to_move().other(),
            children: Vec::new(),
            untried: root_actions.as_slice().to_vec(),
            visits: 0,
            wins: 0.0,
        }];
        for iteration in 0..self.iterations {
            if iteration % 64 == 63 && self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                break;
            }
            let mut state = *root_state;
            let mut path = vec![0usize];
            let mut node = 0;
            // Selection.
            while nodes[node].untried.is_empty() && !nodes[node].children.is_empty() {
                let parent_visits = f64::from(nodes[node].visits.max(1));
                let c = self.exploration;
                let pick = nodes[node]
                    .children
                    .iter()
                    .copied()
                    .max_by(|&a, &b| {
                        let ucb = |i: usize| {
                            let n = &nodes[i];
                            n.wins / f64::from(n.visits.max(1))
                                + c * (parent_visits.ln() / f64::from(n.visits.max(1))).sqrt()
                        };
                        ucb(a).total_cmp(&ucb(b))
                    })
                    .unwrap_or(node);
                if let Some(action) = nodes[pick].action {
                    state.apply(action);
                }
                node = pick;
                path.push(node);
            }
            // Expansion.
            if !nodes[node].untried.is_empty() && state.result().is_none() {
                let i = self.rng.random_range(0..nodes[node].untried.len());
                let action = nodes[node].untried.swap_remove(i);
                let mover = state.to_move();
                state.apply(action);
                nodes.push(Node {
                    action: Some(action),
                    mover,
                    children: Vec::new(),
                    untried: state.actions().as_slice().to_vec(),
                    visits: 0,
                    wins: 0.0,
                });
                let child = nodes.len() - 1;
                nodes[node].children.push(child);
                path.push(child);
            }
            // Simulation and back-propagation.
            let winner = self.playout(state);
            for &i in &path {
                let n = &mut nodes[i];
                n.visits += 1;
                n.wins += match winner {
                    Some(w) if w == n.mover => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
            }
        }
        nodes[0].children.iter().max_by_key(|&&i| nodes[i].visits).and_then(|&i| nodes[i].action)
    }
}
