//! The game part of the sandbox: a start position, the action log, who
//! plays each side and the computer thinking. The level itself is never
//! changed by play.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::ai::Agent;
use crate::editor::job::{Job, Poll};
use crate::level::record::{GameRecord, RecordError};
use crate::level::{Level, Playable};
use crate::rules::{
    Action, ActionKind, ByPlayer, DrawOfferError, GameState, IllegalAction, Outcome, Player, WinKind,
};

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
    at: usize,
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

/// A game under way on a level: its log, the position shown, who plays
/// each side, and the computer thinking.
pub struct Game {
    /// The level played, as it was when the game began.
    playable: Playable,
    /// Every action, in order.
    actions: Vec<Action>,
    /// Every position: `positions[i]` is after `i` actions.
    positions: Vec<GameState>,
    /// How many actions of the log are played (undo moves it back).
    cursor: usize,
    /// Who plays each side.
    seats: ByPlayer<Seat>,
    /// Whether clicks place crates instead of moving.
    placing: bool,
    /// Whether computer-only games advance by themselves.
    running: bool,
    /// Actions per second when the computer plays the computer.
    speed: f32,
    /// Whether actions are animated.
    animate: bool,
    /// The last action, while it is animated.
    motion: Option<Motion>,
    /// A draw offer by this player waits for the opponent's answer.
    draw_offer: Option<Player>,
    /// The computer's move being thought about.
    thinking: Option<Thinking>,
    /// Each side's computer player, kept while the game goes forward.
    kept: ByPlayer<Option<Kept>>,
    /// Counts the times the game's history was rewound or rewritten.
    rewinds: u64,
    /// When the computer last moved (for the speed control).
    last_move: Option<Instant>,
}

/// Why a game cannot start or go on.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SandboxError {
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

impl Game {
    /// A new game on `playable`, a person playing the first side and the
    /// computer the second.
    #[must_use]
    pub fn new(playable: Playable) -> Game {
        let start = *playable.start();
        Game {
            playable,
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
            last_move: None,
        }
    }

    /// Takes the designer's choices of `old` (who plays each side, the
    /// speed, the animation), which are for the pack, not for one level.
    pub fn keep_choices_of(&mut self, old: &Game) {
        self.seats = old.seats;
        self.speed = old.speed;
        self.animate = old.animate;
    }

    /// The level played, with its rules and start.
    #[must_use]
    pub fn playable(&self) -> &Playable {
        &self.playable
    }

    /// The level played, as it was when the game began.
    #[must_use]
    pub fn level(&self) -> &Level {
        self.playable.level()
    }

    /// Every action of the log, in order.
    #[must_use]
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// How many actions of the log are played: the position shown.
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Who plays each side.
    #[must_use]
    pub fn seats(&self) -> ByPlayer<Seat> {
        self.seats
    }

    /// Seats `seat` at `player`'s side; a search under way for that side
    /// is dropped.
    pub fn set_seat(&mut self, player: Player, seat: Seat) {
        self.seats[player] = seat;
        self.thinking = None;
    }

    /// Whether clicks place crates instead of moving.
    #[must_use]
    pub fn placing(&self) -> bool {
        self.placing
    }

    /// Clicks place crates, or move.
    pub fn toggle_placing(&mut self) {
        self.placing = !self.placing;
    }

    /// Whether computer-only games advance by themselves.
    #[must_use]
    pub fn running(&self) -> bool {
        self.running
    }

    /// A computer-only game advances by itself, or waits.
    pub fn toggle_running(&mut self) {
        self.running = !self.running;
    }

    /// Actions per second when the computer plays the computer.
    #[must_use]
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// Sets the speed, kept within 0.5 to 20 actions a second.
    pub fn set_speed(&mut self, speed: f32) {
        self.speed = speed.clamp(0.5, 20.0);
    }

    /// Whether actions are animated.
    #[must_use]
    pub fn animate(&self) -> bool {
        self.animate
    }

    /// Animates actions, or not.
    pub fn set_animate(&mut self, on: bool) {
        self.animate = on;
    }

    /// The last action, while it is animated.
    #[must_use]
    pub fn motion(&self) -> Option<Motion> {
        self.motion
    }

    /// The player whose draw offer waits for an answer.
    #[must_use]
    pub fn draw_offer(&self) -> Option<Player> {
        self.draw_offer
    }

    /// Whether the computer is thinking about a move.
    #[must_use]
    pub fn thinking(&self) -> bool {
        self.thinking.is_some()
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
        GameRecord {
            actions: self.actions.clone(),
            ..GameRecord::on(self.playable.level(), self.playable.rules())
        }
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
        record.check_layout(self.playable.level(), self.playable.rules())?;
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
