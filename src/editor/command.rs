//! Commands as data: every menu entry, button and key emits a [`Command`];
//! one place applies them after the UI pass.

use egui::{Key, KeyboardShortcut, Modifiers};

use super::board::BoardZoom;
use super::dialog::{Answer, Bundled};
use super::sandbox::Seat;
use crate::level::edit::EditOp;
use crate::rules::{Action, Cell, Dir, JumpRule, Player, RuleOption, Stage, Symmetry};

/// What a click on the board does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Tool {
    /// Paint walls (left button) or floor (right button); drag to paint.
    #[default]
    Wall,
    /// Drag a rectangle of walls (left) or floor (right).
    Rectangle,
    /// Fill a region of walls or floor with the other.
    Fill,
    /// Place a player's start square.
    Start(Player),
    /// Toggle cells of a player's goal set.
    Goal(Player),
    /// Make a whole rank a player's goal set.
    GoalRank(Player),
    /// Place the flag.
    Flag,
    /// Place crates of the chosen stage (left) or remove them (right).
    Crate,
    /// Clear cells: floor, no crate, no goal.
    Eraser,
    /// Drag a rectangle to select it, for copy, cut and paste.
    Select,
}

impl Tool {
    /// The edit this tool makes on `cell` of a stroke: with the primary
    /// (left) button or the other, `first` for the stroke's first cell
    /// (a fill, a start square, a goal rank and the flag take that cell
    /// only), `stage` for a new crate. `None` where it makes none there
    /// (the rectangle and the selection act on the stroke's two ends).
    #[must_use]
    pub fn edit_at(self, cell: Cell, primary: bool, first: bool, stage: Stage) -> Option<EditOp> {
        match self {
            Tool::Wall => Some(EditOp::Wall(cell, primary)),
            Tool::Eraser => Some(EditOp::Erase(cell)),
            Tool::Crate => Some(EditOp::Crate(cell, primary.then_some(stage))),
            Tool::Goal(p) => Some(EditOp::ToggleGoal(p, cell)),
            Tool::Fill if first => Some(EditOp::Fill(cell, primary)),
            Tool::Start(p) if first => Some(EditOp::Start(p, cell)),
            Tool::GoalRank(p) if first => Some(EditOp::GoalRank(p, cell.rank())),
            Tool::Flag if first => Some(EditOp::Flag(cell)),
            _ => None,
        }
    }

    /// The edit this tool makes over a stroke from `start` to `end`: the
    /// rectangle's walls (primary button) or floor; `None` for the others.
    #[must_use]
    pub fn edit_between(self, start: Cell, end: Cell, primary: bool) -> Option<EditOp> {
        (self == Tool::Rectangle).then_some(EditOp::Rectangle(start, end, primary))
    }

    /// Every tool, in toolbar order.
    pub const ALL: [Tool; 13] = [
        Tool::Wall,
        Tool::Rectangle,
        Tool::Fill,
        Tool::Start(Player::One),
        Tool::Start(Player::Two),
        Tool::Goal(Player::One),
        Tool::Goal(Player::Two),
        Tool::GoalRank(Player::One),
        Tool::GoalRank(Player::Two),
        Tool::Flag,
        Tool::Crate,
        Tool::Eraser,
        Tool::Select,
    ];

    /// The tool's name.
    #[must_use]
    pub fn label(self) -> String {
        match self {
            Tool::Wall => "Wall brush".into(),
            Tool::Rectangle => "Rectangle".into(),
            Tool::Fill => "Flood fill".into(),
            Tool::Start(p) => format!("Start {}", p.number()),
            Tool::Goal(p) => format!("Goal cells {}", p.number()),
            Tool::GoalRank(p) => format!("Goal rank {}", p.number()),
            Tool::Flag => "Flag".into(),
            Tool::Crate => "Crate".into(),
            Tool::Eraser => "Eraser".into(),
            Tool::Select => "Select".into(),
        }
    }

