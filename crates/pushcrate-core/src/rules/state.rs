//! [`GameState`]: a position of a game under way, its legal actions, and
//! playing them.

use std::fmt;

use super::action::{Action, ActionKind, ActionList};
use super::bitboard::Bitboard;
use super::options::{JumpRule, Rules};
use super::path::{self, Route, RouteEnds, RouteSet};
use super::setup::{Setup, SetupProblem};
use super::types::{ByPlayer, Cell, Dir, Player, Stage};
use super::zobrist;

/// How a game was won.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WinKind {
    /// Carried the flag onto an own goal cell.
    Flag,
    /// Destroyed enough crates.
    Crates,
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// A player won.
    Win {
        /// The winner.
        winner: Player,
        /// How.
        by: WinKind,
    },
    /// A draw offer was accepted.
    Draw,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, by: WinKind::Flag } => {
                write!(f, "{winner} wins by bringing the flag home")
            }
            Outcome::Win { winner, by: WinKind::Crates } => write!(f, "{winner} wins by destroying crates"),
            Outcome::Draw => f.write_str("drawn by agreement"),
        }
    }
}

/// Why an action is illegal, naming the rule of docs/rules.md it breaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalAction {
    /// The game is over.
    #[error("the game is over: a finished game has no legal actions (rule 12)")]
    GameOver,
    /// The cell is off the board.
    #[error("{0} is off the board (rule 1)")]
    OffBoard(Cell),
    /// A step or push into a wall.
    #[error("{0} is a wall (rule 4)")]
    Wall(Cell),
    /// The cell is neither adjacent nor a jump's landing.
    #[error("{0} is not a step, jump or push away from the mover on {1} (rule 4)")]
    NotReachable(Cell, Cell),
    /// A step onto the opponent.
    #[error("{0} holds the opponent: a jump goes over it, never onto it (rule 12)")]
    OntoOpponent(Cell),
    /// Jumps are disabled by the `jump` option.
    #[error("jumps are disabled in this pack (rule 4, option `jump`)")]
    JumpsDisabled,
    /// A diagonal jump where only straight ones are allowed.
    #[error("only straight jumps are allowed in this pack (rule 4, option `jump`)")]
    DiagonalJumpsDisabled,
    /// A diagonal jump while the straight one is possible.
    #[error("a diagonal jump is allowed only when the cell beyond the opponent is not enterable (rule 4)")]
    StraightJumpOpen,
    /// The landing cell of a jump is not enterable.
    #[error("the jump's landing cell {0} is not enterable (rule 4)")]
    JumpBlocked(Cell),
    /// A slide onto a start square, which always stays free.
    #[error(
        "the crate on {0} cannot slide onto the start square {1}, which always stays free (rule 8, see docs/rules.md)"
    )]
    SlideOntoStart(Cell, Cell),
    /// A slide that would cut a route.
    #[error("sliding the crate on {from} to {to} would cut {route} (rule 8, the path rule)")]
    SlideCutsRoute {
        /// The crate's cell.
        from: Cell,
        /// Where it would go.
        to: Cell,
        /// A route it would cut.
        route: Route,
    },
    /// No placements left.
    #[error("the mover has no crate placements left (rule 7)")]
    NoPlacementsLeft,
    /// A placement on a cell that is not free floor.
    #[error("a crate cannot be placed on {0}: it holds {1} (rule 7)")]
    PlaceOccupied(Cell, &'static str),
    /// A placement that would cut a route.
    #[error("a crate on {cell} would cut {route} (rule 8, the path rule)")]
    PlaceCutsRoute {
        /// The cell.
        cell: Cell,
        /// A route it would cut.
        route: Route,
    },
    /// A steal when the opponent does not carry the flag.
    #[error("the opponent does not carry the flag (rule 5)")]
    OpponentNotCarrying,
    /// A steal when the carrier is not adjacent.
    #[error("the carrier is not adjacent to the mover (rule 5)")]
    CarrierNotAdjacent,
    /// A steal while the mover stands on the opponent's start square.
    #[error("the mover stands on the opponent's start square, where the robbed player must return (rule 5)")]
    StealFromStartSquare,
    /// A pass while another action is legal.
    #[error("a pass is allowed only when no other action is legal (rule 11)")]
    PassNotAllowed,
}

