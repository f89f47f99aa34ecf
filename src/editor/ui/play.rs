//! Play mode: the board as a game, player cards, controls, the action log
//! and the balance panel.

use egui::{
    Button, Color32, CornerRadius, FontId, PointerButton, RichText, Role, ScrollArea, Sense, Stroke,
    StrokeKind, Ui, WidgetInfo,
};
use egui_plot::{Bar, BarChart, Line, Plot};

use super::view::View;
use crate::ai::Agent;
use crate::editor::board::{BoardLayout, BoardView, paint_position, player_color};
use crate::editor::command::{Command, Setting};
use crate::editor::sandbox::{BALANCE_CHOICES, MOTION, Motion, Seat, announce};
use crate::rules::{Action, ActionKind, Outcome, Player};

const GREEN: Color32 = Color32::from_rgb(60, 170, 80);

impl View<'_> {
    pub(super) fn play_board_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        let Some(sandbox) = app.sandbox() else { return };
        // A proposal previewed: its layout, the changed cells marked.
        if let Some(proposal) =
            sandbox.fixes().preview().and_then(|i| sandbox.fixes().found().and_then(|f| f.proposals.get(i)))
        {
            let state = proposal.playable.start();
            let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::hover());
            response.widget_info(|| WidgetInfo::labeled(Role::Canvas, true, "Board"));
            let layout = BoardLayout::new(response.rect, state.width(), state.height());
            let changed = proposal.edits.iter().flat_map(crate::repair::edit_cells).collect();
            paint_position(
                &painter,
                &layout,
                state,
                &BoardView { highlight: changed, ..BoardView::default() },
            );
            return;
        }
        let state = *sandbox.game().state();
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| WidgetInfo::labeled(Role::Canvas, true, "Board"));
        let layout = self.zoomed_layout(ui, &response, state.width(), state.height());
        self.local.hovered = response.hover_pos().and_then(|p| layout.cell_at(p));
        let Some(sandbox) = app.sandbox() else { return };
        let legal = state.legal_actions();
        let human = sandbox.game().human_to_move() && sandbox.game().draw_offer().is_none();
        let mut view = BoardView { hovered: self.local.hovered, ..BoardView::default() };
        if sandbox.game().placing() {
            view.sole_path = state.sole_path_cells();
        }
        paint_position(&painter, &layout, &state, &view);
        if let (Some(event), Some((check, _))) =
            (sandbox.balance().decisions_shown(), sandbox.balance().report())
            && check.level == sandbox.game().level().id
        {
            paint_decisions(&painter, &layout, &check.decisions, event);
        }
        // Where the person's actions lead: moves in green, placements as
        // outlines, the cells where no crate may go marked by the overlay.
        if human {
            for &action in legal.iter() {
                match action {
                    Action::Move(c) if !sandbox.game().placing() => {
                        let rect = layout.cell_rect(c);
                        painter.rect_stroke(
                            rect.shrink(3.0),
                            CornerRadius::same(4),
                            Stroke::new(3.0, GREEN),
                            StrokeKind::Inside,
                        );
                    }
                    Action::Place(c) if sandbox.game().placing() => {
                        painter.circle_stroke(
                            layout.cell_rect(c).center(),
                            layout.cell * 0.18,
                            Stroke::new(2.0, GREEN),
                        );
                    }
                    _ => {}
                }
            }
        }
        if let Some(motion) = sandbox.game().motion() {
            let t = (motion.at.elapsed().as_secs_f32() / MOTION.as_secs_f32()).min(1.0);
            if t < 1.0 {
                animate(&painter, &layout, &motion, t);
            }
        }
        if let Some(outcome) = state.outcome() {
            // White on a dark plate with the winner's colour as its edge:
            // readable over walls, floor and crates alike.
            let galley = painter.layout_no_wrap(
                announce(outcome),
                FontId::proportional(layout.cell * 0.45),
                Color32::WHITE,
            );
            let plate =
                egui::Rect::from_center_size(layout.rect.center(), galley.size() + egui::vec2(32.0, 20.0));
            let edge = match outcome {
                Outcome::Win { winner, .. } => player_color(winner),
                Outcome::Draw => Color32::GRAY,
            };
            painter.rect_filled(plate, CornerRadius::same(8), Color32::from_black_alpha(215));
            painter.rect_stroke(plate, CornerRadius::same(8), Stroke::new(3.0, edge), StrokeKind::Inside);
            painter.galley(plate.center() - galley.size() / 2.0, galley, Color32::WHITE);
        }
        // A click is an action; one that is not legal says why.
        let clicked = ui.input(|i| i.pointer.button_pressed(PointerButton::Primary));
        if clicked
            && response.contains_pointer()
            && let Some(cell) = self.local.hovered
        {
            let action = if sandbox.game().placing() { Action::Place(cell) } else { Action::Move(cell) };
            self.command(Command::Play(action));
        }
    }

    pub(super) fn play_panel_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        let Some(sandbox) = app.sandbox() else { return };
        // The level as the designer named it; its id where it has no name.
        let name = if sandbox.game().level().name.trim().is_empty() {
            &sandbox.game().level().id
        } else {
            &sandbox.game().level().name
        };
        ui.heading(format!("Playing {name}"));
        if app.doc().level().is_some_and(|l| l != sandbox.game().level()) {
            ui.label(
                RichText::new("The level has changed since this game began: New game plays the new layout.")
                    .color(Color32::from_rgb(200, 140, 0)),
            );
        }
        ui.horizontal(|ui| {
            self.command_button_labelled(ui, Command::TogglePlay, "Edit");
            self.command_button(ui, Command::NewGame);
        });
        if app.sandbox().is_some_and(|s| s.game().viewing_past()) {
            self.past_position_ui(ui);
        }
        for p in Player::BOTH {
            self.seat_ui(ui, p);
        }
        ui.separator();
        let Some(sandbox) = app.sandbox() else { return };
        let state = *sandbox.game().state();
        for p in Player::BOTH {
            player_card(ui, &state, p);
        }
        ui.separator();
        self.controls_ui(ui);
        ui.separator();
        self.log_ui(ui);
        ui.separator();
        self.balance_ui(ui);
    }

    /// Says that the board shows a past position, and offers to go back to
    /// the game's end.
    fn past_position_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        let Some(sandbox) = app.sandbox() else { return };
        let (cursor, total) = (sandbox.game().cursor(), sandbox.game().actions().len());
        egui::Frame::group(ui.style()).stroke(Stroke::new(1.5, Color32::from_rgb(200, 140, 0))).show(
            ui,
            |ui| {
                ui.label(RichText::new(format!("Past position: after action {cursor} of {total}.")).strong());
                ui.label(
                    "The computer waits. An action played here starts a new line and drops the later ones; \
                 Save game… saves the whole record.",
                );
                self.command_button(ui, Command::ResumeGame);
            },
        );
    }

    fn seat_ui(&mut self, ui: &mut Ui, player: Player) {
        let app = self.app;
        let Some(sandbox) = app.sandbox() else { return };
        let current = sandbox.game().seats()[player];
        ui.horizontal(|ui| {
            let label =
                ui.label(RichText::new(format!("Player {}:", player.number())).color(player_color(player)));
            let mut seat = current;
            egui::ComboBox::from_id_salt(("seat", player.number()))
                .selected_text(seat.label())
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut seat, Seat::Human, Seat::Human.label());
                    for i in 0..Agent::STRENGTHS.len() {
                        ui.selectable_value(&mut seat, Seat::Computer(i), Seat::Computer(i).label());
                    }
                })
                .response
                .labelled_by(label.id);
            if seat != current {
                self.command(Command::SetSeat(player, seat));
            }
        });
    }

    fn controls_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        let Some(sandbox) = app.sandbox() else { return };
        let placing = sandbox.game().placing();
        let running = sandbox.game().running();
        let thinking = sandbox.game().thinking();
        let offer = sandbox.game().draw_offer();
        ui.horizontal_wrapped(|ui| {
            let shortcut = Command::TogglePlacing.shortcut().map(|s| ui.ctx().format_shortcut(&s));
            let text = format!("Place crates ({})", shortcut.unwrap_or_default());
            self.command_widget(ui, Command::TogglePlacing, Button::selectable(placing, text), None);
            self.command_button(ui, Command::Play(Action::Steal));
            self.command_button(ui, Command::Play(Action::Pass));
            self.command_button(ui, Command::OfferDraw);
        });
        if let Some(by) = offer
            && self.why_disabled(&Command::AnswerDraw(true)).is_none()
        {
            ui.label(format!("Player {} offers a draw. Player {}:", by.number(), by.other().number()));
            ui.horizontal(|ui| {
                self.command_button(ui, Command::AnswerDraw(true));
                self.command_button(ui, Command::AnswerDraw(false));
            });
        }
        if self.why_disabled(&Command::ToggleRunning).is_none() {
            ui.horizontal_wrapped(|ui| {
                self.command_button_labelled(
                    ui,
                    Command::ToggleRunning,
                    if running { "Pause" } else { "Run" },
                );
                self.command_button(ui, Command::StepComputer);
                if let Some(sandbox) = app.sandbox() {
                    let speed_label = ui.label("Speed");
                    let mut speed = sandbox.game().speed();
                    ui.add(egui::Slider::new(&mut speed, 0.5..=20.0).suffix(" actions/s").logarithmic(true))
                        .labelled_by(speed_label.id);
                    if speed != sandbox.game().speed() {
                        self.command(Command::Set(Setting::Speed(speed)));
                    }
                }
            });
        }
        ui.horizontal_wrapped(|ui| {
            self.command_button(ui, Command::Undo);
            self.command_button(ui, Command::Redo);
            self.command_button(ui, Command::RestartGame);
            if let Some(sandbox) = app.sandbox() {
                let mut animate = sandbox.game().animate();
                if ui.checkbox(&mut animate, "Animate").changed() {
                    self.command(Command::Set(Setting::Animate(animate)));
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            self.command_button(ui, Command::SaveGame);
            self.command_button(ui, Command::OpenGame);
        });
        if thinking {
            ui.label("The computer is thinking…");
        }
    }

    fn log_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        let Some(sandbox) = app.sandbox() else { return };
        let (cursor, actions) = (sandbox.game().cursor(), sandbox.game().actions().to_vec());
        ui.label(RichText::new(format!("Game record ({} actions)", actions.len())).strong());
        ScrollArea::vertical().id_salt("log").max_height(150.0).show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                if ui.selectable_label(cursor == 0, "start").clicked() {
                    self.command(Command::JumpTo(0));
                }
                for (i, action) in actions.iter().enumerate() {
                    let text = RichText::new(action.to_string()).monospace();
                    let text = if i < cursor { text } else { text.weak() };
                    if ui
                        .selectable_label(cursor == i + 1, text)
                        .on_hover_text(format!("Go to action {}", i + 1))
                        .clicked()
                    {
                        self.command(Command::JumpTo(i + 1));
                    }
                }
            });
        });
    }

    fn balance_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        egui::CollapsingHeader::new("Balance").default_open(false).show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                if let Some(sandbox) = app.sandbox() {
                    let label =
                        ui.label(if sandbox.balance().fixed() { "Games per pairing" } else { "At most, per pairing" });
                    let mut games = sandbox.balance().games();
                    ui.add(egui::DragValue::new(&mut games).range(2..=20_000))
                        .labelled_by(label.id)
                        .on_hover_text(
                            "Games per pairing: the cap of the sequential check, which stops as soon as its verdict is settled, or the number played with a fixed count",
                        );
                    if games != sandbox.balance().games() {
                        self.command(Command::Set(Setting::BalanceGames(games)));
                    }
                    let mut fixed = sandbox.balance().fixed();
                    ui.checkbox(&mut fixed, "Fixed count").on_hover_text(
                        "Play every game instead of stopping at the sequential test's verdict: the slow check, for comparison",
                    );
                    if fixed != sandbox.balance().fixed() {
                        self.command(Command::Set(Setting::BalanceFixed(fixed)));
                    }
                    let mut choice = sandbox.balance().choice();
                    let label = ui.label("Agents").on_hover_text(
                        "Who plays both sides of every game: the default check's two strong pairings, or one pairing of your choice",
                    );
                    let chosen = BALANCE_CHOICES[sandbox.balance().choice().min(BALANCE_CHOICES.len() - 1)].0;
                    egui::ComboBox::from_id_salt("balance-agent")
                        .selected_text(chosen)
                        .show_ui(ui, |ui| {
                            for (i, (name, _)) in BALANCE_CHOICES.iter().enumerate() {
                                ui.selectable_value(&mut choice, i, *name);
                            }
                        })
                        .response
                        .labelled_by(label.id)
                        .on_hover_text(
                            "A verdict is the level's only under strong play: by default the level is played by expert and by deep (six turns on a budget) and called balanced or unbalanced only where both agree; one weaker pairing is faster and its verdict is that pairing's",
                        );
                    if choice != sandbox.balance().choice() {
                        self.command(Command::Set(Setting::BalanceChoice(choice)));
                    }
                }
                self.command_button(ui, Command::RunBalance);
                self.command_button(ui, Command::CancelBalance);
            });
            let Some(sandbox) = app.sandbox() else { return };
            if let Some(run) = sandbox.balance().job() {
                let (done, total) = run.progress();
                let text = if sandbox.balance().fixed() {
                    format!("{done} of {total} games, all pairings")
                } else {
                    format!("{done} games of at most {total}, all pairings (each stops at its verdict)")
                };
                ui.add(egui::ProgressBar::new(done as f32 / total.max(1) as f32).text(text));
                let tests = sandbox.balance().live();
                let plan = BALANCE_CHOICES[sandbox.balance().choice().min(BALANCE_CHOICES.len() - 1)].1;
                live_tests_ui(ui, &plan, &tests);
            }
            if let Some((check, games)) = sandbox.balance().report() {
                if sandbox.balance().job().is_some() {
                    ui.label(
                        RichText::new("The last finished check, until the one running ends:")
                            .color(ui.visuals().weak_text_color()),
                    );
                }
                balance_verdict_ui(ui, check);
                self.why_ui(ui, check, sandbox.balance().decisions_shown());
                balance_runs_ui(ui, check, games);
            }
            ui.separator();
            self.skill_ui(ui);
            ui.separator();
            self.fixes_ui(ui);
        });
    }

    /// Why: the check's plain-language reasons, and where its games were
    /// decided, to draw over the board, with a legend.
    fn why_ui(&mut self, ui: &mut Ui, check: &crate::sim::BalanceCheck, shown: Option<crate::sim::Event>) {
        use crate::sim::Event;
        if !check.why.is_empty() {
            ui.label(RichText::new("Why").strong());
            for sentence in &check.why {
                ui.label(format!("• {sentence}"));
            }
        }
        let d = &check.decisions;
        if d.games == 0 {
            return;
        }
        ui.label(RichText::new(format!("Where the {} games were decided", d.games)).strong()).on_hover_text(
            "Drawn over the board: the darker a cell, the more often it happened there; the number is how many times. Point at a cell to read it in the status bar.",
        );
        ui.horizontal_wrapped(|ui| {
            if ui.selectable_label(shown.is_none(), "off").clicked() && shown.is_some() {
                self.command(Command::Set(Setting::Decisions(None)));
            }
            for event in Event::ALL {
                let total = d.total(event);
                if total == 0 {
                    continue;
                }
                let text = format!("{} ({total})", event_label(event));
                if ui.selectable_label(shown == Some(event), text).on_hover_text(event.describe()).clicked() {
                    self.command(Command::Set(Setting::Decisions(if shown == Some(event) {
                        None
                    } else {
                        Some(event)
                    })));
                }
            }
        });
        if let Some(event) = shown {
            // The legend: the scale from once to the most, as the board draws it.
            let most = d.most(event).max(1);
            ui.horizontal(|ui| {
                ui.label("1");
                let (rect, _) = ui.allocate_exact_size(egui::vec2(120.0, 12.0), Sense::hover());
                for i in 0..24 {
                    let t = (i as f32 + 1.0) / 24.0;
                    let x0 = rect.left() + rect.width() * i as f32 / 24.0;
                    let band = egui::Rect::from_min_max(
                        egui::pos2(x0, rect.top()),
                        egui::pos2(x0 + rect.width() / 24.0 + 0.5, rect.bottom()),
                    );
                    ui.painter().rect_filled(band, 0.0, decision_color(t));
                }
                ui.label(most.to_string());
            });
            ui.label(format!("times: {} (point at a cell to read it)", event.describe()));
        }
    }

    /// The skill trace: the first player's score with each strength on
    /// both sides, weakest first, as a small curve against the band.
    fn skill_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        ui.label(RichText::new("Skill trace").strong()).on_hover_text(format!(
            "The first player's score with each strength playing both sides, easy to master, {} games each: does the level reward skill, and does its balance hold as play gets stronger? Master takes minutes.",
            crate::sim::TRACE_GAMES
        ));
        ui.horizontal_wrapped(|ui| {
            self.command_button(ui, Command::RunSkillTrace);
            self.command_button(ui, Command::CancelSkillTrace);
        });
        let Some(sandbox) = app.sandbox() else { return };
        if let Some(job) = sandbox.skill().job() {
            let (done, total) = job.progress();
            let stage = sandbox.skill().stage();
            ui.add(
                egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                    .text(format!("{stage}: {done} / {total} games")),
            );
        }
        let Some(points) = sandbox.skill().report() else { return };
        skill_plot(ui, points);
        for p in points {
            let r = &p.report.first_player_score;
            ui.label(format!(
                "{}: {:.0}% [{:.0}–{:.0}%] over {} games{}",
                p.name,
                100.0 * r.rate,
                100.0 * r.low,
                100.0 * r.high,
                p.report.games,
                if p.report.interrupted { " (stopped)" } else { "" }
            ));
        }
    }

    /// Suggest fixes: the search's progress, then each proposal with its
    /// edits, verdict and cost, to preview on the board or apply.
    fn fixes_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        ui.label(RichText::new("Fixes").strong()).on_hover_text(
            "The smallest edits (a wall, a start square or the flag moved a step, a crate; mirrored pairs on a mirrored level) that the default balance check calls balanced",
        );
        ui.horizontal_wrapped(|ui| {
            if let Some(sandbox) = app.sandbox() {
                let label = ui.label("Edits, at most");
                let mut edits = sandbox.fixes().edits();
                ui.add(egui::DragValue::new(&mut edits).range(1..=crate::repair::MAX_EDITS))
                    .labelled_by(label.id)
                    .on_hover_text(
                        "The most edits a fix may make, as `pushcrate repair --max-edits`: more edits find fixes for levels further from balance, and take longer (a mirrored pair counts as one)",
                    );
                if edits != sandbox.fixes().edits() {
                    self.command(Command::Set(Setting::FixEdits(edits)));
                }
            }
            self.command_button(ui, Command::SuggestFixes);
            self.command_button(ui, Command::CancelFixes);
        });
        let Some(sandbox) = app.sandbox() else { return };
        if let Some(job) = sandbox.fixes().job() {
            let (games, _) = job.progress();
            let stage = sandbox.fixes().stage();
            // No spinner: it would ask for every frame; the games count
            // up twice a second.
            ui.label(format!("{stage} — {games} games so far"));
        }
        let Some(found) = sandbox.fixes().found() else { return };
        let pct = |x: f64| format!("{:.0}", 100.0 * x);
        let b = found.before;
        ui.label(format!(
            "As it is, the first player scores {}% [{}–{}] in {} quick games (expert). {} kept the level valid with no new warning; {} played.{}{}",
            pct(b.rate),
            pct(b.low),
            pct(b.high),
            found.before_games,
            crate::diagnostics::counted(found.screened, "candidate", "candidates"),
            if found.played == 1 { "1 was".to_owned() } else { format!("{} were", found.played) },
            found.stopped_at.map_or(String::new(), |n| format!(
                " Stopped at {}: the check confirms a balanced fix with no more.",
                crate::diagnostics::counted(n as usize, "edit", "edits")
            )),
            if found.interrupted { " Stopped: the proposals so far." } else { "" }
        ));
        if found.proposals.is_empty() {
            ui.label("No proposal: no candidate was confirmed by the balance check.");
        }
        let mut chosen = Vec::new();
        for (i, proposal) in found.proposals.iter().enumerate() {
            let balanced = proposal.is_balanced();
            let verdict = proposal.verdict(found.before);
            let color = if balanced { GREEN } else { Color32::from_rgb(200, 120, 40) };
            ui.label(RichText::new(format!("{}. {verdict}", i + 1)).strong().color(color));
            let edits = proposal.edits.iter().map(crate::repair::describe).collect::<Vec<_>>().join(", ");
            ui.label(format!("{edits} ({} games, {:.0} s)", proposal.games, proposal.seconds));
            ui.horizontal(|ui| {
                let previewing = sandbox.fixes().preview() == Some(i);
                let preview =
                    if previewing { Command::PreviewFix(None) } else { Command::PreviewFix(Some(i)) };
                if ui.selectable_label(previewing, format!("Preview {}", i + 1)).clicked() {
                    chosen.push(preview);
                }
                if ui
                    .button(format!("Apply {}", i + 1))
                    .on_hover_text("Make these edits to the level: one undo step")
                    .clicked()
                {
                    chosen.push(Command::ApplyFix(i));
                }
            });
        }
        for command in chosen {
            self.command(command);
        }
    }
}

