//! AI players: strategies that choose actions, and the solver.
//!
//! Rules know nothing of search: strategies see the game through
//! [`Game`], and evaluation ([`RaceEvaluator`]) is an engine decision.
//!
//! | strength | strategy | budget |
//! |---|---|---|
//! | easy | random legal actions | — |
//! | medium | greedy: the best evaluation one action ahead, a random action one time in four | — |
//! | hard | alpha-beta | depth 2, 4,000 positions |
//! | expert | alpha-beta | depth 4, 40,000 positions |
//! | master | alpha-beta | up to depth 12, 3,000,000 positions |
//!
//! `deep` (alpha-beta, depth 6, 150,000 positions) is named but is not a
//! strength: the balance check's second pairing, between expert and
//! master, where master would make the check several times slower. Every
//! named agent that evaluates positions uses the fitted evaluation
//! ([`Weights::fitted`]); [`Agent::with_eval`] gives it back the hand one.

mod alphabeta;
pub mod estimate;
mod eval;
mod fitted;
mod game;
mod mcts;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use crate::analysis::solve;
pub use alphabeta::{AlphaBeta, Limits, NULL_REDUCTION, minimax, narrow_cells};
pub use eval::{
    Evaluator, PlainRaceEvaluator, RaceEvaluator, WIN, WIN_BOUND, flag_legs_both, flag_steps,
    flag_steps_both, route_cells,
};
pub(crate) use fitted::{BLOCK as BLOCK_FEATURE, NATURAL as NATURAL_FEATURE};
pub use fitted::{
    FEATURE_COUNT, FEATURE_NAMES, FITTED_TOML, FeatureEvaluator, Weights, block_threats, features,
};
pub use game::Game;
pub use mcts::Mcts;

use crate::rules::{Action, GameState};

/// Whether a computer player `player` accepts a draw offered in `state`:
/// when the race evaluation says it is behind. The one draw policy of the
/// computer's seats.
#[must_use]
pub fn accepts_draw(state: &GameState, player: crate::rules::Player) -> bool {
    RaceEvaluator.evaluate(state, player) < 0
}

/// A player that chooses actions.
pub trait Strategy: Send {
    /// Chooses a legal action of `state`, which must not be over.
    fn choose(&mut self, state: &GameState) -> Action;

    /// Chooses an action in a game whose earlier positions had the hashes
    /// `history` (oldest first, `state` not included). A strategy that
    /// handles repetition scores a position met again as a draw, so it
    /// neither loops while ahead nor misses a draw while behind; by
    /// default the history is not looked at.
    fn choose_in_game(&mut self, state: &GameState, history: &[u64]) -> Action {
        let _ = history;
        self.choose(state)
    }
}

/// Uniformly random legal actions.
pub struct RandomStrategy {
    rng: ChaCha8Rng,
}

