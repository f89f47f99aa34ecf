//! The level editor: an eframe/egui desktop app to paint, check and save
//! level packs.
//!
//! *Architecture Invariant*: only this module names egui, eframe and rfd,
//! and nothing in the library imports it; the binary starts it.

pub mod analyses;
mod app;
pub mod board;
pub mod command;
pub mod dialog;
pub mod document;
mod findings;
pub mod job;
pub mod overlays;
pub mod sandbox;
pub mod storage;
mod ui;

use std::path::PathBuf;

pub use app::{AUTOSAVE_EVERY, EditorApp};
pub use dialog::{Answer, Bundled, FileTask, GenerateForm, Modal, Then};
pub use findings::ShownFinding;
pub use sandbox::announce;
pub use ui::{Editor, finding_text_color};

use storage::{AppPaths, NativeDialogs};

impl eframe::App for Editor {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.ui_root(ui);
    }

    fn on_exit(&mut self) {
        self.app().save_prefs();
    }
}

/// Whether a window can be opened here.
#[must_use]
pub fn display_available() -> bool {
    display_available_on(std::env::consts::OS, |name| std::env::var_os(name))
}

/// Whether a window can be opened on `os` with the environment `var`:
/// where windows come from an X11 or Wayland server (Linux and the BSDs),
/// only when `DISPLAY` or `WAYLAND_DISPLAY` names one; on macOS and
/// Windows, always.
#[must_use]
pub fn display_available_on(os: &str, var: impl Fn(&str) -> Option<std::ffi::OsString>) -> bool {
    let needs_server = matches!(os, "linux" | "freebsd" | "openbsd" | "netbsd" | "dragonfly" | "illumos");
    !needs_server || ["DISPLAY", "WAYLAND_DISPLAY"].iter().any(|v| var(v).is_some_and(|s| !s.is_empty()))
}

/// Opens the editor window on `pack`, or on the last pack worked on (the
/// bundled pack on a first run).
pub fn run(pack: Option<PathBuf>) -> anyhow::Result<()> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Push Crate Studio")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([800.0, 520.0]),
        ..eframe::NativeOptions::default()
    };
    eframe::run_native(
        "Push Crate Studio",
        options,
        Box::new(move |_cc| {
            let mut app = EditorApp::new(Box::new(NativeDialogs), AppPaths::from_env());
            match &pack {
                Some(path) => app.open_at_start(path),
                None => app.reopen_last_at_start(),
            }
            Ok(Box::new(Editor::new(app)))
        }),
    )
    .map_err(|e| anyhow::anyhow!("cannot open the editor window: {e}"))
}
