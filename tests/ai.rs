//! AI players, self-play and the solver.

use std::sync::atomic::AtomicBool;

use pushcrate::ai::{
    Agent, AlphaBeta, FeatureEvaluator, Game, Limits, RaceEvaluator, Weights, minimax, solve,
};
use pushcrate::analysis::Answer;
use pushcrate::level::Pack;
use pushcrate::level::record::GameRecord;
use pushcrate::rules::{Action, GameState, Outcome, Player, Rules, WinKind};
use pushcrate::sim::{self, BalanceCheck, BalanceVerdict, Config, GameResult, Report};

use crate::support::{play, random_level};

/// A level of either bundled pack, checked.
fn bundled_playable(id: &str) -> pushcrate::level::Playable {
    let pack = Pack::bundled_with(id).unwrap();
    pack.level(id).unwrap().playable(pack.rules).unwrap()
}

/// The greedy check of `playable` under `config`, its games dropped.
fn greedy_check(playable: &pushcrate::level::Playable, config: &Config) -> BalanceCheck {
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    sim::check_balance(playable, sim::Plan::only(&[[config.agents[0]; 2]]), config, &|_| {}, &stop).0
}

/// The start of a level of either bundled pack.
fn bundled(id: &str) -> GameState {
    let pack = Pack::bundled_with(id).unwrap();
    pack.level(id).unwrap().start_state(pack.rules).unwrap()
}

/// Plain minimax with the search's own rules: a finished game is a leaf; a
/// position met earlier in the game (`history`) or on the line searched is
/// a draw, 0; depth counts turns, so a bonus action keeps it. It counts the
/// positions it visits in `nodes`.
fn minimax_with_repetition(
    state: &GameState,
    depth: u32,
    ply: u32,
    history: &std::collections::HashSet<u64>,
    line: &mut Vec<u64>,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if state.result().is_some() {
        return minimax(&RaceEvaluator, state, 0, ply);
    }
    // The root of a decision is never scored as a repetition: a move must
    // be chosen there.
    if !line.is_empty() && (history.contains(&state.key()) || line.contains(&state.key())) {
        return 0;
    }
    if depth == 0 {
        return minimax(&RaceEvaluator, state, 0, ply);
    }
    line.push(state.key());
    let mut best = -i32::MAX;
    for &action in state.actions().iter() {
        let mut child = *state;
        child.apply(action);
        let value = if child.to_move() == state.to_move() {
            minimax_with_repetition(&child, depth, ply + 1, history, line, nodes)
        } else {
            -minimax_with_repetition(&child, depth - 1, ply + 1, history, line, nodes)
        };
        best = best.max(value);
    }
    line.pop();
    best
}

/// Positions of random games on small levels, with the hashes of each
/// game's earlier positions: steps and pushes more often than placements,
/// so that positions repeat and pickups and steals happen.
fn small_positions(count: usize) -> Vec<(GameState, Vec<u64>)> {
    use rand::{Rng, SeedableRng};
    let pack = Pack::bundled_flawed();
    let tight = Rules { crate_placements: 2, ..Rules::default() };
    let starts = [
        pack.level("tiny").unwrap().start_state(tight).unwrap(),
        pushcrate::level::render::level_from_diagram(
            "duel",
            ". . 2 . .\n. i . c .\n. . F . .\n. r . s .\n. . 1 . .",
        )
        .unwrap()
        .start_state(tight)
        .unwrap(),
        pushcrate::level::render::level_from_diagram(
            "walls",
            ". 2 . . .\n. # . # .\n. . F . .\n. # . # .\n. . . 1 .",
        )
        .unwrap()
        .start_state(Rules { crate_placements: 1, crates_to_win: 1, ..Rules::default() })
        .unwrap(),
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(25);
    let mut out = Vec::new();
    while out.len() < count {
        let mut state = starts[out.len() % starts.len()];
        let mut history = Vec::new();
        let plies = rng.random_range(0..16);
        for _ in 0..plies {
            if state.result().is_some() {
                break;
            }
            history.push(state.key());
            let action = crate::support::mostly_a_move(&state.actions(), &mut rng);
            state.apply(action);
        }
        if state.result().is_none() {
            out.push((state, history));
        }
    }
    out
}

#[test]
fn alpha_beta_equals_minimax_with_repetition_on_random_positions() {
    let mut fewer = 0;
    let positions = small_positions(450);
    for (n, (state, history)) in positions.iter().enumerate() {
        // Four and five turns reach transpositions at the same depth, where
        // the table cuts; five on the level with the fewest actions.
        let depth = if n % 3 == 2 { 5 } else { 2 + (n / 3 % 3) as u32 };
        let seen: std::collections::HashSet<u64> = history.iter().copied().collect();
        let (mut full_nodes, mut line) = (0, Vec::new());
        let want = minimax_with_repetition(state, depth, 0, &seen, &mut line, &mut full_nodes);

        // The search itself, from the root, with the game's history; a root
        // met before in the game is a draw to it, as to any inner node.
        let limits = Limits { depth, nodes: u64::MAX, time: None };
        let mut search = AlphaBeta::with_table(RaceEvaluator, limits, 16);
        search.set_history(history);
        let got = search.negamax(state, depth, -i32::MAX, i32::MAX, 0);
        let root_repeats = seen.contains(&state.key());
        assert_eq!(got, if root_repeats { 0 } else { want }, "negamax, position {n} at depth {depth}");
        assert!(search.nodes() <= full_nodes, "position {n}: {} > {full_nodes}", search.nodes());
        fewer += usize::from(search.nodes() < full_nodes);

        // The public entry point: iterative deepening, ordering, the table
        // kept across iterations.
        let mut search = AlphaBeta::with_table(RaceEvaluator, limits, 16);
        search.set_history(history);
        let (action, value) = search.best(state).unwrap();
        assert_eq!(value, want, "best(), position {n} at depth {depth}");
        assert!(state.actions().contains(action));
    }
    // Pruning must pay where the tree is large enough to prune.
    assert!(
        fewer * 2 > positions.len(),
        "alpha-beta visited fewer positions than minimax only {fewer} times"
    );
}

/// `each` positions of each of `open`, `gates` and `courtyard`, up to 30
/// mostly-moves from the start, from `seed`, with the games' earlier
/// positions: those not over.
fn bundled_positions(each: usize, seed: u64) -> Vec<(GameState, Vec<u64>)> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut positions = Vec::new();
    for name in ["open", "gates", "courtyard"] {
        for _ in 0..each {
            let mut state = bundled(name);
            let mut history = Vec::new();
            for _ in 0..rng.random_range(0..30) {
                if state.is_over() {
                    break;
                }
                history.push(state.key());
                let action = crate::support::mostly_a_move(&state.actions(), &mut rng);
                state.apply(action);
            }
            if !state.is_over() {
                positions.push((state, history));
            }
        }
    }
    positions
}

/// `:prune` searches one placement off the players' shortest ways on the
/// last turn, not all of them: such a crate changes no leg, so every one
/// leaves the same leaf value, and the search's value is the full
/// search's, to the same depth, with both evaluations, on small boards
/// and on bundled 9 × 9 ones; it visits fewer positions for it.
#[test]
fn a_pruning_search_keeps_the_full_searchs_value() {
    use pushcrate::ai::{Evaluator, FeatureEvaluator, Weights};
    let mut positions = small_positions(150);
    positions.extend(bundled_positions(12, 31));
    fn compare<E: Evaluator + Copy>(eval: E, positions: &[(GameState, Vec<u64>)]) -> (u64, u64) {
        let (mut full_nodes, mut pruned_nodes) = (0, 0);
        for (n, (state, history)) in positions.iter().enumerate() {
            let depth = if n < 150 { 2 + (n % 3) as u32 } else { 1 + (n % 2) as u32 };
            let limits = Limits { depth, nodes: u64::MAX, time: None };
            let mut full = AlphaBeta::with_table(eval, limits, 16);
            full.set_history(history);
            let mut pruned = AlphaBeta::with_table(eval, limits, 16).pruning();
            pruned.set_history(history);
            let want = full.negamax(state, depth, -i32::MAX, i32::MAX, 0);
            assert_eq!(
                pruned.negamax(state, depth, -i32::MAX, i32::MAX, 0),
                want,
                "position {n}, depth {depth}"
            );
            full_nodes += full.nodes();
            pruned_nodes += pruned.nodes();
            // The public entry point (which does not score its own root as
            // a repeat): the same value as the full search's.
            let mut full = AlphaBeta::with_table(eval, limits, 16);
            full.set_history(history);
            let mut pruned = AlphaBeta::with_table(eval, limits, 16).pruning();
            pruned.set_history(history);
            let best = |s: &mut AlphaBeta<E>| s.best(state).map(|(_, v)| v);
            assert_eq!(best(&mut pruned), best(&mut full), "best(), position {n}");
        }
        (full_nodes, pruned_nodes)
    }
    for (full, pruned) in
        [compare(RaceEvaluator, &positions), compare(FeatureEvaluator::new(Weights::fitted()), &positions)]
    {
        assert!(pruned * 10 < full * 9, "the pruning search visited {pruned} positions, the full one {full}");
    }
}

