//! The editor's views: the window's panels and dialogs. A view reads the
//! editor through `&EditorApp` and sends [`Command`]s; it cannot change
//! the editor's state, which [`EditorApp::apply`] alone does.
//!
//! One file per panel: `levels` (the level list and the pack's fields),
//! `inspector` (the level's fields and its findings), `canvas` (the board
//! and its pointer input), `play` (the board as a game and the play panel),
//! `modals` (dialogs); `view` holds what they share (`View`, the state the
//! views keep between frames); this file holds [`Editor`], which drives a
//! frame, the layout, the menus, the toolbar, the status bar and the
//! shortcuts.

mod canvas;
mod inspector;
mod levels;
mod modals;
mod play;
mod view;

pub use inspector::finding_text_color;
use view::{Local, View};

use egui::{Button, CentralPanel, Panel, RichText, ScrollArea, Ui};

use super::app::EditorApp;
use super::board::player_color;
use super::command::{Command, MIRRORS, Overlay, Setting, Tool, mirror_label};
use super::dialog::Bundled;
use crate::rules::Stage;

/// The editor window: the editor's state, and what only the views keep
/// from frame to frame (the cell under the pointer, a stroke in progress).
pub struct Editor {
    app: EditorApp,
    local: Local,
}

impl Editor {
    /// A window on `app`.
    #[must_use]
    pub fn new(app: EditorApp) -> Editor {
        Editor { app, local: Local::default() }
    }

    /// The editor's state, to read.
    #[must_use]
    pub const fn app(&self) -> &EditorApp {
        &self.app
    }

    /// Queues a command, as a menu entry or a shortcut does; it runs at the
    /// end of the next frame.
    pub fn command(&mut self, command: Command) {
        self.app.command(command);
    }

    /// Writes the unsaved work to the recovery file now, as the timer does.
    pub fn autosave_now(&mut self) {
        self.app.autosave_now();
    }

    /// One frame of the whole editor, drawn into `ui` (the window's root):
    /// the editor's own turn, the views (which read it and send commands),
    /// then the commands applied.
    pub fn ui_root(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        // egui drops what was typed in a frame whose click moves focus away
        // (the field gives up focus before it reads the keys): focus is
        // given up here instead, after the fields have read this frame.
        ctx.options_mut(|o| o.input_options.surrender_focus_on = egui::SurrenderFocusOn::Never);
        self.app.begin_frame(&ctx);
        if self.app.playing() {
            // A stroke in progress ends with the mode.
            self.local.drag = None;
        }
        let mut sent = Vec::new();
        View { app: &self.app, local: &mut self.local, sent: &mut sent }.frame(ui, &ctx);
        self.app.end_frame(&ctx, sent);
        surrender_focus_on_click_elsewhere(&ctx);
    }
}

impl std::ops::Deref for Editor {
    type Target = EditorApp;

    fn deref(&self) -> &EditorApp {
        &self.app
    }
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

impl View<'_> {
    /// Sends a command: it runs once the views have drawn this frame.
    fn command(&mut self, command: Command) {
        self.sent.push(command);
    }