impl RandomStrategy {
    /// A random player with its own seed.
    #[must_use]
    pub fn new(seed: u64) -> RandomStrategy {
        RandomStrategy { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Strategy for RandomStrategy {
    fn choose(&mut self, state: &GameState) -> Action {
        let actions = state.legal_actions();
        actions.get(self.rng.random_range(0..actions.len().max(1))).copied().unwrap_or(Action::Pass)
    }
}

/// The action with the best evaluation one action ahead; ties are broken at
/// random, so that games between greedy players differ. With noise, a share
/// of its actions are random instead, as a weaker player's slips.
pub struct Greedy<E> {
    eval: E,
    rng: ChaCha8Rng,
    noise: u8,
}

impl<E: Evaluator> Greedy<E> {
    /// A greedy player with its own seed.
    pub fn new(eval: E, seed: u64) -> Greedy<E> {
        Greedy { eval, rng: ChaCha8Rng::seed_from_u64(seed), noise: 0 }
    }

    /// The same player, taking a random action `percent`% of the time.
    #[must_use]
    pub fn noisy(mut self, percent: u8) -> Greedy<E> {
        self.noise = percent.min(100);
        self
    }
}

impl<E: Evaluator + Send> Strategy for Greedy<E> {
    fn choose(&mut self, state: &GameState) -> Action {
        self.choose_in_game(state, &[])
    }

    fn choose_in_game(&mut self, state: &GameState, history: &[u64]) -> Action {
        if self.noise > 0 && self.rng.random_range(0..100) < u32::from(self.noise) {
            let actions = state.legal_actions();
            return actions
                .get(self.rng.random_range(0..actions.len().max(1)))
                .copied()
                .unwrap_or(Action::Pass);
        }
        let me = state.turn();
        let mut best = i32::MIN;
        let mut ties = 0u32;
        let mut choice = Action::Pass;
        for &action in state.legal_actions().iter() {
            let mut next = *state;
            next.play_unchecked(action);
            // A position met before in the game scores as a draw.
            let repeated = next.outcome().is_none() && history.contains(&next.hash());
            let score = if repeated { 0 } else { self.eval.evaluate(&next, me) };
            if score > best {
                (best, ties, choice) = (score, 1, action);
            } else if score == best {
                // Reservoir sampling keeps each tied action equally likely.
                ties += 1;
                if self.rng.random_range(0..ties) == 0 {
                    choice = action;
                }
            }
        }
        choice
    }
}

/// Alpha-beta as a strategy.
pub struct AlphaBetaStrategy<E> {
    search: AlphaBeta<E>,
}

impl<E: Evaluator + Send> Strategy for AlphaBetaStrategy<E> {
    fn choose(&mut self, state: &GameState) -> Action {
        self.choose_in_game(state, &[])
    }

    fn choose_in_game(&mut self, state: &GameState, history: &[u64]) -> Action {
        self.search.set_history(history);
        self.search.best(state).map_or(Action::Pass, |(a, _)| a)
    }
}

/// MCTS as a strategy.
pub struct MctsStrategy {
    search: Mcts,
}

impl Strategy for MctsStrategy {
    fn choose(&mut self, state: &GameState) -> Action {
        self.search.best(state).unwrap_or(Action::Pass)
    }
}

/// Which evaluation an alpha-beta agent scores positions with.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Eval {
    /// The hand-weighted race evaluation ([`RaceEvaluator`]; `:hand`).
    #[default]
    Hand,
    /// The evaluation fitted to game outcomes ([`Weights::fitted`];
    /// `:fitted`).
    Fitted,
    /// The fitted evaluation's features with other weights, one per name
    /// of [`FEATURE_NAMES`] (`:weights=41_-56_…`, as `pushcrate tune`
    /// prints them): weights fitted to other rules, or a fit to compare
    /// beside the shipped one, without building the crate again.
    Weights(Weights),
}

impl Eval {
    /// The feature weights this evaluation scores with (the hand
    /// evaluation's as [`Weights::HAND`]).
    #[must_use]
    pub fn weights(self) -> Weights {
        match self {
            Eval::Hand => Weights::HAND,
            Eval::Fitted => Weights::fitted(),
            Eval::Weights(weights) => weights,
        }
    }
}

/// A strategy by name, as the command line and the sandbox name them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Agent {
    /// Random legal actions.
    Random,
    /// Greedy one action ahead, with a percentage of random actions.
    Greedy {
        /// Percent of actions played at random.
        noise: u8,
        /// The evaluation (`:hand`, the default, or `:fitted`).
        eval: Eval,
    },
    /// Alpha-beta to a depth, with a node budget.
    AlphaBeta {
        /// Deepest iteration.
        depth: u32,
        /// Positions per decision.
        nodes: u64,
        /// Whether table entries searched deeper than asked cut too
        /// ([`AlphaBeta::reusing`]; `:reuse` in the agent's name).
        reuse: bool,
        /// Whether the last turn before the horizon searches one placement
        /// off the players' shortest ways, not all of them
        /// ([`AlphaBeta::pruning`]; `:prune` in the agent's name).
        prune: bool,
        /// Whether a node may be cut off by a null move, its turn given
        /// away ([`AlphaBeta::null_moves`]; `:null` in the agent's name).
        null: bool,
        /// Whether every node below the root searches only the placements
        /// on the players' ways and next to walls, and one other
        /// ([`AlphaBeta::narrowing`]; `:narrow` in the agent's name).
        narrow: bool,
        /// The evaluation (`:hand`, the default, or `:fitted`).
        eval: Eval,
    },
    /// UCT with a number of playouts per decision.
    Mcts {
        /// Playouts per decision.
        iterations: u32,
    },
}

impl Agent {
    /// The deepest alpha-beta search an agent may be given.
    pub const MAX_DEPTH: u32 = 64;
    /// The largest node budget per decision an agent may be given.
    pub const MAX_NODES: u64 = 1_000_000_000;
    /// The most MCTS playouts per decision an agent may be given.
    pub const MAX_ITERATIONS: u32 = 10_000_000;

