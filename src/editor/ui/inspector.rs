//! The inspector: the current level's fields and its findings.

use egui::{Button, Color32, RichText, Ui};

use super::view::View;
use super::view::severity_color;
use crate::analysis::Severity;
use crate::editor::command::{Command, FormField};
use crate::rules::{MAX_SIDE, MIN_SIDE, Player};

/// The colour of a finding's text: its severity's, or on the selection's
/// background the selection's own text colour, which is made to be read
/// there.
#[must_use]
pub fn finding_text_color(visuals: &egui::Visuals, severity: Severity, selected: bool) -> Color32 {
    if selected { visuals.selection.stroke.color } else { severity_color(severity) }
}

impl View<'_> {
    pub(super) fn inspector_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        self.level_fields_ui(ui);
        ui.separator();
        // The analysis right under the level's fields, so that opening the
        // expectations or the heat map's legend never pushes it out of
        // sight.
        self.findings_ui(ui);
        ui.separator();
        self.expectations_ui(ui);
        ui.separator();
        if app.prefs().show_distances {
            self.heat_legend_ui(ui);
            ui.separator();
        }
        board_key_ui(ui, app.prefs().show_sole_path, app.prefs().show_routes);
    }

    /// The level's expectations (level tests, format version 2): a box for
    /// each form, and beside each one chosen whether it holds now — the
    /// analysis's answer at once, the balance check's once it has run on
    /// this layout in play mode.
    fn expectations_ui(&mut self, ui: &mut Ui) {
        use crate::level::Expectation;
        let app = self.app;
        let Some(level) = app.doc().level() else { return };
        let index = app.doc().current();
        let Some(report) = app.analyses().report(level) else { return };
        let problems: Vec<crate::level::Problem> =
            app.pack_problems().iter().filter(|p| p.field.level() == Some(index)).cloned().collect();
        // The balance check, where one ran on this layout under these
        // rules: what the verdict depends on (the layout's fingerprint), not
        // the level's name, notes or expectations, so that ticking an
        // expectation or renaming the level keeps the verdict just found.
        let rules = app.doc().pack().rules;
        let fingerprint = crate::level::record::layout_fingerprint(level, rules);
        let check = app
            .sandbox()
            .filter(|s| {
                let playable = s.game().playable();
                playable.rules() == rules
                    && crate::level::record::layout_fingerprint(playable.level(), rules) == fingerprint
            })
            .and_then(|s| s.balance().report())
            .map(|(check, _)| check);
        let met = |form: &Expectation| {
            crate::analysis::meets(form, level, &problems, &report)
                // The solver only for `decided:N`, once per layout.
                .or_else(|| {
                    matches!(form, Expectation::Decided(_))
                        .then(|| app.analyses().forced_win(level))
                        .flatten()
                        .and_then(|forced| crate::sim::meets_decided(form, forced.as_ref()))
                })
                .or_else(|| check.and_then(|c| c.meets(form)))
        };
        let results: Vec<Option<crate::analysis::Met>> = level.expect.iter().map(&met).collect();
        let fails = results.iter().flatten().filter(|m| !m.holds).count();
        let holds = results.iter().flatten().filter(|m| m.holds).count();
        let waiting = results.iter().filter(|m| m.is_none()).count();
        let mut header = format!("Expectations ({})", level.expect.len());
        if !level.expect.is_empty() {
            header.push_str(&format!(": {holds} hold, {fails} fail"));
            if waiting > 0 {
                header.push_str(&format!(", {waiting} unchecked"));
            }
        }
        let header = if fails > 0 {
            RichText::new(header).color(severity_color(Severity::Error))
        } else {
            RichText::new(header)
        };
        let section = egui::CollapsingHeader::new(header).id_salt("expectations").default_open(false).show(ui, |ui| {
            ui.label(
                RichText::new("What the level is meant to be; `pushcrate analyze --verify` fails when one does not hold.")
                    .small(),
            );
            let forms = expectation_forms(level, &problems, &report);
            let mut changed = None;
            for form in forms {
                let chosen = level.expect.iter().position(|e| *e == form);
                let result = chosen.map(|i| results[i].as_ref());
                let solving = matches!(form, Expectation::Decided(_)) && app.analyses().solving();
                if let Some(expect) = expectation_row_ui(ui, &level.expect, &form, result, solving) {
                    changed = Some(expect);
                }
            }
            if let Some(expect) = changed {
                self.command(Command::SetField(FormField::Expectations(expect)));
            }
        });
        section.header_response.on_hover_text(
            "Unchecked: an expectation only the balance check answers (Play (F5) ▸ Balance, on this layout)",
        );
    }

    /// The heat map's legend: the colours from the flag to the farthest
    /// cell, with their step counts, and the hatching of unreachable floor.
    fn heat_legend_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        let Some(level) = app.doc().level().cloned() else { return };
        let Some(overlays) = app.analyses().overlays(&level) else { return };
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
        let app = self.app;
        let Some(level) = app.doc().level().cloned() else {
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
        let app = self.app;
        ui.heading("Analysis");
        let findings = app.current_findings();
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
        if let Some(level) = app.doc().level().cloned()
            && let Some(report) = app.analyses().report(&level)
        {
            if let Some(race) = report.race {
                ui.label(format!(
                    "Race: {} reaches the flag first, by {} action(s). To the flag {} / {} steps, home {} / {}.",
                    race.first_to_flag, race.lead, race.legs[0].to_flag, race.legs[1].to_flag, race.legs[0].to_goal, race.legs[1].to_goal
                ));
            }
            if let Some(estimate) = app.analyses().estimate(&level) {
                let accuracy = crate::ai::estimate::ACCURACY;
                ui.label(format!(
                    "Estimate: the first player ({}) scores {:.0}%, ±{:.0} points on held-out levels.",
                    estimate.first,
                    100.0 * estimate.first_player,
                    accuracy.mean_error
                ))
                .on_hover_text(format!(
                    "Before any game: the fitted evaluation's chance that the first player wins, after a {}-action search ({} positions). On {} generated levels it never saw, it was {:.1} points from the balance check's score on average and named the same side (player 1 ahead, balanced, player 2 ahead) {:.0}% of the time. The check's games are the verdict.",
                    crate::ai::estimate::LIMITS.depth,
                    estimate.nodes,
                    accuracy.levels,
                    accuracy.mean_error,
                    100.0 * accuracy.same_side
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
            let selected = app.selected_finding() == Some(i);
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

/// What the board's marks mean: start squares, goal bands, and the
/// overlays that are on, in body text (not the small, grey style, which is
/// too faint to read on the dark panel at 1280 × 800).
fn board_key_ui(ui: &mut Ui, sole_path: bool, routes: bool) {
    use crate::editor::board::{paint_sole_dot, player_color};
    ui.horizontal_wrapped(|ui| {
        for p in Player::BOTH {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            ui.painter().circle_filled(rect.center(), 6.0, player_color(p));
            ui.label(format!("start {}", p.number()));
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            let band =
                egui::Rect::from_min_size(rect.left_top() + egui::vec2(0.0, 5.0), egui::vec2(14.0, 4.0));
            ui.painter().rect_filled(band, 0.0, player_color(p));
            ui.label(format!("goal {}", p.number()));
        }
    });
    if sole_path || routes {
        ui.horizontal_wrapped(|ui| {
            if sole_path {
                let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
                paint_sole_dot(ui.painter(), rect.center(), 4.5);
                ui.label("sole-path cell: a route's only way through, no crate may go there");
            }
            if routes {
                for p in Player::BOTH {
                    let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 14.0), egui::Sense::hover());
                    ui.painter().line_segment(
                        [rect.left_center(), rect.right_center()],
                        egui::Stroke::new(3.0, player_color(p)),
                    );
                    ui.label(format!("route {}", p.number()));
                }
            }
        });
    }
    ui.separator();
}

/// An expectation as a designer reads it: a short label, and what it
/// means (its finding's summary for `finding:CODE`).
fn expectation_words(form: &crate::level::Expectation) -> (String, String) {
    use crate::level::Expectation;
    let player = |p: Player| format!("player {}", p.number());
    match form {
        Expectation::Valid => ("Valid".into(), "The level has no error.".into()),
        Expectation::NoWarnings => ("No warnings".into(), "The level has no error and no warning.".into()),
        Expectation::Balanced => (
            "Balanced".into(),
            "The default balance check (expert and deep) calls the level balanced.".into(),
        ),
        Expectation::Unbalanced(p) => (
            format!("Unbalanced for {}", player(*p)),
            format!("The balance check finds {} ahead, or the solver proves its forced win.", player(*p)),
        ),
        Expectation::Decided(p) => (
            format!("Decided for {}", player(*p)),
            format!("The solver proves that {}, moving first, forces a win.", player(*p)),
        ),
        Expectation::Unwinnable => {
            ("Unwinnable".into(), "The flag can never be brought home: a route is walled off.".into())
        }
        Expectation::Finding(code) => {
            let summary = crate::analysis::FindingCode::ALL
                .iter()
                .find(|c| c.as_str() == code)
                .map(|c| c.summary())
                .or_else(|| crate::level::Code::ALL.iter().find(|c| c.as_str() == code).map(|c| c.summary()))
                .unwrap_or("A code of the format or the analysis.");
            let title = summary.split([':', '.']).next().unwrap_or(summary).trim();
            (format!("{code}: {title}"), summary.to_owned())
        }
    }
}

/// The expectations the inspector offers for `level`: every form, and a
/// finding's code for each problem or finding the level has now or is
/// expected to have.
fn expectation_forms(
    level: &crate::level::Level,
    problems: &[crate::level::Problem],
    report: &crate::analysis::LevelReport,
) -> Vec<crate::level::Expectation> {
    use crate::level::Expectation;
    let mut forms = vec![
        Expectation::Valid,
        Expectation::NoWarnings,
        Expectation::Balanced,
        Expectation::Unbalanced(Player::One),
        Expectation::Unbalanced(Player::Two),
        Expectation::Decided(Player::One),
        Expectation::Decided(Player::Two),
        Expectation::Unwinnable,
    ];
    // The codes the level has now, and those it is expected to.
    let mut codes: Vec<String> = problems
        .iter()
        .map(|p| p.code.as_str().to_owned())
        .chain(report.findings.iter().map(|f| f.code.as_str().to_owned()))
        .collect();
    codes.extend(level.expect.iter().filter_map(|e| match e {
        Expectation::Finding(code) => Some(code.clone()),
        _ => None,
    }));
    codes.sort();
    codes.dedup();
    forms.extend(codes.into_iter().map(Expectation::Finding));
    forms
}

/// One expectation's row: its box (ticking it gives the new list, which
/// is returned) and, when chosen (`result` is `Some`), whether it holds, or
/// what would answer it.
fn expectation_row_ui(
    ui: &mut Ui,
    expect: &[crate::level::Expectation],
    form: &crate::level::Expectation,
    result: Option<Option<&crate::analysis::Met>>,
    solving: bool,
) -> Option<Vec<crate::level::Expectation>> {
    let mut changed = None;
    ui.horizontal_wrapped(|ui| {
        let mut on = result.is_some();
        let (label, meaning) = expectation_words(form);
        let checkbox = ui
            .checkbox(&mut on, label)
            .on_hover_text(format!("{meaning}\n(`{form}` in the pack's `expect` list)"));
        if checkbox.changed() {
            let mut expect = expect.to_vec();
            if on {
                expect.push(form.clone());
            } else {
                expect.retain(|e| e != form);
            }
            changed = Some(expect);
        }
        let Some(result) = result else { return };
        match result {
            Some(met) => {
                let (mark, color) = if met.holds {
                    ("holds", Color32::from_rgb(40, 150, 60))
                } else {
                    ("fails", severity_color(Severity::Error))
                };
                ui.label(RichText::new(mark).strong().color(color)).on_hover_text(met.why.clone());
            }
            None if solving => {
                ui.label(RichText::new("solving…").weak())
                    .on_hover_text("The solver looks for a forced win in the background.");
            }
            None => {
                ui.label(RichText::new("run the balance check").weak()).on_hover_text(
                    "Play (F5) ▸ Balance ▸ Run self-play on this layout, or `pushcrate analyze --verify --balance`",
                );
            }
        }
    });
    changed
}
