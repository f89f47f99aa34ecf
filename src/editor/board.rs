//! The board: drawing a level (never changing it) and turning the pointer
//! into cells.

use egui::{
    Align2, Color32, CornerRadius, FontId, Painter, Pos2, Rect, Shape, Stroke, StrokeKind, Vec2, pos2, vec2,
};

use crate::level::Level;
use crate::rules::{Bitboard, Cell, Player, Stage};

/// Player 1's colour.
pub const BLUE: Color32 = Color32::from_rgb(47, 111, 223);
/// Player 2's colour.
pub const RED: Color32 = Color32::from_rgb(217, 72, 59);
/// The floor.
pub const FLOOR: Color32 = Color32::from_rgb(236, 230, 214);
/// A wall.
pub const WALL: Color32 = Color32::from_rgb(59, 63, 70);
const GRID: Color32 = Color32::from_rgb(201, 193, 170);
const WOOD: Color32 = Color32::from_rgb(168, 116, 58);
const WOOD_DARK: Color32 = Color32::from_rgb(110, 72, 32);
const GOLD: Color32 = Color32::from_rgb(242, 183, 5);
const HIGHLIGHT: Color32 = Color32::from_rgb(255, 196, 0);
/// The walls of a cut route, crossed out.
const CUT: Color32 = Color32::from_rgb(230, 30, 30);
/// A sole-path cell's dot: apart from the players' colours and the heat
/// map's.
pub const SOLE: Color32 = Color32::from_rgb(170, 30, 140);

/// A level drawn small in `rect` (the level list's thumbnails): floor,
/// walls, crates, start squares in their players' colours and the flag.
pub fn paint_thumbnail(painter: &egui::Painter, rect: egui::Rect, level: &crate::level::Level) {
    let (w, h) = (f32::from(level.width), f32::from(level.height));
    let cell = (rect.width() / w).min(rect.height() / h);
    let origin = rect.center() - egui::vec2(cell * w, cell * h) / 2.0;
    let at = |c: Cell| {
        egui::Rect::from_min_size(
            origin + egui::vec2(f32::from(c.file()) * cell, (h - 1.0 - f32::from(c.rank())) * cell),
            egui::vec2(cell, cell),
        )
    };
    painter.rect_filled(egui::Rect::from_min_size(origin, egui::vec2(cell * w, cell * h)), 1.0, FLOOR);
    for wall in (level.walls & level.board()).iter() {
        painter.rect_filled(at(wall), 0.0, WALL);
    }
    for &c in level.crates.keys() {
        painter.rect_filled(at(c).shrink(cell * 0.15), 0.0, Color32::from_rgb(170, 110, 50));
    }
    for p in Player::BOTH {
        if let Some(start) = level.starts[p] {
            painter.rect_filled(at(start), 0.0, player_color(p));
        }
    }
    if let Some(flag) = level.flag {
        painter.circle_filled(at(flag).center(), cell * 0.45, Color32::from_rgb(230, 170, 20));
    }
}

/// A player's colour.
#[must_use]
pub const fn player_color(player: Player) -> Color32 {
    match player {
        Player::One => BLUE,
        Player::Two => RED,
    }
}

/// Where the cells of a board lie on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardLayout {
    /// The cells' area (larger than the panel when zoomed in).
    pub rect: Rect,
    /// The panel the board is drawn in: a point outside it is no cell,
    /// whatever lies under it.
    pub view: Rect,
    /// A cell's side.
    pub cell: f32,
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
}

/// Room for the file letters and rank numbers.
const MARGIN: f32 = 22.0;

/// How the board is zoomed and panned in its panel: the view's state, never
/// part of the document (an undo does not change it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardZoom {
    /// 1 fits the whole board in the panel; 2 shows cells twice as large.
    pub scale: f32,
    /// How far the board's centre lies from the panel's, in points.
    pub pan: Vec2,
}

impl Default for BoardZoom {
    fn default() -> BoardZoom {
        BoardZoom { scale: 1.0, pan: Vec2::ZERO }
    }
}