fn animate(painter: &egui::Painter, layout: &BoardLayout, motion: &Motion, t: f32) {
    let mover = motion.before.turn();
    let from = layout.cell_rect(motion.before.position(mover)).center();
    match (motion.kind, motion.action) {
        (ActionKind::Step | ActionKind::Jump | ActionKind::Slide, Action::Move(to)) => {
            let to = layout.cell_rect(to).center();
            let at = from + (to - from) * t;
            painter.circle_stroke(
                at,
                layout.cell * 0.36,
                Stroke::new(3.0, player_color(mover).gamma_multiply(1.0 - t)),
            );
        }
        (ActionKind::Break, Action::Move(cell)) => {
            let rect = layout.cell_rect(cell);
            painter.rect_stroke(
                rect.expand(t * 6.0),
                CornerRadius::same(4),
                Stroke::new(3.0, Color32::from_rgb(255, 120, 0).gamma_multiply(1.0 - t)),
                StrokeKind::Outside,
            );
        }
        (ActionKind::Place, Action::Place(cell)) => {
            let rect = layout.cell_rect(cell);
            painter.rect_stroke(
                rect.shrink(rect.width() * 0.4 * (1.0 - t)),
                CornerRadius::same(2),
                Stroke::new(2.0, GREEN),
                StrokeKind::Inside,
            );
        }
        _ => {}
    }
}