/// Why a draw offer cannot be made.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum DrawOfferError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Too few actions played in all.
    #[error("a draw may be offered once {0} actions have been played (rule 10)")]
    TooEarly(u16),
    /// The mover's last offer was declined too recently.
    #[error("after a declined offer, {0} more actions must be played before offering again (rule 10)")]
    TooSoonAgain(u16),
}

/// The setup breaks at least one rule; every error is listed.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("the level cannot be played: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct SetupError(pub Vec<SetupProblem>);

/// A position of a game. Built only by [`GameState::new`], which checks the
/// setup; changed only by playing actions and answering draw offers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameState {
    width: u8,
    height: u8,
    board: Bitboard,
    floor: Bitboard,
    crates: [Bitboard; 4],
    all_crates: Bitboard,
    pos: ByPlayer<Cell>,
    starts: ByPlayer<Cell>,
    goals: ByPlayer<Bitboard>,
    flag: Cell,
    carrier: Option<Player>,
    turn: Player,
    bonus: u8,
    placements: ByPlayer<u8>,
    destroyed: ByPlayer<u8>,
    actions_played: u32,
    declined_at: ByPlayer<Option<u32>>,
    outcome: Option<Outcome>,
    rules: Rules,
    hash: u64,
}

impl GameState {
    /// The starting position of `setup`, or every error it has.
    pub fn new(setup: &Setup) -> Result<GameState, SetupError> {
        let errors: Vec<_> = setup.problems().into_iter().filter(SetupProblem::is_error).collect();
        if !errors.is_empty() {
            return Err(SetupError(errors));
        }
        let mut state = GameState {
            width: setup.width,
            height: setup.height,
            board: setup.board(),
            floor: setup.floor(),
            crates: setup.crates,
            all_crates: setup.all_crates(),
            pos: setup.starts,
            starts: setup.starts,
            goals: setup.goals,
            flag: setup.flag,
            carrier: None,
            turn: setup.first,
            bonus: 0,
            placements: ByPlayer::new(setup.rules.crate_placements, setup.rules.crate_placements),
            destroyed: ByPlayer::new(0, 0),
            actions_played: 0,
            declined_at: ByPlayer::new(None, None),
            outcome: None,
            rules: setup.rules,
            hash: 0,
        };
        state.hash = state.compute_hash();
        Ok(state)
    }

    // ----- reading the position -----

    /// Files.
    #[must_use]
    pub const fn width(&self) -> u8 {
        self.width
    }

    /// Ranks.
    #[must_use]
    pub const fn height(&self) -> u8 {
        self.height
    }

    /// The on-board cells.
    #[must_use]
    pub const fn board(&self) -> Bitboard {
        self.board
    }

    /// The on-board cells that are not walls.
    #[must_use]
    pub const fn floor(&self) -> Bitboard {
        self.floor
    }

    /// The walls.
    #[must_use]
    pub fn walls(&self) -> Bitboard {
        self.board - self.floor
    }

    /// The crates of `stage`.
    #[must_use]
    pub const fn crates(&self, stage: Stage) -> Bitboard {
        self.crates[stage.index()]
    }

    /// Every crate.
    #[must_use]
    pub const fn all_crates(&self) -> Bitboard {
        self.all_crates
    }

    /// The stage of the crate on `cell`, if there is one.
    #[must_use]
    pub fn crate_at(&self, cell: Cell) -> Option<Stage> {
        if !self.all_crates.has(cell) {
            return None;
        }
        Stage::ALL.into_iter().find(|s| self.crates[s.index()].has(cell))
    }

    /// Where `player` stands.
    #[must_use]
    pub fn position(&self, player: Player) -> Cell {
        self.pos[player]
    }

    /// `player`'s start square.
    #[must_use]
    pub fn start(&self, player: Player) -> Cell {
        self.starts[player]
    }

    /// `player`'s goal set.
    #[must_use]
    pub fn goals(&self, player: Player) -> Bitboard {
        self.goals[player]
    }

    /// The flag's cell (its carrier's cell when carried).
    #[must_use]
    pub const fn flag(&self) -> Cell {
        self.flag
    }

    /// Who carries the flag, if anyone.
    #[must_use]
    pub const fn carrier(&self) -> Option<Player> {
        self.carrier
    }

    /// The flag's cell when it lies on the floor, carried by nobody.
    #[must_use]
    pub const fn lying_flag(&self) -> Option<Cell> {
        match self.carrier {
            None => Some(self.flag),
            Some(_) => None,
        }
    }

