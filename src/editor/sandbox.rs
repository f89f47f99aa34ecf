//! The sandbox: a game on the current level — a start position, the action
//! log, and who plays each side. The level itself is never changed by play.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::job::{Job, Poll};

use crate::ai::Agent;
use crate::level::Level;
use crate::level::record::{GameRecord, RecordError};
use crate::rules::{
    Action, ActionKind, ByPlayer, DrawOfferError, GameState, IllegalAction, Outcome, Player, Rules,
    SetupError, WinKind,
};
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

/// Moves the result of `job` into `into` once it has finished, and clears
/// the job (also when its thread was lost). Returns whether a result came.
fn take_finished<T: Send + 'static>(job: &mut Option<Job<T>>, into: &mut Option<T>) -> bool {
    let Some(running) = job else { return false };
    match running.poll() {
        Poll::Ready(result) => {
            *job = None;
            *into = Some(result);
            true
        }
        Poll::Lost => {
            *job = None;
            false
        }
        Poll::Running => false,
    }
}

/// Who plays a side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Seat {
    /// A person at this screen.
    Human,
    /// The computer, at one of the named strengths.
    Computer(usize),
}

impl Seat {
    /// The seat's name.
    #[must_use]
    pub fn label(self) -> String {
        match self {
            Seat::Human => "Person".into(),
            Seat::Computer(i) => {
                format!("Computer ({})", Agent::STRENGTHS[i.min(Agent::STRENGTHS.len() - 1)].0)
            }
        }
    }
}

/// An action just played, for a brief animation.
#[derive(Clone, Copy, Debug)]
pub struct Motion {
    /// The position before it.
    pub before: GameState,
    /// The action.
    pub action: Action,
    /// What it did.
    pub kind: ActionKind,
    /// When it was played.
    pub at: Instant,
}

/// How long an action's animation lasts.
pub const MOTION: Duration = Duration::from_millis(180);

/// The computer thinking about a move, off the UI thread.
pub struct Thinking {
    /// The position it thinks about (its log length).
    pub at: usize,
    /// The side it thinks for.
    side: Player,
    /// The history's version when it started.
    rewinds: u64,
    job: Job<(Kept, Action)>,
}

/// A computer player kept from move to move of one game, as self-play
/// keeps it: its search keeps what it learnt (its transposition table),
/// so that a strength plays here as it plays in the balance check.
pub struct Kept {
    /// The agent it plays as.
    agent: Agent,
    player: Box<dyn crate::ai::Strategy>,
    /// The flag its searches watch: each of its jobs' cancel flag.
    cancel: Arc<std::sync::atomic::AtomicBool>,
}

