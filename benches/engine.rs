//! Engine benchmarks: the sole-path mask (fast and a plain BFS reference in
//! the same process), perft, and random playouts. Results are recorded in
//! `docs/performance.md`. Run with `cargo bench --bench engine`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use pushcrate::level::Pack;
use pushcrate::rules::path::reference_sole_path_cells;
use pushcrate::rules::{GameState, perft, perft_full};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    divan::main();
}

const LEVELS: &[&str] = &["open", "maze", "serpent", "arena"];

/// The start of a level of either bundled pack.
fn start(id: &str) -> GameState {
    let pack = Pack::bundled_with(id).unwrap();
    pack.level(id).unwrap().start_state(pack.rules).unwrap()
}

/// A position a few actions into a game, with crates on the board.
fn midgame(id: &str) -> GameState {
    let mut state = start(id);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..12 {
        let actions = state.legal_actions();
        if actions.is_empty() {
            break;
        }
        state.play_unchecked(actions[rng.random_range(0..actions.len())]);
    }
    state
}

#[divan::bench(args = LEVELS)]
fn sole_path_fast(bencher: Bencher, id: &str) {
    let state = midgame(id);
    bencher.bench(|| black_box(&state).sole_path_cells());
}

#[divan::bench(args = LEVELS)]
fn sole_path_reference_bfs(bencher: Bencher, id: &str) {
    let state = midgame(id);
    let ends = state.route_ends();
    let open = state.open();
    bencher.bench(|| reference_sole_path_cells(black_box(&ends), black_box(open)));
}

#[divan::bench(args = ["open", "maze", "arena"])]
fn perft_3_bulk(bencher: Bencher, id: &str) {
    let state = start(id);
    let nodes = perft(&state, 3);
    bencher.counter(ItemsCount::new(nodes)).bench(|| perft(black_box(&state), 3));
}

#[divan::bench(args = ["open", "maze", "arena"])]
fn perft_3_full(bencher: Bencher, id: &str) {
    let state = start(id);
    let nodes = perft(&state, 3);
    bencher.counter(ItemsCount::new(nodes)).bench(|| perft_full(black_box(&state), 3));
}

/// Random games to the end or a 300-action cap; the counter is games.
#[divan::bench(args = ["open", "maze", "crates"])]
fn random_playouts_100(bencher: Bencher, id: &str) {
    let state = start(id);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    bencher.counter(ItemsCount::new(100usize)).bench_local(|| {
        let mut actions = 0u64;
        for _ in 0..100 {
            let mut game = state;
            while !game.is_over() && game.actions_played() < 300 {
                let legal = game.legal_actions();
                game.play_unchecked(legal[rng.random_range(0..legal.len())]);
            }
            actions += u64::from(game.actions_played());
        }
        actions
    });
}

/// Static analysis of one level: every check but the bounded search.
#[divan::bench(args = ["open", "maze", "crates", "arena"])]
fn analyze_level_static(bencher: Bencher, id: &str) {
    let pack = Pack::bundled_with(id).unwrap();
    let level = pack.level(id).unwrap().clone();
    let options = pushcrate::analysis::AnalysisOptions::default();
    bencher.bench(|| pushcrate::analysis::analyze_level(black_box(&level), pack.rules, &options));
}

/// A 1,000-level pack (the bundled levels repeated), analysed on every core.
#[divan::bench(sample_count = 10)]
fn analyze_pack_1000_levels(bencher: Bencher) {
    let bundled = Pack::bundled();
    let mut pack = Pack::new("thousand");
    for i in 0..1000 {
        let mut level = bundled.levels[i % bundled.levels.len()].clone();
        level.id = format!("l{i}");
        pack.levels.push(level);
    }
    let options = pushcrate::analysis::AnalysisOptions::default();
    bencher
        .counter(ItemsCount::new(1000usize))
        .bench(|| pushcrate::analysis::analyze_pack(black_box(&pack), &options));
}

