//! The editor's panels. UI functions read the model and emit commands or
//! edits; they never write the model behind the document's back.

use egui::{
    Button, CentralPanel, Color32, KeyboardShortcut, Panel, PointerButton, RichText, Role, ScrollArea, Sense,
    Ui, WidgetInfo,
};

use super::app::{EditorApp, Modal, Then};
use super::board::{BoardLayout, BoardView, paint_level, player_color};
use super::command::{Command, Overlay, Tool};
use crate::analysis::{FindingCode, MazeGraph, Severity, Witness};
use crate::level::edit::{EditOp, Mirror};
use crate::rules::{Bitboard, Cell, JumpRule, MAX_SIDE, MIN_SIDE, Player, RuleOption, Rules, Stage};

/// A drag in progress on the board.
#[derive(Clone, Copy, Debug)]
pub struct Drag {
    button: PointerButton,
    start: Cell,
    last: Option<Cell>,
    /// Where the pointer was at the last frame of the stroke: the cells
    /// between it and the pointer now are painted too, however fast it
    /// moved.
    last_pos: egui::Pos2,
}

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
}

/// A side panel's content, scrolled within the panel's width: content
/// wider or taller than the panel scrolls instead of widening it.
fn side_scroll(ui: &mut Ui, id: &str, add: impl FnOnce(&mut Ui)) {
    ScrollArea::both().id_salt(id).auto_shrink([false, false]).show(ui, |ui| {
        ui.set_max_width(ui.available_width());
        add(ui);
    });
}

/// A press outside the focused widget ends its focus, once the widget has
/// read every key of the frame.
fn surrender_focus_on_click_elsewhere(ctx: &egui::Context) {
    let Some(focused) = ctx.memory(egui::Memory::focused) else { return };
    let rect = ctx.read_response(focused).map(|r| r.interact_rect);
    let elsewhere = ctx.input(|i| {
        i.events.iter().any(|e| match e {
            egui::Event::PointerButton { pos, pressed: true, .. } => rect.is_none_or(|r| !r.contains(*pos)),
            _ => false,
        })
    });
    if elsewhere {
        ctx.memory_mut(|m| m.surrender_focus(focused));
    }
}

fn severity_color(severity: Severity) -> Color32 {
    match severity {
        Severity::Error => Color32::from_rgb(200, 40, 40),
        Severity::Warning => Color32::from_rgb(200, 140, 0),
        Severity::Note => Color32::from_gray(120),
    }
}

impl EditorApp {
    /// The findings of the current level: format problems, then analysis.
    pub fn current_findings(&mut self) -> Vec<ShownFinding> {
        let Some(level) = self.doc.level().cloned() else { return Vec::new() };
        let index = self.doc.current;
        let mut out: Vec<ShownFinding> = self
            .pack_problems()
            .iter()
            .filter(|p| p.field.level() == Some(index))
            .map(|p| ShownFinding {
                code: p.code.as_str().to_owned(),
                severity: p.severity().into(),
                message: p.message.clone(),
                cells: p.cells.iter().copied().collect(),
                path: Vec::new(),
            })
            .collect();
        let report = self.report(&level);
        for finding in &report.findings {
            // The format's own problems are listed above already.
            if finding.code == FindingCode::InvalidLevel && !out.is_empty() {
                continue;
            }
            let (mut cells, path) = match &finding.witness {
                Some(Witness::Path { cells }) => (Bitboard::EMPTY, cells.clone()),
                Some(Witness::Cut { region }) => (region.iter().copied().collect(), Vec::new()),
                _ => (Bitboard::EMPTY, Vec::new()),
            };
            cells |= finding.cells.iter().copied().collect::<Bitboard>();
            out.push(ShownFinding {
                code: finding.code.as_str().to_owned(),
                severity: finding.severity,
                message: finding.message.clone(),
                cells,
                path,
            });
        }
        out.sort_by_key(|f| f.severity);
        out
    }

    fn level_status(&mut self, index: usize) -> Severity {
        let Some(level) = self.doc.pack.levels.get(index).cloned() else { return Severity::Note };
        let problems = self.pack_problems();
        let mine = problems.iter().filter(|p| p.field.level() == Some(index));
        let mut worst = mine.map(|p| Severity::from(p.severity())).min().unwrap_or(Severity::Note);
        let report = self.report(&level);
        for f in &report.findings {
            worst = worst.min(f.severity);
        }
        worst
    }

