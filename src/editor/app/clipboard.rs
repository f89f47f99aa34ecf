//! The selection and the clipboard: select, copy, cut, paste and turn the copy.

use super::EditorApp;
use crate::editor::command::Command;

impl EditorApp {
    /// Runs a command of this area ([`EditorApp::apply`] has checked it).
    pub(super) fn apply_clipboard(&mut self, command: Command, ctx: &egui::Context) {
        match command {
            Command::Select(selection) => {
                self.selection = selection;
                self.pasting = false;
            }
            Command::Copy => self.copy(false, ctx),
            Command::Cut => self.copy(true, ctx),
            Command::Paste => {
                self.pasting = true;
                self.say(
                    "Pasting: click where the region's top-left corner goes (Esc or a right click stops).",
                );
            }
            Command::FlipStampFiles | Command::FlipStampRanks | Command::RotateStamp => {
                let Some(region) = self.clipboard.take() else { return };
                let (region, done) = match command {
                    Command::FlipStampFiles => (region.flipped_files(), "flipped left to right"),
                    Command::FlipStampRanks => (region.flipped_ranks(), "flipped top to bottom"),
                    _ => (region.rotated(), "turned a quarter clockwise"),
                };
                self.say(format!(
                    "The copy is {done} ({} × {}): click where its top-left corner goes.",
                    region.width, region.height
                ));
                self.clipboard = Some(region);
                self.pasting = true;
            }
            Command::PasteAt(at) => {
                let Some(region) = self.clipboard.clone() else { return };
                let mut changed = 0;
                self.doc.edit(|pack, current| changed = pack.levels[*current].paste_region(&region, at));
                self.selected_finding = None;
                self.say(format!(
                    "Pasted at {at}: {changed} cell(s) changed (start squares and the flag keep their floor). Click again to paste another copy."
                ));
            }
            Command::Deselect => {
                if self.pasting {
                    self.pasting = false;
                    self.say("Pasting stopped.");
                } else {
                    self.selection = None;
                }
            }
            // `apply` sends each area only its own commands.
            _ => {}
        }
    }

    /// Copies the selected region; a cut then clears it to floor, as one
    /// undo step. The system clipboard gets the region as map rows, so that
    /// it holds text and the desktop sends the next Ctrl+V to the editor
    /// (with an empty clipboard it sends nothing), and so that the rows can
    /// be pasted into a text editor.
    pub(super) fn copy(&mut self, cut: bool, ctx: &egui::Context) {
        let (Some((a, b)), Some(level)) = (self.selection, self.doc.level()) else { return };
        let region = level.copy_region(a, b);
        ctx.copy_text(region.text());
        let (walls, crates) = region.counts();
        let what =
            format!("a {} × {} region ({walls} wall(s), {crates} crate(s))", region.width, region.height);
        self.clipboard = Some(region);
        if cut {
            self.doc.edit(|pack, current| {
                pack.levels[*current].clear_region(a, b);
            });
            self.selected_finding = None;
            self.say(format!("Cut {what}; Ctrl+V pastes it here or in another level."));
        } else {
            self.say(format!("Copied {what}; Ctrl+V pastes it here or in another level."));
        }
    }
}
