//! [`MazeGraph`]: the open cells of a board as a petgraph graph, behind
//! methods that speak in cells.

use petgraph::algo::{articulation_points::articulation_points, astar};
use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::visit::{Bfs, NodeFiltered};

use crate::rules::{Bitboard, Cell, Dir, Route, RouteEnds};

/// The graph of open cells of a board: an edge joins each pair of
/// orthogonally adjacent open cells. Answers connectivity questions in cells;
/// petgraph's indices never leave this type.
#[derive(Clone, Debug)]
pub struct MazeGraph {
    graph: UnGraph<Cell, ()>,
    nodes: [Option<NodeIndex>; Cell::COUNT],
    open: Bitboard,
}

impl MazeGraph {
    /// The graph of the `open` cells.
    #[must_use]
    pub fn new(open: Bitboard) -> MazeGraph {
        let mut graph = UnGraph::with_capacity(open.count() as usize, 2 * open.count() as usize);
        let mut nodes = [None; Cell::COUNT];
        for cell in open {
            nodes[cell.index()] = Some(graph.add_node(cell));
        }
        for cell in open {
            for dir in [Dir::East, Dir::North] {
                if let (Some(a), Some(b)) =
                    (nodes[cell.index()], cell.offset(dir).and_then(|n| nodes[n.index()]))
                {
                    graph.add_edge(a, b, ());
                }
            }
        }
        MazeGraph { graph, nodes, open }
    }

    fn node(&self, cell: Cell) -> Option<NodeIndex> {
        self.nodes[cell.index()]
    }

    fn cells(&self, nodes: impl IntoIterator<Item = NodeIndex>) -> Bitboard {
        nodes.into_iter().map(|n| self.graph[n]).collect()
    }

    /// The open cells.
    #[must_use]
    pub const fn open(&self) -> Bitboard {
        self.open
    }

    /// A shortest path of open cells from `from` to the nearest cell of
    /// `targets`, both ends included.
    #[must_use]
    pub fn shortest_path(&self, from: Cell, targets: Bitboard) -> Option<Vec<Cell>> {
        let start = self.node(from)?;
        let (_, path) = astar(&self.graph, start, |n| targets.has(self.graph[n]), |_| 1u32, |_| 0)?;
        Some(path.into_iter().map(|n| self.graph[n]).collect())
    }

    /// Step distances from `from` to every open cell it reaches.
    #[must_use]
    pub fn distances(&self, from: Cell) -> [Option<u16>; Cell::COUNT] {
        (Bitboard::from_cell(from) & self.open).rings(self.open).distances()
    }

    /// The open cells reachable from `from`.
    #[must_use]
    pub fn component(&self, from: Cell) -> Bitboard {
        let Some(start) = self.node(from) else { return Bitboard::EMPTY };
        let mut bfs = Bfs::new(&self.graph, start);
        let mut out = Bitboard::EMPTY;
        while let Some(n) = bfs.next(&self.graph) {
            out.insert(self.graph[n]);
        }
        out
    }

    /// The open cells reachable from `from` when `removed` is blocked.
    #[must_use]
    pub fn component_without(&self, from: Cell, removed: Cell) -> Bitboard {
        let (Some(start), Some(gone)) = (self.node(from), self.node(removed)) else {
            return self.component(from);
        };
        if start == gone {
            return Bitboard::EMPTY;
        }
        let filtered = NodeFiltered::from_fn(&self.graph, |n| n != gone);
        let mut bfs = Bfs::new(&filtered, start);
        let mut out = Bitboard::EMPTY;
        while let Some(n) = bfs.next(&filtered) {
            out.insert(self.graph[n]);
        }
        out
    }

    /// The cut vertices: open cells whose blocking splits a component.
    #[must_use]
    pub fn articulation_points(&self) -> Bitboard {
        self.cells(articulation_points(&self.graph))
    }

    /// Whether `route` holds in this graph.
    #[must_use]
    pub fn holds(&self, ends: &RouteEnds, route: Route) -> bool {
        let region = self.component(ends.flag);
        match route {
            Route::StartToFlag(p) => region.has(ends.starts[p]),
            Route::FlagToGoal(p) => (region & ends.goals[p]).any(),
        }
    }

    /// The open cells whose blocking would break `route`, if it holds: its
    /// ends, and the cut vertices that separate them.
    #[must_use]
    pub fn route_cuts(&self, ends: &RouteEnds, route: Route) -> Bitboard {
        if !self.holds(ends, route) {
            return Bitboard::EMPTY;
        }
        let (far, goal_set) = match route {
            Route::StartToFlag(p) => (Bitboard::from_cell(ends.starts[p]), false),
            Route::FlagToGoal(p) => (ends.goals[p] & self.component(ends.flag), true),
        };
        let mut cuts = Bitboard::from_cell(ends.flag);
        if !goal_set || far.count() == 1 {
            cuts |= far;
        }
        for cell in self.articulation_points() - cuts {
            if (self.component_without(ends.flag, cell) & far).is_empty() {
                cuts.insert(cell);
            }
        }
        cuts
    }

    /// The sole-path cells: the union of every holding route's cuts. Equal
    /// to the engine's [`GameState::sole_path_cells`](crate::rules::GameState::sole_path_cells).
    #[must_use]
    pub fn sole_path_cells(&self, ends: &RouteEnds) -> Bitboard {
        crate::rules::Route::ALL.iter().fold(Bitboard::EMPTY, |acc, &r| acc | self.route_cuts(ends, r))
    }

    /// Checks the graph's invariants: one node per open cell, edges only
    /// between adjacent open cells.
    pub fn verify(&self) -> Result<(), GraphError> {
        if self.graph.node_count() != self.open.count() as usize {
            return Err(GraphError::Nodes { nodes: self.graph.node_count(), open: self.open.count() });
        }
        for edge in self.graph.raw_edges() {
            let (a, b) = (self.graph[edge.source()], self.graph[edge.target()]);
            if a.distance(b) != 1 || !self.open.has(a) || !self.open.has(b) {
                return Err(GraphError::Edge(a, b));
            }
        }
        Ok(())
    }
}

/// A broken invariant of a [`MazeGraph`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum GraphError {
    /// Not one node per open cell.
    #[error("{nodes} nodes for {open} open cells")]
    Nodes {
        /// Nodes in the graph.
        nodes: usize,
        /// Open cells.
        open: u32,
    },
    /// An edge between cells that are not adjacent and open.
    #[error("edge {0}–{1} does not join adjacent open cells")]
    Edge(Cell, Cell),
}
