//! Self-play: games between two agents in colour-swapped pairs, their
//! statistics, and the records of stalled games.
//!
//! Game `2k` gives agent A player 1 and game `2k + 1` gives it player 2,
//! both seeded from the pair's seed, so a pair differs only in colours. Each
//! game's seed depends on the run's seed and the game's index alone, and
//! results are gathered in index order: a run gives the same report whatever
//! the number of threads.

mod balance;
mod decisions;
mod sequential;
mod skill;
mod stats;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

pub use balance::{
    BalanceCheck, BalanceVerdict, HAND_PAIRINGS, HAND_REFEREE, Plan, REFEREE, REFEREED, STALL_FINDINGS,
    STRONG, STRONG_PAIRINGS, Tick, check_balance, meets_decided, settle, strong,
};
pub use decisions::{Decisions, Event};
pub use sequential::{BAND, Decision, Design, Edge, Pentanomial, Question, Sequential};
pub use skill::{TRACE, TRACE_GAMES, TracePoint, skill_trace};
pub use stats::{ForcedWin, Leaning, Lengths, Rate, Report, RunVerdict};

use crate::ai::Agent;
use crate::level::record::GameRecord;
use crate::rules::{Action, GameState, Outcome, Player};

/// How deep the solver looks to settle a level before sampling is believed.
pub const SETTLE_DEPTH: u32 = 40;
/// Positions the solver may visit to settle a level.
pub const SETTLE_BUDGET: u64 = 20_000;

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
}

impl GameResult {
    /// The agent (0 = A, 1 = B) that played `player`.
    #[must_use]
    pub fn agent_of(&self, player: Player) -> usize {
        match player {
            Player::One => self.agent_for_one,
            Player::Two => 1 - self.agent_for_one,
        }
    }