fn player_card(ui: &mut Ui, state: &crate::rules::GameState, player: Player) {
    let to_move = state.turn() == player && !state.is_over();
    let color = player_color(player);
    egui::Frame::group(ui.style()).stroke(Stroke::new(if to_move { 2.5 } else { 1.0 }, color)).show(
        ui,
        |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(format!("Player {}", player.number())).strong().color(color));
                if to_move {
                    let bonus = state.bonus_actions();
                    ui.label(if bonus > 0 {
                        format!("to move — {bonus} bonus action(s) left")
                    } else {
                        "to move".into()
                    });
                }
                if state.carrier() == Some(player) {
                    ui.label(RichText::new("carries the flag").color(Color32::from_rgb(200, 150, 0)));
                }
            });
            ui.label(format!("Crates left to place: {}", state.placements_left(player)));
            ui.horizontal(|ui| {
                let label = ui.label("Destroyed:");
                let goal = state.rules().crates_to_win;
                let (rect, response) =
                    ui.allocate_exact_size(egui::vec2(f32::from(goal) * 16.0, 14.0), Sense::hover());
                for i in 0..goal {
                    let b = egui::Rect::from_min_size(
                        rect.min + egui::vec2(f32::from(i) * 16.0, 0.0),
                        egui::vec2(13.0, 13.0),
                    );
                    if i < state.destroyed(player) {
                        ui.painter().rect_filled(b, CornerRadius::same(2), color);
                    }
                    ui.painter().rect_stroke(
                        b,
                        CornerRadius::same(2),
                        Stroke::new(1.0, color),
                        StrokeKind::Inside,
                    );
                }
                let text = format!("{} of {goal}", state.destroyed(player));
                response.labelled_by(label.id).on_hover_text(text.clone());
                ui.label(text);
            });
        },
    );
}