/// Alpha-beta from a level's start, depth 3 in turns; the counter is
/// positions searched.
#[divan::bench(args = ["open", "maze", "crates"])]
fn alphabeta_depth_3(bencher: Bencher, id: &str) {
    use pushcrate::ai::{AlphaBeta, Limits, RaceEvaluator};
    let state = start(id);
    // No node limit, with earlier versions' table of 64 Ki entries (an
    // unlimited budget would allocate the largest).
    let limits = Limits { depth: 3, nodes: u64::MAX, time: None };
    let nodes = {
        let mut search = AlphaBeta::with_table(RaceEvaluator, limits, 16);
        search.best(&state);
        search.nodes()
    };
    bencher.counter(ItemsCount::new(nodes)).bench_local(|| {
        let mut search = AlphaBeta::with_table(RaceEvaluator, limits, 16);
        search.best(black_box(&state))
    });
}

/// One search of `state` under `limits` with a table of 2^`bits`
/// entries, the searcher made outside the timing, as a game makes it once
/// for all its decisions. The counter is positions searched.
fn bench_search(bencher: Bencher, state: GameState, limits: pushcrate::ai::Limits, bits: u32) {
    use pushcrate::ai::{AlphaBeta, RaceEvaluator};
    let nodes = {
        let mut search = AlphaBeta::with_table(RaceEvaluator, limits, bits);
        search.best(&state);
        search.nodes()
    };
    bencher
        .counter(ItemsCount::new(nodes))
        .with_inputs(|| AlphaBeta::with_table(RaceEvaluator, limits, bits))
        .bench_local_values(|mut search| search.best(black_box(&state)));
}

/// One decision of `deep` (six turns, 150,000 positions) from the start
/// of `arena`, with a table of 2^BITS entries: 16 is the fixed table of
/// earlier versions, 18 the one sized to deep's budget.
#[divan::bench(args = [16, 18], sample_count = 5, sample_size = 1)]
fn deep_decision_table_bits(bencher: Bencher, bits: u32) {
    let limits = pushcrate::ai::Limits { depth: 6, nodes: 150_000, time: None };
    bench_search(bencher, start("arena"), limits, bits);
}

/// Time to depth 5 in turns with no node limit from the start of `open`,
/// with a table of 2^BITS entries (16: earlier versions' fixed table).
#[divan::bench(args = [16, 20], sample_count = 3, sample_size = 1)]
fn alphabeta_depth_5_table_bits(bencher: Bencher, bits: u32) {
    let limits = pushcrate::ai::Limits { depth: 5, nodes: u64::MAX, time: None };
    bench_search(bencher, start("open"), limits, bits);
}

/// Time to depth 5 in turns with no node limit from the start of `open`
/// and of `arena`, the search now and the plain search (the reference,
/// which visits the same positions), tables of 2^20 entries.
#[divan::bench(args = ["open", "open plain", "arena", "arena plain"], sample_count = 3, sample_size = 1)]
fn alphabeta_depth_5_against_plain(bencher: Bencher, arg: &str) {
    use pushcrate::ai::{AlphaBeta, PlainRaceEvaluator, RaceEvaluator};
    let (id, plain) = arg.split_once(' ').map_or((arg, false), |(id, _)| (id, true));
    let state = start(id);
    let limits = pushcrate::ai::Limits { depth: 5, nodes: u64::MAX, time: None };
    if plain {
        bencher
            .with_inputs(|| AlphaBeta::with_table(PlainRaceEvaluator, limits, 20).plain())
            .bench_local_values(|mut search| (search.best(black_box(&state)), search.nodes()));
    } else {
        bencher
            .with_inputs(|| AlphaBeta::with_table(RaceEvaluator, limits, 20))
            .bench_local_values(|mut search| (search.best(black_box(&state)), search.nodes()));
    }
}

