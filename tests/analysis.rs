//! Level analysis: every finding with a fixture that triggers it and a
//! near-identical one that does not; petgraph against the engine; the
//! shipped packs; the bounded search.

use std::sync::atomic::AtomicBool;

use pushcrate::analysis::{
    AnalysisOptions, Answer, FindingCode, LevelReport, MazeGraph, SearchLimits, analyze_level, analyze_pack,
    can_win_within,
};
use pushcrate::level::render::level_from_diagram;
use pushcrate::level::{Level, Pack};
use pushcrate::rules::path::reference_region;
use pushcrate::rules::{Bitboard, Outcome, Player, Route, Rules};

use crate::support::{c, level, random_level};

fn codes(report: &LevelReport) -> Vec<FindingCode> {
    report.findings.iter().map(|f| f.code).collect()
}

fn analyse(level: &Level) -> LevelReport {
    analyze_level(level, Rules::default(), &AnalysisOptions::default())
}

fn analyse_with(level: &Level, rules: Rules) -> LevelReport {
    analyze_level(level, rules, &AnalysisOptions::default())
}

/// Asserts that `with` reports `code` and the near-identical `without` does not.
fn triggers(code: FindingCode, with: &LevelReport, without: &LevelReport) {
    assert!(codes(with).contains(&code), "{code} missing from {:?}", with.findings);
    assert!(!codes(without).contains(&code), "{code} reported on the clean twin: {:?}", without.findings);
}

fn drawn(diagram: &str) -> Level {
    level_from_diagram("fixture", diagram).unwrap()
}

#[test]
fn a000_invalid_level() {
    let mut broken = drawn(". . 2 . .\n. . . . .\n. . F . .\n. . . . .\n. . 1 . .");
    let fine = broken.clone();
    broken.starts.one = None;
    triggers(FindingCode::InvalidLevel, &analyse(&broken), &analyse(&fine));
}

#[test]
fn a001_route_walled_off_with_its_region() {
    let walled = drawn(". . 2 . .\n. . . . .\n. . F . .\n# # # # #\n. . 1 . .");
    let gap = drawn(". . 2 . .\n. . . . .\n. . F . .\n# # . # #\n. . 1 . .");
    let report = analyse(&walled);
    triggers(FindingCode::RouteWalledOff, &report, &analyse(&gap));
    assert!(report.has_errors());
    let finding = report.findings.iter().find(|f| f.code == FindingCode::RouteWalledOff).unwrap();
    assert_eq!(finding.cells.len(), 5, "the walled-in rank 1 is the region");
    assert!(finding.cells.contains(&c("c1")));
}

#[test]
fn a002_route_cut_by_crates() {
    let cut = drawn(". . 2 . .\n. . . . .\n. . F . .\ni i i i i\n. . 1 . .");
    let open = drawn(". . 2 . .\n. . . . .\n. . F . .\ni i . i i\n. . 1 . .");
    let report = analyse(&cut);
    triggers(FindingCode::RouteCutByCrates, &report, &analyse(&open));
    assert!(!report.has_errors(), "crates only warn");
}

#[test]
fn a010_unfair_race() {
    let near = drawn(". . 2 . .\n. . . . .\n. . . . .\n. . F . .\n. . 1 . .");
    let centre = drawn(". . 2 . .\n. . . . .\n. . F . .\n. . . . .\n. . 1 . .");
    let report = analyse(&near);
    triggers(FindingCode::UnfairRace, &report, &analyse(&centre));
    let race = report.race.unwrap();
    assert_eq!((race.first_to_flag, race.lead), (Player::One, 5));
    assert_eq!(analyse(&centre).race.unwrap().lead, 1, "the first mover's tempo alone");
}

/// The solver proves `tiny` a forced first-player win in five actions, so
/// the level warns however even its race looks; on the open board no
/// forced win is found and nothing is said.
#[test]
fn a011_forced_win_proved_by_the_solver() {
    let pack = Pack::bundled_flawed();
    let options = AnalysisOptions { budget: 20_000, depth: 30, cancel: None };
    let tiny = analyze_level(pack.level("tiny").unwrap(), pack.rules, &options);
    let showcase = Pack::bundled();
    let open = analyze_level(showcase.level("open").unwrap(), showcase.rules, &options);
    triggers(FindingCode::ForcedWin, &tiny, &open);
    let finding = tiny.findings.iter().find(|f| f.code == FindingCode::ForcedWin).unwrap();
    assert!(finding.message.starts_with("player 1 forces a win within 5 actions"), "{}", finding.message);
    let Some(pushcrate::analysis::Witness::Line { actions }) = &finding.witness else { panic!("no line") };
    let mut state = pack.level("tiny").unwrap().start_state(pack.rules).unwrap();
    for &action in actions {
        state.play(action).unwrap();
    }
    assert!(matches!(state.outcome(), Some(Outcome::Win { winner: Player::One, .. })));
    assert!(matches!(tiny.search.as_ref().unwrap().first_forces_win, Answer::Proved { .. }));
    // Without the bounded search (the editor's live analysis) the solver
    // does not run.
    assert!(!codes(&analyse(pack.level("tiny").unwrap())).contains(&FindingCode::ForcedWin));
}