    /// `expert`: alpha-beta, 4 turns deep, 40,000 positions a decision,
    /// the fitted evaluation.
    pub const EXPERT: Agent = Agent::AlphaBeta {
        depth: 4,
        nodes: 40_000,
        reuse: false,
        prune: false,
        null: false,
        narrow: false,
        eval: Eval::Fitted,
    };
    /// `master`: alpha-beta, up to 12 turns deep, 3,000,000 positions a
    /// decision, the fitted evaluation: the referee (docs/ai.md).
    pub const MASTER: Agent = Agent::AlphaBeta {
        depth: 12,
        nodes: 3_000_000,
        reuse: false,
        prune: false,
        null: false,
        narrow: false,
        eval: Eval::Fitted,
    };
    /// `deep`: alpha-beta, 6 turns deep, 150,000 positions a decision, the
    /// fitted evaluation — the balance check's second pairing; not a rung
    /// of the ladder.
    pub const DEEP: Agent = Agent::AlphaBeta {
        depth: 6,
        nodes: 150_000,
        reuse: false,
        prune: false,
        null: false,
        narrow: false,
        eval: Eval::Fitted,
    };

    /// The named strengths, weakest first. Every searching one scores
    /// positions with the fitted evaluation; [`Agent::with_eval`] gives
    /// the same agent with the hand evaluation, as earlier versions
    /// played it.
    pub const STRENGTHS: [(&'static str, Agent); 5] = [
        ("easy", Agent::Random),
        ("medium", Agent::Greedy { noise: 25, eval: Eval::Fitted }),
        (
            "hard",
            Agent::AlphaBeta {
                depth: 2,
                nodes: 4_000,
                reuse: false,
                prune: false,
                null: false,
                narrow: false,
                eval: Eval::Fitted,
            },
        ),
        ("expert", Agent::EXPERT),
        ("master", Agent::MASTER),
    ];

    /// The same agent scoring positions with `eval` (random and MCTS
    /// players have no evaluation and stay as they are).
    #[must_use]
    pub const fn with_eval(self, eval: Eval) -> Agent {
        match self {
            Agent::Greedy { noise, .. } => Agent::Greedy { noise, eval },
            Agent::AlphaBeta { depth, nodes, reuse, prune, null, narrow, .. } => {
                Agent::AlphaBeta { depth, nodes, reuse, prune, null, narrow, eval }
            }
            Agent::Random | Agent::Mcts { .. } => self,
        }
    }

    /// The named agents (the strengths, and `deep`) with their settings.
    pub fn named() -> impl Iterator<Item = (&'static str, Agent)> {
        Agent::STRENGTHS.into_iter().chain([("deep", Agent::DEEP)])
    }

    /// The name of this agent (a strength, or `deep`), if it has one.
    #[must_use]
    pub fn name(self) -> Option<&'static str> {
        Agent::named().find(|&(_, agent)| agent == self).map(|(name, _)| name)
    }

    /// The agent as a short line names it: its name (`deep`) where it has
    /// one, else its setting (`alphabeta:5:20000`).
    #[must_use]
    pub fn short_name(self) -> String {
        self.name().map_or_else(|| self.to_string(), str::to_owned)
    }

