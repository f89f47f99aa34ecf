//! The rules engine: a pure, allocation-free implementation of docs/rules.md.
//!
//! *Architecture Invariant*: this module does no I/O and imports nothing
//! from the rest of the crate; everything else builds on it.

mod action;
mod bitboard;
mod options;
pub mod path;
mod perft;
mod rings;
mod setup;
mod state;
mod transform;
mod types;
pub mod zobrist;

pub use action::{Action, ActionKind, ActionList, ParseActionError, format_actions, parse_actions};
pub use bitboard::{Bitboard, BitboardIter};
pub use options::{
    CRATE_PLACEMENTS_RANGE, CRATES_TO_WIN_RANGE, DRAW_ACTIONS_RANGE, FLAG_BONUS_ACTIONS_RANGE, JumpRule,
    ParseJumpRuleError, RuleOption, RuleValueError, Rules,
};
pub use path::{Route, RouteEnds, RouteSet};
pub use perft::{divide, perft, perft_full, perft_until};
pub use rings::Rings;
pub use setup::{Piece, Setup, SetupProblem};
pub use state::{DrawOfferError, GameState, IllegalAction, Outcome, SetupError, WinKind};
pub use transform::{Symmetry, Transform};
pub use types::{ByPlayer, Cell, Dir, MAX_SIDE, MIN_SIDE, ParseCellError, Player, Stage};