    /// The player to move.
    #[must_use]
    pub const fn turn(&self) -> Player {
        self.turn
    }

    /// Bonus actions the side to move has left in this turn, the one it is
    /// about to play included.
    #[must_use]
    pub const fn bonus_actions(&self) -> u8 {
        self.bonus
    }

    /// Placements `player` has left.
    #[must_use]
    pub fn placements_left(&self, player: Player) -> u8 {
        self.placements[player]
    }

    /// Crates `player` has destroyed.
    #[must_use]
    pub fn destroyed(&self, player: Player) -> u8 {
        self.destroyed[player]
    }

    /// Actions played in the game, bonus actions and passes included.
    #[must_use]
    pub const fn actions_played(&self) -> u32 {
        self.actions_played
    }

    /// How the game ended, if it has.
    #[must_use]
    pub const fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The rule options.
    #[must_use]
    pub const fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The Zobrist hash, kept up to date by every action.
    #[must_use]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch; equal to [`GameState::hash`].
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for stage in Stage::ALL {
            for cell in self.crates[stage.index()] {
                h ^= zobrist::crate_key(stage, cell);
            }
        }
        for p in Player::BOTH {
            h ^= zobrist::player_key(p, self.pos[p]);
            h ^= zobrist::placements_key(p, self.placements[p]);
            h ^= zobrist::destroyed_key(p, self.destroyed[p]);
        }
        h ^= zobrist::flag_key(self.flag, self.carrier);
        if self.turn == Player::Two {
            h ^= zobrist::turn_key();
        }
        h ^ zobrist::bonus_key(self.bonus)
    }

    /// The cells that block routes and steps: walls and crates.
    #[must_use]
    pub fn open(&self) -> Bitboard {
        self.floor - self.all_crates
    }

    /// The ends of the four routes now.
    #[must_use]
    pub fn route_ends(&self) -> RouteEnds {
        RouteEnds { flag: self.flag, starts: self.starts, goals: self.goals }
    }

    /// The routes that hold now.
    #[must_use]
    pub fn routes_holding(&self) -> RouteSet {
        self.route_ends().holding(self.open())
    }

    /// The sole-path cells: unblocked cells whose blocking would break a
    /// route that holds (docs/rules.md section 8).
    #[must_use]
    pub fn sole_path_cells(&self) -> Bitboard {
        path::sole_path_cells_remembered(&self.route_ends(), self.open())
    }

    /// Cells on which a crate could be placed now, placements left aside.
    #[must_use]
    pub fn placement_cells(&self) -> Bitboard {
        self.placement_cells_given(self.sole_path_cells())
    }

    fn placement_cells_given(&self, sole: Bitboard) -> Bitboard {
        let mut blocked = self.all_crates | sole;
        blocked.insert(self.pos.one);
        blocked.insert(self.pos.two);
        blocked.insert(self.starts.one);
        blocked.insert(self.starts.two);
        blocked.insert(self.flag);
        self.floor - blocked
    }

    // ----- legal actions -----

    /// Whether a player could stand on `cell`: on the board, floor, no
    /// crate, no player.
    fn enterable(&self, cell: Option<Cell>) -> Option<Cell> {
        let cell = cell?;
        let free = self.floor.has(cell)
            && !self.all_crates.has(cell)
            && cell != self.pos.one
            && cell != self.pos.two;
        free.then_some(cell)
    }

    /// Where a crate on `from` pushed in `dir` would slide, if it can.
    fn slide_target(&self, from: Cell, dir: Dir) -> Option<Cell> {
        if !(self.crates[Stage::Intact.index()] | self.crates[Stage::Cracked.index()]).has(from) {
            return None;
        }
        let to = self.enterable(from.offset(dir))?;
        (self.lying_flag() != Some(to)).then_some(to)
    }

    /// The routes a slide from `from` to `to` by the side to move would cut.
    fn slide_cuts(&self, from: Cell, to: Cell) -> RouteSet {
        self.slide_cuts_given(self.routes_holding(), from, to)
    }

    /// [`GameState::slide_cuts`], given the routes that hold now (which
    /// [`GameState::legal_actions`] finds once for all its slides).
    fn slide_cuts_given(&self, before: RouteSet, from: Cell, to: Cell) -> RouteSet {
        let mut ends = self.route_ends();
        if self.carrier == Some(self.turn) {
            ends.flag = from;
        }
        let open = (self.open() - Bitboard::from_cell(to)) | Bitboard::from_cell(from);
        before.minus(ends.holding(open))
    }

    /// The routes a crate placed on `cell` would cut.
    fn placement_cuts(&self, cell: Cell) -> RouteSet {
        let before = self.routes_holding();
        before.minus(self.route_ends().holding(self.open() - Bitboard::from_cell(cell)))
    }

    /// Whether `cell` is a start square (which always stays free).
    #[must_use]
    pub fn is_start(&self, cell: Cell) -> bool {
        cell == self.starts.one || cell == self.starts.two
    }

    fn can_steal(&self) -> bool {
        let opponent = self.turn.other();
        self.carrier == Some(opponent)
            && self.pos[self.turn].distance(self.pos[opponent]) == 1
            && self.pos[self.turn] != self.starts[opponent]
            && !self.all_crates.has(self.starts[opponent])
    }

    /// Every legal action of the side to move, in generation order.
    #[must_use]
    pub fn legal_actions(&self) -> ActionList {
        self.legal_actions_with(path::sole_path_cells_remembered)
    }

    /// [`GameState::legal_actions`] working the sole-path cells out afresh
    /// each time rather than asking the thread's table of answers: the same
    /// actions, the reference that benchmarks measure the table against.
    #[doc(hidden)]
    #[must_use]
    pub fn legal_actions_unremembered(&self) -> ActionList {
        self.legal_actions_with(path::sole_path_cells)
    }

    #[inline]
    fn legal_actions_with(&self, sole_path_cells: fn(&RouteEnds, Bitboard) -> Bitboard) -> ActionList {
        let mut list = ActionList::new();
        if self.outcome.is_some() {
            return list;
        }
        let me = self.turn;
        let here = self.pos[me];
        let opponent = self.pos[me.other()];
        let sole = (self.placements[me] > 0).then(|| sole_path_cells(&self.route_ends(), self.open()));
        let mut holding: Option<RouteSet> = None;
        for dir in Dir::ALL {
            let Some(target) = here.offset(dir).filter(|&c| self.floor.has(c)) else {
                continue;
            };
            if self.all_crates.has(target) {
                match self.slide_target(target, dir) {
                    Some(to) if self.is_start(to) => {}
                    Some(to) => {
                        let legal = match sole {
                            Some(mask) if !mask.has(to) => true,
                            _ => {
                                let before = *holding.get_or_insert_with(|| self.routes_holding());
                                self.slide_cuts_given(before, target, to).is_empty()
                            }
                        };
                        if legal {
                            list.push(Action::Move(target));
                        }
                    }
                    None => list.push(Action::Move(target)),
                }
            } else if target == opponent {
                if self.rules.jump == JumpRule::None {
                    continue;
                }
                if let Some(land) = self.enterable(target.offset(dir)) {
                    list.push(Action::Move(land));
                } else if self.rules.jump == JumpRule::Diagonal {
                    for side in dir.perpendicular() {
                        if let Some(land) = self.enterable(target.offset(side)) {
                            list.push(Action::Move(land));
                        }
                    }
                }
            } else {
                list.push(Action::Move(target));
            }
        }
        if let Some(mask) = sole {
            for cell in self.placement_cells_given(mask) {
                list.push(Action::Place(cell));
            }
        }
        if self.can_steal() {
            list.push(Action::Steal);
        }
        if list.is_empty() {
            list.push(Action::Pass);
        }
        list
    }

    /// Whether `action` is legal, and what it would do; or the rule it
    /// breaks.
    pub fn check(&self, action: Action) -> Result<ActionKind, IllegalAction> {
        if self.outcome.is_some() {
            return Err(IllegalAction::GameOver);
        }
        let me = self.turn;
        let here = self.pos[me];
        let opponent = self.pos[me.other()];
        match action {
            Action::Move(target) => {
                if !self.board.has(target) {
                    return Err(IllegalAction::OffBoard(target));
                }
                if let Some(dir) = Dir::between(here, target) {
                    if !self.floor.has(target) {
                        return Err(IllegalAction::Wall(target));
                    }
                    if self.all_crates.has(target) {
                        return match self.slide_target(target, dir) {
                            None => Ok(ActionKind::Break),
                            Some(to) if self.is_start(to) => Err(IllegalAction::SlideOntoStart(target, to)),
                            Some(to) => match self.slide_cuts(target, to).iter().next() {
                                None => Ok(ActionKind::Slide),
                                Some(route) => Err(IllegalAction::SlideCutsRoute { from: target, to, route }),
                            },
                        };
                    }
                    if target == opponent {
                        return Err(IllegalAction::OntoOpponent(target));
                    }
                    return Ok(ActionKind::Step);
                }
                self.check_jump(here, opponent, target)
            }
            Action::Place(cell) => {
                if self.placements[me] == 0 {
                    return Err(IllegalAction::NoPlacementsLeft);
                }
                if !self.board.has(cell) {
                    return Err(IllegalAction::OffBoard(cell));
                }
                let occupant = if !self.floor.has(cell) {
                    Some("a wall")
                } else if self.all_crates.has(cell) {
                    Some("a crate")
                } else if cell == self.pos.one || cell == self.pos.two {
                    Some("a player")
                } else if self.lying_flag() == Some(cell) {
                    Some("the flag")
                } else if self.is_start(cell) {
                    Some("a start square, which stays free for its player")
                } else {
                    None
                };
                if let Some(what) = occupant {
                    return Err(IllegalAction::PlaceOccupied(cell, what));
                }
                match self.placement_cuts(cell).iter().next() {
                    None => Ok(ActionKind::Place),
                    Some(route) => Err(IllegalAction::PlaceCutsRoute { cell, route }),
                }
            }
            Action::Steal => {
                let other = me.other();
                if self.carrier != Some(other) {
                    Err(IllegalAction::OpponentNotCarrying)
                } else if here.distance(opponent) != 1 {
                    Err(IllegalAction::CarrierNotAdjacent)
                } else if here == self.starts[other] || self.all_crates.has(self.starts[other]) {
                    Err(IllegalAction::StealFromStartSquare)
                } else {
                    Ok(ActionKind::Steal)
                }
            }
            Action::Pass => {
                let others = self.legal_actions();
                if others.as_slice() == [Action::Pass] {
                    Ok(ActionKind::Pass)
                } else {
                    Err(IllegalAction::PassNotAllowed)
                }
            }
        }
    }

    fn check_jump(&self, here: Cell, opponent: Cell, target: Cell) -> Result<ActionKind, IllegalAction> {
        let unreachable = Err(IllegalAction::NotReachable(target, here));
        let Some(dir) = Dir::between(here, opponent) else {
            return unreachable;
        };
        let beyond = opponent.offset(dir);
        let sides = dir.perpendicular().map(|side| opponent.offset(side));
        let straight = beyond == Some(target);
        if !straight && !sides.contains(&Some(target)) {
            return unreachable;
        }
        if self.rules.jump == JumpRule::None {
            return Err(IllegalAction::JumpsDisabled);
        }
        if !straight {
            if self.rules.jump == JumpRule::Straight {
                return Err(IllegalAction::DiagonalJumpsDisabled);
            }
            if self.enterable(beyond).is_some() {
                return Err(IllegalAction::StraightJumpOpen);
            }
        }
        match self.enterable(Some(target)) {
            Some(_) => Ok(ActionKind::Jump),
            None => Err(IllegalAction::JumpBlocked(target)),
        }
    }

    // ----- playing -----

    /// Plays `action` if it is legal and returns what it did. An illegal
    /// action leaves the state unchanged and names the rule it breaks.
    pub fn play(&mut self, action: Action) -> Result<ActionKind, IllegalAction> {
        let kind = self.check(action)?;
        self.play_unchecked(action);
        Ok(kind)
    }

    /// The position after `action`, or why it is illegal.
    pub fn after(&self, action: Action) -> Result<GameState, IllegalAction> {
        let mut next = *self;
        next.play(action)?;
        Ok(next)
    }

    fn move_player(&mut self, player: Player, to: Cell) {
        let from = self.pos[player];
        self.hash ^= zobrist::player_key(player, from) ^ zobrist::player_key(player, to);
        self.pos[player] = to;
    }

    fn set_flag(&mut self, cell: Cell, carrier: Option<Player>) {
        self.hash ^= zobrist::flag_key(self.flag, self.carrier) ^ zobrist::flag_key(cell, carrier);
        self.flag = cell;
        self.carrier = carrier;
    }

    fn toggle_crate(&mut self, stage: Stage, cell: Cell) {
        self.crates[stage.index()] ^= Bitboard::from_cell(cell);
        self.all_crates ^= Bitboard::from_cell(cell);
        self.hash ^= zobrist::crate_key(stage, cell);
    }

    fn set_bonus(&mut self, n: u8) {
        self.hash ^= zobrist::bonus_key(self.bonus) ^ zobrist::bonus_key(n);
        self.bonus = n;
    }

    /// Plays a legal action without checking it: the fast path for search.
    /// An illegal action leaves the state inconsistent.
    pub fn play_unchecked(&mut self, action: Action) {
        let me = self.turn;
        let other = me.other();
        if self.bonus > 0 {
            self.set_bonus(self.bonus - 1);
        }
        let mut picked_up = false;
        match action {
            Action::Move(target) => {
                let here = self.pos[me];
                let mut landed = Some(target);
                if self.all_crates.has(target) {
                    let dir = Dir::between(here, target).unwrap_or(Dir::North);
                    let stage = self.crate_at(target).unwrap_or(Stage::Intact);
                    if let Some(to) = self.slide_target(target, dir) {
                        self.toggle_crate(stage, target);
                        self.toggle_crate(stage, to);
                    } else {
                        landed = None;
                        self.toggle_crate(stage, target);
                        match stage.next() {
                            Some(next) => self.toggle_crate(next, target),
                            None => {
                                let n = self.destroyed[me];
                                self.hash ^=
                                    zobrist::destroyed_key(me, n) ^ zobrist::destroyed_key(me, n + 1);
                                self.destroyed[me] = n + 1;
                            }
                        }
                    }
                }
                if let Some(cell) = landed {
                    self.move_player(me, cell);
                    if self.carrier == Some(me) {
                        self.set_flag(cell, Some(me));
                    } else if self.carrier.is_none() && self.flag == cell {
                        self.set_flag(cell, Some(me));
                        picked_up = true;
                    }
                }
            }
            Action::Place(cell) => {
                self.toggle_crate(Stage::Intact, cell);
                let n = self.placements[me];
                self.hash ^= zobrist::placements_key(me, n) ^ zobrist::placements_key(me, n - 1);
                self.placements[me] = n - 1;
            }
            Action::Steal => {
                let robbed_from = self.pos[other];
                self.set_flag(robbed_from, None);
                self.move_player(other, self.starts[other]);
            }
            Action::Pass => {}
        }
        self.actions_played += 1;
        if self.carrier == Some(me) && self.goals[me].has(self.pos[me]) {
            self.outcome = Some(Outcome::Win { winner: me, by: WinKind::Flag });
        } else if self.destroyed[me] >= self.rules.crates_to_win {
            self.outcome = Some(Outcome::Win { winner: me, by: WinKind::Crates });
        }
        if picked_up {
            self.set_bonus(self.bonus.saturating_add(self.rules.flag_bonus_actions));
        }
        if self.bonus == 0 && self.outcome.is_none() {
            self.turn = other;
            self.hash ^= zobrist::turn_key();
        }
    }

    // ----- draws -----

    /// Whether the side to move may offer a draw now (docs/rules.md section
    /// 10): the game goes on, at least `draw_offer_after` actions have been
    /// played, and at least `draw_reoffer_gap` more since this player's last
    /// declined offer. Bonus actions change nothing.
    pub fn can_offer_draw(&self) -> Result<(), DrawOfferError> {
        if self.outcome.is_some() {
            return Err(DrawOfferError::GameOver);
        }
        if self.actions_played < u32::from(self.rules.draw_offer_after) {
            return Err(DrawOfferError::TooEarly(self.rules.draw_offer_after));
        }
        if let Some(at) = self.declined_at[self.turn]
            && self.actions_played < at + u32::from(self.rules.draw_reoffer_gap)
        {
            return Err(DrawOfferError::TooSoonAgain(self.rules.draw_reoffer_gap));
        }
        Ok(())
    }

    /// The side to move offers a draw and the opponent answers. Accepted,
    /// the game is drawn; declined, play goes on and the offer's counter
    /// starts. An offer is not an action.
    pub fn offer_draw(&mut self, accepted: bool) -> Result<(), DrawOfferError> {
        self.can_offer_draw()?;
        if accepted {
            self.outcome = Some(Outcome::Draw);
        } else {
            self.declined_at[self.turn] = Some(self.actions_played);
        }
        Ok(())
    }
}