/// Each pairing's sequential test while the check runs.
fn live_tests_ui(ui: &mut Ui, plan: &crate::sim::Plan<'_>, tests: &[Option<crate::sim::Sequential>]) {
    for (i, test) in tests.iter().enumerate() {
        let Some(test) = test else { continue };
        let name = plan.agent(i).map(Agent::short_name).unwrap_or_default();
        test_ui(ui, &name, test);
    }
}

/// One pairing's sequential test: the games so far, the first player's
/// score with its interval drawn against the 40–60% band, and the verdict
/// the moment it is settled.
fn test_ui(ui: &mut Ui, name: &str, test: &crate::sim::Sequential) {
    use crate::sim::Decision;
    let (low, high) = test.pairs.interval();
    let mean = test.pairs.mean();
    let state = match test.decision {
        Decision::Open => "playing…".to_owned(),
        Decision::Uncertain => Decision::Uncertain.describe().to_owned(),
        settled => format!("settled: {}", settled.describe()),
    };
    ui.label(format!(
        "{name}: {} games, first player {:.0}% [{:.0}–{:.0}%], {state}",
        test.games,
        100.0 * mean,
        100.0 * low,
        100.0 * high
    ));
    interval_strip(ui, (low, mean, high), test.is_settled());
}

/// A score and its interval on a 0–100% scale, the 40–60% band shaded
/// behind it, with the scale's values marked under it: the ends and the
/// band's edges.
fn interval_strip(ui: &mut Ui, (low, mean, high): (f64, f64, f64), settled: bool) {
    use crate::sim::BAND;
    const STRIP: f32 = 16.0;
    let font = egui::FontId::proportional(11.0);
    let marks = ui.fonts_mut(|f| f.row_height(&font));
    let width = ui.available_width().clamp(120.0, 360.0);
    let (outer, response) = ui.allocate_exact_size(egui::vec2(width, STRIP + 2.0 + marks), Sense::hover());
    // Room at the ends for the values centred on them.
    let rect = egui::Rect::from_min_size(outer.min + egui::vec2(12.0, 0.0), egui::vec2(width - 24.0, STRIP));
    let x = |v: f64| rect.left() + rect.width() * v.clamp(0.0, 1.0) as f32;
    let painter = ui.painter();
    painter.rect_filled(rect, CornerRadius::same(2), ui.visuals().extreme_bg_color);
    let band = egui::Rect::from_x_y_ranges(x(BAND.0)..=x(BAND.1), rect.y_range());
    painter.rect_filled(band, CornerRadius::ZERO, GREEN.gamma_multiply(0.35));
    let color = if settled { ui.visuals().strong_text_color() } else { Color32::from_rgb(90, 120, 220) };
    let bar = egui::Rect::from_x_y_ranges(x(low)..=x(high), rect.shrink2(egui::vec2(0.0, 5.0)).y_range());
    painter.rect_filled(bar, CornerRadius::same(2), color);
    painter.circle_filled(egui::pos2(x(mean), rect.center().y), 4.0, color);
    let text = ui.visuals().text_color();
    for value in [0.0, BAND.0, BAND.1, 1.0] {
        let at = x(value);
        painter
            .line_segment([egui::pos2(at, rect.bottom()), egui::pos2(at, rect.bottom() + 2.0)], (1.0, text));
        let label = format!("{:.0}%", 100.0 * value);
        painter.text(
            egui::pos2(at, rect.bottom() + 2.0),
            egui::Align2::CENTER_TOP,
            label,
            font.clone(),
            text,
        );
    }
    response.on_hover_text(
        "The first player's score over the pairs so far, with its 95% interval; the shaded band is 40–60%",
    );
}

