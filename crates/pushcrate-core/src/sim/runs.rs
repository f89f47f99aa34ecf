//! Runs of games stopped by a sequential test (a balance pairing, a head
//! to head) and fixed runs with their report.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::game::{Config, GameResult, play_range, pool, run};
use super::sequential::{Design, Question, Sequential};
use super::stats::Report;
use crate::ai::Agent;
use crate::rules::{Action, GameState, Outcome, Player};

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
/// ([`FirstAhead`](super::Decision::FirstAhead)) when A's score settles
/// above it, *A does not beat B*
/// ([`NotFirstAhead`](super::Decision::NotFirstAhead), or
/// [`Balanced`](super::Decision::Balanced) and
/// [`SecondAhead`](super::Decision::SecondAhead), which say as much) when it
/// settles at or below it, with the error rates of `design` (a score of 55%
/// or less is called a win at most α of the time, one of 65% or more missed
/// at most β of the time). How the ladder of named strengths is measured
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

/// Greedy against greedy in colour-swapped pairs from `start`, on every
/// core: a fast, weak measurement, labelled with its agents wherever it is
/// shown (exports' derived figures, the generator's first filter). A
/// verdict to act on comes from [`check_balance`](super::check_balance).
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