/// Every forced first-player win of the flawed pack that the solver can
/// settle at analyze's default budget warns A011, with a line the engine
/// plays to the first player's win: `pockets`, a walk home on single-file
/// roads that no crate may block, is a runaway, proved without searching
/// the opponent's replies (before runaways it needed 560,000 positions).
#[test]
fn a011_forced_wins_of_the_flawed_pack_at_the_default_budget() {
    let pack = flawed();
    // `pushcrate analyze`'s defaults.
    let options = AnalysisOptions { budget: 20_000, depth: 40, cancel: None };
    for (id, actions) in [("unfair-race", 5), ("no-room", 13), ("pockets", 13)] {
        let level = pack.level(id).unwrap();
        let report = analyze_level(level, pack.rules, &options);
        let finding = report.findings.iter().find(|f| f.code == FindingCode::ForcedWin);
        let finding = finding.unwrap_or_else(|| panic!("{id}: no A011 in {:?}", codes(&report)));
        let Some(pushcrate::analysis::Witness::Line { actions: line }) = &finding.witness else {
            panic!("no line")
        };
        assert_eq!(line.len(), actions, "{id}: {line:?}");
        let mut state = level.start_state(pack.rules).unwrap();
        for &action in line {
            state.play(action).unwrap();
        }
        assert!(matches!(state.outcome(), Some(Outcome::Win { winner: Player::One, .. })), "{id}");
    }
    // A walk home the opponent can block proves nothing by itself.
    let start = pack.level("through-the-enemy").unwrap().start_state(pack.rules).unwrap();
    assert!(pushcrate::analysis::runaway(&start).is_none());
}

/// A012: the first mover's way to the flag is all cells that cut its
/// route, and the opponent is no nearer: it surely picks the flag up
/// first. With a second way round, a crate could slow it, and nothing is
/// said. On the bundled pack it is `maze` alone (every strong game a
/// first-player win); `serpent`'s two-wide bends can be blocked.
#[test]
fn a012_a_sure_first_pickup() {
    let sure = drawn("# # 2 # #\n# # . # #\n. . F . .\n# # . # #\n# # 1 # #");
    let round = drawn("# # 2 # #\n# # . # #\n. . F . .\n# . . # #\n# . 1 # #");
    let report = analyse(&sure);
    triggers(FindingCode::SureFlag, &report, &analyse(&round));
    let finding = report.findings.iter().find(|f| f.code == FindingCode::SureFlag).unwrap();
    assert!(
        finding.message.starts_with("player 1 surely picks the flag up first, on action 3"),
        "{}",
        finding.message
    );
    let Some(pushcrate::analysis::Witness::Path { cells }) = &finding.witness else { panic!("no path") };
    assert_eq!(cells.iter().map(ToString::to_string).collect::<Vec<_>>(), ["c1", "c2", "c3"]);
    let warned: Vec<String> = Pack::bundled_both()
        .iter()
        .flat_map(|pack| {
            pack.levels.iter().filter(|l| {
                codes(&analyze_level(l, pack.rules, &AnalysisOptions::default()))
                    .contains(&FindingCode::SureFlag)
            })
        })
        .map(|l| l.id.clone())
        .collect();
    // The one-road levels of the flawed pack: on none of the showcase's.
    assert_eq!(warned, ["no-room", "pockets", "maze"]);
}

#[test]
fn a020_chokepoint() {
    let board = ". . 2 . .\n# # . # #\n. . F . .\n# # . # #\n. . 1 . .";
    let far_goals = level(board, "a5 b5 c5 d5 e5", "a1 b1 c1 d1 e1");
    let home_goals = level(board, "a1 b1 c1 d1 e1", "a5 b5 c5 d5 e5");
    let report = analyse(&far_goals);
    triggers(FindingCode::Chokepoint, &report, &analyse(&home_goals));
    let finding = report.findings.iter().find(|f| f.code == FindingCode::Chokepoint).unwrap();
    assert_eq!(finding.cells, vec![c("c2"), c("c4")]);
}