impl BoardZoom {
    /// The closest view: a cell six times as large as when the board fits.
    pub const MAX: f32 = 6.0;

    /// The view zoomed by `factor` about the panel point `about` (the
    /// pointer, or the panel's centre `centre`), so that the cell under it
    /// stays under it. The scale stays from 1 (the whole board) to
    /// [`BoardZoom::MAX`]; at 1 the board is centred again.
    #[must_use]
    pub fn zoomed(self, factor: f32, about: Pos2, centre: Pos2) -> BoardZoom {
        let scale = (self.scale * factor).clamp(1.0, Self::MAX);
        if scale <= 1.0 {
            return BoardZoom::default();
        }
        let ratio = scale / self.scale;
        let board_centre = centre + self.pan;
        let new_centre = about - (about - board_centre) * ratio;
        BoardZoom { scale, pan: new_centre - centre }
    }

    /// The view zoomed by `factor` about the board's own centre (the menu's
    /// and the keys' zoom, which have no pointer to zoom about).
    #[must_use]
    pub fn scaled(self, factor: f32) -> BoardZoom {
        self.zoomed(factor, Pos2::ZERO + self.pan, Pos2::ZERO)
    }

    /// The view moved by `delta` points, as far as the board stays in view.
    #[must_use]
    pub fn panned(self, delta: Vec2, layout: &BoardLayout) -> BoardZoom {
        if self.scale <= 1.0 {
            return self;
        }
        let limit = layout.rect.size() * 0.5;
        let pan = self.pan + delta;
        BoardZoom { pan: vec2(pan.x.clamp(-limit.x, limit.x), pan.y.clamp(-limit.y, limit.y)), ..self }
    }
}

impl BoardLayout {
    /// [`BoardLayout::new`] under `zoom`: cells `zoom.scale` times as large,
    /// the board's centre moved by `zoom.pan`.
    #[must_use]
    pub fn zoomed(available: Rect, width: u8, height: u8, zoom: BoardZoom) -> BoardLayout {
        let fit = BoardLayout::new(available, width, height);
        if zoom.scale <= 1.0 && zoom.pan == Vec2::ZERO {
            return fit;
        }
        let cell = (fit.cell * zoom.scale).floor();
        let size = vec2(cell * f32::from(width.max(1)), cell * f32::from(height.max(1)));
        let rect = Rect::from_center_size(available.center() + zoom.pan, size);
        BoardLayout { rect, view: available, cell, width, height }
    }

    /// The largest square cells that fit `available`, centred, with room
    /// for the edge labels.
    #[must_use]
    pub fn new(available: Rect, width: u8, height: u8) -> BoardLayout {
        let (w, h) = (f32::from(width.max(1)), f32::from(height.max(1)));
        let cell = ((available.width() - MARGIN * 2.0) / w)
            .min((available.height() - MARGIN * 2.0) / h)
            .floor()
            .max(8.0);
        let size = vec2(cell * w, cell * h);
        let rect = Rect::from_center_size(available.center(), size);
        BoardLayout { rect, view: available, cell, width, height }
    }

    /// The screen rectangle of `cell`.
    #[must_use]
    pub fn cell_rect(&self, cell: Cell) -> Rect {
        let min = pos2(
            self.rect.min.x + f32::from(cell.file()) * self.cell,
            self.rect.max.y - f32::from(cell.rank() + 1) * self.cell,
        );
        Rect::from_min_size(min, Vec2::splat(self.cell))
    }

    /// The cells the segment from `a` to `b` crosses, in order from `a`,
    /// each once: a stroke paints every cell the pointer passed over, even
    /// when the pointer reported only its two ends.
    #[must_use]
    pub fn cells_along(&self, a: Pos2, b: Pos2) -> Vec<Cell> {
        // Samples a quarter of a cell apart cannot step over a cell.
        let steps = ((b - a).length() / (self.cell / 4.0).max(1.0)).ceil().clamp(1.0, 4096.0) as usize;
        let mut cells: Vec<Cell> = Vec::new();
        for i in 0..=steps {
            let pos = a + (b - a) * (i as f32 / steps as f32);
            if let Some(cell) = self.cell_at(pos)
                && cells.last() != Some(&cell)
            {
                cells.push(cell);
            }
        }
        cells
    }

