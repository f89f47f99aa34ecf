//! Pure edits of a [`Level`]: what the editor's tools produce. An edit never
//! fails: it may leave the level invalid, and validation says why.

use super::Level;
use crate::rules::{Bitboard, Cell, MAX_SIDE, MIN_SIDE, Player, Stage, Transform};

/// Mirror painting: each edit is repeated on the mirrored cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, serde::Serialize, serde::Deserialize)]
pub enum Mirror {
    /// No mirroring.
    #[default]
    Off,
    /// A half turn, with the players swapped.
    HalfTurn,
    /// Left to right (files mirrored), players unchanged.
    LeftRight,
    /// Top to bottom (ranks mirrored), with the players swapped.
    TopBottom,
}

impl Mirror {
    /// Every mode, in menu order.
    pub const ALL: [Mirror; 4] = [Mirror::Off, Mirror::HalfTurn, Mirror::LeftRight, Mirror::TopBottom];

    /// A short name for menus.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Mirror::Off => "No mirror",
            Mirror::HalfTurn => "Half turn (players swapped)",
            Mirror::LeftRight => "Left–right",
            Mirror::TopBottom => "Top–bottom (players swapped)",
        }
    }

    /// The board transform that mirrors, or `None` when painting is not
    /// mirrored.
    #[must_use]
    pub const fn transform(self) -> Option<Transform> {
        match self {
            Mirror::Off => None,
            Mirror::HalfTurn => Some(Transform::HalfTurn),
            Mirror::LeftRight => Some(Transform::MirrorFiles),
            Mirror::TopBottom => Some(Transform::MirrorRanks),
        }
    }

    /// The mirrored cell on a `width × height` board.
    #[must_use]
    pub fn cell(self, cell: Cell, width: u8, height: u8) -> Option<Cell> {
        self.transform()?.cell(cell, width, height)
    }

    /// Whether the mirror swaps the players.
    #[must_use]
    pub const fn swaps_players(self) -> bool {
        matches!(self, Mirror::HalfTurn | Mirror::TopBottom)
    }
}

/// One edit of a level.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EditOp {
    /// Make a cell a wall (`true`) or floor (`false`); a wall clears the
    /// cell's crate.
    Wall(Cell, bool),
    /// Walls or floor over the rectangle between two corners.
    Rectangle(Cell, Cell, bool),
    /// Walls or floor over the region of cells like `Cell` joined to it.
    Fill(Cell, bool),
    /// Move a player's start square.
    Start(Player, Cell),
    /// Add a cell to a player's goal set, or take it out if it is in.
    ToggleGoal(Player, Cell),
    /// Make a player's goal set every floor cell of a rank.
    GoalRank(Player, u8),
    /// Go back to the default goal set (the start square's rank).
    DefaultGoals(Player),
    /// Move the flag.
    Flag(Cell),
    /// Put a crate of a stage on a cell, or take it away.
    Crate(Cell, Option<Stage>),
    /// Clear a cell: floor, no crate, no goal.
    Erase(Cell),
    /// Change the board's size, keeping what still fits.
    Resize(u8, u8),
    /// Remove every wall and crate.
    Clear,
}

impl EditOp {
    /// The same edit on the mirrored cells, if it has a mirror image.
    #[must_use]
    pub fn mirrored(self, mirror: Mirror, width: u8, height: u8) -> Option<EditOp> {
        let m = |c: Cell| mirror.cell(c, width, height);
        let player = |p: Player| if mirror.swaps_players() { p.other() } else { p };
        if mirror == Mirror::Off {
            return None;
        }
        Some(match self {
            EditOp::Wall(c, on) => EditOp::Wall(m(c)?, on),
            EditOp::Rectangle(a, b, on) => EditOp::Rectangle(m(a)?, m(b)?, on),
            EditOp::Fill(c, on) => EditOp::Fill(m(c)?, on),
            EditOp::Start(p, c) if mirror.swaps_players() => EditOp::Start(p.other(), m(c)?),
            EditOp::ToggleGoal(p, c) => EditOp::ToggleGoal(player(p), m(c)?),
            // The rank a cell of `rank` lands on.
            EditOp::GoalRank(p, rank) => EditOp::GoalRank(player(p), m(Cell::try_new(0, rank)?)?.rank()),
            EditOp::DefaultGoals(p) => EditOp::DefaultGoals(player(p)),
            EditOp::Crate(c, stage) => EditOp::Crate(m(c)?, stage),
            EditOp::Erase(c) => EditOp::Erase(m(c)?),
            EditOp::Start(..) | EditOp::Flag(_) | EditOp::Resize(..) | EditOp::Clear => return None,
        })
    }
}