#[test]
fn a021_flag_in_a_dead_end() {
    let pocket = drawn(". . 2 . .\n. . . . .\n. # F # .\n. # # # .\n. . 1 . .");
    let through = drawn(". . 2 . .\n. . . . .\n. # F # .\n. # . # .\n. . 1 . .");
    triggers(FindingCode::FlagInDeadEnd, &analyse(&pocket), &analyse(&through));
}

#[test]
fn a022_goal_through_the_opponents_start() {
    let behind = level(". . 2 . .\n# # . # #\n. . F . .\n. . . . .\n. . 1 . .", "a5", "a5 b5 c5 d5 e5");
    let beside = level(". . 2 . .\n. # . # #\n. . F . .\n. . . . .\n. . 1 . .", "a5", "a5 b5 c5 d5 e5");
    triggers(FindingCode::GoalThroughStart, &analyse(&behind), &analyse(&beside));
}

#[test]
fn a030_a031_no_room_for_crates() {
    let corridor = drawn("# # 2 # #\n# # . # #\n# # F # #\n# # . # #\n# # 1 # #");
    let alcove = drawn("# # 2 # #\n# # . # #\n# # F # #\n# . . # #\n# # 1 # #");
    let (narrow, wide) = (analyse(&corridor), analyse(&alcove));
    triggers(FindingCode::NoRoomForCrates, &narrow, &wide);
    triggers(FindingCode::CrateWinImpossible, &narrow, &wide);
    assert_eq!(narrow.placement_cells, 0);
}

#[test]
fn a031_too_few_placements() {
    let open = drawn(". . 2 . .\n. . . . .\n. . F . .\n. . . . .\n. . 1 . .");
    let scarce = Rules { crate_placements: 1, ..Rules::default() };
    let enough = Rules { crate_placements: 1, crates_to_win: 2, ..Rules::default() };
    triggers(FindingCode::CrateWinImpossible, &analyse_with(&open, scarce), &analyse_with(&open, enough));
}

#[test]
fn a032_unreachable_floor() {
    // a1 is shut in by walls on a2 and b1; jumps land beside the opponent,
    // so they cannot reach it either.
    let shut = drawn(". . 2 . .\n. . . . .\n. . F . .\n# . . . .\n. # 1 . .");
    let open = drawn(". . 2 . .\n. . . . .\n. . F . .\n# . . . .\n. . 1 . .");
    let report = analyse(&shut);
    triggers(FindingCode::UnreachableFloor, &report, &analyse(&open));
    let finding = report.findings.iter().find(|f| f.code == FindingCode::UnreachableFloor).unwrap();
    assert_eq!(finding.cells, vec![c("a1")]);
    assert!(finding.message.contains("a1"), "{}", finding.message);
}

const POCKET: &str = "
    . . . 2 . . .
    . . . . . . .
    . . . . . . .
    . . . F . . .
    # # # . # # #
    # . . . # # #
    # # # 1 # # #";

#[test]
fn a040_fencing_with_a_witness_line() {
    let pocket = drawn(POCKET);
    let mut opened = pocket.clone();
    opened.walls.remove(c("b3"));
    let report = analyse(&pocket);
    triggers(FindingCode::Fencing, &report, &analyse(&opened));
    let finding = report.findings.iter().find(|f| f.code == FindingCode::Fencing).unwrap();
    assert!(finding.cells.contains(&c("b2")) && finding.cells.contains(&c("c2")));
    // The witness replays in the engine and leaves a player shut in b2.
    let Some(pushcrate::analysis::Witness::Line { actions }) = &finding.witness else {
        panic!("no witness line: {finding:?}");
    };
    let mut state = pocket.start_state(Rules::default()).unwrap();
    for &action in actions {
        state.play(action).unwrap();
    }
    assert!(state.all_crates().has(c("c2")));
    let shut =
        Player::BOTH.into_iter().find(|&p| state.position(p) == c("b2")).expect("someone is in the pocket");
    let mut probe = state;
    if probe.turn() != shut {
        probe.play_unchecked(pushcrate::rules::Action::Pass);
    }
    assert!(probe.legal_actions().iter().all(|a| !matches!(a, pushcrate::rules::Action::Move(_))));
}

