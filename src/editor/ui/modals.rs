//! The dialogs over the editor.

use egui::{Button, RichText, ScrollArea};

use super::view::View;
use crate::editor::command::Command;
use crate::editor::dialog::{Answer, Modal};
use crate::rules::{MAX_SIDE, MIN_SIDE};

impl View<'_> {
    pub(super) fn modal_ui(&mut self, ctx: &egui::Context) {
        let app = self.app;
        let Some(modal) = app.modal().cloned() else {
            self.local.modal_size = None;
            self.local.modal_kind = None;
            return;
        };
        // The first frame of a dialog (or of another one in its place).
        let kind = std::mem::discriminant(&modal);
        let opening = self.local.modal_kind.replace(kind) != Some(kind);
        // Escape is Cancel or Close, read before a text field takes it;
        // the question of recovering lost work wants an answer.
        let escape = !matches!(modal, Modal::Recover(_)) && ctx.input(|i| i.key_pressed(egui::Key::Escape));
        let mut answers = Vec::new();
        let shown = egui::Modal::new(egui::Id::unique("pushcrate-modal")).show(ctx, |ui| {
            ui.set_max_width(520.0);
            match modal {
                Modal::Unsaved(then) => {
                    ui.heading("Save changes?");
                    ui.label(format!("{} has changes that are not saved.", app.doc().title()));
                    ui.horizontal(|ui| {
                        if ui.button("Save").clicked() {
                            answers.push(Answer::SaveThen(then.clone()));
                        }
                        if ui.button("Don't save").clicked() {
                            answers.push(Answer::Proceed(then.clone()));
                        }
                        if ui.button("Cancel").clicked() {
                            answers.push(Answer::Dismiss);
                        }
                    });
                }
                Modal::Problems { file, text, shown } => {
                    ui.heading("This file was not opened");
                    ui.label(format!(
                        "{file} cannot be read whole, and editing it would lose what could not be read. \
                         Nothing was changed. Fix these problems in a text editor (`pushcrate check` lists them too):"
                    ));
                    // Opened at the top left, each time, with both scroll
                    // bars in view: every diagnostic starts at its code and
                    // place, at the left edge.
                    ScrollArea::both()
                        .id_salt(("problems", shown))
                        .max_height(360.0)
                        .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                        .show(ui, |ui| {
                            ui.add(egui::Label::new(RichText::new(&text).monospace()).extend());
                        });
                    if ui.button("Close").clicked() {
                        answers.push(Answer::Dismiss);
                    }
                }
                Modal::Recover(recovery) => {
                    ui.heading("Recover unsaved work?");
                    let from = recovery
                        .path
                        .as_ref()
                        .map_or_else(|| "an unsaved pack".to_owned(), |p| p.display().to_string());
                    ui.label(format!(
                        "The editor did not close cleanly last time. Unsaved work on {from} was kept."
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Recover").clicked() {
                            answers.push(Answer::Recover);
                        }
                        if ui.button("Discard").clicked() {
                            answers.push(Answer::DiscardRecovery);
                        }
                    });
                }
                Modal::Generate(form) => generate_ui(ui, app, form, &mut answers),
                Modal::AskPath { task, path } => ask_path_ui(ui, app, (task, path), opening, &mut answers),
                Modal::Error(message) => {
                    ui.heading("Something went wrong");
                    ui.label(message);
                    if ui.button("Close").clicked() {
                        answers.push(Answer::Dismiss);
                    }
                }
            }
        });
        // A dialog sizes itself from what it held the frame before: until
        // its size settles, draw it again, so that it never waits, cramped,
        // for the pointer to move.
        let size = shown.response.rect.size();
        if self.local.modal_size != Some(size) {
            self.local.modal_size = Some(size);
            ctx.request_repaint();
        }
        if escape {
            answers.push(Answer::Dismiss);
        }
        for answer in answers {
            self.command(Command::Dialog(answer));
        }
    }
}

/// The characters of `path`'s file name without its extension, as a
/// start and end in characters: what a Save dialog selects. A path that
/// ends in a folder (or is empty) selects nothing, the cursor at its end.
fn name_span(path: &str) -> (usize, usize) {
    let name_at = path.rfind(['/', '\\']).map_or(0, |i| i + 1);
    let name = &path[name_at..];
    let stem = name.rfind('.').filter(|&i| i > 0).map_or(name, |i| &name[..i]);
    let start = path[..name_at].chars().count();
    if stem.is_empty() {
        let chars = path.chars().count();
        (chars, chars)
    } else {
        (start, start + stem.chars().count())
    }
}