    /// The whole editor, drawn into `ui` (the window's root).
    pub fn ui_root(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        // egui drops what was typed in a frame whose click moves focus away
        // (the field gives up focus before it reads the keys): focus is
        // given up here instead, after the fields have read this frame.
        ctx.options_mut(|o| o.input_options.surrender_focus_on = egui::SurrenderFocusOn::Never);
        if self.modal.is_none() {
            self.shortcuts(&ctx);
            if self.playing {
                self.play_keys(&ctx);
            }
        }
        if self.playing {
            self.play_tick(&ctx);
        }
        self.close_request(&ctx);
        Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        Panel::top("toolbar").show(ui, |ui| self.toolbar_ui(ui));
        Panel::bottom("status").show(ui, |ui| self.status_ui(ui));
        // Side panels keep the width the user gave them: what they show
        // scrolls inside, so the board never moves under the pointer.
        Panel::left("levels")
            .default_size(240.0)
            .size_range(180.0..=480.0)
            .resizable(true)
            .show(ui, |ui| side_scroll(ui, "levels-panel", |ui| self.levels_ui(ui)));
        if self.playing {
            Panel::right("sandbox")
                .default_size(340.0)
                .size_range(260.0..=560.0)
                .resizable(true)
                .show(ui, |ui| side_scroll(ui, "play-panel", |ui| self.play_panel_ui(ui)));
            CentralPanel::default().show(ui, |ui| self.play_board_ui(ui));
        } else {
            Panel::right("inspector")
                .default_size(320.0)
                .size_range(260.0..=560.0)
                .resizable(true)
                .show(ui, |ui| side_scroll(ui, "inspector", |ui| self.inspector_ui(ui)));
            CentralPanel::default().show(ui, |ui| self.board_ui(ui));
        }
        self.modal_ui(&ctx);
        self.poll_generating(&ctx);
        self.run_play_commands();
        self.run_pending(&ctx);
        self.update_title(&ctx);
        self.autosave(&ctx);
        surrender_focus_on_click_elsewhere(&ctx);
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let typing = ctx.egui_wants_keyboard_input();
        let mut table: Vec<(KeyboardShortcut, Command)> = Command::with_shortcuts()
            .into_iter()
            .flat_map(|c| {
                [c.shortcut(), c.alternative_shortcut()].into_iter().flatten().map(move |s| (s, c.clone()))
            })
            .collect();
        // egui matches a shortcut even with Shift held on top, so Ctrl+Shift+S
        // would be taken as Ctrl+S: the shortcuts with more modifiers go first.
        table.sort_by_key(|(s, _)| {
            let m = s.modifiers;
            std::cmp::Reverse(u8::from(m.command) + u8::from(m.shift) + u8::from(m.alt))
        });
        for (shortcut, command) in table {
            if self.playing && !command.in_play_mode() {
                continue;
            }
            // Plain keys belong to a text field being typed into.
            if typing && !shortcut.modifiers.command {
                continue;
            }
            if ctx.input_mut(|i| i.consume_shortcut(&shortcut)) {
                self.command(command);
            }
        }
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
            self.doc.pack.name
        );
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    /// A button or menu entry for `command`, with its shortcut.
    fn command_button(&mut self, ui: &mut Ui, command: Command, enabled: bool) {
        let mut button = Button::new(command.label());
        if let Some(shortcut) = command.shortcut() {
            button = button.shortcut_text(ui.ctx().format_shortcut(&shortcut));
        }
        if ui.add_enabled(enabled, button).clicked() {
            self.command(command);
            ui.close();
        }
    }

