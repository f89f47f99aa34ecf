//! [`Level`] and [`Pack`]: what a designer edits, which may be invalid,
//! and the format's limits.

use std::collections::BTreeMap;

use super::expect::Expectation;
use crate::rules::{Bitboard, ByPlayer, Cell, Player, Rules, Setup, Stage};

/// The newest format version, which this build reads and writes where a
/// pack needs it (a level with expectations); a pack without writes
/// version 1, which every reader of either version reads.
pub const FORMAT_VERSION: i64 = 2;
/// The oldest format version this build reads (version 2 adds `expect`).
pub const OLDEST_FORMAT_VERSION: i64 = 1;
/// Files larger than this are refused.
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;
/// Packs with more levels are refused.
pub const MAX_LEVELS: usize = 10_000;

/// The bundled default pack, as shipped in `mazes/default.toml`: the
/// showcase, every level balanced under the default check.
pub const DEFAULT_PACK_TOML: &str = include_str!("../../../../mazes/default.toml");
/// The bundled pack of flawed levels, as shipped in `mazes/flawed.toml`:
/// each level kept lopsided or broken on purpose, its flaw in its notes.
pub const FLAWED_PACK_TOML: &str = include_str!("../../../../mazes/flawed.toml");

/// One level: a board a designer paints. Any field may be wrong; see
/// [`Pack::problems`].
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Level {
    /// Unique within its pack: letters, digits, `-` and `_`.
    pub id: String,
    /// A display name.
    pub name: String,
    /// Who made it.
    pub author: Option<String>,
    /// Free notes for designers.
    pub notes: Option<String>,
    /// Free tags.
    pub tags: Vec<String>,
    /// Files, 5 to 11.
    pub width: u8,
    /// Ranks, 5 to 11.
    pub height: u8,
    /// Wall cells.
    pub walls: Bitboard,
    /// Each player's start square, if set.
    pub starts: ByPlayer<Option<Cell>>,
    /// Each player's goal set; `None` takes the default, every floor cell of
    /// the rank of the player's start square.
    pub goals: ByPlayer<Option<Bitboard>>,
    /// The flag's starting cell; `None` takes the centre.
    pub flag: Option<Cell>,
    /// Initial crates and their stages.
    pub crates: BTreeMap<Cell, Stage>,
    /// Who moves first.
    pub first: Player,
    /// What its designer expects of it (format version 2), in the order
    /// written.
    pub expect: Vec<Expectation>,
}

impl Level {
    /// An empty `width × height` level with the default starts: player 1 in
    /// the middle of the bottom rank, player 2 in the middle of the top rank.
    #[must_use]
    pub fn new(id: impl Into<String>, width: u8, height: u8) -> Level {
        let mid = width.saturating_sub(1) / 2;
        Level {
            id: id.into(),
            name: String::new(),
            author: None,
            notes: None,
            tags: Vec::new(),
            width,
            height,
            walls: Bitboard::EMPTY,
            starts: ByPlayer::new(Cell::try_new(mid, 0), Cell::try_new(mid, height.saturating_sub(1))),
            goals: ByPlayer::new(None, None),
            flag: None,
            crates: BTreeMap::new(),
            first: Player::One,
            expect: Vec::new(),
        }
    }

    /// The on-board cells.
    #[must_use]
    pub fn board(&self) -> Bitboard {
        Bitboard::rectangle(self.width.min(crate::rules::MAX_SIDE), self.height.min(crate::rules::MAX_SIDE))
    }

    /// The on-board cells that are not walls.
    #[must_use]
    pub fn floor(&self) -> Bitboard {
        self.board() - self.walls
    }

    /// The centre cell, where the flag starts by default: file
    /// `(width - 1) / 2`, rank `(height - 1) / 2`, so `e5` on 9 × 9.
    #[must_use]
    pub fn centre(&self) -> Option<Cell> {
        Cell::try_new(self.width.saturating_sub(1) / 2, self.height.saturating_sub(1) / 2)
    }

    /// The flag's starting cell, the default applied.
    #[must_use]
    pub fn flag_cell(&self) -> Option<Cell> {
        self.flag.or_else(|| self.centre())
    }

    /// `player`'s goal set, the default applied: every floor cell of its
    /// start square's rank.
    #[must_use]
    pub fn goal_cells(&self, player: Player) -> Bitboard {
        match (self.goals[player], self.starts[player]) {
            (Some(goals), _) => goals,
            (None, Some(start)) => {
                let rank: Bitboard = (0..self.width).filter_map(|f| Cell::try_new(f, start.rank())).collect();
                rank & self.floor()
            }
            (None, None) => Bitboard::EMPTY,
        }
    }

    /// The crates of each stage.
    #[must_use]
    pub fn crates_by_stage(&self) -> [Bitboard; 4] {
        let mut out = [Bitboard::EMPTY; 4];
        for (&cell, &stage) in &self.crates {
            out[stage.index()].insert(cell);
        }
        out
    }

    /// The level as a [`Setup`] under `rules`, or `None` when a start square
    /// or the flag's cell is missing. The setup may still break rules.
    #[must_use]
    pub fn setup(&self, rules: Rules) -> Option<Setup> {
        Some(Setup {
            width: self.width,
            height: self.height,
            walls: self.walls & self.board(),
            starts: ByPlayer::new(self.starts.one?, self.starts.two?),
            goals: ByPlayer::from_fn(|p| self.goal_cells(p)),
            flag: self.flag_cell()?,
            crates: self.crates_by_stage(),
            first: self.first,
            rules,
        })
    }
}

/// An ordered list of levels with shared metadata and rule options.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Pack {
    /// The pack's name.
    pub name: String,
    /// Who made it.
    pub author: Option<String>,
    /// What it is for.
    pub description: Option<String>,
    /// The rule options of every level in the pack.
    pub rules: Rules,
    /// The levels, in order.
    pub levels: Vec<Level>,
}

impl Pack {
    /// The format version its text needs: 2 where a level has
    /// expectations, else 1, which readers of either version read. The
    /// writers write this one.
    #[must_use]
    pub fn format_version(&self) -> i64 {
        if self.levels.iter().any(|l| !l.expect.is_empty()) { FORMAT_VERSION } else { OLDEST_FORMAT_VERSION }
    }

    /// An empty pack with default rules.
    #[must_use]
    pub fn new(name: impl Into<String>) -> Pack {
        Pack {
            name: name.into(),
            author: None,
            description: None,
            rules: Rules::default(),
            levels: Vec::new(),
        }
    }

    /// The level with `id`, if any.
    #[must_use]
    pub fn level(&self, id: &str) -> Option<&Level> {
        self.levels.iter().find(|l| l.id == id)
    }

    /// The index of the level with `id`, if any.
    #[must_use]
    pub fn level_index(&self, id: &str) -> Option<usize> {
        self.levels.iter().position(|l| l.id == id)
    }
}
