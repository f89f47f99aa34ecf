//! The document: the pack being edited, where it lives, and its history.
//! Undo keeps whole snapshots: a pack is small, and one drag stroke is one
//! step.

use std::path::PathBuf;

use crate::level::edit::EditOp;
use crate::level::{Level, Pack};
use crate::rules::Symmetry;

#[derive(Clone, Debug)]
struct Snapshot {
    pack: Pack,
    current: usize,
    revision: u64,
    /// What the step from this state did (the undo history's entry).
    label: String,
}

/// The pack being edited.
#[derive(Clone, Debug)]
pub struct Document {
    /// The pack.
    pack: Pack,
    /// Where it is saved; `None` for a new pack or the bundled pack's copy.
    path: Option<PathBuf>,
    /// The text it was read from, so that saving keeps its comments.
    source: Option<String>,
    /// The index of the level being edited.
    current: usize,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    revision: u64,
    saved_revision: u64,
    in_stroke: bool,
    /// Whether the current stroke has made its undo step.
    stroke_mark: bool,
    /// The text field whose typing merges into one undo step.
    typing: Option<&'static str>,
    /// What the next undo step will be called in the history.
    next_label: String,
}

/// A number no earlier call of this run returned: a revision no document
/// has had (so anything cached by revision, findings or the recovery file,
/// can never mistake one document, or one state of it, for another), or a
/// dialog's identity.
pub(super) fn fresh_revision() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Steps of undo kept.
const UNDO_LIMIT: usize = 500;

impl Document {
    /// A document for `pack`, saved at `path` (with its `source` text) or
    /// not saved yet.
    #[must_use]
    pub fn new(pack: Pack, path: Option<PathBuf>, source: Option<String>) -> Document {
        let revision = fresh_revision();
        Document {
            pack,
            path,
            source,
            current: 0,
            undo: Vec::new(),
            redo: Vec::new(),
            revision,
            saved_revision: revision,
            in_stroke: false,
            stroke_mark: false,
            typing: None,
            next_label: String::new(),
        }
    }

    /// The pack.
    #[must_use]
    pub fn pack(&self) -> &Pack {
        &self.pack
    }

    /// Where it is saved; `None` for a new pack or the bundled pack's copy.
    #[must_use]
    pub fn path(&self) -> Option<&std::path::Path> {
        self.path.as_deref()
    }

    /// The text it was read from, so that saving keeps its comments.
    #[must_use]
    pub fn source(&self) -> Option<&str> {
        self.source.as_deref()
    }

    /// The index of the level being edited.
    #[must_use]
    pub fn current(&self) -> usize {
        self.current
    }

    /// Whether there are changes since the last save (or since it was
    /// opened). A new document that was never saved counts as changed once
    /// it is edited.
    #[must_use]
    pub fn is_dirty(&self) -> bool {
        self.revision != self.saved_revision
    }

    /// The level being edited.
    #[must_use]
    pub fn level(&self) -> Option<&Level> {
        self.pack.levels.get(self.current)
    }

    /// The file name for titles: the path's name, or "untitled".
    #[must_use]
    pub fn title(&self) -> String {
        self.path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or_else(|| "untitled".to_owned(), |n| n.to_string_lossy().into_owned())
    }

    fn snapshot(&self, label: String) -> Snapshot {
        Snapshot { pack: self.pack.clone(), current: self.current, revision: self.revision, label }
    }

    /// Names the next undo step, as the undo history lists it.
    pub fn label_next(&mut self, label: impl Into<String>) {
        self.next_label = label.into();
    }

    /// The undo history: the steps done, oldest first, and the steps undone
    /// that redo would bring back, the next first.
    #[must_use]
    pub fn history(&self) -> (Vec<&str>, Vec<&str>) {
        (
            self.undo.iter().map(|s| s.label.as_str()).collect(),
            self.redo.iter().rev().map(|s| s.label.as_str()).collect(),
        )
    }