/// A pocket may hold goal cells: the alcove c1 beside player 1's start e1
/// (walls b1 and c2) is on player 1's goal rank, yet a player shut in
/// there without the flag cannot win. The crate on d1, pushed from c1,
/// could only slide onto the start square e1, which always stays free.
#[test]
fn a040_fencing_in_a_pocket_of_goal_cells() {
    let mut alcove = Level::new("alcove", 9, 9);
    alcove.walls.insert(c("b1"));
    alcove.walls.insert(c("c2"));
    let open = Level::new("open", 9, 9);
    let report = analyse(&alcove);
    triggers(FindingCode::Fencing, &report, &analyse(&open));
    let finding = report.findings.iter().find(|f| f.code == FindingCode::Fencing).unwrap();
    assert!(finding.cells.contains(&c("c1")) && finding.cells.contains(&c("d1")), "{finding:?}");
    assert!(finding.message.contains("start square e1"), "{}", finding.message);
    let Some(pushcrate::analysis::Witness::Line { actions }) = &finding.witness else {
        panic!("no witness line: {finding:?}");
    };
    let line: Vec<String> = actions.iter().map(ToString::to_string).collect();
    // Player 1 walks in (d1, c1), player 2 waits once and shuts it in.
    assert_eq!(
        (line.len(), line[0].as_str(), line[2].as_str(), line[3].as_str()),
        (4, "d1", "c1", "+d1"),
        "{line:?}"
    );
    let mut state = alcove.start_state(Rules::default()).unwrap();
    for &action in actions {
        state.play(action).unwrap();
    }
    // The engine agrees: player 1 can only place or pass.
    assert_eq!(state.turn(), Player::One);
    assert!(state.legal_actions().iter().all(|a| !matches!(a, pushcrate::rules::Action::Move(_))));
}

#[test]
fn a041_stall_found_by_the_search() {
    let pack = pushcrate::level::format::parse_pack(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/mazes/flawed.toml")).unwrap(),
    )
    .pack
    .unwrap();
    let pockets = pack.level("pockets").unwrap().clone();
    let mut opened = pockets.clone();
    opened.walls.remove(c("c4"));
    opened.walls.remove(c("g6"));
    let options = AnalysisOptions { budget: 2_000, depth: 30, cancel: None };
    let (with, without) =
        (analyze_level(&pockets, pack.rules, &options), analyze_level(&opened, pack.rules, &options));
    triggers(FindingCode::Stall, &with, &without);
    let Answer::Proved { line } = &with.search.as_ref().unwrap().dead_position else { panic!("not proved") };
    let mut state = pockets.start_state(pack.rules).unwrap();
    for &action in line {
        state.play(action).unwrap();
    }
    assert!(pushcrate::analysis::is_dead(&state));
}

/// Where the whole space of positions fits in the budget, the dead-position
/// question is answered outright: in a small corridor level with no
/// placements a win stays reachable from every position (disproved); with
/// placements the space outgrows the budget (unknown).
#[test]
fn dead_positions_are_disproved_when_the_space_is_exhausted() {
    let small = drawn("# . 2 . #\n# # . # #\n# . F . #\n# # . # #\n# . 1 . #");
    let no_placements = Rules { crate_placements: 0, ..Rules::default() };
    let options = AnalysisOptions { budget: 20_000, depth: 10, cancel: None };
    let report = analyze_level(&small, no_placements, &options);
    let search = report.search.as_ref().unwrap();
    assert_eq!(search.dead_position, Answer::Disproved, "{search:?}");
    let state = small.start_state(no_placements).unwrap();
    let (verdict, searched) = pushcrate::analysis::exhaust_dead(&state, 20_000, None);
    assert_eq!(verdict, Answer::Disproved);
    assert!(searched > 100 && searched < 20_000, "{searched} positions");
    let (verdict, _) =
        pushcrate::analysis::exhaust_dead(&small.start_state(Rules::default()).unwrap(), 2_000, None);
    assert_eq!(verdict, Answer::Unknown);
}

#[test]
fn a050_asymmetric_layouts() {
    let offset = drawn(". . 2 . .\n. . . . .\n. . . . .\n. . F . .\n. . 1 . .");
    let centred = drawn(". . 2 . .\n. . . . .\n. . F . .\n. . . . .\n. . 1 . .");
    triggers(FindingCode::Asymmetric, &analyse(&offset), &analyse(&centred));
    assert!(analyse(&centred).symmetry.has(pushcrate::rules::Symmetry::HalfTurn));
}

