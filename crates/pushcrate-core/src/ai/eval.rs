//! Evaluation: an engine decision, not a rule.
//!
//! The race evaluator scores a position for a player by the route race —
//! the steps each player still needs to win by the flag over open cells,
//! crates blocking — and by the crate race: destroyed crates and placements
//! left. A win or loss scores ±[`WIN`].

use crate::rules::{Bitboard, ByPlayer, GameState, Outcome, Player};

/// The score of a won position.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses at some distance.
pub const WIN_BOUND: i32 = WIN - 10_000;

/// Scores positions for a player.
pub trait Evaluator {
    /// The score of `state` for `player`: higher is better.
    fn evaluate(&self, state: &GameState, player: Player) -> i32;
}

/// The evaluation used by every built-in strategy; see the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct RaceEvaluator;

/// Steps from any cell of `from` to the nearest cell of `to` over `open`.
///
/// This and [`layers_to_each`] are the two breadth-first searches kept
/// apart from [`crate::rules::Rings`]: they run at every leaf of every
/// search, and written through the iterator the first twenty decisions of
/// deep against deep took 8–9% longer on `open` and `courtyard`
/// (docs/performance.md, "One distance search").
fn steps(open: Bitboard, from: Bitboard, to: Bitboard) -> Option<u32> {
    if (from & to).any() {
        return Some(0);
    }
    let mut seen = from;
    let mut frontier = from;
    let mut d = 0;
    loop {
        frontier = frontier.dilate() & (open - seen);
        if frontier.is_empty() {
            return None;
        }
        d += 1;
        if (frontier & to).any() {
            return Some(d);
        }
        seen |= frontier;
    }
}

/// The penalty for crates that cut a player's way, added to the distance
/// over the floor.
const THROUGH_CRATES: u32 = 6;
/// The steps of a leg with no way at all.
const NO_WAY: u32 = 200;

/// Steps from `from` to the nearest cell of each target over `open`, in
/// one breadth-first search: what [`steps`] gives for each target alone.
/// `from` lies in `open`.
fn steps_to_each<const N: usize>(open: Bitboard, from: Bitboard, targets: [Bitboard; N]) -> [Option<u32>; N] {
    // On a board narrower than the grid the layers grow without masks
    // (`Bitboard::dilate_narrow`); the search is the same.
    if open.is_narrow() {
        layers_to_each(from, targets, |frontier| frontier.dilate_narrow(open))
    } else {
        layers_to_each(from, targets, |frontier| frontier.dilate() & open)
    }
}

/// [`steps_to_each`]'s search, `grow` giving the open cells next to a
/// layer or in it. The targets not yet reached are looked for together,
/// each alone only in the layer that reaches one of them.
#[inline(always)]
fn layers_to_each<const N: usize>(
    from: Bitboard,
    targets: [Bitboard; N],
    grow: impl Fn(Bitboard) -> Bitboard,
) -> [Option<u32>; N] {
    let mut found = targets.map(|t| (from & t).any().then_some(0));
    let mut wanted = Bitboard::EMPTY;
    for (found, &target) in found.iter().zip(&targets) {
        if found.is_none() {
            wanted |= target;
        }
    }
    let mut seen = from;
    let mut frontier = from;
    let mut d = 0;
    while wanted.any() {
        frontier = grow(frontier) - seen;
        if frontier.is_empty() {
            break;
        }
        d += 1;
        if (frontier & wanted).any() {
            wanted = Bitboard::EMPTY;
            for (found, &target) in found.iter_mut().zip(&targets) {
                if found.is_none() {
                    if (frontier & target).any() {
                        *found = Some(d);
                    } else {
                        wanted |= target;
                    }
                }
            }
        }
        seen |= frontier;
    }
    found
}