    /// What it does, for tooltips.
    #[must_use]
    pub fn help(self) -> String {
        match self {
            Tool::Wall => "Click or drag: walls with the left button, floor with the right".into(),
            Tool::Rectangle => "Drag a rectangle: walls with the left button, floor with the right".into(),
            Tool::Fill => "Click a region: walls become floor, floor becomes walls".into(),
            Tool::Start(p) => format!("Click to place {p}'s start square"),
            Tool::Goal(p) => format!("Click to add or remove a cell of {p}'s goal set"),
            Tool::GoalRank(p) => format!("Click a rank to make its floor {p}'s goal set"),
            Tool::Flag => "Click to place the flag".into(),
            Tool::Crate => "Click to place a crate of the chosen stage; right-click removes".into(),
            Tool::Eraser => "Click or drag to clear cells".into(),
            Tool::Select => {
                "Drag a rectangle to select it: Ctrl+C copies it, Ctrl+X cuts it, Ctrl+V pastes a copy where you click, in this level or another"
                    .into()
            }
        }
    }

    /// The tool's key.
    #[must_use]
    pub fn shortcut(self) -> KeyboardShortcut {
        let (modifiers, key) = match self {
            Tool::Wall => (Modifiers::NONE, Key::B),
            Tool::Rectangle => (Modifiers::NONE, Key::R),
            Tool::Fill => (Modifiers::NONE, Key::F),
            Tool::Start(Player::One) => (Modifiers::NONE, Key::Num1),
            Tool::Start(Player::Two) => (Modifiers::NONE, Key::Num2),
            Tool::Goal(Player::One) => (Modifiers::NONE, Key::G),
            Tool::Goal(Player::Two) => (Modifiers::NONE, Key::H),
            Tool::GoalRank(Player::One) => (Modifiers::SHIFT, Key::G),
            Tool::GoalRank(Player::Two) => (Modifiers::SHIFT, Key::H),
            Tool::Flag => (Modifiers::SHIFT, Key::F),
            Tool::Crate => (Modifiers::NONE, Key::C),
            Tool::Eraser => (Modifiers::NONE, Key::E),
            Tool::Select => (Modifiers::NONE, Key::A),
        };
        KeyboardShortcut::new(modifiers, key)
    }
}

/// What the board shows besides the level.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Overlay {
    /// The sole-path cells, where no crate may go.
    SolePath,
    /// Each player's shortest route, start to flag to goal.
    Routes,
    /// Steps from the flag, as a heat map.
    Distances,
}

impl Overlay {
    /// Every overlay.
    pub const ALL: [Overlay; 3] = [Overlay::SolePath, Overlay::Routes, Overlay::Distances];

    /// The overlay's name.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Overlay::SolePath => "Sole-path cells",
            Overlay::Routes => "Shortest routes",
            Overlay::Distances => "Distance heat map",
        }
    }

    /// The overlay's key.
    #[must_use]
    pub const fn shortcut(self) -> KeyboardShortcut {
        KeyboardShortcut::new(
            Modifiers::NONE,
            match self {
                Overlay::SolePath => Key::S,
                Overlay::Routes => Key::P,
                Overlay::Distances => Key::D,
            },
        )
    }
}

/// A change typed or picked in a form: the pack's and the level's fields.
/// Consecutive changes of one text field are one undo step.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FormField {
    /// The pack's name.
    PackName(String),
    /// The pack's author (empty: none).
    PackAuthor(String),
    /// The pack's description (empty: none).
    PackDescription(String),
    /// A `[rules]` number.
    Rule(RuleOption, i64),
    /// The `jump` rule.
    Jump(JumpRule),
    /// The current level's id.
    LevelId(String),
    /// The current level's name.
    LevelName(String),
    /// The current level's author (empty: none).
    LevelAuthor(String),
    /// The current level's tags, separated by commas.
    LevelTags(String),
    /// The current level's notes (empty: none).
    LevelNotes(String),
    /// Who moves first on the current level.
    First(Player),
    /// A player's goal set back to its start square's rank.
    DefaultGoals(Player),
    /// The current level's expectations (format version 2).
    Expectations(Vec<crate::level::Expectation>),
}

impl FormField {
    /// The text field this change comes from, for merging typing into one
    /// undo step; `None` for a change that is a step of its own.
    #[must_use]
    pub const fn typing_key(&self) -> Option<&'static str> {
        Some(match self {
            FormField::PackName(_) => "pack.name",
            FormField::PackAuthor(_) => "pack.author",
            FormField::PackDescription(_) => "pack.description",
            FormField::LevelId(_) => "level.id",
            FormField::LevelName(_) => "level.name",
            FormField::LevelAuthor(_) => "level.author",
            FormField::LevelTags(_) => "level.tags",
            FormField::LevelNotes(_) => "level.notes",
            FormField::Rule(..)
            | FormField::Jump(_)
            | FormField::First(_)
            | FormField::DefaultGoals(_)
            | FormField::Expectations(_) => {
                return None;
            }
        })
    }
}

