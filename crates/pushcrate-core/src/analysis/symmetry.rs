//! Symmetries of a layout, and duplicates within a pack.

use crate::level::Level;
use crate::rules::{Bitboard, Cell, Player, Symmetry, Transform};

/// A level reduced to what play depends on, in a form that transforms.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Shape {
    width: u8,
    height: u8,
    walls: Bitboard,
    crates: [Bitboard; 4],
    flag: Option<Cell>,
    starts: [Option<Cell>; 2],
    goals: [Bitboard; 2],
    first: Player,
}

impl Shape {
    fn of(level: &Level) -> Shape {
        let board = level.board();
        Shape {
            width: level.width,
            height: level.height,
            walls: level.walls & board,
            crates: level.crates_by_stage(),
            flag: level.flag_cell(),
            starts: [level.starts.one, level.starts.two],
            goals: [level.goal_cells(Player::One), level.goal_cells(Player::Two)],
            first: level.first,
        }
    }

    fn map(&self, t: Transform, swap_players: bool) -> Shape {
        let (w, h) = (self.width, self.height);
        let board = |b: Bitboard| -> Bitboard { t.cells(b, w, h) };
        let cell = |c: Option<Cell>| c.and_then(|c| t.cell(c, w, h));
        let (width, height) = if t.swaps_sides() { (h, w) } else { (w, h) };
        let mut out = Shape {
            width,
            height,
            walls: board(self.walls),
            crates: self.crates.map(board),
            flag: cell(self.flag),
            starts: self.starts.map(cell),
            goals: self.goals.map(board),
            first: self.first,
        };
        if swap_players {
            out.starts.swap(0, 1);
            out.goals.swap(0, 1);
            out.first = out.first.other();
        }
        out
    }

    /// Equal as layouts: everything but who moves first.
    fn same_layout(&self, other: &Shape) -> bool {
        Shape { first: Player::One, ..self.clone() } == Shape { first: Player::One, ..other.clone() }
    }
}

/// Which [`Symmetry`]s a layout has: the same after its transform, the
/// players swapped where it swaps them. One that swaps the players makes
/// the level the same for both, but for who moves first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Symmetries([bool; 3]);

impl Symmetries {
    /// The symmetries of `level`.
    #[must_use]
    pub fn of(level: &Level) -> Symmetries {
        let shape = Shape::of(level);
        Symmetries(Symmetry::ALL.map(|s| shape.map(s.transform(), s.swaps_players()).same_layout(&shape)))
    }

    /// Whether the layout has `symmetry`.
    #[must_use]
    pub const fn has(self, symmetry: Symmetry) -> bool {
        self.0[symmetry as usize]
    }

    /// Whether some symmetry makes the layout the same for both players.
    #[must_use]
    pub const fn fair(self) -> bool {
        self.has(Symmetry::HalfTurn) || self.has(Symmetry::MirrorRanks)
    }
}

/// A key equal for two levels exactly when they are the same under a
/// rotation, a mirror or swapping the players (who moves first included):
/// the least of the level's sixteen transformed forms.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct LevelKey(Vec<u128>);

impl Shape {
    fn key(&self) -> Vec<u128> {
        let cell = |c: Option<Cell>| c.map_or(u128::MAX, |c| c.index() as u128);
        let mut key = vec![u128::from(self.width), u128::from(self.height), self.walls.0];
        key.extend(self.crates.iter().map(|b| b.0));
        key.extend([cell(self.flag), cell(self.starts[0]), cell(self.starts[1])]);
        key.extend(self.goals.iter().map(|b| b.0));
        key.push(self.first.index() as u128);
        key
    }
}

impl LevelKey {
    /// The key of `level`.
    #[must_use]
    pub fn of(level: &Level) -> LevelKey {
        let shape = Shape::of(level);
        let least = Transform::ALL
            .into_iter()
            .flat_map(|t| [false, true].map(|swap| shape.map(t, swap).key()))
            .min()
            .unwrap_or_default();
        LevelKey(least)
    }
}

/// Whether two levels are the same under a rotation, a mirror or swapping
/// the players (who moves first included).
#[must_use]
pub fn same_level(a: &Level, b: &Level) -> bool {
    LevelKey::of(a) == LevelKey::of(b)
}
