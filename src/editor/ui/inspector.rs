//! The inspector: the current level's fields and its findings.

use egui::{Button, Color32, RichText, Ui};

use super::severity_color;
use crate::analysis::{FindingCode, Severity, Witness};
use crate::editor::app::EditorApp;
use crate::editor::command::{Command, FormField};
use crate::rules::{Bitboard, Cell, MAX_SIDE, MIN_SIDE, Player};

/// A finding as the inspector lists it: analysis findings and format
/// problems alike.
#[derive(Clone, Debug)]
pub struct ShownFinding {
    /// `A010`, `E015`…
    pub code: String,
    /// Its severity.
    pub severity: Severity,
    /// The message.
    pub message: String,
    /// Cells to highlight.
    pub cells: Bitboard,
    /// A path to draw.
    pub path: Vec<Cell>,
    /// The wall cells that cut a route: the cut itself, beside the region
    /// it shuts in.
    pub cut: Bitboard,
}

/// Findings of one code whose cut is the same walls are one finding: one
/// wall row that shuts player 1 in cuts both of its routes. The region
/// shown is the smaller one, the side shut in.
fn merge_same_cuts(findings: &mut Vec<ShownFinding>) {
    let mut i = 0;
    while i < findings.len() {
        let mut j = i + 1;
        while j < findings.len() {
            let (a, b) = (&findings[i], &findings[j]);
            if !a.cut.is_empty() && a.cut == b.cut && a.code == b.code {
                let b = findings.remove(j);
                let a = &mut findings[i];
                a.message = format!("{}; the same walls cut: {}", a.message, b.message);
                if b.cells.count() < a.cells.count() {
                    a.cells = b.cells;
                }
            } else {
                j += 1;
            }
        }
        i += 1;
    }
}

/// The colour of a finding's text: its severity's, or on the selection's
/// background the selection's own text colour, which is made to be read
/// there.
#[must_use]
pub fn finding_text_color(visuals: &egui::Visuals, severity: Severity, selected: bool) -> Color32 {
    if selected { visuals.selection.stroke.color } else { severity_color(severity) }
}

impl EditorApp {
    /// The findings of the current level: format problems, then analysis,
    /// each problem once. An analysis finding that says what a format
    /// problem says (A001 beside E024) adds its witness to it instead of a
    /// line of its own, and the routes one wall cuts are one finding.
    pub fn current_findings(&mut self) -> Vec<ShownFinding> {
        let Some(level) = self.doc.level().cloned() else { return Vec::new() };
        let index = self.doc.current;
        let walls = level.walls & level.board();
        // The walls of a cut: beside the region shut in and beside the floor
        // outside it, not every wall that touches the region.
        let outside = |region: Bitboard| level.floor() - region;
        let cut_of = |region: Bitboard| region.dilate() & walls & outside(region).dilate();
        let mut out: Vec<ShownFinding> = self
            .pack_problems()
            .iter()
            .filter(|p| p.field.level() == Some(index))
            .map(|p| ShownFinding {
                code: p.code.as_str().to_owned(),
                severity: p.severity(),
                message: p.message.clone(),
                cells: p.cells.iter().copied().collect(),
                path: Vec::new(),
                cut: Bitboard::EMPTY,
            })
            .collect();
        let report = self.report(&level);
        for finding in &report.findings {
            // The format's own problems are listed above already.
            if finding.code == FindingCode::InvalidLevel && !out.is_empty() {
                continue;
            }
            let (mut cells, path, cut) = match &finding.witness {
                Some(Witness::Path { cells }) => (Bitboard::EMPTY, cells.clone(), Bitboard::EMPTY),
                Some(Witness::Cut { region }) => {
                    let region: Bitboard = region.iter().copied().collect();
                    (region, Vec::new(), cut_of(region))
                }
                _ => (Bitboard::EMPTY, Vec::new(), Bitboard::EMPTY),
            };
            cells |= finding.cells.iter().copied().collect::<Bitboard>();
            if let Some(same) = out.iter_mut().find(|f| f.message.eq_ignore_ascii_case(&finding.message)) {
                same.cells |= cells;
                same.cut |= cut;
                if same.path.is_empty() {
                    same.path = path;
                }
                continue;
            }
            out.push(ShownFinding {
                code: finding.code.as_str().to_owned(),
                severity: finding.severity,
                message: finding.message.clone(),
                cells,
                path,
                cut,
            });
        }
        merge_same_cuts(&mut out);
        out.sort_by_key(|f| f.severity);
        out
    }

