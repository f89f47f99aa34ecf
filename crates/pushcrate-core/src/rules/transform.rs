//! The rigid transforms of a rectangular board: the one vocabulary that
//! mirror painting, the generator's symmetries and the symmetry analysis
//! share.

use super::{Bitboard, Cell};

/// A rigid transform of a `width × height` board (the dihedral group of a
/// rectangle, plus the four that swap its sides).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Transform {
    /// Every cell stays.
    Identity,
    /// A half turn: file and rank both mirrored (`rot180` on the command
    /// line).
    HalfTurn,
    /// Left to right: files mirrored.
    MirrorFiles,
    /// Top to bottom: ranks mirrored.
    MirrorRanks,
    /// Files and ranks exchanged.
    Transpose,
    /// A quarter turn.
    QuarterTurn,
    /// Three quarter turns.
    ThreeQuarterTurn,
    /// Files and ranks exchanged and both mirrored.
    AntiTranspose,
}

/// A symmetry of a two-player layout: a board transform and whether it
/// swaps the players. The one vocabulary of mirror painting, the
/// generator's symmetries, the symmetry analysis and repair: "files" are
/// mirrored left to right, "ranks" top to bottom.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Symmetry {
    /// A half turn, the players swapped (`rot180` on the command line).
    HalfTurn,
    /// Left to right (files mirrored), the players kept.
    MirrorFiles,
    /// Top to bottom (ranks mirrored), the players swapped (`mirror` on
    /// the generator's command line).
    MirrorRanks,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 3] = [Symmetry::HalfTurn, Symmetry::MirrorFiles, Symmetry::MirrorRanks];

    /// The board transform.
    #[must_use]
    pub const fn transform(self) -> Transform {
        match self {
            Symmetry::HalfTurn => Transform::HalfTurn,
            Symmetry::MirrorFiles => Transform::MirrorFiles,
            Symmetry::MirrorRanks => Transform::MirrorRanks,
        }
    }

    /// Whether the players trade places under it.
    #[must_use]
    pub const fn swaps_players(self) -> bool {
        matches!(self, Symmetry::HalfTurn | Symmetry::MirrorRanks)
    }

    /// The image of `cell` on a `width × height` board, or `None` when it
    /// is off that board.
    #[must_use]
    pub fn cell(self, cell: Cell, width: u8, height: u8) -> Option<Cell> {
        self.transform().cell(cell, width, height)
    }

    /// The image of `player`: the other one where the symmetry swaps them.
    #[must_use]
    pub const fn player(self, player: super::Player) -> super::Player {
        if self.swaps_players() { player.other() } else { player }
    }
}

impl Transform {
    /// Every transform.
    pub const ALL: [Transform; 8] = [
        Transform::Identity,
        Transform::HalfTurn,
        Transform::MirrorFiles,
        Transform::MirrorRanks,
        Transform::Transpose,
        Transform::QuarterTurn,
        Transform::ThreeQuarterTurn,
        Transform::AntiTranspose,
    ];

    /// Whether the board's width and height trade places.
    #[must_use]
    pub const fn swaps_sides(self) -> bool {
        matches!(
            self,
            Transform::Transpose
                | Transform::QuarterTurn
                | Transform::ThreeQuarterTurn
                | Transform::AntiTranspose
        )
    }

    /// Where `cell` of a `width × height` board goes, or `None` when it is
    /// off that board.
    #[must_use]
    pub fn cell(self, cell: Cell, width: u8, height: u8) -> Option<Cell> {
        let (f, r) = (cell.file(), cell.rank());
        if f >= width || r >= height {
            return None;
        }
        let (mf, mr) = (width - 1 - f, height - 1 - r);
        let (nf, nr) = match self {
            Transform::Identity => (f, r),
            Transform::HalfTurn => (mf, mr),
            Transform::MirrorFiles => (mf, r),
            Transform::MirrorRanks => (f, mr),
            Transform::Transpose => (r, f),
            Transform::QuarterTurn => (r, mf),
            Transform::ThreeQuarterTurn => (mr, f),
            Transform::AntiTranspose => (mr, mf),
        };
        Cell::try_new(nf, nr)
    }

    /// The image of a set of cells of a `width × height` board.
    #[must_use]
    pub fn cells(self, cells: Bitboard, width: u8, height: u8) -> Bitboard {
        cells.iter().filter_map(|c| self.cell(c, width, height)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_transform_maps_the_board_onto_itself_and_the_mirrors_undo_themselves() {
        let (w, h) = (7, 5);
        let board = Bitboard::rectangle(w, h);
        for t in Transform::ALL {
            let (tw, th) = if t.swaps_sides() { (h, w) } else { (w, h) };
            assert_eq!(t.cells(board, w, h), Bitboard::rectangle(tw, th), "{t:?}");
        }
        for t in [Transform::HalfTurn, Transform::MirrorFiles, Transform::MirrorRanks] {
            for cell in board {
                assert_eq!(t.cell(cell, w, h).and_then(|c| t.cell(c, w, h)), Some(cell), "{t:?}");
            }
        }
        let a1 = Cell::try_new(0, 0).unwrap();
        assert_eq!(Transform::HalfTurn.cell(a1, w, h), Cell::try_new(6, 4));
        assert_eq!(Transform::QuarterTurn.cell(a1, w, h), Cell::try_new(0, 6));
    }
}