#[test]
fn a051_duplicates_within_a_pack() {
    let open = drawn(". . 2 . .\n. . . . .\n. . F . .\n. . . . .\n. . 1 . .");
    let mut swapped = open.clone();
    swapped.id = "swapped".into();
    swapped.first = Player::Two;
    let mut walled = open.clone();
    walled.id = "walled".into();
    walled.walls.insert(c("a3"));
    let mut pack = Pack::new("dups");
    pack.levels = vec![open, swapped, walled];
    let report = analyze_pack(&pack, &AnalysisOptions::default());
    assert!(codes(&report.levels[1]).contains(&FindingCode::Duplicate));
    assert!(!codes(&report.levels[2]).contains(&FindingCode::Duplicate));
    assert!(
        !codes(&report.levels[0]).contains(&FindingCode::Duplicate),
        "the first of a pair is not flagged"
    );
}

#[test]
fn petgraph_agrees_with_the_engine_on_random_levels() {
    for seed in 0..300 {
        let (state, _, _) = random_level(seed);
        let open = state.open();
        let graph = MazeGraph::new(open);
        graph.verify().unwrap();
        let ends = state.route_ends();
        assert_eq!(graph.sole_path_cells(&ends), state.sole_path_cells(), "seed {seed}");
        for cell in open.iter().take(5) {
            assert_eq!(graph.component(cell), reference_region(cell, open), "seed {seed}");
            let distances = graph.distances(cell);
            for other in open.iter().take(5) {
                let path = graph.shortest_path(cell, Bitboard::from_cell(other));
                assert_eq!(
                    path.as_ref().map(|p| p.len() as u16 - 1),
                    distances[other.index()],
                    "seed {seed}"
                );
            }
        }
        for route in Route::ALL {
            assert_eq!(graph.holds(&ends, route), ends.holds(route, open), "seed {seed}");
        }
    }
}

fn flawed() -> Pack {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/mazes/flawed.toml")).unwrap();
    pushcrate::level::format::parse_pack(&text).pack.unwrap()
}

#[test]
fn the_default_pack_has_no_errors() {
    let report = analyze_pack(&Pack::bundled(), &AnalysisOptions::default());
    for level in &report.levels {
        assert!(!level.has_errors(), "{}: {:?}", level.level, level.findings);
        assert_eq!(level.routes.len(), 4);
        assert!(level.routes.iter().all(|r| r.holds), "{}", level.level);
    }
}

#[test]
fn every_flawed_level_reports_its_planted_flaw() {
    let pack = flawed();
    let report = analyze_pack(&pack, &AnalysisOptions { budget: 2_000, depth: 30, cancel: None });
    for (level, result) in pack.levels.iter().zip(&report.levels) {
        assert!(!result.has_errors(), "{} is valid", level.id);
        let found = codes(result);
        for tag in level.tags.iter().filter_map(|t| t.strip_prefix("flaw:")) {
            let code = match tag {
                "unfair-race" => FindingCode::UnfairRace,
                "chokepoint" => FindingCode::Chokepoint,
                "dead-end-flag" => FindingCode::FlagInDeadEnd,
                "no-room-for-crates" => FindingCode::NoRoomForCrates,
                "goal-through-start" => FindingCode::GoalThroughStart,
                "fencing" => FindingCode::Fencing,
                "sure-flag" => FindingCode::SureFlag,
                "forced-win" => FindingCode::ForcedWin,
                // Flaws of the balance under strong play, which the balance
                // check finds (docs/ai.md), not the analysis.
                "one-route" | "depends-on-depth" => continue,
                other => panic!("unknown planted flaw {other}"),
            };
            assert!(found.contains(&code), "{}: {code} missing from {found:?}", level.id);
        }
    }
}

fn tiny() -> pushcrate::rules::GameState {
    let pack = Pack::bundled_flawed();
    pack.level("tiny").unwrap().start_state(pack.rules).unwrap()
}