/// Time to depth 5 in turns with no node limit from the start of `open`,
/// `gates` and `arena`, the fitted evaluation, the search with the pruning
/// last turn (`:prune`, the same value), with null moves (`:null`, a
/// forward pruning) and without either, tables of 2^20 entries; the plain
/// search of `alphabeta_depth_5_against_plain` is the reference.
#[divan::bench(
    args = [
        "open", "open pruning", "open null", "gates", "gates pruning", "gates null",
        "arena", "arena pruning", "arena null",
    ],
    sample_count = 3,
    sample_size = 1
)]
fn alphabeta_depth_5_pruning(bencher: Bencher, arg: &str) {
    use pushcrate::ai::{AlphaBeta, FeatureEvaluator, Weights};
    let (id, option) = arg.split_once(' ').unwrap_or((arg, ""));
    let state = start(id);
    let limits = pushcrate::ai::Limits { depth: 5, nodes: u64::MAX, time: None };
    let eval = FeatureEvaluator::new(Weights::fitted());
    bencher
        .with_inputs(|| {
            let search = AlphaBeta::with_table(eval, limits, 20);
            match option {
                "pruning" => search.pruning(),
                "null" => search.null_moves(),
                _ => search,
            }
        })
        .bench_local_values(|mut search| (search.best(black_box(&state)), search.nodes()));
}

/// The first twenty decisions of a game from `state` between `seats`, each
/// keeping its table from decision to decision; the positions searched.
fn twenty_decisions<E: pushcrate::ai::Evaluator>(
    state: GameState,
    seats: [pushcrate::ai::AlphaBeta<E>; 2],
) -> u64 {
    use pushcrate::ai::Game;
    let mut seats = seats;
    let (mut state, mut history, mut nodes) = (state, Vec::new(), 0);
    while !state.is_over() && history.len() < 20 {
        let seat = &mut seats[state.turn().index()];
        seat.set_history(&history);
        let (action, _) = seat.best(&state).expect("the game goes on");
        nodes += seat.nodes();
        history.push(state.key());
        state.apply(action);
    }
    nodes
}

/// The first twenty decisions of a game between two `deep` searchers (six
/// turns, 150,000 positions, seeded, each keeping its table from decision
/// to decision as in a balance check) from the start of a level. `plain`
/// is the search as it was: every action generated before the table's
/// move and the killers are searched, each action's rank worked out at
/// every comparison, no bit filter on the history,
/// the sole-path cells worked out afresh at every node, and each player's
/// steps home counted by a search of its own. Both visit the same
/// positions in the same order (a test checks it). The counter is
/// positions searched.
#[divan::bench(
    args = ["open", "open plain", "arena", "arena plain", "courtyard", "courtyard plain"],
    sample_count = 3,
    sample_size = 1
)]
fn deep_game_20_decisions(bencher: Bencher, arg: &str) {
    use pushcrate::ai::{AlphaBeta, Limits, PlainRaceEvaluator, RaceEvaluator};
    let (id, plain) = arg.split_once(' ').map_or((arg, false), |(id, _)| (id, true));
    let state = start(id);
    let limits = Limits { depth: 6, nodes: 150_000, time: None };
    let play = || {
        if plain {
            twenty_decisions(
                state,
                [1, 2].map(|seed| AlphaBeta::new(PlainRaceEvaluator, limits).seeded(seed).plain()),
            )
        } else {
            twenty_decisions(state, [1, 2].map(|seed| AlphaBeta::new(RaceEvaluator, limits).seeded(seed)))
        }
    };
    bencher.counter(ItemsCount::new(play())).bench_local(|| black_box(play()));
}

/// 2,000 positions of random games on `open`, `crates` and `arena` (a
/// position every other action, seeded), none over.
fn sample_positions() -> Vec<GameState> {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut out = Vec::new();
    'levels: for id in ["open", "crates", "arena"].iter().cycle() {
        let mut state = start(id);
        for ply in 0..80 {
            let actions = state.legal_actions();
            if state.is_over() || actions.is_empty() {
                continue 'levels;
            }
            if ply % 2 == 1 {
                out.push(state);
                if out.len() == 2_000 {
                    break 'levels;
                }
            }
            state.play_unchecked(actions[rng.random_range(0..actions.len())]);
        }
    }
    out
}