/// The check's verdict first, then each pairing's report and plots.
fn balance_verdict_ui(ui: &mut Ui, check: &crate::sim::BalanceCheck) {
    use crate::sim::BalanceVerdict;
    if let Some(forced) = &check.forced_win {
        ui.label(
            RichText::new(format!(
                "Settled by the solver: {} forces a win in {} actions ({}).{}",
                forced.player,
                forced.line.len(),
                crate::rules::format_actions(&forced.line),
                if check.reports.iter().any(|r| r.games > 0) {
                    " The games below do not change that."
                } else {
                    ""
                }
            ))
            .strong(),
        );
    }
    let good = check.verdict == BalanceVerdict::Balanced && !check.stall_prone;
    let color = if good { GREEN } else { Color32::from_rgb(200, 60, 40) };
    let (summary, settings) = plain_agents(&check.summary_without_near_edge());
    let mut verdict = capitalized(&summary);
    if check.interrupted {
        verdict.push_str(" (cancelled: from the games played so far)");
    }
    let label = ui.label(RichText::new(verdict).strong().color(color));
    if !settings.is_empty() {
        label.on_hover_text(settings.join("\n"));
    }
    if let Some(note) = check.near_edge_note() {
        ui.label(RichText::new(capitalized(&note) + ".").color(Color32::from_rgb(200, 140, 0)));
    }
}

