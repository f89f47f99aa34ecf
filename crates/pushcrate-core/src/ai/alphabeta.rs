//! Alpha-beta search: negamax with iterative deepening, a transposition
//! table on the Zobrist hash, move ordering, and node and time limits.
//!
//! Move ordering, best first: the table's move, then the two killer moves
//! of the ply (actions that last cut off a sibling line), then the rest by
//! their history score (how often and how deep each action has cut off).
//! At the root, each iteration searches the actions in the order of the
//! previous iteration's values. Ordering changes which lines are pruned,
//! never a value: a test checks alpha-beta against plain minimax.
//!
//! Bonus actions keep the same player on the move, so a child's value is
//! negated only when the side to move changes, and depth counts turns, not
//! actions: a bonus action does not use depth up, so the opponent's reply
//! is always inside the horizon.
//!
//! A search that runs out of positions partway through an iteration keeps
//! what that iteration found: the previous best action was searched first,
//! so any action found better at the new depth is played instead.
//!
//! The table's values cut only at the depth they were searched to, so
//! that a value does not depend on the path and equals plain minimax to
//! that depth; a searcher built [`AlphaBeta::reusing`] also takes a value
//! searched deeper (from this decision or, as the table is kept, from the
//! player's earlier decisions in the game), as chess engines do: a better
//! value for fewer positions, at the price of the exact match.
//!
//! Null moves ([`AlphaBeta::null_moves`], off by default): before its
//! actions are searched, a node with the flag lying that stands at or
//! above beta gives its turn away and searches the position so left
//! [`NULL_REDUCTION`] turns shallower than the turn given away; if the
//! side that gave up a whole
//! turn still holds beta, the node is cut off without searching an
//! action. A turn given away is what chess engines call a null move: in
//! this game a pass is legal only when nothing else is, so it is not an
//! action of the game, and the cut is a forward pruning that can miss a
//! position where every action is worse than none (a zugzwang).
//!
//! Evaluations are remembered: a position evaluated before (a leaf
//! reached again by another order of the same actions, or an inner
//! position whose null-move test evaluates what the iteration before
//! scored as a leaf) takes its value from a small table of evaluations by
//! key instead of counting both players' ways again. The same values, the
//! same positions, up to a fifth less time a decision (expert's and
//! deep's a tenth, master's a sixteenth; docs/performance.md,
//! "Evaluations remembered").
//!
//! Repetition: a position that already occurred in the game (the history
//! the strategy is given) or earlier on the line being searched scores as
//! a draw, 0. A side that is ahead therefore avoids repeating, and a search
//! no longer walks both players round the same cycle to the action cap.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::eval::{Evaluator, WIN_BOUND};
use super::game::Game;
use crate::rules::{Action, Bitboard, GameState};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    depth: u8,
    value: i32,
    bound: Bound,
    best: Option<Action>,
}

/// The smallest and largest transposition tables, in bits of entries:
/// 64 Ki entries (about 1.5 MiB) to 1 Mi (about 24 MiB, master's budget).
const TABLE_BITS: std::ops::RangeInclusive<u32> = 16..=20;

/// The table a node budget fills: the next power of two at or above the
/// budget, within [`TABLE_BITS`], so that a decision's positions fit and
/// a larger budget is not lost to overwrites.
fn table_bits(nodes: u64) -> u32 {
    let bits = 64 - nodes.max(1).saturating_sub(1).leading_zeros();
    bits.clamp(*TABLE_BITS.start(), *TABLE_BITS.end())
}

/// The evaluations remembered, in bits of entries: 16 Ki entries (256
/// KiB, within the second-level cache). 2^15 was no faster, and 2^16 and
/// larger were slower for deep (docs/performance.md, "Evaluations
/// remembered").
const EVAL_BITS: u32 = 14;

/// An empty slot of the remembered evaluations. The shipped evaluations
/// score within ±[`super::eval::WIN`]; one that gave `i32::MIN` would only
/// be evaluated again each time, never mistaken for another position's.
const EVAL_EMPTY: i32 = i32::MIN;