/// `:null` gives a node's turn away before its actions, searches the
/// position so left two turns shallower, and cuts the node off if its
/// side still holds beta: a forward pruning, so its values may differ
/// from the full search's, but it searches fewer positions to the same
/// depth (a sixth fewer at five turns on these), and it never cuts where a win is at stake (a won or lost
/// line is searched in full, so a forced win is still found).
#[test]
fn a_null_move_search_visits_fewer_positions_and_keeps_forced_wins() {
    use pushcrate::ai::{FeatureEvaluator, Weights};
    use rand::{Rng, SeedableRng};
    let eval = FeatureEvaluator::new(Weights::fitted());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
    let (mut full_nodes, mut null_nodes, mut differ) = (0, 0, 0);
    for name in ["open", "gates", "courtyard"] {
        for _ in 0..4 {
            let mut state = bundled(name);
            for _ in 0..rng.random_range(0..20) {
                if state.is_over() {
                    break;
                }
                let action = crate::support::mostly_a_move(&state.actions(), &mut rng);
                state.apply(action);
            }
            if state.is_over() {
                continue;
            }
            let limits = Limits { depth: 5, nodes: u64::MAX, time: None };
            let mut full = AlphaBeta::with_table(eval, limits, 18);
            let mut null = AlphaBeta::with_table(eval, limits, 18).null_moves();
            let want = full.best(&state).unwrap();
            let got = null.best(&state).unwrap();
            assert!(state.actions().contains(got.0));
            differ += usize::from(want.1 != got.1);
            full_nodes += full.nodes();
            null_nodes += null.nodes();
        }
    }
    assert!(
        null_nodes * 10 < full_nodes * 9,
        "the null-move search visited {null_nodes} positions, the full one {full_nodes}"
    );
    // A forward pruning: somewhere its value is not the full search's
    // (if it never differed, no null move would have cut anything).
    assert!(differ > 0, "the null-move search gave the full search's value on every position");
    // Wins are kept: on the small boards, every position whose full
    // search finds a forced win or loss gets the same value.
    let mut decided = 0;
    for (n, (state, history)) in small_positions(150).iter().enumerate() {
        let limits = Limits { depth: 4, nodes: u64::MAX, time: None };
        let mut full = AlphaBeta::with_table(eval, limits, 16);
        full.set_history(history);
        let want = full.negamax(state, 4, -i32::MAX, i32::MAX, 0);
        if want.abs() < pushcrate::ai::WIN_BOUND {
            continue;
        }
        decided += 1;
        let mut null = AlphaBeta::with_table(eval, limits, 16).null_moves();
        null.set_history(history);
        assert_eq!(null.negamax(state, 4, -i32::MAX, i32::MAX, 0), want, "position {n}");
    }
    assert!(decided > 0, "no decided position among the small ones");
}

/// `:narrow` searches, below the root, only the placements on the
/// players' ways and next to walls, and one other: on the last turn that
/// keeps the full search's value (every cell of a shortest way is kept),
/// higher up it is a forward pruning that visits fewer positions to the
/// same depth (at least a fifth fewer at three turns on these), and the
/// cells it keeps are the ways and the walls' neighbours.
#[test]
fn a_narrowing_search_keeps_the_last_turn_exact_and_visits_fewer_positions() {
    use pushcrate::ai::{Evaluator, narrow_cells, route_cells};
    // The cells kept: on `gates` at the start, the four gates (each
    // between two walls) and every cell of a shortest way; not a cell of
    // the open rank between the walls, far from both.
    let start = bundled("gates");
    let kept = narrow_cells(&start).unwrap();
    for gate in ["c3", "g3", "c7", "g7"] {
        assert!(kept.has(gate.parse().unwrap()), "{gate}");
    }
    assert!((route_cells(&start).unwrap() - kept).is_empty());
    assert!(!kept.has("a5".parse().unwrap()) && !kept.has("i5".parse().unwrap()));
    let mut positions = small_positions(150);
    positions.extend(bundled_positions(6, 53));
    fn compare<E: Evaluator + Copy>(eval: E, positions: &[(GameState, Vec<u64>)]) {
        let (mut full_nodes, mut narrow_nodes, mut differ) = (0, 0, 0);
        for (n, (state, history)) in positions.iter().enumerate() {
            // The last turn, below a root (ply 1): the full search's value.
            let limits = Limits { depth: 1, nodes: u64::MAX, time: None };
            let mut full = AlphaBeta::with_table(eval, limits, 16);
            full.set_history(history);
            let mut narrow = AlphaBeta::with_table(eval, limits, 16).narrowing();
            narrow.set_history(history);
            assert_eq!(
                narrow.negamax(state, 1, -i32::MAX, i32::MAX, 1),
                full.negamax(state, 1, -i32::MAX, i32::MAX, 1),
                "position {n}, the last turn"
            );
            // Three turns from the root: a legal action, fewer positions.
            let limits = Limits { depth: 3, nodes: u64::MAX, time: None };
            let mut full = AlphaBeta::with_table(eval, limits, 16);
            full.set_history(history);
            let mut narrow = AlphaBeta::with_table(eval, limits, 16).narrowing();
            narrow.set_history(history);
            let want = full.best(state).unwrap();
            let got = narrow.best(state).unwrap();
            assert!(state.actions().contains(got.0), "position {n}");
            differ += usize::from(want.1 != got.1);
            full_nodes += full.nodes();
            narrow_nodes += narrow.nodes();
        }
        assert!(
            narrow_nodes * 5 < full_nodes * 4,
            "the narrowing search visited {narrow_nodes} positions, the full one {full_nodes}"
        );
        // A forward pruning: somewhere its value is not the full search's.
        assert!(differ > 0, "the narrowing search gave the full search's value on every position");
    }
    compare(RaceEvaluator, &positions);
    compare(FeatureEvaluator::new(Weights::fitted()), &positions);
}

/// The value of `action` at `state`, searched `depth` turns with no limit.
fn value_at(state: &GameState, action: Action, depth: u32) -> i32 {
    let mut search = AlphaBeta::with_table(RaceEvaluator, Limits { depth, nodes: u64::MAX, time: None }, 16);
    let mut child = *state;
    child.apply(action);
    if child.to_move() == state.to_move() {
        search.negamax(&child, depth, -i32::MAX, i32::MAX, 1)
    } else {
        -search.negamax(&child, depth - 1, -i32::MAX, i32::MAX, 1)
    }
}

#[test]
fn a_search_out_of_positions_keeps_what_its_last_iteration_found() {
    // Walk a game on `open` to a position where two turns see a better
    // action than one turn does.
    let mut state = bundled("open");
    let unlimited =
        |depth| AlphaBeta::with_table(RaceEvaluator, Limits { depth, nodes: u64::MAX, time: None }, 16);
    let mut found = None;
    for step in 0..40 {
        let mut first = unlimited(1);
        let (shallow, _) = first.best(&state).unwrap();
        let mut deep = unlimited(2);
        let (better, _) = deep.best(&state).unwrap();
        if value_at(&state, better, 2) > value_at(&state, shallow, 2) {
            found = Some((state, shallow, first.nodes(), deep.nodes()));
            break;
        }
        let actions = state.actions();
        let list = actions.as_slice();
        state.apply(list[(step * 7) % list.len()]);
    }
    let (state, shallow, first, full) = found.expect("a position where depth changes the answer");
    // Budgets that stop the second iteration partway: once it has searched
    // an action better than the first iteration's, that action is played.
    let mut improved = 0;
    for nodes in (first + 1..full).step_by(5) {
        let mut search = AlphaBeta::new(RaceEvaluator, Limits { depth: 2, nodes, time: None });
        let (action, value) = search.best(&state).unwrap();
        if search.stopped() && action != shallow {
            assert_eq!(value, value_at(&state, action, 2), "{nodes} positions: {action}");
            assert!(value > value_at(&state, shallow, 2), "{nodes} positions: {action}");
            improved += 1;
        }
    }
    assert!(improved > 0, "no unfinished iteration changed the answer");
}

/// The evaluation finds both players' steps to bring the flag home with one
/// search from the flag; each must be what the step count of one player
/// alone gives, in random games of every bundled level and of random
/// levels (pickups, carriers, crates cutting the way and breaking).
#[test]
fn both_players_steps_are_each_players_steps() {
    use pushcrate::ai::{flag_steps, flag_steps_both};
    use rand::SeedableRng;
    let mut starts: Vec<GameState> = Pack::bundled_both()
        .iter()
        .flat_map(|pack| pack.levels.iter().map(|level| level.start_state(pack.rules).unwrap()))
        .collect();
    starts.extend((0..20).map(crate::support::random_start));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let (mut checked, mut carried, mut through_crates) = (0, 0, 0);
    for start in starts {
        for _ in 0..20 {
            let mut state = start;
            while !state.is_over() && state.actions_played() < 120 {
                let both = flag_steps_both(&state);
                for player in Player::BOTH {
                    assert_eq!(both[player], flag_steps(&state, player), "{player:?} in {state:?}");
                }
                checked += 1;
                carried += usize::from(state.carrier().is_some());
                let region = pushcrate::rules::Bitboard::fill(state.flag().into(), state.open());
                through_crates += usize::from(Player::BOTH.iter().any(|&p| !region.has(state.position(p))));
                let action = crate::support::mostly_a_move(&state.actions(), &mut rng);
                state.apply(action);
            }
        }
    }
    assert!(
        checked > 10_000 && carried > 1_000 && through_crates > 100,
        "{checked} positions, {carried} with the flag carried, {through_crates} with crates between a player and the flag"
    );
}

