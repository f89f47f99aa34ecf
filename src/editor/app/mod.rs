//! [`EditorApp`]: the editor's state and the one place that changes it.
//!
//! Its fields are private. The views read it through `&EditorApp` and send
//! [`Command`]s; [`EditorApp::apply`] is the one door through which the
//! document, the game, the dialogs and the preferences change. Dialog
//! choices, finished background jobs and the computer's moves are
//! commands or frame steps of this module too (`play` runs play mode).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

mod checks;
mod clipboard;
mod edit;
mod files;
mod levels;
mod play;
mod view;

use super::analyses::Analyses;
use super::command::{Command, FormField, Overlay, Setting, Tool};
use super::dialog::{Answer, FileTask, GenerateForm, Modal, Then};
use super::document::Document;
use super::storage::{AppPaths, FileDialogs, Prefs, Recovery};
use crate::level::edit::Region;
use crate::level::format::{parse_pack, write_pack};
use crate::level::{Level, Pack, Problem};
use crate::rules::Stage;

/// The longest time unsaved work goes without a copy in the recovery file.
pub const AUTOSAVE_EVERY: Duration = Duration::from_secs(10);

/// The editor's state. Nothing outside this module writes it: views get
/// `&EditorApp` and send commands.
pub struct EditorApp {
    /// Saved preferences.
    prefs: Prefs,
    /// The pack being edited.
    doc: Document,
    /// The board tool.
    tool: Tool,
    /// How the board is zoomed and panned (the view's, not the document's).
    zoom: crate::editor::board::BoardZoom,
    /// The crate tool's stage.
    stage: Stage,
    /// The highlighted finding of the current level.
    selected_finding: Option<usize>,
    /// The open dialog, if any.
    modal: Option<Modal>,
    /// The last message for the status bar; cleared when the document or
    /// the game changes after it was said, so it is never stale.
    status: String,
    /// What the message was about: the document's and the game's state
    /// when it was said (`None` until the end of the frame it was said in).
    status_key: Option<u64>,
    /// Whether the editor asked to close (tests read this; the window
    /// closes by itself).
    quit_requested: bool,
    dialogs: Box<dyn FileDialogs>,
    paths: AppPaths,
    /// The analyses the views read, brought up to date before they run.
    analyses: Analyses,
    /// Whether the undo history window is open.
    show_history: bool,
    pending: Vec<Command>,
    /// When the recovery file was last written, on the UI's clock (seconds).
    last_autosave: f64,
    /// The revision the recovery file holds.
    autosaved: Option<u64>,
    /// The window title, as last sent to the window.
    title: String,
    /// The game of play mode, kept while editing.
    sandbox: Option<super::sandbox::Sandbox>,
    /// Whether the board is in play mode.
    playing: bool,
    /// A level being generated in the background.
    generating: Option<super::job::Job<Result<Option<Level>, crate::generate::GenerateError>>>,
    generate_form: GenerateForm,
    /// The selected rectangle of the board, two opposite corners.
    selection: Option<(crate::rules::Cell, crate::rules::Cell)>,
    /// The region last copied, for Paste in any level of any pack.
    clipboard: Option<Region>,
    /// Whether the copied region follows the pointer, to be placed.
    pasting: bool,
}

/// How the undo history names the step a command makes: a tool's edit by
/// what it did and where, anything else by the command's name.
fn history_label(command: &Command) -> String {
    use crate::level::edit::EditOp;
    let Command::Paint(op) = command else { return command.label() };
    match *op {
        EditOp::Wall(cell, true) => format!("Wall on {cell}"),
        EditOp::Wall(cell, false) => format!("Floor on {cell}"),
        EditOp::Rectangle(a, b, true) => format!("Walls over {a}–{b}"),
        EditOp::Rectangle(a, b, false) => format!("Floor over {a}–{b}"),
        EditOp::Fill(cell, true) => format!("Fill with walls from {cell}"),
        EditOp::Fill(cell, false) => format!("Fill with floor from {cell}"),
        EditOp::Start(player, cell) => format!("Start of {player} on {cell}"),
        EditOp::ToggleGoal(player, cell) => format!("Goal cell {cell} of {player}"),
        EditOp::GoalRank(player, rank) => format!("Goals of {player} on rank {}", rank + 1),
        EditOp::DefaultGoals(player) => format!("Default goals of {player}"),
        EditOp::Flag(cell) => format!("Flag on {cell}"),
        EditOp::Crate(cell, Some(_)) => format!("Crate on {cell}"),
        EditOp::Crate(cell, None) => format!("Crate off {cell}"),
        EditOp::Erase(cell) => format!("Erase {cell}"),
        EditOp::Resize(w, h) => format!("Resize to {w} × {h}"),
        EditOp::Clear => "Clear the level".to_owned(),
        EditOp::MoveStart(player, from, to) => format!("Start of {player} from {from} to {to}"),
        EditOp::MoveGoal(player, from, to) => format!("Goal cell of {player} from {from} to {to}"),
        EditOp::MoveFlag(from, to) => format!("Flag from {from} to {to}"),
    }
}