/// History slots: a step or push per cell, a placement per cell, steal
/// and pass.
const ACTION_SLOTS: usize = 2 * crate::rules::Cell::COUNT + 2;

/// The history slot of an action.
fn action_slot(action: Action) -> usize {
    match action {
        Action::Move(cell) => cell.index(),
        Action::Place(cell) => crate::rules::Cell::COUNT + cell.index(),
        Action::Steal => ACTION_SLOTS - 2,
        Action::Pass => ACTION_SLOTS - 1,
    }
}

/// What searching one action of a node leaves the node to do.
enum Step {
    /// Return this value: the search ran out of positions or time.
    Return(i32),
    /// The action cut the node off.
    Cut,
    /// Search the next action.
    Next,
}

/// Orders `list` best first: the table's move, the ply's `killers`, then
/// by the side's history scores `cutoffs`. Each action's rank is worked
/// out once, before the sort; the sort compares the same ranks as it
/// would if it worked them out at each comparison, so the order is the
/// same.
fn order_by(
    list: &mut [Action],
    tt_move: Option<Action>,
    killers: [Option<Action>; 2],
    cutoffs: &[u32; ACTION_SLOTS],
) {
    let mut rank = [0u32; ACTION_SLOTS];
    for &action in list.iter() {
        rank[action_slot(action)] = rank_of(action, tt_move, killers, cutoffs);
    }
    list.sort_unstable_by_key(|&action| std::cmp::Reverse(rank[action_slot(action)]));
}

/// Where `action` comes in the order, higher first: the table's move, the
/// ply's killers, then by the side's history score.
#[inline]
fn rank_of(
    action: Action,
    tt_move: Option<Action>,
    killers: [Option<Action>; 2],
    cutoffs: &[u32; ACTION_SLOTS],
) -> u32 {
    if Some(action) == tt_move {
        u32::MAX
    } else if Some(action) == killers[0] {
        u32::MAX - 1
    } else if Some(action) == killers[1] {
        u32::MAX - 2
    } else {
        cutoffs[action_slot(action)].min(u32::MAX - 3)
    }
}

/// The entries of [`AlphaBeta::narrowing`]'s remembered cells, in bits:
/// 4 Ki positions.
const NARROW_BITS: u32 = 12;

/// The cells a narrowing search ([`AlphaBeta::narrowing`]) searches
/// placements on: the players' shortest ways ([`super::route_cells`]),
/// and the open cells next to a wall, where a crate closes a gap or
/// lengthens a wall. `None` (all cells) where a leg has no open way.
#[must_use]
pub fn narrow_cells(state: &GameState) -> Option<Bitboard> {
    super::eval::route_cells(state).map(|route| route | (state.walls().dilate() & state.open()))
}

/// Leaves in `list` its actions but the placements off `cells`, of which
/// it keeps one: one of `searched` if there is one (already searched,
/// they stay), else the one that `rank` puts first. The kept actions are
/// the list's head, in their order; returns it.
fn keep_placements<'a>(
    list: &'a mut [Action],
    cells: Bitboard,
    searched: &[Option<Action>],
    rank: impl Fn(Action) -> u32,
) -> &'a mut [Action] {
    let off = |a: &Action| matches!(a, Action::Place(c) if !cells.has(*c));
    let keep = if searched.iter().flatten().any(off) {
        None
    } else {
        list.iter().copied().filter(off).max_by_key(|&a| rank(a))
    };
    let mut kept = 0;
    for i in 0..list.len() {
        let action = list[i];
        if off(&action) && Some(action) != keep && !searched.contains(&Some(action)) {
            continue;
        }
        list[kept] = action;
        kept += 1;
    }
    &mut list[..kept]
}

/// Limits on one decision.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: u32,
    /// Positions to visit at most. When they run out partway through an
    /// iteration, the best action that iteration has searched is played
    /// (it searches the previous iteration's best first).
    pub nodes: u64,
    /// Wall-clock limit; `None` keeps the search deterministic.
    pub time: Option<Duration>,
}