/// The search tries the table's move and the killers before generating the
/// other actions, works each action's rank out once, remembers the
/// sole-path cells, filters the history by a bit per key, counts both
/// players' steps home in one search and remembers evaluations; the plain
/// search does none of these.
/// Both must search the same positions in the same order: through whole
/// games of both bundled packs, seeded and node-limited as the balance
/// check's agents are, every decision has the same action, value and
/// number of positions, and the tables carried from decision to decision
/// stay the same.
#[test]
fn the_search_visits_what_the_plain_search_visits() {
    let mut decisions = 0;
    for (id, depth, nodes) in [
        ("arena", 6, 150_000),
        ("open", 4, 40_000),
        ("crates", 6, 20_000),
        ("arena", 4, 15_000),
        ("maze", 6, 30_000),
    ] {
        let limits = Limits { depth, nodes, time: None };
        let fast = [0, 1].map(|seat| AlphaBeta::new(RaceEvaluator, limits).seeded(seat));
        let plain =
            [0, 1].map(|seat| AlphaBeta::new(pushcrate::ai::PlainRaceEvaluator, limits).seeded(seat).plain());
        decisions += same_decisions(id, fast, plain);
    }
    assert!(decisions > 100, "{decisions} decisions");
}

/// The same with the fitted evaluation and null moves, whose tests of a
/// node evaluate it before its actions: remembered evaluations change no
/// decision there either.
#[test]
fn the_null_move_search_visits_what_the_plain_one_visits() {
    let eval = FeatureEvaluator::new(Weights::fitted());
    let mut decisions = 0;
    for (id, depth, nodes) in [("gates", 8, 40_000), ("crates", 10, 20_000), ("open", 6, 40_000)] {
        let limits = Limits { depth, nodes, time: None };
        let fast = [0, 1].map(|seat| AlphaBeta::new(eval, limits).seeded(seat).null_moves());
        let plain = [0, 1].map(|seat| AlphaBeta::new(eval, limits).seeded(seat).null_moves().plain());
        decisions += same_decisions(id, fast, plain);
    }
    assert!(decisions > 60, "{decisions} decisions");
}

/// Plays up to 40 actions of bundled level `id` with `fast`, one searcher
/// a seat, and checks that `plain` chooses each action with the same value
/// after as many positions; the number of decisions.
fn same_decisions<E: pushcrate::ai::Evaluator, F: pushcrate::ai::Evaluator>(
    id: &str,
    mut fast: [AlphaBeta<E>; 2],
    mut plain: [AlphaBeta<F>; 2],
) -> usize {
    let mut decisions = 0;
    let mut state = bundled(id);
    let mut history = Vec::new();
    while !state.is_over() && history.len() < 40 {
        let seat = state.turn().index();
        fast[seat].set_history(&history);
        plain[seat].set_history(&history);
        let got = fast[seat].best(&state);
        let want = plain[seat].best(&state);
        assert_eq!(got, want, "{id}, action {}", history.len());
        assert_eq!(fast[seat].nodes(), plain[seat].nodes(), "{id}, action {}", history.len());
        decisions += 1;
        history.push(state.key());
        state.apply(got.unwrap().0);
    }
    decisions
}