    /// The strength's name of this agent, if it has one.
    #[must_use]
    pub fn strength(self) -> Option<&'static str> {
        Agent::STRENGTHS.iter().find(|(_, agent)| *agent == self).map(|(name, _)| *name)
    }

    /// The agent as reports name it: `expert (alphabeta:4:40000)` for a
    /// named agent, else its setting alone.
    #[must_use]
    pub fn label(self) -> String {
        match Agent::named().find(|&(_, agent)| agent == self).map(|(name, _)| name) {
            Some(name) => format!("{name} ({self})"),
            None => self.to_string(),
        }
    }

    /// A fresh player of this kind, seeded.
    #[must_use]
    pub fn build(self, seed: u64) -> Box<dyn Strategy> {
        self.build_cancellable(seed, None)
    }

    /// A fresh player of this kind, seeded, whose searches give up soon
    /// after `cancel` is set (their action is then for the caller to
    /// discard).
    #[must_use]
    pub fn build_cancellable(self, seed: u64, cancel: Option<Arc<AtomicBool>>) -> Box<dyn Strategy> {
        match self {
            Agent::Random => Box::new(RandomStrategy::new(seed)),
            Agent::Greedy { noise, eval: Eval::Hand } => {
                Box::new(Greedy::new(RaceEvaluator, seed).noisy(noise))
            }
            Agent::Greedy { noise, eval } => {
                Box::new(Greedy::new(FeatureEvaluator::new(eval.weights()), seed).noisy(noise))
            }
            Agent::AlphaBeta { depth, nodes, reuse, prune, null, narrow, eval } => {
                let limits = Limits { depth, nodes, time: None };
                let options = SearchOptions { reuse, prune, null, narrow };
                match eval {
                    Eval::Hand => alpha_beta(RaceEvaluator, limits, seed, options, cancel),
                    Eval::Fitted | Eval::Weights(_) => {
                        alpha_beta(FeatureEvaluator::new(eval.weights()), limits, seed, options, cancel)
                    }
                }
            }
            Agent::Mcts { iterations } => {
                let mut search = Mcts::new(iterations, seed);
                if let Some(cancel) = cancel {
                    search = search.cancellable(cancel);
                }
                Box::new(MctsStrategy { search })
            }
        }
    }
}

/// An alpha-beta agent's search options.
#[derive(Clone, Copy)]
struct SearchOptions {
    reuse: bool,
    prune: bool,
    null: bool,
    narrow: bool,
}

/// An alpha-beta player with evaluation `eval`.
fn alpha_beta<E: Evaluator + Send + 'static>(
    eval: E,
    limits: Limits,
    seed: u64,
    options: SearchOptions,
    cancel: Option<Arc<AtomicBool>>,
) -> Box<dyn Strategy> {
    let mut search = AlphaBeta::new(eval, limits).seeded(seed);
    if options.reuse {
        search = search.reusing();
    }
    if options.prune {
        search = search.pruning();
    }
    if options.null {
        search = search.null_moves();
    }
    if options.narrow {
        search = search.narrowing();
    }
    if let Some(cancel) = cancel {
        search = search.cancellable(cancel);
    }
    Box::new(AlphaBetaStrategy { search })
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Agent::Random => f.write_str("random"),
            Agent::Greedy { noise: 0, eval: Eval::Hand } => f.write_str("greedy"),
            Agent::Greedy { noise, eval: Eval::Hand } => write!(f, "greedy:{noise}"),
            Agent::Greedy { noise, eval } => write!(f, "greedy:{noise}{}", EvalSuffix(*eval)),
            Agent::AlphaBeta { depth, nodes, reuse, prune, null, narrow, eval } => {
                write!(f, "alphabeta:{depth}:{nodes}")?;
                if *reuse {
                    f.write_str(":reuse")?;
                }
                if *prune {
                    f.write_str(":prune")?;
                }
                if *null {
                    f.write_str(":null")?;
                }
                if *narrow {
                    f.write_str(":narrow")?;
                }
                write!(f, "{}", EvalSuffix(*eval))
            }
            Agent::Mcts { iterations } => write!(f, "mcts:{iterations}"),
        }
    }
}

