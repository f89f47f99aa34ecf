//! Pure edits of a [`Level`]: what the editor's tools produce. An edit never
//! fails: it may leave the level invalid, and validation says why.

use super::Level;
use crate::rules::{Bitboard, Cell, MAX_SIDE, MIN_SIDE, Player, Stage, Symmetry};

/// One edit of a level: what a tool does, and what a repair proposes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
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
    /// Move a player's start square from one cell to another (a repair's
    /// move; where it was is kept for the proposal's words).
    MoveStart(Player, Cell, Cell),
    /// Move a cell of a player's written-out goal set to another cell.
    MoveGoal(Player, Cell, Cell),
    /// Move the flag from one cell to another.
    MoveFlag(Cell, Cell),
}

impl EditOp {
    /// The same edit on the cells' images under `symmetry` (the players
    /// swapped where it swaps them), if it has an image: what mirror
    /// painting adds to a tool's edit. Placing a start square or the flag
    /// has none (a symmetry that keeps the players would move the same
    /// start twice; the flag is one), a move has its image (the image
    /// piece moved, or the same piece where the symmetry keeps it).
    #[must_use]
    pub fn mirrored(self, symmetry: Symmetry, width: u8, height: u8) -> Option<EditOp> {
        let m = |c: Cell| symmetry.cell(c, width, height);
        let player = |p: Player| symmetry.player(p);
        Some(match self {
            EditOp::Wall(c, on) => EditOp::Wall(m(c)?, on),
            EditOp::Rectangle(a, b, on) => EditOp::Rectangle(m(a)?, m(b)?, on),
            EditOp::Fill(c, on) => EditOp::Fill(m(c)?, on),
            EditOp::Start(p, c) if symmetry.swaps_players() => EditOp::Start(p.other(), m(c)?),
            EditOp::ToggleGoal(p, c) => EditOp::ToggleGoal(player(p), m(c)?),
            // The rank a cell of `rank` lands on.
            EditOp::GoalRank(p, rank) => EditOp::GoalRank(player(p), m(Cell::try_new(0, rank)?)?.rank()),
            EditOp::DefaultGoals(p) => EditOp::DefaultGoals(player(p)),
            EditOp::Crate(c, stage) => EditOp::Crate(m(c)?, stage),
            EditOp::Erase(c) => EditOp::Erase(m(c)?),
            EditOp::MoveStart(p, from, to) => EditOp::MoveStart(player(p), m(from)?, m(to)?),
            EditOp::MoveGoal(p, from, to) => EditOp::MoveGoal(player(p), m(from)?, m(to)?),
            EditOp::MoveFlag(from, to) => EditOp::MoveFlag(m(from)?, m(to)?),
            EditOp::Start(..) | EditOp::Flag(_) | EditOp::Resize(..) | EditOp::Clear => return None,
        })
    }
}