/// The generator's form: size, style, symmetry, seed and balance; an
/// edit of the form is an answer, so that the form lives in the app.
fn generate_ui(
    ui: &mut egui::Ui,
    app: &crate::editor::EditorApp,
    mut form: crate::editor::GenerateForm,
    answers: &mut Vec<Answer>,
) {
    use crate::generate::Style;
    use crate::rules::Symmetry;
    ui.heading("Generate a level");
    egui::Grid::new("generate").num_columns(2).show(ui, |ui| {
        let label = ui.label("Size");
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut form.width).range(MIN_SIDE..=MAX_SIDE).prefix("files "))
                .labelled_by(label.id);
            ui.add(egui::DragValue::new(&mut form.height).range(MIN_SIDE..=MAX_SIDE).prefix("ranks "))
                .labelled_by(label.id);
        });
        ui.end_row();
        ui.label("Style");
        ui.horizontal(|ui| {
            for style in Style::ALL {
                ui.radio_value(&mut form.style, style, style.to_string());
            }
        });
        ui.end_row();
        ui.label("Symmetry");
        ui.horizontal(|ui| {
            for (symmetry, name) in [
                (Some(Symmetry::HalfTurn), "half turn"),
                (Some(Symmetry::MirrorRanks), "mirror"),
                (None, "none"),
            ] {
                ui.radio_value(&mut form.symmetry, symmetry, name);
            }
        });
        ui.end_row();
        let label = ui.label("Seed");
        ui.add(egui::DragValue::new(&mut form.seed)).labelled_by(label.id);
        ui.end_row();
        ui.label("");
        ui.checkbox(
            &mut form.balanced,
            "Balanced (the balance check calls it balanced under expert and deep: a minute or two)",
        );
        ui.end_row();
        ui.label("");
        ui.add_enabled(
            form.balanced,
            egui::Checkbox::new(
                &mut form.clear_of_edges,
                "Clear of the band's edges (no pairing within 5 points of 40% or 60%: slower)",
            ),
        );
        ui.end_row();
    });
    if Some(&Modal::Generate(form.clone())) != app.modal() {
        answers.push(Answer::Edit(Modal::Generate(form.clone())));
    }
    ui.horizontal(|ui| {
        if ui.button("Generate").clicked() {
            answers.push(Answer::Generate(form.clone()));
        }
        if ui.button("Cancel").clicked() {
            answers.push(Answer::Dismiss);
        }
    });
}

/// The path asked for where no file dialog can be shown: typing goes to
/// the file's name at once.
fn ask_path_ui(
    ui: &mut egui::Ui,
    app: &crate::editor::EditorApp,
    (task, mut path): (crate::editor::FileTask, String),
    opening: bool,
    answers: &mut Vec<Answer>,
) {
    ui.heading(task.title());
    ui.label(format!(
        "No file dialog can be shown here ({}): type the file's path.",
        app.dialogs_unavailable_because()
    ));
    let label = ui.label("Path");
    let output = egui::TextEdit::singleline(&mut path).desired_width(460.0).show(ui);
    let field = egui::Response::clone(&output.response).labelled_by(label.id);
    // Typing goes to the path at once, with no click first:
    // the field takes the keyboard as the dialog opens, the
    // file's name selected (as a desktop's Save dialog
    // does), so that what is typed replaces the name and
    // keeps its folder and extension.
    if opening {
        field.request_focus();
        let mut state = output.state;
        let (start, end) = name_span(&path);
        state.cursor.set_char_range(Some(egui::text::CCursorRange::two(
            egui::text::CCursor::new(start),
            egui::text::CCursor::new(end),
        )));
        state.store(ui.ctx(), field.id);
    }
    let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    let edited = Modal::AskPath { task, path: path.clone() };
    if Some(&edited) != app.modal() {
        answers.push(Answer::Edit(edited));
    }
    ui.horizontal(|ui| {
        let ok = ui.add_enabled(!path.trim().is_empty(), Button::new("OK")).clicked();
        if (ok || enter) && !path.trim().is_empty() {
            answers.push(Answer::FileTask(task, std::path::PathBuf::from(path.trim())));
        }
        if ui.button("Cancel").clicked() {
            answers.push(Answer::Dismiss);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::name_span;

    #[test]
    fn the_name_without_its_folder_and_extension_is_selected() {
        assert_eq!(name_span("levels/flawed.toml"), (7, 13));
        assert_eq!(name_span("flawed-levels.toml"), (0, 13));
        assert_eq!(name_span("pack"), (0, 4));
        assert_eq!(name_span("levels/"), (7, 7));
        assert_eq!(name_span(""), (0, 0));
        assert_eq!(name_span("é/ü.toml"), (2, 3));
        assert_eq!(name_span("a/.hidden"), (2, 9));
    }
}
