//! The view's state: the widgets' settings, the overlays, the zoom, the history window and the finding shown.

use super::EditorApp;
use crate::editor::command::{Command, Setting};
use crate::editor::command::{MIRRORS, Overlay, Tool};

impl EditorApp {
    /// Runs a command of this area ([`EditorApp::apply`] has checked it).
    pub(super) fn apply_view(&mut self, command: Command) {
        match command {
            Command::ToggleHistory => self.show_history = !self.show_history,
            Command::CycleMirror => {
                let i = MIRRORS.iter().position(|&m| m == self.prefs.mirror).unwrap_or(0);
                self.prefs.mirror = MIRRORS[(i + 1) % MIRRORS.len()];
            }
            Command::ToggleOverlay(overlay) => {
                let flag = match overlay {
                    Overlay::SolePath => &mut self.prefs.show_sole_path,
                    Overlay::Routes => &mut self.prefs.show_routes,
                    Overlay::Distances => &mut self.prefs.show_distances,
                };
                *flag = !*flag;
            }
            Command::ZoomIn => self.zoom = self.zoom.scaled(1.25),
            Command::ZoomOut => self.zoom = self.zoom.scaled(0.8),
            Command::FitBoard => self.zoom = crate::editor::board::BoardZoom::default(),
            Command::SelectFinding(i) => self.selected_finding = i,
            // `apply` sends each area only its own commands.
            _ => {}
        }
    }

    /// Sets a widget's setting.
    pub(super) fn apply_setting(&mut self, setting: Setting) {
        match setting {
            Setting::Tool(tool) => {
                self.tool = tool;
                self.pasting = false;
            }
            Setting::Stage(stage) => {
                self.stage = stage;
                self.tool = Tool::Crate;
            }
            Setting::Mirror(mirror) => self.prefs.mirror = mirror,
            Setting::Zoom(zoom) => self.zoom = zoom,
            Setting::Speed(speed) => self.with_game(|g| g.set_speed(speed)),
            Setting::Animate(on) => self.with_game(|g| g.set_animate(on)),
            Setting::BalanceGames(games) => self.with_sandbox(|s| s.balance_mut().set_games(games)),
            Setting::FixEdits(edits) => self.with_sandbox(|s| s.fixes_mut().set_edits(edits)),
            Setting::BalanceFixed(on) => self.with_sandbox(|s| s.balance_mut().set_fixed(on)),
            Setting::Decisions(event) => self.with_sandbox(|s| s.balance_mut().show_decisions(event)),
            Setting::BalanceChoice(i) => self.with_sandbox(|s| s.balance_mut().set_choice(i)),
        }
    }
}
