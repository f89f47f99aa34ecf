//! The editor's frame cost: the CPU time of one frame of the whole UI
//! (layout, analysis lookups, the board painter and every overlay), without
//! GPU rendering, beside a plain reference frame in the same process: the
//! same panels with no content. Results are recorded in
//! `docs/performance.md`. Run with `cargo bench --bench editor`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use divan::{Bencher, black_box};
use egui::{CentralPanel, Panel, RawInput, Rect, pos2, vec2};
use pushcrate::editor::command::{Command, Overlay};
use pushcrate::editor::storage::{AppPaths, FileDialogs};
use pushcrate::editor::{Bundled, Editor, EditorApp};

fn main() {
    divan::main();
}

struct NoDialogs;

impl FileDialogs for NoDialogs {
    fn available(&self) -> bool {
        false
    }
    fn open(&mut self) -> Option<std::path::PathBuf> {
        None
    }
    fn save(&mut self, _name: &str, _extension: &str) -> Option<std::path::PathBuf> {
        None
    }
}

fn input(hover: egui::Pos2) -> RawInput {
    RawInput {
        screen_rect: Some(Rect::from_min_size(pos2(0.0, 0.0), vec2(1280.0, 800.0))),
        events: vec![egui::Event::PointerMoved(hover)],
        ..RawInput::default()
    }
}

/// The editor on `level` with every overlay on and a finding selected,
/// warmed up so that the analysis is cached as it is while a designer
/// works.
fn editor(level: &str, dir: &std::path::Path) -> (egui::Context, Editor) {
    let ctx = egui::Context::default();
    let mut app = Editor::new(EditorApp::new(Box::new(NoDialogs), AppPaths { dir: dir.to_path_buf() }));
    for overlay in Overlay::ALL {
        if !app.overlay(overlay) {
            app.command(Command::ToggleOverlay(overlay));
        }
    }
    if app.doc().pack().level_index(level).is_none() {
        app.command(Command::OpenBundled(Bundled::Flawed));
    }
    let index = app.doc().pack().level_index(level).unwrap();
    app.command(Command::SelectLevel(index));
    for _ in 0..3 {
        let _ = ctx.run_ui(input(pos2(640.0, 400.0)), |ui| app.ui_root(ui));
    }
    if !app.current_findings().is_empty() {
        app.command(Command::SelectFinding(Some(0)));
        let _ = ctx.run_ui(input(pos2(640.0, 400.0)), |ui| app.ui_root(ui));
    }
    (ctx, app)
}

/// One frame of the whole editor, shapes tessellated into meshes.
#[divan::bench(args = ["arena", "open", "fortress"], sample_count = 50)]
fn editor_frame(bencher: Bencher, level: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (ctx, mut app) = editor(level, dir.path());
    let mut x = 0.0;
    bencher.bench_local(|| {
        // The pointer moves over the board, as a designer's does.
        x = (x + 7.0) % 400.0;
        let output = ctx.run_ui(input(pos2(450.0 + x, 300.0 + x / 2.0)), |ui| app.ui_root(ui));
        black_box(ctx.tessellate(output.shapes, output.pixels_per_point))
    });
}

/// The reference: the same window and panels, empty.
#[divan::bench(sample_count = 50)]
fn editor_frame_reference_empty_panels(bencher: Bencher) {
    let ctx = egui::Context::default();
    bencher.bench_local(|| {
        let output = ctx.run_ui(input(pos2(640.0, 400.0)), |ui| {
            Panel::top("menu").show(ui, |ui| ui.label("menu"));
            Panel::bottom("status").show(ui, |ui| ui.label("status"));
            Panel::left("levels").default_size(240.0).show(ui, |ui| ui.label("levels"));
            Panel::right("inspector").default_size(320.0).show(ui, |ui| ui.label("inspector"));
            CentralPanel::default().show(ui, |ui| ui.label("board"));
        });
        black_box(ctx.tessellate(output.shapes, output.pixels_per_point))
    });
}