/// What a generation stopped by the user reports.
const GENERATING_STOPPED: &str = "Generating stopped: no level was added.";

/// How often a window with long work under way and nothing touched draws
/// its progress: a balance check, a search for fixes, a skill trace or a
/// level being generated. A software renderer draws the whole window on
/// the CPU, about 0.1 CPU-seconds a frame under lavapipe
/// (docs/performance.md), on the cores the work needs.
pub(crate) const PROGRESS_REDRAW: Duration = Duration::from_millis(500);

impl EditorApp {
    /// An editor on the bundled pack (an unsaved copy), with the given
    /// dialogs and folder for its own files. Offers to recover unsaved work
    /// left by a crash.
    pub fn new(dialogs: Box<dyn FileDialogs>, paths: AppPaths) -> EditorApp {
        let prefs = paths.load_prefs();
        let mut app = EditorApp {
            prefs,
            doc: Document::new(
                crate::editor::Bundled::Default.pack(),
                None,
                Some(crate::editor::Bundled::Default.text().to_owned()),
            ),
            tool: Tool::Wall,
            zoom: crate::editor::board::BoardZoom::default(),
            stage: Stage::Intact,
            selected_finding: None,
            modal: None,
            status: "Bundled pack opened as an unsaved copy; saving asks where.".to_owned(),
            status_key: None,
            quit_requested: false,
            dialogs,
            paths,
            analyses: Analyses::default(),
            show_history: false,
            pending: Vec::new(),
            last_autosave: f64::NEG_INFINITY,
            autosaved: None,
            title: String::new(),
            sandbox: None,
            playing: false,
            generating: None,
            generate_form: GenerateForm::default(),
            selection: None,
            clipboard: None,
            pasting: false,
        };
        if let Some(recovery) = app.paths.read_recovery() {
            app.modal = Some(Modal::Recover(recovery));
        }
        app
    }

    /// Opens `path` as the editor starts.
    pub fn open_at_start(&mut self, path: &Path) {
        self.open_path(path);
    }

    /// As the editor starts without a pack named: reopens the last pack
    /// worked on, the first of the recent files. The bundled pack stays
    /// open on a first run, and when the last file is gone, which the
    /// status bar says.
    pub fn reopen_last_at_start(&mut self) {
        let Some(last) = self.prefs.recent.first().cloned() else { return };
        if last.is_file() || crate::files::bundled_text(&last).is_some() {
            self.open_path(&last);
        } else {
            self.status = format!(
                "The last pack, {}, is no longer there: the bundled pack is open as an unsaved copy.",
                last.display()
            );
        }
    }

    /// Queues a command; it runs at the end of the frame, after the views'.
    pub fn command(&mut self, command: Command) {
        self.pending.push(command);
    }

    /// What runs before the views draw a frame: play mode's computer and
    /// background runs, the window's close button, a finished generation.
    pub fn begin_frame(&mut self, ctx: &egui::Context) {
        if self.playing {
            self.play_tick(ctx);
        }
        self.close_request(ctx);
        self.poll_generating(ctx);
        self.refresh_analyses(ctx);
    }

    /// Brings the analyses the views read up to date with the document
    /// (cheap when nothing changed); while the solver works in the
    /// background, the window wakes to show its answer.
    fn refresh_analyses(&mut self, ctx: &egui::Context) {
        let current = self.doc.level().map(|_| self.doc.current());
        if self.analyses.refresh(self.doc.pack(), self.doc.revision(), current) {
            ctx.request_repaint_after(PROGRESS_REDRAW);
        }
    }