/// Where a command applies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scope {
    /// While editing a level.
    Edit,
    /// While playing a level.
    Play,
    /// Either.
    Both,
}

impl Scope {
    /// Whether a command of this scope applies in the mode.
    #[must_use]
    pub const fn covers(self, playing: bool) -> bool {
        match self {
            Scope::Edit => !playing,
            Scope::Play => playing,
            Scope::Both => true,
        }
    }
}

/// Everything the editor can be asked to do.
#[derive(Clone, PartialEq, Debug)]
pub enum Command {
    /// A new pack with one empty level.
    New,
    /// Open a pack file.
    Open,
    /// Open a recent file.
    OpenRecent(std::path::PathBuf),
    /// Open a pack built into the binary, as an unsaved copy.
    OpenBundled(Bundled),
    /// Save to the current file, or ask where.
    Save,
    /// Save to a new file.
    SaveAs,
    /// Write the pack as canonical TOML to a new file.
    ExportToml,
    /// Write the pack as JSON to a new file.
    ExportJson,
    /// Close the editor.
    Quit,
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Go to the next mirror mode.
    CycleMirror,
    /// Show or hide an overlay.
    ToggleOverlay(Overlay),
    /// Zoom the board in, about its centre.
    ZoomIn,
    /// Zoom the board out, about its centre.
    ZoomOut,
    /// Fit the whole board in its panel again: no zoom, no pan.
    FitBoard,
    /// Add an empty level after the current one.
    AddLevel,
    /// Copy the current level.
    DuplicateLevel,
    /// Delete the current level.
    DeleteLevel,
    /// Move the current level up the list.
    MoveLevelUp,
    /// Move the current level down the list.
    MoveLevelDown,
    /// Edit another level.
    SelectLevel(usize),
    /// Edit the previous level.
    PreviousLevel,
    /// Edit the next level.
    NextLevel,
    /// Change the current level's size.
    Resize(u8, u8),
    /// Remove every wall and crate of the current level.
    ClearLevel,
    /// Highlight a finding of the analysis, or none.
    SelectFinding(Option<usize>),
    /// Switch the level between editing and playing.
    TogglePlay,
    /// Open the level generator.
    GenerateLevel,
    /// Change a field of the pack or the current level.
    SetField(FormField),
    /// A tool's edit of the current level, with the mirror mode's image.
    Paint(EditOp),
    /// A drag stroke begins: its edits undo as one step.
    BeginStroke,
    /// The drag stroke ends.
    EndStroke,
    /// Play: a fresh game on the current layout.
    NewGame,
    /// Play: a person's action (a click on the board, Steal, Pass).
    Play(Action),
    /// Play: an arrow key, a step or push that way, or a jump.
    Arrow(Dir),
    /// Play: clicks place crates instead of moving, or back.
    TogglePlacing,
    /// Play: the side to move offers a draw.
    OfferDraw,
    /// Play: the opponent accepts (`true`) or declines a draw offer.
    AnswerDraw(bool),
    /// Play: who plays a side.
    SetSeat(Player, Seat),
    /// Play: computer-only games run or pause.
    ToggleRunning,
    /// Play: the computer plays one action.
    StepComputer,
    /// Play: back to the first position, keeping the log.
    RestartGame,
    /// Play: back to the last position of the log.
    ResumeGame,
    /// Play: the position after this many actions of the log.
    JumpTo(usize),
    /// Play: save the game record.
    SaveGame,
    /// Play: open a game record.
    OpenGame,
    /// Play: run self-play on the level in the background.
    RunBalance,
    /// Play: stop the self-play run.
    CancelBalance,
    /// Play: search the smallest edits that balance the level.
    SuggestFixes,
    /// Play: stop the search for fixes, keeping the proposals found.
    CancelFixes,
    /// Play: show this proposal on the board, or the game again (`None`).
    PreviewFix(Option<usize>),
    /// Make this proposal's edits to the level, as one undo step.
    ApplyFix(usize),
    /// Stop generating a level.
    StopGenerating,
    /// Undo or redo until this many steps of the undo history are done
    /// (a click in the history).
    UndoTo(usize),
    /// Show or hide the undo history.
    ToggleHistory,
    /// Move a level from one place in the list to another (a drag in the
    /// level list).
    MoveLevel {
        /// Its index now.
        from: usize,
        /// Its index after the move.
        to: usize,
    },
    /// Select the rectangle spanned by two cells, or nothing.
    Select(Option<(Cell, Cell)>),
    /// Copy the selected region's walls, floor and crates.
    Copy,
    /// Copy the selected region, then clear it to floor.
    Cut,
    /// Paste the copied region: it follows the pointer until a click
    /// places it.
    Paste,
    /// Place the copied region with its top-left corner on a cell.
    PasteAt(Cell),
    /// Mirror the copied region left to right before pasting it.
    FlipStampFiles,
    /// Mirror the copied region top to bottom before pasting it.
    FlipStampRanks,
    /// Turn the copied region a quarter clockwise before pasting it.
    RotateStamp,
    /// End pasting, or clear the selection.
    Deselect,
    /// A dialog's choice.
    Dialog(Answer),
    /// A widget's setting: what a control shows or how the next check
    /// runs, never the document or the game.
    Set(Setting),
    /// Play: the skill trace, each strength on both sides, in the
    /// background.
    RunSkillTrace,
    /// Play: stop the skill trace, keeping the strengths played.
    CancelSkillTrace,
}

