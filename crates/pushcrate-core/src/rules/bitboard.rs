//! A set of cells as one `u128` on the fixed 11-wide stride.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use super::types::{Cell, Dir, MAX_SIDE};

const STRIDE: u32 = MAX_SIDE as u32;
const ALL_CELLS: u128 = (1u128 << Cell::COUNT) - 1;

const fn file_mask(file: u8) -> u128 {
    let mut mask = 0u128;
    let mut rank = 0;
    while rank < MAX_SIDE {
        mask |= 1u128 << (rank as u32 * STRIDE + file as u32);
        rank += 1;
    }
    mask
}

const FIRST_FILE: u128 = file_mask(0);
const LAST_FILE: u128 = file_mask(MAX_SIDE - 1);

/// A set of cells. Bit `i` is the cell with [`Cell::index`] `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// No cells.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Every cell of a `width × height` board.
    #[must_use]
    pub const fn rectangle(width: u8, height: u8) -> Bitboard {
        let mut mask = 0u128;
        let mut rank = 0;
        while rank < height && rank < MAX_SIDE {
            let row = (1u128 << width) - 1;
            mask |= row << (rank as u32 * STRIDE);
            rank += 1;
        }
        Bitboard(mask & ALL_CELLS)
    }

    /// The set holding only `cell`.
    #[must_use]
    pub const fn from_cell(cell: Cell) -> Bitboard {
        Bitboard(1u128 << cell.index())
    }

    /// Whether `cell` is in the set.
    #[must_use]
    pub const fn has(self, cell: Cell) -> bool {
        self.0 >> cell.index() & 1 != 0
    }

    /// Adds `cell`.
    pub const fn insert(&mut self, cell: Cell) {
        self.0 |= 1u128 << cell.index();
    }

    /// Removes `cell`.
    pub const fn remove(&mut self, cell: Cell) {
        self.0 &= !(1u128 << cell.index());
    }

    /// Adds or removes `cell`.
    pub const fn set(&mut self, cell: Cell, on: bool) {
        if on {
            self.insert(cell);
        } else {
            self.remove(cell);
        }
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one cell.
    #[must_use]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of cells.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest cell, if any.
    #[must_use]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 { None } else { Cell::from_index(self.0.trailing_zeros() as usize) }
    }

    /// The cells shifted one step in `dir`; cells leaving the stride vanish.
    /// The caller masks the result with the board it cares about.
    #[must_use]
    pub const fn shift(self, dir: Dir) -> Bitboard {
        Bitboard(match dir {
            Dir::North => (self.0 << STRIDE) & ALL_CELLS,
            Dir::South => self.0 >> STRIDE,
            Dir::East => (self.0 & !LAST_FILE) << 1,
            Dir::West => (self.0 & !FIRST_FILE) >> 1,
        })
    }

    /// The set and its four neighbour sets.
    #[must_use]
    pub const fn dilate(self) -> Bitboard {
        Bitboard(
            self.0
                | self.shift(Dir::North).0
                | self.shift(Dir::South).0
                | self.shift(Dir::East).0
                | self.shift(Dir::West).0,
        )
    }

    /// Whether no cell of the set lies on the grid's last file: true of
    /// every board narrower than the grid, and the condition of
    /// [`Bitboard::dilate_narrow`].
    #[must_use]
    pub const fn is_narrow(self) -> bool {
        self.0 & LAST_FILE == 0
    }

    /// The set and its four neighbour sets, kept within `within`: what
    /// `self.dilate() & within` gives when `within` [is
    /// narrow](Bitboard::is_narrow) and holds `self`. Then no shift needs a
    /// mask: a step east from the last file of the board lands on the
    /// grid's last file, a step west from the first file lands on the
    /// last file of the rank below, and a step north from the top rank
    /// lands past the grid, all outside `within`.
    #[must_use]
    pub const fn dilate_narrow(self, within: Bitboard) -> Bitboard {
        let x = self.0;
        Bitboard((x | x << STRIDE | x >> STRIDE | x << 1 | x >> 1) & within.0)
    }

    /// The cells of `open` reachable from `seed` by orthogonal steps within
    /// `open`. `seed` cells outside `open` are dropped.
    #[must_use]
    pub const fn fill(seed: Bitboard, open: Bitboard) -> Bitboard {
        let mut region = seed.0 & open.0;
        loop {
            let grown = Bitboard(region).dilate().0 & open.0;
            if grown == region {
                return Bitboard(region);
            }
            region = grown;
        }
    }

    /// Iterates over the cells, lowest index first.
    #[must_use]
    pub const fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// Iterator over the cells of a [`Bitboard`].
pub struct BitboardIter(u128);

impl Iterator for BitboardIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Cell::from_index(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Cell;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Bitboard {
        let mut board = Bitboard::EMPTY;
        for cell in iter {
            board.insert(cell);
        }
        board
    }
}

impl From<Cell> for Bitboard {
    fn from(cell: Cell) -> Bitboard {
        Bitboard::from_cell(cell)
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $assign:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_CELLS)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_never_wrap_between_ranks() {
        let east_edge = Bitboard::from_cell(Cell::new(10, 0));
        assert!(east_edge.shift(Dir::East).is_empty());
        let west_edge = Bitboard::from_cell(Cell::new(0, 1));
        assert!(west_edge.shift(Dir::West).is_empty());
        let top = Bitboard::from_cell(Cell::new(3, 10));
        assert!(top.shift(Dir::North).is_empty());
        let centre = Bitboard::from_cell(Cell::new(4, 4));
        for dir in Dir::ALL {
            assert_eq!(centre.shift(dir).first(), Cell::new(4, 4).offset(dir));
        }
    }

    #[test]
    fn a_narrow_board_grows_without_masks() {
        // Every board narrower than the grid, with cells on its edges and
        // corners: the unmasked growth equals the masked one.
        for (width, height) in [(5, 5), (9, 9), (10, 11), (7, 11)] {
            let within = Bitboard::rectangle(width, height);
            assert!(within.is_narrow());
            let mut set = Bitboard::EMPTY;
            for (file, rank) in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1), (2, 3)] {
                let one = Bitboard::from_cell(Cell::new(file, rank));
                assert_eq!(
                    one.dilate_narrow(within),
                    one.dilate() & within,
                    "{width}x{height} {file},{rank}"
                );
                set |= one;
            }
            assert_eq!(set.dilate_narrow(within), set.dilate() & within);
            assert_eq!(within.dilate_narrow(within), within);
        }
        assert!(!Bitboard::rectangle(11, 11).is_narrow());
    }

    #[test]
    fn rectangle_counts() {
        assert_eq!(Bitboard::rectangle(9, 9).count(), 81);
        assert_eq!(Bitboard::rectangle(11, 11).count(), 121);
        assert_eq!(Bitboard::rectangle(5, 7).count(), 35);
        assert!(!Bitboard::rectangle(5, 7).has(Cell::new(5, 0)));
    }

    #[test]
    fn fill_follows_open_cells() {
        let board = Bitboard::rectangle(5, 5);
        let mut wall = Bitboard::EMPTY;
        for rank in 0..5 {
            wall.insert(Cell::new(2, rank));
        }
        let region = Bitboard::fill(Cell::new(0, 0).into(), board - wall);
        assert_eq!(region.count(), 10);
        assert!(!region.has(Cell::new(3, 0)));
    }
}