    /// The cell under `pos`, if it is on the board.
    #[must_use]
    pub fn cell_at(&self, pos: Pos2) -> Option<Cell> {
        if !self.rect.contains(pos) || !self.view.contains(pos) {
            return None;
        }
        let file = ((pos.x - self.rect.min.x) / self.cell).floor() as i32;
        let rank = ((self.rect.max.y - pos.y) / self.cell).floor() as i32;
        if file < 0 || rank < 0 || file >= i32::from(self.width) || rank >= i32::from(self.height) {
            return None;
        }
        Cell::try_new(file as u8, rank as u8)
    }
}

/// What to draw over the level.
#[derive(Clone, Default, Debug)]
pub struct BoardView {
    /// Sole-path cells to mark.
    pub sole_path: Bitboard,
    /// Routes to draw, in a player's colour.
    pub routes: Vec<(Player, Vec<Cell>)>,
    /// Steps from the flag, for the heat map.
    pub distances: Option<Vec<Option<u16>>>,
    /// Cells of the selected finding.
    pub highlight: Bitboard,
    /// The selected finding's path.
    pub highlight_path: Vec<Cell>,
    /// The walls of the selected finding's cut.
    pub highlight_cut: Bitboard,
    /// The rectangle being dragged.
    pub preview: Option<(Cell, Cell, bool)>,
    /// The cell under the pointer.
    pub hovered: Option<Cell>,
}

fn crate_shape(painter: &Painter, rect: Rect, stage: Stage) {
    // Where the stage's letter is drawn (large enough cells), the crate
    // keeps to the upper left and leaves the lower right corner to it.
    let lettered = rect.width() >= 24.0;
    let r = if lettered {
        Rect::from_min_size(rect.min + Vec2::splat(rect.width() * 0.1), Vec2::splat(rect.width() * 0.68))
    } else {
        rect.shrink(rect.width() * 0.12)
    };
    let edge = Stroke::new((rect.width() * 0.05).max(1.0), WOOD_DARK);
    match stage {
        Stage::Intact => {
            painter.rect_filled(r, CornerRadius::same(2), WOOD);
            painter.rect_stroke(r, CornerRadius::same(2), edge, StrokeKind::Inside);
            painter.line_segment([r.left_top(), r.right_bottom()], edge);
            painter.line_segment([r.right_top(), r.left_bottom()], edge);
        }
        Stage::Cracked => {
            painter.rect_filled(r, CornerRadius::same(2), WOOD);
            painter.rect_stroke(r, CornerRadius::same(2), edge, StrokeKind::Inside);
            let crack = Stroke::new(edge.width * 1.2, Color32::from_rgb(40, 25, 10));
            let pts = [
                pos2(r.center().x - r.width() * 0.05, r.top()),
                pos2(r.center().x + r.width() * 0.12, r.center().y - r.height() * 0.15),
                pos2(r.center().x - r.width() * 0.1, r.center().y + r.height() * 0.1),
                pos2(r.center().x + r.width() * 0.05, r.bottom()),
            ];
            painter.add(Shape::line(pts.to_vec(), crack));
        }
        Stage::Rubble => {
            // Three broken chunks.
            let s = r.width() * 0.38;
            for (dx, dy) in [(0.0, 0.0), (0.55, 0.1), (0.25, 0.55)] {
                let chunk = Rect::from_min_size(
                    pos2(r.left() + dx * r.width(), r.top() + dy * r.height()),
                    Vec2::splat(s),
                );
                painter.rect_filled(chunk, CornerRadius::same(1), WOOD);
                painter.rect_stroke(chunk, CornerRadius::same(1), edge, StrokeKind::Inside);
            }
        }
        Stage::Splinters => {
            let thin = Stroke::new(edge.width, WOOD_DARK);
            for i in 0..5 {
                let t = i as f32 / 4.0;
                let a = pos2(r.left() + t * r.width() * 0.8, r.top() + (t * 1.7).fract() * r.height() * 0.6);
                let b = a + vec2(r.width() * 0.22, r.height() * 0.35);
                painter.line_segment([a, b], thin);
            }
        }
    }
    // The stage's letter, so that stages are told apart at any size, in
    // the corner the crate leaves free.
    if lettered {
        painter.text(
            rect.right_bottom() - vec2(rect.width() * 0.04, rect.width() * 0.02),
            Align2::RIGHT_BOTTOM,
            stage.symbol(),
            FontId::monospace(rect.width() * 0.2),
            Color32::from_rgb(60, 40, 20),
        );
    }
}

