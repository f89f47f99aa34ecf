//! Play mode's controller: switching to and from play, games and their
//! records, a person's actions, and each frame's turn of the computer and
//! the background checks. The play panel (`ui::play`) only draws and sends
//! commands.

use super::{EditorApp, Modal};
use crate::editor::command::Command;
use crate::editor::sandbox::{MOTION, Sandbox, Seat, announce};
use crate::rules::{Action, Dir};

impl EditorApp {
    /// Runs a command of play mode ([`EditorApp::apply`] has checked it).
    pub(super) fn apply_play(&mut self, command: Command) {
        match command {
            Command::Undo if self.playing => self.with_game(crate::editor::sandbox::Game::undo),
            Command::Redo if self.playing => self.with_game(crate::editor::sandbox::Game::redo),
            Command::TogglePlay => self.toggle_play(),
            Command::NewGame => self.new_game(),
            Command::Play(action) => self.play_action(action),
            Command::Arrow(dir) => self.arrow(dir),
            Command::TogglePlacing => self.with_game(crate::editor::sandbox::Game::toggle_placing),
            // `disabled` refuses an offer that cannot be made, with the
            // reason, before it gets here.
            Command::OfferDraw => self.with_game(|s| {
                s.offer_draw().ok();
            }),
            Command::AnswerDraw(accept) => self.with_game(|s| s.answer_draw(accept)),
            Command::SetSeat(player, seat) => self.with_game(|g| g.set_seat(player, seat)),
            Command::ToggleRunning => self.with_game(crate::editor::sandbox::Game::toggle_running),
            Command::StepComputer => self.with_game(crate::editor::sandbox::Game::step_computer),
            Command::RestartGame => self.with_game(crate::editor::sandbox::Game::restart),
            Command::ResumeGame => self.with_game(crate::editor::sandbox::Game::resume),
            Command::JumpTo(n) => self.with_game(|s| s.jump(n)),
            Command::SaveGame => self.save_record(),
            Command::OpenGame => self.open_record(),
            // `apply` sends each area only its own commands.
            _ => {}
        }
    }

    /// Switches the current level between editing and playing. Playing
    /// never changes the level; coming back to play resumes the game.
    pub(super) fn toggle_play(&mut self) {
        // A stroke in progress ends with the mode.
        self.doc.end_stroke();
        if self.playing {
            self.playing = false;
            self.say("Editing.");
            return;
        }
        let Some(level) = self.doc.level().cloned() else { return };
        let same_game = self.sandbox.as_ref().is_some_and(|s| s.game().level().id == level.id);
        if !same_game && !self.start_game(&level) {
            return;
        }
        self.playing = true;
        self.say("Playing. F5 returns to editing.");
    }

    /// Starts a new game on the current layout.
    pub(super) fn new_game(&mut self) {
        if let Some(level) = self.doc.level().cloned() {
            self.start_game(&level);
        }
    }

    /// A new sandbox on `level`, with the designer's choices of the last
    /// one (who plays, how the panel checks balance: choices for the pack,
    /// not for one level). Returns whether the level can be played; if
    /// not, the status bar says why.
    fn start_game(&mut self, level: &crate::level::Level) -> bool {
        match level.playable(self.doc.pack().rules) {
            Ok(playable) => {
                let sandbox = Sandbox::new(playable);
                self.sandbox = Some(match &self.sandbox {
                    Some(old) => sandbox.keeping_choices_of(old),
                    None => sandbox,
                });
                true
            }
            Err(why) => {
                self.say(format!("This level cannot be played: {why}."));
                false
            }
        }
    }

    /// Saves the game as a record through the dialog.
    pub(super) fn save_record(&mut self) {
        if self.sandbox.is_some()
            && let Some(path) = self.pick_save(super::FileTask::SaveRecord)
        {
            self.save_record_to(&path);
        }
    }

    /// Writes the game record to `path`.
    pub(super) fn save_record_to(&mut self, path: &std::path::Path) {
        let Some(sandbox) = &self.sandbox else { return };
        let record = sandbox.game().record();
        let text = format!("{record}\n");
        match crate::editor::storage::write_atomic(path, &text) {
            Ok(()) => {
                self.say(format!(
                    "Saved the whole game ({} actions) to {}.",
                    record.actions.len(),
                    path.display()
                ));
            }
            Err(e) => self.modal = Some(Modal::Error(crate::diagnostics::error_text(&e))),
        }
    }

    /// Opens a game record (such as a stalled game from a self-play run)
    /// at its last action, each seat kept as it was set.
    pub(super) fn open_record(&mut self) {
        if let Some(path) = self.pick_open(super::FileTask::OpenRecord) {
            self.open_record_from(&path);
        }
    }