/// The evaluation of the positions of [`sample_positions`] for the player
/// to move: the hand evaluation, the fitted one with its nine features, and
/// with the tenth, `block`, as `pushcrate tune --with-block` fits it (the
/// counter is positions).
#[divan::bench(args = ["hand", "fitted", "fitted with block"])]
fn evaluate_2000_positions(bencher: Bencher, eval: &str) {
    use pushcrate::ai::{Evaluator, FeatureEvaluator, RaceEvaluator, Weights};
    let positions = sample_positions();
    let fitted = FeatureEvaluator::new(Weights::fitted());
    let block = FeatureEvaluator::new(Weights([41, -56, 94, 200, 661, 71, 159, 265, 833, 100, 0]));
    let evaluator: &dyn Evaluator = match eval {
        "hand" => &RaceEvaluator,
        "fitted" => &fitted,
        _ => &block,
    };
    bencher.counter(ItemsCount::new(positions.len())).bench_local(|| {
        positions.iter().map(|s| i64::from(evaluator.evaluate(black_box(s), s.turn()))).sum::<i64>()
    });
}

/// The first twenty decisions of a game between two fitted `deep`
/// searchers (as [`deep_game_20_decisions`], with the shipped fitted
/// weights), and the same with the hand evaluation: what the fitted
/// evaluation costs a decision. The counter is positions searched.
#[divan::bench(args = ["courtyard hand", "courtyard fitted", "gates hand", "gates fitted"], sample_count = 3, sample_size = 1)]
fn deep_game_20_decisions_by_evaluation(bencher: Bencher, arg: &str) {
    use pushcrate::ai::{AlphaBeta, Evaluator, FeatureEvaluator, Limits, RaceEvaluator, Weights};
    fn game<E: Evaluator + Copy>(state: GameState, eval: E) -> u64 {
        let limits = Limits { depth: 6, nodes: 150_000, time: None };
        twenty_decisions(state, [1, 2].map(|seed| AlphaBeta::new(eval, limits).seeded(seed)))
    }
    let (id, eval) = arg.split_once(' ').unwrap();
    let state = start(id);
    let play = || {
        if eval == "hand" {
            game(state, RaceEvaluator)
        } else {
            game(state, FeatureEvaluator::new(Weights::fitted()))
        }
    };
    bencher.counter(ItemsCount::new(play())).bench_local(|| black_box(play()));
}

/// The first twenty decisions of a game between two searchers of ten
/// turns on 60,000 positions with null moves and the fitted evaluation,
/// and the same by the plain search (`plain`, `AlphaBeta::plain`: among
/// others, no remembered evaluations): what the search's exact speed-ups
/// give where null moves evaluate inner positions too.
/// Both visit the same positions (a test checks it). The counter is
/// positions searched.
#[divan::bench(args = ["gates", "gates plain", "crates", "crates plain"], sample_count = 3, sample_size = 1)]
fn null_game_20_decisions(bencher: Bencher, arg: &str) {
    use pushcrate::ai::{AlphaBeta, FeatureEvaluator, Limits, Weights};
    let (id, plain) = arg.split_once(' ').map_or((arg, false), |(id, _)| (id, true));
    let state = start(id);
    let limits = Limits { depth: 10, nodes: 60_000, time: None };
    let eval = FeatureEvaluator::new(Weights::fitted());
    let searcher = |seed| {
        let search = AlphaBeta::new(eval, limits).seeded(seed).null_moves();
        if plain { search.plain() } else { search }
    };
    let play = || twenty_decisions(state, [1, 2].map(searcher));
    bencher.counter(ItemsCount::new(play())).bench_local(|| black_box(play()));
}

/// A balance run: 2,400 greedy games of one level on both cores.
#[divan::bench(args = ["open", "maze"], sample_count = 3)]
fn balance_run_2400_greedy(bencher: Bencher, id: &str) {
    use std::sync::atomic::AtomicBool;
    let state = start(id);
    let config = pushcrate::sim::Config {
        agents: ["greedy".parse().unwrap(), "greedy".parse().unwrap()],
        games: 2400,
        seed: 1,
        max_actions: 300,
        threads: 2,
        opening: 0,
        sequential: None,
    };
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    bencher.counter(ItemsCount::new(2400usize)).bench(|| pushcrate::sim::run(&state, &config, &|| {}, &stop));
}

fn tiny_one_placement() -> GameState {
    let pack = Pack::bundled_flawed();
    let rules = pushcrate::rules::Rules { crate_placements: 1, ..pushcrate::rules::Rules::default() };
    pack.level("tiny").unwrap().start_state(rules).unwrap()
}