/// `text` with each named agent's settings left out, "expert
/// (alphabeta:4:40000)" read as "expert", as a designer knows them; and
/// the settings of those named, one line each, for a tooltip.
fn plain_agents(text: &str) -> (String, Vec<String>) {
    let mut plain = text.to_owned();
    let mut settings = Vec::new();
    for (name, agent) in crate::ai::Agent::named() {
        let labelled = agent.label();
        if plain.contains(&labelled) {
            plain = plain.replace(&labelled, name);
            settings.push(format!("{name}: {agent}"));
        }
    }
    (plain, settings)
}

/// `text` with its first letter made upper case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// Each pairing's report and plots.
fn balance_runs_ui(ui: &mut Ui, check: &crate::sim::BalanceCheck, games: &[Vec<crate::sim::GameResult>]) {
    for (report, results) in check.reports.iter().zip(games) {
        ui.separator();
        let (pairing, settings) = plain_agents(&format!("{} against {}", report.agents[0], report.agents[1]));
        let label = ui.label(RichText::new(pairing).strong());
        if !settings.is_empty() {
            label.on_hover_text(settings.join("\n"));
        }
        balance_report_ui(ui, report, results);
    }
}

fn balance_report_ui(ui: &mut Ui, report: &crate::sim::Report, results: &[crate::sim::GameResult]) {
    report_words_ui(ui, report);
    win_rates_ui(ui, report);
    lengths_ui(ui, report, results);
}

/// A pairing's report in words: its games, the first player's score, the
/// pairing's own verdict and its sequential test.
fn report_words_ui(ui: &mut Ui, report: &crate::sim::Report) {
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    ui.label(format!(
        "{} games ({} distinct){}: player 1 wins {}, player 2 wins {}, stalls {}, draws by repetition {}.",
        report.games,
        report.distinct_games,
        if report.interrupted { " (cancelled)" } else { "" },
        report.wins_by_player[0],
        report.wins_by_player[1],
        report.stalls,
        report.repetitions
    ));
    let first = report.first_player_score;
    if report.games == 0 {
        ui.label("No game finished: no score or balance yet.");
    } else {
        ui.label(format!(
            "First player scores {} [{} – {}]; advantage {:+.1} points (player 1's wins minus player 2's); balance {:.3} (1 is even, 0 one-sided).",
            pct(first.rate),
            pct(first.low),
            pct(first.high),
            100.0 * report.first_player_advantage,
            report.balance
        ))
        .on_hover_text(
            "Advantage: the first player's share of wins minus the second's, in points of 100. Balance: 1 minus that difference as a fraction (1 is even, 0 is one-sided); draws and stalls count for neither.",
        );
    }
    let mut verdicts = Vec::new();
    if report.verdicts.unbalanced {
        verdicts.push("unbalanced");
    }
    if report.verdicts.uncertain {
        verdicts.push(if report.sequential.is_some() {
            "uncertain: the sequential test did not settle"
        } else {
            "uncertain: the interval straddles an edge of 40–60%"
        });
    }
    if report.verdicts.stall_prone {
        verdicts.push("stall-prone");
    }
    let verdict =
        if verdicts.is_empty() { "balanced, not stall-prone".to_owned() } else { verdicts.join(", ") };
    ui.label(format!("This pairing alone: {verdict}."));
    if let Some(test) = &report.sequential {
        test_ui(ui, "Sequential test", test);
    }
}

