//! Standoffs: layouts where each player, by standing guard, can stop the
//! other from ever bringing the flag home.
//!
//! A carrier that ends its turn beside the opponent is robbed (docs/rules.md
//! section 5), so a guard in front of a narrow crossing can turn a carrier
//! back for ever, and a carrier that cannot pass has no reason to come
//! near. When both players can do this to each other, neither wins by the
//! flag: the games that follow are chases and waiting, the stalls and
//! draws by repetition of self-play.
//!
//! The question is answered exactly for a two-token pursuit game on the
//! walls alone: the carrier steps or jumps (with the level's jump rule) and
//! wins on reaching a goal cell; the guard steps or jumps and wins by
//! standing beside the carrier on its own turn (a steal, which the rules
//! forbid from the carrier's start square). Both must act every turn. The
//! carrier starts on the flag's cell with the two bonus actions of a
//! pickup. Crates are left out: they break, and placements run out. The
//! carrier's winning states are computed backwards (an attractor), so the
//! answer is a proof within that game, not a sample.

use super::graph::MazeGraph;
use crate::rules::{Bitboard, Cell, Dir, GameState, JumpRule, Player};

/// Each cell's floor neighbours, in the order of [`Dir::ALL`]: the
/// pursuit asks for them millions of times, so they are looked up once.
struct Steps([[Option<Cell>; 4]; Cell::COUNT]);

impl Steps {
    fn new(floor: Bitboard) -> Steps {
        let mut out = [[None; 4]; Cell::COUNT];
        for cell in floor {
            for (i, dir) in Dir::ALL.into_iter().enumerate() {
                out[cell.index()][i] = cell.offset(dir).filter(|&c| floor.has(c));
            }
        }
        Steps(out)
    }

    fn get(&self, cell: Cell, dir: usize) -> Option<Cell> {
        self.0[cell.index()][dir]
    }
}

/// The index in [`Dir::ALL`] of the directions perpendicular to the one
/// at `dir`.
const PERPENDICULAR: [[usize; 2]; 4] = [[3, 1], [2, 0], [3, 1], [2, 0]];

/// The moves of a token on `from` with the other token on `other`: steps
/// onto free floor, and jumps over `other` under `jump`.
fn moves(steps: &Steps, jump: JumpRule, from: Cell, other: Cell, out: &mut Vec<Cell>) {
    out.clear();
    for (dir, sides) in PERPENDICULAR.iter().enumerate() {
        let Some(next) = steps.get(from, dir) else { continue };
        if next != other {
            out.push(next);
            continue;
        }
        if jump == JumpRule::None {
            continue;
        }
        match steps.get(next, dir) {
            Some(beyond) => out.push(beyond),
            None if jump == JumpRule::Diagonal => {
                for &side in sides {
                    if let Some(beside) = steps.get(next, side) {
                        out.push(beside);
                    }
                }
            }
            None => {}
        }
    }
}

fn adjacent(a: Cell, b: Cell) -> bool {
    a.distance(b) == 1
}

/// The pursuit game of one carrier against one guard on a board's floor,
/// solved backwards from the goal.
struct Pursuit {
    steps: Steps,
    jump: JumpRule,
    goals: Bitboard,
    /// Each floor cell's place in the state numbering.
    slot: [u32; Cell::COUNT],
    /// Floor cells.
    cells: usize,
    /// Each state's outcome under best play of both tokens.
    outcome: Vec<Outcome>,
}

/// A state: the carrier's and the guard's floor slots and who moves (0
/// the carrier, 1 the guard).
fn state_id(cells: usize, carrier: usize, guard: usize, turn: usize) -> usize {
    (carrier * cells + guard) * 2 + turn
}

impl Pursuit {
    fn new(state: &GameState, carrier: Player) -> Pursuit {
        let floor = state.floor();
        let mut slot = [u32::MAX; Cell::COUNT];
        let cells: Vec<Cell> = floor.iter().collect();
        for (i, c) in cells.iter().enumerate() {
            slot[c.index()] = i as u32;
        }
        let mut game = Pursuit {
            steps: Steps::new(floor),
            jump: state.rules().jump,
            goals: state.goals(carrier),
            slot,
            cells: cells.len(),
            outcome: Vec::new(),
        };
        game.solve(&cells, state.start(carrier));
        game
    }

    fn id(&self, carrier: Cell, guard: Cell, turn: usize) -> usize {
        state_id(self.cells, self.slot[carrier.index()] as usize, self.slot[guard.index()] as usize, turn)
    }

