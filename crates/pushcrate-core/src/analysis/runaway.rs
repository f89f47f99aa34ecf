//! A runaway: a win by the flag that the opponent cannot touch, proved
//! without searching the opponent's replies.
//!
//! The side to move walks one shortest way to the flag and home. The proof
//! needs two things of that walk:
//! - **No crate can ever stand on it.** Every cell still to be walked cuts
//!   the floor, walls alone, between the two ends of the route it serves
//!   (start to flag before the pickup, flag to goal after). Crates and
//!   broken crates only ever remove cells from the floor, so such a cell
//!   cuts the open cells too, for ever; a route that holds cannot be cut by
//!   a placement or a slide (the path rule), so no crate can reach it.
//! - **The opponent can never reach it.** Until the opponent first stands
//!   next to the walker it cannot jump, so it covers at most one cell an
//!   action: after its `j`-th action it is within `j` steps, walls alone,
//!   of where it stands now. If no cell within `j` steps is one the walker
//!   still has to step onto, or lies next to where the walker ends its
//!   coming turn, the opponent can neither block the way, nor pick up the
//!   flag, nor steal it or jump.
//!
//! The opponent cannot win by crates in the time either (its lower bound),
//! so the walk wins. A flag carried by the opponent, routes that do not
//! hold, or a walk through a cell that does not cut, and there is no
//! runaway: the search decides.

use super::search::{FAR, bfs, crate_actions};
use crate::rules::{Action, Bitboard, Cell, GameState, Route};

/// A proved runaway.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Runaway {
    /// The actions, both players' counted, within which the walk wins
    /// (or, for a sure pickup, picks the flag up).
    pub plies: u32,
    /// The cells the walker steps onto, in order, the last a goal cell
    /// (or, for a sure pickup, the flag's).
    pub walk: Vec<Cell>,
}

impl Runaway {
    /// A line of the win from `state`, the position the runaway was found
    /// in: the walk, and between its turns the opponent's action that
    /// `reply` chooses (any will lose).
    pub fn line(&self, state: &GameState, reply: impl Fn(&GameState) -> Action) -> Vec<Action> {
        let walker = state.turn();
        let mut state = *state;
        let mut steps = self.walk.iter();
        let mut line = Vec::new();
        while !state.is_over() {
            let action = if state.turn() == walker {
                match steps.next() {
                    Some(&cell) => Action::Move(cell),
                    None => break,
                }
            } else {
                reply(&state)
            };
            if state.play(action).is_err() {
                break;
            }
            line.push(action);
        }
        line
    }
}

/// The runaway of the side to move of `state`, when it has one: a walk
/// home with the flag that surely wins.
#[must_use]
pub fn runaway(state: &GameState) -> Option<Runaway> {
    walk_ahead(state, true)
}

/// A sure pickup of the side to move of `state`, when it has one: a walk
/// to the lying flag, under the same two conditions as a runaway, that
/// picks it up first whatever the opponent does. (Whether the walker then
/// gets home is another question.)
#[must_use]
pub fn sure_pickup(state: &GameState) -> Option<Runaway> {
    if state.carrier().is_some() {
        return None;
    }
    walk_ahead(state, false)
}