/// A pairing's win rates, stalls and draws, each with its 95% interval.
fn win_rates_ui(ui: &mut Ui, report: &crate::sim::Report) {
    // Win rates with their 95% intervals.
    let n = f64::from(report.games.max(1));
    let colors = [
        player_color(Player::One),
        player_color(Player::Two),
        Color32::GRAY,
        Color32::from_rgb(150, 120, 60),
    ];
    let rates: Vec<(&str, f64, Color32)> = outcome_shares(report)
        .into_iter()
        .zip(colors)
        .map(|((name, share), color)| (name, share, color))
        .collect();
    let whisker = ui.visuals().strong_text_color();
    ui.label("Win rates, with 95% intervals");
    Plot::new(("win-rates", report.agents[0].as_str()))
        .height(140.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(1.05)
        // Room beside the outer bars, so that neither is cut at an edge.
        .include_x(-0.7)
        .include_x(3.7)
        .y_grid_spacer(|input| even_marks(input.bounds, 0.25))
        .y_axis_formatter(|mark, _| format!("{:.0}%", 100.0 * mark.value))
        .y_axis_min_width(34.0)
        .x_axis_formatter(|mark, _| match mark.value.round() as i64 {
            0 => "Player 1".into(),
            1 => "Player 2".into(),
            2 => "Stalls".into(),
            3 => "Draws".into(),
            _ => String::new(),
        })
        .show(ui, |plot| {
            for (i, (name, rate, color)) in rates.iter().enumerate() {
                plot.bar_chart(
                    BarChart::new(*name, vec![Bar::new(i as f64, *rate).width(0.6).fill(*color).name(*name)])
                        .color(*color),
                );
                let ci = crate::sim::Rate::wilson_distinct(rate * n, report.games, report.distinct_games);
                let x = i as f64;
                plot.line(
                    Line::new(format!("{name} 95%"), vec![[x, ci.low], [x, ci.high]])
                        .color(whisker)
                        .width(2.0),
                );
                for y in [ci.low, ci.high] {
                    plot.line(
                        Line::new(format!("{name} 95%"), vec![[x - 0.08, y], [x + 0.08, y]])
                            .color(whisker)
                            .width(2.0),
                    );
                }
            }
        });
}

/// A histogram of a pairing's game lengths.
fn lengths_ui(ui: &mut Ui, report: &crate::sim::Report, results: &[crate::sim::GameResult]) {
    // Game lengths.
    let max = results.iter().map(|r| r.length).max().unwrap_or(1).max(1);
    let width = (max / 20).max(1);
    let mut bins = vec![0u32; (max / width + 1) as usize];
    for r in results {
        bins[(r.length / width) as usize] += 1;
    }
    let bars: Vec<Bar> = bins
        .iter()
        .enumerate()
        .map(|(i, &count)| {
            Bar::new((i as u32 * width) as f64 + f64::from(width) / 2.0, f64::from(count))
                .width(f64::from(width) * 0.9)
        })
        .collect();
    let most = bins.iter().copied().max().unwrap_or(0).max(1);
    let step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000].into_iter().find(|s| most / s <= 4).unwrap_or(2000);
    ui.label("Game lengths: games (up) by actions (across)");
    let across = f64::from(round_step(max.div_ceil(5)));
    Plot::new(("lengths", report.agents[0].as_str()))
        .height(120.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(f64::from(most) * 1.1)
        .include_x(0.0)
        .x_grid_spacer(move |input| even_marks(input.bounds, across))
        .x_axis_formatter(|mark, _| format!("{:.0}", mark.value))
        .y_grid_spacer(move |input| even_marks(input.bounds, f64::from(step)))
        .y_axis_formatter(|mark, _| format!("{:.0}", mark.value))
        .y_axis_min_width(28.0)
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("games", bars).color(Color32::from_rgb(120, 120, 200)));
        });
}

/// Each outcome's share of a pairing's games, as the win-rate chart
/// draws them: either player's wins, stalls, and draws (by repetition or
/// agreement), which add up to every game.
fn outcome_shares(report: &crate::sim::Report) -> [(&'static str, f64); 4] {
    let n = f64::from(report.games.max(1));
    let [one, two] = report.wins_by_player;
    let draws = report.games.saturating_sub(one + two + report.stalls);
    [
        ("Player 1", f64::from(one) / n),
        ("Player 2", f64::from(two) / n),
        ("Stalls", f64::from(report.stalls) / n),
        ("Draws", f64::from(draws) / n),
    ]
}

/// The round step (1, 2 or 5 times a power of ten) at least `at_least`.
fn round_step(at_least: u32) -> u32 {
    (0..10)
        .flat_map(|e| [1, 2, 5].map(|m| m * 10u32.pow(e)))
        .find(|&s| s >= at_least.max(1))
        .unwrap_or(u32::MAX)
}

/// Grid marks every `step` from 0 through the plot's top: whole counts or
/// round shares, each labelled.
fn even_marks(bounds: (f64, f64), step: f64) -> Vec<egui_plot::GridMark> {
    (0..)
        .map(|i| f64::from(i) * step)
        .take_while(|v| *v <= bounds.1 + 1e-9)
        .filter(|v| *v >= bounds.0 - 1e-9)
        .take(64)
        .map(|value| egui_plot::GridMark { value, step_size: step })
        .collect()
}

/// The trace as a curve: each strength's score with its interval, the
/// 40–60% band drawn behind.
fn skill_plot(ui: &mut Ui, points: &[crate::sim::TracePoint]) {
    let names: Vec<&'static str> = points.iter().map(|p| p.name).collect();
    let line: Vec<[f64; 2]> =
        points.iter().enumerate().map(|(i, p)| [i as f64, p.report.first_player_score.rate]).collect();
    let whisker = ui.visuals().strong_text_color();
    let last = points.len().saturating_sub(1) as f64;
    Plot::new("skill-trace")
        .height(130.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(1.0)
        .include_x(-0.5)
        .include_x(last + 0.5)
        .y_grid_spacer(|input| even_marks(input.bounds, 0.25))
        .y_axis_formatter(|mark, _| format!("{:.0}%", 100.0 * mark.value))
        .y_axis_min_width(34.0)
        .x_grid_spacer(|input| even_marks(input.bounds, 1.0))
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).map_or_else(String::new, |n| (*n).to_owned())
            } else {
                String::new()
            }
        })
        .show(ui, |plot| {
            for edge in [crate::sim::BAND.0, crate::sim::BAND.1] {
                plot.line(
                    Line::new("40–60%", vec![[-0.5, edge], [last + 0.5, edge]])
                        .color(GREEN.gamma_multiply(0.7))
                        .style(egui_plot::LineStyle::dashed_loose()),
                );
            }
            for (i, p) in points.iter().enumerate() {
                let r = &p.report.first_player_score;
                plot.line(
                    Line::new("95%", vec![[i as f64, r.low], [i as f64, r.high]]).color(whisker).width(2.0),
                );
            }
            plot.line(Line::new("first player", line).color(player_color(Player::One)).width(2.5));
        });
}