#[test]
fn every_agent_plays_legal_actions_on_random_levels() {
    let agents: Vec<Agent> = ["easy", "medium", "hard", "greedy", "alphabeta:2:500", "mcts:50"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    for seed in 0..12 {
        let (start, _, _) = random_level(seed);
        for agent in &agents {
            let mut player = agent.build(seed);
            let mut state = start;
            for _ in 0..40 {
                if state.is_over() {
                    break;
                }
                let action = player.choose(&state);
                assert!(state.play(action).is_ok(), "{agent} chose illegal {action}");
            }
        }
    }
}

#[test]
fn agents_parse_and_print() {
    for text in [
        "random",
        "greedy",
        "greedy:25",
        "greedy:25:fitted",
        "alphabeta:2:4000",
        "alphabeta:2:4000:fitted",
        "mcts:100",
    ] {
        let agent: Agent = text.parse().unwrap();
        assert_eq!(agent.to_string(), text);
    }
    assert_eq!("hard".parse::<Agent>().unwrap(), Agent::STRENGTHS[2].1);
    // `deep` has a name but is not a strength of the ladder.
    let deep: Agent = "deep".parse().unwrap();
    assert_eq!(deep, Agent::DEEP);
    assert_eq!(deep.label(), "deep (alphabeta:6:150000:fitted)");
    assert_eq!(deep.strength(), None);
    assert_eq!(Agent::MASTER.label(), "master (alphabeta:12:3000000:fitted)");
    // Every named agent that searches scores positions with the fitted
    // evaluation; the hand one is a suffix away, as earlier versions played.
    for (name, agent) in Agent::named() {
        match agent {
            Agent::Greedy { eval, .. } | Agent::AlphaBeta { eval, .. } => {
                assert_eq!(eval, pushcrate::ai::Eval::Fitted, "{name}");
            }
            Agent::Random | Agent::Mcts { .. } => {}
        }
    }
    assert_eq!(
        "alphabeta:6:150000:hand".parse::<Agent>().unwrap(),
        Agent::DEEP.with_eval(pushcrate::ai::Eval::Hand)
    );
    assert_eq!("greedy:25:hand".parse::<Agent>().unwrap().to_string(), "greedy:25");
    assert!("greedy:25:reuse".parse::<Agent>().is_err());
    let reusing: Agent = "alphabeta:8:150000:reuse".parse().unwrap();
    assert_eq!(
        reusing,
        Agent::AlphaBeta {
            depth: 8,
            nodes: 150_000,
            reuse: true,
            prune: false,
            null: false,
            narrow: false,
            eval: pushcrate::ai::Eval::Hand
        }
    );
    assert_eq!(reusing.to_string(), "alphabeta:8:150000:reuse");
    assert_eq!(reusing.label(), "alphabeta:8:150000:reuse");
    let pruning: Agent = "alphabeta:6:40000:fitted:prune".parse().unwrap();
    assert_eq!(
        pruning,
        Agent::AlphaBeta {
            depth: 6,
            nodes: 40_000,
            reuse: false,
            prune: true,
            null: false,
            narrow: false,
            eval: pushcrate::ai::Eval::Fitted
        }
    );
    assert_eq!(pruning.to_string(), "alphabeta:6:40000:prune:fitted");
    assert!("greedy:5:prune".parse::<Agent>().is_err());
    assert!("alphabeta:6:40000:prune:prune".parse::<Agent>().is_err());
    let null: Agent = "alphabeta:8:150000:fitted:null".parse().unwrap();
    assert_eq!(
        null,
        Agent::AlphaBeta {
            depth: 8,
            nodes: 150_000,
            reuse: false,
            prune: false,
            null: true,
            narrow: false,
            eval: pushcrate::ai::Eval::Fitted
        }
    );
    assert_eq!(null.to_string(), "alphabeta:8:150000:null:fitted");
    assert_eq!(null.to_string().parse::<Agent>().unwrap(), null);
    assert!("greedy:5:null".parse::<Agent>().is_err());
    assert!("alphabeta:8:150000:null:null".parse::<Agent>().is_err());
    for bad in ["", "smart", "greedy:x", "alphabeta:1:2:3", "alphabeta:1:2:reuse:reuse", "greedy:5:reuse"] {
        assert!(bad.parse::<Agent>().is_err(), "{bad}");
    }
    let error = "alphabeta:1:2:3".parse::<Agent>().unwrap_err().to_string();
    assert!(error.contains("`3`") && error.contains("reuse"), "{error}");
    // The evaluation is an option: `hand` (the default of the syntax) or
    // `fitted`, in any order with `reuse`, each at most once.
    use pushcrate::ai::Eval;
    assert_eq!("alphabeta:6:150000:hand".parse::<Agent>().unwrap(), Agent::DEEP.with_eval(Eval::Hand));
    let fitted: Agent = "alphabeta:6:150000:fitted".parse().unwrap();
    assert_eq!(
        fitted,
        Agent::AlphaBeta {
            depth: 6,
            nodes: 150_000,
            reuse: false,
            prune: false,
            null: false,
            narrow: false,
            eval: Eval::Fitted
        }
    );
    assert_eq!(fitted.to_string(), "alphabeta:6:150000:fitted");
    let both: Agent = "alphabeta:6:150000:fitted:reuse".parse().unwrap();
    assert_eq!(both.to_string(), "alphabeta:6:150000:reuse:fitted");
    assert_eq!(both.to_string().parse::<Agent>().unwrap(), both);
    for bad in
        ["alphabeta:6:150000:hand:fitted", "alphabeta:6:150000:fitted:fitted", "alphabeta:6:150000:hands"]
    {
        assert!(bad.parse::<Agent>().is_err(), "{bad}");
    }
}

/// The hand weights as features score every position as the hand
/// evaluation does, so `:hand` and the feature evaluation cannot drift
/// apart; and the fitted weights the crate ships load. Any weights score
/// the weighted sum of the features, saturating, clamped short of a win:
/// the shipped ones, and weights so large that the sum saturates.
#[test]
fn the_hand_weights_as_features_are_the_hand_evaluation() {
    use pushcrate::ai::{Evaluator, FeatureEvaluator, WIN_BOUND, Weights, features};
    use rand::SeedableRng;
    let hand = FeatureEvaluator::new(Weights::HAND);
    let huge = Weights([i32::MAX / 3, -i32::MAX, 7, i32::MAX, 1, -1, i32::MAX / 2, 3, -5, 9, -2]);
    let others = [Weights::fitted(), huge].map(|w| (w, FeatureEvaluator::new(w)));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut starts: Vec<GameState> = Pack::bundled_both()
        .iter()
        .flat_map(|pack| pack.levels.iter().filter_map(|level| level.start_state(pack.rules).ok()))
        .collect();
    starts.extend((0..10).map(crate::support::random_start));
    let mut checked = 0;
    for start in starts {
        for _ in 0..10 {
            let mut state = start;
            while state.actions_played() < 150 {
                for player in Player::BOTH {
                    assert_eq!(
                        hand.evaluate(&state, player),
                        RaceEvaluator.evaluate(&state, player),
                        "{state:?}"
                    );
                    for (weights, evaluator) in &others {
                        if !state.is_over() {
                            let sum = weights.score(&features(&state, player));
                            assert_eq!(
                                evaluator.evaluate(&state, player),
                                sum.clamp(-WIN_BOUND / 2, WIN_BOUND / 2),
                                "{weights:?} {state:?}"
                            );
                        }
                    }
                }
                checked += 1;
                if state.is_over() {
                    break;
                }
                let action = crate::support::mostly_a_move(&state.actions(), &mut rng);
                state.apply(action);
            }
        }
    }
    assert!(checked > 5_000, "{checked}");
    let shipped = Weights::from_toml(pushcrate::ai::FITTED_TOML).expect("the shipped weights load");
    assert_eq!(shipped, Weights::fitted());
    assert_ne!(shipped, Weights::HAND, "the shipped weights are fitted, not the hand ones");
    assert!(pushcrate::ai::FITTED_TOML.contains("# Made by `pushcrate tune"), "with their provenance");
}

/// The `block` feature's threat is a placement the mover can make that
/// lengthens the opponent's way to its next target: whenever it counts
/// one for the player to move, one of its legal placements does so; it is
/// 0 without placements, at most 8, and the feature is the players'
/// threats' difference (beside a race counted as without it).
#[test]
fn a_blocking_threat_is_a_placement_that_lengthens_a_way() {
    use pushcrate::ai::{FEATURE_NAMES, block_threats, features, flag_legs_both};
    use rand::SeedableRng;
    let block = FEATURE_NAMES.iter().position(|&n| n == "block").unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let leg = |state: &GameState, victim: Player| {
        let (to_flag, home) = flag_legs_both(state)[victim];
        if state.carrier() == Some(victim) { home } else { to_flag }
    };
    let (mut threats, mut checked) = (0, 0);
    for seed in 0..40 {
        let mut state = crate::support::random_start(seed);
        while !state.is_over() && state.actions_played() < 60 {
            let threat = block_threats(&state);
            for player in Player::BOTH {
                assert!((0..=8).contains(&threat[player]), "{state:?}");
                if state.placements_left(player) == 0 {
                    assert_eq!(threat[player], 0, "{state:?}");
                }
                let f = features(&state, player);
                assert_eq!(f[block], threat[player] - threat[player.other()]);
                // The search that counts the threats counts the race as the
                // evaluation's own search does.
                let legs = flag_legs_both(&state);
                let need = |p: Player| i64::from(legs[p].0 + legs[p].1);
                assert_eq!(i64::from(f[0]), need(player.other()) - need(player), "{state:?}");
            }
            let mover = state.turn();
            if threat[mover] > 0 {
                threats += 1;
                let victim = mover.other();
                let before = leg(&state, victim);
                let lengthens = state.actions().iter().any(|&action| {
                    matches!(action, Action::Place(_)) && {
                        let mut after = state;
                        after.apply(action);
                        leg(&after, victim) > before
                    }
                });
                assert!(lengthens, "a threat of {} with no such placement: {state:?}", threat[mover]);
            }
            checked += 1;
            let action = crate::support::mostly_a_move(&state.actions(), &mut rng);
            state.apply(action);
        }
    }
    assert!(checked > 500 && threats > 50, "{checked} positions, {threats} threats");
}

/// The `natural` feature weighs the placements kept by the crates the
/// level started with: a placement on `crates` (ten crates at the start)
/// counts ten against the placer, and on `gates` (none) nothing; the
/// placed crate itself is not counted as the level's.
#[test]
fn a_kept_placement_counts_the_levels_own_crates() {
    use pushcrate::ai::{FEATURE_NAMES, features};
    let natural = FEATURE_NAMES.iter().position(|&n| n == "natural").unwrap();
    let placed = |id: &str| {
        let mut state = bundled(id);
        assert!(Player::BOTH.iter().all(|&p| features(&state, p)[natural] == 0), "{id}: nothing placed yet");
        let place = state.actions().iter().copied().find(|a| matches!(a, Action::Place(_))).unwrap();
        let placer = state.turn();
        state.apply(place);
        (features(&state, placer)[natural], features(&state, placer.other())[natural])
    };
    assert_eq!(bundled("crates").all_crates().count(), 10);
    assert_eq!(placed("crates"), (-10, 10));
    assert_eq!(bundled("gates").all_crates().count(), 0);
    assert_eq!(placed("gates"), (0, 0));
}

/// `:fitted` plays with the shipped weights: its decisions are those of a
/// search with the feature evaluation and those weights, and differ from
/// the hand evaluation's somewhere in a game.
#[test]
fn a_fitted_agent_searches_with_the_shipped_weights() {
    use pushcrate::ai::{FeatureEvaluator, Weights};
    let start = bundled("courtyard");
    let agent: Agent = "alphabeta:3:20000:fitted".parse().unwrap();
    let mut player = agent.build(5);
    let mut reference = AlphaBeta::new(
        FeatureEvaluator::new(Weights::fitted()),
        Limits { depth: 3, nodes: 20_000, time: None },
    )
    .seeded(5);
    let mut hand = AlphaBeta::new(RaceEvaluator, Limits { depth: 3, nodes: 20_000, time: None }).seeded(5);
    let mut state = start;
    let mut differ = false;
    while !state.is_over() && state.actions_played() < 40 {
        let chosen = player.choose(&state);
        assert_eq!(Some(chosen), reference.best(&state).map(|(a, _)| a), "{state:?}");
        differ |= hand.best(&state).map(|(a, _)| a) != Some(chosen);
        state.play(chosen).unwrap();
    }
    assert!(differ, "the fitted agent played the hand evaluation's game");
}

/// `:weights=…` plays with the weights it names: the shipped weights
/// given that way play `:fitted`'s game, decision for decision, and other
/// weights another; the option reads back as it is written, and a list
/// that is not one whole number per feature is refused with the reason.
#[test]
fn an_agent_plays_with_weights_given_in_its_name() {
    use pushcrate::ai::{Eval, FEATURE_COUNT, Weights};
    let shipped = Weights::fitted();
    let named: Agent = format!("alphabeta:3:20000:weights={shipped}").parse().unwrap();
    assert_eq!(
        named,
        Agent::AlphaBeta {
            depth: 3,
            nodes: 20_000,
            reuse: false,
            prune: false,
            null: false,
            narrow: false,
            eval: Eval::Weights(shipped)
        }
    );
    assert_eq!(named.to_string(), format!("alphabeta:3:20000:weights={shipped}"));
    assert_eq!(named.to_string().parse::<Agent>().unwrap(), named);
    let greedy: Agent = format!("greedy:10:weights={}", Weights::HAND).parse().unwrap();
    assert_eq!(greedy.to_string().parse::<Agent>().unwrap(), greedy);
    let fitted: Agent = "alphabeta:3:20000:fitted".parse().unwrap();
    let mut doubled = shipped;
    doubled.0[0] *= 4;
    doubled.0[4] = -doubled.0[4];
    let other: Agent = format!("alphabeta:3:20000:weights={doubled}").parse().unwrap();
    let (mut a, mut b, mut c) = (named.build(5), fitted.build(5), other.build(5));
    let mut state = bundled("courtyard");
    let mut differ = false;
    while !state.is_over() && state.actions_played() < 40 {
        let chosen = a.choose(&state);
        assert_eq!(chosen, b.choose(&state), "{state:?}");
        differ |= c.choose(&state) != chosen;
        state.play(chosen).unwrap();
    }
    assert!(differ, "other weights played the shipped weights' game");
    let few = format!("alphabeta:3:20000:weights={}", ["1"; FEATURE_COUNT - 3].join("_"));
    let error = few.parse::<Agent>().unwrap_err().to_string();
    assert!(
        error.contains(&format!("{} weights given, {FEATURE_COUNT} wanted", FEATURE_COUNT - 3)),
        "{error}"
    );
    // Weights for all but `natural`, or all but `block` and `natural`, as
    // written before those were features, play with them at 0.
    for left_out in 1..=2 {
        let given = format!("alphabeta:3:20000:weights={}", vec!["7"; FEATURE_COUNT - left_out].join("_"));
        let mut padded = [7; FEATURE_COUNT];
        padded[FEATURE_COUNT - left_out..].fill(0);
        let Agent::AlphaBeta { eval, .. } = given.parse::<Agent>().unwrap() else { panic!("{given}") };
        assert_eq!(eval, Eval::Weights(Weights(padded)), "{given}");
    }
    // A `natural` of 0 is not written, so earlier names print as they did;
    // any other is.
    let ten = format!("alphabeta:3:20000:weights={}", ["7"; FEATURE_COUNT - 1].join("_"));
    assert_eq!(ten.parse::<Agent>().unwrap().to_string(), ten);
    let eleven = format!("alphabeta:3:20000:weights={}", ["7"; FEATURE_COUNT].join("_"));
    assert_eq!(eleven.parse::<Agent>().unwrap().to_string(), eleven);
    assert!(error.contains("race, destroyed"), "{error}");
    let error = "alphabeta:3:20000:weights=1_x".parse::<Agent>().unwrap_err().to_string();
    assert!(error.contains("`x` is not a whole number"), "{error}");
    let twice = format!("alphabeta:3:20000:fitted:weights={shipped}");
    assert!(twice.parse::<Agent>().unwrap_err().to_string().contains("given twice"), "{twice}");
}

/// The tuning command's pieces are deterministic for a seed: the same
/// options give the same positions and the same weights, byte for byte.
#[test]
fn tuning_is_deterministic_for_a_seed() {
    let options = pushcrate::tune::Options {
        seed: 4,
        levels_each: 1,
        sizes: vec![7],
        games: 2,
        agents: ["hard".parse().unwrap(); 2],
        opening: 2,
        sample_every: 3,
        threads: 2,
        label: None,
        with_block: false,
        with_natural: false,
    };
    let never = std::sync::Arc::new(AtomicBool::new(false));
    // The weights `options` give, the same on two threads as on one.
    let tuned = |options: pushcrate::tune::Options| {
        let on = |threads: usize| {
            let options = pushcrate::tune::Options { threads, ..options.clone() };
            pushcrate::tune::tune(&options, &|_| {}, &never).to_toml("pushcrate tune (test)", &options)
        };
        let two = on(2);
        assert_eq!(two, on(1), "whatever the threads");
        two
    };
    let first = tuned(options.clone());
    assert!(first.contains("[weights]") && first.contains("race = "), "{first}");
    assert!(first.contains("\nblock = 0\n"), "without --with-block, `block` is left out: {first}");
    assert!(first.contains("\nnatural = 0\n"), "without --with-natural, `natural` is left out: {first}");
    let with_block = tuned(pushcrate::tune::Options { with_block: true, ..options.clone() });
    assert!(!with_block.contains("\nblock = 0\n"), "with it, `block` is fitted: {with_block}");
    assert!(with_block.contains("\nnatural = 0\n"), "`natural` only with its own flag: {with_block}");
    let with_natural = tuned(pushcrate::tune::Options { with_natural: true, ..options.clone() });
    assert!(!with_natural.contains("\nnatural = 0\n"), "with it, `natural` is fitted: {with_natural}");
    let other =
        pushcrate::tune::tune(&pushcrate::tune::Options { seed: 5, ..options.clone() }, &|_| {}, &never)
            .to_toml("pushcrate tune (test)", &options);
    assert_ne!(first, other, "another seed, other games");
    // Labelled by a deeper search as well, the weights are as
    // deterministic, and other than the results' alone.
    let label =
        pushcrate::tune::Label { search: "alphabeta:3:3000:fitted".parse().unwrap(), result_share: 0.5 };
    let searched = tuned(pushcrate::tune::Options { label: Some(label), ..options.clone() });
    assert_ne!(searched, first, "the search's scores move the weights");
    assert!(searched.contains("0.50 the score of alphabeta:3:3000:fitted's search"), "{searched}");
}

/// A deeper search's label of a position is its win probability for the
/// player to move: a found win 1, a found loss 0, else between, and the
/// same for the same position; only fitted alpha-beta agents label.
#[test]
fn a_search_labels_a_position_with_its_win_probability() {
    let label =
        pushcrate::tune::Label { search: "alphabeta:3:3000:fitted".parse().unwrap(), result_share: 0.25 };
    let start = bundled("open");
    let score = label.score(&start).unwrap();
    assert!(score > 0.0 && score < 1.0, "{score}");
    assert_eq!(label.score(&start), Some(score));
    // A side that can win at once is scored a win.
    let mut state = bundled("tiny");
    let mut searched = None;
    while !state.is_over() && state.actions_played() < 300 {
        if let Some(s) = label.score(&state).filter(|&s| s == 1.0) {
            searched = Some(s);
            break;
        }
        let action = state.actions().as_slice()[0];
        state.play(action).unwrap();
    }
    assert_eq!(searched, Some(1.0), "a forced win on tiny is found");
    // Agents whose values are not logits cannot label.
    assert!(pushcrate::tune::Label::search_agent("alphabeta:3:3000:hand".parse().unwrap()).is_none());
    assert!(pushcrate::tune::Label::search_agent("greedy".parse().unwrap()).is_none());
    assert!(pushcrate::tune::Label::search_agent("deep".parse().unwrap()).is_some());
}

/// A reusing search takes the value a deeper search left in its table: a
/// position searched five turns deep, asked again for two, answers with
/// the five-turn value at once, where the exact search answers the
/// two-turn value. Over a game's decisions it still plays only legal
/// actions and finds every win the exact search finds.
#[test]
fn a_reusing_search_keeps_what_deeper_searches_learnt() {
    let limits = |depth| Limits { depth, nodes: u64::MAX, time: None };
    let mut differed = 0;
    for id in ["open", "courtyard", "gates"] {
        let mut state = bundled(id);
        for step in 0..12 {
            if state.is_over() {
                break;
            }
            let mut exact = AlphaBeta::new(RaceEvaluator, limits(5));
            let mut reusing = AlphaBeta::new(RaceEvaluator, limits(5)).reusing();
            let deep = exact.negamax(&state, 5, -i32::MAX, i32::MAX, 0);
            assert_eq!(reusing.negamax(&state, 5, -i32::MAX, i32::MAX, 0), deep, "{id}, step {step}");
            let shallow = exact.negamax(&state, 2, -i32::MAX, i32::MAX, 0);
            let before = reusing.nodes();
            assert_eq!(reusing.negamax(&state, 2, -i32::MAX, i32::MAX, 0), deep, "{id}, step {step}");
            assert_eq!(reusing.nodes(), before + 1, "{id}, step {step}: answered from the table");
            differed += usize::from(shallow != deep);

            let (want, want_value) = AlphaBeta::new(RaceEvaluator, limits(3)).best(&state).unwrap();
            let (got, got_value) = AlphaBeta::new(RaceEvaluator, limits(3)).reusing().best(&state).unwrap();
            assert!(state.actions().contains(got), "{id}: {got}");
            if want_value > pushcrate::ai::WIN_BOUND {
                assert!(
                    got_value > pushcrate::ai::WIN_BOUND,
                    "{id}: the exact search wins with {want}, {got} does not"
                );
            }
            let actions = state.actions();
            state.apply(actions.as_slice()[step * 5 % actions.len()]);
        }
    }
    assert!(differed > 0, "no position where two turns and five disagree");
}

/// The sequential balance check's config, hard against hard playing first
/// (a plan names each pairing's agents), on `threads` threads.
fn sequential_config(threads: usize) -> Config {
    let hard: Agent = "hard".parse().unwrap();
    Config {
        threads,
        sequential: Some(sim::Design::DEFAULT),
        ..Config::fixed([hard, hard], sim::SEQUENTIAL_CAP)
    }
}

fn config(threads: usize, games: u32) -> Config {
    Config {
        agents: ["greedy".parse().unwrap(), "medium".parse().unwrap()],
        games,
        seed: 7,
        max_actions: 300,
        threads,
        opening: 0,
        sequential: None,
    }
}

#[test]
fn self_play_is_the_same_with_one_or_two_threads() {
    let start = bundled("open");
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let one = sim::run(&start, &config(1, 60), &|| {}, &stop);
    let two = sim::run(&start, &config(2, 60), &|| {}, &stop);
    assert_eq!(one, two);
    assert_eq!(one.len(), 60);
    let names = ["a".to_owned(), "b".to_owned()];
    assert_eq!(
        Report::new("open", names.clone(), Player::One, &one, false),
        Report::new("open", names, Player::One, &two, false)
    );
    // Pairs swap colours: agent A is player 1 in even games.
    assert!(one.iter().all(|r| r.agent_for_one == (r.index % 2) as usize));
    let different_seed = sim::run(&start, &Config { seed: 8, ..config(1, 60) }, &|| {}, &stop);
    assert_ne!(one, different_seed);
}

#[test]
fn the_report_adds_up() {
    let start = bundled("open");
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let results = sim::run(&start, &config(2, 100), &|| {}, &stop);
    let report = Report::new("open", ["a".into(), "b".into()], Player::One, &results, false);
    assert_eq!(report.games, 100);
    assert_eq!(
        report.wins_by_player.iter().sum::<u32>() + report.draws + report.stalls + report.repetitions,
        100
    );
    // A game ended by repetition did repeat its last position a third time.
    let pack = Pack::bundled();
    for result in results.iter().filter(|r| r.repeated) {
        let mut state = start;
        let mut seen = vec![state.hash()];
        for &action in &result.actions {
            state.play(action).unwrap();
            seen.push(state.hash());
        }
        assert_eq!(seen.iter().filter(|&&h| h == state.hash()).count(), 3, "game {}", result.index);
    }
    assert_eq!(report.wins_by_agent.iter().sum::<u32>(), report.wins_by_flag + report.wins_by_crates);
    assert!(report.first_player_score.low <= report.first_player_score.rate);
    assert!(report.length.median > 0.0 && report.length.p90 >= report.length.median);
    // Every game replays from its record to the same end.
    for result in &results {
        let end = sim::record(pack.level("open").unwrap(), pack.rules, result).replay(&pack).unwrap();
        assert_eq!(end.outcome(), result.outcome);
    }
}

#[test]
fn a_stopped_run_keeps_only_finished_games() {
    let start = bundled("open");
    let stop = std::sync::Arc::new(AtomicBool::new(true));
    assert!(sim::run(&start, &config(1, 10), &|| {}, &stop).is_empty());
}

#[test]
fn stalled_games_are_recorded_and_open_at_their_last_action() {
    let start = bundled("maze");
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let cfg = Config {
        agents: ["random".parse().unwrap(), "random".parse().unwrap()],
        max_actions: 20,
        ..config(1, 4)
    };
    let results = sim::run(&start, &cfg, &|| {}, &stop);
    let stalled: Vec<_> = results.iter().filter(|r| r.stalled()).collect();
    assert!(!stalled.is_empty(), "random play stalls on a maze within 20 actions");
    let pack = Pack::bundled_flawed();
    let maze = pack.level("maze").unwrap();
    for result in stalled {
        let text = sim::record(maze, pack.rules, result).to_string();
        let record: GameRecord = text.parse().unwrap();
        let positions = record.positions(&pack).unwrap();
        assert_eq!(positions.len(), 21);
        assert!(!positions.last().unwrap().is_over());
        // The record names the layout, and refuses one edited since.
        assert!(text.starts_with("maze@"), "{text}");
        let mut edited = pack.clone();
        let level = edited.levels.iter_mut().find(|l| l.id == "maze").unwrap();
        level.flag = Some("a1".parse().unwrap());
        let refused = record.positions(&edited).unwrap_err();
        assert!(matches!(refused, pushcrate::level::record::RecordError::LayoutChanged { .. }), "{refused}");
        assert!(refused.to_string().contains("edited since"), "{refused}");
    }
}

#[test]
fn the_ladder_starts_right() {
    // Medium against easy over a few pairs: the full ladder is measured in
    // docs/ai.md, where each strength scores at least 65% against the one below.
    let start = bundled("open");
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let cfg = Config { agents: ["medium".parse().unwrap(), "easy".parse().unwrap()], ..config(2, 40) };
    let results = sim::run(&start, &cfg, &|| {}, &stop);
    let report = Report::new("open", ["medium".into(), "easy".into()], Player::One, &results, false);
    assert!(report.agent_a_score.rate >= 0.65, "{report:?}");
}

#[test]
fn the_solver_proves_constructed_wins() {
    // Player 1 carries the flag on c2 with one bonus action left: c1 wins.
    let mut one = bundled("tiny");
    play(&mut one, "c2 d5 c3 c2");
    // Two bonus actions left after the pickup: c2, c1.
    let mut two = bundled("tiny");
    play(&mut two, "c2 d5 c3");
    // No bonus left, player 2 to answer once: c2, anything, then a goal.
    let mut three = bundled("tiny");
    play(&mut three, "c2 d5 c3 b3 c3 d4");
    for (state, n) in [(one, 1), (two, 2), (three, 3)] {
        let (verdict, _) = solve(&state, n, 1_000_000, None);
        let Answer::Proved { line } = verdict else { panic!("no forced win in {n}: {verdict:?}") };
        assert_eq!(line.len() as u32, n);
        let mut replay = state;
        for &a in &line {
            replay.play(a).unwrap();
        }
        assert_eq!(replay.outcome(), Some(Outcome::Win { winner: Player::One, by: WinKind::Flag }));
        assert_eq!(solve(&state, n - 1, 1_000_000, None).0, Answer::Disproved, "not sooner than {n}");
    }
}

#[test]
fn the_solver_proves_there_is_none() {
    // From the start of the tiny board player 1 needs five actions.
    let tiny = bundled("tiny");
    assert_eq!(solve(&tiny, 4, 10_000_000, None).0, Answer::Disproved);
    assert!(matches!(solve(&tiny, 5, 10_000_000, None).0, Answer::Proved { .. }));
    // On the open board no win is near.
    assert_eq!(solve(&bundled("open"), 6, 10_000_000, None).0, Answer::Disproved);
    // A tiny budget admits ignorance.
    assert_eq!(solve(&bundled("open"), 14, 10, None).0, Answer::Unknown);
}

/// Greedy play on `serpent` repeats one game: the report counts one
/// distinct game, its interval is that of one game, and the verdict is
/// "uncertain", not a confident 100%.
#[test]
fn repeated_games_are_one_observation() {
    let start = bundled("serpent");
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let greedy = "greedy".parse().unwrap();
    let config = Config { threads: 1, ..Config::fixed([greedy, greedy], 20) };
    let results = sim::run(&start, &config, &|| {}, &stop);
    let report = Report::new("serpent", ["a".into(), "b".into()], Player::One, &results, false);
    assert_eq!(report.games, 20);
    assert!(report.distinct_games < 5, "{} distinct", report.distinct_games);
    assert!(report.first_player_score.low < 0.6, "{:?}", report.first_player_score);
    assert!(report.verdicts.uncertain && !report.verdicts.unbalanced);
}

/// The solver settles `tiny` (a forced first-player win in five actions):
/// the balance check says so and its verdict is decided, however the
/// greedy games came out.
#[test]
fn a_forced_win_settles_the_balance_check() {
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let greedy: pushcrate::ai::Agent = "greedy".parse().unwrap();
    let config = Config { threads: 1, ..Config::fixed([greedy, greedy], 10) };
    let ticks = std::sync::Mutex::new(Vec::new());
    let record = |tick: sim::Tick| ticks.lock().unwrap().push(tick);
    let (check, games) = sim::check_balance(
        &bundled_playable("tiny"),
        sim::Plan::only(&[[greedy, greedy]]),
        &config,
        &record,
        &stop,
    );
    let forced = check.forced_win.as_ref().expect("the solver settles tiny");
    assert_eq!((forced.player, forced.line.len()), (Player::One, 5));
    assert_eq!((check.verdict, check.favoured), (BalanceVerdict::Decided, Some(Player::One)));
    // A proof needs no game: none is played, and the games announced are
    // taken back.
    assert_eq!((check.reports.len(), games.len()), (0, 0));
    assert_eq!(ticks.into_inner().unwrap(), vec![sim::Tick::FewerGames(10)]);
    assert!(
        check.summary().starts_with("decided: player 1 forces a win in 5 actions"),
        "{}",
        check.summary()
    );
    let check = greedy_check(&bundled_playable("open"), &config);
    assert!(check.forced_win.is_none());
    assert_ne!(check.verdict, BalanceVerdict::Decided);
}

/// The sequential check stops each pairing once its test is settled: on
/// `maze`, which the first player wins, hard stops long before its
/// cap, the report counts only the games played, the progress is told of
/// every game, of the test after each batch and of the games not played,
/// and one or two threads give the same check.
#[test]
fn the_sequential_check_stops_at_its_verdict_whatever_the_threads() {
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let hard: Agent = "hard".parse().unwrap();
    let pairings = [[hard, hard]];
    let run = |threads: usize| {
        let config = sequential_config(threads);
        let ticks = std::sync::Mutex::new(Vec::new());
        let record = |tick: sim::Tick| ticks.lock().unwrap().push(tick);
        let (check, games) = sim::check_balance(
            &bundled_playable("maze"),
            sim::Plan::only(&pairings),
            &config,
            &record,
            &stop,
        );
        (check, games, ticks.into_inner().unwrap())
    };
    let (check, games, ticks) = run(1);
    assert_eq!(
        (check.verdict, check.favoured),
        (BalanceVerdict::Unbalanced, Some(Player::One)),
        "{}",
        check.summary()
    );
    let test = check.reports[0].sequential.expect("a sequential run");
    assert_eq!(test.decision, sim::Decision::FirstAhead);
    let played = games[0].len() as u32;
    assert!(played < 40 && played == test.games && played == check.reports[0].games, "{played} games");
    let counted = ticks.iter().filter(|t| **t == sim::Tick::Game).count() as u32;
    assert!(counted >= played, "every kept game was counted");
    assert!(ticks.iter().any(|t| matches!(t, sim::Tick::Look { pairing: 0, test } if test.is_settled())));
    // What was not played of the announced games is withdrawn: the
    // games counted come to the games announced.
    assert!(ticks.contains(&sim::Tick::FewerGames(sim::SEQUENTIAL_CAP - counted)), "{ticks:?}");
    assert!(check.summary().contains("the sequential test settling"), "{}", check.summary());
    let (two, two_games, _) = run(2);
    assert_eq!(two, check);
    assert_eq!(two_games, games);
}

/// A report whose first-player score is `wins` of `games` (all distinct).
fn report_with(wins: u32, games: u32) -> Report {
    let results: Vec<GameResult> = (0..games)
        .map(|i| GameResult {
            index: i,
            agent_for_one: (i % 2) as usize,
            outcome: Some(Outcome::Win {
                winner: if i < wins { Player::One } else { Player::Two },
                by: WinKind::Flag,
            }),
            repeated: false,
            length: 10 + i,
            actions: vec![Action::Pass; i as usize + 1],
            thinking: pushcrate::sim::Thinking::default(),
        })
        .collect();
    Report::new("level", ["a".into(), "b".into()], Player::One, &results, false)
}

/// 400 distinct games with the first player's score within 40–60%.
fn even() -> Report {
    report_with(200, 400)
}

/// The first player clearly ahead.
fn first_ahead() -> Report {
    report_with(320, 400)
}

/// The second player clearly ahead.
fn second_ahead() -> Report {
    report_with(80, 400)
}

/// An interval across the 60% edge.
fn straddling() -> Report {
    report_with(230, 400)
}

/// A level is balanced or unbalanced only when every pairing says so; a
/// disagreement, or an interval across an edge of 40–60%, is uncertain.
#[test]
fn the_balance_verdict_needs_every_pairing_to_agree() {
    let check = |runs: Vec<Report>| BalanceCheck::new("level", runs, None);
    let both_even = check(vec![even(), even()]);
    assert_eq!((both_even.verdict, both_even.pairings_disagree), (BalanceVerdict::Balanced, false));
    let both_ahead = check(vec![first_ahead(), first_ahead()]);
    assert_eq!((both_ahead.verdict, both_ahead.favoured), (BalanceVerdict::Unbalanced, Some(Player::One)));
    assert_eq!(check(vec![second_ahead(), second_ahead()]).favoured, Some(Player::Two));
    for runs in [vec![even(), first_ahead()], vec![first_ahead(), second_ahead()], vec![even(), straddling()]]
    {
        let disagreeing = check(runs);
        assert_eq!(disagreeing.verdict, BalanceVerdict::Uncertain);
        assert!(disagreeing.pairings_disagree);
        assert!(disagreeing.summary().contains("disagree"), "{}", disagreeing.summary());
    }
    let unsure = check(vec![straddling(), straddling()]);
    assert_eq!((unsure.verdict, unsure.pairings_disagree), (BalanceVerdict::Uncertain, false));
}

/// A pairing whose sequential test settled with its mean score within the
/// indifference zone of an edge is named in the summary, so
/// that a designer knows the verdict sits where another seed may differ;
/// a mean clear of both zones, or a check with no verdict, has no note.
#[test]
fn a_verdict_near_an_edge_says_so() {
    use sim::{Decision, Design, Pentanomial, Sequential};
    let settled = |counts: [u32; 5], decision| {
        even().with_sequential(Sequential {
            pairs: Pentanomial { counts },
            decision,
            ..Sequential::new(Design::DEFAULT, 400)
        })
    };
    // 57.5% and 50% over 40 pairs, both settled balanced.
    let close = BalanceCheck::new(
        "level",
        vec![settled([5, 5, 20, 5, 5], Decision::Balanced), settled([4, 6, 14, 6, 10], Decision::Balanced)],
        None,
    );
    assert_eq!(close.verdict, BalanceVerdict::Balanced);
    assert_eq!(close.near_edge().iter().map(|&(_, _, edge)| edge).collect::<Vec<_>>(), [0.6]);
    assert!(
        close.summary().contains(
            "close to an edge: under a the first player scores 57.5% over the pairs, within 5 points of 60%"
        ),
        "{}",
        close.summary()
    );
    // A view that shows the note apart asks for the verdict without it.
    assert!(!close.summary_without_near_edge().contains("close to an edge"));
    assert!(close.near_edge_note().is_some_and(|note| close.summary().ends_with(&note)));
    let clear = BalanceCheck::new(
        "level",
        vec![settled([5, 5, 20, 5, 5], Decision::Balanced), settled([5, 5, 20, 5, 5], Decision::Balanced)],
        None,
    );
    assert!(clear.near_edge().is_empty() && !clear.summary().contains("close to an edge"));
    // A generated level's notes carry the mark too.
    assert!(pushcrate::generate::balance_note(&close).ends_with("; close to an edge of the 40–60% band"));
    assert!(!pushcrate::generate::balance_note(&clear).contains("edge"));
    // Disagreeing pairings give no verdict to be near an edge with.
    let split = BalanceCheck::new(
        "level",
        vec![
            settled([4, 6, 14, 6, 10], Decision::Balanced),
            settled([0, 2, 8, 10, 20], Decision::FirstAhead),
        ],
        None,
    );
    assert_eq!(split.verdict, BalanceVerdict::Uncertain);
    assert!(
        split.near_edge().is_empty() && !split.summary().contains("close to an edge"),
        "{}",
        split.summary()
    );
}

/// Where the pairings disagree, the referee settles it: a side holds when
/// the referee and one pairing share it, and the summary names who
/// disagreed; a referee that shares no pairing's side leaves it uncertain.
#[test]
fn a_referee_settles_a_disagreement_with_one_pairing_on_its_side() {
    let ahead = BalanceCheck::refereed("level", vec![first_ahead(), straddling()], first_ahead(), None);
    assert_eq!((ahead.verdict, ahead.favoured), (BalanceVerdict::Unbalanced, Some(Player::One)));
    assert!(ahead.pairings_disagree && ahead.refereed && ahead.reports.len() == 3);
    assert!(
        ahead.summary().contains("disagreed, unable to tell, and the referee settled it"),
        "{}",
        ahead.summary()
    );
    let even_check = BalanceCheck::refereed("level", vec![first_ahead(), even()], even(), None);
    assert_eq!(even_check.verdict, BalanceVerdict::Balanced);
    let unsure = BalanceCheck::refereed("level", vec![first_ahead(), even()], straddling(), None);
    assert_eq!((unsure.verdict, unsure.favoured), (BalanceVerdict::Uncertain, None));
    assert!(unsure.summary().contains("the referee cannot tell"), "{}", unsure.summary());
    let alone = BalanceCheck::refereed("level", vec![first_ahead(), even()], second_ahead(), None);
    assert_eq!(alone.verdict, BalanceVerdict::Uncertain);
    assert!(alone.summary().contains("no pairing shares the referee's"), "{}", alone.summary());
    // Pairings that agree need no referee: its report is not kept.
    let agreed = BalanceCheck::refereed("level", vec![even(), even()], second_ahead(), None);
    assert_eq!((agreed.verdict, agreed.refereed, agreed.reports.len()), (BalanceVerdict::Balanced, false, 2));
}

/// The check calls its referee in only where the pairings disagree, and
/// says how many more games that costs before they are played: on `maze`
/// hard finds the first player ahead and random play cannot tell.
#[test]
fn the_check_plays_its_referee_only_where_the_pairings_disagree() {
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let hard: Agent = "hard".parse().unwrap();
    let random: Agent = "random".parse().unwrap();
    let config = Config { threads: 1, ..Config::fixed([hard, hard], 20) };
    let ticks = std::sync::Mutex::new(Vec::new());
    let record = |tick: sim::Tick| ticks.lock().unwrap().push(tick);
    let pairings = [[hard, hard], [random, random]];
    let plan = sim::Plan { pairings: &pairings, referee: Some([hard, hard]) };
    let (check, games) = sim::check_balance(&bundled_playable("maze"), plan, &config, &record, &stop);
    assert_eq!(
        (check.verdict, check.favoured),
        (BalanceVerdict::Unbalanced, Some(Player::One)),
        "{}",
        check.summary()
    );
    assert!(check.refereed && check.pairings_disagree);
    assert_eq!((check.reports.len(), games.len(), games[2].len()), (3, 3, 20));
    let ticks = ticks.into_inner().unwrap();
    let more = ticks.iter().position(|t| *t == sim::Tick::MoreGames(20)).expect("the referee was announced");
    assert_eq!(more, 40, "announced after the pairings' 40 games");
    assert_eq!(ticks.iter().filter(|t| **t == sim::Tick::Game).count(), 60);
    assert!(check.summary().contains("random"), "{}", check.summary());
    // Without a referee the same disagreement is uncertain.
    let (check, _) =
        sim::check_balance(&bundled_playable("maze"), sim::Plan::only(&pairings), &config, &|_| {}, &stop);
    assert_eq!((check.verdict, check.refereed, check.reports.len()), (BalanceVerdict::Uncertain, false, 2));
    // Pairings that agree are not refereed.
    let agreeing = [[random, random], [random, random]];
    let plan = sim::Plan { pairings: &agreeing, referee: Some([hard, hard]) };
    let (check, games) = sim::check_balance(&bundled_playable("maze"), plan, &config, &|_| {}, &stop);
    assert_eq!((check.refereed, check.reports.len(), games.len()), (false, 2, 2));
}

/// Once the first pairing calls a player ahead, the next asks only whether
/// it agrees, and stops when that one edge settles: on `maze` hard finds
/// the first player ahead; random play, asked only that, settles that the
/// first player is not ahead (every game a stall: both edges settle
/// inside on the same pair), and the pairings disagree.
#[test]
fn the_second_pairing_asks_only_what_can_change_the_verdict() {
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let hard: Agent = "hard".parse().unwrap();
    let random: Agent = "random".parse().unwrap();
    let config = sequential_config(1);
    let pairings = [[hard, hard], [random, random]];
    let (check, games) =
        sim::check_balance(&bundled_playable("maze"), sim::Plan::only(&pairings), &config, &|_| {}, &stop);
    let first = check.reports[0].sequential.unwrap();
    let second = check.reports[1].sequential.unwrap();
    assert_eq!((first.question, first.decision), (sim::Question::Verdict, sim::Decision::FirstAhead));
    assert_eq!(second.question, sim::Question::FirstAhead);
    assert!(
        matches!(second.decision, sim::Decision::NotFirstAhead | sim::Decision::Balanced),
        "{}",
        check.summary()
    );
    assert_eq!(second.upper, sim::Edge::Inside);
    // A pairing that answered the one question says so in the summary.
    let mut not_ahead = sim::Sequential::new(sim::Design::DEFAULT, 400).asking(sim::Question::FirstAhead);
    // A mean of 37.5%: plainly under the upper edge, near the lower one.
    for half_points in [1, 2].into_iter().cycle().take(60) {
        if !not_ahead.is_settled() {
            not_ahead.observe(half_points, false);
        }
    }
    assert_eq!(not_ahead.decision, sim::Decision::NotFirstAhead);
    let check =
        BalanceCheck::new("level", vec![first_ahead(), straddling().with_sequential(not_ahead)], None);
    assert!(check.pairings_disagree && check.verdict == BalanceVerdict::Uncertain);
    assert!(check.summary().contains("player 1 not ahead (all it was asked)"), "{}", check.summary());
    assert_eq!(games[1].len() as u32, second.games);
    assert!(check.pairings_disagree && check.verdict == BalanceVerdict::Uncertain, "{}", check.summary());
}

/// Where the referee finds the level even, a pairing asked only whether
/// the first player is ahead goes on to the whole verdict, from the games
/// it played: on `gates` hard finds the first player ahead; greedy, asked
/// only that, answers "not ahead"; greedy as referee finds the games even,
/// and greedy's run, asked the whole verdict, plays on to the same answer
/// with the same games the referee played from the start, so the two
/// share it and the level is balanced.
#[test]
fn a_pairing_asked_one_edge_goes_on_to_share_the_referees_verdict() {
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let hard: Agent = "hard".parse().unwrap();
    let greedy: Agent = "greedy".parse().unwrap();
    let config = sequential_config(1);
    let pairings = [[hard, hard], [greedy, greedy]];
    let (alone, alone_games) =
        sim::check_balance(&bundled_playable("gates"), sim::Plan::only(&pairings), &config, &|_| {}, &stop);
    let narrowed = alone.reports[1].sequential.unwrap();
    assert_eq!(narrowed.decision, sim::Decision::NotFirstAhead, "{}", alone.summary());
    assert_eq!(alone.verdict, BalanceVerdict::Uncertain);
    let ticks = std::sync::Mutex::new(Vec::new());
    let record = |tick: sim::Tick| ticks.lock().unwrap().push(tick);
    let plan = sim::Plan { pairings: &pairings, referee: Some([greedy, greedy]) };
    let (check, games) = sim::check_balance(&bundled_playable("gates"), plan, &config, &record, &stop);
    assert_eq!(check.verdict, BalanceVerdict::Balanced, "{}", check.summary());
    assert!(check.refereed && check.reports.len() == 3 && games.len() == 3);
    let resumed = check.reports[1].sequential.unwrap();
    assert_eq!((resumed.question, resumed.decision), (sim::Question::Verdict, sim::Decision::Balanced));
    assert!(resumed.games > narrowed.games);
    assert_eq!(games[1].len() as u32, resumed.games);
    // It went on from its own games, and played what the referee, asking
    // the whole verdict from the start with the same agents, played.
    let actions = |results: &[GameResult]| results.iter().map(|r| r.actions.clone()).collect::<Vec<_>>();
    assert_eq!(actions(&games[1][..alone_games[1].len()]), actions(&alone_games[1]));
    assert_eq!(actions(&games[1]), actions(&games[2]));
    assert_eq!(check.reports[2].sequential.unwrap().pairs, resumed.pairs);
    // Every game announced was played or withdrawn, so that a progress
    // bar ends at its length (a batch's games past the settling pair are
    // played, and not kept; the resumed run plays those again).
    let ticks = ticks.into_inner().unwrap();
    let count = |f: &dyn Fn(&sim::Tick) -> u32| ticks.iter().map(f).sum::<u32>();
    let played = count(&|t| u32::from(*t == sim::Tick::Game));
    let more = count(&|t| if let sim::Tick::MoreGames(n) = t { *n } else { 0 });
    let fewer = count(&|t| if let sim::Tick::FewerGames(n) = t { *n } else { 0 });
    let kept = games.iter().map(Vec::len).sum::<usize>() as u32;
    assert_eq!(2 * sim::SEQUENTIAL_CAP + more - fewer, played);
    assert!(played >= kept);
}

/// Games no one wins are linked to the findings that explain them: on
/// `through-the-enemy` most games end undecided, and the standoff and the
/// goal behind the opponent's start say why; on `open` few do.
#[test]
fn undecided_games_are_explained_by_static_findings() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/mazes/flawed.toml")).unwrap();
    let pack = pushcrate::level::format::parse_pack(&text).pack.unwrap();
    let level = pack.level("through-the-enemy").unwrap();
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let greedy: Agent = "greedy".parse().unwrap();
    let config = Config { threads: 1, ..Config::fixed([greedy, greedy], 40) };
    let playable = level.playable(pack.rules).unwrap();
    let (check, _) =
        sim::check_balance(&playable, sim::Plan::only(&[[greedy, greedy]]), &config, &|_| {}, &stop);
    assert!(check.undecided, "{:?}", check.reports[0]);
    let codes: Vec<_> = check.explained_by.iter().map(|f| f.code).collect();
    assert!(codes.contains(&pushcrate::analysis::FindingCode::Standoff), "{codes:?}");
    assert!(check.summary().contains("explained by"), "{}", check.summary());
    let check = greedy_check(&bundled_playable("open"), &config);
    assert!(!check.undecided && check.explained_by.is_empty());
}