fn flag_shape(painter: &Painter, rect: Rect) {
    let pole_x = rect.left() + rect.width() * 0.35;
    let top = rect.top() + rect.height() * 0.15;
    let bottom = rect.bottom() - rect.height() * 0.15;
    painter.line_segment([pos2(pole_x, top), pos2(pole_x, bottom)], Stroke::new(rect.width() * 0.06, WALL));
    let cloth = vec![
        pos2(pole_x, top),
        pos2(rect.right() - rect.width() * 0.15, top + rect.height() * 0.17),
        pos2(pole_x, top + rect.height() * 0.34),
    ];
    painter.add(Shape::convex_polygon(cloth, GOLD, Stroke::new(1.0, WOOD_DARK)));
}

/// Draws a player token with its number.
pub fn player_token(painter: &Painter, rect: Rect, player: Player, carrying: bool) {
    let radius = rect.width() * 0.34;
    painter.circle_filled(rect.center(), radius, player_color(player));
    painter.circle_stroke(rect.center(), radius, Stroke::new(1.5, Color32::WHITE));
    painter.text(
        rect.center(),
        Align2::CENTER_CENTER,
        player.number(),
        FontId::proportional(rect.width() * 0.38),
        Color32::WHITE,
    );
    if carrying {
        let small = Rect::from_min_size(
            rect.right_top() - vec2(rect.width() * 0.5, 0.0),
            Vec2::splat(rect.width() * 0.5),
        );
        flag_shape(painter, small);
    }
}

/// Draws the floor, walls, goals, labels and overlays of `level`.
pub fn paint_level(painter: &Painter, layout: &BoardLayout, level: &Level, view: &BoardView) {
    paint_ground(
        painter,
        layout,
        level.walls,
        [level.goal_cells(Player::One), level.goal_cells(Player::Two)],
        view,
    );
    for (&cell, &stage) in &level.crates {
        crate_shape(painter, layout.cell_rect(cell), stage);
    }
    if let Some(flag) = level.flag_cell() {
        flag_shape(painter, layout.cell_rect(flag));
    }
    for player in Player::BOTH {
        if let Some(start) = level.starts[player] {
            player_token(painter, layout.cell_rect(start), player, false);
        }
    }
    paint_marks(painter, layout, view);
}

/// Draws the pieces of a position under way (the sandbox): crates, the flag
/// lying or carried, and the players where they stand.
pub fn paint_position(
    painter: &Painter,
    layout: &BoardLayout,
    state: &crate::rules::GameState,
    view: &BoardView,
) {
    paint_ground(painter, layout, state.walls(), [state.goals(Player::One), state.goals(Player::Two)], view);
    for stage in Stage::ALL {
        for cell in state.crates(stage) {
            crate_shape(painter, layout.cell_rect(cell), stage);
        }
    }
    if let Some(flag) = state.lying_flag() {
        flag_shape(painter, layout.cell_rect(flag));
    }
    for player in Player::BOTH {
        let carrying = state.carrier() == Some(player);
        player_token(painter, layout.cell_rect(state.position(player)), player, carrying);
    }
    paint_marks(painter, layout, view);
}

