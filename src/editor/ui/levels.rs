//! The level list and the pack's own fields and rules.

use egui::{Color32, RichText, ScrollArea, Sense, Ui};

use super::view::View;
use super::view::severity_color;
use crate::analysis::Severity;
use crate::editor::board::paint_thumbnail;
use crate::editor::command::{Command, FormField};
use crate::rules::{JumpRule, RuleOption, Rules};

impl View<'_> {
    fn level_status(&mut self, index: usize) -> Severity {
        let app = self.app;
        let Some(level) = app.doc().pack().levels.get(index).cloned() else { return Severity::Note };
        let problems = app.pack_problems();
        let mine = problems.iter().filter(|p| p.field.level() == Some(index));
        let mut worst = mine.map(|p| p.severity()).min().unwrap_or(Severity::Note);
        if let Some(report) = app.analyses().report(&level) {
            for f in &report.findings {
                worst = worst.min(f.severity);
            }
        }
        worst
    }

    /// The level list, its buttons, and the pack's fields.
    pub(super) fn levels_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        ui.heading("Levels");
        // Two rows by design, whatever the panel's width: what a level is,
        // then where it goes.
        for row in [
            &[
                (Command::AddLevel, "Add"),
                (Command::DuplicateLevel, "Duplicate"),
                (Command::DeleteLevel, "Delete"),
            ][..],
            &[(Command::MoveLevelUp, "Move up"), (Command::MoveLevelDown, "Move down")][..],
        ] {
            ui.horizontal(|ui| {
                for (command, text) in row {
                    self.command_button_compact(ui, command.clone(), text);
                }
            });
        }
        ui.separator();
        ScrollArea::vertical().id_salt("level-list").max_height(ui.available_height() * 0.7).show(ui, |ui| {
            // Each row's rectangle, and the row dragged by its name, if
            // any: dropping it between two rows moves the level there.
            let mut rows: Vec<egui::Rect> = Vec::new();
            let mut dragged: Option<(usize, bool)> = None;
            for i in 0..app.doc().pack().levels.len() {
                let status = self.level_status(i);
                let (meaning, color) = match status {
                    Severity::Error => ("has errors", severity_color(Severity::Error)),
                    Severity::Warning => ("has warnings", severity_color(Severity::Warning)),
                    Severity::Note => ("is valid", Color32::from_rgb(40, 150, 60)),
                };
                let level = &app.doc().pack().levels[i];
                let text = format!("{} · {}", level.id, level.name);
                let row = ui.horizontal(|ui| {
                    // A painted mark: no glyph a font might lack.
                    let (rect, mark) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), Sense::hover());
                    ui.painter().circle_filled(rect.center(), 5.0, color);
                    mark.on_hover_text(format!("The level {meaning}"));
                    // The layout at a glance, as Tiled and LDtk show their maps.
                    let (rect, thumb) = ui.allocate_exact_size(egui::vec2(24.0, 24.0), Sense::click());
                    paint_thumbnail(ui.painter(), rect, level);
                    let name = format!("Thumbnail of {}", level.id);
                    thumb.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
                    if thumb.on_hover_text(format!("{} × {}", level.width, level.height)).clicked() {
                        self.command(Command::SelectLevel(i));
                    }
                    // Long names are cut short to the panel's width, whole on
                    // hover; dragged by its name, the level moves in the list.
                    let button = egui::Button::selectable(i == app.doc().current(), text.as_str())
                        .wrap_mode(egui::TextWrapMode::Truncate)
                        .sense(Sense::click_and_drag());
                    let response =
                        ui.add(button).on_hover_text(format!("{text}\nDrag to move it in the list."));
                    if response.clicked() {
                        self.command(Command::SelectLevel(i));
                    }
                    if response.dragged() {
                        dragged = Some((i, false));
                    } else if response.drag_stopped() {
                        dragged = Some((i, true));
                    }
                });
                rows.push(row.response.rect);
            }
            if let Some((from, dropped)) = dragged
                && let Some(pointer) = ui.ctx().pointer_latest_pos()
            {
                // The gap the pointer is nearest: before row `gap`.
                let gap = rows.iter().position(|r| pointer.y < r.center().y).unwrap_or(rows.len());
                let to = if gap > from { gap - 1 } else { gap };
                if dropped {
                    if to != from {
                        self.command(Command::MoveLevel { from, to });
                    }
                } else if let (Some(first), Some(last)) = (rows.first(), rows.last()) {
                    let y = rows.get(gap).map_or(last.bottom(), |r| r.top());
                    let line = egui::Stroke::new(2.0, ui.visuals().selection.stroke.color);
                    ui.painter().hline(first.left()..=first.right(), y, line);
                }
            }
        });
        // The legend of the status marks.
        ui.horizontal_wrapped(|ui| {
            for (color, meaning) in [
                (Color32::from_rgb(40, 150, 60), "valid"),
                (severity_color(Severity::Warning), "warnings"),
                (severity_color(Severity::Error), "errors"),
            ] {
                let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), Sense::hover());
                ui.painter().circle_filled(rect.center(), 4.0, color);
                ui.label(meaning);
            }
        });
        ui.separator();
        egui::CollapsingHeader::new("Pack and rules").default_open(false).show(ui, |ui| self.pack_ui(ui));
    }

    fn pack_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        let mut name = app.doc().pack().name.clone();
        let label = ui.label("Name");
        if ui.text_edit_singleline(&mut name).labelled_by(label.id).changed() {
            self.command(Command::SetField(FormField::PackName(name)));
        }
        let mut author = app.doc().pack().author.clone().unwrap_or_default();
        let label = ui.label("Author");
        if ui.text_edit_singleline(&mut author).labelled_by(label.id).changed() {
            self.command(Command::SetField(FormField::PackAuthor(author)));
        }
        let mut description = app.doc().pack().description.clone().unwrap_or_default();
        let label = ui.label("Description");
        if ui.text_edit_multiline(&mut description).labelled_by(label.id).changed() {
            self.command(Command::SetField(FormField::PackDescription(description)));
        }
        ui.separator();
        ui.label(RichText::new("Rules").strong());
        let defaults = Rules::default();
        // Each option's name above its value and default: the names are
        // long, and three columns would cut the defaults off at the panel's
        // usual width.
        for option in RuleOption::ALL {
            let label = ui.label(option.key());
            ui.horizontal(|ui| {
                if option == RuleOption::Jump {
                    let mut jump = app.doc().pack().rules.jump;
                    let combo =
                        egui::ComboBox::from_id_salt("jump").selected_text(jump.name()).show_ui(ui, |ui| {
                            for j in JumpRule::ALL {
                                ui.selectable_value(&mut jump, j, j.name());
                            }
                        });
                    let _ = combo.response.labelled_by(label.id);
                    if jump != app.doc().pack().rules.jump {
                        self.command(Command::SetField(FormField::Jump(jump)));
                    }
                    ui.label(format!("default {}", defaults.jump));
                } else {
                    let (lo, hi) = option.range().unwrap_or((0, 0));
                    let mut value = app.doc().pack().rules.number(option);
                    if ui.add(egui::DragValue::new(&mut value).range(lo..=hi)).labelled_by(label.id).changed()
                    {
                        self.command(Command::SetField(FormField::Rule(option, value)));
                    }
                    ui.label(format!("default {}", defaults.number(option)));
                }
            });
        }
    }
}