/// An evaluation as the end of an agent's name: nothing for the hand
/// one (the default), `:fitted`, or `:weights=` and the weights joined by
/// `_`.
struct EvalSuffix(Eval);

impl fmt::Display for EvalSuffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Eval::Hand => Ok(()),
            Eval::Fitted => f.write_str(":fitted"),
            Eval::Weights(weights) => write!(f, ":weights={weights}"),
        }
    }
}

/// The weights of `weights=41_-56_…`: one whole number per feature, or
/// one for each but the last (`natural`) or the last two (`block` and
/// `natural`), which are then 0: weights written before those were
/// features play as they did.
fn parse_weights(list: &str) -> Result<Weights, String> {
    let mut given = list
        .split('_')
        .map(|text| text.parse::<i32>().map_err(|_| format!("`{text}` is not a whole number")))
        .collect::<Result<Vec<_>, _>>()?;
    if (FEATURE_COUNT - 2..FEATURE_COUNT).contains(&given.len()) {
        given.resize(FEATURE_COUNT, 0);
    }
    <[i32; FEATURE_COUNT]>::try_from(given).map(Weights).map_err(|given| {
        format!(
            "{} weights given, {FEATURE_COUNT} wanted (or {} or {}, the features left out then 0), one per feature in this order: {}",
            given.len(),
            FEATURE_COUNT - 1,
            FEATURE_COUNT - 2,
            FEATURE_NAMES.join(", ")
        )
    })
}

/// Why a text is not an agent.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ParseAgentError {
    /// Not a named strength nor a known kind.
    #[error(
        "`{0}` is not an agent (easy, medium, hard, expert, deep, master, random, greedy[:NOISE[:EVAL]], alphabeta[:DEPTH[:NODES[:OPTION…]]] with options reuse, prune, null, narrow and EVAL, mcts[:ITERATIONS]; EVAL is hand, fitted or weights=W1_W2_…)"
    )]
    Unknown(String),
    /// A part after `:` is not a whole number.
    #[error("`{part}` in `{agent}` is not a number")]
    NotANumber {
        /// The part.
        part: String,
        /// The whole text.
        agent: String,
    },
    /// A number outside its range.
    #[error("{what} {value} in `{agent}` is out of range: {low} to {high}")]
    OutOfRange {
        /// What the number sets ("the depth").
        what: &'static str,
        /// The number given.
        value: u64,
        /// The least allowed.
        low: u64,
        /// The greatest allowed.
        high: u64,
        /// The whole text.
        agent: String,
    },
    /// A last part that is no option of the kind (alpha-beta's are
    /// `reuse`, `prune`, `null`, `narrow` and an evaluation, `hand`, `fitted` or `weights=…`;
    /// greedy's an evaluation), or one given twice.
    #[error(
        "`{part}` in `{agent}` is not an option, or is given twice (alpha-beta takes `reuse`, `prune`, `null`, `narrow`, and `hand`, `fitted` or `weights=W1_W2_…`, after the node budget; greedy takes `hand`, `fitted` or `weights=…` after the noise)"
    )]
    NotAnOption {
        /// The part.
        part: String,
        /// The whole text.
        agent: String,
    },
    /// `weights=` with a list that is not one whole number per feature.
    #[error("`{part}` in `{agent}`: {why}")]
    BadWeights {
        /// The part.
        part: String,
        /// The whole text.
        agent: String,
        /// What is wrong with the list.
        why: String,
    },
    /// More `:` parts than the kind takes.
    #[error("`{0}` has too many `:` parts")]
    TooManyParts(String),
}

