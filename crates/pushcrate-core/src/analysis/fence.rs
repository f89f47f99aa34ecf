//! Fencing: pockets where a player away from its start square can be shut
//! in, and a planner that finds action lines leading there.
//!
//! The path rule protects start squares, not where a player stands. A pocket
//! is a region behind one entrance cell that holds no start square and not
//! the flag, so a crate may be placed on its entrance. It may hold goal
//! cells: a player shut in without the flag cannot win from there however
//! many goal cells it stands on. A player inside has to push that crate
//! out; when the cell beyond is free but a sole-path cell, or a start
//! square (which always stays free), the slide is illegal, and a crate that
//! could slide cannot be broken either: the player is shut in until the
//! position changes around it.

use crate::rules::path::sole_path_cells;
use crate::rules::{Action, Bitboard, Cell, GameState, Player};

use super::graph::MazeGraph;
use super::search::{is_dead, open_neighbours};

/// A pocket and the crate that shuts it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Fence {
    /// The pocket's cells.
    pub pocket: Bitboard,
    /// The entrance, where the fencing crate goes.
    pub entrance: Cell,
    /// The pocket cell next to the entrance, where the shut-in player stands.
    pub inside: Cell,
    /// Where the crate would slide if pushed from inside: free, but a
    /// sole-path cell or a start square.
    pub exit: Cell,
}

/// Every pocket of the starting position that a crate on its entrance
/// shuts for good.
#[must_use]
pub fn fences(state: &GameState, graph: &MazeGraph) -> Vec<Fence> {
    let open = state.open();
    let ends = state.route_ends();
    // Goal cells may lie in a pocket: what matters is that the flag does
    // not, so the player shut in cannot win from there.
    let mut endpoints = Bitboard::from_cell(state.flag());
    let starts =
        Bitboard::from_cell(state.start(Player::One)) | Bitboard::from_cell(state.start(Player::Two));
    endpoints |= starts;
    let placeable = state.placement_cells();
    let mut out: Vec<Fence> = Vec::new();
    for entrance in graph.articulation_points() & placeable {
        let blocked = open - Bitboard::from_cell(entrance);
        let after = sole_path_cells(&ends, blocked);
        for (dir, inside) in open_neighbours(entrance, open) {
            let pocket = graph.component_without(inside, entrance);
            if (pocket & endpoints).any() {
                continue;
            }
            // Pushed from `inside`, the crate moves away from the pocket.
            let push = crate::rules::Dir::between(inside, entrance).unwrap_or(dir);
            let Some(exit) = entrance.offset(push) else { continue };
            // The slide is illegal onto a sole-path cell or a start square;
            // the lying flag on the exit turns the push into a break.
            if !open.has(exit) || !(after.has(exit) || starts.has(exit)) || exit == state.flag() {
                continue;
            }
            // Every other way out of the pocket must be shut too: the
            // entrance is its only neighbour outside.
            if (pocket.dilate() & (open - pocket)) != Bitboard::from_cell(entrance) {
                continue;
            }
            if !out.iter().any(|f| f.pocket == pocket) {
                out.push(Fence { pocket, entrance, inside, exit });
            }
        }
    }
    out
}

/// What each player aims for in a planned line.
#[derive(Clone, Copy)]
struct Plan {
    /// The pocket cell each player walks into, if any.
    target: [Option<Cell>; 2],
    /// The entrance that shuts each player in.
    entrance: [Option<Cell>; 2],
}

fn step_towards(state: &GameState, from: Cell, to: Cell, avoid: Cell) -> Option<Action> {
    let mut open = state.open();
    open.remove(avoid);
    let path = MazeGraph::new(open).shortest_path(from, Bitboard::from_cell(to))?;
    let next = *path.get(1)?;
    let action = Action::Move(next);
    state.check(action).is_ok().then_some(action)
}