/// Games played in the background yield to the editor's interface: the
/// `pushcrate` binary's game workers run at a lower priority (nice 10)
/// than the thread that draws the window and handles input. Seen from
/// outside, on a running `selfplay`.
#[cfg(target_os = "linux")]
#[test]
fn game_threads_run_at_a_lower_priority() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("pushcrate"))
        .args(["selfplay", "@default", "--level", "open", "--agents", "deep,deep", "--games", "1000"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let tasks = std::path::PathBuf::from(format!("/proc/{}/task", child.id()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut seen = Vec::new();
    while seen.len() < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
        seen = std::fs::read_dir(&tasks)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|task| {
                let dir = task.path();
                let name = std::fs::read_to_string(dir.join("comm")).ok()?;
                let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
                // The fields after the command's closing parenthesis: state
                // is the 3rd field of stat, nice the 19th.
                let after = &stat[stat.rfind(')')? + 2..];
                let nice: i32 = after.split_whitespace().nth(16)?.parse().ok()?;
                name.starts_with("pushcrate-games").then_some((name.trim().to_owned(), nice))
            })
            .collect();
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(seen.len() >= 2, "game threads found: {seen:?}");
    for (name, nice) in seen {
        assert_eq!(nice, 10, "{name}");
    }
}

/// The balance estimate before any game ranks the open board with player
/// 1 two steps nearer the flag above its mirror, player 2 two steps
/// nearer, and is the same for a level and for itself (no randomness).
#[test]
fn the_estimate_ranks_a_nearer_start_above_its_mirror() {
    use pushcrate::ai::estimate::estimate;
    let pack = Pack::bundled_with("open").unwrap();
    let open = pack.level("open").unwrap();
    let moved = |player: Player, cell: &str| {
        let mut level = open.clone();
        level.starts[player] = Some(cell.parse().unwrap());
        level.start_state(pack.rules).unwrap()
    };
    let nearer_one = estimate(&moved(Player::One, "e3")).unwrap();
    let nearer_two = estimate(&moved(Player::Two, "e7")).unwrap();
    let even = estimate(&open.start_state(pack.rules).unwrap()).unwrap();
    assert!(
        nearer_one.first_player > even.first_player && even.first_player > nearer_two.first_player,
        "{nearer_one:?} {even:?} {nearer_two:?}"
    );
    assert_eq!(estimate(&moved(Player::One, "e3")), Some(nearer_one));
    assert!((0.0..=1.0).contains(&nearer_one.first_player));
}

/// A verdict's explanation names the static findings whose cells carry
/// the games' decisive events: on `dead-end-flag` every game's first
/// pickup is in the dead end that A021 marks, so A021 explains the check,
/// in `explained_by` and in a why sentence.
#[test]
fn a_finding_whose_cells_decide_the_games_explains_the_verdict() {
    let pack = Pack::bundled_with("dead-end-flag").unwrap();
    let level = pack.level("dead-end-flag").unwrap();
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let greedy: Agent = "greedy".parse().unwrap();
    let config = Config { threads: 1, ..Config::fixed([greedy, greedy], 10) };
    // The check comes back explained: no caller analyses the level again.
    let (check, _) = sim::check_balance(
        &level.playable(pack.rules).unwrap(),
        sim::Plan::only(&[[greedy, greedy]]),
        &config,
        &|_| {},
        &stop,
    );
    let codes: Vec<&str> = check.explained_by.iter().map(|f| f.code.as_str()).collect();
    assert!(codes.contains(&"A021"), "{codes:?}");
    assert!(check.why.iter().any(|s| s.starts_with("A021 marks the cells of")), "{:?}", check.why);
    // A finding about the layout as a whole (a note, no cells) explains nothing.
    assert!(!codes.contains(&"A050"), "{codes:?}");
}