    /// Whether the game hit the action cap without repeating a position
    /// three times: a stall the agents could not loop their way into.
    #[must_use]
    pub fn stalled(&self) -> bool {
        self.outcome.is_none() && !self.repeated
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
            players[state.turn().index()].choose_in_game(&state, &seen)
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
fn pool(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
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
fn play_range(
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

/// The first player's half points in a finished game: 2 for a win, 1 for
/// a draw, a stall or a repetition, 0 for a loss.
fn half_points(result: &GameResult, first: Player) -> u8 {
    match result.outcome {
        Some(Outcome::Win { winner, .. }) if winner == first => 2,
        Some(Outcome::Win { .. }) => 0,
        Some(Outcome::Draw) | None => 1,
    }
}

/// Plays a run of `config`'s agents from `start` in colour-swapped pairs,
/// in batches, until the sequential test of `design` has the answer to
/// `question` or `config.games` games are played. The test weighs the
/// first player's points over each pair. Pairs are judged in index order
/// and the games past the settling pair are discarded, so the run is the
/// same whatever the number of threads. `on_game` is told of every
/// finished game, `on_look` of the test after every batch; setting `stop`
/// ends the run with the whole pairs finished so far.
#[must_use]
pub fn run_sequential(
    start: &GameState,
    config: &Config,
    design: Design,
    question: Question,
    on_game: &(dyn Fn() + Sync),
    on_look: &dyn Fn(&Sequential),
    stop: &Arc<AtomicBool>,
) -> (Vec<GameResult>, Sequential) {
    let test = Sequential::new(design, pairs_cap(config)).asking(question);
    run_pairs(start, config, test, Vec::new(), &first_players_points(start), on_game, on_look, stop)
}

/// The half points the balance check's test weighs for a pair: the first
/// player's, over both games.
fn first_players_points(start: &GameState) -> impl Fn(&GameResult, &GameResult) -> u8 {
    let first = start.turn();
    move |a, b| half_points(a, first) + half_points(b, first)
}

/// Goes on with a run of [`run_sequential`] whose test asked one edge
/// alone and answered it ([`Question::FirstAhead`] or `SecondAhead`), now
/// asking the whole verdict: `played` are its games so far, and the games
/// from there on are the ones the run would have played next (a game
/// depends on its index alone), so the run is the one a test asking the
/// verdict from the start would have played, whatever the number of
/// threads.
#[must_use]
pub fn resume_sequential(
    start: &GameState,
    config: &Config,
    test: Sequential,
    played: Vec<GameResult>,
    on_game: &(dyn Fn() + Sync),
    on_look: &dyn Fn(&Sequential),
    stop: &Arc<AtomicBool>,
) -> (Vec<GameResult>, Sequential) {
    run_pairs(start, config, test.asking_all(), played, &first_players_points(start), on_game, on_look, stop)
}

/// Agent A against agent B head to head, stopped by a sequential test on
/// agent A's points over each colour-swapped pair (it plays player 1 in the
/// pair's first game, player 2 in its second) at the 60% edge: *A beats B*
/// ([`Decision::FirstAhead`]) when A's score settles above it, *A does not
/// beat B* ([`Decision::NotFirstAhead`], or [`Decision::Balanced`] and
/// [`Decision::SecondAhead`], which say as much) when it settles at or
/// below it, with the error rates of `design` (a score of 55% or less is
/// called a win at most α of the time, one of 65% or more missed at most β
/// of the time). How the ladder of named strengths is measured
/// (docs/ai.md).
#[must_use]
pub fn head_to_head(
    start: &GameState,
    config: &Config,
    design: Design,
    on_game: &(dyn Fn() + Sync),
    on_look: &dyn Fn(&Sequential),
    stop: &Arc<AtomicBool>,
) -> (Vec<GameResult>, Sequential) {
    let points = |a: &GameResult, b: &GameResult| half_points(a, Player::One) + half_points(b, Player::Two);
    let test = Sequential::new(design, pairs_cap(config)).asking(Question::FirstAhead);
    run_pairs(start, config, test, Vec::new(), &points, on_game, on_look, stop)
}

/// A run's cap in whole pairs' games.
pub(super) fn pairs_cap(config: &Config) -> u32 {
    config.games.div_ceil(2) * 2
}

/// The loop of [`run_sequential`], [`resume_sequential`] and
/// [`head_to_head`]: `points` gives the half points the test weighs for a
/// pair's two games; `kept` are the pairs `test` has already seen.
#[allow(clippy::too_many_arguments)]
fn run_pairs(
    start: &GameState,
    config: &Config,
    mut test: Sequential,
    mut kept: Vec<GameResult>,
    points: &dyn Fn(&GameResult, &GameResult) -> u8,
    on_game: &(dyn Fn() + Sync),
    on_look: &dyn Fn(&Sequential),
    stop: &Arc<AtomicBool>,
) -> (Vec<GameResult>, Sequential) {
    let cap = test.cap;
    let mut seen: std::collections::HashSet<Vec<Action>> = kept.iter().map(|r| r.actions.clone()).collect();
    let pool = pool(config.threads);
    let threads = pool.as_deref().map_or(1, rayon::ThreadPool::current_num_threads) as u32;
    // A pair per thread, at least two: a larger batch would play more
    // games past the settling pair, a smaller one leave a core idle.
    let batch = threads.max(2);
    let mut next = kept.len() as u32;
    while !test.is_settled() && next < cap && !stop.load(Ordering::Relaxed) {
        let end = (next + 2 * batch).min(cap);
        let play = || play_range(start, config, next..end, on_game, stop);
        let results = match &pool {
            Some(pool) => pool.install(play),
            None => play(),
        };
        let mut results = results.into_iter();
        while let (Some(Some(a)), Some(Some(b))) = (results.next(), results.next()) {
            let copy = seen.contains(&a.actions) && seen.contains(&b.actions);
            test.observe(points(&a, &b), copy);
            seen.insert(a.actions.clone());
            seen.insert(b.actions.clone());
            kept.push(a);
            kept.push(b);
            if test.is_settled() {
                break;
            }
        }
        on_look(&test);
        next = end;
    }
    (kept, test)
}

/// The game record of a result on `level` under `rules`, its layout named.
#[must_use]
pub fn record(level: &crate::level::Level, rules: crate::rules::Rules, result: &GameResult) -> GameRecord {
    GameRecord { actions: result.actions.clone(), ..GameRecord::on(level, rules) }
}

/// Greedy against greedy in colour-swapped pairs from `start`, on every
/// core: a fast, weak measurement, labelled with its agents wherever it is
/// shown (exports' derived figures, the generator's first filter). A
/// verdict to act on comes from [`check_balance`].
#[must_use]
pub fn greedy_balance(
    start: &GameState,
    level: &str,
    games: u32,
    seed: u64,
    cancel: &Arc<AtomicBool>,
) -> (Report, Vec<GameResult>) {
    let greedy = Agent::Greedy { noise: 0, eval: crate::ai::Eval::Hand };
    let config = Config { seed, ..Config::fixed([greedy, greedy], games) };
    balance_run(start, level, &config, &|| {}, cancel)
}

/// A balance run of `config`'s agents from `start`, with a progress
/// callback: the games and their report, the verdicts of this pairing
/// alone.
#[must_use]
pub fn balance_run(
    start: &GameState,
    level: &str,
    config: &Config,
    progress: &(dyn Fn() + Sync),
    cancel: &Arc<AtomicBool>,
) -> (Report, Vec<GameResult>) {
    let results = run(start, config, progress, cancel);
    let names = config.agents.map(|a| a.to_string());
    let report = Report::new(level, names, start.turn(), &results, cancel.load(Ordering::Relaxed));
    (report, results)
}