/// An alpha-beta searcher over [`GameState`] with evaluator `E`.
pub struct AlphaBeta<E> {
    eval: E,
    limits: Limits,
    table: Vec<Option<Entry>>,
    /// log2 of the table's length.
    bits: u32,
    nodes: u64,
    stop: bool,
    deadline: Option<Instant>,
    rng: Option<ChaCha8Rng>,
    /// Set from outside to end a search early (Ctrl-C, a closed window).
    cancel: Option<Arc<AtomicBool>>,
    /// Hashes of the game's earlier positions.
    history: std::collections::HashSet<u64>,
    /// A bit per `key % 4096` of the history's keys: a key whose bit is
    /// clear is not in the history, and most are looked up no further.
    history_bits: Box<[u64; 64]>,
    /// Hashes of the positions on the line being searched, root first.
    line: Vec<u64>,
    /// Per ply, the last two actions that cut off a line there.
    killers: Vec<[Option<Action>; 2]>,
    /// Per player and action, how much cutting off it has done.
    cutoffs: Box<[[u32; ACTION_SLOTS]; 2]>,
    /// Search as it was before the faster ways (docs/performance.md, "The
    /// same search, faster"): every action generated before the first is
    /// searched, ranks worked out at each comparison, the sole-path cells
    /// afresh, no bit filter on the history. The reference of the
    /// benchmarks and tests.
    plain: bool,
    /// Whether a table entry searched deeper than asked may cut
    /// ([`AlphaBeta::reusing`]).
    reuse: bool,
    /// Whether the last turn before the horizon leaves out placements off
    /// every shortest way ([`AlphaBeta::pruning`]).
    prune: bool,
    /// Whether a node may be cut off by a null move
    /// ([`AlphaBeta::null_moves`]).
    null: bool,
    /// Whether every node below the root searches only the placements of
    /// [`narrow_cells`] but one ([`AlphaBeta::narrowing`]).
    narrow: bool,
    /// The cells a node's placements are searched on, by the low bits of
    /// the position's key (`None`: all of them).
    cells: Vec<(u64, Option<Bitboard>)>,
    /// Whether a null move's search is under way: no second one is tried
    /// inside it.
    in_null: bool,
    /// The evaluations of positions not over, by the low bits of their
    /// keys, for their side to move ([`AlphaBeta::evaluate`]).
    evals: Vec<(u64, i32)>,
}

/// How many turns shallower than its node a null move's position is
/// searched, beyond the turn given away.
pub const NULL_REDUCTION: u32 = 1;

/// A leaf's value `ply` actions from the root: sooner wins score higher,
/// later losses lower.
fn by_distance(value: i32, ply: u32) -> i32 {
    if value >= WIN_BOUND {
        value - ply as i32
    } else if value <= -WIN_BOUND {
        value + ply as i32
    } else {
        value
    }
}

/// Mate scores are stored relative to the node, not the root.
fn to_table(value: i32, ply: u32) -> i32 {
    if value > WIN_BOUND {
        value + ply as i32
    } else if value < -WIN_BOUND {
        value - ply as i32
    } else {
        value
    }
}

fn from_table(value: i32, ply: u32) -> i32 {
    if value > WIN_BOUND {
        value - ply as i32
    } else if value < -WIN_BOUND {
        value + ply as i32
    } else {
        value
    }
}

impl<E: Evaluator> AlphaBeta<E> {
    /// A searcher with an empty table sized to the node budget.
    pub fn new(eval: E, limits: Limits) -> AlphaBeta<E> {
        AlphaBeta::with_table(eval, limits, table_bits(limits.nodes))
    }

