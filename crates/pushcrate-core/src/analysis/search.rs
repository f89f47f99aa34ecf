//! Bounded search: can a player win within N actions, even with the
//! opponent's help? Answers are proved (with the winning line), disproved
//! (every line was searched), or unknown within the budget — never a guess.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::rules::{Action, Bitboard, Cell, Dir, GameState, Outcome, Player, Stage};

/// How far and how long to search.
#[derive(Clone, Copy, Debug)]
pub struct SearchLimits<'a> {
    /// Actions (plies, both players' actions counted) to look ahead.
    pub depth: u32,
    /// Positions to visit at most.
    pub budget: u64,
    /// Set to stop the search early; it then answers unknown.
    pub cancel: Option<&'a AtomicBool>,
}

/// The answer to a bounded question.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Answer {
    /// Proved, with a line of actions from the position searched.
    Proved {
        /// The line.
        line: Vec<Action>,
    },
    /// Every line within the depth was searched: the answer is no.
    Disproved,
    /// The budget ran out, or the search was cancelled, first.
    Unknown,
}

/// Step distances over the floor, walls only (crates break and players
/// move), so they give lower bounds on how soon a player can win.
pub struct Distances {
    from: Vec<[u8; Cell::COUNT]>,
    to_goals: [[u8; Cell::COUNT]; 2],
}

/// No way there.
pub(super) const FAR: u8 = u8::MAX;

/// Steps from `seed` to every cell over `floor`; [`FAR`] where there is
/// no way.
pub(super) fn bfs(seed: Bitboard, floor: Bitboard) -> [u8; Cell::COUNT] {
    let mut out = [FAR; Cell::COUNT];
    for (d, ring) in (seed & floor).rings(floor).with_steps() {
        for c in ring {
            out[c.index()] = u8::try_from(d).unwrap_or(FAR);
        }
    }
    out
}

impl Distances {
    /// The distances of `state`'s floor.
    #[must_use]
    pub fn new(state: &GameState) -> Distances {
        let floor = state.floor();
        let from = Cell::all().map(|c| bfs(Bitboard::from_cell(c), floor)).collect();
        let to_goals = [bfs(state.goals(Player::One), floor), bfs(state.goals(Player::Two), floor)];
        Distances { from, to_goals }
    }

    /// Steps (not actions) `player` still has to walk for a flag win.
    fn steps(&self, state: &GameState, player: Player) -> u32 {
        let here = state.position(player);
        let goal = |c: Cell| u32::from(self.to_goals[player.index()][c.index()]);
        if state.carrier() == Some(player) {
            goal(here)
        } else {
            self.between(here, state.flag()) + goal(state.flag())
        }
    }

    fn between(&self, a: Cell, b: Cell) -> u32 {
        u32::from(self.from[a.index()][b.index()])
    }

    /// Fewer plies than this cannot give `player` a win: each of its own
    /// actions moves it at most two cells (a jump), and every break and
    /// placement is one action.
    #[must_use]
    pub fn lower_bound(&self, state: &GameState, player: Player) -> u32 {
        match state.outcome() {
            Some(Outcome::Win { winner, .. }) if winner == player => return 0,
            Some(_) => return u32::MAX,
            None => {}
        }
        let here = state.position(player);
        let goal = |c: Cell| u32::from(self.to_goals[player.index()][c.index()]);
        let cells = if state.carrier() == Some(player) {
            goal(here)
        } else {
            let (to_flag, home) = (self.between(here, state.flag()), goal(state.flag()));
            if to_flag == u32::from(FAR) || home == u32::from(FAR) { u32::MAX } else { to_flag + home }
        };
        let by_flag = if cells >= u32::from(FAR) { u32::MAX } else { cells.div_ceil(2) };
        by_flag.min(crate_actions(state, player))
    }