/// The steps each player still needs to bring the flag home: what
/// [`flag_steps`] gives for each, with one search from the flag for the
/// legs that begin or end there. Steps go both ways, so the steps from a
/// player to the flag are the steps from the flag to the player, over the
/// same open cells (both the player's and the flag's cells are open). A
/// carrier stands on the flag's cell, so its leg home is the search's leg
/// from the flag to its goals.
#[must_use]
pub fn flag_steps_both(state: &GameState) -> ByPlayer<u32> {
    let legs = flag_legs_both(state);
    ByPlayer { one: legs.one.0 + legs.one.1, two: legs.two.0 + legs.two.1 }
}

/// Each player's two legs of [`flag_steps_both`]: the steps to the flag
/// (0 for its carrier) and the steps from there home, counted as it counts
/// them.
#[must_use]
pub fn flag_legs_both(state: &GameState) -> ByPlayer<(u32, u32)> {
    let open = state.open();
    let flag = state.flag();
    let here = Player::BOTH.map(|p| state.position(p));
    if !open.has(flag) || !here.iter().all(|&cell| open.has(cell)) {
        return ByPlayer { one: flag_legs(state, Player::One), two: flag_legs(state, Player::Two) };
    }
    let goals = Player::BOTH.map(|p| state.goals(p));
    let from_flag = steps_to_each(
        open,
        Bitboard::from_cell(flag),
        [Bitboard::from_cell(here[0]), goals[0], Bitboard::from_cell(here[1]), goals[1]],
    );
    let or_floor = |found: Option<u32>, from: Bitboard, to: Bitboard| -> u32 {
        found.or_else(|| steps(state.floor(), from, to).map(|d| d + THROUGH_CRATES)).unwrap_or(NO_WAY)
    };
    let need = |i: usize| -> (u32, u32) {
        let player = Player::BOTH[i];
        let cell = Bitboard::from_cell(here[i]);
        if state.carrier() == Some(player) {
            debug_assert_eq!(here[i], flag, "the flag is carried on its carrier's cell");
            (0, or_floor(from_flag[2 * i + 1], cell, goals[i]))
        } else {
            let flag = Bitboard::from_cell(flag);
            (or_floor(from_flag[2 * i], cell, flag), or_floor(from_flag[2 * i + 1], flag, goals[i]))
        }
    };
    ByPlayer { one: need(0), two: need(1) }
}

/// Steps `player` still needs to bring the flag home. Crates block; when
/// they cut the way, the floor distance plus a penalty for breaking through.
#[must_use]
pub fn flag_steps(state: &GameState, player: Player) -> u32 {
    let (to_flag, home) = flag_legs(state, player);
    to_flag + home
}

/// [`flag_steps`] as its two legs: to the flag (0 for its carrier), and
/// from there home.
fn flag_legs(state: &GameState, player: Player) -> (u32, u32) {
    let here = Bitboard::from_cell(state.position(player));
    let flag = Bitboard::from_cell(state.flag());
    let goals = state.goals(player);
    let leg = |from: Bitboard, to: Bitboard| -> u32 {
        steps(state.open() | from, from, to)
            .or_else(|| steps(state.floor(), from, to).map(|d| d + THROUGH_CRATES))
            .unwrap_or(NO_WAY)
    };
    if state.carrier() == Some(player) { (0, leg(here, goals)) } else { (leg(here, flag), leg(flag, goals)) }
}

impl Evaluator for RaceEvaluator {
    fn evaluate(&self, state: &GameState, player: Player) -> i32 {
        race_score(state, player, flag_steps_both)
    }
}

/// [`RaceEvaluator`] as it was, counting each player's steps with a search
/// of its own ([`flag_steps`]): the same scores, more slowly. The reference
/// that benchmarks measure the evaluation against.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PlainRaceEvaluator;

impl Evaluator for PlainRaceEvaluator {
    fn evaluate(&self, state: &GameState, player: Player) -> i32 {
        race_score(state, player, |state| ByPlayer {
            one: flag_steps(state, Player::One),
            two: flag_steps(state, Player::Two),
        })
    }
}