/// The mirror painting modes, in menu order: none, then each symmetry.
pub const MIRRORS: [Option<Symmetry>; 4] =
    [None, Some(Symmetry::HalfTurn), Some(Symmetry::MirrorFiles), Some(Symmetry::MirrorRanks)];

/// A mirror painting mode's name for menus.
#[must_use]
pub const fn mirror_label(mirror: Option<Symmetry>) -> &'static str {
    match mirror {
        None => "No mirror",
        Some(Symmetry::HalfTurn) => "Half turn (players swapped)",
        Some(Symmetry::MirrorFiles) => "Left–right",
        Some(Symmetry::MirrorRanks) => "Top–bottom (players swapped)",
    }
}

/// The editor's widget state, as a control sets it: separate from the
/// commands that change the document, the game or the files. None of them
/// is an undo step.
#[derive(Clone, Debug, PartialEq)]
pub enum Setting {
    /// The board tool.
    Tool(Tool),
    /// The crate tool's stage.
    Stage(Stage),
    /// Mirror painting: each edit repeated under this symmetry, or not.
    Mirror(Option<Symmetry>),
    /// The board's zoom and pan as the pointer left them (the wheel, a
    /// pinch, a middle drag).
    Zoom(BoardZoom),
    /// Play: computer-only games' speed, in actions a second.
    Speed(f32),
    /// Play: moves are animated, or not.
    Animate(bool),
    /// Play: the balance check's games a pairing (its cap, or the fixed
    /// count).
    BalanceGames(u32),
    /// Play: the most edits a suggested fix may make, 1 to 3.
    FixEdits(u32),
    /// Play: the balance check plays a fixed count of games, or stops at
    /// its sequential verdict.
    BalanceFixed(bool),
    /// Play: which pairing the balance check plays (an index of the
    /// sandbox's choices).
    BalanceChoice(usize),
    /// Play: draw where the last check's games were decided (which
    /// event), or not.
    Decisions(Option<crate::sim::Event>),
}

