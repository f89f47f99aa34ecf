//! The file commands: new, open, save, export, quit, and a dialog's answer.

use std::path::{Path, PathBuf};

use super::EditorApp;
use crate::editor::command::Command;
use crate::editor::dialog::{FileTask, Modal, Then};
use crate::editor::storage::{save_pack, write_atomic};
use crate::level::format::write_pack;

impl EditorApp {
    /// Runs a command of this area ([`EditorApp::apply`] has checked it).
    pub(super) fn apply_files(&mut self, command: Command, ctx: &egui::Context) {
        match command {
            Command::New => self.after_unsaved(Then::New, ctx),
            Command::Open => self.after_unsaved(Then::Open(None), ctx),
            Command::OpenRecent(path) => self.after_unsaved(Then::Open(Some(path)), ctx),
            Command::OpenBundled(which) => self.after_unsaved(Then::OpenBundled(which), ctx),
            Command::Quit => self.after_unsaved(Then::Quit, ctx),
            // A save reports its own outcome; whether it saved matters only
            // to a caller that goes on after it (quitting, opening).
            Command::Save => {
                self.save(false);
            }
            Command::SaveAs => {
                self.save(true);
            }
            Command::ExportToml => self.export(false),
            Command::ExportJson => self.export(true),
            Command::Dialog(answer) => self.answer(answer, ctx),
            // `apply` sends each area only its own commands.
            _ => {}
        }
    }

    /// Saves the pack (asking where when it has no file, or when `ask`).
    /// Returns whether it was saved.
    pub(super) fn save(&mut self, ask: bool) -> bool {
        let path = match (self.doc.path(), ask) {
            (Some(path), false) => path.to_path_buf(),
            _ => match self.pick_save(FileTask::SaveAs) {
                Some(path) => path,
                None => return false,
            },
        };
        self.save_to(path)
    }

    /// Saves the pack to `path`. Returns whether it was saved.
    pub(super) fn save_to(&mut self, path: PathBuf) -> bool {
        // Comments and order are kept when saving over the file they came
        // from, and when saving a bundled pack's copy (which has no file,
        // only the text the binary holds).
        let source = match self.doc.path() {
            Some(from) if from != path => None,
            _ => self.doc.source(),
        };
        match save_pack(&path, self.doc.pack(), source) {
            Ok(text) => {
                self.say(format!("Saved {}.", path.display()));
                self.prefs.remember(&path);
                self.doc.mark_saved(path, text);
                self.clear_recovery();
                self.save_prefs();
                true
            }
            Err(e) => {
                self.modal = Some(Modal::Error(crate::diagnostics::error_text(&e)));
                false
            }
        }
    }

    pub(super) fn export(&mut self, json: bool) {
        let task = if json { FileTask::ExportJson } else { FileTask::ExportToml };
        if let Some(path) = self.pick_save(task) {
            self.export_to(&path, json);
        }
    }

    pub(super) fn export_to(&mut self, path: &Path, json: bool) {
        let text = if json {
            crate::level::write_pack_json(self.doc.pack()).map_err(anyhow::Error::from)
        } else {
            Ok(write_pack(self.doc.pack()))
        };
        match text.and_then(|t| write_atomic(path, &t)) {
            Ok(()) => self.say(format!("Exported {}.", path.display())),
            Err(e) => self.modal = Some(Modal::Error(crate::diagnostics::error_text(&e))),
        }
    }
}