    /// A searcher with an empty table of 2^`bits` entries (16 to 20): for
    /// measuring what the table's size buys.
    pub fn with_table(eval: E, limits: Limits, bits: u32) -> AlphaBeta<E> {
        let bits = bits.clamp(*TABLE_BITS.start(), *TABLE_BITS.end());
        AlphaBeta {
            eval,
            limits,
            table: vec![None; 1 << bits],
            bits,
            nodes: 0,
            stop: false,
            deadline: None,
            rng: None,
            cancel: None,
            history: std::collections::HashSet::new(),
            history_bits: Box::new([0; 64]),
            line: Vec::new(),
            killers: Vec::new(),
            cutoffs: Box::new([[0; ACTION_SLOTS]; 2]),
            plain: false,
            reuse: false,
            prune: false,
            null: false,
            narrow: false,
            cells: Vec::new(),
            in_null: false,
            evals: vec![(0, EVAL_EMPTY); 1 << EVAL_BITS],
        }
    }

    /// The game's earlier positions (their hashes): meeting one again in
    /// the search scores as a draw.
    pub fn set_history(&mut self, history: &[u64]) {
        self.history.clear();
        self.history.extend(history.iter().copied());
        self.history_bits.fill(0);
        for &key in history {
            self.history_bits[(key as usize >> 6) & 63] |= 1 << (key & 63);
        }
    }

    fn repeats(&self, key: u64) -> bool {
        let maybe_earlier = self.history_bits[(key as usize >> 6) & 63] & (1 << (key & 63)) != 0;
        ((self.plain || maybe_earlier) && self.history.contains(&key)) || self.line.contains(&key)
    }

    /// The same searcher, giving up soon after `cancel` is set (with the
    /// best action of the last finished iteration).
    #[must_use]
    pub fn cancellable(mut self, cancel: Arc<AtomicBool>) -> AlphaBeta<E> {
        self.cancel = Some(cancel);
        self
    }

    /// The same searcher, searching as it did before the table's move and
    /// the killers were tried ahead of generating the other actions, the
    /// ranks were worked out once, the sole-path cells were remembered,
    /// the history was filtered and evaluations were remembered: the same
    /// positions, values and actions,
    /// more slowly (with [`super::PlainRaceEvaluator`], the search as it
    /// was). The reference that benchmarks measure the search against, and
    /// tests compare it with.
    #[doc(hidden)]
    #[must_use]
    pub fn plain(mut self) -> AlphaBeta<E> {
        self.plain = true;
        self
    }

    /// The same searcher, letting a table entry searched deeper than a
    /// node asks cut it too (only an entry of the same depth does
    /// otherwise). Values then no longer equal plain minimax to the
    /// depth, but what a deeper search learnt, in this decision or in the
    /// player's earlier ones, is kept (`alphabeta:D:N:reuse`; measured
    /// against the exact table in docs/ai.md).
    #[must_use]
    pub fn reusing(mut self) -> AlphaBeta<E> {
        self.reuse = true;
        self
    }

    /// The same searcher, leaving out on the last turn before its horizon
    /// the placements on no shortest way of either player
    /// ([`super::route_cells`]) but one: such a crate changes no
    /// leg, so with an evaluation that sees crates only through the legs
    /// (the hand and the fitted ones) every one of them leaves the same
    /// leaf value, and the search's value is the full search's to the same
    /// depth, for fewer positions. With bonus actions left the full search
    /// is kept: the turn goes on, and the crate may stand in the way of
    /// the next action.
    #[must_use]
    pub fn pruning(mut self) -> AlphaBeta<E> {
        self.prune = true;
        self
    }

    /// The same searcher, searching at every node below the root with no
    /// bonus action pending only the placements on [`narrow_cells`], and
    /// one other placement, the first in the order, for the rest: a
    /// forward pruning, as chess engines leave out quiet moves far from
    /// the action, that takes the same positions several turns deeper.
    /// Values no longer equal plain minimax to the depth
    /// (`alphabeta:D:N:narrow`; measured in docs/ai.md, "Searching only the
    /// placements on the players' ways").
    #[must_use]
    pub fn narrowing(mut self) -> AlphaBeta<E> {
        self.narrow = true;
        self.cells = vec![(0, None); 1 << NARROW_BITS];
        self
    }