impl Command {
    /// The label of menu entries and buttons.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            Command::New => "New".into(),
            Command::Open => "Open…".into(),
            Command::OpenRecent(path) => path.display().to_string(),
            Command::OpenBundled(Bundled::Default) => "Bundled classics".into(),
            Command::OpenBundled(Bundled::Flawed) => "Bundled flawed levels".into(),
            Command::Save => "Save".into(),
            Command::SaveAs => "Save As…".into(),
            Command::ExportToml => "Export TOML…".into(),
            Command::ExportJson => "Export JSON…".into(),
            Command::Quit => "Quit".into(),
            Command::Undo => "Undo".into(),
            Command::Redo => "Redo".into(),
            Command::Set(Setting::Tool(tool)) => tool.label(),
            Command::Set(Setting::Stage(stage)) => format!("Stage: {stage}"),
            Command::Set(Setting::Mirror(mirror)) => mirror_label(*mirror).into(),
            Command::CycleMirror => "Next mirror mode".into(),
            Command::ToggleOverlay(overlay) => overlay.label().into(),
            Command::ZoomIn => "Zoom in".into(),
            Command::ZoomOut => "Zoom out".into(),
            Command::FitBoard => "Fit the board".into(),
            Command::AddLevel => "Add level".into(),
            Command::DuplicateLevel => "Duplicate level".into(),
            Command::DeleteLevel => "Delete level".into(),
            Command::MoveLevelUp => "Move level up".into(),
            Command::MoveLevelDown => "Move level down".into(),
            Command::SelectLevel(i) => format!("Level {}", i + 1),
            Command::PreviousLevel => "Previous level".into(),
            Command::NextLevel => "Next level".into(),
            Command::Resize(w, h) => format!("Resize to {w} × {h}"),
            Command::ClearLevel => "Clear level".into(),
            Command::SelectFinding(_) => "Show finding".into(),
            Command::TogglePlay => "Play / edit".into(),
            Command::GenerateLevel => "Generate level…".into(),
            Command::SetField(_) => "Edit a field".into(),
            Command::Paint(_) => "Paint".into(),
            Command::BeginStroke => "Begin a stroke".into(),
            Command::EndStroke => "End a stroke".into(),
            Command::NewGame => "New game".into(),
            Command::Play(Action::Steal) => "Steal the flag".into(),
            Command::Play(Action::Pass) => "Pass".into(),
            Command::Play(action) => format!("Play {action}"),
            Command::Arrow(dir) => match dir {
                Dir::North => "Step up".into(),
                Dir::East => "Step right".into(),
                Dir::South => "Step down".into(),
                Dir::West => "Step left".into(),
            },
            Command::TogglePlacing => "Place crates".into(),
            Command::OfferDraw => "Offer a draw".into(),
            Command::AnswerDraw(true) => "Accept the draw".into(),
            Command::AnswerDraw(false) => "Decline".into(),
            Command::SetSeat(player, seat) => format!("Player {}: {}", player.number(), seat.label()),
            Command::ToggleRunning => "Run / Pause".into(),
            Command::StepComputer => "Step".into(),
            Command::RestartGame => "Restart".into(),
            Command::ResumeGame => "Resume at the last action".into(),
            Command::JumpTo(0) => "start".into(),
            Command::JumpTo(n) => format!("Go to action {n}"),
            Command::SaveGame => "Save game…".into(),
            Command::OpenGame => "Open game…".into(),
            Command::RunBalance => "Run self-play".into(),
            Command::CancelBalance => "Cancel".into(),
            Command::SuggestFixes => "Suggest fixes".into(),
            Command::CancelFixes => "Stop the search".into(),
            Command::PreviewFix(Some(_)) => "Preview".into(),
            Command::PreviewFix(None) => "Back to the game".into(),
            Command::ApplyFix(_) => "Apply".into(),
            Command::StopGenerating => "Stop generating".into(),
            Command::Dialog(_) => "Answer the dialog".into(),
            Command::Select(_) => "Select a region".into(),
            Command::Copy => "Copy".into(),
            Command::Cut => "Cut".into(),
            Command::Paste => "Paste".into(),
            Command::PasteAt(cell) => format!("Paste at {cell}"),
            Command::UndoTo(done) => format!("Go to step {done} of the history"),
            Command::ToggleHistory => "Undo history".into(),
            Command::MoveLevel { from, to } => format!("Move level {} to place {}", from + 1, to + 1),
            Command::FlipStampFiles => "Flip the copy left–right".into(),
            Command::FlipStampRanks => "Flip the copy top–bottom".into(),
            Command::RotateStamp => "Turn the copy clockwise".into(),
            Command::Deselect => "Deselect".into(),
            Command::Set(Setting::Zoom(_)) => "Zoom and pan".into(),
            Command::Set(Setting::Speed(_)) => "Speed".into(),
            Command::Set(Setting::Animate(_)) => "Animate".into(),
            Command::Set(Setting::BalanceGames(_)) => "Games per pairing".into(),
            Command::Set(Setting::FixEdits(_)) => "Edits per fix".into(),
            Command::Set(Setting::BalanceFixed(_)) => "Fixed count".into(),
            Command::Set(Setting::BalanceChoice(_)) => "Both sides".into(),
            Command::Set(Setting::Decisions(Some(event))) => {
                format!("Show where {} happened", event.describe())
            }
            Command::Set(Setting::Decisions(None)) => "Hide where games were decided".into(),
            Command::RunSkillTrace => "Skill trace".into(),
            Command::CancelSkillTrace => "Stop the trace".into(),
        }
    }

    /// Where the command applies: editing, playing, or both.
    #[must_use]
    pub const fn scope(&self) -> Scope {
        match self {
            Command::New
            | Command::Open
            | Command::OpenRecent(_)
            | Command::OpenBundled(_)
            | Command::Save
            | Command::SaveAs
            | Command::ExportToml
            | Command::ExportJson
            | Command::Quit
            | Command::Undo
            | Command::Redo
            | Command::SelectLevel(_)
            | Command::PreviousLevel
            | Command::NextLevel
            | Command::StopGenerating
            | Command::TogglePlay
            | Command::ZoomIn
            | Command::ZoomOut
            | Command::FitBoard
            | Command::Dialog(_)
            | Command::ToggleHistory
            | Command::Set(Setting::Zoom(_)) => Scope::Both,
            Command::NewGame
            | Command::Play(_)
            | Command::Arrow(_)
            | Command::TogglePlacing
            | Command::OfferDraw
            | Command::AnswerDraw(_)
            | Command::SetSeat(..)
            | Command::ToggleRunning
            | Command::StepComputer
            | Command::RestartGame
            | Command::ResumeGame
            | Command::JumpTo(_)
            | Command::SaveGame
            | Command::OpenGame
            | Command::RunBalance
            | Command::CancelBalance
            | Command::SuggestFixes
            | Command::CancelFixes
            | Command::PreviewFix(_)
            | Command::ApplyFix(_)
            | Command::Set(Setting::Speed(_))
            | Command::Set(Setting::Animate(_))
            | Command::Set(Setting::BalanceGames(_))
            | Command::Set(Setting::FixEdits(_))
            | Command::Set(Setting::BalanceFixed(_))
            | Command::Set(Setting::BalanceChoice(_))
            | Command::Set(Setting::Decisions(_))
            | Command::RunSkillTrace
            | Command::CancelSkillTrace => Scope::Play,
            Command::Set(Setting::Tool(_))
            | Command::Set(Setting::Stage(_))
            | Command::Set(Setting::Mirror(_))
            | Command::CycleMirror
            | Command::ToggleOverlay(_)
            | Command::AddLevel
            | Command::DuplicateLevel
            | Command::DeleteLevel
            | Command::MoveLevelUp
            | Command::MoveLevelDown
            | Command::MoveLevel { .. }
            | Command::UndoTo(_)
            | Command::Resize(..)
            | Command::ClearLevel
            | Command::SelectFinding(_)
            | Command::GenerateLevel
            | Command::SetField(_)
            | Command::Paint(_)
            | Command::BeginStroke
            | Command::EndStroke
            | Command::Select(_)
            | Command::Copy
            | Command::Cut
            | Command::Paste
            | Command::PasteAt(_)
            | Command::FlipStampFiles
            | Command::FlipStampRanks
            | Command::RotateStamp
            | Command::Deselect => Scope::Edit,
        }
    }

    /// A second shortcut, where habit has two: Ctrl+Shift+Z redoes, as
    /// in Tiled and LDtk, besides Ctrl+Y; W paints walls besides B, the
    /// brush key of Tiled.
    #[must_use]
    pub fn alternative_shortcut(&self) -> Option<KeyboardShortcut> {
        match self {
            Command::Redo => Some(KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z)),
            Command::Set(Setting::Tool(Tool::Wall)) => Some(KeyboardShortcut::new(Modifiers::NONE, Key::W)),
            _ => None,
        }
    }

    /// The keyboard shortcut, if any.
    #[must_use]
    pub fn shortcut(&self) -> Option<KeyboardShortcut> {
        let ctrl = Modifiers::COMMAND;
        let ctrl_shift = Modifiers::COMMAND | Modifiers::SHIFT;
        let key = |modifiers, key| Some(KeyboardShortcut::new(modifiers, key));
        match self {
            Command::New => key(ctrl, Key::N),
            Command::Open => key(ctrl, Key::O),
            Command::Save => key(ctrl, Key::S),
            Command::SaveAs => key(ctrl_shift, Key::S),
            Command::ExportToml => key(ctrl, Key::E),
            Command::ExportJson => key(ctrl_shift, Key::E),
            Command::Quit => key(ctrl, Key::Q),
            Command::Undo => key(ctrl, Key::Z),
            Command::Copy => key(ctrl, Key::C),
            Command::Cut => key(ctrl, Key::X),
            Command::Paste => key(ctrl, Key::V),
            // Tiled's keys for a stamp.
            Command::FlipStampFiles => key(Modifiers::NONE, Key::X),
            Command::FlipStampRanks => key(Modifiers::NONE, Key::Y),
            Command::RotateStamp => key(Modifiers::NONE, Key::Z),
            Command::Deselect => key(Modifiers::NONE, Key::Escape),
            Command::Redo => key(ctrl, Key::Y),
            Command::Set(Setting::Tool(tool)) => Some(tool.shortcut()),
            Command::CycleMirror => key(Modifiers::NONE, Key::M),
            Command::ToggleOverlay(overlay) => Some(overlay.shortcut()),
            Command::ZoomIn => key(ctrl, Key::Equals),
            Command::ZoomOut => key(ctrl, Key::Minus),
            Command::FitBoard => key(ctrl, Key::Num0),
            Command::AddLevel => key(ctrl, Key::L),
            Command::DuplicateLevel => key(ctrl, Key::D),
            Command::DeleteLevel => key(ctrl, Key::Delete),
            Command::MoveLevelUp => key(Modifiers::ALT, Key::ArrowUp),
            Command::MoveLevelDown => key(Modifiers::ALT, Key::ArrowDown),
            Command::PreviousLevel => key(Modifiers::NONE, Key::PageUp),
            Command::NextLevel => key(Modifiers::NONE, Key::PageDown),
            Command::ClearLevel => key(ctrl_shift, Key::Backspace),
            Command::TogglePlay => key(Modifiers::NONE, Key::F5),
            Command::GenerateLevel => key(ctrl, Key::G),
            Command::Set(Setting::Stage(stage)) => key(
                Modifiers::SHIFT,
                match stage {
                    Stage::Intact => Key::Num1,
                    Stage::Cracked => Key::Num2,
                    Stage::Rubble => Key::Num3,
                    Stage::Splinters => Key::Num4,
                },
            ),
            // PuzzleScript's restart: a fresh game on the layout as edited.
            Command::NewGame => key(Modifiers::NONE, Key::R),
            Command::TogglePlacing => key(Modifiers::NONE, Key::T),
            Command::Play(Action::Steal) => key(Modifiers::NONE, Key::X),
            Command::Play(Action::Pass) => key(Modifiers::NONE, Key::Space),
            Command::Arrow(dir) => key(
                Modifiers::NONE,
                match dir {
                    Dir::North => Key::ArrowUp,
                    Dir::East => Key::ArrowRight,
                    Dir::South => Key::ArrowDown,
                    Dir::West => Key::ArrowLeft,
                },
            ),
            // Recent files, levels, sizes, fields, strokes and the play
            // panel's buttons have no key.
            _ => None,
        }
    }

    /// The commands with shortcuts, in the order of the menus (and of the
    /// README's table).
    #[must_use]
    pub fn with_shortcuts() -> Vec<Command> {
        let mut all = vec![
            Command::New,
            Command::Open,
            Command::Save,
            Command::SaveAs,
            Command::ExportToml,
            Command::ExportJson,
            Command::Quit,
            Command::Undo,
            Command::Redo,
            Command::Copy,
            Command::Cut,
            Command::Paste,
            Command::FlipStampFiles,
            Command::FlipStampRanks,
            Command::RotateStamp,
            Command::Deselect,
        ];
        all.extend(Tool::ALL.map(|tool| Command::Set(Setting::Tool(tool))));
        all.extend(Stage::ALL.map(|stage| Command::Set(Setting::Stage(stage))));
        all.extend([Command::CycleMirror, Command::ClearLevel]);
        all.extend(Overlay::ALL.map(Command::ToggleOverlay));
        all.extend([Command::ZoomIn, Command::ZoomOut, Command::FitBoard]);
        all.extend([
            Command::AddLevel,
            Command::GenerateLevel,
            Command::DuplicateLevel,
            Command::DeleteLevel,
            Command::MoveLevelUp,
            Command::MoveLevelDown,
            Command::PreviousLevel,
            Command::NextLevel,
            Command::TogglePlay,
            Command::NewGame,
            Command::TogglePlacing,
            Command::Play(Action::Steal),
            Command::Play(Action::Pass),
        ]);
        all.extend(Dir::ALL.map(Command::Arrow));
        all
    }

    /// Every shortcut with its command, the most specific first: egui takes
    /// Ctrl+Shift+S for Ctrl+S when Shift is held on top, so the shortcuts
    /// with more modifiers are tried before those with fewer. This one
    /// table serves editing and play mode, the menus and the README.
    #[must_use]
    pub fn shortcut_table() -> Vec<(KeyboardShortcut, Command)> {
        let mut table: Vec<(KeyboardShortcut, Command)> = Command::with_shortcuts()
            .into_iter()
            .flat_map(|c| {
                [c.shortcut(), c.alternative_shortcut()].into_iter().flatten().map(move |s| (s, c.clone()))
            })
            .collect();
        table.sort_by_key(|(s, _)| {
            let m = s.modifiers;
            std::cmp::Reverse(u8::from(m.command) + u8::from(m.shift) + u8::from(m.alt))
        });
        table
    }
}