    /// Fewer actions than this, both players' counted, cannot give `player`
    /// a win: [`Distances::lower_bound`] of its own actions, and an action
    /// of the opponent's before each of its turns after the current one. A
    /// turn holds at most one action and the bonus of one pickup (a carrier
    /// cannot pick the flag up again in its own turn), unless it is already
    /// under way with bonus actions left.
    #[must_use]
    pub fn plies_needed(&self, state: &GameState, player: Player) -> u32 {
        let own = self.lower_bound(state, player);
        if own == 0 || own == u32::MAX {
            return own;
        }
        let per_turn = 1 + u32::from(state.rules().flag_bonus_actions);
        if state.turn() == player {
            let bonus = u32::from(state.bonus_actions());
            let now = if bonus > 0 { bonus } else { per_turn };
            let later = own.saturating_sub(now);
            own + later.div_ceil(per_turn)
        } else {
            own + own.div_ceil(per_turn)
        }
    }
}

/// Fewer of its own actions than this cannot give `player` a win by
/// destroying crates: each crate takes a break for each stage it has left,
/// and a crate still to be placed one more (or its placement, when it is
/// the player's own).
#[must_use]
pub fn crate_actions(state: &GameState, player: Player) -> u32 {
    let mut need = u32::from(state.rules().crates_to_win.saturating_sub(state.destroyed(player)));
    // How many crates cost 1 to 5 actions each: a crate at stage `s` needs
    // 4 − s breaks, one the opponent has yet to place 4, one of the
    // player's own 5. The cheapest `need` of them, counted without a list.
    let mut by_cost = [0u32; 6];
    for stage in Stage::ALL {
        by_cost[4 - stage.index()] += state.crates(stage).count();
    }
    by_cost[4] += u32::from(state.placements_left(player.other()));
    by_cost[5] += u32::from(state.placements_left(player));
    let mut total = 0;
    for (cost, &count) in by_cost.iter().enumerate().skip(1) {
        let take = count.min(need);
        total += take * cost as u32;
        need -= take;
    }
    if need > 0 { u32::MAX } else { total }
}

struct Searcher<'a> {
    player: Player,
    distances: Distances,
    limits: SearchLimits<'a>,
    nodes: u64,
    aborted: bool,
    /// Depth already searched without a win, by position hash.
    failed: HashMap<u64, u32>,
    line: Vec<Action>,
}

impl Searcher<'_> {
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.limits.budget || self.limits.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Whether a win lies within `left` plies; the line is kept on success.
    fn search(&mut self, state: &GameState, left: u32) -> bool {
        let bound = self.distances.lower_bound(state, self.player);
        if bound == 0 {
            return true;
        }
        if bound > left || state.is_over() {
            return false;
        }
        if self.failed.get(&state.hash()).is_some_and(|&d| d >= left) {
            return false;
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return false;
        }
        let mut children: Vec<(u32, Action, GameState)> = state
            .legal_actions()
            .iter()
            .map(|&a| {
                let mut next = *state;
                next.play_unchecked(a);
                (self.distances.lower_bound(&next, self.player), a, next)
            })
            .collect();
        children.sort_by_key(|c| c.0);
        for (bound, action, next) in children {
            if bound >= left {
                continue;
            }
            self.line.push(action);
            if self.search(&next, left - 1) {
                return true;
            }
            self.line.pop();
            if self.aborted {
                return false;
            }
        }
        self.failed.insert(state.hash(), left);
        false
    }
}

