//! The path rule (docs/rules.md section 8): routes, and the sole-path cells.
//!
//! Steps go both ways, so every route holds iff the region reachable from
//! the flag's cell holds both ends of it: one fill from the flag answers all
//! four routes at once.

use std::collections::VecDeque;
use std::fmt;

use super::bitboard::Bitboard;
use super::types::{ByPlayer, Cell, Dir, Player};

/// One of the four routes of the path rule.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Route {
    /// From the player's start square to the flag's cell.
    StartToFlag(Player),
    /// From the flag's cell to any cell of the player's goal set.
    FlagToGoal(Player),
}

impl Route {
    /// The four routes in a fixed order.
    pub const ALL: [Route; 4] = [
        Route::StartToFlag(Player::One),
        Route::FlagToGoal(Player::One),
        Route::StartToFlag(Player::Two),
        Route::FlagToGoal(Player::Two),
    ];

    const fn bit(self) -> u8 {
        match self {
            Route::StartToFlag(Player::One) => 1,
            Route::FlagToGoal(Player::One) => 2,
            Route::StartToFlag(Player::Two) => 4,
            Route::FlagToGoal(Player::Two) => 8,
        }
    }

    /// The player whose route it is.
    #[must_use]
    pub const fn player(self) -> Player {
        match self {
            Route::StartToFlag(p) | Route::FlagToGoal(p) => p,
        }
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Route::StartToFlag(p) => write!(f, "{p}'s route from its start square to the flag"),
            Route::FlagToGoal(p) => write!(f, "{p}'s route from the flag to its goal"),
        }
    }
}

/// A set of routes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct RouteSet(u8);

impl RouteSet {
    /// No routes.
    pub const NONE: RouteSet = RouteSet(0);
    /// All four routes.
    pub const ALL: RouteSet = RouteSet(15);

    /// Whether `route` is in the set.
    #[must_use]
    pub const fn has(self, route: Route) -> bool {
        self.0 & route.bit() != 0
    }

    /// Adds a route.
    pub const fn insert(&mut self, route: Route) {
        self.0 |= route.bit();
    }

    /// Whether every route of `other` is in `self`.
    #[must_use]
    pub const fn contains_all(self, other: RouteSet) -> bool {
        other.0 & !self.0 == 0
    }