/// The score of a finished game for `player` (±[`WIN`], 0 for a draw),
/// which every evaluation gives alike; `None` while the game goes on.
#[inline]
pub(super) fn finished_score(state: &GameState, player: Player) -> Option<i32> {
    match state.outcome()? {
        Outcome::Win { winner, .. } => Some(if winner == player { WIN } else { -WIN }),
        Outcome::Draw => Some(0),
    }
}

/// The race evaluation of `state` for `player`, given how each player's
/// steps home are counted.
#[inline]
fn race_score(state: &GameState, player: Player, steps_home: impl Fn(&GameState) -> ByPlayer<u32>) -> i32 {
    if let Some(score) = finished_score(state, player) {
        return score;
    }
    let other = player.other();
    let need = steps_home(state);
    let race = need[other] as i32 - need[player] as i32;
    let destroyed = i32::from(state.destroyed(player)) - i32::from(state.destroyed(other));
    let placements = i32::from(state.placements_left(player)) - i32::from(state.placements_left(other));
    let to_move = if state.turn() == player { 1 } else { -1 };
    let carrier = match state.carrier() {
        Some(p) if p == player => 1,
        Some(_) => -1,
        None => 0,
    };
    100 * race + 150 * destroyed + 10 * placements + 30 * to_move + 80 * carrier
}

/// What a search from the flag looks for, in this order: player 1's cell,
/// its goals, player 2's cell, its goals.
pub(super) fn flag_targets(state: &GameState) -> [Bitboard; 4] {
    [
        Bitboard::from_cell(state.position(Player::One)),
        state.goals(Player::One),
        Bitboard::from_cell(state.position(Player::Two)),
        state.goals(Player::Two),
    ]
}

/// The layers of a breadth-first search from the flag over the open cells
/// into `layers`, until every one of [`flag_targets`] is met, no cell is
/// left, or `layers` is full: the layer that first meets each target
/// (`None` for one never met), and the last layer's index.
pub(super) fn layers_from_flag(state: &GameState, layers: &mut [Bitboard]) -> ([Option<usize>; 4], usize) {
    let open = state.open();
    let flag = Bitboard::from_cell(state.flag());
    let targets = flag_targets(state);
    layers[0] = flag;
    let mut seen = flag;
    let mut reached = targets.map(|t| (t & flag).any().then_some(0usize));
    let mut d = 0;
    while reached.iter().any(Option::is_none) {
        let next = (layers[d].dilate() & open) - seen;
        if next.is_empty() || d + 1 >= layers.len() {
            break;
        }
        d += 1;
        layers[d] = next;
        seen |= next;
        for (r, &t) in reached.iter_mut().zip(&targets) {
            if r.is_none() && (next & t).any() {
                *r = Some(d);
            }
        }
    }
    (reached, d)
}

/// The open cells on some shortest way of either player's legs (to the
/// flag, and from the flag home): a crate placed anywhere else leaves
/// every leg as long as it was. `None` when a leg has no open way (its
/// steps are then counted through crates, and any crate may change them).
#[must_use]
pub fn route_cells(state: &GameState) -> Option<Bitboard> {
    let open = state.open();
    let flag = Bitboard::from_cell(state.flag());
    if !(open & flag).any() {
        return None;
    }
    let targets = flag_targets(state);
    // The layers of one search from the flag, until every target is met
    // (no way is longer than a bitboard has cells).
    let mut layers = [Bitboard::EMPTY; 128];
    let (reached, _) = layers_from_flag(state, &mut layers);
    // Back from each target along the layers: the cells of its shortest ways.
    let mut route = Bitboard::EMPTY;
    for (r, &t) in reached.iter().zip(&targets) {
        let mut k = (*r)?;
        let mut on = layers[k] & t;
        route |= on;
        while k > 0 {
            k -= 1;
            on = layers[k] & on.dilate();
            route |= on;
        }
    }
    Some(route)
}