impl Level {
    /// Applies `op`, and with mirror painting its image under `mirror`.
    pub fn apply(&mut self, op: EditOp, mirror: Option<Symmetry>) {
        let image = mirror.and_then(|symmetry| op.mirrored(symmetry, self.width, self.height));
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

    /// Applies `op` alone.
    ///
    /// Its length: one arm per kind of edit, each a few lines.
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
                // One-of-a-kind cells (the start squares and the flag's)
                // are never buried under walls, as paste leaves them.
                let mut keep = Bitboard::EMPTY;
                if on {
                    let starts = [self.starts[Player::One], self.starts[Player::Two]];
                    for c in starts.into_iter().chain([self.flag.or(self.centre())]).flatten() {
                        keep.insert(c);
                    }
                }
                for c in Bitboard::fill(cell.into(), same) - keep {
                    self.apply_one(EditOp::Wall(c, on));
                }
            }
            EditOp::Start(p, cell) | EditOp::MoveStart(p, _, cell) => {
                if board.has(cell) {
                    self.starts[p] = Some(cell);
                }
            }
            EditOp::MoveGoal(p, from, to) => {
                if let Some(goals) = &mut self.goals[p] {
                    goals.remove(from);
                    goals.insert(to);
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
            EditOp::Flag(cell) | EditOp::MoveFlag(_, cell) => {
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
                // Any other start square or flag the new edges leave
                // outside comes in to the nearest cell of its rank that no
                // other one-of-a-kind cell holds: never left off the board.
                let (width, height) = (self.width, self.height);
                let into_board = |cell: Cell, taken: &[Cell]| -> Cell {
                    let rank = cell.rank().min(height - 1);
                    let file = cell.file().min(width - 1);
                    (0..width)
                        .map(|d| Cell::new(file.saturating_sub(d), rank))
                        .find(|c| !taken.contains(c))
                        .unwrap_or(Cell::new(file, rank))
                };
                for p in Player::BOTH {
                    if let Some(start) = self.starts[p] {
                        let other = [self.starts[p.other()].map(follow), self.flag].into_iter().flatten();
                        let taken: Vec<Cell> = other.collect();
                        let moved = into_board(follow(start), &taken);
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
                if let Some(flag) = self.flag
                    && !board.has(flag)
                {
                    let starts: Vec<Cell> =
                        [self.starts[Player::One], self.starts[Player::Two]].into_iter().flatten().collect();
                    let moved = into_board(flag, &starts);
                    self.flag = Some(moved);
                    self.walls.set(moved, false);
                    self.crates.remove(&moved);
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

/// What a cell of a copied region holds: the layout's tiles. Start squares,
/// goals and the flag are one of a kind and are not copied.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Tile {
    /// Floor with nothing on it.
    Floor,
    /// A wall.
    Wall,
    /// A crate of this stage, on floor.
    Crate(Stage),
}

/// A rectangle of a level's walls, floor and crates, copied to be pasted
/// into this level or another, as a stamp.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Region {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// The tiles, rank by rank from the top rank down, each from the
    /// a-file rightwards (the order a map is written in).
    tiles: Vec<Tile>,
}

impl Region {
    /// The region mirrored left to right (Tiled's X on a stamp).
    #[must_use]
    pub fn flipped_files(&self) -> Region {
        let w = usize::from(self.width.max(1));
        let tiles = self.tiles.chunks(w).flat_map(|row| row.iter().rev().copied()).collect();
        Region { tiles, ..self.clone() }
    }

    /// The region mirrored top to bottom (Tiled's Y on a stamp).
    #[must_use]
    pub fn flipped_ranks(&self) -> Region {
        let w = usize::from(self.width.max(1));
        let tiles = self.tiles.chunks(w).rev().flatten().copied().collect();
        Region { tiles, ..self.clone() }
    }

    /// The region turned a quarter clockwise as the board is drawn (Tiled's
    /// Z on a stamp): its width and height swap.
    #[must_use]
    pub fn rotated(&self) -> Region {
        let (w, h) = (usize::from(self.width), usize::from(self.height));
        // Row r of the turned region (top first) is column r of this one,
        // read from the bottom row up.
        let tiles = (0..w)
            .flat_map(|r| (0..h).rev().map(move |c| (r, c)))
            .map(|(r, c)| self.tiles[c * w + r])
            .collect();
        Region { width: self.height, height: self.width, tiles }
    }

    /// The region as map rows, top rank first: `#` a wall, `.` floor, and
    /// a crate by its stage's letter (`i`ntact, `c`racked, `r`ubble,
    /// `s`plinters), each row ending with a newline.
    #[must_use]
    pub fn text(&self) -> String {
        let mut text = String::with_capacity(self.tiles.len() + usize::from(self.height));
        for row in self.tiles.chunks(usize::from(self.width.max(1))) {
            for tile in row {
                text.push(match tile {
                    Tile::Floor => '.',
                    Tile::Wall => '#',
                    Tile::Crate(Stage::Intact) => 'i',
                    Tile::Crate(Stage::Cracked) => 'c',
                    Tile::Crate(Stage::Rubble) => 'r',
                    Tile::Crate(Stage::Splinters) => 's',
                });
            }
            text.push('\n');
        }
        text
    }

    /// The tile `df` files right of and `dr` ranks below the top-left corner.
    #[must_use]
    pub fn tile(&self, df: u8, dr: u8) -> Tile {
        self.tiles[usize::from(dr) * usize::from(self.width) + usize::from(df)]
    }

    /// The walls and crates it holds.
    #[must_use]
    pub fn counts(&self) -> (usize, usize) {
        let walls = self.tiles.iter().filter(|t| **t == Tile::Wall).count();
        let crates = self.tiles.iter().filter(|t| matches!(t, Tile::Crate(_))).count();
        (walls, crates)
    }

    /// The cell of the tile `(df, dr)` with the region's top-left corner on
    /// `at`, if it is on a `width × height` board.
    #[must_use]
    pub fn cell_at(&self, at: Cell, df: u8, dr: u8, width: u8, height: u8) -> Option<Cell> {
        let file = at.file().checked_add(df)?;
        let rank = at.rank().checked_sub(dr)?;
        (file < width && rank < height).then(|| Cell::new(file, rank))
    }
}

/// The corners of the rectangle spanned by `a` and `b`: its a-most file and
/// top rank, and its h-most file and bottom rank.
fn corners(a: Cell, b: Cell) -> ((u8, u8), (u8, u8)) {
    ((a.file().min(b.file()), a.rank().max(b.rank())), (a.file().max(b.file()), a.rank().min(b.rank())))
}

impl Level {
    /// The walls, floor and crates of the rectangle spanned by `a` and `b`
    /// (clipped to the board).
    #[must_use]
    pub fn copy_region(&self, a: Cell, b: Cell) -> Region {
        let ((left, top), (right, bottom)) = corners(a, b);
        let right = right.min(self.width.saturating_sub(1));
        let top = top.min(self.height.saturating_sub(1));
        let (width, height) = (right.saturating_sub(left) + 1, top.saturating_sub(bottom) + 1);
        let mut tiles = Vec::with_capacity(usize::from(width) * usize::from(height));
        for rank in (bottom..=top).rev() {
            for file in left..=right {
                let cell = Cell::new(file, rank);
                tiles.push(if self.walls.has(cell) {
                    Tile::Wall
                } else if let Some(&stage) = self.crates.get(&cell) {
                    Tile::Crate(stage)
                } else {
                    Tile::Floor
                });
            }
        }
        Region { width, height, tiles }
    }

    /// Stamps `region` with its top-left corner on `at`: each of its cells
    /// on the board takes the region's tile, except start squares and the
    /// flag's cell, which keep their floor. Goal cells stay goals (a wall on
    /// one is the level's to fix, as when painted). Returns how many cells
    /// changed.
    pub fn paste_region(&mut self, region: &Region, at: Cell) -> usize {
        let mut changed = 0;
        for dr in 0..region.height {
            for df in 0..region.width {
                let Some(cell) = region.cell_at(at, df, dr, self.width, self.height) else { continue };
                if self.flag == Some(cell) || Player::BOTH.iter().any(|&p| self.starts[p] == Some(cell)) {
                    continue;
                }
                let before = (self.walls.has(cell), self.crates.get(&cell).copied());
                let after = match region.tile(df, dr) {
                    Tile::Floor => (false, None),
                    Tile::Wall => (true, None),
                    Tile::Crate(stage) => (false, Some(stage)),
                };
                if before != after {
                    changed += 1;
                    self.walls.set(cell, after.0);
                    match after.1 {
                        Some(stage) => {
                            self.crates.insert(cell, stage);
                        }
                        None => {
                            self.crates.remove(&cell);
                        }
                    }
                }
            }
        }
        changed
    }

    /// Makes the rectangle spanned by `a` and `b` floor with no crate (what
    /// a cut leaves). Returns how many cells changed.
    pub fn clear_region(&mut self, a: Cell, b: Cell) -> usize {
        let copied = self.copy_region(a, b);
        let floor = Region { tiles: vec![Tile::Floor; copied.tiles.len()], ..copied };
        let ((left, top), _) = corners(a, b);
        self.paste_region(&floor, Cell::new(left, top.min(self.height.saturating_sub(1))))
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
        level.apply(EditOp::Wall(c("b2"), true), Some(Symmetry::HalfTurn));
        assert!(level.walls.has(c("b2")) && level.walls.has(c("h8")));
        level.apply(EditOp::Start(Player::One, c("d1")), Some(Symmetry::HalfTurn));
        assert_eq!(level.starts.two, Some(c("f9")));
        level.apply(EditOp::Wall(c("a5"), true), Some(Symmetry::MirrorFiles));
        assert!(level.walls.has(c("i5")));
        level.apply(EditOp::GoalRank(Player::One, 0), Some(Symmetry::MirrorRanks));
        assert_eq!(level.goals.two.unwrap().count(), 9);
        assert!(level.goals.two.unwrap().iter().all(|g| g.rank() == 8));
    }

    #[test]
    fn toggling_a_goal_on_its_own_mirror_keeps_it() {
        let mut level = Level::new("t", 9, 9);
        level.apply(EditOp::ToggleGoal(Player::One, c("e5")), Some(Symmetry::MirrorFiles));
        assert!(level.goal_cells(Player::One).has(c("e5")));
    }

    #[test]
    fn a_wall_fill_leaves_the_start_squares_and_the_flag() {
        let mut level = Level::new("t", 9, 9);
        level.starts[Player::One] = Some(c("b1"));
        level.starts[Player::Two] = Some(c("h9"));
        level.flag = Some(c("c7"));
        level.apply(EditOp::Fill(c("a1"), true), None);
        assert_eq!(level.walls.count(), 78);
        for cell in ["b1", "h9", "c7"] {
            assert!(!level.walls.has(c(cell)), "{cell} was buried");
        }
        // Filling floor back clears every wall.
        level.apply(EditOp::Fill(c("a1"), false), None);
        assert!(level.walls.is_empty());
    }

    #[test]
    fn a_resize_brings_every_start_square_and_the_flag_onto_the_board() {
        let mut level = Level::new("t", 9, 9);
        level.starts[Player::One] = Some(c("h1"));
        level.starts[Player::Two] = Some(c("g9"));
        level.flag = Some(c("h5"));
        level.apply(EditOp::Resize(7, 7), None);
        let board = level.board();
        let one = level.starts[Player::One].unwrap();
        let two = level.starts[Player::Two].unwrap();
        let flag = level.flag.unwrap();
        assert!(board.has(one) && board.has(two) && board.has(flag), "{one} {two} {flag}");
        assert_eq!(one, c("g1"), "player 1 comes in along its rank");
        assert_eq!(two, c("g7"), "player 2 follows the top edge");
        assert_eq!(flag, c("g5"));
        // Two that would land on one cell stay apart.
        let mut level = Level::new("t", 9, 9);
        level.starts[Player::One] = Some(c("g1"));
        level.starts[Player::Two] = Some(c("h1"));
        level.apply(EditOp::Resize(7, 9), None);
        assert_eq!(level.starts[Player::One], Some(c("g1")));
        assert_eq!(level.starts[Player::Two], Some(c("f1")));
    }

    #[test]
    fn fill_rectangle_resize_and_clear() {
        let mut level = Level::new("t", 9, 9);
        level.apply(EditOp::Rectangle(c("a1"), c("c3"), true), None);
        assert_eq!(level.walls.count(), 9);
        level.apply(EditOp::Fill(c("a1"), false), None);
        assert!(level.walls.is_empty());
        level.apply(EditOp::Fill(c("e5"), true), None);
        assert_eq!(level.walls.count(), 78, "the start squares and the flag's cell (the centre) stay floor");
        assert!(!level.walls.has(c("e5")));
        level.apply(EditOp::Clear, None);
        level.apply(EditOp::Crate(c("i9"), Some(Stage::Rubble)), None);
        level.apply(EditOp::Resize(7, 7), None);
        assert!(level.crates.is_empty(), "the crate on i9 no longer fits");
        assert_eq!(level.board().count(), 49);
        level.apply(EditOp::Resize(20, 2), None);
        assert_eq!((level.width, level.height), (11, 5));
    }

    #[test]
    fn resizing_keeps_starts_and_goal_ranks_at_the_edges_that_move() {
        use crate::rules::ByPlayer;
        let mut level = Level::new("t", 9, 9);
        level.starts = ByPlayer::new(Some(c("e1")), Some(c("e9")));
        level.apply(EditOp::GoalRank(Player::Two, 8), None);
        level.apply(EditOp::Resize(9, 11), None);
        assert_eq!(level.starts, ByPlayer::new(Some(c("e1")), Some(c("e11"))));
        assert!(level.goal_cells(Player::Two).iter().all(|g| g.rank() == 10));
        assert_eq!(level.goal_cells(Player::Two).count(), 9);
        level.apply(EditOp::Resize(9, 7), None);
        assert_eq!(level.starts.two, Some(c("e7")));
        assert!(level.goal_cells(Player::Two).iter().all(|g| g.rank() == 6));
        // A start on the right edge follows it; one inside stays.
        level.starts.one = Some(c("i1"));
        level.apply(EditOp::Resize(11, 7), None);
        assert_eq!(level.starts, ByPlayer::new(Some(c("k1")), Some(c("e7"))));
        // The same size moves nothing.
        let before = level.clone();
        level.apply(EditOp::Resize(11, 7), None);
        assert_eq!(level, before);
    }

    #[test]
    fn a_wall_clears_a_crate_and_erase_clears_goals() {
        let mut level = Level::new("t", 9, 9);
        level.apply(EditOp::Crate(c("c3"), Some(Stage::Intact)), None);
        level.apply(EditOp::Wall(c("c3"), true), None);
        assert!(level.crates.is_empty());
        level.apply(EditOp::ToggleGoal(Player::Two, c("a9")), None);
        level.apply(EditOp::Erase(c("e9")), None);
        assert!(!level.goal_cells(Player::Two).has(c("e9")));
    }

    #[test]
    fn a_stamp_flips_and_turns_as_drawn() {
        let mut level = Level::new("stamp", 5, 5);
        level.walls.insert(Cell::new(0, 4));
        level.crates.insert(Cell::new(1, 4), Stage::Cracked);
        level.walls.insert(Cell::new(0, 3));
        // a5 and b5 over a4: "#c" over "#.".
        let region = level.copy_region(Cell::new(0, 4), Cell::new(1, 3));
        assert_eq!(region.text(), "#c\n#.\n");
        assert_eq!(region.flipped_files().text(), "c#\n.#\n");
        assert_eq!(region.flipped_ranks().text(), "#.\n#c\n");
        assert_eq!(region.rotated().text(), "##\n.c\n");
        let tall = level.copy_region(Cell::new(0, 4), Cell::new(0, 2));
        assert_eq!((tall.width, tall.height), (1, 3));
        assert_eq!(tall.rotated().text(), ".##\n");
        assert_eq!((tall.rotated().width, tall.rotated().height), (3, 1));
        // Four turns, or two flips, give the stamp back.
        assert_eq!(region.rotated().rotated().rotated().rotated(), region);
        assert_eq!(region.flipped_files().flipped_files(), region);
        assert_eq!(region.rotated().rotated(), region.flipped_files().flipped_ranks());
    }

    #[test]
    fn a_region_pastes_where_it_is_put_and_spares_starts_and_the_flag() {
        use crate::rules::ByPlayer;
        let mut from = Level::new("from", 9, 9);
        from.apply(EditOp::Wall(c("b3"), true), None);
        from.apply(EditOp::Wall(c("c2"), true), None);
        from.apply(EditOp::Crate(c("b2"), Some(Stage::Cracked)), None);
        // b3 c3 / b2 c2: the corners in either order give the same region.
        let region = from.copy_region(c("c2"), c("b3"));
        assert_eq!(region, from.copy_region(c("b3"), c("c2")));
        assert_eq!((region.width, region.height), (2, 2));
        assert_eq!(region.tile(0, 0), Tile::Wall);
        assert_eq!(region.tile(1, 0), Tile::Floor);
        assert_eq!(region.tile(0, 1), Tile::Crate(Stage::Cracked));
        assert_eq!(region.tile(1, 1), Tile::Wall);
        assert_eq!(region.counts(), (2, 1));

        let mut to = Level::new("to", 9, 9);
        to.starts = ByPlayer::new(Some(c("h8")), None);
        to.apply(EditOp::Wall(c("g7"), true), None);
        // Top-left on g8: g8 h8 / g7 h7. h8 is a start square and keeps its
        // floor; g7's wall becomes the region's crate.
        assert_eq!(to.paste_region(&region, c("g8")), 3);
        assert!(to.walls.has(c("g8")));
        assert!(!to.walls.has(c("h8")), "a start square keeps its floor");
        assert_eq!(to.crates.get(&c("g7")), Some(&Stage::Cracked));
        assert!(!to.walls.has(c("g7")));
        assert!(to.walls.has(c("h7")));
        // Off the board's edge, the rest is dropped.
        let mut edge = Level::new("edge", 9, 9);
        assert_eq!(edge.paste_region(&region, c("i1")), 1);
        assert!(edge.walls.has(c("i1")));
        // Pasting the same again changes nothing; a cut clears it.
        assert_eq!(to.paste_region(&region, c("g8")), 0);
        assert_eq!(to.clear_region(c("h7"), c("g8")), 3);
        assert!(to.walls.is_empty() && to.crates.is_empty());
    }
}
