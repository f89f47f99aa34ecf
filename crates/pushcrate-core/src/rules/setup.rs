//! A starting position before it is checked: [`Setup`], and every way it can
//! break the rules: [`SetupProblem`].

use std::fmt;

use super::bitboard::Bitboard;
use super::options::{RuleOption, Rules};
use super::path::{Route, RouteEnds};
use super::types::{ByPlayer, Cell, MAX_SIDE, MIN_SIDE, Player, Stage};

/// Everything a game starts from. Built by the level module; turned into a
/// [`GameState`](super::GameState) only through its checked constructor.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Setup {
    /// Files, 5 to 11.
    pub width: u8,
    /// Ranks, 5 to 11.
    pub height: u8,
    /// Wall cells; cells off the board are ignored.
    pub walls: Bitboard,
    /// Each player's start square.
    pub starts: ByPlayer<Cell>,
    /// Each player's goal set.
    pub goals: ByPlayer<Bitboard>,
    /// Where the flag lies at the start.
    pub flag: Cell,
    /// The initial crates, by stage; the sets must be disjoint.
    pub crates: [Bitboard; 4],
    /// Who moves first.
    pub first: Player,
    /// The rule options.
    pub rules: Rules,
}

/// Something placed on the board, for problem messages.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// A player's start square.
    Start(Player),
    /// A cell of a player's goal set.
    Goal(Player),
    /// The flag's starting cell.
    Flag,
    /// An initial crate.
    Crate,
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Piece::Start(p) => write!(f, "{p}'s start square"),
            Piece::Goal(p) => write!(f, "{p}'s goal cell"),
            Piece::Flag => f.write_str("the flag"),
            Piece::Crate => f.write_str("a crate"),
        }
    }
}

/// One broken rule of a [`Setup`]. All but
/// [`SetupProblem::RouteCutByCrates`] are errors.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SetupProblem {
    /// The board is smaller than 5 or larger than 11 in some direction.
    SizeOutOfRange {
        /// Files.
        width: u8,
        /// Ranks.
        height: u8,
    },
    /// A piece lies outside the board.
    OffBoard {
        /// What was placed.
        piece: Piece,
        /// Where.
        cell: Cell,
    },
    /// A piece lies on a wall.
    OnWall {
        /// What was placed.
        piece: Piece,
        /// Where.
        cell: Cell,
    },
    /// Both players start on the same cell.
    SharedStart(Cell),
    /// A crate stands on a start square.
    CrateOnStart(Player, Cell),
    /// A crate stands on the flag's starting cell.
    CrateOnFlag(Cell),
    /// Two crates share a cell.
    CratesOverlap(Cell),
    /// A goal set is empty.
    EmptyGoals(Player),
    /// The flag starts on a start square.
    FlagOnStart(Player, Cell),
    /// A rule option is out of its range.
    RuleOutOfRange(RuleOption, String),
    /// A piece the level does not place and that has no default: a start
    /// square, or the flag of a board with no centre cell (a level's
    /// problem, never a [`Setup`]'s, which always has them).
    Missing(Piece),
    /// Walls alone cut one or more routes: the level cannot be won by the
    /// flag. One set of walls that parts the board is one problem, however
    /// many routes it cuts.
    RouteWalledOff {
        /// The routes the cut severs, in [`Route::ALL`]'s order.
        routes: Vec<Route>,
        /// The side shut in: the smaller of the two regions the cut parts.
        region: Bitboard,
        /// The walls of the cut: those beside both sides.
        cut: Bitboard,
        /// What the side shut in holds, in words: "the flag", "player 1's
        /// start square".
        holds: String,
    },
    /// Initial crates cut a route that walls alone leave open. Valid, with a
    /// warning: the path rule protects only routes that hold.
    RouteCutByCrates(Route),
}

/// `a`, `a and b`, `a, b and c`.
fn join_words(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

impl SetupProblem {
    /// Whether the problem makes the setup unplayable.
    #[must_use]
    pub const fn is_error(&self) -> bool {
        !matches!(self, SetupProblem::RouteCutByCrates(_))
    }
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::SizeOutOfRange { width, height } => {
                write!(f, "the board is {width} × {height}; each side must be from {MIN_SIDE} to {MAX_SIDE}")
            }
            SetupProblem::OffBoard { piece, cell } => write!(f, "{piece} {cell} is off the board"),
            SetupProblem::OnWall { piece, cell } => write!(f, "{piece} {cell} is on a wall"),
            SetupProblem::SharedStart(cell) => write!(f, "both players start on {cell}"),
            SetupProblem::CrateOnStart(p, cell) => write!(f, "a crate stands on {p}'s start square {cell}"),
            SetupProblem::CrateOnFlag(cell) => write!(f, "a crate stands on the flag's cell {cell}"),
            SetupProblem::CratesOverlap(cell) => write!(f, "two crates share {cell}"),
            SetupProblem::EmptyGoals(p) => write!(f, "{p}'s goal set is empty"),
            SetupProblem::FlagOnStart(p, cell) => write!(f, "the flag starts on {p}'s start square {cell}"),
            SetupProblem::Missing(piece) => write!(f, "{piece} is not placed"),
            SetupProblem::RuleOutOfRange(_, message) => f.write_str(message),
            SetupProblem::RouteWalledOff { routes, region, cut, holds } => {
                let walls: Vec<String> = cut.iter().map(|c| c.to_string()).collect();
                let routes: Vec<String> = routes.iter().map(ToString::to_string).collect();
                let place = match (region.count(), region.first()) {
                    (1, Some(cell)) => format!("on a single cell, {cell}"),
                    (n, _) => format!("in a region of {n} cells"),
                };
                write!(
                    f,
                    "the walls {} shut {holds} in {place}: they cut {}",
                    walls.join(" "),
                    join_words(&routes)
                )
            }
            SetupProblem::RouteCutByCrates(route) => {
                write!(f, "initial crates cut {route}; the path rule will not protect it until they break")
            }
        }
    }
}

