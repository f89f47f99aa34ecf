//! One game and a run of them: the agents, the seeds, the opening, the
//! action cap, and the worker pools that play games in parallel.
//!
//! Game `2k` gives agent A player 1 and game `2k + 1` gives it player 2,
//! both seeded from the pair's seed, so a pair differs only in colours.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::sequential::Design;
use crate::ai::Agent;
use crate::level::record::GameRecord;
use crate::rules::{Action, GameState, Outcome, Player};

/// What a self-play run plays.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Agent A and agent B.
    pub agents: [Agent; 2],
    /// Games in all; an odd number is rounded up to whole pairs.
    pub games: u32,
    /// The run's seed.
    pub seed: u64,
    /// Actions after which a game counts as stalled.
    pub max_actions: u32,
    /// Worker threads; 0 uses every core.
    pub threads: usize,
    /// Actions at the start of each game played at random (steps, pushes
    /// and jumps where there are any), the same in both games of a pair:
    /// strong, nearly deterministic agents then play different games, and
    /// each opening is played once from each side.
    pub opening: u32,
    /// Stop a balance check's pairing as soon as the sequential test has
    /// its verdict, `games` being its cap; `None` plays `games` games.
    pub sequential: Option<Design>,
}

impl Config {
    /// `agents` playing `games` games from seed 1, capped at
    /// [`MAX_ACTIONS`] actions, on every core, with no opening and no
    /// sequential stop.
    #[must_use]
    pub const fn fixed(agents: [Agent; 2], games: u32) -> Config {
        Config { agents, games, seed: 1, max_actions: MAX_ACTIONS, threads: 0, opening: 0, sequential: None }
    }
}

/// The action cap of a game in self-play and the balance check: past it,
/// a game counts as stalled.
pub const MAX_ACTIONS: u32 = 300;

/// The games a pairing of the default, sequential balance check plays at
/// most.
pub const SEQUENTIAL_CAP: u32 = 400;

/// One finished game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameResult {
    /// The game's index in the run.
    pub index: u32,
    /// Which agent (0 = A, 1 = B) played player 1.
    pub agent_for_one: usize,
    /// How it ended; `None` when it reached the action cap or repeated.
    pub outcome: Option<Outcome>,
    /// Whether it ended because a position occurred for the third time:
    /// the agents' loop, a draw by repetition, not a stall of the level.
    pub repeated: bool,
    /// Actions played.
    pub length: u32,
    /// Every action, for the game record.
    pub actions: Vec<Action>,
    /// How long each agent took to choose its actions.
    pub thinking: Thinking,
}

/// How long each agent of a game took to choose its actions, by agent
/// (0 = A, 1 = B): the wall time of its decisions on the thread that
/// played the game (on an otherwise idle core, its CPU time), and how many
/// decisions it made (the random opening's actions are no one's).
///
/// Time is not part of what a game is: two results compare equal whatever
/// their agents took, so that a run played again is the same run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Thinking {
    /// Each agent's time over its decisions.
    pub time: [Duration; 2],
    /// Each agent's decisions.
    pub decisions: [u32; 2],
}

impl Thinking {
    /// The time of `games`' decisions, summed by agent.
    #[must_use]
    pub fn total<'a>(games: impl IntoIterator<Item = &'a GameResult>) -> Thinking {
        games.into_iter().fold(Thinking::default(), |mut sum, game| {
            for agent in 0..2 {
                sum.time[agent] += game.thinking.time[agent];
                sum.decisions[agent] += game.thinking.decisions[agent];
            }
            sum
        })
    }

    /// Agent `agent`'s mean time a decision; `None` without a decision.
    #[must_use]
    pub fn per_decision(&self, agent: usize) -> Option<Duration> {
        let n = self.decisions[agent];
        (n > 0).then(|| self.time[agent] / n)
    }

    /// A's mean time a decision as a share of B's; `None` where either
    /// made no decision or B's took no measurable time.
    #[must_use]
    pub fn share_of_b(&self) -> Option<f64> {
        let (a, b) = (self.per_decision(0)?, self.per_decision(1)?);
        (!b.is_zero()).then(|| a.as_secs_f64() / b.as_secs_f64())
    }
}

impl PartialEq for Thinking {
    fn eq(&self, _: &Thinking) -> bool {
        true
    }
}

impl Eq for Thinking {}

impl GameResult {
    /// The agent (0 = A, 1 = B) that played `player`.
    #[must_use]
    pub fn agent_of(&self, player: Player) -> usize {
        agent_playing(self.agent_for_one, player)
    }

    /// Whether the game hit the action cap without repeating a position
    /// three times: a stall the agents could not loop their way into.
    #[must_use]
    pub fn stalled(&self) -> bool {
        self.outcome.is_none() && !self.repeated
    }
}

/// The agent (0 = A, 1 = B) that plays `player` in a game where
/// `agent_for_one` plays player 1.
const fn agent_playing(agent_for_one: usize, player: Player) -> usize {
    match player {
        Player::One => agent_for_one,
        Player::Two => 1 - agent_for_one,
    }
}