    /// The whole editor's views.
    fn frame(mut self, ui: &mut Ui, ctx: &egui::Context) {
        let app = self.app;
        if app.modal().is_none() {
            self.shortcuts(ctx);
        }
        Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        Panel::top("toolbar").show(ui, |ui| self.toolbar_ui(ui));
        Panel::bottom("status").show(ui, |ui| self.status_ui(ui));
        // Side panels keep the width the user gave them: what they show
        // scrolls inside, so the board never moves under the pointer.
        Panel::left("levels")
            .default_size(272.0)
            .size_range(180.0..=480.0)
            .resizable(true)
            .show(ui, |ui| side_scroll(ui, "levels-panel", |ui| self.levels_ui(ui)));
        if app.playing() {
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
        if app.showing_history() {
            self.history_ui(ctx);
        }
        self.modal_ui(ctx);
    }

    /// The undo history (Tiled's): the steps done, oldest first, under
    /// the opened pack, and those undone, greyed; a click goes to the state
    /// after that step, undoing or redoing as many steps as it takes.
    fn history_ui(&mut self, ctx: &egui::Context) {
        let app = self.app;
        let (done, undone) = app.doc().history();
        let mut open = true;
        egui::Window::new("Undo history")
            .open(&mut open)
            .default_width(240.0)
            .default_pos([300.0, 120.0])
            .show(ctx, |ui| {
                ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
                    let now = done.len();
                    let entries =
                        std::iter::once("Opened").chain(done.iter().copied()).chain(undone.iter().copied());
                    for (step, label) in entries.enumerate() {
                        let text =
                            if step > now { RichText::new(label).weak() } else { RichText::new(label) };
                        let response = ui.add(Button::selectable(step == now, text));
                        if response.clicked() && step != now {
                            self.command(Command::UndoTo(step));
                        }
                    }
                });
            });
        if !open {
            self.command(Command::ToggleHistory);
        }
    }

    /// The keys of the one shortcut table, in editing and in play alike.
    fn shortcuts(&mut self, ctx: &egui::Context) {
        let app = self.app;
        let typing = ctx.egui_wants_keyboard_input();
        let clipboard = |c: &Command| matches!(c, Command::Copy | Command::Cut | Command::Paste);
        if !typing {
            // Shift and a digit arrive as the symbol the layout puts there
            // (`!` for Shift+1 on a US keyboard, `&` on a French one): the
            // shortcuts name the digit key, so the key pressed is matched.
            ctx.input_mut(|i| {
                for event in &mut i.events {
                    if let egui::Event::Key { key, physical_key: Some(physical), modifiers, .. } = event
                        && modifiers.shift
                        && is_digit(*physical)
                        && !is_digit(*key)
                    {
                        *key = *physical;
                    }
                }
            });
        }
        let mut pressed = Vec::new();
        // Escape closes an open menu or popup first, as everywhere else.
        let popup_open = egui::Popup::is_any_open(ctx);
        for (shortcut, command) in Command::shortcut_table() {
            if !command.scope().covers(app.playing()) {
                continue;
            }
            if popup_open && shortcut.logical_key == egui::Key::Escape {
                continue;
            }
            // Plain keys, and the clipboard's, belong to a text field being
            // typed into.
            if typing && (!shortcut.modifiers.command || clipboard(&command)) {
                continue;
            }
            if ctx.input_mut(|i| i.consume_shortcut(&shortcut)) {
                pressed.push(command);
            }
        }
        // Ctrl+C, Ctrl+X and Ctrl+V arrive as clipboard events on most
        // desktops rather than as keys; one press is one command either way
        // (a cut run twice would copy the floor it left).
        if !typing && !app.playing() {
            let events: Vec<Command> = ctx.input(|i| {
                i.events
                    .iter()
                    .filter_map(|e| match e {
                        egui::Event::Copy => Some(Command::Copy),
                        egui::Event::Cut => Some(Command::Cut),
                        egui::Event::Paste(_) => Some(Command::Paste),
                        _ => None,
                    })
                    .collect()
            });
            for command in events {
                if !pressed.contains(&command) {
                    pressed.push(command);
                }
            }
        }
        for command in pressed {
            self.command(command);
        }
    }

    /// A button or menu entry for `command`, with its shortcut; disabled,
    /// with the reason on hover, when [`EditorApp::why_disabled`] says so.
    pub(super) fn command_button(&mut self, ui: &mut Ui, command: Command) {
        let label = command.label();
        self.command_button_labelled(ui, command, &label);
    }

    /// Likewise, with a label of its own.
    pub(super) fn command_button_labelled(&mut self, ui: &mut Ui, command: Command, label: &str) {
        let mut button = Button::new(label);
        if let Some(shortcut) = command.shortcut() {
            button = button.shortcut_text(ui.ctx().format_shortcut(&shortcut));
        }
        if self.command_widget(ui, command, button, None) {
            // A menu closes once an entry is chosen; a collapsing section
            // the button sits in stays open.
            ui.close_kind(egui::UiKind::Menu);
        }
    }

    /// A small button for `command` with a short text; the command's name
    /// and shortcut, or why it is disabled, on hover.
    pub(super) fn command_button_compact(&mut self, ui: &mut Ui, command: Command, text: &str) {
        let shortcut = command.shortcut().map(|s| format!(" ({})", ui.ctx().format_shortcut(&s)));
        let hover = format!("{}{}", command.label(), shortcut.unwrap_or_default());
        self.command_widget(ui, command, Button::new(text), Some(hover));
    }

    /// Adds `button` for `command`: disabled, with the reason on hover,
    /// when [`EditorApp::why_disabled`] says so, else with `hover`; a click
    /// queues the command. Returns whether it was clicked.
    pub(super) fn command_widget(
        &mut self,
        ui: &mut Ui,
        command: Command,
        button: Button<'_>,
        hover: Option<String>,
    ) -> bool {
        let why = self.why_disabled(&command);
        let response = ui.add_enabled(why.is_none(), button);
        let response = match (why, hover) {
            (Some(why), _) => response.on_disabled_hover_text(why),
            (None, Some(hover)) => response.on_hover_text(hover),
            (None, None) => response,
        };
        let clicked = response.clicked();
        if clicked {
            self.command(command);
        }
        clicked
    }

    fn menu_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                self.command_button(ui, Command::New);
                self.command_button(ui, Command::Open);
                ui.menu_button("Open Recent", |ui| {
                    if app.prefs().recent.is_empty() {
                        ui.label("No recent files");
                    }
                    for path in app.prefs().recent.clone() {
                        self.command_button(ui, Command::OpenRecent(path));
                    }
                });
                ui.menu_button("Open Bundled", |ui| {
                    self.command_button(ui, Command::OpenBundled(Bundled::Default));
                    self.command_button(ui, Command::OpenBundled(Bundled::Flawed));
                });
                ui.separator();
                self.command_button(ui, Command::Save);
                self.command_button(ui, Command::SaveAs);
                ui.separator();
                self.command_button(ui, Command::ExportToml);
                self.command_button(ui, Command::ExportJson);
                ui.separator();
                self.command_button(ui, Command::Quit);
            });
            ui.menu_button("Edit", |ui| {
                self.command_button(ui, Command::Undo);
                self.command_button(ui, Command::Redo);
                ui.separator();
                self.command_button(ui, Command::Cut);
                self.command_button(ui, Command::Copy);
                self.command_button(ui, Command::Paste);
                self.command_button(ui, Command::FlipStampFiles);
                self.command_button(ui, Command::FlipStampRanks);
                self.command_button(ui, Command::RotateStamp);
                self.command_button(ui, Command::Deselect);
                ui.separator();
                for tool in Tool::ALL {
                    self.command_button(ui, Command::Set(Setting::Tool(tool)));
                }
                ui.separator();
                for stage in Stage::ALL {
                    self.command_button(ui, Command::Set(Setting::Stage(stage)));
                }
                ui.separator();
                self.command_button(ui, Command::CycleMirror);
                self.command_button(ui, Command::ClearLevel);
            });
            ui.menu_button("Level", |ui| {
                self.command_button(ui, Command::AddLevel);
                self.command_button(ui, Command::GenerateLevel);
                self.command_button(ui, Command::DuplicateLevel);
                self.command_button(ui, Command::DeleteLevel);
                self.command_button(ui, Command::MoveLevelUp);
                self.command_button(ui, Command::MoveLevelDown);
                ui.separator();
                self.command_button(ui, Command::PreviousLevel);
                self.command_button(ui, Command::NextLevel);
            });
            ui.menu_button("Play", |ui| {
                self.command_button(ui, Command::TogglePlay);
            });
            ui.menu_button("View", |ui| {
                for overlay in Overlay::ALL {
                    let on = app.overlay(overlay);
                    let shortcut = ui.ctx().format_shortcut(&overlay.shortcut());
                    let button = Button::selectable(on, overlay.label()).shortcut_text(shortcut);
                    if self.command_widget(ui, Command::ToggleOverlay(overlay), button, None) {
                        ui.close();
                    }
                }
                ui.separator();
                self.command_button(ui, Command::ZoomIn);
                self.command_button(ui, Command::ZoomOut);
                self.command_button(ui, Command::FitBoard);
                ui.separator();
                let button = Button::selectable(app.showing_history(), Command::ToggleHistory.label());
                if self.command_widget(ui, Command::ToggleHistory, button, None) {
                    ui.close();
                }
            });
        });
    }

    fn toolbar_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        ui.horizontal_wrapped(|ui| {
            let play = if app.playing() { "Edit (F5)" } else { "Play (F5)" };
            if ui.add(Button::new(RichText::new(play).strong())).on_hover_text("Switch between editing and playing this level").clicked() {
                self.command(Command::TogglePlay);
            }
            ui.separator();
            if app.playing() {
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
                    .add(Button::selectable(app.tool() == tool, text))
                    .on_hover_text(format!("{} ({shortcut})", tool.help()));
                if response.clicked() {
                    self.command(Command::Set(Setting::Tool(tool)));
                }
            }
            // The painting options and the overlays on a row of their own,
            // below the tools, whatever the window's width.
            ui.end_row();
            // Labels before their boxes, in the text colour of the buttons
            // beside them (the default label colour reads as disabled
            // there), each pair kept together when the toolbar wraps.
            let strong = ui.visuals().strong_text_color();
            ui.horizontal(|ui| {
                let label = ui.label(RichText::new("Crate stage").color(strong));
                egui::ComboBox::from_id_salt("stage")
                    .selected_text(app.stage().name())
                    .show_ui(ui, |ui| {
                        for stage in Stage::ALL {
                            let shortcut = Command::Set(Setting::Stage(stage))
                                .shortcut()
                                .map(|s| ui.ctx().format_shortcut(&s))
                                .unwrap_or_default();
                            if ui.selectable_label(app.stage() == stage, format!("{stage} ({shortcut})")).clicked() {
                                self.command(Command::Set(Setting::Stage(stage)));
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id);
            });
            ui.horizontal(|ui| {
                let label = ui.label(RichText::new("Mirror").color(strong));
                egui::ComboBox::from_id_salt("mirror")
                    .selected_text(mirror_label(app.prefs().mirror))
                    .show_ui(ui, |ui| {
                        for mirror in MIRRORS {
                            if ui.selectable_label(app.prefs().mirror == mirror, mirror_label(mirror)).clicked() {
                                self.command(Command::Set(Setting::Mirror(mirror)));
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id)
                    .on_hover_text("Mirror painting (M cycles)");
            });
            ui.separator();
            for overlay in Overlay::ALL {
                let shortcut = ui.ctx().format_shortcut(&overlay.shortcut());
                if ui
                    .add(Button::selectable(app.overlay(overlay), overlay.label()))
                    .on_hover_text(format!("Show or hide ({shortcut})"))
                    .clicked()
                {
                    self.command(Command::ToggleOverlay(overlay));
                }
            }
        });
    }

    /// With the games' decisions drawn over the play board, how many times
    /// it happened on the cell under the pointer.
    fn hovered_decision(&self) -> Option<String> {
        let app = self.app;
        let sandbox = app.sandbox().filter(|_| app.playing())?;
        let (event, (check, _)) = (sandbox.balance().decisions_shown()?, sandbox.balance().report()?);
        let n = check.decisions.count(event, self.local.hovered?);
        Some(format!("{}: {n} time(s) here, of {} games", event.describe(), check.decisions.games))
    }

    /// With the heat map on, what it says of the cell under the pointer.
    fn hovered_distance(&self) -> Option<String> {
        let app = self.app;
        if app.playing() || !app.prefs().show_distances {
            return None;
        }
        let (cell, level) = (self.local.hovered?, app.doc().level()?);
        if !level.floor().has(cell) {
            return None;
        }
        let overlays = app.analyses().overlays(level)?;
        Some(match overlays.distances.as_ref()?[cell.index()] {
            Some(1) => "1 step from the flag".to_owned(),
            Some(d) => format!("{d} steps from the flag"),
            None => "unreachable from the flag".to_owned(),
        })
    }

    fn status_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        ui.horizontal(|ui| {
            let cell = self.local.hovered.map_or_else(|| "—".to_owned(), |c| c.to_string());
            ui.label(RichText::new(format!("{cell:>3}")).monospace())
                .on_hover_text("The cell under the pointer");
            if let Some(steps) = self.hovered_distance() {
                ui.label(steps);
            }
            if let Some(decided) = self.hovered_decision() {
                ui.label(decided);
            }
            ui.separator();
            let mode = match app.sandbox() {
                Some(sandbox) if app.playing() => format!("Play · {}", sandbox.game().level().id),
                _ => format!("{} · {}", app.tool().label(), mirror_label(app.prefs().mirror)),
            };
            ui.label(mode);
            ui.separator();
            // No spinner: it would ask for every frame. The time so far
            // counts up instead, drawn twice a second.
            if let Some(so_far) = app.generating_for() {
                ui.label(format!("{} s", so_far.as_secs()))
                    .on_hover_text("How long the level being generated has taken so far");
                self.command_button(ui, Command::StopGenerating);
            }
            ui.label(app.status());
        });
    }
}

/// Whether `key` is one of the digit keys of the main block.
fn is_digit(key: egui::Key) -> bool {
    use egui::Key::{Num0, Num1, Num2, Num3, Num4, Num5, Num6, Num7, Num8, Num9};
    matches!(key, Num0 | Num1 | Num2 | Num3 | Num4 | Num5 | Num6 | Num7 | Num8 | Num9)
}