/// One action of `player` under the plan.
fn plan_action(state: &GameState, plan: &Plan, shut: [bool; 2]) -> Option<Action> {
    let me = state.turn();
    let other = me.other();
    let legal = state.legal_actions();
    // Shut the opponent in as soon as it stands in its pocket.
    if let (Some(target), Some(entrance)) = (plan.target[other.index()], plan.entrance[other.index()])
        && !shut[other.index()]
        && state.position(other) == target
        && legal.contains(Action::Place(entrance))
    {
        return Some(Action::Place(entrance));
    }
    let reserved: Bitboard = plan.entrance.iter().flatten().copied().collect();
    let here = state.position(me);
    if let Some(target) = plan.target[me.index()]
        && here != target
        && let Some(step) = step_towards(state, here, target, state.position(other))
    {
        return Some(step);
    }
    // Otherwise wait without getting in the way: a step that stays off the
    // planned cells and leaves the flag alone, else any placement off them.
    let planned: Bitboard = plan.target.iter().flatten().copied().collect::<Bitboard>() | reserved;
    let waiting_step = legal.iter().copied().find(|&a| match a {
        Action::Move(c) => {
            !planned.has(c)
                && state.crate_at(c).is_none()
                && c != state.flag()
                && plan.target[me.index()].is_none()
        }
        _ => false,
    });
    if waiting_step.is_some() {
        return waiting_step;
    }
    let placement = legal.iter().copied().find(|&a| matches!(a, Action::Place(c) if !planned.has(c)));
    placement.or_else(|| {
        legal.first().copied().filter(|&a| a == Action::Pass || plan.target[me.index()].is_none())
    })
}

/// Plays the plan from `start` for at most `max_actions`; returns the line
/// and the final position once `done` holds.
fn run_plan(
    start: &GameState,
    plan: &Plan,
    max_actions: usize,
    done: impl Fn(&GameState, [bool; 2]) -> bool,
) -> Option<Vec<Action>> {
    let mut state = *start;
    let mut line = Vec::new();
    let mut shut = [false; 2];
    for _ in 0..max_actions {
        if done(&state, shut) {
            return Some(line);
        }
        if state.is_over() {
            return None;
        }
        let action = plan_action(&state, plan, shut)?;
        if let Action::Place(c) = action {
            for p in Player::BOTH {
                if plan.entrance[p.index()] == Some(c) {
                    shut[p.index()] = true;
                }
            }
        }
        state.play(action).ok()?;
        line.push(action);
    }
    done(&state, shut).then_some(line)
}

/// A line from the start after which `victim` stands in the fence's pocket
/// with the crate on its entrance, unable to leave.
#[must_use]
pub fn fence_line(
    start: &GameState,
    fence: &Fence,
    victim: Player,
    max_actions: usize,
) -> Option<Vec<Action>> {
    let mut plan = Plan { target: [None, None], entrance: [None, None] };
    plan.target[victim.index()] = Some(fence.inside);
    plan.entrance[victim.index()] = Some(fence.entrance);
    run_plan(start, &plan, max_actions, |state, shut| {
        shut[victim.index()]
            && state.all_crates().has(fence.entrance)
            && confined(state, victim, fence.pocket)
    })
}

/// A line from the start to a dead position: each player shut in a pocket
/// of its own, with no placement left, so both can only ever pass.
#[must_use]
pub fn stall_line(start: &GameState, one: &Fence, two: &Fence, max_actions: usize) -> Option<Vec<Action>> {
    let plan = Plan {
        target: [Some(one.inside), Some(two.inside)],
        entrance: [Some(one.entrance), Some(two.entrance)],
    };
    run_plan(start, &plan, max_actions, |state, _| is_dead(state))
}

/// Whether every move `player` could make (were it to move) keeps it in
/// `pocket`.
fn confined(state: &GameState, player: Player, pocket: Bitboard) -> bool {
    if !pocket.has(state.position(player)) {
        return false;
    }
    let mut probe = *state;
    if probe.turn() != player {
        probe.play_unchecked(Action::Pass);
        if probe.turn() != player {
            return false;
        }
    }
    probe.legal_actions().iter().all(|&a| match a {
        Action::Move(c) => pocket.has(c),
        _ => true,
    })
}