    /// What runs after the views drew a frame: the commands queued and
    /// those the views sent, in order, then the window title, the recovery
    /// file and the status message's expiry.
    pub fn end_frame(&mut self, ctx: &egui::Context, sent: Vec<Command>) {
        let mut queued = std::mem::take(&mut self.pending);
        queued.extend(sent);
        // The frame just drawn shows the state before these commands: one
        // more frame shows what they did, at once, not at the next input.
        if !queued.is_empty() {
            ctx.request_repaint();
        }
        for command in queued {
            self.apply(command, ctx);
            // A later command of the frame reads the analyses of what this
            // one made.
            self.refresh_analyses(ctx);
        }
        self.update_title(ctx);
        self.autosave(ctx);
        self.expire_status();
    }

    fn close_request(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested()) {
            if self.doc.is_dirty() && !self.quit_requested {
                ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
                self.modal = Some(Modal::Unsaved(Then::Quit));
            } else {
                self.save_prefs();
            }
        }
    }

    fn update_title(&mut self, ctx: &egui::Context) {
        let title = format!(
            "{}{} — {} — Push Crate Studio",
            if self.doc.is_dirty() { "● " } else { "" },
            self.doc.title(),
            self.doc.pack().name
        );
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    /// The window's title, as last sent.
    #[must_use]
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The analyses the views read, as of this frame ([`Analyses`]).
    #[must_use]
    pub const fn analyses(&self) -> &Analyses {
        &self.analyses
    }

    /// Whether the undo history window is open.
    #[must_use]
    pub const fn showing_history(&self) -> bool {
        self.show_history
    }

    /// The validation problems of the pack, as of this frame.
    #[must_use]
    pub fn pack_problems(&self) -> Arc<Vec<Problem>> {
        self.analyses.problems()
    }

    /// The pack being edited.
    #[must_use]
    pub const fn doc(&self) -> &Document {
        &self.doc
    }

    /// The saved preferences (recent files, mirror mode, overlays, seats).
    #[must_use]
    pub const fn prefs(&self) -> &Prefs {
        &self.prefs
    }

    /// The board tool.
    #[must_use]
    pub const fn tool(&self) -> Tool {
        self.tool
    }

    /// The crate tool's stage.
    #[must_use]
    pub const fn stage(&self) -> Stage {
        self.stage
    }

    /// How the board is zoomed and panned.
    #[must_use]
    pub const fn zoom(&self) -> crate::editor::board::BoardZoom {
        self.zoom
    }

    /// The highlighted finding of the current level.
    #[must_use]
    pub const fn selected_finding(&self) -> Option<usize> {
        self.selected_finding
    }

    /// The open dialog, if any.
    #[must_use]
    pub const fn modal(&self) -> Option<&Modal> {
        self.modal.as_ref()
    }

    /// The status bar's message.
    #[must_use]
    pub fn status(&self) -> &str {
        &self.status
    }

    /// Whether the editor asked to close.
    #[must_use]
    pub const fn quit_requested(&self) -> bool {
        self.quit_requested
    }

    /// The game of play mode, kept while editing.
    #[must_use]
    pub const fn sandbox(&self) -> Option<&super::sandbox::Sandbox> {
        self.sandbox.as_ref()
    }

    /// Whether the board is in play mode.
    #[must_use]
    pub const fn playing(&self) -> bool {
        self.playing
    }

    /// The selected rectangle, two opposite corners.
    #[must_use]
    pub const fn selection(&self) -> Option<(crate::rules::Cell, crate::rules::Cell)> {
        self.selection
    }

    /// The region being pasted, while it follows the pointer.
    #[must_use]
    pub const fn stamp(&self) -> Option<&Region> {
        if self.pasting { self.clipboard.as_ref() } else { None }
    }

    /// Whether a level is being generated.
    #[must_use]
    pub const fn generating(&self) -> bool {
        self.generating.is_some()
    }

    /// How long the level being generated has taken so far.
    #[must_use]
    pub fn generating_for(&self) -> Option<Duration> {
        self.generating.as_ref().map(super::job::Job::elapsed)
    }

    /// Whether an overlay is on.
    #[must_use]
    pub fn overlay(&self, overlay: Overlay) -> bool {
        match overlay {
            Overlay::SolePath => self.prefs.show_sole_path,
            Overlay::Routes => self.prefs.show_routes,
            Overlay::Distances => self.prefs.show_distances,
        }
    }

    /// Applies one command now. A command that cannot run in the present
    /// state does nothing but say why, in the status bar.
    pub fn apply(&mut self, command: Command, ctx: &egui::Context) {
        if let Some(why) = self.why_disabled(&command) {
            self.say(why);
            return;
        }
        let label = match (&command, self.doc.level()) {
            // The history spans the pack: a tool's edit names its level.
            (Command::Paint(_), Some(level)) => format!("{} ({})", history_label(&command), level.id),
            _ => history_label(&command),
        };
        self.doc.label_next(label);
        match command {
            Command::Set(setting) => self.apply_setting(setting),
            Command::Undo | Command::Redo if self.playing => self.apply_play(command),
            Command::Dialog(..)
            | Command::ExportJson
            | Command::ExportToml
            | Command::New
            | Command::Open
            | Command::OpenBundled(..)
            | Command::OpenRecent(..)
            | Command::Quit
            | Command::Save
            | Command::SaveAs => self.apply_files(command, ctx),
            Command::BeginStroke
            | Command::ClearLevel
            | Command::EndStroke
            | Command::Paint(..)
            | Command::Redo
            | Command::Resize(..)
            | Command::SetField(..)
            | Command::Undo
            | Command::UndoTo(..) => self.apply_edit(command),
            Command::AddLevel
            | Command::DeleteLevel
            | Command::DuplicateLevel
            | Command::GenerateLevel
            | Command::MoveLevel { .. }
            | Command::MoveLevelDown
            | Command::MoveLevelUp
            | Command::NextLevel
            | Command::PreviousLevel
            | Command::SelectLevel(..)
            | Command::StopGenerating => self.apply_levels(command, ctx),
            Command::Copy
            | Command::Cut
            | Command::Deselect
            | Command::FlipStampFiles
            | Command::FlipStampRanks
            | Command::RotateStamp
            | Command::Paste
            | Command::PasteAt(..)
            | Command::Select(..) => self.apply_clipboard(command, ctx),
            Command::AnswerDraw(..)
            | Command::Arrow(..)
            | Command::JumpTo(..)
            | Command::NewGame
            | Command::OfferDraw
            | Command::OpenGame
            | Command::Play(..)
            | Command::RestartGame
            | Command::ResumeGame
            | Command::SaveGame
            | Command::SetSeat(..)
            | Command::StepComputer
            | Command::TogglePlacing
            | Command::TogglePlay
            | Command::ToggleRunning => self.apply_play(command),
            Command::ApplyFix(..)
            | Command::CancelBalance
            | Command::CancelFixes
            | Command::CancelSkillTrace
            | Command::PreviewFix(..)
            | Command::RunBalance
            | Command::RunSkillTrace
            | Command::SuggestFixes => self.apply_checks(command),
            Command::CycleMirror
            | Command::FitBoard
            | Command::SelectFinding(..)
            | Command::ToggleHistory
            | Command::ToggleOverlay(..)
            | Command::ZoomIn
            | Command::ZoomOut => self.apply_view(command),
        }
    }

    /// Carries out a dialog's choice.
    fn answer(&mut self, answer: Answer, ctx: &egui::Context) {
        match answer {
            Answer::SaveThen(then) => {
                if self.save(false) {
                    self.proceed(then, ctx);
                }
            }
            Answer::Proceed(then) => self.proceed(then, ctx),
            Answer::Dismiss => self.modal = None,
            Answer::Recover => {
                if let Some(Modal::Recover(recovery)) = self.modal.clone() {
                    self.restore(&recovery);
                }
            }
            Answer::DiscardRecovery => self.discard_recovery(),
            Answer::Generate(form) => self.start_generating(form),
            Answer::FileTask(task, path) => self.finish_file_task(task, path),
            // Only the dialog that is open is edited: an edit sent in the
            // frame that closed it is dropped.
            Answer::Edit(modal) => {
                if self
                    .modal
                    .as_ref()
                    .is_some_and(|m| std::mem::discriminant(m) == std::mem::discriminant(&modal))
                {
                    self.modal = Some(modal);
                }
            }
        }
    }

    /// Why `command` cannot run now, or `None` when it can: the one place
    /// that decides, used by the menus, the buttons, the shortcuts and
    /// [`EditorApp::apply`] alike.
    #[must_use]
    pub fn why_disabled(&self, command: &Command) -> Option<String> {
        if !command.scope().covers(self.playing) {
            return Some(if self.playing {
                "Not while playing: F5 returns to editing.".into()
            } else {
                "Only while playing: F5 plays the level.".into()
            });
        }
        if command.scope() == super::command::Scope::Play {
            return self.why_not_in_game(command);
        }
        let levels = self.doc.pack().levels.len();
        let current = self.doc.current();
        let first = "This is the first level.";
        let last = "This is the last level.";
        let why = match command {
            Command::Undo if self.playing => (self.sandbox.as_ref().is_none_or(|s| s.game().cursor() == 0))
                .then_some("Nothing to take back."),
            Command::Redo if self.playing => self
                .sandbox
                .as_ref()
                .is_none_or(|s| s.game().cursor() == s.game().actions().len())
                .then_some("No action to play again."),
            Command::Undo => (!self.doc.can_undo()).then_some("Nothing to undo."),
            Command::Redo => (!self.doc.can_redo()).then_some("Nothing to redo."),
            Command::DeleteLevel if levels <= 1 => Some("A pack needs a level: this is its last."),
            Command::MoveLevelUp | Command::PreviousLevel if current == 0 => Some(first),
            Command::MoveLevelDown | Command::NextLevel if current + 1 >= levels => Some(last),
            Command::SelectLevel(i) if *i >= levels => Some("The pack has no such level."),
            Command::GenerateLevel if self.generating.is_some() => Some("A level is being generated."),
            Command::Copy | Command::Cut if self.selection.is_none() => {
                Some("Nothing is selected: drag a rectangle with the Select tool (A).")
            }
            Command::Paste
            | Command::PasteAt(_)
            | Command::FlipStampFiles
            | Command::FlipStampRanks
            | Command::RotateStamp
                if self.clipboard.is_none() =>
            {
                Some("Nothing is copied: select a region with the Select tool (A), then Ctrl+C.")
            }
            Command::StopGenerating if self.generating.is_none() => Some("No level is being generated."),
            Command::DuplicateLevel
            | Command::ClearLevel
            | Command::Resize(..)
            | Command::Paint(_)
            | Command::Copy
            | Command::Cut
            | Command::PasteAt(_)
            | Command::TogglePlay
            | Command::SetField(
                FormField::LevelId(_)
                | FormField::LevelName(_)
                | FormField::LevelAuthor(_)
                | FormField::LevelTags(_)
                | FormField::LevelNotes(_)
                | FormField::First(_)
                | FormField::DefaultGoals(_)
                | FormField::Expectations(_),
            ) if self.doc.level().is_none() => Some("The pack has no level: add one."),
            _ => None,
        };
        why.map(str::to_owned)
    }

    /// Why a play command cannot run in the game as it stands.
    fn why_not_in_game(&self, command: &Command) -> Option<String> {
        let Some(sandbox) = &self.sandbox else { return Some("No game is under way.".into()) };
        let game = sandbox.game();
        let state = game.state();
        let turn = state.turn();
        let seats = game.seats();
        let computer_only =
            seats.one != super::sandbox::Seat::Human && seats.two != super::sandbox::Seat::Human;
        let (balance, fixes, skill) = (sandbox.balance().job(), sandbox.fixes().job(), sandbox.skill().job());
        // Why the person cannot act now, if they cannot.
        let waiting = if let Some(outcome) = state.outcome() {
            Some(format!("The game is over: {}", super::announce(outcome)))
        } else if game.draw_offer().is_some() {
            Some("A draw offer waits for its answer.".to_owned())
        } else if !game.human_to_move() {
            Some(format!("Player {} is the computer's to play.", turn.number()))
        } else {
            None
        };
        match command {
            Command::Play(action) => {
                waiting.or_else(|| state.check(*action).err().map(|e| format!("{action} is not legal: {e}.")))
            }
            Command::Arrow(_) | Command::TogglePlacing => waiting,
            Command::OfferDraw => waiting.or_else(|| state.can_offer_draw().err().map(|e| format!("{e}."))),
            Command::AnswerDraw(_) => match game.draw_offer() {
                Some(by) if seats[by.other()] == super::sandbox::Seat::Human => None,
                _ => Some("No draw offer waits for a person's answer.".into()),
            },
            Command::ToggleRunning if !computer_only => {
                Some("Only when the computer plays both sides.".into())
            }
            Command::StepComputer if !computer_only || state.is_over() => {
                Some("Only in a computer-only game under way.".into())
            }
            Command::RestartGame if game.cursor() == 0 => Some("Already at the start.".into()),
            Command::ResumeGame if !game.viewing_past() => Some("Already at the last action.".into()),
            Command::JumpTo(n) if *n > game.actions().len() => Some("The game has no such action.".into()),
            Command::RunBalance if balance.is_some() => Some("Self-play is running.".into()),
            Command::CancelBalance if balance.is_none() => Some("No self-play is running.".into()),
            Command::SuggestFixes if fixes.is_some() => Some("The search for fixes is running.".into()),
            Command::SuggestFixes if balance.is_some() => {
                Some("Self-play is running: one search at a time.".into())
            }
            Command::CancelFixes if fixes.is_none() => Some("No search for fixes is running.".into()),
            Command::RunSkillTrace if skill.is_some() => Some("The skill trace is running.".into()),
            Command::RunSkillTrace if balance.is_some() || fixes.is_some() => {
                Some("Self-play is running: one run at a time.".into())
            }
            Command::RunBalance | Command::SuggestFixes if skill.is_some() => {
                Some("The skill trace is running: one run at a time.".into())
            }
            Command::CancelSkillTrace if skill.is_none() => Some("No skill trace is running.".into()),
            Command::Set(Setting::Decisions(Some(_))) if sandbox.balance().report().is_none() => {
                Some("No balance check has finished on this level yet: Run self-play.".into())
            }
            Command::PreviewFix(Some(i)) | Command::ApplyFix(i)
                if sandbox.fixes().found().is_none_or(|f| *i >= f.proposals.len()) =>
            {
                Some("No such proposal.".into())
            }
            _ => None,
        }
    }

    /// Runs `change` on the game under way.
    fn with_game(&mut self, change: impl FnOnce(&mut super::sandbox::Game)) {
        if let Some(sandbox) = &mut self.sandbox {
            change(sandbox.game_mut());
        }
    }

    /// Runs `change` on the sandbox (its checks and searches).
    fn with_sandbox(&mut self, change: impl FnOnce(&mut super::sandbox::Sandbox)) {
        if let Some(sandbox) = &mut self.sandbox {
            change(sandbox);
        }
    }

    /// Puts `text` in the status bar until the document or the game
    /// changes.
    pub fn say(&mut self, text: impl Into<String>) {
        self.status = text.into();
        self.status_key = None;
    }

    /// The state a status message is about.
    fn status_context(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (self.doc.revision(), self.playing).hash(&mut hasher);
        if let Some(sandbox) = &self.sandbox {
            let game = sandbox.game();
            (game.cursor(), game.actions().len(), game.draw_offer()).hash(&mut hasher);
        }
        hasher.finish()
    }

    /// Clears the status message once what it said is no longer the
    /// state of things (a win after undo, "New pack." after edits).
    fn expire_status(&mut self) {
        let now = self.status_context();
        match self.status_key {
            None => self.status_key = Some(now),
            Some(key) if key != now => {
                self.status.clear();
                self.status_key = Some(now);
            }
            Some(_) => {}
        }
    }

    /// Asks about unsaved changes before `then`, or does it at once.
    fn after_unsaved(&mut self, then: Then, ctx: &egui::Context) {
        if self.doc.is_dirty() {
            self.modal = Some(Modal::Unsaved(then));
        } else {
            self.proceed(then, ctx);
        }
    }

    /// Does `then`, changes being saved or given up.
    fn proceed(&mut self, then: Then, ctx: &egui::Context) {
        self.modal = None;
        match then {
            Then::New => {
                let mut pack = Pack::new("New pack");
                let mut level = Level::new("level-1", 9, 9);
                level.name = "Level 1".into();
                pack.levels.push(level);
                self.doc = Document::new(pack, None, None);
                self.clear_recovery();
                self.selected_finding = None;
                self.say("New pack.");
            }
            Then::Open(path) => {
                if let Some(path) = path.or_else(|| self.pick_open(FileTask::Open)) {
                    self.open_path(&path);
                }
            }
            Then::OpenBundled(which) => {
                self.doc = Document::new(which.pack(), None, Some(which.text().to_owned()));
                self.clear_recovery();
                self.selected_finding = None;
                self.say(format!("{} opened as an unsaved copy; saving asks where.", self.doc.pack().name));
            }
            Then::Quit => {
                self.quit_requested = true;
                self.clear_recovery();
                self.save_prefs();
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Opens a pack file. A file that cannot be read whole (not TOML, a
    /// value of the wrong type, a map character or a cell that means
    /// nothing) changes nothing and shows every diagnostic, as `pushcrate
    /// check` prints them: opening it would drop what could not be read,
    /// and saving would write the damage. A file read whole opens even
    /// with errors (a cut route, a duplicate id), which are the layout's
    /// own and are shown beside the board.
    fn open_path(&mut self, path: &Path) {
        let name = path.display().to_string();
        let file = match crate::files::read_pack(path) {
            Ok(file) => file,
            Err(e) => {
                self.modal = Some(Modal::Error(format!("Could not open the pack: {e}")));
                return;
            }
        };
        match &file.parsed.pack {
            Some(_) if file.parsed.complete => {}
            _ => {
                let text = crate::diagnostics::render(&file, false, 0);
                self.modal =
                    Some(Modal::Problems { file: name, text, shown: super::document::fresh_revision() });
                return;
            }
        }
        let crate::files::PackFile { text, parsed, .. } = file;
        let Some(pack) = parsed.pack else { return };
        let errors = parsed.problems.iter().filter(|p| p.is_error()).count();
        // A JSON pack is edited as a new TOML pack: saving over the JSON
        // file would write TOML into it.
        let json = crate::files::is_json(path);
        self.doc = if json {
            Document::new(pack, None, None)
        } else {
            Document::new(pack, Some(path.to_path_buf()), Some(text))
        };
        self.prefs.remember(path);
        self.selected_finding = None;
        self.say(if errors == 0 {
            format!("Opened {name}.")
        } else {
            format!("Opened {name}: {errors} problem(s) to fix, shown beside the board.")
        });
    }

    /// Keeps the recovery file at most [`AUTOSAVE_EVERY`] behind the
    /// document, on the UI's clock. Until a change is written, the window
    /// is asked to wake when it is due, so an edit followed by no input at
    /// all is still written.
    fn autosave(&mut self, ctx: &egui::Context) {
        // Once quitting, the work was saved or given up: the frames before
        // the window closes must not write it back.
        if self.quit_requested || !self.doc.is_dirty() || self.autosaved == Some(self.doc.revision()) {
            return;
        }
        let now = ctx.input(|i| i.time);
        let due = self.last_autosave + AUTOSAVE_EVERY.as_secs_f64();
        if now >= due {
            self.last_autosave = now;
            self.autosave_now();
        } else {
            ctx.request_repaint_after(Duration::from_secs_f64(due - now));
        }
    }

    /// Writes unsaved work to the recovery file now.
    pub fn autosave_now(&mut self) {
        let saved_at = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let recovery = Recovery {
            path: self.doc.path().map(Path::to_path_buf),
            text: write_pack(self.doc.pack()),
            saved_at,
        };
        match self.paths.write_recovery(&recovery) {
            Ok(()) => self.autosaved = Some(self.doc.revision()),
            Err(e) => self.say(format!("Autosave failed: {}", crate::diagnostics::error_text(&e))),
        }
    }

    /// Removes the recovery file: the work is saved or given up.
    fn clear_recovery(&mut self) {
        self.paths.clear_recovery();
        self.autosaved = None;
    }

    /// Restores recovered work as an unsaved document.
    fn restore(&mut self, recovery: &Recovery) {
        self.modal = None;
        match parse_pack(&recovery.text).pack {
            Some(pack) => {
                let source = recovery
                    .path
                    .as_ref()
                    .and_then(|p| crate::files::read_text(p, crate::level::MAX_FILE_BYTES).ok());
                self.doc = Document::new(pack, recovery.path.clone(), source);
                self.doc.mark_unsaved();
                self.say("Recovered unsaved work.");
            }
            None => self.modal = Some(Modal::Error("The recovery file is damaged.".into())),
        }
    }

    /// Gives up recovered work.
    fn discard_recovery(&mut self) {
        self.modal = None;
        self.clear_recovery();
    }

    /// Starts generating one level with `form`'s options in the background;
    /// `StopGenerating` ends it with nothing added.
    fn start_generating(&mut self, form: GenerateForm) {
        self.modal = None;
        self.generate_form = GenerateForm { seed: form.seed + 1, ..form.clone() };
        let rules = self.doc.pack().rules;
        let taken: Vec<String> = self.doc.pack().levels.iter().map(|l| l.id.clone()).collect();
        self.generating = Some(super::job::Job::spawn(0, move |progress| {
            let options = crate::generate::Options {
                width: form.width,
                height: form.height,
                symmetry: form.symmetry,
                style: form.style,
                seed: form.seed,
                balanced: form.balanced,
                clear_of_edges: form.balanced && form.clear_of_edges,
                balance_games: crate::sim::SEQUENTIAL_CAP,
                balance: crate::sim::STRONG,
                rules,
            };
            // No level back means the user stopped it.
            crate::generate::generate(&options, 1, &|_| {}, progress.cancel_flag()).map(|mut levels| {
                if levels.is_empty() {
                    return None;
                }
                let mut level = levels.remove(0).level;
                let mut id = level.id.clone();
                let mut n = 2;
                while taken.contains(&id) {
                    id = format!("{}-{n}", level.id);
                    n += 1;
                }
                level.id = id;
                Some(level)
            })
        }));
        self.say("Generating a level…");
    }

    /// Adds the generated level when it is ready.
    fn poll_generating(&mut self, ctx: &egui::Context) {
        let Some(job) = &self.generating else { return };
        match job.poll() {
            super::job::Poll::Ready(Ok(Some(level))) => {
                self.generating = None;
                self.say(format!("Generated level `{}`.", level.id));
                self.doc.edit(|pack, current| {
                    let at = (*current + 1).min(pack.levels.len());
                    pack.levels.insert(at, level);
                    *current = at;
                });
            }
            super::job::Poll::Ready(Ok(None)) => {
                self.generating = None;
                self.say(GENERATING_STOPPED);
            }
            super::job::Poll::Ready(Err(why)) => {
                self.generating = None;
                self.modal = Some(Modal::Error(why.to_string()));
            }
            // Its time so far, twice a second: a software renderer draws
            // the window on the cores the candidates' games need.
            super::job::Poll::Running => ctx.request_repaint_after(PROGRESS_REDRAW),
            super::job::Poll::Lost => {
                self.generating = None;
                self.modal = Some(Modal::Error("Generating the level failed.".into()));
            }
        }
    }

    /// Why no file dialog can be shown, for the field that asks instead.
    #[must_use]
    pub fn dialogs_unavailable_because(&self) -> &'static str {
        self.dialogs.unavailable_because()
    }

    /// A file to open for `task`, from the dialog; or, where no dialog can
    /// be shown, `None` now and a field to type the path in.
    fn pick_open(&mut self, task: FileTask) -> Option<PathBuf> {
        if self.dialogs.available() {
            return self.dialogs.open();
        }
        let path = self.doc.path().as_ref().map(|p| p.display().to_string()).unwrap_or_default();
        self.modal = Some(Modal::AskPath { task, path });
        None
    }

    /// Where to save for `task`, likewise.
    fn pick_save(&mut self, task: FileTask) -> Option<PathBuf> {
        let (name, extension) = match task {
            FileTask::ExportJson => (format!("{}.json", slug(&self.doc.pack().name)), "json"),
            FileTask::SaveRecord => {
                let level = self.sandbox.as_ref().map_or("game", |s| s.game().level().id.as_str());
                (format!("{level}.record"), "record")
            }
            _ => (format!("{}.toml", slug(&self.doc.pack().name)), "toml"),
        };
        if self.dialogs.available() {
            return self.dialogs.save(&name, extension);
        }
        // Beside the current file, else in the folder the editor runs in.
        let dir = self
            .doc
            .path()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        self.modal = Some(Modal::AskPath { task, path: dir.join(name).display().to_string() });
        None
    }

    /// Carries out `task` on a typed-in path.
    fn finish_file_task(&mut self, task: FileTask, path: PathBuf) {
        self.modal = None;
        match task {
            FileTask::Open => self.open_path(&path),
            FileTask::SaveAs => {
                self.save_to(path);
            }
            FileTask::ExportToml => self.export_to(&path, false),
            FileTask::ExportJson => self.export_to(&path, true),
            FileTask::SaveRecord => self.save_record_to(&path),
            FileTask::OpenRecord => self.open_record_from(&path),
        }
    }

    /// Saves the preferences (recent files, seats, the balance check's
    /// choices). They are a convenience: a failure is said on standard error
    /// and the session goes on.
    pub fn save_prefs(&self) {
        if let Err(e) = self.paths.save_prefs(&self.prefs) {
            eprintln!("warning: the editor's preferences were not saved: {e:#}");
        }
    }
}

fn slug(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    let s = s.trim_matches('-').to_owned();
    if s.is_empty() { "pack".to_owned() } else { s }
}