/// Plain minimax, 3 turns, the tiny board with one placement each: the
/// reference for alpha-beta below.
#[divan::bench]
fn search_reference_minimax_tiny_3(bencher: Bencher) {
    let state = tiny_one_placement();
    bencher.bench(|| pushcrate::ai::minimax(&pushcrate::ai::RaceEvaluator, black_box(&state), 3, 0));
}

/// Alpha-beta on the same position to the same depth.
#[divan::bench]
fn search_alphabeta_tiny_3(bencher: Bencher) {
    use pushcrate::ai::{AlphaBeta, Limits, RaceEvaluator};
    let state = tiny_one_placement();
    bencher.bench(|| {
        let mut search =
            AlphaBeta::with_table(RaceEvaluator, Limits { depth: 3, nodes: u64::MAX, time: None }, 16);
        search.negamax(black_box(&state), 3, -i32::MAX, i32::MAX, 0)
    });
}

/// A pack of nearly 4 MiB whose only level lists one crate again and again
/// (about 700,000 problems), on one line or one entry per line.
fn problem_pack(one_line: bool) -> String {
    let head = "format = 1\nname = \"x\"\n[[level]]\nid = \"a\"\nname = \"a\"\nsize = \"9x9\"\np1 = { start = \"e1\" }\np2 = { start = \"e9\" }\ncrates = [";
    let entry = if one_line { "\"c3\"," } else { "\n\"c3\"," };
    let count = (pushcrate::level::MAX_FILE_BYTES - head.len() - 8) / entry.len();
    format!("{head}{}]\n", entry.repeat(count))
}

const LAYOUTS: &[&str] = &["one-line", "line-each"];

/// Reading and diagnosing a 4 MiB file of problems, as `check` does: the
/// text report (100 problems drawn, the rest counted) and the JSON report
/// (every problem with its line and column).
#[divan::bench(args = LAYOUTS, sample_count = 5, sample_size = 1)]
fn diagnostics(bencher: Bencher, layout: &str) {
    let text = problem_pack(layout == "one-line");
    bencher.bench(|| {
        let file = pushcrate::files::pack_from_bytes("p.toml".into(), text.clone().into_bytes(), false);
        let drawn = pushcrate::cli::render_problems(&file, 100);
        let json = pushcrate::cli::problems_json(std::slice::from_ref(&file)).unwrap();
        black_box((drawn.len(), json.len()))
    });
}

/// The reference: the same text read by the TOML parser alone, into a
/// generic value.
#[divan::bench(args = LAYOUTS, sample_count = 5, sample_size = 1)]
fn diagnostics_reference_toml_parse(bencher: Bencher, layout: &str) {
    let text = problem_pack(layout == "one-line");
    bencher.bench(|| black_box(toml::from_str::<toml::Value>(&text).map(|v| v.is_table())));
}

fn pockets() -> GameState {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/mazes/flawed.toml")).unwrap();
    let pack = pushcrate::level::format::parse_pack(&text).pack.unwrap();
    pack.level("pockets").unwrap().start_state(pack.rules).unwrap()
}

/// The solver on `pockets`, a forced win in 13 that is a runaway: the walk
/// home is proved without searching the opponent's replies.
#[divan::bench(sample_count = 10)]
fn solve_pockets_13(bencher: Bencher) {
    let state = pockets();
    bencher.bench(|| pushcrate::analysis::solve(black_box(&state), 13, 5_000_000, None));
}

/// The reference: the same proof by the plain AND-OR search.
#[divan::bench(sample_count = 3)]
fn solve_pockets_13_plain(bencher: Bencher) {
    let state = pockets();
    bencher.bench(|| pushcrate::analysis::solve_plain(black_box(&state), 13, 5_000_000));
}

/// The balance estimate of a level before any game (target: 20 ms on one
/// core), beside the static analysis of the same level as the plain
/// reference (`analyze_level_static`).
#[divan::bench(args = ["open", "maze", "crates", "arena"])]
fn balance_estimate(bencher: Bencher, id: &str) {
    let state = start(id);
    bencher.bench(|| pushcrate::ai::estimate::estimate(divan::black_box(&state)));
}
