//! What the analysis reports: its options, a level's report with its
//! route proofs, race and search, and a pack's.

use std::sync::atomic::AtomicBool;

use super::finding::{Finding, Severity, Witness};
use super::search::Answer;
use super::symmetry::Symmetries;
use crate::rules::{Cell, Player, Route};

/// What to run beside the static checks.
#[derive(Clone, Copy, Debug)]
pub struct AnalysisOptions<'a> {
    /// Positions the bounded search may visit per question; 0 skips it.
    pub budget: u64,
    /// Actions the bounded search looks ahead.
    pub depth: u32,
    /// Set to stop the search early.
    pub cancel: Option<&'a AtomicBool>,
}

impl Default for AnalysisOptions<'_> {
    fn default() -> Self {
        AnalysisOptions { budget: 0, depth: 40, cancel: None }
    }
}

/// The proof for one route: a path joining its ends, or the walled-in
/// region that separates them. Written as `route` (`"start-to-flag"` or
/// `"flag-to-goal"`) and `player` (1 or 2), then the fields below.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RouteProof {
    /// The route, which names its player.
    pub route: Route,
    /// Whether the route holds over the floor (walls only).
    pub holds: bool,
    /// Whether it still holds with the initial crates.
    pub holds_with_crates: bool,
    /// A shortest path, or the cut.
    pub witness: Witness,
}

impl RouteProof {
    /// The player whose route it is.
    #[must_use]
    pub const fn player(&self) -> Player {
        self.route.player()
    }

    /// `"start-to-flag"` or `"flag-to-goal"`, as reports write it.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        route_name(self.route)
    }
}

/// One player's leg of the race to the flag and home (walls only).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RaceLeg {
    /// The player (written as 1 or 2).
    pub player: Player,
    /// Steps from the start square to the flag.
    pub to_flag: u32,
    /// Steps from the flag to the nearest goal cell.
    pub to_goal: u32,
    /// The action of the game (counted from 1) on which the player would
    /// reach the flag if both players ran straight for it.
    pub reaches_flag_on_action: u32,
}

/// The race to the flag.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Race {
    /// Both legs.
    pub legs: [RaceLeg; 2],
    /// Who reaches the flag first (written as 1 or 2).
    pub first_to_flag: Player,
    /// By how many actions of the game.
    pub lead: u32,
}

/// The bounded search's answers.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchReport {
    /// Actions looked ahead.
    pub depth: u32,
    /// Positions allowed per question.
    pub budget: u64,
    /// Can player 1 win within the depth, with the opponent's help?
    pub player1_can_win: Answer,
    /// Can player 2?
    pub player2_can_win: Answer,
    /// Is there a reachable position from which no win is reachable?
    pub dead_position: Answer,
    /// Does the player to move at the start force a win within the depth,
    /// whatever the opponent does? (The solver's AND-OR proof search.)
    pub first_forces_win: Answer,
    /// Positions visited in all.
    pub nodes: u64,
}

/// Everything the analysis says about one level.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LevelReport {
    /// The level's id.
    pub level: String,
    /// `"WxH"`.
    pub size: String,
    /// Findings, errors first.
    pub findings: Vec<Finding>,
    /// The four routes' proofs; empty when the level is invalid.
    pub routes: Vec<RouteProof>,
    /// The race, when every route holds.
    pub race: Option<Race>,
    /// The sole-path cells of the starting position.
    pub sole_path_cells: Vec<Cell>,
    /// Cells that can take a crate at the start.
    pub placement_cells: u32,
    /// The layout's symmetries.
    pub symmetry: Symmetries,
    /// The bounded search, when it ran.
    pub search: Option<SearchReport>,
}

impl LevelReport {
    /// Whether any finding is an error.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// Whether any finding is a warning.
    #[must_use]
    pub fn has_warnings(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Warning)
    }
}

/// The analysis of a pack: one report per level, in pack order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PackReport {
    /// The report format's version.
    pub version: u32,
    /// The levels.
    pub levels: Vec<LevelReport>,
}

/// The version of the JSON report's schema (`docs/analysis.md`).
pub const REPORT_VERSION: u32 = 1;

/// A route's kind as reports name it.
pub(super) const fn route_name(route: Route) -> &'static str {
    match route {
        Route::StartToFlag(_) => "start-to-flag",
        Route::FlagToGoal(_) => "flag-to-goal",
    }
}