fn paint_ground(
    painter: &Painter,
    layout: &BoardLayout,
    walls: Bitboard,
    goals: [Bitboard; 2],
    view: &BoardView,
) {
    let board = Bitboard::rectangle(layout.width, layout.height);
    let max_distance =
        view.distances.as_ref().map_or(1, |d| d.iter().flatten().copied().max().unwrap_or(1).max(1));
    for cell in board {
        let rect = layout.cell_rect(cell);
        if walls.has(cell) {
            painter.rect_filled(rect, CornerRadius::ZERO, WALL);
            continue;
        }
        painter.rect_filled(rect, CornerRadius::ZERO, FLOOR);
        if let Some(distances) = &view.distances {
            match distances.get(cell.index()).copied().flatten() {
                Some(d) => {
                    let color = heat_color(f32::from(d) / f32::from(max_distance));
                    painter.rect_filled(rect, CornerRadius::ZERO, color);
                }
                // Floor the flag cannot reach: hatched, unlike any distance.
                None => hatch(painter, rect),
            }
        }
        for (i, player) in Player::BOTH.into_iter().enumerate() {
            if goals[i].has(cell) {
                let c = player_color(player);
                // Under the heat map a goal is its band alone: a tint would
                // blend into the map's colours.
                if view.distances.is_none() {
                    let fill = Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), 55);
                    painter.rect_filled(rect.shrink(1.0), CornerRadius::ZERO, fill);
                }
                // Both players' goals on one cell: stripes of both colours.
                let band = Rect::from_min_size(
                    rect.left_top() + vec2(0.0, i as f32 * rect.height() * 0.12),
                    vec2(rect.width(), rect.height() * 0.12),
                );
                painter.rect_filled(band, CornerRadius::ZERO, c);
            }
        }
        painter.rect_stroke(rect, CornerRadius::ZERO, Stroke::new(1.0, GRID), StrokeKind::Inside);
        if view.sole_path.has(cell) {
            paint_sole_dot(painter, rect.center(), rect.width() * 0.1);
        }
    }
    // Cell names along the edges, kept in view when the board is zoomed
    // past the canvas (as LDtk keeps its rulers).
    let size = (layout.cell * 0.3).clamp(10.0, 15.0);
    let font = FontId::proportional(size);
    let label = Color32::from_gray(150);
    let backing = Color32::from_black_alpha(150);
    for edge in edge_labels(layout, painter.clip_rect(), size) {
        if edge.inside {
            // Over the board: on a dark backing, readable on any cell.
            let galley = painter.layout_no_wrap(edge.text.clone(), font.clone(), Color32::WHITE);
            let rect = edge.anchor.anchor_size(edge.pos, galley.size()).expand(2.0);
            painter.rect_filled(rect, CornerRadius::same(2), backing);
            painter.galley(rect.min + vec2(2.0, 2.0), galley, Color32::WHITE);
        } else {
            painter.text(edge.pos, edge.anchor, &edge.text, font.clone(), label);
        }
    }
}

/// A file's or a rank's name beside the board.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeLabel {
    /// `a`…, or `1`….
    pub text: String,
    /// Where it is drawn, anchored by `anchor`.
    pub pos: Pos2,
    /// How it hangs from `pos`.
    pub anchor: Align2,
    /// Whether it was brought over the board to stay in `clip`.
    pub inside: bool,
}