    fn menu_ui(&mut self, ui: &mut Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                self.command_button(ui, Command::New, true);
                self.command_button(ui, Command::Open, true);
                ui.menu_button("Open Recent", |ui| {
                    if self.prefs.recent.is_empty() {
                        ui.label("No recent files");
                    }
                    for path in self.prefs.recent.clone() {
                        self.command_button(ui, Command::OpenRecent(path), true);
                    }
                });
                ui.separator();
                self.command_button(ui, Command::Save, true);
                self.command_button(ui, Command::SaveAs, true);
                ui.separator();
                self.command_button(ui, Command::ExportToml, true);
                self.command_button(ui, Command::ExportJson, true);
                ui.separator();
                self.command_button(ui, Command::Quit, true);
            });
            ui.menu_button("Edit", |ui| {
                let (undo, redo) = (self.doc.can_undo(), self.doc.can_redo());
                self.command_button(ui, Command::Undo, undo);
                self.command_button(ui, Command::Redo, redo);
                ui.separator();
                for tool in Tool::ALL {
                    self.command_button(ui, Command::SetTool(tool), true);
                }
                ui.separator();
                for stage in Stage::ALL {
                    self.command_button(ui, Command::SetStage(stage), true);
                }
                ui.separator();
                self.command_button(ui, Command::CycleMirror, true);
                self.command_button(ui, Command::ClearLevel, true);
            });
            ui.menu_button("Level", |ui| {
                self.command_button(ui, Command::AddLevel, true);
                self.command_button(ui, Command::GenerateLevel, self.generating.is_none());
                self.command_button(ui, Command::DuplicateLevel, true);
                self.command_button(ui, Command::DeleteLevel, self.doc.pack.levels.len() > 1);
                self.command_button(ui, Command::MoveLevelUp, self.doc.current > 0);
                self.command_button(
                    ui,
                    Command::MoveLevelDown,
                    self.doc.current + 1 < self.doc.pack.levels.len(),
                );
                ui.separator();
                self.command_button(ui, Command::PreviousLevel, true);
                self.command_button(ui, Command::NextLevel, true);
            });
            ui.menu_button("Play", |ui| {
                self.command_button(ui, Command::TogglePlay, true);
            });
            ui.menu_button("View", |ui| {
                for overlay in Overlay::ALL {
                    let on = self.overlay(overlay);
                    let shortcut = ui.ctx().format_shortcut(&overlay.shortcut());
                    if ui.add(Button::selectable(on, overlay.label()).shortcut_text(shortcut)).clicked() {
                        self.command(Command::ToggleOverlay(overlay));
                        ui.close();
                    }
                }
            });
        });
    }

    fn toolbar_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            let play = if self.playing { "Edit (F5)" } else { "Play (F5)" };
            if ui.add(Button::new(RichText::new(play).strong())).on_hover_text("Switch between editing and playing this level").clicked() {
                self.command(Command::TogglePlay);
            }
            ui.separator();
            if self.playing {
                ui.label("Playing: click a green cell to move, or use the arrow keys. T places crates, X steals, Space passes.");
                return;
            }
            for tool in Tool::ALL {
                let shortcut = ui.ctx().format_shortcut(&tool.shortcut());
                let mut text = RichText::new(tool.label());
                if let Tool::Start(p) | Tool::Goal(p) | Tool::GoalRank(p) = tool {
                    text = text.color(player_color(p));
                }
                let response = ui
                    .add(Button::selectable(self.tool == tool, text))
                    .on_hover_text(format!("{} ({shortcut})", tool.help()));
                if response.clicked() {
                    self.command(Command::SetTool(tool));
                }
            }
            ui.separator();
            egui::ComboBox::new("stage", "Crate stage").selected_text(self.stage.name()).show_ui(ui, |ui| {
                for stage in Stage::ALL {
                    let shortcut = Command::SetStage(stage)
                        .shortcut()
                        .map(|s| ui.ctx().format_shortcut(&s))
                        .unwrap_or_default();
                    if ui.selectable_label(self.stage == stage, format!("{stage} ({shortcut})")).clicked() {
                        self.command(Command::SetStage(stage));
                    }
                }
            });
            egui::ComboBox::new("mirror", "Mirror")
                .selected_text(self.prefs.mirror.label())
                .show_ui(ui, |ui| {
                    for mirror in Mirror::ALL {
                        if ui.selectable_label(self.prefs.mirror == mirror, mirror.label()).clicked() {
                            self.command(Command::SetMirror(mirror));
                        }
                    }
                })
                .response
                .on_hover_text("Mirror painting (M cycles)");
            ui.separator();
            for overlay in Overlay::ALL {
                let shortcut = ui.ctx().format_shortcut(&overlay.shortcut());
                if ui
                    .add(Button::selectable(self.overlay(overlay), overlay.label()))
                    .on_hover_text(format!("Show or hide ({shortcut})"))
                    .clicked()
                {
                    self.command(Command::ToggleOverlay(overlay));
                }
            }
        });
    }

    fn status_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let cell = self.hovered.map_or_else(|| "—".to_owned(), |c| c.to_string());
            ui.label(RichText::new(format!("{cell:>3}")).monospace())
                .on_hover_text("The cell under the pointer");
            ui.separator();
            ui.label(format!("{} · {}", self.tool.label(), self.prefs.mirror.label()));
            ui.separator();
            ui.label(&self.status);
        });
    }

    fn levels_ui(&mut self, ui: &mut Ui) {
        ui.heading("Levels");
        ui.horizontal_wrapped(|ui| {
            for (command, text) in [
                (Command::AddLevel, "Add"),
                (Command::DuplicateLevel, "Duplicate"),
                (Command::DeleteLevel, "Delete"),
                (Command::MoveLevelUp, "Up"),
                (Command::MoveLevelDown, "Down"),
            ] {
                let shortcut = command.shortcut().map(|s| ui.ctx().format_shortcut(&s)).unwrap_or_default();
                let enabled = match command {
                    Command::DeleteLevel => self.doc.pack.levels.len() > 1,
                    Command::MoveLevelUp => self.doc.current > 0,
                    Command::MoveLevelDown => self.doc.current + 1 < self.doc.pack.levels.len(),
                    _ => true,
                };
                if ui
                    .add_enabled(enabled, Button::new(text))
                    .on_hover_text(format!("{} ({shortcut})", command.label()))
                    .clicked()
                {
                    self.command(command);
                }
            }
        });
        ui.separator();
        ScrollArea::vertical().id_salt("level-list").max_height(ui.available_height() * 0.55).show(
            ui,
            |ui| {
                for i in 0..self.doc.pack.levels.len() {
                    let status = self.level_status(i);
                    let (meaning, color) = match status {
                        Severity::Error => ("has errors", severity_color(Severity::Error)),
                        Severity::Warning => ("has warnings", severity_color(Severity::Warning)),
                        Severity::Note => ("is valid", Color32::from_rgb(40, 150, 60)),
                    };
                    let level = &self.doc.pack.levels[i];
                    let text = format!("{} · {}", level.id, level.name);
                    ui.horizontal(|ui| {
                        // A painted mark: no glyph a font might lack.
                        let (rect, mark) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), Sense::hover());
                        ui.painter().circle_filled(rect.center(), 5.0, color);
                        mark.on_hover_text(format!("The level {meaning}"));
                        if ui.selectable_label(i == self.doc.current, text).clicked() {
                            self.command(Command::SelectLevel(i));
                        }
                    });
                }
            },
        );
        ui.separator();
        egui::CollapsingHeader::new("Pack and rules").default_open(false).show(ui, |ui| self.pack_ui(ui));
    }

    fn pack_ui(&mut self, ui: &mut Ui) {
        let mut name = self.doc.pack.name.clone();
        let label = ui.label("Name");
        if ui.text_edit_singleline(&mut name).labelled_by(label.id).changed() {
            self.doc.edit_text("pack.name", |pack, _| pack.name = name);
        }
        let mut author = self.doc.pack.author.clone().unwrap_or_default();
        let label = ui.label("Author");
        if ui.text_edit_singleline(&mut author).labelled_by(label.id).changed() {
            self.doc.edit_text("pack.author", |pack, _| pack.author = Some(author).filter(|a| !a.is_empty()));
        }
        let mut description = self.doc.pack.description.clone().unwrap_or_default();
        let label = ui.label("Description");
        if ui.text_edit_multiline(&mut description).labelled_by(label.id).changed() {
            self.doc.edit_text("pack.description", |pack, _| {
                pack.description = Some(description).filter(|d| !d.is_empty());
            });
        }
        ui.separator();
        ui.label(RichText::new("Rules").strong());
        let defaults = Rules::default();
        egui::Grid::new("rules").num_columns(3).show(ui, |ui| {
            for option in RuleOption::ALL {
                let label = ui.label(option.key());
                if option == RuleOption::Jump {
                    let mut jump = self.doc.pack.rules.jump;
                    let combo =
                        egui::ComboBox::from_id_salt("jump").selected_text(jump.name()).show_ui(ui, |ui| {
                            for j in JumpRule::ALL {
                                ui.selectable_value(&mut jump, j, j.name());
                            }
                        });
                    let _ = combo.response.labelled_by(label.id);
                    if jump != self.doc.pack.rules.jump {
                        self.doc.edit(|pack, _| pack.rules.jump = jump);
                    }
                    ui.label(format!("default {}", defaults.jump));
                } else {
                    let (lo, hi) = option.range().unwrap_or((0, 0));
                    let mut value = self.doc.pack.rules.number(option);
                    if ui.add(egui::DragValue::new(&mut value).range(lo..=hi)).labelled_by(label.id).changed()
                    {
                        self.doc.edit(|pack, _| {
                            let _ = pack.rules.set_number(option, value);
                        });
                    }
                    ui.label(format!("default {}", defaults.number(option)));
                }
                ui.end_row();
            }
        });
    }

    fn inspector_ui(&mut self, ui: &mut Ui) {
        self.level_fields_ui(ui);
        ui.separator();
        self.findings_ui(ui);
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
                self.doc.edit_text("level.id", |pack, i| pack.levels[i].id = id);
            }
            ui.end_row();
            let mut name = level.name.clone();
            let label = ui.label("Name");
            if ui.text_edit_singleline(&mut name).labelled_by(label.id).changed() {
                self.doc.edit_text("level.name", |pack, i| pack.levels[i].name = name);
            }
            ui.end_row();
            let mut author = level.author.clone().unwrap_or_default();
            let label = ui.label("Author");
            if ui.text_edit_singleline(&mut author).labelled_by(label.id).changed() {
                self.doc.edit_text("level.author", |pack, i| {
                    pack.levels[i].author = Some(author).filter(|a| !a.is_empty())
                });
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
                self.doc.edit_text("level.tags", |pack, i| {
                    pack.levels[i].tags =
                        tags.split(',').map(str::trim).filter(|t| !t.is_empty()).map(String::from).collect();
                });
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
                        self.doc.edit(|pack, i| pack.levels[*i].first = p);
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
                        self.doc.apply(EditOp::DefaultGoals(p), Mirror::Off);
                    }
                }
            });
            ui.end_row();
        });
        let mut notes = level.notes.clone().unwrap_or_default();
        let label = ui.label("Notes");
        if ui.add(egui::TextEdit::multiline(&mut notes).desired_rows(3)).labelled_by(label.id).changed() {
            self.doc.edit_text("level.notes", |pack, i| {
                pack.levels[i].notes = Some(notes).filter(|n| !n.is_empty())
            });
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
                    "Race: player {} reaches the flag first, by {} action(s). To the flag {} / {} steps, home {} / {}.",
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
            let text = RichText::new(format!("{} {}", finding.code, finding.message))
                .color(severity_color(finding.severity));
            let response = ui.selectable_label(selected, text);
            if response.clicked() {
                self.command(Command::SelectFinding(if selected { None } else { Some(i) }));
            }
        }
    }

    fn board_view(&mut self, level: &crate::level::Level) -> BoardView {
        let mut view = BoardView { hovered: self.hovered, ..BoardView::default() };
        let report = self.report(level);
        if self.prefs.show_sole_path {
            view.sole_path = report.sole_path_cells.iter().copied().collect();
        }
        if self.prefs.show_routes
            && let Some(flag) = level.flag_cell()
        {
            // Around the crates as painted; over the floor when they cut the way.
            let with_crates =
                MazeGraph::new(level.floor() - level.crates.keys().copied().collect::<Bitboard>());
            let floor = MazeGraph::new(level.floor());
            let path = |from: Cell, to: Bitboard| {
                with_crates
                    .shortest_path(from, to)
                    .or_else(|| floor.shortest_path(from, to))
                    .unwrap_or_default()
            };
            for p in Player::BOTH {
                let Some(start) = level.starts[p] else { continue };
                let mut route = path(start, Bitboard::from_cell(flag));
                route.extend(path(flag, level.goal_cells(p)).into_iter().skip(1));
                view.routes.push((p, route));
            }
        }
        if self.prefs.show_distances
            && let Some(flag) = level.flag_cell()
        {
            let open = level.floor() - level.crates.keys().copied().collect::<Bitboard>();
            view.distances = Some(MazeGraph::new(open).distances(flag).to_vec());
        }
        if let Some(i) = self.selected_finding
            && let Some(finding) = self.current_findings().get(i)
        {
            view.highlight = finding.cells;
            view.highlight_path.clone_from(&finding.path);
        }
        if let (Some(drag), Tool::Rectangle, Some(hovered)) = (self.drag, self.tool, self.hovered) {
            view.preview = Some((drag.start, hovered, drag.button == PointerButton::Primary));
        }
        view
    }

    fn board_ui(&mut self, ui: &mut Ui) {
        let Some(level) = self.doc.level().cloned() else {
            ui.centered_and_justified(|ui| ui.label("The pack has no level: add one."));
            return;
        };
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| WidgetInfo::labeled(Role::Canvas, true, "Board"));
        let layout = BoardLayout::new(response.rect, level.width, level.height);
        self.hovered = response.hover_pos().and_then(|p| layout.cell_at(p));
        self.board_input(ui, &response, &layout, &level);
        let view = self.board_view(&level);
        paint_level(&painter, &layout, &level, &view);
    }

    fn board_input(
        &mut self,
        ui: &Ui,
        response: &egui::Response,
        layout: &BoardLayout,
        level: &crate::level::Level,
    ) {
        // The pointer's events of this frame, in order: a fast hand can
        // press, move and release between two frames, and every sample
        // counts.
        let events: Vec<egui::Event> = ui.input(|i| {
            i.events
                .iter()
                .filter(|e| matches!(e, egui::Event::PointerMoved(_) | egui::Event::PointerButton { .. }))
                .cloned()
                .collect()
        });
        for event in events {
            match event {
                egui::Event::PointerButton { pos, button, pressed: true, .. }
                    if matches!(button, PointerButton::Primary | PointerButton::Secondary)
                        && self.drag.is_none()
                        && ui.ctx().layer_id_at(pos) == Some(response.layer_id) =>
                {
                    if let Some(start) = layout.cell_at(pos) {
                        self.doc.begin_stroke();
                        let mut drag = Drag { button, start, last: None, last_pos: pos };
                        self.stroke_cell(&mut drag, start);
                        self.drag = Some(drag);
                    }
                }
                egui::Event::PointerMoved(pos) => self.stroke_to(layout, pos),
                egui::Event::PointerButton { pos, button, pressed: false, .. }
                    if self.drag.is_some_and(|d| d.button == button) =>
                {
                    self.stroke_to(layout, pos);
                    if let Some(drag) = self.drag.take() {
                        if self.tool == Tool::Rectangle
                            && let Some(end) = layout.cell_at(pos).or(drag.last)
                        {
                            self.doc.apply(
                                EditOp::Rectangle(drag.start, end, drag.button == PointerButton::Primary),
                                self.prefs.mirror,
                            );
                        }
                        self.doc.end_stroke();
                    }
                }
                _ => {}
            }
        }
        let _ = level;
    }

    /// Continues the stroke in progress, if any, to `pos`: every cell
    /// between the last position and `pos` gets the tool.
    fn stroke_to(&mut self, layout: &BoardLayout, pos: egui::Pos2) {
        let Some(mut drag) = self.drag else { return };
        for cell in layout.cells_along(drag.last_pos, pos) {
            if drag.last != Some(cell) {
                self.stroke_cell(&mut drag, cell);
            }
        }
        drag.last_pos = pos;
        self.drag = Some(drag);
    }

    /// Applies the current tool to one cell of a stroke.
    fn stroke_cell(&mut self, drag: &mut Drag, cell: Cell) {
        let primary = drag.button == PointerButton::Primary;
        let first = drag.last.is_none();
        let op = match self.tool {
            Tool::Wall => Some(EditOp::Wall(cell, primary)),
            Tool::Eraser => Some(EditOp::Erase(cell)),
            Tool::Crate => Some(EditOp::Crate(cell, primary.then_some(self.stage))),
            Tool::Goal(p) => Some(EditOp::ToggleGoal(p, cell)),
            Tool::Fill if first => Some(EditOp::Fill(cell, primary)),
            Tool::Start(p) if first => Some(EditOp::Start(p, cell)),
            Tool::GoalRank(p) if first => Some(EditOp::GoalRank(p, cell.rank())),
            Tool::Flag if first => Some(EditOp::Flag(cell)),
            _ => None,
        };
        if let Some(op) = op {
            self.doc.apply(op, self.prefs.mirror);
            self.selected_finding = None;
        }
        drag.last = Some(cell);
    }

    fn modal_ui(&mut self, ctx: &egui::Context) {
        let Some(modal) = self.modal.clone() else { return };
        egui::Modal::new(egui::Id::unique("pushcrate-modal")).show(ctx, |ui| {
            ui.set_max_width(520.0);
            match modal {
                Modal::Unsaved(then) => {
                    ui.heading("Save changes?");
                    ui.label(format!("{} has changes that are not saved.", self.doc.title()));
                    ui.horizontal(|ui| {
                        if ui.button("Save").clicked() && self.save(false) {
                            self.proceed(then.clone(), ctx);
                        }
                        if ui.button("Don't save").clicked() {
                            self.proceed(then.clone(), ctx);
                        }
                        if ui.button("Cancel").clicked() {
                            self.modal = None;
                        }
                    });
                }
                Modal::Problems { file, text } => {
                    ui.heading("This file was not opened");
                    ui.label(format!(
                        "{file} cannot be read whole, and editing it would lose what could not be read. \
                         Nothing was changed. Fix these problems in a text editor (`pushcrate check` lists them too):"
                    ));
                    ScrollArea::both().max_height(360.0).show(ui, |ui| {
                        ui.add(egui::Label::new(RichText::new(&text).monospace()).extend());
                    });
                    if ui.button("Close").clicked() {
                        self.modal = None;
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
                            self.restore(&recovery);
                        }
                        if ui.button("Discard").clicked() {
                            self.discard_recovery();
                        }
                    });
                }
                Modal::Generate(mut form) => {
                    use crate::generate::{GenSymmetry, Style};
                    ui.heading("Generate a level");
                    egui::Grid::new("generate").num_columns(2).show(ui, |ui| {
                        let label = ui.label("Size");
                        ui.horizontal(|ui| {
                            ui.add(
                                egui::DragValue::new(&mut form.width)
                                    .range(MIN_SIDE..=MAX_SIDE)
                                    .prefix("files "),
                            )
                            .labelled_by(label.id);
                            ui.add(
                                egui::DragValue::new(&mut form.height)
                                    .range(MIN_SIDE..=MAX_SIDE)
                                    .prefix("ranks "),
                            )
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
                                (GenSymmetry::HalfTurn, "half turn"),
                                (GenSymmetry::Mirror, "mirror"),
                                (GenSymmetry::None, "none"),
                            ] {
                                ui.radio_value(&mut form.symmetry, symmetry, name);
                            }
                        });
                        ui.end_row();
                        let label = ui.label("Seed");
                        ui.add(egui::DragValue::new(&mut form.seed)).labelled_by(label.id);
                        ui.end_row();
                        ui.label("");
                        ui.checkbox(&mut form.balanced, "Balanced (first player 45–55% in self-play)");
                        ui.end_row();
                    });
                    self.modal = Some(Modal::Generate(form.clone()));
                    ui.horizontal(|ui| {
                        if ui.button("Generate").clicked() {
                            self.start_generating(form.clone());
                        }
                        if ui.button("Cancel").clicked() {
                            self.modal = None;
                        }
                    });
                }
                Modal::AskPath { task, mut path } => {
                    ui.heading(task.title());
                    ui.label("No file dialog can be shown here: type the file's path.");
                    let label = ui.label("Path");
                    let field = ui
                        .add(egui::TextEdit::singleline(&mut path).desired_width(460.0))
                        .labelled_by(label.id);
                    let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    self.modal = Some(Modal::AskPath { task, path: path.clone() });
                    ui.horizontal(|ui| {
                        let ok = ui.add_enabled(!path.trim().is_empty(), Button::new("OK")).clicked();
                        if (ok || enter) && !path.trim().is_empty() {
                            self.finish_file_task(task, std::path::PathBuf::from(path.trim()));
                        }
                        if ui.button("Cancel").clicked() {
                            self.modal = None;
                        }
                    });
                }
                Modal::Error(message) => {
                    ui.heading("Something went wrong");
                    ui.label(message);
                    if ui.button("Close").clicked() {
                        self.modal = None;
                    }
                }
            }
        });
    }
}