/// A game under way on a level.
pub struct Sandbox {
    /// The level played, as it was when the game began.
    pub level: Level,
    /// The rules.
    pub rules: Rules,
    /// Every action, in order.
    pub actions: Vec<Action>,
    /// Every position: `positions[i]` is after `i` actions.
    positions: Vec<GameState>,
    /// How many actions of the log are played (undo moves it back).
    pub cursor: usize,
    /// Who plays each side.
    pub seats: ByPlayer<Seat>,
    /// Whether clicks place crates instead of moving.
    pub placing: bool,
    /// Whether computer-only games advance by themselves.
    pub running: bool,
    /// Actions per second when the computer plays the computer.
    pub speed: f32,
    /// Whether actions are animated.
    pub animate: bool,
    /// The last action, while it is animated.
    pub motion: Option<Motion>,
    /// A draw offer by this player waits for the opponent's answer.
    pub draw_offer: Option<Player>,
    /// The computer's move being thought about.
    pub thinking: Option<Thinking>,
    /// Each side's computer player, kept while the game goes forward.
    kept: ByPlayer<Option<Kept>>,
    /// Counts the times the game's history was rewound or rewritten.
    rewinds: u64,
    /// A balance run under way.
    pub balance: Option<Job<BalanceResult>>,
    /// The last balance report, with its games.
    pub balance_report: Option<BalanceResult>,
    /// Games of each pairing of the next balance run: its cap when the run
    /// is sequential, else the number played.
    pub balance_games: u32,
    /// The most edits a suggested fix may make, 1 to 3 (a mirrored pair
    /// counts as one), as `repair --max-edits`.
    pub fix_edits: u32,
    /// Whether the next balance run plays a fixed number of games instead
    /// of stopping when the sequential test has its verdict.
    pub balance_fixed: bool,
    /// Each pairing's sequential test as the running check last reported
    /// it, for the panel's live view.
    pub balance_live: Arc<Mutex<Vec<Option<sim::Sequential>>>>,
    /// The next balance check: an index into [`BALANCE_CHOICES`].
    pub balance_choice: usize,
    /// When the computer last moved (for the speed control).
    pub last_move: Option<Instant>,
    /// A search for fixes under way.
    pub fixes: Option<Job<crate::repair::Repair>>,
    /// What the search for fixes is doing, in words, as it last said.
    pub fixes_stage: Arc<Mutex<String>>,
    /// The last search's proposals.
    pub fixes_found: Option<crate::repair::Repair>,
    /// The proposal shown on the board instead of the game, if any.
    pub preview: Option<usize>,
    /// Where the last check's games were decided, drawn over the board:
    /// which event, or none.
    pub decisions_shown: Option<sim::Event>,
    /// The skill trace being played in the background.
    pub skill: Option<Job<Vec<sim::TracePoint>>>,
    /// The strength the trace is playing.
    pub skill_stage: Arc<Mutex<&'static str>>,
    /// The last trace, once finished (or cancelled).
    pub skill_report: Option<Vec<sim::TracePoint>>,
}

/// Why a game cannot start or go on.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SandboxError {
    /// The level lacks a start square.
    #[error("a player has no start square")]
    NoStartSquare,
    /// The level breaks a rule of its setup.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A game record was played on another layout of the level.
    #[error(transparent)]
    Layout(#[from] RecordError),
    /// A game record's action is illegal on this level.
    #[error("action {number} `{action}` is illegal: {why}")]
    Record {
        /// The action's number, from 1.
        number: usize,
        /// The action.
        action: Action,
        /// Why.
        #[source]
        why: IllegalAction,
    },
}

impl Sandbox {
    /// A new game on `level`, or why it cannot be played.
    pub fn new(level: &Level, rules: Rules) -> Result<Sandbox, SandboxError> {
        let start = level
            .start_state(rules)
            .map_err(|e| if e.0.is_empty() { SandboxError::NoStartSquare } else { SandboxError::Setup(e) })?;
        Ok(Sandbox {
            level: level.clone(),
            rules,
            actions: Vec::new(),
            positions: vec![start],
            cursor: 0,
            seats: ByPlayer::new(Seat::Human, Seat::Computer(1)),
            placing: false,
            running: true,
            speed: 2.0,
            animate: true,
            motion: None,
            draw_offer: None,
            thinking: None,
            kept: ByPlayer::new(None, None),
            rewinds: 0,
            balance: None,
            balance_report: None,
            balance_games: sim::SEQUENTIAL_CAP,
            fix_edits: 1,
            balance_fixed: false,
            balance_live: Arc::default(),
            balance_choice: 0,
            last_move: None,
            fixes: None,
            fixes_stage: Arc::default(),
            fixes_found: None,
            preview: None,
            decisions_shown: None,
            skill: None,
            skill_stage: Arc::new(Mutex::new("")),
            skill_report: None,
        })
    }

    /// The position on the board.
    #[must_use]
    pub fn state(&self) -> &GameState {
        &self.positions[self.cursor]
    }

    /// The whole game as a record, every action of the log, whichever
    /// position is being viewed.
    #[must_use]
    pub fn record(&self) -> GameRecord {
        GameRecord { actions: self.actions.clone(), ..GameRecord::on(&self.level, self.rules) }
    }

    /// Whether the board shows a past position: actions of the log come
    /// after it. The computer waits until the game is resumed; an action
    /// played here starts a new line and drops the later ones.
    #[must_use]
    pub fn viewing_past(&self) -> bool {
        self.cursor < self.actions.len()
    }

    /// Back to the last position of the log, and computer-only games run
    /// again.
    pub fn resume(&mut self) {
        self.jump(self.actions.len());
        self.running = true;
    }