/// The names of the files under the board and of the ranks at its left,
/// each kept within `clip` (the canvas) when the board reaches past it:
/// files and ranks out of view have none.
#[must_use]
pub fn edge_labels(layout: &BoardLayout, clip: Rect, size: f32) -> Vec<EdgeLabel> {
    let mut labels = Vec::new();
    let bottom = clip.bottom() - size - 4.0;
    for file in 0..layout.width {
        let rect = layout.cell_rect(Cell::new(file, 0));
        let x = rect.center().x;
        if x < clip.left() || x > clip.right() {
            continue;
        }
        let y = rect.bottom() + 4.0;
        labels.push(EdgeLabel {
            text: char::from(b'a' + file).to_string(),
            pos: Pos2::new(x, y.min(bottom)),
            anchor: Align2::CENTER_TOP,
            inside: y > bottom,
        });
    }
    // Room for a two-digit rank, right-aligned at the label's position.
    let left = clip.left() + 1.3 * size;
    for rank in 0..layout.height {
        let rect = layout.cell_rect(Cell::new(0, rank));
        let y = rect.center().y;
        if y < clip.top() || y > clip.bottom() {
            continue;
        }
        let x = rect.left() - 5.0;
        labels.push(EdgeLabel {
            text: (rank + 1).to_string(),
            pos: Pos2::new(x.max(left), y),
            anchor: Align2::RIGHT_CENTER,
            inside: x < left,
        });
    }
    labels
}

/// The heat map's colour at `t` (0 at the flag, 1 at the farthest cell):
/// near the flag warm, far from it cool.
#[must_use]
pub fn heat_color(t: f32) -> Color32 {
    // Amber near the flag to teal far from it: neither is a player's blue
    // or red, so goal rows and start squares stand apart from the map.
    let t = t.clamp(0.0, 1.0);
    let mix = |a: f32, b: f32| (a + (b - a) * t) as u8;
    Color32::from_rgba_unmultiplied(mix(245.0, 30.0), mix(160.0, 150.0), mix(20.0, 140.0), 140)
}

/// A sole-path cell's mark: a dot with a light ring, readable on floor, on
/// the heat map and on a goal row.
pub fn paint_sole_dot(painter: &Painter, center: egui::Pos2, radius: f32) {
    painter.circle(center, radius, SOLE, Stroke::new(1.5, Color32::WHITE));
}

/// Diagonal grey hatching: floor the flag cannot reach.
pub fn hatch(painter: &Painter, rect: Rect) {
    let stroke = Stroke::new(1.5, Color32::from_gray(110));
    let step = rect.width() / 4.0;
    for i in 1..8 {
        let k = step * i as f32;
        let (a, b) = if k <= rect.width() {
            (rect.left_top() + vec2(k, 0.0), rect.left_top() + vec2(0.0, k))
        } else {
            let over = k - rect.width();
            (rect.right_top() + vec2(0.0, over), rect.left_bottom() + vec2(over, 0.0))
        };
        painter.line_segment([a, b], stroke);
    }
}

