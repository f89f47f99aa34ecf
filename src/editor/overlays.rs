//! What the board's overlays draw — each player's route and the steps from
//! the flag — computed once per level content (the editor caches them
//! beside the analysis report), not on every frame.

use crate::analysis::MazeGraph;
use crate::level::Level;
use crate::rules::{Bitboard, Cell, Player};

/// A level's overlays.
#[derive(Clone, Debug, Default)]
pub struct Overlays {
    /// Each player's route, start to flag to goal: around the crates as
    /// painted, over the floor where they cut the way.
    pub routes: Vec<(Player, Vec<Cell>)>,
    /// Steps from the flag to every floor cell, through walls only (crates
    /// break, so they do not count); `None` for floor the flag cannot
    /// reach, and no table without a flag.
    pub distances: Option<Vec<Option<u16>>>,
}

impl Overlays {
    /// The overlays of `level`.
    #[must_use]
    pub fn of(level: &Level) -> Overlays {
        let Some(flag) = level.flag_cell() else { return Overlays::default() };
        let floor = MazeGraph::new(level.floor());
        let with_crates = MazeGraph::new(level.floor() - level.crates.keys().copied().collect::<Bitboard>());
        let path = |from: Cell, to: Bitboard| {
            with_crates.shortest_path(from, to).or_else(|| floor.shortest_path(from, to)).unwrap_or_default()
        };
        let mut routes = Vec::new();
        for p in Player::BOTH {
            let Some(start) = level.starts[p] else { continue };
            let mut route = path(start, Bitboard::from_cell(flag));
            route.extend(path(flag, level.goal_cells(p)).into_iter().skip(1));
            routes.push((p, route));
        }
        Overlays { routes, distances: Some(floor.distances(flag).to_vec()) }
    }
}