    /// Opens the game record at `path`.
    pub(super) fn open_record_from(&mut self, path: &std::path::Path) {
        let result = crate::files::read_text(path, crate::level::MAX_FILE_BYTES)
            .map_err(|e| e.to_string())
            .and_then(|text| text.parse::<crate::level::record::GameRecord>().map_err(|e| e.to_string()));
        let record = match result {
            Ok(record) => record,
            Err(why) => {
                self.modal = Some(Modal::Error(why));
                return;
            }
        };
        let Some(index) = self.doc.pack().level_index(&record.level) else {
            self.modal = Some(Modal::Error(format!("This pack has no level `{}`.", record.level)));
            return;
        };
        let seats = self.sandbox.as_ref().map(|s| s.game().seats());
        self.doc.select(index);
        self.sandbox = None;
        self.playing = false;
        self.toggle_play();
        let Some(sandbox) = &mut self.sandbox else { return };
        let game = sandbox.game_mut();
        if let Some(seats) = seats {
            for player in crate::rules::Player::BOTH {
                game.set_seat(player, seats[player]);
            }
        }
        match game.load(&record) {
            Err(why) => self.modal = Some(Modal::Error(why.to_string())),
            Ok(()) => {
                self.say(format!("Opened the game at its last action ({} actions).", record.actions.len()))
            }
        }
    }

    /// Plays `action` for the person to move ([`EditorApp::apply`] has
    /// checked that it is legal).
    pub(super) fn play_action(&mut self, action: Action) {
        let Some(sandbox) = &mut self.sandbox else { return };
        let game = sandbox.game_mut();
        match game.play(action) {
            Ok(_) => {
                if let Some(outcome) = game.state().outcome() {
                    self.say(announce(outcome));
                }
            }
            Err(why) => self.say(why.to_string()),
        }
    }

    /// An arrow key: step or push that way, or jump the opponent there.
    pub(super) fn arrow(&mut self, dir: Dir) {
        let Some(sandbox) = &self.sandbox else { return };
        let state = sandbox.game().state();
        let here = state.position(state.turn());
        let legal = state.legal_actions();
        let straight = here.offset(dir).map(|next| (next, next.offset(dir)));
        let action = straight
            .into_iter()
            .flat_map(|(next, beyond)| [Some(next), beyond])
            .flatten()
            .map(Action::Move)
            .find(|a| legal.contains(*a));
        match action {
            Some(action) => self.play_action(action),
            None => {
                let why = match here.offset(dir) {
                    Some(next) => state.check(Action::Move(next)).err().map(|e| format!("{e}.")),
                    None => Some(format!("{here} is on the edge of the board.")),
                };
                self.say(why.unwrap_or_else(|| "No step, push or jump that way.".into()));
            }
        }
    }

    /// Advances the computer and the background runs; asks for repaints
    /// while anything moves.
    pub(super) fn play_tick(&mut self, ctx: &egui::Context) {
        let Some(sandbox) = &mut self.sandbox else { return };
        let mut message = None;
        let game = sandbox.game_mut();
        if game.poll_thinking()
            && let Some(outcome) = game.state().outcome()
        {
            message = Some(announce(outcome));
        }
        if game.computer_due() {
            game.think();
        }
        // A draw offered to the computer: it accepts when it is behind.
        if let Some(by) = game.draw_offer()
            && let Seat::Computer(_) = game.seats()[by.other()]
        {
            let accept = crate::ai::accepts_draw(game.state(), by.other());
            game.answer_draw(accept);
            let answer =
                if accept { "The computer accepts the draw." } else { "The computer declines the draw." };
            message = Some(answer.to_owned());
        }
        sandbox.poll_jobs();
        let game = sandbox.game();
        let animating = game.motion().is_some_and(|m| m.at.elapsed() < MOTION);
        // Frames only while something changes: a search or a check to poll,
        // a move being drawn, or the computer's next move in a game it
        // plays against itself, at the chosen speed. A person's turn waits
        // for input, with no frame at all.
        // A move being drawn or answered wants smooth frames; a check or a
        // search for fixes only its progress, twice a second (input still
        // draws at once), so that drawing it leaves the cores to the
        // games: a software renderer draws the whole window on the CPU,
        // about 0.1 CPU-seconds a frame under lavapipe (docs/performance.md).
        let wake = if game.thinking() || animating || game.computer_due() {
            Some(std::time::Duration::from_millis(30))
        } else if sandbox.busy() {
            Some(super::PROGRESS_REDRAW)
        } else {
            game.next_computer_move_in()
        };
        if let Some(wake) = wake {
            ctx.request_repaint_after(wake);
        }
        if let Some(message) = message {
            self.say(message);
        }
    }
}