/// The walk of a runaway (`home`) or of a sure pickup.
fn walk_ahead(state: &GameState, home: bool) -> Option<Runaway> {
    let me = state.turn();
    let them = me.other();
    if state.is_over() || state.carrier() == Some(them) {
        return None;
    }
    let holding = state.routes_holding();
    if !holding.has(Route::StartToFlag(me)) || !holding.has(Route::FlagToGoal(me)) {
        return None;
    }
    let floor = state.floor();
    // Cells the walk may use now: open, and not the opponent's.
    let open = state.open() - Bitboard::from_cell(state.position(them));
    let here = state.position(me);
    let goals = state.goals(me);
    let flag = state.flag();
    let carrying = state.carrier() == Some(me);
    // The walk, the cells stepped onto in order, and where the pickup is.
    let mut walk = Vec::new();
    let mut pickup = None;
    if !carrying {
        let to_flag = shortest_path(here, Bitboard::from_cell(flag), open)?;
        if !cuts_all(&to_flag, state.start(me), Bitboard::from_cell(flag), floor) {
            return None;
        }
        walk.extend(to_flag);
        pickup = Some(walk.len() - 1);
    }
    let from = if carrying { here } else { flag };
    if home && !goals.has(from) {
        let home = shortest_path(from, goals, open)?;
        if !cuts_all(&home, from, goals, floor) {
            return None;
        }
        walk.extend(home);
    }
    let &last = walk.last()?;
    if if home { !goals.has(last) } else { pickup != Some(walk.len() - 1) } {
        return None;
    }
    // The opponent's steps, walls alone: it cannot be quicker.
    let steps = bfs(Bitboard::from_cell(state.position(them)), floor);
    let near = |c: Cell| if steps[c.index()] == FAR { u32::MAX } else { u32::from(steps[c.index()]) };
    let nearest = |cells: Bitboard| cells.iter().map(near).min().unwrap_or(u32::MAX);
    // `ahead[i]`: the fewest steps the opponent needs to reach a cell the
    // walker still steps onto from step `i` on.
    let mut ahead = vec![u32::MAX; walk.len() + 1];
    for i in (0..walk.len()).rev() {
        ahead[i] = ahead[i + 1].min(near(walk[i]));
    }
    // Play the walk turn by turn. Before each turn the opponent has
    // answered `answers` times: it must not stand on the cells still to
    // walk, nor, after the turn, next to the walker (a steal or a jump).
    let per_pickup = u32::from(state.rules().flag_bonus_actions);
    let mut in_turn = if state.bonus_actions() > 0 { u32::from(state.bonus_actions()) } else { 1 };
    let mut plies = 0u32;
    let mut answers = 0u32;
    let mut i = 0;
    while i < walk.len() {
        if ahead[i] <= answers {
            return None;
        }
        while in_turn > 0 && i < walk.len() {
            in_turn -= 1;
            if pickup == Some(i) {
                in_turn += per_pickup;
            }
            plies += 1;
            i += 1;
        }
        if i < walk.len() {
            let at = walk[i - 1];
            if nearest(Bitboard::from_cell(at).dilate() & floor) <= answers {
                return None;
            }
            answers += 1;
            plies += 1;
            in_turn = 1;
        }
    }
    if crate_actions(state, them) <= answers {
        return None;
    }
    Some(Runaway { plies, walk })
}

/// One shortest path from `from` to a cell of `to` over `open` cells: the
/// cells stepped onto, `from` not included.
fn shortest_path(from: Cell, to: Bitboard, open: Bitboard) -> Option<Vec<Cell>> {
    Bitboard::from_cell(from).rings(open).path_to(to)
}

/// Whether every cell of `path` cuts `floor` between `from` and `to`.
fn cuts_all(path: &[Cell], from: Cell, to: Bitboard, floor: Bitboard) -> bool {
    path.iter().all(|&cell| {
        let without = floor - Bitboard::from_cell(cell);
        !(Bitboard::fill(Bitboard::from_cell(from), without) & to).any()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Pack;
    use crate::rules::Player;

    #[test]
    fn a_shortest_path_steps_from_cell_to_cell() {
        let pack = Pack::bundled_flawed();
        let state = pack.level("maze").unwrap().start_state(pack.rules).unwrap();
        let path =
            shortest_path(state.position(Player::One), Bitboard::from_cell(state.flag()), state.open())
                .unwrap();
        let mut at = state.position(Player::One);
        for &cell in &path {
            assert!(Bitboard::from_cell(at).dilate().has(cell) && at != cell);
            at = cell;
        }
        assert_eq!(at, state.flag());
    }
}