impl Setup {
    /// The on-board cells.
    #[must_use]
    pub const fn board(&self) -> Bitboard {
        Bitboard::rectangle(self.width, self.height)
    }

    /// The on-board cells that are not walls.
    #[must_use]
    pub fn floor(&self) -> Bitboard {
        self.board() - self.walls
    }

    /// Every crate, whatever its stage.
    #[must_use]
    pub fn all_crates(&self) -> Bitboard {
        self.crates.iter().fold(Bitboard::EMPTY, |acc, &b| acc | b)
    }

    /// The ends of the four routes at the start.
    #[must_use]
    pub const fn route_ends(&self) -> RouteEnds {
        RouteEnds { flag: self.flag, starts: self.starts, goals: self.goals }
    }

    /// Every problem of the setup, errors and warnings, in a stable order.
    #[must_use]
    pub fn problems(&self) -> Vec<SetupProblem> {
        let mut out = Vec::new();
        if !(MIN_SIDE..=MAX_SIDE).contains(&self.width) || !(MIN_SIDE..=MAX_SIDE).contains(&self.height) {
            out.push(SetupProblem::SizeOutOfRange { width: self.width, height: self.height });
            return out;
        }
        let board = self.board();
        let floor = self.floor();
        let place = |piece: Piece, cell: Cell, out: &mut Vec<SetupProblem>| {
            if !board.has(cell) {
                out.push(SetupProblem::OffBoard { piece, cell });
            } else if !floor.has(cell) {
                out.push(SetupProblem::OnWall { piece, cell });
            }
        };
        for p in Player::BOTH {
            place(Piece::Start(p), self.starts[p], &mut out);
        }
        if self.starts.one == self.starts.two {
            out.push(SetupProblem::SharedStart(self.starts.one));
        }
        for p in Player::BOTH {
            if self.goals[p].is_empty() {
                out.push(SetupProblem::EmptyGoals(p));
            }
            for cell in self.goals[p] {
                place(Piece::Goal(p), cell, &mut out);
            }
        }
        place(Piece::Flag, self.flag, &mut out);
        for p in Player::BOTH {
            if self.flag == self.starts[p] {
                out.push(SetupProblem::FlagOnStart(p, self.flag));
            }
        }
        let mut seen = Bitboard::EMPTY;
        for stage in Stage::ALL {
            for cell in self.crates[stage.index()] {
                if seen.has(cell) {
                    out.push(SetupProblem::CratesOverlap(cell));
                }
                seen.insert(cell);
                place(Piece::Crate, cell, &mut out);
                for p in Player::BOTH {
                    if cell == self.starts[p] {
                        out.push(SetupProblem::CrateOnStart(p, cell));
                    }
                }
                if cell == self.flag {
                    out.push(SetupProblem::CrateOnFlag(cell));
                }
            }
        }
        for (option, message) in self.rules.problems() {
            out.push(SetupProblem::RuleOutOfRange(option, message));
        }
        if out.iter().any(SetupProblem::is_error) {
            return out;
        }
        let ends = self.route_ends();
        let by_walls = ends.holding(floor);
        let with_crates = ends.holding(floor - self.all_crates());
        let mut walled: Vec<SetupProblem> = Vec::new();
        for route in Route::ALL {
            if !by_walls.has(route) {
                let (from, to) = match route {
                    Route::StartToFlag(p) => (Bitboard::from(self.starts[p]), Bitboard::from(self.flag)),
                    Route::FlagToGoal(p) => (Bitboard::from(self.flag), self.goals[p]),
                };
                let near = Bitboard::fill(from, floor);
                let far = Bitboard::fill(to & floor, floor);
                let cut = near.dilate() & far.dilate() & self.walls & self.board();
                let region = if far.count() < near.count() && far.any() { far } else { near };
                // The same walls parting the same regions: one problem.
                let same = walled.iter_mut().find(|w| {
                    matches!(w, SetupProblem::RouteWalledOff { cut: c, region: r, .. } if *c == cut && *r == region)
                });
                match same {
                    Some(SetupProblem::RouteWalledOff { routes, .. }) => routes.push(route),
                    _ => walled.push(SetupProblem::RouteWalledOff {
                        routes: vec![route],
                        region,
                        cut,
                        holds: self.what_is_in(region),
                    }),
                }
            } else if !with_crates.has(route) {
                out.push(SetupProblem::RouteCutByCrates(route));
            }
        }
        out.extend(walled);
        out
    }

    /// What `region` holds of the route ends, in words, for a message
    /// about the region being shut in.
    fn what_is_in(&self, region: Bitboard) -> String {
        let mut things = Vec::new();
        if region.has(self.flag) {
            things.push("the flag".to_owned());
        }
        for p in Player::BOTH {
            if region.has(self.starts[p]) {
                things.push(format!("{p}'s start square"));
            }
        }
        for p in Player::BOTH {
            if (region & self.goals[p]).any() && !region.has(self.starts[p]) {
                things.push(format!("{p}'s goal cells"));
            }
        }
        if things.is_empty() { "a part of the board".to_owned() } else { join_words(&things) }
    }
}