impl Command {
    /// The shortcut table as a Markdown table, as the README shows it: one
    /// row per key, with the command and the mode it works in.
    #[must_use]
    pub fn shortcut_markdown() -> String {
        let names = |s: Option<KeyboardShortcut>| s.map(|s| s.format(&egui::ModifierNames::NAMES, false));
        let mut out = String::from("| Keys | Command | Works in |\n|---|---|---|\n");
        for command in Command::with_shortcuts() {
            let keys: Vec<String> = [names(command.shortcut()), names(command.alternative_shortcut())]
                .into_iter()
                .flatten()
                .collect();
            let scope = match command.scope() {
                Scope::Edit => "editing",
                Scope::Play => "play",
                Scope::Both => "editing and play",
            };
            out.push_str(&format!("| {} | {} | {scope} |\n", keys.join(", "), command.label()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tool maps to its edit here, not in the view: brushes act on every
    /// cell of a stroke, one-cell tools on its first only, the rectangle on
    /// its two ends, the selection never.
    #[test]
    fn a_tool_names_its_edit() {
        let (a1, b2) = ("a1".parse().unwrap(), "b2".parse().unwrap());
        assert_eq!(Tool::Wall.edit_at(a1, true, false, Stage::Intact), Some(EditOp::Wall(a1, true)));
        assert_eq!(Tool::Wall.edit_at(a1, false, false, Stage::Intact), Some(EditOp::Wall(a1, false)));
        assert_eq!(
            Tool::Crate.edit_at(a1, true, true, Stage::Cracked),
            Some(EditOp::Crate(a1, Some(Stage::Cracked)))
        );
        assert_eq!(Tool::Crate.edit_at(a1, false, true, Stage::Cracked), Some(EditOp::Crate(a1, None)));
        assert_eq!(
            Tool::Start(Player::Two).edit_at(a1, true, true, Stage::Intact),
            Some(EditOp::Start(Player::Two, a1))
        );
        assert_eq!(Tool::Start(Player::Two).edit_at(a1, true, false, Stage::Intact), None);
        assert_eq!(Tool::Rectangle.edit_at(a1, true, true, Stage::Intact), None);
        assert_eq!(Tool::Rectangle.edit_between(a1, b2, false), Some(EditOp::Rectangle(a1, b2, false)));
        assert_eq!(Tool::Wall.edit_between(a1, b2, true), None);
        assert_eq!(Tool::Select.edit_at(a1, true, true, Stage::Intact), None);
    }

    /// The README's table is the shortcut table: change one, change both.
    #[test]
    fn the_readme_lists_every_shortcut() {
        let readme = include_str!("../../README.md");
        let table = Command::shortcut_markdown();
        assert!(
            readme.contains(&table),
            "README.md's shortcut table is out of date; it should read:\n{table}"
        );
    }

    #[test]
    fn shortcuts_are_unique_within_a_mode() {
        let all = Command::shortcut_table();
        for (i, (key, a)) in all.iter().enumerate() {
            assert!(a.shortcut().is_some(), "{a:?} has no shortcut");
            for (other, b) in &all[i + 1..] {
                let overlap = [false, true].iter().any(|&p| a.scope().covers(p) && b.scope().covers(p));
                assert!(!(overlap && key == other), "{a:?} and {b:?} share a key");
            }
        }
    }
}
