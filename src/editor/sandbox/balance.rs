//! The balance part of the sandbox: the check the panel has chosen, run in
//! the background, its live tests and its last report.

use std::sync::{Arc, Mutex};

use crate::ai::Agent;
use crate::editor::job::{Job, take_finished};
use crate::level::Playable;
use crate::sim::{self, BalanceCheck, Config, GameResult};

/// A balance check's result: the check and every pairing's games.
pub type BalanceResult = (BalanceCheck, Vec<Vec<GameResult>>);

/// The balance checks the panel offers, the default first: a name and the
/// plan played (each side the same agent).
pub const BALANCE_CHOICES: [(&str, sim::Plan<'static>); 6] = [
    ("expert and deep (strong, default)", sim::STRONG),
    ("expert only", sim::Plan::only(&[[Agent::EXPERT, Agent::EXPERT]])),
    ("hard only", sim::Plan::only(&[[Agent::STRENGTHS[2].1, Agent::STRENGTHS[2].1]])),
    ("greedy only (fast, weak)", sim::Plan::only(&[[GREEDY, GREEDY]])),
    ("expert and deep, master referees (minutes)", sim::REFEREED),
    ("expert and deep, hand evaluation (as in 0.1)", sim::strong(crate::ai::Eval::Hand, false)),
];

/// The plain greedy player of the quickest check.
const GREEDY: Agent = Agent::Greedy { noise: 0, eval: crate::ai::Eval::Hand };

/// The balance check of one level: the designer's choices for the next
/// run, the run under way and the last report.
pub struct BalanceRun {
    /// A run under way.
    job: Option<Job<BalanceResult>>,
    /// The last report, with its games.
    report: Option<BalanceResult>,
    /// Games of each pairing of the next run: its cap when the run is
    /// sequential, else the number played.
    games: u32,
    /// Whether the next run plays a fixed number of games instead of
    /// stopping when the sequential test has its verdict.
    fixed: bool,
    /// The next check: an index into [`BALANCE_CHOICES`].
    choice: usize,
    /// Each pairing's sequential test as the running check last reported
    /// it, for the panel's live view.
    live: Arc<Mutex<Vec<Option<sim::Sequential>>>>,
    /// Where the last check's games were decided, drawn over the board:
    /// which event, or none.
    decisions_shown: Option<sim::Event>,
}

impl Default for BalanceRun {
    fn default() -> BalanceRun {
        BalanceRun {
            job: None,
            report: None,
            games: sim::SEQUENTIAL_CAP,
            fixed: false,
            choice: 0,
            live: Arc::default(),
            decisions_shown: None,
        }
    }
}

impl BalanceRun {
    /// Takes the designer's choices of `old` (the check, its games, fixed
    /// or sequential), which are for the pack, not for one level.
    pub fn keep_choices_of(&mut self, old: &BalanceRun) {
        self.games = old.games;
        self.fixed = old.fixed;
        self.choice = old.choice;
    }

    /// Starts the chosen check of `playable` in the background: each
    /// pairing stops when its sequential test is settled, within
    /// [`BalanceRun::games`] games, or plays that many when
    /// [`BalanceRun::fixed`] is set.
    pub fn start(&mut self, playable: &Playable, seed: u64) {
        let plan = self.plan();
        let per_run = self.cap();
        let config = Config {
            seed,
            sequential: (!self.fixed).then_some(sim::Design::DEFAULT),
            ..Config::fixed(plan.pairings[0], per_run)
        };
        let live = Arc::clone(&self.live);
        if let Ok(mut tests) = live.lock() {
            *tests = vec![None; plan.pairings.len() + usize::from(plan.referee.is_some())];
        }
        let playable = playable.clone();
        let total = per_run * plan.pairings.len() as u32;
        self.job = Some(Job::spawn(total, move |progress| {
            let tick = |tick: sim::Tick| match tick {
                sim::Tick::Game => progress.step(),
                sim::Tick::MoreGames(n) => progress.expect_more(n),
                sim::Tick::FewerGames(n) => progress.expect_fewer(n),
                sim::Tick::Look { pairing, test } => {
                    if let Ok(mut tests) = live.lock()
                        && let Some(slot) = tests.get_mut(pairing)
                    {
                        *slot = Some(test);
                    }
                }
            };
            sim::check_balance(&playable, plan, &config, &tick, progress.cancel_flag())
        }));
    }

    /// Takes the report when the run has finished. A run cancelled after
    /// an earlier one finished leaves that earlier verdict in place: a
    /// finished verdict is never swapped for a cut-short one.
    pub fn poll(&mut self) -> bool {
        let mut finished = None;
        if !take_finished(&mut self.job, &mut finished) {
            return false;
        }
        match finished {
            Some((check, _)) if check.interrupted && self.report.is_some() => {}
            other => self.report = other,
        }
        true
    }

    /// Asks the run under way to stop; it reports what it has.
    pub fn cancel(&self) {
        crate::editor::job::cancel(self.job.as_ref());
    }

    /// The run under way, for its progress.
    #[must_use]
    pub fn job(&self) -> Option<&Job<BalanceResult>> {
        self.job.as_ref()
    }

    /// The last report, with its games.
    #[must_use]
    pub fn report(&self) -> Option<&BalanceResult> {
        self.report.as_ref()
    }

    /// Each pairing's sequential test as the running check last reported
    /// it.
    #[must_use]
    pub fn live(&self) -> Vec<Option<sim::Sequential>> {
        self.live.lock().map(|tests| tests.clone()).unwrap_or_default()
    }

    /// Games of each pairing of the next run (its cap when sequential).
    #[must_use]
    pub fn games(&self) -> u32 {
        self.games
    }

    /// Sets the games of each pairing, kept within 2 to 20,000.
    pub fn set_games(&mut self, games: u32) {
        self.games = games.clamp(2, 20_000);
    }

    /// The games of each pairing rounded up to whole pairs, as played.
    #[must_use]
    pub fn cap(&self) -> u32 {
        self.games.div_ceil(2) * 2
    }

    /// Whether the next run plays a fixed number of games.
    #[must_use]
    pub fn fixed(&self) -> bool {
        self.fixed
    }

    /// The next run plays a fixed number of games, or stops at the
    /// sequential test's verdict.
    pub fn set_fixed(&mut self, on: bool) {
        self.fixed = on;
    }

    /// The next check: an index into [`BALANCE_CHOICES`].
    #[must_use]
    pub fn choice(&self) -> usize {
        self.choice
    }

    /// Chooses the next check, an index into [`BALANCE_CHOICES`].
    pub fn set_choice(&mut self, i: usize) {
        self.choice = i.min(BALANCE_CHOICES.len() - 1);
    }

    /// The plan of the next check.
    #[must_use]
    pub fn plan(&self) -> sim::Plan<'static> {
        BALANCE_CHOICES[self.choice.min(BALANCE_CHOICES.len() - 1)].1
    }

    /// The event whose cells are drawn over the board, if any.
    #[must_use]
    pub fn decisions_shown(&self) -> Option<sim::Event> {
        self.decisions_shown
    }

    /// Draws where the last check's games had `event` over the board, or
    /// nothing.
    pub fn show_decisions(&mut self, event: Option<sim::Event>) {
        self.decisions_shown = event;
    }
}