/// A short name for an event's button.
const fn event_label(event: crate::sim::Event) -> &'static str {
    use crate::sim::Event;
    match event {
        Event::Pickup => "pickups",
        Event::Steal => "steals",
        Event::Caught => "carriers caught",
        Event::Home => "flags home",
        Event::WinnerCrate => "winners' crates",
        Event::Break => "crates struck",
    }
}

/// The overlay's colour for a cell with `t` (0 to 1) of the most frequent
/// cell's count: magenta, from faint to strong, apart from the players'
/// colours and the floor.
fn decision_color(t: f32) -> Color32 {
    let alpha = (60.0 + 170.0 * t.clamp(0.0, 1.0)) as u8;
    Color32::from_rgba_unmultiplied(190, 30, 150, alpha)
}

/// Where the check's games were decided, over the board: each cell where
/// `event` happened tinted by how often, with its count.
fn paint_decisions(
    painter: &egui::Painter,
    layout: &BoardLayout,
    decisions: &crate::sim::Decisions,
    event: crate::sim::Event,
) {
    let most = decisions.most(event).max(1);
    for (cell, n) in decisions.top(event) {
        if cell.file() >= layout.width || cell.rank() >= layout.height {
            continue;
        }
        let rect = layout.cell_rect(cell);
        let t = n as f32 / most as f32;
        painter.rect_filled(rect.shrink(2.0), CornerRadius::same(3), decision_color(t));
        // Dark figures on a faint tint, light ones on a strong tint.
        let ink = if t < 0.5 { Color32::from_gray(25) } else { Color32::WHITE };
        painter.text(
            rect.right_top() + egui::vec2(-4.0, 3.0),
            egui::Align2::RIGHT_TOP,
            n.to_string(),
            FontId::proportional((layout.cell * 0.26).clamp(10.0, 18.0)),
            ink,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{even_marks, interval_strip, outcome_shares, plain_agents, round_step};

    /// The live test's strip: the interval against the shaded band, with
    /// the scale's values, 0%, 40%, 60% and 100%, under it. Rendered with
    /// wgpu (lavapipe in CI) and compared with `tests/snapshots`.
    #[test]
    fn snapshot_interval_strip_with_its_scale() {
        let mut harness =
            egui_kittest::Harness::builder().with_size(egui::vec2(380.0, 40.0)).build_ui(|ui| {
                interval_strip(ui, (0.48, 0.55, 0.62), false);
            });
        harness.run();
        harness.snapshot("interval_strip");
    }

    /// The win-rate chart shows every outcome, draws included: its shares
    /// add up to every game.
    #[test]
    fn the_outcomes_drawn_add_up_to_every_game() {
        let pack = crate::level::Pack::bundled_with("open").expect("bundled");
        let start = pack.level("open").and_then(|l| l.start_state(pack.rules).ok()).expect("playable");
        let easy: crate::ai::Agent = "easy".parse().expect("an agent");
        // Short games: some end as stalls.
        let config =
            crate::sim::Config { max_actions: 12, threads: 1, ..crate::sim::Config::fixed([easy, easy], 20) };
        let never = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let results = crate::sim::run(&start, &config, &|| {}, &never);
        let report =
            crate::sim::Report::new("open", ["easy".into(), "easy".into()], start.turn(), &results, false);
        let shares = outcome_shares(&report);
        assert_eq!(shares.map(|(name, _)| name), ["Player 1", "Player 2", "Stalls", "Draws"]);
        let total: f64 = shares.iter().map(|(_, share)| share).sum();
        assert!((total - 1.0).abs() < 1e-9, "{shares:?}");
        assert!(shares[2].1 > 0.0, "12 actions leave some games stalled: {shares:?}");
    }

    /// The length histogram's axis is marked in round steps, five or so
    /// across, not only at its ends.
    #[test]
    fn length_axes_step_roundly() {
        assert_eq!([1, 2, 3, 7, 20, 21, 60, 101].map(round_step), [1, 2, 5, 10, 20, 50, 100, 200]);
    }

    /// The verdict names the agents as a designer knows them; the engine
    /// settings go to the tooltip.
    #[test]
    fn verdicts_name_agents_without_their_settings() {
        let text = "balanced: the first player's interval lies within 40–60% under expert (alphabeta:4:40000:fitted) and deep (alphabeta:6:150000:fitted)";
        let (plain, settings) = plain_agents(text);
        assert_eq!(plain, "balanced: the first player's interval lies within 40–60% under expert and deep");
        assert!(!plain.contains("alphabeta"));
        assert_eq!(settings, ["expert: alphabeta:4:40000:fitted", "deep: alphabeta:6:150000:fitted"]);
        // An agent without a name keeps its settings: they are its name.
        let (plain, settings) = plain_agents("under alphabeta:5:1000 and greedy");
        assert_eq!((plain.as_str(), settings.len()), ("under alphabeta:5:1000 and greedy", 0));
    }

    #[test]
    fn count_axes_are_marked_in_whole_steps_through_the_top() {
        let values = |bounds, step| even_marks(bounds, step).iter().map(|m| m.value).collect::<Vec<_>>();
        // A histogram whose tallest bar is 4 games: 0, 2 and 4 are labelled,
        // not 0 alone.
        assert_eq!(values((-0.2, 4.4), 2.0), [0.0, 2.0, 4.0]);
        assert_eq!(values((0.0, 1.05), 0.25), [0.0, 0.25, 0.5, 0.75, 1.0]);
        assert!(values((0.0, 1e9), 1.0).len() <= 64, "a runaway range draws a bounded grid");
    }
}
