//! The level list: add, copy, delete, move and choose levels, and generate one.

use super::EditorApp;
use crate::editor::command::Command;
use crate::editor::dialog::Modal;
use crate::level::Level;

impl EditorApp {
    /// Runs a command of this area ([`EditorApp::apply`] has checked it).
    pub(super) fn apply_levels(&mut self, command: Command, ctx: &egui::Context) {
        match command {
            Command::AddLevel => {
                let id = self.fresh_id("level");
                self.doc.edit(|pack, current| {
                    let at = (*current + 1).min(pack.levels.len());
                    let mut level = Level::new(id, 9, 9);
                    level.name = "New level".into();
                    pack.levels.insert(at, level);
                    *current = at;
                });
                self.selected_finding = None;
            }
            Command::DuplicateLevel => {
                let Some(level) = self.doc.level().cloned() else { return };
                let id = self.fresh_id(&level.id);
                self.doc.edit(|pack, current| {
                    let mut copy = level;
                    copy.id = id;
                    copy.name = format!("{} (copy)", copy.name);
                    pack.levels.insert(*current + 1, copy);
                    *current += 1;
                });
            }
            Command::DeleteLevel => {
                self.doc.edit(|pack, current| {
                    pack.levels.remove(*current);
                    *current = current.saturating_sub(usize::from(*current >= pack.levels.len()));
                });
                self.say("Level deleted (Undo brings it back).");
                self.selected_finding = None;
            }
            Command::MoveLevelUp => self.doc.edit(|pack, current| {
                pack.levels.swap(*current, *current - 1);
                *current -= 1;
            }),
            Command::MoveLevelDown => self.doc.edit(|pack, current| {
                pack.levels.swap(*current, *current + 1);
                *current += 1;
            }),
            Command::MoveLevel { from, to } => {
                let levels = self.doc.pack().levels.len();
                if from >= levels || to >= levels || from == to {
                    return;
                }
                self.doc.edit(|pack, current| {
                    let level = pack.levels.remove(from);
                    pack.levels.insert(to, level);
                    // The level being edited stays the one being edited.
                    *current = if *current == from {
                        to
                    } else if from < *current && *current <= to {
                        *current - 1
                    } else if to <= *current && *current < from {
                        *current + 1
                    } else {
                        *current
                    };
                });
                self.say(format!("Moved the level to place {} of {levels}.", to + 1));
            }
            Command::SelectLevel(i) => {
                self.doc.select(i);
                self.selection = None;
                self.pasting = false;
                self.doc.stop_typing();
                self.selected_finding = None;
                if self.playing {
                    // Play goes on with the newly chosen level.
                    self.playing = false;
                    self.toggle_play();
                }
            }
            Command::GenerateLevel => self.modal = Some(Modal::Generate(self.generate_form.clone())),
            Command::PreviousLevel => self.apply(Command::SelectLevel(self.doc.current() - 1), ctx),
            Command::NextLevel => self.apply(Command::SelectLevel(self.doc.current() + 1), ctx),
            Command::StopGenerating => {
                if let Some(job) = &self.generating {
                    job.cancel();
                }
            }
            // `apply` sends each area only its own commands.
            _ => {}
        }
    }

    pub(super) fn fresh_id(&self, base: &str) -> String {
        let base: String =
            base.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
        let base = if base.is_empty() { "level".to_owned() } else { base };
        (2..).map(|n| format!("{base}-{n}")).find(|id| self.doc.pack().level(id).is_none()).unwrap_or(base)
    }
}