    /// The same searcher, trying a null move before the actions of a node
    /// at least [`NULL_REDUCTION`] + 2 turns from its horizon, outside the
    /// root and bonus actions, with the flag lying (in a run home or a
    /// chase every turn counts, and a turn given away misleads), whose
    /// evaluation stands at or above beta:
    /// the turn given to the opponent, the position searched
    /// [`NULL_REDUCTION`] + 1 turns shallower with a window at beta, and
    /// the node cut off if its side still holds beta. Values no longer
    /// equal plain minimax to the depth; what is cut is searched no more,
    /// so the same positions reach deeper (`alphabeta:D:N:null`; measured
    /// in docs/ai.md).
    #[must_use]
    pub fn null_moves(mut self) -> AlphaBeta<E> {
        self.null = true;
        self
    }

    /// Whether a null move cuts the node off: the position with the turn
    /// given away, searched shallower, still holds `beta` for the side
    /// that gave it.
    fn null_move_cuts(&mut self, state: &GameState, depth: u32, beta: i32, ply: u32) -> bool {
        if !self.null
            || self.in_null
            || ply == 0
            || depth < NULL_REDUCTION + 2
            || state.bonus_actions() > 0
            || state.carrier().is_some()
            || beta.abs() >= WIN_BOUND
            || self.evaluate(state) < beta
        {
            return false;
        }
        // The turn given away: a pass leaves everything but the side to
        // move and the action count as it was.
        let mut given = *state;
        given.apply(Action::Pass);
        if given.to_move() == state.to_move() || given.result().is_some() {
            return false;
        }
        self.in_null = true;
        let value = -self.negamax(&given, depth - 1 - NULL_REDUCTION, -beta, -beta + 1, ply + 1);
        self.in_null = false;
        // A search stopped partway answers nothing: the node returns at
        // once anyway, as the caller sees the stop.
        self.stop || value >= beta
    }

    /// The same searcher, breaking ties between equally good actions at
    /// random from `seed` (without a seed it always takes the first).
    #[must_use]
    pub fn seeded(mut self, seed: u64) -> AlphaBeta<E> {
        self.rng = Some(ChaCha8Rng::seed_from_u64(seed));
        self
    }

    /// Positions visited by the last decision.
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the last decision stopped before its deepest iteration
    /// finished (out of positions or time, or cancelled).
    #[must_use]
    pub const fn stopped(&self) -> bool {
        self.stop
    }

    fn slot(&self, key: u64) -> usize {
        (key >> (64 - self.bits)) as usize
    }