    pub(super) fn inspector_ui(&mut self, ui: &mut Ui) {
        self.level_fields_ui(ui);
        ui.separator();
        if self.prefs.show_distances {
            self.heat_legend_ui(ui);
            ui.separator();
        }
        self.findings_ui(ui);
    }

    /// The heat map's legend: the colours from the flag to the farthest
    /// cell, with their step counts, and the hatching of unreachable floor.
    fn heat_legend_ui(&mut self, ui: &mut Ui) {
        let Some(level) = self.doc.level().cloned() else { return };
        let overlays = self.overlays(&level);
        let Some(distances) = overlays.distances.as_ref() else {
            ui.label("Distance heat map: the level has no flag.");
            return;
        };
        let floor = level.floor();
        let max = floor.iter().filter_map(|c| distances[c.index()]).max().unwrap_or(0);
        let unreachable = floor.iter().filter(|c| distances[c.index()].is_none()).count();
        ui.label(RichText::new("Distance heat map: steps from the flag").strong());
        ui.horizontal(|ui| {
            ui.label("0");
            let (rect, response) = ui.allocate_exact_size(egui::vec2(160.0, 14.0), egui::Sense::hover());
            let painter = ui.painter();
            painter.rect_filled(rect, 0.0, crate::editor::board::FLOOR);
            let bands = 32;
            for i in 0..bands {
                let t = i as f32 / (bands - 1) as f32;
                let x0 = rect.left() + rect.width() * i as f32 / bands as f32;
                let band = egui::Rect::from_min_max(
                    egui::pos2(x0, rect.top()),
                    egui::pos2(x0 + rect.width() / bands as f32 + 0.5, rect.bottom()),
                );
                painter.rect_filled(band, 0.0, crate::editor::board::heat_color(t));
            }
            response.on_hover_text("Warm near the flag, cool far from it");
            ui.label(format!("{max} steps"));
        });
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 0.0, crate::editor::board::FLOOR);
            crate::editor::board::hatch(ui.painter(), rect);
            ui.label(format!("unreachable from the flag: {unreachable} floor cell(s)"));
        });
        ui.label("Point at a cell to read its number.");
    }

    fn level_fields_ui(&mut self, ui: &mut Ui) {
        let Some(level) = self.doc.level().cloned() else {
            ui.label("The pack has no level.");
            return;
        };
        ui.heading("Level");
        egui::Grid::new("level-fields").num_columns(2).show(ui, |ui| {
            let mut id = level.id.clone();
            let label = ui.label("Id");
            if ui.text_edit_singleline(&mut id).labelled_by(label.id).changed() {
                self.command(Command::SetField(FormField::LevelId(id)));
            }
            ui.end_row();
            let mut name = level.name.clone();
            let label = ui.label("Name");
            if ui.text_edit_singleline(&mut name).labelled_by(label.id).changed() {
                self.command(Command::SetField(FormField::LevelName(name)));
            }
            ui.end_row();
            let mut author = level.author.clone().unwrap_or_default();
            let label = ui.label("Author");
            if ui.text_edit_singleline(&mut author).labelled_by(label.id).changed() {
                self.command(Command::SetField(FormField::LevelAuthor(author)));
            }
            ui.end_row();
            let mut tags = level.tags.join(", ");
            let label = ui.label("Tags");
            if ui
                .text_edit_singleline(&mut tags)
                .labelled_by(label.id)
                .on_hover_text("Separated by commas")
                .changed()
            {
                self.command(Command::SetField(FormField::LevelTags(tags)));
            }
            ui.end_row();
            ui.label("Size");
            ui.horizontal(|ui| {
                let (mut w, mut h) = (level.width, level.height);
                let changed = ui
                    .add(egui::DragValue::new(&mut w).range(MIN_SIDE..=MAX_SIDE).prefix("files "))
                    .changed()
                    | ui.add(egui::DragValue::new(&mut h).range(MIN_SIDE..=MAX_SIDE).prefix("ranks "))
                        .changed();
                if changed {
                    self.command(Command::Resize(w, h));
                }
            });
            ui.end_row();
            ui.label("First to move");
            ui.horizontal(|ui| {
                for p in Player::BOTH {
                    if ui.radio(level.first == p, format!("Player {}", p.number())).clicked()
                        && level.first != p
                    {
                        self.command(Command::SetField(FormField::First(p)));
                    }
                }
            });
            ui.end_row();
            ui.label("Goals");
            ui.horizontal(|ui| {
                for p in Player::BOTH {
                    let custom = level.goals[p].is_some();
                    if ui
                        .add_enabled(custom, Button::new(format!("Default {}", p.number())))
                        .on_hover_text(format!("{p}'s goal set back to its start square's rank"))
                        .clicked()
                    {
                        self.command(Command::SetField(FormField::DefaultGoals(p)));
                    }
                }
            });
            ui.end_row();
        });
        let mut notes = level.notes.clone().unwrap_or_default();
        let label = ui.label("Notes");
        if ui.add(egui::TextEdit::multiline(&mut notes).desired_rows(3)).labelled_by(label.id).changed() {
            self.command(Command::SetField(FormField::LevelNotes(notes)));
        }
    }

    fn findings_ui(&mut self, ui: &mut Ui) {
        ui.heading("Analysis");
        let findings = self.current_findings();
        let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
        let warnings = findings.iter().filter(|f| f.severity == Severity::Warning).count();
        let summary = match (errors, warnings) {
            (0, 0) => RichText::new("Valid: no errors, no warnings").color(Color32::from_rgb(40, 150, 60)),
            (0, w) => {
                RichText::new(format!("Playable, {w} warning(s)")).color(severity_color(Severity::Warning))
            }
            (e, w) => RichText::new(format!("{e} error(s), {w} warning(s): cannot be played"))
                .color(severity_color(Severity::Error)),
        };
        ui.label(summary.strong());
        if let Some(level) = self.doc.level().cloned() {
            let report = self.report(&level);
            if let Some(race) = report.race {
                ui.label(format!(
                    "Race: {} reaches the flag first, by {} action(s). To the flag {} / {} steps, home {} / {}.",
                    race.first_to_flag, race.lead, race.legs[0].to_flag, race.legs[1].to_flag, race.legs[0].to_goal, race.legs[1].to_goal
                ));
            }
            if !report.routes.is_empty() {
                ui.label(format!(
                    "{} sole-path cells; {} cells can take a crate.",
                    report.sole_path_cells.len(),
                    report.placement_cells
                ));
            }
        }
        ui.separator();
        for (i, finding) in findings.iter().enumerate() {
            let selected = self.selected_finding == Some(i);
            let color = finding_text_color(ui.visuals(), finding.severity, selected);
            let text = RichText::new(format!("{} {}", finding.code, finding.message)).color(color);
            ui.horizontal_top(|ui| {
                // The severity stays visible as a mark when the row is selected.
                let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 16.0), egui::Sense::hover());
                ui.painter().circle_filled(rect.center(), 4.0, severity_color(finding.severity));
                if ui.add(Button::selectable(selected, text).wrap()).clicked() {
                    self.command(Command::SelectFinding(if selected { None } else { Some(i) }));
                }
            });
        }
    }
}