/// The seed of game `index`'s agents: the same for both games of a pair.
fn game_seed(seed: u64, index: u32, agent: usize) -> u64 {
    let pair = u64::from(index / 2);
    let mut z =
        seed ^ pair.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (agent as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A random action of an opening: a step, push or jump where there is one,
/// else any legal action.
fn random_opening_action(state: &GameState, rng: &mut rand_chacha::ChaCha8Rng) -> Action {
    use rand::Rng as _;
    let legal = state.legal_actions();
    let moves: Vec<Action> = legal.iter().copied().filter(|a| matches!(a, Action::Move(_))).collect();
    let pool: Vec<Action> = if moves.is_empty() { legal.iter().copied().collect() } else { moves };
    pool.get(rng.random_range(0..pool.len().max(1))).copied().unwrap_or(Action::Pass)
}

/// Plays game `index` of a run from `start`; `None` when stopped.
#[must_use]
pub fn play_game(
    start: &GameState,
    config: &Config,
    index: u32,
    stop: &Arc<AtomicBool>,
) -> Option<GameResult> {
    // A stopped run dispatches the rest of its games here: each must end at
    // once, before its agents (and their tables) are built.
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let agent_for_one = (index % 2) as usize;
    let build = |agent: usize| {
        config.agents[agent].build_cancellable(game_seed(config.seed, index, agent), Some(Arc::clone(stop)))
    };
    let mut players = [build(agent_for_one), build(1 - agent_for_one)];
    let mut state = *start;
    let mut actions = Vec::new();
    // Every position's hash, for the strategies' repetition handling and
    // to end a game whose position occurs a third time.
    let mut seen: Vec<u64> = Vec::new();
    let mut repeated = false;
    let mut thinking = Thinking::default();
    // The pair's opening: one seed for both games of the pair.
    let mut opening_rng =
        <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(game_seed(config.seed, index, 2));
    while !state.is_over() && state.actions_played() < config.max_actions {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if seen.iter().filter(|&&h| h == state.hash()).count() >= 2 {
            repeated = true;
            break;
        }
        let action = if state.actions_played() < config.opening {
            random_opening_action(&state, &mut opening_rng)
        } else {
            let agent = agent_playing(agent_for_one, state.turn());
            let clock = Instant::now();
            let action = players[state.turn().index()].choose_in_game(&state, &seen);
            thinking.time[agent] += clock.elapsed();
            thinking.decisions[agent] += 1;
            action
        };
        seen.push(state.hash());
        if stop.load(Ordering::Relaxed) {
            // The search may have been cut short: its action is not played.
            return None;
        }
        if state.play(action).is_err() {
            // A strategy that breaks the rules forfeits nothing here: it is
            // a bug, and the game is recorded as it stood.
            break;
        }
        actions.push(action);
    }
    Some(GameResult {
        index,
        agent_for_one,
        outcome: state.outcome(),
        repeated,
        length: state.actions_played(),
        actions,
        thinking,
    })
}

/// Plays a run. `progress` is told of every finished game; setting `stop`
/// ends the run early with the games finished so far.
#[must_use]
pub fn run(
    start: &GameState,
    config: &Config,
    progress: &(dyn Fn() + Sync),
    stop: &Arc<AtomicBool>,
) -> Vec<GameResult> {
    let games = config.games.div_ceil(2) * 2;
    let play = || -> Vec<GameResult> {
        play_range(start, config, 0..games, progress, stop).into_iter().flatten().collect()
    };
    match pool(config.threads) {
        Some(pool) => pool.install(play),
        None => play(),
    }
}

/// What each worker thread of the game pools runs as it starts, set once
/// per process by [`on_worker_start`].
static WORKER_START: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Has every worker thread that plays games run `hook` as it starts: the
/// editor lowers their scheduling priority there, so that games never
/// starve its interface of a core. Set it before the first run: the pools
/// are made once per process. `false` when a hook was already set (it
/// stays).
pub fn on_worker_start(hook: fn()) -> bool {
    WORKER_START.set(hook).is_ok()
}

/// The worker pool of `threads` threads (0: one per core), made once per
/// process and kept: runs follow one another by the hundred in a
/// generation or a repair, and each would otherwise start its threads
/// anew. `None` when no pool can be made; the run then plays on the
/// calling thread.
pub(crate) fn pool(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    static POOLS: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<usize, Arc<rayon::ThreadPool>>>,
    > = std::sync::OnceLock::new();
    let mut pools = POOLS.get_or_init(Default::default).lock().ok()?;
    if let Some(pool) = pools.get(&threads) {
        return Some(Arc::clone(pool));
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("pushcrate-games-{i}"))
            .start_handler(|_| {
                if let Some(hook) = WORKER_START.get() {
                    hook();
                }
            })
            .build()
            .ok()?,
    );
    pools.insert(threads, Arc::clone(&pool));
    Some(pool)
}

/// Plays games `indices` of a run in parallel on the current pool, in
/// index order; `None` for a game stopped before its end.
pub(super) fn play_range(
    start: &GameState,
    config: &Config,
    indices: std::ops::Range<u32>,
    progress: &(dyn Fn() + Sync),
    stop: &Arc<AtomicBool>,
) -> Vec<Option<GameResult>> {
    indices
        .into_par_iter()
        .map(|index| {
            let result = play_game(start, config, index, stop);
            if result.is_some() {
                progress();
            }
            result
        })
        .collect()
}

/// The game record of a result on `level` under `rules`, its layout named.
#[must_use]
pub fn record(level: &crate::level::Level, rules: crate::rules::Rules, result: &GameResult) -> GameRecord {
    GameRecord { actions: result.actions.clone(), ..GameRecord::on(level, rules) }
}
