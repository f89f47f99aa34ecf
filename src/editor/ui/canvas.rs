//! The board in editing: pointer strokes become edits, overlays are drawn.

use egui::{PointerButton, Role, Sense, Ui, WidgetInfo};

use super::view::{Drag, View};
use crate::editor::board::{BoardLayout, BoardView, paint_level};
use crate::editor::command::{Command, Setting, Tool};
use crate::level::edit::Tile;
use crate::rules::Cell;

/// The tools that paint cell by cell along a drag, and so along a
/// Shift+click line.
const fn is_brush(tool: Tool) -> bool {
    matches!(tool, Tool::Wall | Tool::Eraser | Tool::Crate | Tool::Goal(_))
}

impl View<'_> {
    fn board_view(&mut self, level: &crate::level::Level) -> BoardView {
        let app = self.app;
        let mut view = BoardView { hovered: self.local.hovered, ..BoardView::default() };
        if app.prefs().show_sole_path
            && let Some(report) = app.analyses().report(level)
        {
            view.sole_path = report.sole_path_cells.iter().copied().collect();
        }
        if (app.prefs().show_routes || app.prefs().show_distances)
            && let Some(overlays) = app.analyses().overlays(level)
        {
            if app.prefs().show_routes {
                view.routes.clone_from(&overlays.routes);
            }
            if app.prefs().show_distances {
                view.distances.clone_from(&overlays.distances);
            }
        }
        if let Some(i) = app.selected_finding()
            && let Some(finding) = app.current_findings().get(i)
        {
            view.highlight = finding.cells;
            view.highlight_cut = finding.cut;
            view.highlight_path.clone_from(&finding.path);
        }
        if let (Some(drag), Tool::Rectangle, Some(hovered)) =
            (self.local.drag, app.tool(), self.local.hovered)
        {
            view.preview = Some((drag.start, hovered, drag.button == PointerButton::Primary));
        }
        view
    }

    /// The board's layout in `response`'s rectangle under the view's zoom,
    /// after this frame's zoom and pan: Ctrl and the wheel (or a pinch) zoom
    /// about the pointer, the wheel pans a zoomed board, and so does a drag
    /// with the middle button. The whole board is back with Ctrl+0.
    pub(crate) fn zoomed_layout(
        &mut self,
        ui: &Ui,
        response: &egui::Response,
        width: u8,
        height: u8,
    ) -> BoardLayout {
        let layout = |zoom| BoardLayout::zoomed(response.rect, width, height, zoom);
        let before = self.app.zoom();
        let mut zoom = before;
        if response.hovered() {
            let (factor, scroll, pointer) =
                ui.input(|i| (i.zoom_delta(), i.smooth_scroll_delta, i.pointer.hover_pos()));
            if let Some(pointer) = pointer.filter(|_| factor != 1.0) {
                zoom = zoom.zoomed(factor, pointer, response.rect.center());
            } else if scroll != egui::Vec2::ZERO {
                zoom = zoom.panned(scroll, &layout(zoom));
            }
        }
        if response.dragged_by(PointerButton::Middle) {
            zoom = zoom.panned(response.drag_delta(), &layout(zoom));
        }
        if zoom != before {
            self.command(Command::Set(Setting::Zoom(zoom)));
        }
        layout(zoom)
    }

    pub(super) fn board_ui(&mut self, ui: &mut Ui) {
        let app = self.app;
        let Some(level) = app.doc().level().cloned() else {
            ui.centered_and_justified(|ui| ui.label("The pack has no level: add one."));
            return;
        };
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| WidgetInfo::labeled(Role::Canvas, true, "Board"));
        let layout = self.zoomed_layout(ui, &response, level.width, level.height);
        self.local.hovered = response.hover_pos().and_then(|p| layout.cell_at(p));
        self.board_input(ui, &response, &layout, &level);
        let view = self.board_view(&level);
        paint_level(&painter, &layout, &level, &view);
        self.paint_selection(ui, &painter, &layout, &level);
    }

    /// The selected rectangle (or the one being dragged) and, while
    /// pasting, the copied region where a click would put it.
    fn paint_selection(
        &self,
        ui: &Ui,
        painter: &egui::Painter,
        layout: &BoardLayout,
        level: &crate::level::Level,
    ) {
        let app = self.app;
        // Dark with a light inner line: readable on floor and on walls.
        let outline = |painter: &egui::Painter, rect: egui::Rect| {
            painter.rect_stroke(
                rect,
                0.0,
                egui::Stroke::new(3.0, egui::Color32::from_gray(20)),
                egui::StrokeKind::Inside,
            );
            painter.rect_stroke(
                rect.shrink(3.0),
                0.0,
                egui::Stroke::new(1.0, egui::Color32::WHITE),
                egui::StrokeKind::Inside,
            );
        };
        let tint = ui.visuals().selection.bg_fill;
        let dragging = match (self.local.drag, app.tool(), self.local.hovered) {
            (Some(drag), Tool::Select, Some(hovered)) => Some((drag.start, hovered)),
            _ => None,
        };
        if let Some((a, b)) = dragging.or(app.selection()) {
            let rect = layout.cell_rect(a).union(layout.cell_rect(b));
            painter.rect_filled(rect, 0.0, tint.gamma_multiply(0.3));
            outline(painter, rect);
        }
        let (Some(region), Some(at)) = (app.stamp(), self.local.hovered) else { return };
        let mut stamp = egui::Rect::NOTHING;
        for dr in 0..region.height {
            for df in 0..region.width {
                let Some(cell) = region.cell_at(at, df, dr, level.width, level.height) else { continue };
                let rect = layout.cell_rect(cell);
                stamp = stamp.union(rect);
                let (inset, fill) = match region.tile(df, dr) {
                    Tile::Wall => (2.0, crate::editor::board::WALL.gamma_multiply(0.75)),
                    Tile::Crate(_) => {
                        (rect.width() * 0.22, egui::Color32::from_rgb(170, 110, 50).gamma_multiply(0.8))
                    }
                    Tile::Floor => (2.0, crate::editor::board::FLOOR.gamma_multiply(0.6)),
                };
                painter.rect_filled(rect.shrink(inset), 2.0, fill);
            }
        }
        outline(painter, stamp);
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
        // While pasting, a click places the region and a right click stops.
        if self.app.stamp().is_some() {
            for event in events {
                if let egui::Event::PointerButton { pos, button, pressed: true, .. } = event
                    && ui.ctx().layer_id_at(pos) == Some(response.layer_id)
                {
                    match (button, layout.cell_at(pos)) {
                        (PointerButton::Primary, Some(cell)) => self.command(Command::PasteAt(cell)),
                        (PointerButton::Secondary, _) => self.command(Command::Deselect),
                        _ => {}
                    }
                }
            }
            return;
        }
        for event in events {
            match event {
                egui::Event::PointerButton { pos, button, pressed: true, modifiers, .. }
                    if matches!(button, PointerButton::Primary | PointerButton::Secondary)
                        && self.local.drag.is_none()
                        && ui.ctx().layer_id_at(pos) == Some(response.layer_id) =>
                {
                    if let Some(start) = layout.cell_at(pos) {
                        if self.app.tool() == Tool::Select {
                            self.local.drag = Some(Drag { button, start, last: Some(start), last_pos: pos });
                            continue;
                        }
                        self.command(Command::BeginStroke);
                        // Shift+click: a straight line from the last cell
                        // painted to this one, the one stroke (one undo).
                        let line_from =
                            self.local.last_painted.filter(|_| modifiers.shift && is_brush(self.app.tool()));
                        if let Some(from) = line_from {
                            let from_pos = layout.cell_rect(from).center();
                            self.local.drag =
                                Some(Drag { button, start: from, last: Some(from), last_pos: from_pos });
                            self.stroke_to(layout, pos);
                            continue;
                        }
                        let mut drag = Drag { button, start, last: None, last_pos: pos };
                        self.stroke_cell(&mut drag, start);
                        self.local.drag = Some(drag);
                    }
                }
                egui::Event::PointerMoved(pos) => self.stroke_to(layout, pos),
                egui::Event::PointerButton { pos, button, pressed: false, .. }
                    if self.local.drag.is_some_and(|d| d.button == button) =>
                {
                    self.stroke_to(layout, pos);
                    if let Some(drag) = self.local.drag.take() {
                        if self.app.tool() == Tool::Select {
                            let end = layout.cell_at(pos).or(drag.last).unwrap_or(drag.start);
                            self.command(Command::Select(Some((drag.start, end))));
                            continue;
                        }
                        let primary = drag.button == PointerButton::Primary;
                        if let Some(end) = layout.cell_at(pos).or(drag.last)
                            && let Some(op) = self.app.tool().edit_between(drag.start, end, primary)
                        {
                            self.command(Command::Paint(op));
                        }
                        if is_brush(self.app.tool()) {
                            self.local.last_painted = drag.last;
                        }
                        self.command(Command::EndStroke);
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
        let Some(mut drag) = self.local.drag else { return };
        for cell in layout.cells_along(drag.last_pos, pos) {
            if drag.last != Some(cell) {
                self.stroke_cell(&mut drag, cell);
            }
        }
        drag.last_pos = pos;
        self.local.drag = Some(drag);
    }

    /// Applies the current tool to one cell of a stroke.
    fn stroke_cell(&mut self, drag: &mut Drag, cell: Cell) {
        let app = self.app;
        let primary = drag.button == PointerButton::Primary;
        if let Some(op) = app.tool().edit_at(cell, primary, drag.last.is_none(), app.stage()) {
            self.command(Command::Paint(op));
        }
        drag.last = Some(cell);
    }
}