    /// Plays `action` for the side to move; the log after the cursor is
    /// dropped. Returns what the action did, or why it is illegal.
    pub fn play(&mut self, action: Action) -> Result<ActionKind, IllegalAction> {
        let mut next = *self.state();
        let before = next;
        let kind = next.play(action)?;
        if self.cursor < self.actions.len() {
            // The log after the cursor is rewritten.
            self.rewound();
        }
        self.actions.truncate(self.cursor);
        self.positions.truncate(self.cursor + 1);
        self.actions.push(action);
        self.positions.push(next);
        self.cursor += 1;
        self.thinking = None;
        self.draw_offer = None;
        self.motion = self.animate.then(|| Motion { before, action, kind, at: Instant::now() });
        Ok(kind)
    }

    /// The game's history was rewound or rewritten: the computer's players
    /// start afresh, as a new game's would.
    fn rewound(&mut self) {
        self.rewinds += 1;
        self.kept = ByPlayer::new(None, None);
    }

    /// Whether the computer keeps a player for `side` from its last move,
    /// with what its search learnt.
    #[must_use]
    pub fn keeps_player(&self, side: Player) -> bool {
        self.kept[side].is_some()
    }

    /// Whether the side to move is a person.
    #[must_use]
    pub fn human_to_move(&self) -> bool {
        self.seats[self.state().turn()] == Seat::Human
    }

    /// Takes back the last action; against the computer, back to the last
    /// position where a person was to move.
    pub fn undo(&mut self) {
        self.thinking = None;
        self.rewound();
        self.motion = None;
        if self.cursor == 0 {
            return;
        }
        self.cursor -= 1;
        let someone_human = self.seats.one == Seat::Human || self.seats.two == Seat::Human;
        while someone_human && self.cursor > 0 && !self.human_to_move() {
            self.cursor -= 1;
        }
        self.running = false;
    }

    /// Plays the next action of the log again.
    pub fn redo(&mut self) {
        if self.cursor < self.actions.len() {
            self.cursor += 1;
            self.thinking = None;
            self.motion = None;
        }
    }

    /// Goes to the position after `n` actions of the log.
    pub fn jump(&mut self, n: usize) {
        self.rewound();
        self.cursor = n.min(self.actions.len());
        self.thinking = None;
        self.motion = None;
        self.running = false;
    }

    /// Back to the start, keeping the log for redo.
    pub fn restart(&mut self) {
        self.jump(0);
    }

    /// Loads a record's actions on this level and goes to its last action.
    pub fn load(&mut self, record: &GameRecord) -> Result<(), SandboxError> {
        record.check_layout(&self.level, self.rules)?;
        let mut state = self.positions[0];
        let mut positions = vec![state];
        for (i, &action) in record.actions.iter().enumerate() {
            state.play(action).map_err(|why| SandboxError::Record { number: i + 1, action, why })?;
            positions.push(state);
        }
        self.actions = record.actions.clone();
        self.rewound();
        self.positions = positions;
        self.cursor = self.actions.len();
        self.running = false;
        self.thinking = None;
        self.motion = None;
        Ok(())
    }

    /// The side to move offers a draw.
    pub fn offer_draw(&mut self) -> Result<(), DrawOfferError> {
        self.state().can_offer_draw()?;
        self.draw_offer = Some(self.state().turn());
        Ok(())
    }

    /// The opponent answers the draw offer.
    pub fn answer_draw(&mut self, accept: bool) {
        if self.draw_offer.take().is_some() {
            // The offer was checked when it was made, and the position has
            // not changed since; a refusal would leave the game as it is.
            self.positions[self.cursor].offer_draw(accept).ok();
        }
    }

    /// How long until the computer's next move in a game it plays against
    /// itself, running at the chosen speed; `None` when no move of the
    /// computer waits on the clock.
    #[must_use]
    pub fn next_computer_move_in(&self) -> Option<std::time::Duration> {
        let computer_only = self.seats.one != Seat::Human && self.seats.two != Seat::Human;
        if !computer_only || !self.running || self.state().is_over() || self.cursor < self.actions.len() {
            return None;
        }
        let gap = std::time::Duration::from_secs_f32(1.0 / self.speed.max(0.1));
        Some(self.last_move.map_or(std::time::Duration::ZERO, |t| gap.saturating_sub(t.elapsed())))
    }

