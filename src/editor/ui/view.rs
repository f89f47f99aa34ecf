//! What every view shares: [`View`], a view's handle for one frame, and
//! [`Local`], what the views keep between frames (the pointer's state, a
//! drag in progress), and the colours of severities.

use egui::{Color32, PointerButton};

use super::super::app::EditorApp;
use super::super::command::Command;
use crate::analysis::Severity;
use crate::rules::Cell;

/// What the views keep between frames: the pointer's, not the document's.
#[derive(Default)]
pub(super) struct Local {
    pub(super) hovered: Option<crate::rules::Cell>,
    pub(super) drag: Option<Drag>,
    /// The last cell a brush stroke painted: Shift+click draws a straight
    /// line from it (as Tiled does).
    pub(super) last_painted: Option<crate::rules::Cell>,
    /// The open dialog's size in the last frame, while it settles.
    pub(super) modal_size: Option<egui::Vec2>,
    /// Which dialog was open in the last frame.
    pub(super) modal_kind: Option<std::mem::Discriminant<crate::editor::dialog::Modal>>,
}

/// A view's handle for one frame: the editor to read, the pointer's state,
/// and the commands sent so far.
pub(super) struct View<'a> {
    pub(super) app: &'a EditorApp,
    pub(super) local: &'a mut Local,
    pub(super) sent: &'a mut Vec<Command>,
}

impl std::ops::Deref for View<'_> {
    type Target = EditorApp;

    fn deref(&self) -> &EditorApp {
        self.app
    }
}

/// A drag in progress on the board.
#[derive(Clone, Copy, Debug)]
pub struct Drag {
    pub(super) button: PointerButton,
    pub(super) start: Cell,
    pub(super) last: Option<Cell>,
    /// Where the pointer was at the last frame of the stroke: the cells
    /// between it and the pointer now are painted too, however fast it
    /// moved.
    pub(super) last_pos: egui::Pos2,
}

/// The colour of a severity: errors red, warnings amber, notes grey.
pub(super) fn severity_color(severity: Severity) -> Color32 {
    match severity {
        Severity::Error => Color32::from_rgb(200, 40, 40),
        Severity::Warning => Color32::from_rgb(200, 140, 0),
        Severity::Note => Color32::from_gray(120),
    }
}