    /// The routes of `self` that are not in `other`.
    #[must_use]
    pub const fn minus(self, other: RouteSet) -> RouteSet {
        RouteSet(self.0 & !other.0)
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The routes in the set, in [`Route::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Route> {
        Route::ALL.into_iter().filter(move |r| self.has(*r))
    }
}

/// What the path rule looks at: open cells and the routes' ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RouteEnds {
    /// The flag's cell (the carrier's cell when it is carried).
    pub flag: Cell,
    /// Each player's start square.
    pub starts: ByPlayer<Cell>,
    /// Each player's goal set.
    pub goals: ByPlayer<Bitboard>,
}

impl RouteEnds {
    /// The routes that hold within `region`, the cells reachable from the flag.
    #[must_use]
    pub fn holding_in(&self, region: Bitboard) -> RouteSet {
        let mut set = RouteSet::NONE;
        if !region.has(self.flag) {
            return set;
        }
        for p in Player::BOTH {
            if region.has(self.starts[p]) {
                set.insert(Route::StartToFlag(p));
            }
            if (self.goals[p] & region).any() {
                set.insert(Route::FlagToGoal(p));
            }
        }
        set
    }

    /// The routes that hold over the `open` cells.
    #[must_use]
    pub fn holding(&self, open: Bitboard) -> RouteSet {
        self.holding_in(Bitboard::fill(self.flag.into(), open))
    }

    /// Whether a path joins the two ends of `route` over `open` cells.
    #[must_use]
    pub fn holds(&self, route: Route, open: Bitboard) -> bool {
        self.holding(open).has(route)
    }
}

/// The cells whose neighbours are not all joined within their own 3 × 3
/// neighbourhood: only such a cell can cut its region in two. A cell whose
/// open neighbours are joined around it can always be walked around.
#[must_use]
pub fn local_cut_candidates(open: Bitboard) -> Bitboard {
    // `n` holds the cells whose northern neighbour is open, and so on.
    let n = open.shift(Dir::South);
    let s = open.shift(Dir::North);
    let e = open.shift(Dir::West);
    let w = open.shift(Dir::East);
    let ne = n.shift(Dir::West);
    let se = s.shift(Dir::West);
    let sw = s.shift(Dir::East);
    let nw = n.shift(Dir::East);
    // An open neighbour "ends a run" when it is not joined, through the
    // diagonal cell, to the next neighbour clockwise. A cell whose open
    // neighbours form two runs or more may be a cut.
    let end_n = n - (e & ne);
    let end_e = e - (s & se);
    let end_s = s - (w & sw);
    let end_w = w - (n & nw);
    (end_n & end_e) | (end_n & end_s) | (end_n & end_w) | (end_e & end_s) | (end_e & end_w) | (end_s & end_w)
}

/// A breadth-first search from one cell, in frontier layers.
struct Layers {
    layers: [Bitboard; Cell::COUNT + 1],
    depth: usize,
    region: Bitboard,
}

impl Layers {
    fn from(start: Cell, open: Bitboard) -> Layers {
        let mut layers = [Bitboard::EMPTY; Cell::COUNT + 1];
        let mut region = Bitboard::EMPTY;
        let mut depth = 0;
        for (_, ring) in (Bitboard::from_cell(start) & open).rings(open).with_steps() {
            layers[depth] = ring;
            region |= ring;
            depth += 1;
        }
        Layers { layers, depth, region }
    }

    /// Adds to `path` one shortest path from the start to the nearest cell
    /// of `targets`.
    fn trace(&self, targets: Bitboard, path: &mut Bitboard) {
        let Some((mut k, mut cell)) =
            (0..self.depth).find_map(|k| (self.layers[k] & targets).first().map(|c| (k, c)))
        else {
            return;
        };
        path.insert(cell);
        while k > 0 {
            k -= 1;
            match (Bitboard::from_cell(cell).dilate() & self.layers[k]).first() {
                Some(prev) => cell = prev,
                None => return,
            }
            path.insert(cell);
        }
    }
}

/// The sole-path cells: the open cells whose blocking would break a route
/// that holds over `open`.
///
/// The route ends themselves count (the flag's cell, a start square, a goal
/// set's last reachable cell). Other cells only count when they fail the
/// local test of [`local_cut_candidates`] and lie on the shortest path of a
/// holding route; those few are checked with one fill each.
#[must_use]
pub fn sole_path_cells(ends: &RouteEnds, open: Bitboard) -> Bitboard {
    let bfs = Layers::from(ends.flag, open);
    let region = bfs.region;
    let holding = ends.holding_in(region);
    if holding.is_empty() {
        return Bitboard::EMPTY;
    }
    let mut mask = Bitboard::from_cell(ends.flag);
    let mut on_paths = Bitboard::EMPTY;
    for p in Player::BOTH {
        if holding.has(Route::StartToFlag(p)) {
            mask.insert(ends.starts[p]);
            bfs.trace(ends.starts[p].into(), &mut on_paths);
        }
        if holding.has(Route::FlagToGoal(p)) {
            let reachable = ends.goals[p] & region;
            if reachable.count() == 1 {
                mask |= reachable;
            }
            bfs.trace(reachable, &mut on_paths);
        }
    }
    let mut candidates = local_cut_candidates(region) & (on_paths - mask);
    // A corridor: cells with exactly two open neighbours and no route end.
    // Blocking any cell of one such chain leaves the route ends on the same
    // sides, so one fill decides the whole chain.
    let mut route_ends = ends.goals.one | ends.goals.two | Bitboard::from_cell(ends.flag);
    route_ends.insert(ends.starts.one);
    route_ends.insert(ends.starts.two);
    let corridor = candidates & (two_neighbours(region) - route_ends);
    while let Some(cell) = candidates.first() {
        let group = if corridor.has(cell) { Bitboard::fill(cell.into(), corridor) } else { cell.into() };
        candidates = candidates - group;
        let cut = region - Bitboard::from_cell(cell);
        if !ends.holding(cut).contains_all(holding) {
            mask |= group;
        }
    }
    mask
}

/// [`sole_path_cells`], remembered. The answer depends on the route ends
/// and the open cells alone, and a search asks the same question again and
/// again: a step or a jump moves no crate. Each thread keeps its last
/// answers in a small table, each beside the whole question it answers, so
/// an answer is only ever given to its own question.
#[must_use]
pub fn sole_path_cells_remembered(ends: &RouteEnds, open: Bitboard) -> Bitboard {
    /// log2 of the table's entries (about 288 KiB a thread, made on the
    /// thread's first question).
    const BITS: u32 = 12;
    #[derive(Clone, Copy)]
    struct Answer {
        ends: RouteEnds,
        open: Bitboard,
        sole: Bitboard,
    }
    thread_local! {
        static ANSWERS: std::cell::RefCell<Vec<Option<Answer>>> = std::cell::RefCell::new(vec![None; 1 << BITS]);
    }
    let mix = (open.0 as u64) ^ ((open.0 >> 64) as u64).rotate_left(31) ^ ((ends.flag.index() as u64) << 57);
    let slot = (mix.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BITS)) as usize;
    ANSWERS.with(|answers| {
        let mut answers = answers.borrow_mut();
        if let Some(answer) = answers[slot]
            && answer.open == open
            && answer.ends == *ends
        {
            return answer.sole;
        }
        let sole = sole_path_cells(ends, open);
        answers[slot] = Some(Answer { ends: *ends, open, sole });
        sole
    })
}

/// The cells of `open` with exactly two neighbours in `open`.
fn two_neighbours(open: Bitboard) -> Bitboard {
    let n = open.shift(Dir::South);
    let s = open.shift(Dir::North);
    let e = open.shift(Dir::West);
    let w = open.shift(Dir::East);
    let pairs = (n & s) | (n & e) | (n & w) | (s & e) | (s & w) | (e & w);
    let triples = (n & s & (e | w)) | (e & w & (n | s));
    open & (pairs - triples)
}

/// The cells reachable from `from` over `open`, by a plain queue-based
/// breadth-first search. The reference the fast code is tested against.
#[must_use]
pub fn reference_region(from: Cell, open: Bitboard) -> Bitboard {
    let mut seen = Bitboard::EMPTY;
    if !open.has(from) {
        return seen;
    }
    let mut queue = VecDeque::from([from]);
    seen.insert(from);
    while let Some(cell) = queue.pop_front() {
        for dir in Dir::ALL {
            if let Some(next) = cell.offset(dir)
                && open.has(next)
                && !seen.has(next)
            {
                seen.insert(next);
                queue.push_back(next);
            }
        }
    }
    seen
}

/// The sole-path cells by one breadth-first search per open cell: slow and
/// plain, the oracle for [`sole_path_cells`] and the benchmarks' baseline.
#[must_use]
pub fn reference_sole_path_cells(ends: &RouteEnds, open: Bitboard) -> Bitboard {
    let holding = ends.holding_in(reference_region(ends.flag, open));
    let mut mask = Bitboard::EMPTY;
    if holding.is_empty() {
        return mask;
    }
    for cell in open {
        let cut = open - Bitboard::from_cell(cell);
        if !ends.holding_in(reference_region(ends.flag, cut)).contains_all(holding) {
            mask.insert(cell);
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ends_5x5() -> RouteEnds {
        RouteEnds {
            flag: Cell::new(2, 2),
            starts: ByPlayer::new(Cell::new(2, 0), Cell::new(2, 4)),
            goals: ByPlayer::new(
                (0..5).map(|f| Cell::new(f, 0)).collect(),
                (0..5).map(|f| Cell::new(f, 4)).collect(),
            ),
        }
    }

    #[test]
    fn open_board_has_only_route_ends() {
        let ends = ends_5x5();
        let open = Bitboard::rectangle(5, 5);
        let mask = sole_path_cells(&ends, open);
        let expected: Bitboard = [Cell::new(2, 2), Cell::new(2, 0), Cell::new(2, 4)].into_iter().collect();
        assert_eq!(mask, expected);
        assert_eq!(mask, reference_sole_path_cells(&ends, open));
    }

    #[test]
    fn a_corridor_is_all_sole_path() {
        // Player 1's start reaches the flag only up file c.
        let ends = ends_5x5();
        let mut open = Bitboard::rectangle(5, 5);
        for f in [0, 1, 3, 4] {
            open.remove(Cell::new(f, 1));
        }
        let mask = sole_path_cells(&ends, open);
        assert!(mask.has(Cell::new(2, 1)));
        assert_eq!(mask, reference_sole_path_cells(&ends, open));
    }
}