    /// Undoes or redoes until `done` steps are done (the undo history's
    /// click).
    pub fn go_to(&mut self, done: usize) {
        while self.undo.len() > done && self.can_undo() {
            self.undo();
        }
        while self.undo.len() < done && self.can_redo() {
            self.redo();
        }
    }

    fn checkpoint(&mut self) {
        self.typing = None;
        let label = std::mem::take(&mut self.next_label);
        self.undo.push(self.snapshot(if label.is_empty() { "Edit".to_owned() } else { label }));
        if self.undo.len() > UNDO_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Every change gets a revision of its own, within a stroke or typing
    /// too, so that anything derived from the pack can tell it changed.
    fn bump(&mut self) {
        self.revision = fresh_revision();
    }

    /// Changes the pack as one undo step.
    pub fn edit(&mut self, change: impl FnOnce(&mut Pack, &mut usize)) {
        self.checkpoint();
        self.bump();
        change(&mut self.pack, &mut self.current);
        self.current = self.current.min(self.pack.levels.len().saturating_sub(1));
    }

    /// Changes the pack from a text field: consecutive changes of the same
    /// field are one undo step.
    pub fn edit_text(&mut self, field: &'static str, change: impl FnOnce(&mut Pack, usize)) {
        if self.typing != Some(field) {
            self.checkpoint();
            self.typing = Some(field);
        }
        self.bump();
        change(&mut self.pack, self.current);
    }

    /// Ends the merging of typing into one undo step.
    pub fn stop_typing(&mut self) {
        self.typing = None;
    }

    /// A number that changes with every edit, undo and redo, unique to
    /// this document's state within the run.
    #[must_use]
    pub const fn revision(&self) -> u64 {
        self.revision
    }

    /// Marks the document as changed since its last save (recovered work).
    pub fn mark_unsaved(&mut self) {
        self.saved_revision = u64::MAX;
    }

    /// Applies a tool's edit to the current level. Within a stroke, only the
    /// first edit makes an undo step.
    pub fn apply(&mut self, op: EditOp, mirror: Option<Symmetry>) {
        let Some(level) = self.pack.levels.get(self.current) else { return };
        let mut changed = level.clone();
        changed.apply(op, mirror);
        if &changed == level {
            return;
        }
        if !(self.in_stroke && self.stroke_mark) {
            self.checkpoint();
            self.stroke_mark = self.in_stroke;
        }
        self.bump();
        self.pack.levels[self.current] = changed;
    }

    /// Starts a drag stroke: its edits undo as one step.
    pub fn begin_stroke(&mut self) {
        self.in_stroke = true;
        self.stroke_mark = false;
    }

    /// Ends a drag stroke.
    pub fn end_stroke(&mut self) {
        self.in_stroke = false;
        self.stroke_mark = false;
    }

    /// Whether there is something to undo.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is something to redo.
    #[must_use]
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Undoes the last step.
    pub fn undo(&mut self) {
        if let Some(previous) = self.undo.pop() {
            let now = self.snapshot(previous.label.clone());
            self.redo.push(now);
            self.restore(previous);
        }
    }

    /// Redoes the last undone step.
    pub fn redo(&mut self) {
        if let Some(next) = self.redo.pop() {
            let now = self.snapshot(next.label.clone());
            self.undo.push(now);
            self.restore(next);
        }
    }

    fn restore(&mut self, snapshot: Snapshot) {
        self.pack = snapshot.pack;
        self.current = snapshot.current.min(self.pack.levels.len().saturating_sub(1));
        self.revision = snapshot.revision;
        self.typing = None;
        self.end_stroke();
    }

    /// Records that the pack was saved at `path` as `text`.
    pub fn mark_saved(&mut self, path: PathBuf, text: String) {
        self.path = Some(path);
        self.source = Some(text);
        self.saved_revision = self.revision;
    }

    /// Selects a level by index, if it exists. Not an edit.
    pub fn select(&mut self, index: usize) {
        if index < self.pack.levels.len() {
            self.current = index;
        }
    }
}