/// A line found by always taking the action that brings `player`'s win
/// closest by the lower bound, the opponent stepping out of the way. Cheap,
/// and sound: a line it returns has been played by the engine to a win.
fn greedy_line(searcher: &mut Searcher<'_>, state: &GameState) -> Option<Vec<Action>> {
    let (player, depth) = (searcher.player, searcher.limits.depth);
    let mut state = *state;
    let mut line = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..depth {
        if searcher.distances.lower_bound(&state, player) == 0 {
            return Some(line);
        }
        if state.is_over() {
            return None;
        }
        seen.insert(state.hash());
        searcher.nodes += state.legal_actions().len() as u64;
        if searcher.out_of_budget() {
            return None;
        }
        let distances = &searcher.distances;
        let mover = state.turn();
        let here = state.position(player);
        let best = state
            .legal_actions()
            .iter()
            .filter_map(|&action| {
                let mut next = state;
                next.play_unchecked(action);
                if seen.contains(&next.hash()) {
                    return None;
                }
                let bound = distances.lower_bound(&next, player);
                let steps = distances.steps(&next, player);
                let key = if mover == player {
                    (bound, steps, 0, 0)
                } else {
                    // The helper prefers steps to placements, and keeps away.
                    let kind = match action {
                        Action::Move(_) => 0,
                        Action::Place(_) => 1,
                        Action::Steal | Action::Pass => 2,
                    };
                    let away = u32::MAX - distances.between(here, next.position(mover)).min(255);
                    (bound, steps, kind, away)
                };
                Some((key, action, next))
            })
            .min_by_key(|c| c.0)?;
        line.push(best.1);
        state = best.2;
    }
    (searcher.distances.lower_bound(&state, player) == 0).then_some(line)
}

/// Whether `player` can win from `state` within `limits.depth` actions if
/// the opponent helps. Also returns the positions visited.
#[must_use]
pub fn can_win_within(state: &GameState, player: Player, limits: SearchLimits<'_>) -> (Answer, u64) {
    let distances = Distances::new(state);
    let first = distances.lower_bound(state, player);
    let mut searcher = Searcher {
        player,
        distances,
        limits,
        nodes: 0,
        aborted: false,
        failed: HashMap::new(),
        line: Vec::new(),
    };
    if first == 0 {
        return (Answer::Proved { line: Vec::new() }, 0);
    }
    if first > limits.depth {
        return (Answer::Disproved, 0);
    }
    if let Some(line) = greedy_line(&mut searcher, state) {
        return (Answer::Proved { line }, searcher.nodes);
    }
    if searcher.aborted {
        return (Answer::Unknown, searcher.nodes);
    }
    // Iterative deepening from the lower bound: the first win found is a
    // shortest one.
    for depth in first..=limits.depth {
        searcher.line.clear();
        if searcher.search(state, depth) {
            let line = std::mem::take(&mut searcher.line);
            return (Answer::Proved { line }, searcher.nodes);
        }
        if searcher.aborted {
            return (Answer::Unknown, searcher.nodes);
        }
    }
    (Answer::Disproved, searcher.nodes)
}

/// Whether `state` is stuck for good: the game is not over and each player,
/// whenever it is to move, can only pass. No win is reachable from it.
#[must_use]
pub fn is_dead(state: &GameState) -> bool {
    if state.is_over() || state.legal_actions().as_slice() != [Action::Pass] {
        return false;
    }
    // Passing changes nothing but the counters; bonus actions may keep the
    // same player on the move for a few passes.
    let mut next = *state;
    while next.turn() == state.turn() {
        if next.legal_actions().as_slice() != [Action::Pass] {
            return false;
        }
        next.play_unchecked(Action::Pass);
    }
    next.legal_actions().as_slice() == [Action::Pass]
}