    /// Asks the processor to fetch the table entry of `key` while the
    /// position's other checks run: deep's and master's tables are larger
    /// than the caches.
    #[inline]
    #[allow(unsafe_code)]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let entry = self.table.as_ptr().wrapping_add(self.slot(key));
            // SAFETY: a prefetch is a hint: it reads nothing into the
            // program and cannot fault, and the pointer lies within the
            // table anyway.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(entry.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    fn leaf(&self, state: &GameState, ply: u32) -> i32 {
        by_distance(self.eval.evaluate(state, state.to_move()), ply)
    }

    /// The evaluation of `state`, not over, for its side to move: the
    /// remembered one where the position was evaluated before (the key
    /// hashes all that the evaluation reads but the level and its rules,
    /// which stay one per searcher, as for its table). The plain search
    /// evaluates every time.
    fn evaluate(&mut self, state: &GameState) -> i32 {
        if self.plain {
            return self.eval.evaluate(state, state.to_move());
        }
        let key = state.key();
        let slot = (key as usize) & (self.evals.len() - 1);
        let (remembered, value) = self.evals[slot];
        if remembered == key && value != EVAL_EMPTY {
            return value;
        }
        let value = self.eval.evaluate(state, state.to_move());
        self.evals[slot] = (key, value);
        value
    }

    /// The cells a node's placements are searched on: with
    /// [`AlphaBeta::narrowing`] [`narrow_cells`], remembered by key; else,
    /// on the last turn with [`AlphaBeta::pruning`], the players' shortest
    /// ways ([`super::route_cells`]). `None`: all of them.
    fn placement_cells(&mut self, state: &GameState, depth: u32, ply: u32) -> Option<Bitboard> {
        if state.bonus_actions() > 0 {
            return None;
        }
        if self.narrow && ply > 0 {
            let key = state.key();
            let slot = (key as usize) & (self.cells.len() - 1);
            let (remembered, cells) = self.cells[slot];
            if remembered == key && key != 0 {
                return cells;
            }
            let cells = narrow_cells(state);
            self.cells[slot] = (key, cells);
            return cells;
        }
        if self.prune && depth == 1 { super::eval::route_cells(state) } else { None }
    }

    fn out_of_limits(&mut self) -> bool {
        if self.nodes >= self.limits.nodes {
            self.stop = true;
        } else if self.nodes.is_multiple_of(1024) {
            let late = self.deadline.is_some_and(|deadline| Instant::now() >= deadline);
            let cancelled = self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
            self.stop = late || cancelled;
        }
        self.stop
    }

    /// The value of `state` for its side to move, searched `depth` plies.
    pub fn negamax(&mut self, state: &GameState, depth: u32, alpha: i32, beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if state.result().is_some() {
            return self.leaf(state, ply);
        }
        if self.repeats(state.key()) {
            return 0;
        }
        if depth == 0 {
            return by_distance(self.evaluate(state), ply);
        }
        self.line.push(state.key());
        let value = self.negamax_inner(state, depth, alpha, beta, ply);
        self.line.pop();
        value
    }

    /// The table's entry for `state` at `slot`: its move, and its value
    /// where the entry cuts the node off.
    fn probe(
        &self,
        slot: usize,
        state: &GameState,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: u32,
    ) -> (Option<Action>, Option<i32>) {
        let Some(entry) = self.table[slot].filter(|e| e.key == state.key()) else { return (None, None) };
        // Only an entry of the same depth may cut: values then do not
        // depend on the path, and equal plain minimax to that depth.
        // A reusing searcher takes a deeper entry's value too.
        let searched = u32::from(entry.depth);
        if searched == depth || (self.reuse && searched > depth) {
            let v = from_table(entry.value, ply);
            match entry.bound {
                Bound::Exact => return (entry.best, Some(v)),
                Bound::Lower if v >= beta => return (entry.best, Some(v)),
                Bound::Upper if v <= alpha => return (entry.best, Some(v)),
                _ => {}
            }
        }
        (entry.best, None)
    }

    fn negamax_inner(&mut self, state: &GameState, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        let slot = self.slot(state.key());
        let (tt_move, cut) = self.probe(slot, state, depth, alpha, beta, ply);
        if let Some(value) = cut {
            return value;
        }
        if self.null_move_cuts(state, depth, beta, ply) {
            return beta;
        }
        let original_alpha = alpha;
        let mut best = (-i32::MAX, None);
        let side = state.to_move().index();
        let killers = self.killers.get(ply as usize).copied().unwrap_or_default();
        // The table's move and the ply's killers come first in the order,
        // and they often cut the node off: they are searched before the
        // other actions are generated (a killer only where it is legal
        // here), and the others are generated, and ordered by the history
        // scores as they stood before the first was searched so that the
        // order is the same, only when none of them did.
        let mut searched = [None; 3];
        let mut early = 0;
        let mut history_before = None;
        if !self.plain {
            for candidate in [tt_move, killers[0], killers[1]] {
                let Some(action) = candidate else { continue };
                if searched[..early].contains(&candidate)
                    || (candidate != tt_move && state.check(action).is_err())
                {
                    continue;
                }
                if history_before.is_none() {
                    history_before = Some(self.cutoffs[side]);
                }
                match self.search_action(state, action, depth, &mut alpha, beta, ply, &mut best) {
                    Step::Return(value) => return value,
                    Step::Cut => return self.store(slot, state, depth, ply, original_alpha, beta, best),
                    Step::Next => {}
                }
                searched[early] = candidate;
                early += 1;
            }
        }
        let mut actions = if self.plain { state.legal_actions_unremembered() } else { state.actions() };
        // On the last turn, every placement off the players' shortest
        // ways leaves the same leaf value (a crate on no way changes no
        // leg): one of them is searched, the first in the order, or one
        // searched already. (With bonus actions left the turn goes on
        // after a placement, and where the crate stands may matter to the
        // next action.) A narrowing search does the same at every node
        // below the root, with the walls' neighbours kept too.
        let list = actions.as_mut_slice();
        let list = match self.placement_cells(state, depth, ply) {
            Some(cells) => {
                let cutoffs = history_before.as_ref().unwrap_or(&self.cutoffs[side]);
                keep_placements(list, cells, &searched[..early], |a| rank_of(a, tt_move, killers, cutoffs))
            }
            None => list,
        };
        let rest = if let Some(history) = &history_before {
            order_by(list, tt_move, killers, history);
            debug_assert!(
                list.iter().zip(&searched[..early]).all(|(&a, &s)| Some(a) == s),
                "the actions searched first head the order"
            );
            &list[early..]
        } else if self.plain {
            self.order_plain(list, tt_move, state, ply);
            &list[..]
        } else {
            order_by(list, tt_move, killers, &self.cutoffs[side]);
            &list[..]
        };
        for &action in rest {
            match self.search_action(state, action, depth, &mut alpha, beta, ply, &mut best) {
                Step::Return(value) => return value,
                Step::Cut => break,
                Step::Next => {}
            }
        }
        self.store(slot, state, depth, ply, original_alpha, beta, best)
    }

    /// Searches one action of a node, raising `alpha` and `best`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn search_action(
        &mut self,
        state: &GameState,
        action: Action,
        depth: u32,
        alpha: &mut i32,
        beta: i32,
        ply: u32,
        best: &mut (i32, Option<Action>),
    ) -> Step {
        let mut child = *state;
        child.apply(action);
        self.prefetch(child.key());
        let value = if child.to_move() == state.to_move() {
            self.negamax(&child, depth, *alpha, beta, ply + 1)
        } else {
            -self.negamax(&child, depth - 1, -beta, -*alpha, ply + 1)
        };
        if self.stop {
            return Step::Return(best.0.max(value));
        }
        if value > best.0 {
            *best = (value, Some(action));
        }
        *alpha = (*alpha).max(value);
        if *alpha >= beta {
            self.cut_off(action, state, depth, ply);
            return Step::Cut;
        }
        if self.out_of_limits() {
            return Step::Return(best.0);
        }
        Step::Next
    }

    /// Stores a searched node's value in the table and returns it.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        slot: usize,
        state: &GameState,
        depth: u32,
        ply: u32,
        original_alpha: i32,
        beta: i32,
        (best_value, best_move): (i32, Option<Action>),
    ) -> i32 {
        let bound = if best_value <= original_alpha {
            Bound::Upper
        } else if best_value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Some(Entry {
            key: state.key(),
            depth: depth.min(255) as u8,
            value: to_table(best_value, ply),
            bound,
            best: best_move,
        });
        best_value
    }

    /// The order of [`order_by`], its rank worked out again at every
    /// comparison, and every action generated before the first is
    /// searched: the search as it was, kept as the reference that the
    /// faster one is measured and tested against (the same order, the
    /// same positions, the same values).
    fn order_plain(&self, list: &mut [Action], tt_move: Option<Action>, state: &GameState, ply: u32) {
        let killers = self.killers.get(ply as usize).copied().unwrap_or_default();
        let cutoffs = &self.cutoffs[state.to_move().index()];
        list.sort_unstable_by_key(|&action| std::cmp::Reverse(rank_of(action, tt_move, killers, cutoffs)));
    }

    /// Remembers that `action` cut off a line `depth` turns deep at `ply`.
    fn cut_off(&mut self, action: Action, state: &GameState, depth: u32, ply: u32) {
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; 2]);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(action) {
            killers[1] = killers[0];
            killers[0] = Some(action);
        }
        let score = &mut self.cutoffs[state.to_move().index()][action_slot(action)];
        *score = score.saturating_add(depth * depth);
    }

    /// The best action and its value after iterative deepening, or `None`
    /// when the game is over.
    pub fn best(&mut self, state: &GameState) -> Option<(Action, i32)> {
        self.nodes = 0;
        self.stop = false;
        // Killers belong to one decision; history scores fade with age.
        self.killers.clear();
        for side in self.cutoffs.iter_mut() {
            for score in side.iter_mut() {
                *score /= 2;
            }
        }
        self.deadline = self.limits.time.map(|t| Instant::now() + t);
        let mut ordered = state.actions().as_slice().to_vec();
        if let Some(rng) = &mut self.rng {
            ordered.shuffle(rng);
        }
        let mut best = (*ordered.first()?, 0);
        let mut tied = vec![best.0];
        self.line.clear();
        self.line.push(state.key());
        for depth in 1..=self.limits.depth.max(1) {
            // Searching each action with a window just below the best value
            // so far gives exact values to actions that tie with it.
            let mut alpha = -i32::MAX;
            let mut iteration: Vec<(Action, i32)> = Vec::new();
            for &action in &ordered {
                let mut child = *state;
                child.apply(action);
                let floor = alpha.saturating_sub(1).max(-i32::MAX);
                let value = if child.to_move() == state.to_move() {
                    self.negamax(&child, depth, floor, i32::MAX, 1)
                } else {
                    -self.negamax(&child, depth - 1, -i32::MAX, -floor, 1)
                };
                if self.stop {
                    break;
                }
                alpha = alpha.max(value);
                iteration.push((action, value));
            }
            // An unfinished iteration searched the previous best action
            // first, so the best it found is at least as good an answer as
            // the last iteration's; the actions it has not reached keep
            // their place behind.
            debug_assert!(iteration.first().is_none_or(|&(a, _)| a == best.0));
            if let Some(top) = iteration.iter().map(|&(_, v)| v).max() {
                tied = iteration.iter().filter(|&&(_, v)| v == top).map(|&(a, _)| a).collect();
                best = (tied[0], top);
            }
            if self.stop || best.1.abs() > WIN_BOUND {
                break;
            }
            // The next iteration searches the best actions first (a stable
            // sort keeps the shuffled order among equals).
            iteration.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
            ordered = iteration.into_iter().map(|(a, _)| a).collect();
        }
        if let Some(rng) = &mut self.rng
            && tied.len() > 1
        {
            best.0 = tied[rng.random_range(0..tied.len())];
        }
        Some(best)
    }
}

/// Plain minimax to a fixed depth in turns, no pruning and no table: the
/// reference that alpha-beta is tested against.
pub fn minimax<E: Evaluator>(eval: &E, state: &GameState, depth: u32, ply: u32) -> i32 {
    if state.result().is_some() || depth == 0 {
        return by_distance(eval.evaluate(state, state.to_move()), ply);
    }
    state
        .actions()
        .iter()
        .map(|&action| {
            let mut child = *state;
            child.apply(action);
            if child.to_move() == state.to_move() {
                minimax(eval, &child, depth, ply + 1)
            } else {
                -minimax(eval, &child, depth - 1, ply + 1)
            }
        })
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sized_to_the_node_budget() {
        assert_eq!(table_bits(1), 16);
        assert_eq!(table_bits(40_000), 16);
        assert_eq!(table_bits(65_536), 16);
        assert_eq!(table_bits(65_537), 17);
        assert_eq!(table_bits(150_000), 18);
        assert_eq!(table_bits(1_000_000), 20);
        assert_eq!(table_bits(u64::MAX), 20);
    }
}