/// The options after an agent's numbers: `hand`, `fitted` or
/// `weights=…` (the evaluation), and `reuse`, `prune`, `null` and `narrow` where
/// search options are allowed; each at most once.
fn agent_options<'a>(
    parts: impl Iterator<Item = &'a str>,
    agent: &str,
    search_allowed: bool,
) -> Result<(SearchOptions, Eval), ParseAgentError> {
    let (mut reuse, mut prune, mut null, mut narrow, mut eval) = (None, None, None, None, None);
    for part in parts {
        let taken = match part {
            "reuse" if search_allowed => reuse.replace(true).is_some(),
            "prune" if search_allowed => prune.replace(true).is_some(),
            "null" if search_allowed => null.replace(true).is_some(),
            "narrow" if search_allowed => narrow.replace(true).is_some(),
            "hand" => eval.replace(Eval::Hand).is_some(),
            "fitted" => eval.replace(Eval::Fitted).is_some(),
            _ => match part.strip_prefix("weights=") {
                Some(list) => {
                    let weights = parse_weights(list).map_err(|why| ParseAgentError::BadWeights {
                        part: part.to_owned(),
                        agent: agent.to_owned(),
                        why,
                    })?;
                    eval.replace(Eval::Weights(weights)).is_some()
                }
                None => true,
            },
        };
        if taken {
            return Err(ParseAgentError::NotAnOption { part: part.to_owned(), agent: agent.to_owned() });
        }
    }
    let options = SearchOptions {
        reuse: reuse.unwrap_or(false),
        prune: prune.unwrap_or(false),
        null: null.unwrap_or(false),
        narrow: narrow.unwrap_or(false),
    };
    Ok((options, eval.unwrap_or_default()))
}

impl FromStr for Agent {
    type Err = ParseAgentError;

    /// `easy`, `medium`, `hard`, `expert`, `deep`, `master`, `random`,
    /// `greedy[:NOISE%[:EVAL]]`, `alphabeta[:DEPTH[:NODES[:OPTION…]]]` (options
    /// `reuse`, `prune`, `null`, `narrow`, and `hand`, `fitted` or `weights=W1_W2_…`),
    /// `mcts[:ITERATIONS]`.
    fn from_str(s: &str) -> Result<Agent, ParseAgentError> {
        if let Some((_, agent)) = Agent::named().find(|&(name, _)| name == s) {
            return Ok(agent);
        }
        let mut parts = s.split(':');
        let kind = parts.next().unwrap_or_default();
        let mut number = |what: &'static str,
                          default: u64,
                          range: std::ops::RangeInclusive<u64>|
         -> Result<u64, ParseAgentError> {
            let value = match parts.next() {
                None => return Ok(default),
                Some(n) => n
                    .parse::<u64>()
                    .map_err(|_| ParseAgentError::NotANumber { part: n.to_owned(), agent: s.to_owned() })?,
            };
            if range.contains(&value) {
                Ok(value)
            } else {
                let (low, high) = (*range.start(), *range.end());
                Err(ParseAgentError::OutOfRange { what, value, low, high, agent: s.to_owned() })
            }
        };
        let agent = match kind {
            "random" => Agent::Random,
            "greedy" => {
                let noise = number("the noise", 0, 0..=100)? as u8;
                let (_, eval) = agent_options(parts.by_ref(), s, false)?;
                Agent::Greedy { noise, eval }
            }
            "alphabeta" => {
                let depth = number("the depth", 4, 1..=u64::from(Agent::MAX_DEPTH))? as u32;
                let nodes = number("the node budget", 40_000, 1..=Agent::MAX_NODES)?;
                let (SearchOptions { reuse, prune, null, narrow }, eval) =
                    agent_options(parts.by_ref(), s, true)?;
                Agent::AlphaBeta { depth, nodes, reuse, prune, null, narrow, eval }
            }
            "mcts" => Agent::Mcts {
                iterations: number("the playout count", 2_000, 1..=u64::from(Agent::MAX_ITERATIONS))? as u32,
            },
            _ => return Err(ParseAgentError::Unknown(s.to_owned())),
        };
        if parts.next().is_some() {
            return Err(ParseAgentError::TooManyParts(s.to_owned()));
        }
        Ok(agent)
    }
}