/// Whether some position reachable from `state` has no win reachable from
/// it (for either player), by exhausting the reachable positions: every
/// one is generated (at most `budget`), then the positions from which a
/// won position can be reached are marked backwards. Proved with the
/// shortest line to a position left unmarked; disproved when the whole
/// space was searched and every position can still lead to a win; unknown
/// when the space is larger than the budget (most levels: placements
/// multiply it). Draws by agreement are not actions and are left out.
#[must_use]
pub fn exhaust_dead(state: &GameState, budget: u64, cancel: Option<&AtomicBool>) -> (Answer, u64) {
    let mut index: HashMap<u64, usize> = HashMap::new();
    let mut nodes: Vec<GameState> = vec![*state];
    let mut parent: Vec<Option<(usize, Action)>> = vec![None];
    let mut parents_of: Vec<Vec<usize>> = vec![Vec::new()];
    index.insert(state.hash(), 0);
    let mut next = 0;
    while next < nodes.len() {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return (Answer::Unknown, nodes.len() as u64);
        }
        let here = nodes[next];
        if !here.is_over() {
            for &action in here.legal_actions().iter() {
                let mut child = here;
                child.play_unchecked(action);
                let id = match index.get(&child.hash()) {
                    Some(&id) => id,
                    None => {
                        if nodes.len() as u64 >= budget {
                            return (Answer::Unknown, nodes.len() as u64);
                        }
                        let id = nodes.len();
                        index.insert(child.hash(), id);
                        nodes.push(child);
                        parent.push(Some((next, action)));
                        parents_of.push(Vec::new());
                        id
                    }
                };
                parents_of[id].push(next);
            }
        }
        next += 1;
    }
    // Backwards from every won position: who can still reach a win.
    let mut can_win: Vec<bool> =
        nodes.iter().map(|n| matches!(n.outcome(), Some(Outcome::Win { .. }))).collect();
    let mut work: Vec<usize> = (0..nodes.len()).filter(|&i| can_win[i]).collect();
    while let Some(i) = work.pop() {
        for &p in &parents_of[i] {
            if !can_win[p] {
                can_win[p] = true;
                work.push(p);
            }
        }
    }
    let searched = nodes.len() as u64;
    // Positions were numbered breadth-first: the first unmarked one is the
    // nearest.
    let Some(dead) = (0..nodes.len()).find(|&i| !can_win[i] && !nodes[i].is_over()) else {
        return (Answer::Disproved, searched);
    };
    let mut line = Vec::new();
    let mut at = dead;
    while let Some((from, action)) = parent[at] {
        line.push(action);
        at = from;
    }
    line.reverse();
    (Answer::Proved { line }, searched)
}

/// Neighbours of `cell` within `open`.
pub(crate) fn open_neighbours(cell: Cell, open: Bitboard) -> impl Iterator<Item = (Dir, Cell)> {
    Dir::ALL.into_iter().filter_map(move |d| cell.offset(d).filter(|&n| open.has(n)).map(|n| (d, n)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The first count of destroying actions, as a sorted list of every
    /// crate's cost: the oracle of the counting version.
    fn crate_actions_by_sorting(state: &GameState, player: Player) -> u32 {
        let need = u32::from(state.rules().crates_to_win.saturating_sub(state.destroyed(player)));
        let mut costs: Vec<u32> = Vec::new();
        for stage in Stage::ALL {
            let breaks = 4 - stage.index() as u32;
            costs.extend(std::iter::repeat_n(breaks, state.crates(stage).count() as usize));
        }
        costs.extend(std::iter::repeat_n(4, state.placements_left(player.other()) as usize));
        costs.extend(std::iter::repeat_n(5, state.placements_left(player) as usize));
        if costs.len() < need as usize {
            u32::MAX
        } else {
            costs.sort_unstable();
            costs[..need as usize].iter().sum()
        }
    }

    #[test]
    fn crate_actions_counts_as_the_sorted_list_does() {
        let packs = crate::level::Pack::bundled_both();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut compared = 0;
        for (pack, level) in packs.iter().flat_map(|p| p.levels.iter().map(move |l| (p, l))) {
            let Ok(start) = level.start_state(pack.rules) else { continue };
            for _ in 0..20 {
                let mut state = start;
                for _ in 0..rng.random_range(0..120) {
                    let legal = state.legal_actions();
                    if state.is_over() || legal.is_empty() {
                        break;
                    }
                    state.play_unchecked(legal.as_slice()[rng.random_range(0..legal.len())]);
                }
                for player in [Player::One, Player::Two] {
                    assert_eq!(crate_actions(&state, player), crate_actions_by_sorting(&state, player));
                    compared += 1;
                }
            }
        }
        assert!(compared > 400, "{compared}");
    }
}
