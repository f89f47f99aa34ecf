//! The dialogs over the editor and what their buttons answer: plain data,
//! read by the views and changed only by the command `Command::Dialog`.

use std::path::PathBuf;

use super::storage::Recovery;

/// What to do once unsaved changes are dealt with.
#[derive(Clone, PartialEq, Debug)]
pub enum Then {
    /// Start a new pack.
    New,
    /// Open a file (ask which when `None`).
    Open(Option<PathBuf>),
    /// Open a bundled pack as an unsaved copy.
    OpenBundled(Bundled),
    /// Close the editor.
    Quit,
}

/// A dialog over the editor.
#[derive(Clone, PartialEq, Debug)]
pub enum Modal {
    /// "Save changes?" before `Then`.
    Unsaved(Then),
    /// A file was not opened: its diagnostics, drawn as `pushcrate check`
    /// draws them, with line, column and the source line.
    Problems {
        /// The file.
        file: String,
        /// Every problem, as `pushcrate check` prints them.
        text: String,
        /// A number of its own for each time it is shown, so that the
        /// dialog always opens at the top left, whatever it was scrolled to
        /// before.
        shown: u64,
    },
    /// Unsaved work from a run that did not end cleanly.
    Recover(Recovery),
    /// Something failed.
    Error(String),
    /// The level generator's options.
    Generate(GenerateForm),
    /// A path typed in, where no file dialog can be shown.
    AskPath {
        /// What the path is for.
        task: FileTask,
        /// The path so far.
        path: String,
    },
}

/// What a chosen file is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FileTask {
    /// Open a pack.
    Open,
    /// Save the pack.
    SaveAs,
    /// Export the pack as TOML.
    ExportToml,
    /// Export the pack as JSON.
    ExportJson,
    /// Save the game record.
    SaveRecord,
    /// Open a game record.
    OpenRecord,
}

impl FileTask {
    /// The dialog's title.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            FileTask::Open => "Open a pack",
            FileTask::SaveAs => "Save the pack as",
            FileTask::ExportToml => "Export the pack as TOML",
            FileTask::ExportJson => "Export the pack as JSON",
            FileTask::SaveRecord => "Save the game as",
            FileTask::OpenRecord => "Open a game record",
        }
    }
}

/// The options of the "Generate level" dialog, as `pushcrate generate`.
#[derive(Clone, PartialEq, Debug)]
pub struct GenerateForm {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// The style.
    pub style: crate::generate::Style,
    /// The symmetry.
    pub symmetry: Option<crate::rules::Symmetry>,
    /// The seed.
    pub seed: u64,
    /// Balance by self-play.
    pub balanced: bool,
    /// With `balanced`, only levels settled clear of the band's edges.
    pub clear_of_edges: bool,
}

impl Default for GenerateForm {
    fn default() -> GenerateForm {
        GenerateForm {
            width: 9,
            height: 9,
            style: crate::generate::Style::Open,
            symmetry: Some(crate::rules::Symmetry::HalfTurn),
            seed: 1,
            balanced: false,
            clear_of_edges: false,
        }
    }
}

/// A choice made in a dialog: each closes it or changes what it shows.
#[derive(Clone, PartialEq, Debug)]
pub enum Answer {
    /// "Save" in "Save changes?": save, then go on when it was saved.
    SaveThen(Then),
    /// "Don't save": go on, the changes given up.
    Proceed(Then),
    /// Close the dialog, doing nothing (Cancel, Close).
    Dismiss,
    /// Recover the unsaved work of the last run.
    Recover,
    /// Give up the unsaved work of the last run.
    DiscardRecovery,
    /// Generate a level with these options.
    Generate(GenerateForm),
    /// Carry out a file task on a typed-in path.
    FileTask(FileTask, PathBuf),
    /// The dialog as edited (a typed path, the generator's options).
    Edit(Modal),
}

/// A pack built into the binary.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Bundled {
    /// The showcase, `mazes/default.toml`.
    Default,
    /// The flawed levels, `mazes/flawed.toml`.
    Flawed,
}

impl Bundled {
    /// The pack.
    #[must_use]
    pub fn pack(self) -> crate::level::Pack {
        match self {
            Bundled::Default => crate::level::Pack::bundled(),
            Bundled::Flawed => crate::level::Pack::bundled_flawed(),
        }
    }

    /// The pack's text, as the binary holds it: a copy saved from it keeps
    /// its comments and order, as a file opened from disk does.
    #[must_use]
    pub const fn text(self) -> &'static str {
        match self {
            Bundled::Default => crate::level::DEFAULT_PACK_TOML,
            Bundled::Flawed => crate::level::FLAWED_PACK_TOML,
        }
    }
}