    /// Retrograde analysis: every state's moves are listed once, reversed
    /// into predecessor lists, and each side's forced wins spread back
    /// from where they are won — linear in the number of moves.
    fn solve(&mut self, cells: &[Cell], carrier_start: Cell) {
        let states = self.cells * self.cells * 2;
        let mut moves_of = vec![0u32; states];
        let mut edges: Vec<(u32, u32)> = Vec::with_capacity(states * 4);
        let mut carrier_won = Vec::new();
        let mut guard_won = Vec::new();
        let mut buf = Vec::with_capacity(8);
        for &c in cells {
            for &g in cells {
                if c == g {
                    continue;
                }
                // The carrier to move: a move onto a goal wins at once; a
                // carrier with no move passes.
                let me = self.id(c, g, 0);
                moves(&self.steps, self.jump, c, g, &mut buf);
                if buf.iter().any(|&n| self.goals.has(n)) {
                    carrier_won.push(me);
                }
                let passes = buf.is_empty();
                moves_of[me] = buf.len().max(1) as u32;
                for &n in &buf {
                    edges.push((me as u32, self.id(n, g, 1) as u32));
                }
                if passes {
                    edges.push((me as u32, self.id(c, g, 1) as u32));
                }
                // The guard to move: a steal ends the chase.
                let me = self.id(c, g, 1);
                if adjacent(c, g) && g != carrier_start {
                    guard_won.push(me);
                    continue;
                }
                moves(&self.steps, self.jump, g, c, &mut buf);
                if buf.is_empty() {
                    buf.push(g);
                }
                moves_of[me] = buf.len() as u32;
                for &n in &buf {
                    edges.push((me as u32, self.id(c, n, 0) as u32));
                }
            }
        }
        // Predecessor lists, by counting.
        let mut start = vec![0u32; states + 1];
        for &(_, to) in &edges {
            start[to as usize + 1] += 1;
        }
        for i in 0..states {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut preds = vec![0u32; edges.len()];
        for &(from, to) in &edges {
            preds[fill[to as usize] as usize] = from;
            fill[to as usize] += 1;
        }
        // `side` 0 spreads the carrier's wins, 1 the guard's: a state of the
        // winning side needs one winning move, the other side's every move.
        let mut outcome = vec![Outcome::Open; states];
        for (side, won, mark) in [(0, carrier_won, Outcome::Home), (1, guard_won, Outcome::Robbed)] {
            let mut left = moves_of.clone();
            let mut queue = won;
            for &w in &queue {
                outcome[w] = mark;
            }
            while let Some(w) = queue.pop() {
                for &p in &preds[start[w] as usize..start[w + 1] as usize] {
                    let p = p as usize;
                    if outcome[p] != Outcome::Open {
                        continue;
                    }
                    if p % 2 != side {
                        left[p] -= 1;
                        if left[p] > 0 {
                            continue;
                        }
                    }
                    outcome[p] = mark;
                    queue.push(p);
                }
            }
        }
        self.outcome = outcome;
    }

    /// The best the carrier can do, picking the flag up on `flag` with
    /// `bonus` actions more, against a guard on `guard`.
    fn after_pickup(&self, flag: Cell, guard: Cell, bonus: u32) -> Outcome {
        let mut buf = Vec::with_capacity(8);
        let mut here = vec![flag];
        for _ in 0..bonus {
            let mut next = Vec::new();
            for &c in &here {
                moves(&self.steps, self.jump, c, guard, &mut buf);
                for &n in &buf {
                    if self.goals.has(n) {
                        return Outcome::Home;
                    }
                    if !next.contains(&n) {
                        next.push(n);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            here = next;
        }
        // The last bonus action ends the turn: the guard moves next.
        here.iter().map(|&c| self.outcome[self.id(c, guard, 1)]).max().unwrap_or(Outcome::Robbed)
    }
}

/// How the chase after a pickup ends, worst for the carrier first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Outcome {
    /// The guard forces a steal.
    Robbed,
    /// Neither forces anything: the chase can go on for ever.
    Open,
    /// The carrier forces its way home.
    Home,
}

/// A standoff: the player first to the flag cannot bring it home past a
/// guard.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Standoff {
    /// The player first to the flag, who carries it.
    pub carrier: Player,
    /// The cells the guard can stand on by the pickup that serve it best.
    pub posts: Bitboard,
    /// Whether the guard also forces a steal from there (else it holds
    /// the carrier off and the chase can go on for ever).
    pub caught: bool,
}

/// The standoff of the race to the flag, if there is one. The player first
/// to the flag (walls only; the first mover on a tie) picks it up with its
/// bonus actions; the opponent stands on any cell it can have reached by
/// then. Where no such cell lets the carrier force its way home, winning
/// the race wins nothing: the first player gains by waiting, the second
/// by guarding, and games turn into waiting and chases — the stalls and
/// draws by repetition of self-play.
#[must_use]
pub fn standoff(state: &GameState, graph: &MazeGraph) -> Option<Standoff> {
    let flag = state.flag();
    let bonus = u32::from(state.rules().flag_bonus_actions);
    let first = state.turn();
    let to_flag = |p: Player| graph.distances(state.start(p))[flag.index()].map(u32::from);
    let (one, two) = (to_flag(first)?, to_flag(first.other())?);
    // Running for the flag, the first mover's n-th action is the game's
    // 2n - 1, the other's 2n: the first mover picks up first on a tie.
    let carrier = if one <= two { first } else { first.other() };
    let guard = carrier.other();
    let carrier_steps = if carrier == first { one } else { two };
    // Actions the guard has had when the carrier picks up.
    let guard_steps = if carrier == first { carrier_steps - 1 } else { carrier_steps };
    let game = Pursuit::new(state, carrier);
    let from_guard = graph.distances(state.start(guard));
    let mut best = Outcome::Home;
    let mut posts = Bitboard::EMPTY;
    for post in state.floor().iter().filter(|&c| c != flag) {
        if from_guard[post.index()].is_none_or(|d| u32::from(d) > guard_steps) {
            continue;
        }
        let outcome = game.after_pickup(flag, post, bonus);
        if outcome < best {
            best = outcome;
            posts = Bitboard::EMPTY;
        }
        if outcome == best {
            posts.insert(post);
        }
    }
    (best != Outcome::Home).then_some(Standoff { carrier, posts, caught: best == Outcome::Robbed })
}