    /// Whether the computer should move now (its turn, not thinking, and
    /// for computer-only games, running at the chosen speed).
    #[must_use]
    pub fn computer_due(&self) -> bool {
        let state = self.state();
        if state.is_over() || self.human_to_move() || self.thinking.is_some() || self.draw_offer.is_some() {
            return false;
        }
        if self.cursor < self.actions.len() {
            // Reviewing the log: the computer waits.
            return false;
        }
        let computer_only = self.seats.one != Seat::Human && self.seats.two != Seat::Human;
        if !computer_only {
            return true;
        }
        self.running && self.last_move.is_none_or(|t| t.elapsed().as_secs_f32() >= 1.0 / self.speed.max(0.1))
    }

    /// Starts the computer thinking about the side to move's action. A
    /// search that is no longer wanted (after undo, a jump, a new seat) is
    /// cancelled when its job is dropped.
    pub fn think(&mut self) {
        let side = self.state().turn();
        let Seat::Computer(strength) = self.seats[side] else { return };
        let agent = Agent::STRENGTHS[strength.min(Agent::STRENGTHS.len() - 1)].1;
        let state = *self.state();
        // The player that has followed this game (a rewound game has none),
        // or a new one.
        let rewinds = self.rewinds;
        let kept = self.kept[side].take().filter(|k| k.agent == agent);
        let seed = self.cursor as u64 ^ 0x5EED;
        // The game so far, so that the computer treats a repeated position
        // as a draw rather than walking in circles.
        let history: Vec<u64> = self.positions[..self.cursor].iter().map(GameState::hash).collect();
        let cancel = kept.as_ref().map_or_else(Arc::default, |k| Arc::clone(&k.cancel));
        let job = Job::spawn_with_cancel(0, cancel, move |progress| {
            let mut kept = kept.unwrap_or_else(|| {
                let cancel = Arc::clone(progress.cancel_flag());
                Kept { agent, player: agent.build_cancellable(seed, Some(Arc::clone(&cancel))), cancel }
            });
            let action = kept.player.choose_in_game(&state, &history);
            (kept, action)
        });
        self.thinking = Some(Thinking { at: self.cursor, side, rewinds, job });
    }

    /// Plays the computer's action if it is ready. Returns whether it moved.
    pub fn poll_thinking(&mut self) -> bool {
        let Some(thinking) = &self.thinking else { return false };
        match thinking.job.poll() {
            Poll::Ready((kept, action)) if thinking.at == self.cursor => {
                let (side, rewinds) = (thinking.side, thinking.rewinds);
                self.thinking = None;
                self.last_move = Some(Instant::now());
                let played = self.play(action).is_ok();
                if played && self.rewinds == rewinds {
                    self.kept[side] = Some(kept);
                }
                played
            }
            Poll::Ready(_) | Poll::Lost => {
                self.thinking = None;
                false
            }
            Poll::Running => false,
        }
    }

    /// Plays one computer action now, whoever is to move (the "step" button
    /// of computer-only games).
    pub fn step_computer(&mut self) {
        self.running = false;
        if self.thinking.is_none() && !self.state().is_over() {
            self.think();
        }
    }

    /// Starts the chosen balance check of this level in the background:
    /// each pairing stops when its sequential test is settled, within
    /// `balance_games` games, or plays `balance_games` games when
    /// `balance_fixed` is set.
    pub fn start_balance(&mut self, seed: u64) {
        let start = self.positions[0];
        let plan = BALANCE_CHOICES[self.balance_choice.min(BALANCE_CHOICES.len() - 1)].1;
        let per_run = self.balance_games.div_ceil(2) * 2;
        let config = Config {
            seed,
            sequential: (!self.balance_fixed).then_some(sim::Design::DEFAULT),
            ..Config::fixed(plan.pairings[0], per_run)
        };
        let live = Arc::clone(&self.balance_live);
        if let Ok(mut tests) = live.lock() {
            *tests = vec![None; plan.pairings.len() + usize::from(plan.referee.is_some())];
        }
        let level = self.level.clone();
        let rules = self.rules;
        let total = per_run * plan.pairings.len() as u32;
        self.balance = Some(Job::spawn(total, move |progress| {
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
            let (mut check, games) =
                sim::check_balance(&start, &level.id, plan, &config, &tick, progress.cancel_flag());
            check.explain(&crate::analysis::analyze_level(&level, rules, &Default::default()));
            (check, games)
        }));
    }

