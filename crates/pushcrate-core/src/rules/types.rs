//! The small `Copy` vocabulary of the rules: cells, directions, players,
//! crate stages and [`ByPlayer`].

use std::fmt;
use std::str::FromStr;

/// The largest board side the engine supports.
pub const MAX_SIDE: u8 = 11;
/// The smallest board side the engine supports.
pub const MIN_SIDE: u8 = 5;

/// A cell of the board, named like a chess square (`a1` bottom left).
///
/// Cells use a fixed stride of [`MAX_SIDE`], so a cell's index does not
/// depend on the size of the board it stands on: `index = rank * 11 + file`.
/// That lets a level be resized without renumbering its contents.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The number of cell indices, `11 × 11`.
    pub const COUNT: usize = (MAX_SIDE as usize) * (MAX_SIDE as usize);

    /// The cell on `file` (0 = `a`) and `rank` (0 = rank `1`).
    ///
    /// # Panics
    /// When either coordinate is 11 or more; see [`Cell::try_new`].
    #[track_caller]
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Cell {
        match Cell::try_new(file, rank) {
            Some(cell) => cell,
            None => panic!("cell coordinates out of range"),
        }
    }

    /// The cell on `file` and `rank`, or `None` when either is 11 or more.
    #[must_use]
    pub const fn try_new(file: u8, rank: u8) -> Option<Cell> {
        if file < MAX_SIDE && rank < MAX_SIDE { Some(Cell(rank * MAX_SIDE + file)) } else { None }
    }

    /// The cell with this index (`rank * 11 + file`), if it is one.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index < Cell::COUNT { Some(Cell(index as u8)) } else { None }
    }

    /// The index of this cell in bitboards and tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 for `a`.
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % MAX_SIDE
    }

    /// The rank, 0 for rank `1`.
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / MAX_SIDE
    }

    /// The neighbour in `dir`, if it has the stride's room; whether it is on a
    /// given board is for the board to say.
    #[must_use]
    pub const fn offset(self, dir: Dir) -> Option<Cell> {
        let (file, rank) = (self.file() as i8, self.rank() as i8);
        let (df, dr) = dir.delta();
        let (f, r) = (file + df, rank + dr);
        if f < 0 || r < 0 {
            return None;
        }
        Cell::try_new(f as u8, r as u8)
    }

    /// Manhattan distance between two cells.
    #[must_use]
    pub const fn distance(self, other: Cell) -> u8 {
        self.file().abs_diff(other.file()) + self.rank().abs_diff(other.rank())
    }

    /// Every cell index in order `a1, b1, …`, on the full 11 × 11 stride.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..Cell::COUNT as u8).map(Cell)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A cell name that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a cell name (a file letter `a`–`k` then a rank `1`–`11`, such as `e5`)")]
pub struct ParseCellError(pub String);

impl FromStr for Cell {
    type Err = ParseCellError;

    fn from_str(s: &str) -> Result<Cell, ParseCellError> {
        let err = || ParseCellError(s.to_owned());
        let mut chars = s.chars();
        let file = chars.next().ok_or_else(err)?;
        if !file.is_ascii_lowercase() {
            return Err(err());
        }
        let rank_text = chars.as_str();
        if rank_text.is_empty()
            || rank_text.len() > 2
            || !rank_text.bytes().all(|b| b.is_ascii_digit())
            || rank_text.starts_with('0')
        {
            return Err(err());
        }
        let rank: u8 = rank_text.parse().map_err(|_| err())?;
        let file = file as u8 - b'a';
        Cell::try_new(file, rank.wrapping_sub(1)).ok_or_else(err)
    }
}

/// One of the four orthogonal directions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Dir {
    /// Towards higher ranks.
    North,
    /// Towards higher files.
    East,
    /// Towards lower ranks.
    South,
    /// Towards lower files.
    West,
}

impl Dir {
    /// All four directions, clockwise from north.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// `(file, rank)` change of one step.
    #[must_use]
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::North => (0, 1),
            Dir::East => (1, 0),
            Dir::South => (0, -1),
            Dir::West => (-1, 0),
        }
    }

    /// The two directions at right angles to this one.
    #[must_use]
    pub const fn perpendicular(self) -> [Dir; 2] {
        match self {
            Dir::North | Dir::South => [Dir::West, Dir::East],
            Dir::East | Dir::West => [Dir::South, Dir::North],
        }
    }

    /// The direction from `from` to an orthogonally adjacent `to`.
    #[must_use]
    pub fn between(from: Cell, to: Cell) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| from.offset(d) == Some(to))
    }
}