impl Level {
    /// Applies `op`, and its mirror image under `mirror`.
    pub fn apply(&mut self, op: EditOp, mirror: Mirror) {
        let image = op.mirrored(mirror, self.width, self.height);
        self.apply_one(op);
        if let Some(image) = image
            && image != op
        {
            // Toggling a goal on its own mirror cell must not undo itself.
            if !matches!((op, image), (EditOp::ToggleGoal(p, a), EditOp::ToggleGoal(q, b)) if p == q && a == b)
            {
                self.apply_one(image);
            }
        }
    }

    fn goal_set_mut(&mut self, player: Player) -> &mut Bitboard {
        let current = self.goal_cells(player);
        self.goals[player].get_or_insert(current)
    }

    fn apply_one(&mut self, op: EditOp) {
        let board = self.board();
        match op {
            EditOp::Wall(cell, on) => {
                if board.has(cell) {
                    self.walls.set(cell, on);
                    if on {
                        self.crates.remove(&cell);
                    }
                }
            }
            EditOp::Rectangle(a, b, on) => {
                let (f0, f1) = (a.file().min(b.file()), a.file().max(b.file()));
                let (r0, r1) = (a.rank().min(b.rank()), a.rank().max(b.rank()));
                for f in f0..=f1 {
                    for r in r0..=r1 {
                        if let Some(c) = Cell::try_new(f, r) {
                            self.apply_one(EditOp::Wall(c, on));
                        }
                    }
                }
            }
            EditOp::Fill(cell, on) => {
                if !board.has(cell) {
                    return;
                }
                let same = if self.walls.has(cell) { self.walls & board } else { self.floor() };
                for c in Bitboard::fill(cell.into(), same) {
                    self.apply_one(EditOp::Wall(c, on));
                }
            }
            EditOp::Start(p, cell) => {
                if board.has(cell) {
                    self.starts[p] = Some(cell);
                }
            }
            EditOp::ToggleGoal(p, cell) => {
                if board.has(cell) {
                    let set = self.goal_set_mut(p);
                    let has = set.has(cell);
                    set.set(cell, !has);
                }
            }
            EditOp::GoalRank(p, rank) => {
                let cells: Bitboard = (0..self.width).filter_map(|f| Cell::try_new(f, rank)).collect();
                self.goals[p] = Some(cells & self.floor());
            }
            EditOp::DefaultGoals(p) => self.goals[p] = None,
            EditOp::Flag(cell) => {
                if board.has(cell) {
                    self.flag = Some(cell);
                }
            }
            EditOp::Crate(cell, stage) => match stage {
                Some(stage) if board.has(cell) => {
                    self.walls.remove(cell);
                    self.crates.insert(cell, stage);
                }
                _ => {
                    self.crates.remove(&cell);
                }
            },
            EditOp::Erase(cell) => {
                self.walls.remove(cell);
                self.crates.remove(&cell);
                for p in Player::BOTH {
                    if let Some(goals) = &mut self.goals[p] {
                        goals.remove(cell);
                    }
                }
            }
            EditOp::Resize(width, height) => {
                let (old_width, old_height) = (self.width, self.height);
                self.width = width.clamp(MIN_SIDE, MAX_SIDE);
                self.height = height.clamp(MIN_SIDE, MAX_SIDE);
                // The board grows or shrinks at its top and right edges. A
                // start square or goal cell on an edge that moves goes with
                // it, so player 2 still starts on the top rank and its goal
                // rank is still the top one.
                let follow = |cell: Cell| {
                    let file = if cell.file() + 1 == old_width { self.width - 1 } else { cell.file() };
                    let rank = if cell.rank() + 1 == old_height { self.height - 1 } else { cell.rank() };
                    Cell::new(file, rank)
                };
                let board = self.board();
                for p in Player::BOTH {
                    if let Some(start) = self.starts[p] {
                        let moved = follow(start);
                        if moved != start {
                            self.starts[p] = Some(moved);
                            self.walls.set(moved, false);
                            self.crates.remove(&moved);
                        }
                    }
                    if let Some(goals) = &mut self.goals[p] {
                        *goals = goals.iter().map(follow).filter(|c| board.has(*c)).collect();
                    }
                }
                self.walls &= board;
                self.crates.retain(|c, _| board.has(*c));
            }
            EditOp::Clear => {
                self.walls = Bitboard::EMPTY;
                self.crates.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Cell {
        s.parse().unwrap()
    }

    #[test]
    fn mirrored_walls_and_starts() {
        let mut level = Level::new("t", 9, 9);
        level.apply(EditOp::Wall(c("b2"), true), Mirror::HalfTurn);
        assert!(level.walls.has(c("b2")) && level.walls.has(c("h8")));
        level.apply(EditOp::Start(Player::One, c("d1")), Mirror::HalfTurn);
        assert_eq!(level.starts.two, Some(c("f9")));
        level.apply(EditOp::Wall(c("a5"), true), Mirror::LeftRight);
        assert!(level.walls.has(c("i5")));
        level.apply(EditOp::GoalRank(Player::One, 0), Mirror::TopBottom);
        assert_eq!(level.goals.two.unwrap().count(), 9);
        assert!(level.goals.two.unwrap().iter().all(|g| g.rank() == 8));
    }

    #[test]
    fn toggling_a_goal_on_its_own_mirror_keeps_it() {
        let mut level = Level::new("t", 9, 9);
        level.apply(EditOp::ToggleGoal(Player::One, c("e5")), Mirror::LeftRight);
        assert!(level.goal_cells(Player::One).has(c("e5")));
    }

    #[test]
    fn fill_rectangle_resize_and_clear() {
        let mut level = Level::new("t", 9, 9);
        level.apply(EditOp::Rectangle(c("a1"), c("c3"), true), Mirror::Off);
        assert_eq!(level.walls.count(), 9);
        level.apply(EditOp::Fill(c("a1"), false), Mirror::Off);
        assert!(level.walls.is_empty());
        level.apply(EditOp::Fill(c("e5"), true), Mirror::Off);
        assert_eq!(level.walls.count(), 81);
        level.apply(EditOp::Clear, Mirror::Off);
        level.apply(EditOp::Crate(c("i9"), Some(Stage::Rubble)), Mirror::Off);
        level.apply(EditOp::Resize(7, 7), Mirror::Off);
        assert!(level.crates.is_empty(), "the crate on i9 no longer fits");
        assert_eq!(level.board().count(), 49);
        level.apply(EditOp::Resize(20, 2), Mirror::Off);
        assert_eq!((level.width, level.height), (11, 5));
    }

    #[test]
    fn resizing_keeps_starts_and_goal_ranks_at_the_edges_that_move() {
        use crate::rules::ByPlayer;
        let mut level = Level::new("t", 9, 9);
        level.starts = ByPlayer::new(Some(c("e1")), Some(c("e9")));
        level.apply(EditOp::GoalRank(Player::Two, 8), Mirror::Off);
        level.apply(EditOp::Resize(9, 11), Mirror::Off);
        assert_eq!(level.starts, ByPlayer::new(Some(c("e1")), Some(c("e11"))));
        assert!(level.goal_cells(Player::Two).iter().all(|g| g.rank() == 10));
        assert_eq!(level.goal_cells(Player::Two).count(), 9);
        level.apply(EditOp::Resize(9, 7), Mirror::Off);
        assert_eq!(level.starts.two, Some(c("e7")));
        assert!(level.goal_cells(Player::Two).iter().all(|g| g.rank() == 6));
        // A start on the right edge follows it; one inside stays.
        level.starts.one = Some(c("i1"));
        level.apply(EditOp::Resize(11, 7), Mirror::Off);
        assert_eq!(level.starts, ByPlayer::new(Some(c("k1")), Some(c("e7"))));
        // The same size moves nothing.
        let before = level.clone();
        level.apply(EditOp::Resize(11, 7), Mirror::Off);
        assert_eq!(level, before);
    }

    #[test]
    fn a_wall_clears_a_crate_and_erase_clears_goals() {
        let mut level = Level::new("t", 9, 9);
        level.apply(EditOp::Crate(c("c3"), Some(Stage::Intact)), Mirror::Off);
        level.apply(EditOp::Wall(c("c3"), true), Mirror::Off);
        assert!(level.crates.is_empty());
        level.apply(EditOp::ToggleGoal(Player::Two, c("a9")), Mirror::Off);
        level.apply(EditOp::Erase(c("e9")), Mirror::Off);
        assert!(!level.goal_cells(Player::Two).has(c("e9")));
    }
}