#[test]
fn the_search_proves_disproves_and_admits_ignorance() {
    let state = tiny();
    let limits = |depth, budget| SearchLimits { depth, budget, cancel: None };
    // Player 1 needs c2, c3 (picking the flag up), then two bonus steps home:
    // its win comes on action 5 at the earliest.
    let (verdict, _) = can_win_within(&state, Player::One, limits(5, 1_000_000));
    let Answer::Proved { line } = verdict else { panic!("{verdict:?}") };
    let mut replay = state;
    for &action in &line {
        replay.play(action).unwrap();
    }
    assert_eq!(
        replay.outcome(),
        Some(Outcome::Win { winner: Player::One, by: pushcrate::rules::WinKind::Flag })
    );
    assert!(line.len() <= 5);
    assert_eq!(can_win_within(&state, Player::One, limits(4, 1_000_000)).0, Answer::Disproved);
    assert_eq!(can_win_within(&state, Player::One, limits(1, 1_000_000)).0, Answer::Disproved);
    assert_eq!(can_win_within(&state, Player::One, limits(40, 3)).0, Answer::Unknown);
    let cancel = AtomicBool::new(true);
    let cancelled = SearchLimits { depth: 40, budget: 1_000_000, cancel: Some(&cancel) };
    assert_eq!(can_win_within(&state, Player::One, cancelled).0, Answer::Unknown);
}

#[test]
fn the_search_agrees_with_brute_force_at_small_depth() {
    fn brute(state: &pushcrate::rules::GameState, player: Player, depth: u32) -> bool {
        if matches!(state.outcome(), Some(Outcome::Win { winner, .. }) if winner == player) {
            return true;
        }
        depth > 0
            && !state.is_over()
            && state.legal_actions().iter().any(|&a| {
                let mut next = *state;
                next.play_unchecked(a);
                brute(&next, player, depth - 1)
            })
    }
    let rules = Rules { crates_to_win: 1, ..Rules::default() };
    let near =
        level(". . 2 . .\n. . . . .\n. . F . .\n. s . . .\n. . 1 . .", "a1 b1 c1 d1 e1", "a5 b5 c5 d5 e5");
    let state = near.start_state(rules).unwrap();
    for depth in 0..=4 {
        for player in Player::BOTH {
            let (verdict, _) =
                can_win_within(&state, player, SearchLimits { depth, budget: 10_000_000, cancel: None });
            let expected = brute(&state, player, depth);
            assert_eq!(matches!(verdict, Answer::Proved { .. }), expected, "{player} depth {depth}");
            assert!(!matches!(verdict, Answer::Unknown));
        }
    }
}

/// A042: on `through-the-enemy` player 1 reaches the flag first, but its
/// one goal cell lies behind player 2's start: a guard there holds it off.
/// Every bundled level lets the winner of the race bring the flag home.
#[test]
fn a042_a_race_that_wins_nothing_is_a_standoff() {
    let flawed = flawed();
    let level = flawed.level("through-the-enemy").unwrap();
    let report = analyze_level(level, flawed.rules, &AnalysisOptions::default());
    assert!(codes(&report).contains(&FindingCode::Standoff), "{:?}", codes(&report));
    let state = level.start_state(flawed.rules).unwrap();
    let found = pushcrate::analysis::standoff(&state, &MazeGraph::new(state.floor())).expect("a standoff");
    assert_eq!(found.carrier, Player::One);
    assert!(found.posts.has(c("e8")), "{:?}", found.posts);
    let bundled = analyze_pack(&Pack::bundled(), &AnalysisOptions::default());
    for level in &bundled.levels {
        assert!(!codes(level).contains(&FindingCode::Standoff), "{}", level.level);
    }
}

/// The pursuit behind A042 on drawn boards. Player 1's goals are the two
/// far corners, each behind a one-cell door: player 2 waiting between them
/// holds the carrier off for ever, though it cannot catch it. Without the
/// wall, and with its home rank as the goal, the carrier gets home.
#[test]
fn a042_a_guard_between_two_doors_holds_the_carrier() {
    let doors = "
        ....2....
        #.#####.#
        .........
        .........
        ....F....
        .........
        .........
        .........
        ....1....";
    let rank9 = "a9 b9 c9 d9 e9 f9 g9 h9 i9";
    let state = level(doors, "a9 i9", rank9).start_state(Rules::default()).unwrap();
    let found =
        pushcrate::analysis::standoff(&state, &MazeGraph::new(state.floor())).expect("held at the doors");
    assert_eq!(found.carrier, Player::One);
    assert!(!found.caught);
    let open = doors.replace("#.#####.#", ".........");
    let state = level(&open, "a1 b1 c1 d1 e1 f1 g1 h1 i1", rank9).start_state(Rules::default()).unwrap();
    assert_eq!(pushcrate::analysis::standoff(&state, &MazeGraph::new(state.floor())), None);
}