/// One of the two players.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Player {
    /// Player 1, who moves first by default.
    One,
    /// Player 2.
    Two,
}

impl Player {
    /// Both players, player 1 first.
    pub const BOTH: [Player; 2] = [Player::One, Player::Two];

    /// The other player.
    #[must_use]
    pub const fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// 0 for player 1, 1 for player 2.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player numbered 1 or 2.
    #[must_use]
    pub const fn from_number(n: i64) -> Option<Player> {
        match n {
            1 => Some(Player::One),
            2 => Some(Player::Two),
            _ => None,
        }
    }

    /// 1 or 2.
    #[must_use]
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.number())
    }
}

/// A value for each player, indexed by [`Player`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByPlayer<T> {
    /// Player 1's value.
    pub one: T,
    /// Player 2's value.
    pub two: T,
}

impl<T> ByPlayer<T> {
    /// Both values.
    pub const fn new(one: T, two: T) -> ByPlayer<T> {
        ByPlayer { one, two }
    }

    /// The value of `player`.
    pub const fn get(&self, player: Player) -> &T {
        match player {
            Player::One => &self.one,
            Player::Two => &self.two,
        }
    }

    /// The value of `player`, mutably.
    pub const fn get_mut(&mut self, player: Player) -> &mut T {
        match player {
            Player::One => &mut self.one,
            Player::Two => &mut self.two,
        }
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByPlayer<U> {
        ByPlayer { one: f(self.one), two: f(self.two) }
    }

    /// Builds the pair from a function of the player.
    pub fn from_fn(mut f: impl FnMut(Player) -> T) -> ByPlayer<T> {
        ByPlayer { one: f(Player::One), two: f(Player::Two) }
    }
}

impl<T> std::ops::Index<Player> for ByPlayer<T> {
    type Output = T;
    fn index(&self, player: Player) -> &T {
        self.get(player)
    }
}

impl<T> std::ops::IndexMut<Player> for ByPlayer<T> {
    fn index_mut(&mut self, player: Player) -> &mut T {
        self.get_mut(player)
    }
}

/// A crate's stage; each break moves it one stage on, and breaking
/// splinters removes the crate.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Stage {
    /// A new crate; it slides.
    Intact,
    /// Broken once; it still slides.
    Cracked,
    /// Broken twice; it never moves again.
    Rubble,
    /// Broken three times; one more break removes it.
    Splinters,
}

impl Stage {
    /// The stages in order.
    pub const ALL: [Stage; 4] = [Stage::Intact, Stage::Cracked, Stage::Rubble, Stage::Splinters];

    /// 0 for intact … 3 for splinters.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether a push can slide a crate of this stage.
    #[must_use]
    pub const fn slides(self) -> bool {
        matches!(self, Stage::Intact | Stage::Cracked)
    }

    /// The stage after one more break, `None` when the crate is destroyed.
    #[must_use]
    pub const fn next(self) -> Option<Stage> {
        match self {
            Stage::Intact => Some(Stage::Cracked),
            Stage::Cracked => Some(Stage::Rubble),
            Stage::Rubble => Some(Stage::Splinters),
            Stage::Splinters => None,
        }
    }

    /// The name used in level files: `intact`, `cracked`, `rubble`, `splinters`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Intact => "intact",
            Stage::Cracked => "cracked",
            Stage::Rubble => "rubble",
            Stage::Splinters => "splinters",
        }
    }

    /// The diagram letter of docs/rules.md: `i`, `c`, `r`, `s`.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Stage::Intact => 'i',
            Stage::Cracked => 'c',
            Stage::Rubble => 'r',
            Stage::Splinters => 's',
        }
    }

    /// The stage with this file name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_round_trip() {
        for cell in Cell::all() {
            assert_eq!(cell.to_string().parse::<Cell>(), Ok(cell));
        }
        assert_eq!("e5".parse::<Cell>(), Ok(Cell::new(4, 4)));
        assert_eq!("k11".parse::<Cell>(), Ok(Cell::new(10, 10)));
        for bad in ["", "e", "5e", "l1", "a0", "a12", "a01", "E5", "e5 ", "é5"] {
            assert!(bad.parse::<Cell>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn offsets_stay_on_the_stride() {
        assert_eq!(Cell::new(0, 0).offset(Dir::West), None);
        assert_eq!(Cell::new(10, 3).offset(Dir::East), None);
        assert_eq!(Cell::new(2, 10).offset(Dir::North), None);
        assert_eq!(Cell::new(2, 2).offset(Dir::North), Some(Cell::new(2, 3)));
    }
}