    /// Starts a search for the smallest edits that make this level
    /// balanced ([`crate::repair`]: up to `fix_edits` edits, a mirrored
    /// pair counting as one), in the
    /// background, confirmed by the balance check the panel has chosen
    /// (the default: expert and deep) with its number of games as the cap.
    pub fn start_fixes(&mut self, seed: u64) {
        let level = self.level.clone();
        let rules = self.rules;
        let stage = Arc::clone(&self.fixes_stage);
        let plan = BALANCE_CHOICES[self.balance_choice.min(BALANCE_CHOICES.len() - 1)].1;
        let cap = self.balance_games.div_ceil(2) * 2;
        let max_edits = self.fix_edits.clamp(1, crate::repair::MAX_EDITS);
        self.preview = None;
        self.fixes = Some(Job::spawn(0, move |progress| {
            let options =
                crate::repair::Options { max_edits, seed, plan, cap, ..crate::repair::Options::default() };
            let tell = |p: crate::repair::Progress| match p {
                crate::repair::Progress::Stage(text) => {
                    if let Ok(mut s) = stage.lock() {
                        *s = text;
                    }
                }
                crate::repair::Progress::Game => progress.step(),
            };
            crate::repair::repair(&level, rules, &options, &tell, progress.cancel_flag())
        }));
    }

    /// Takes the proposals when the search has finished (or was cancelled).
    pub fn poll_fixes(&mut self) -> bool {
        take_finished(&mut self.fixes, &mut self.fixes_found)
    }

    /// Takes the balance report when the run has finished. A run cancelled
    /// after an earlier one finished leaves that earlier verdict in place:
    /// a finished verdict is never swapped for a cut-short one.
    pub fn poll_balance(&mut self) -> bool {
        let mut finished = None;
        if !take_finished(&mut self.balance, &mut finished) {
            return false;
        }
        match finished {
            Some((check, _)) if check.interrupted && self.balance_report.is_some() => {}
            other => self.balance_report = other,
        }
        true
    }

    /// Starts the skill trace ([`sim::skill_trace`]: each strength on both
    /// sides, weakest first, [`sim::TRACE_GAMES`] games each) in the
    /// background.
    pub fn start_skill_trace(&mut self, seed: u64) {
        let start = self.positions[0];
        let level = self.level.id.clone();
        let stage = Arc::clone(&self.skill_stage);
        let config = Config { seed, ..Config::fixed([sim::TRACE[0].1; 2], sim::TRACE_GAMES) };
        let total = sim::TRACE_GAMES * sim::TRACE.len() as u32;
        self.skill = Some(Job::spawn(total, move |progress| {
            let tick = |name: Option<&'static str>| match name {
                Some(name) => {
                    if let Ok(mut stage) = stage.lock() {
                        *stage = name;
                    }
                }
                None => progress.step(),
            };
            sim::skill_trace(&start, &level, &config, &tick, progress.cancel_flag())
        }));
    }

    /// Takes the skill trace when it has finished (or was cancelled).
    pub fn poll_skill_trace(&mut self) -> bool {
        take_finished(&mut self.skill, &mut self.skill_report)
    }
}

/// How the game ended, as a sentence.
#[must_use]
pub fn announce(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { winner, by: WinKind::Flag } => {
            format!("Player {} wins: the flag is home!", winner.number())
        }
        Outcome::Win { winner, by: WinKind::Crates } => {
            format!("Player {} wins by destroying crates!", winner.number())
        }
        Outcome::Draw => "Drawn by agreement.".into(),
    }
}