fn paint_marks(painter: &Painter, layout: &BoardLayout, view: &BoardView) {
    let centre = |c: &Cell| layout.cell_rect(*c).center();
    for (player, route) in &view.routes {
        let c = player_color(*player);
        let offset = if *player == Player::One { -0.08 } else { 0.08 } * layout.cell;
        let points: Vec<Pos2> = route.iter().map(|cell| centre(cell) + Vec2::splat(offset)).collect();
        painter.add(Shape::line(points, Stroke::new((layout.cell * 0.08).max(2.0), c.gamma_multiply(0.8))));
    }
    for cell in view.highlight {
        painter.rect_stroke(
            layout.cell_rect(cell).shrink(2.0),
            CornerRadius::same(3),
            Stroke::new(3.0, HIGHLIGHT),
            StrokeKind::Inside,
        );
    }
    // The cut: the walls that separate the region, crossed out.
    for cell in view.highlight_cut {
        let rect = layout.cell_rect(cell).shrink(layout.cell * 0.15);
        let stroke = Stroke::new((layout.cell * 0.08).max(2.5), CUT);
        painter.line_segment([rect.left_top(), rect.right_bottom()], stroke);
        painter.line_segment([rect.right_top(), rect.left_bottom()], stroke);
    }
    if view.highlight_path.len() > 1 {
        let points: Vec<Pos2> = view.highlight_path.iter().map(centre).collect();
        painter.add(Shape::line(points, Stroke::new((layout.cell * 0.12).max(3.0), HIGHLIGHT)));
    }
    if let Some((a, b, wall)) = view.preview {
        let rect = layout.cell_rect(a).union(layout.cell_rect(b));
        let color = if wall { WALL } else { FLOOR };
        painter.rect_filled(rect, CornerRadius::ZERO, color.gamma_multiply(0.5));
        painter.rect_stroke(rect, CornerRadius::ZERO, Stroke::new(2.0, HIGHLIGHT), StrokeKind::Inside);
    }
    if let Some(cell) = view.hovered {
        painter.rect_stroke(
            layout.cell_rect(cell),
            CornerRadius::ZERO,
            Stroke::new(2.0, Color32::from_gray(40)),
            StrokeKind::Inside,
        );
        // The heat map's number for the cell under the pointer.
        if let Some(Some(d)) = view.distances.as_ref().and_then(|d| d.get(cell.index()).copied()) {
            painter.text(
                layout.cell_rect(cell).center(),
                Align2::CENTER_CENTER,
                d,
                FontId::proportional(layout.cell * 0.4),
                Color32::BLACK,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Zoomed in past the canvas, the board keeps a name on every file and
    /// rank in view, inside the canvas; at the fitted size they sit beside
    /// the board, as before.
    #[test]
    fn edge_labels_stay_in_view_when_zoomed() {
        let canvas = Rect::from_min_size(pos2(0.0, 0.0), vec2(600.0, 500.0));
        let fitted = BoardLayout::new(canvas, 9, 9);
        let labels = edge_labels(&fitted, canvas, 12.0);
        assert_eq!(labels.len(), 18);
        assert!(labels.iter().all(|l| !l.inside && canvas.contains(l.pos)), "{labels:?}");
        let zoom = BoardZoom::default().zoomed(4.0, canvas.center(), canvas.center());
        let zoomed = BoardLayout::zoomed(canvas, 9, 9, zoom);
        let labels = edge_labels(&zoomed, canvas, 12.0);
        let files: Vec<&str> =
            labels.iter().filter(|l| l.anchor == Align2::CENTER_TOP).map(|l| l.text.as_str()).collect();
        let ranks: Vec<&str> =
            labels.iter().filter(|l| l.anchor == Align2::RIGHT_CENTER).map(|l| l.text.as_str()).collect();
        assert!(!files.is_empty() && files.len() < 9, "only the files in view: {files:?}");
        assert!(!ranks.is_empty() && ranks.len() < 9, "only the ranks in view: {ranks:?}");
        assert!(files.contains(&"e") && ranks.contains(&"5"), "the centre stays named");
        for l in &labels {
            assert!(l.inside, "brought over the board: {l:?}");
            assert!(canvas.contains(l.pos), "kept in the canvas: {l:?}");
        }
    }

    /// The heat map's colours stay apart from the players' blue and red, so
    /// that a goal row or a start square never reads as a distance.
    #[test]
    fn heat_colours_are_neither_player_colour() {
        let distance = |a: Color32, b: Color32| {
            let d = |x: u8, y: u8| (f32::from(x) - f32::from(y)).powi(2);
            (d(a.r(), b.r()) + d(a.g(), b.g()) + d(a.b(), b.b())).sqrt()
        };
        for i in 0..=20 {
            let heat = heat_color(i as f32 / 20.0);
            // The colour as painted over the floor, at its opacity.
            let [r, g, b, a] = heat.to_srgba_unmultiplied();
            let over = |c: u8, floor: u8| {
                (f32::from(c) * f32::from(a) / 255.0 + f32::from(floor) * (1.0 - f32::from(a) / 255.0)) as u8
            };
            let shown = Color32::from_rgb(over(r, FLOOR.r()), over(g, FLOOR.g()), over(b, FLOOR.b()));
            for player in [BLUE, RED] {
                assert!(distance(shown, player) > 90.0, "step {i}: {shown:?} is too near {player:?}");
            }
            assert!(distance(shown, FLOOR) > 90.0, "step {i}: {shown:?} is too pale on the floor");
        }
    }
}
