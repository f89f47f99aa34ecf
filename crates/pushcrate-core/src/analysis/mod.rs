//! Level analysis: proofs that the path constraints hold, and the findings
//! that make a layout unwinnable, unfair or prone to stalls.
//!
//! *Architecture Invariant*: only this module names petgraph, and only
//! [`MazeGraph`] holds a petgraph graph; everything else speaks in cells.

mod expect;
mod fence;
mod finding;
mod graph;
mod report;
mod runaway;
mod search;
mod solver;
mod standoff;
mod symmetry;

pub use expect::{Met, meets};
pub use fence::{Fence, fence_line, fences, stall_line};
pub use finding::{Finding, FindingCode, Severity, Witness};
pub use graph::MazeGraph;
use rayon::prelude::*;
pub use report::{
    AnalysisOptions, LevelReport, PackReport, REPORT_VERSION, Race, RaceLeg, RouteProof, SearchReport,
};
pub use runaway::{Runaway, runaway, sure_pickup};
pub use search::{Answer, Distances, SearchLimits, can_win_within, exhaust_dead, is_dead};
pub use solver::{solve, solve_plain};
pub use standoff::{Standoff, standoff};
pub use symmetry::{LevelKey, Symmetries, same_level};

use crate::level::{Level, Pack};
use crate::rules::{Bitboard, Cell, GameState, Player, Route, Rules, SetupError, SetupProblem};

/// Analyses every level of `pack`, in parallel, and marks duplicates.
#[must_use]
pub fn analyze_pack(pack: &Pack, options: &AnalysisOptions<'_>) -> PackReport {
    analyze_pack_levels(pack, options, &|_| true)
}

/// Analyses the levels of `pack` whose ids `keep` accepts (one shard of a
/// run), in pack order. Duplicates are still sought over the whole pack,
/// so that a level's report is the same whichever levels are kept.
#[must_use]
pub fn analyze_pack_levels(
    pack: &Pack,
    options: &AnalysisOptions<'_>,
    keep: &(dyn Fn(&str) -> bool + Sync),
) -> PackReport {
    let kept: Vec<usize> = (0..pack.levels.len()).filter(|&i| keep(&pack.levels[i].id)).collect();
    let mut levels: Vec<LevelReport> =
        kept.par_iter().map(|&i| analyze_level(&pack.levels[i], pack.rules, options)).collect();
    let keys: Vec<LevelKey> = pack.levels.par_iter().map(LevelKey::of).collect();
    let mut first_with: std::collections::HashMap<&LevelKey, usize> = std::collections::HashMap::new();
    for (i, a) in pack.levels.iter().enumerate() {
        let first = *first_with.entry(&keys[i]).or_insert(i);
        let report = kept.binary_search(&i).ok().map(|k| &mut levels[k]);
        if let (true, Some(report)) = (first != i, report) {
            let b = &pack.levels[first];
            report.findings.push(Finding::new(
                FindingCode::Duplicate,
                format!(
                    "level `{}` is the same as level `{}` under rotation, mirroring or swapping the players",
                    a.id, b.id
                ),
            ));
        }
    }
    PackReport { version: REPORT_VERSION, levels }
}

/// Analyses one level under `rules`.
#[must_use]
pub fn analyze_level(level: &Level, rules: Rules, options: &AnalysisOptions<'_>) -> LevelReport {
    let mut report = LevelReport {
        level: level.id.clone(),
        size: format!("{}x{}", level.width, level.height),
        findings: Vec::new(),
        routes: Vec::new(),
        race: None,
        sole_path_cells: Vec::new(),
        placement_cells: 0,
        symmetry: Symmetries::of(level),
        search: None,
    };
    // A level that cannot be played is reported with why, as findings.
    let state = match level.start_state(rules) {
        Ok(state) => state,
        Err(SetupError(problems)) => {
            if problems.iter().any(|p| matches!(p, SetupProblem::Missing(_))) {
                report.findings.push(Finding::new(FindingCode::InvalidLevel, "a player has no start square"));
                return report;
            }
            for problem in problems {
                report.findings.push(match problem {
                    SetupProblem::RouteWalledOff { region, .. } => {
                        Finding::new(FindingCode::RouteWalledOff, problem.to_string())
                            .cells(region)
                            .witness(Witness::Cut { region: region.iter().collect() })
                    }
                    other => Finding::new(FindingCode::InvalidLevel, other.to_string()),
                });
            }
            return report;
        }
    };
    static_findings(level, &state, &mut report);
    if options.budget > 0 {
        report.search = Some(bounded_search(&state, options, &mut report));
    }
    report.findings.sort_by_key(|f| f.severity);
    report
}

/// The findings of the layout itself, before any search: route proofs,
/// sole-path cells, the race, the routes' shared cells, room for crates,
/// fencing and standoffs, pushed in that order.
fn static_findings(level: &Level, state: &GameState, report: &mut LevelReport) {
    let ends = state.route_ends();
    let walls_only = MazeGraph::new(state.floor());
    let start = MazeGraph::new(state.open());

    route_proofs(state, &walls_only, &start, report);

    // Sole-path cells, by petgraph; the engine's fast mask must agree.
    let sole = start.sole_path_cells(&ends);
    debug_assert_eq!(sole, state.sole_path_cells(), "petgraph and the engine disagree on {}", level.id);
    report.sole_path_cells = sole.iter().collect();
    let placeable = state.placement_cells();
    report.placement_cells = placeable.count();

    race(state, &walls_only, report);
    shared_route_findings(state, &start, report);
    room_findings(state, placeable, &walls_only, report);
    fence_and_standoff_findings(state, &walls_only, &start, report);
}

/// Each route's proof, a path or a cut over the walls, and whether the
/// initial crates cut it.
fn route_proofs(state: &GameState, walls_only: &MazeGraph, start: &MazeGraph, report: &mut LevelReport) {
    let ends = state.route_ends();
    for route in Route::ALL {
        let (from, to) = match route {
            Route::StartToFlag(p) => (state.start(p), Bitboard::from_cell(state.flag())),
            Route::FlagToGoal(p) => (state.flag(), state.goals(p)),
        };
        let holds_with_crates = start.holds(&ends, route);
        let witness = match walls_only.shortest_path(from, to) {
            Some(cells) => Witness::Path { cells },
            None => Witness::Cut { region: walls_only.component(from).iter().collect() },
        };
        if !holds_with_crates {
            let region = start.component(from);
            report.findings.push(
                Finding::new(
                    FindingCode::RouteCutByCrates,
                    format!("initial crates cut {route}; the path rule will not protect it until they break"),
                )
                .cells(region)
                .witness(Witness::Cut { region: region.iter().collect() }),
            );
        }
        report.routes.push(RouteProof {
            route,
            holds: matches!(witness, Witness::Path { .. }),
            holds_with_crates,
            witness,
        });
    }
}

/// Cells the routes must share: chokepoints on both players' routes, a
/// flag in a dead end, a goal reached only through the opponent's start.
fn shared_route_findings(state: &GameState, start: &MazeGraph, report: &mut LevelReport) {
    let ends = state.route_ends();
    // Chokepoints: sole-path cells on both players' routes.
    let cuts = |p: Player| {
        start.route_cuts(&ends, Route::StartToFlag(p)) | start.route_cuts(&ends, Route::FlagToGoal(p))
    };
    let mut endpoints = Bitboard::from_cell(state.flag());
    endpoints.insert(state.start(Player::One));
    endpoints.insert(state.start(Player::Two));
    let shared = (cuts(Player::One) & cuts(Player::Two)) - endpoints;
    if shared.any() {
        report.findings.push(
            Finding::new(
                FindingCode::Chokepoint,
                format!(
                    "{} on both players' routes: {}",
                    plural(shared.count(), "sole-path cell lies", "sole-path cells lie"),
                    crate::level::render::cell_list(shared)
                ),
            )
            .cells(shared),
        );
    }

    // A flag in a dead end: a cell besides the flag on every holding route.
    let holding: Vec<Route> = Route::ALL.into_iter().filter(|&r| start.holds(&ends, r)).collect();
    if holding.len() == Route::ALL.len() {
        let common = holding.iter().fold(state.open(), |acc, &r| acc & start.route_cuts(&ends, r))
            - Bitboard::from_cell(state.flag());
        if let Some(entrance) = nearest(state.flag(), common, start) {
            let pocket = start.component_without(state.flag(), entrance);
            report.findings.push(
                Finding::new(
                    FindingCode::FlagInDeadEnd,
                    format!(
                        "the flag lies in a dead end of {} whose one way in, {entrance}, every route must use",
                        plural(pocket.count(), "cell", "cells")
                    ),
                )
                .cells(common | pocket)
                .witness(Witness::Cut { region: pocket.iter().collect() }),
            );
        }
    }

    // A goal reachable only through the opponent's start square.
    for p in Player::BOTH {
        let opponent_start = state.start(p.other());
        if start.route_cuts(&ends, Route::FlagToGoal(p)).has(opponent_start) {
            report.findings.push(
                Finding::new(
                    FindingCode::GoalThroughStart,
                    format!(
                        "{p}'s goal is reachable only through {}'s start square {opponent_start}",
                        p.other()
                    ),
                )
                .cells(Bitboard::from_cell(opponent_start) | state.goals(p)),
            );
        }
    }
}

/// Room for crates and for players: no cell to place a crate on, floor no
/// player can reach, a crate win that too few crates make impossible.
fn room_findings(state: &GameState, placeable: Bitboard, walls_only: &MazeGraph, report: &mut LevelReport) {
    let rules = state.rules();
    if placeable.is_empty() && rules.crate_placements > 0 {
        report.findings.push(Finding::new(
            FindingCode::NoRoomForCrates,
            "no cell can take a crate at the start: every free cell is a sole-path cell",
        ));
    }
    // Floor no player can ever reach: steps, pushes and jumps all stay in
    // the walls' components of the two start squares (a jump lands beside
    // the opponent), and crates break. Almost always a painting mistake.
    let reachable =
        Player::BOTH.iter().fold(Bitboard::EMPTY, |r, &p| r | walls_only.component(state.start(p)));
    let unreachable = state.floor() - reachable;
    if unreachable.any() {
        report.findings.push(
            Finding::new(
                FindingCode::UnreachableFloor,
                format!(
                    "{} floor cell(s) can never be reached by either player: {}",
                    unreachable.count(),
                    crate::level::render::cell_list(unreachable)
                ),
            )
            .cells(unreachable),
        );
    }
    let initial = state.all_crates().count();
    let placeable_crates = if placeable.any() { 2 * u32::from(rules.crate_placements) } else { 0 };
    if initial + placeable_crates < u32::from(rules.crates_to_win) {
        report.findings.push(Finding::new(
            FindingCode::CrateWinImpossible,
            format!(
                "at most {} crates can ever exist ({initial} initial, {placeable_crates} placed), fewer than the {} a crate win needs",
                initial + placeable_crates,
                rules.crates_to_win
            ),
        ));
    }
}

/// Pockets a crate can shut for good, a standoff at the flag, and a layout
/// that is not the same for both players.
fn fence_and_standoff_findings(
    state: &GameState,
    walls_only: &MazeGraph,
    start: &MazeGraph,
    report: &mut LevelReport,
) {
    // Fencing.
    for fence in fences(state, start) {
        let witness = Player::BOTH
            .into_iter()
            .find_map(|victim| fence_line(state, &fence, victim, 80))
            .map(|actions| Witness::Line { actions });
        let mut finding = Finding::new(
            FindingCode::Fencing,
            format!(
                "a player in the pocket {} can be shut in by a crate on {}: pushed from {} it could only slide to {} {}, which the rules forbid, and a crate that can slide cannot be broken",
                crate::level::render::cell_list(fence.pocket),
                fence.entrance,
                fence.inside,
                if state.is_start(fence.exit) { "the start square" } else { "the sole-path cell" },
                fence.exit
            ),
        )
        .cells(fence.pocket | Bitboard::from_cell(fence.entrance));
        if let Some(w) = witness {
            finding = finding.witness(w);
        }
        report.findings.push(finding);
    }

    // A standoff: the first to the flag cannot get it home past a guard.
    if let Some(found) = standoff(state, walls_only) {
        let carrier = found.carrier;
        let how = if found.caught { "and catches it" } else { "for ever, though it cannot catch it" };
        report.findings.push(
            Finding::new(
                FindingCode::Standoff,
                format!(
                    "{carrier}, first to the flag, cannot bring it home: {} standing on {} by then holds it off {how}, so winning the race wins nothing and games turn into waiting and chases",
                    carrier.other(),
                    crate::level::render::cell_list(found.posts)
                ),
            )
            .cells(found.posts),
        );
    }

    if !report.symmetry.fair() {
        report.findings.push(Finding::new(
            FindingCode::Asymmetric,
            "the layout is not the same for both players under a half turn or a top-to-bottom mirror",
        ));
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// The cell of `cells` nearest to `from`.
fn nearest(from: Cell, cells: Bitboard, graph: &MazeGraph) -> Option<Cell> {
    let distances = graph.distances(from);
    cells.iter().filter_map(|c| distances[c.index()].map(|d| (d, c))).min().map(|(_, c)| c)
}

fn race(state: &GameState, graph: &MazeGraph, report: &mut LevelReport) {
    let from_flag = graph.distances(state.flag());
    let leg = |p: Player| -> Option<RaceLeg> {
        let to_flag = u32::from(from_flag[state.start(p).index()]?);
        let to_goal = state.goals(p).iter().filter_map(|g| from_flag[g.index()]).min()?;
        // Running straight for the flag, the first player's n-th action is
        // the game's action 2n - 1, the second player's 2n.
        let on = if p == state.turn() { 2 * to_flag - 1 } else { 2 * to_flag };
        Some(RaceLeg { player: p, to_flag, to_goal: u32::from(to_goal), reaches_flag_on_action: on })
    };
    let (Some(one), Some(two)) = (leg(Player::One), leg(Player::Two)) else { return };
    let (first, lead) = if one.reaches_flag_on_action <= two.reaches_flag_on_action {
        (Player::One, two.reaches_flag_on_action - one.reaches_flag_on_action)
    } else {
        (Player::Two, one.reaches_flag_on_action - two.reaches_flag_on_action)
    };
    report.race = Some(Race { legs: [one, two], first_to_flag: first, lead });
    if lead < 2
        && let Some(walk) = sure_pickup(state)
    {
        // A lead of the first mover's tempo alone, but one nothing can
        // take away.
        let mover = state.turn().number();
        report.findings.push(
            Finding::new(
                FindingCode::SureFlag,
                format!(
                    "player {mover} surely picks the flag up first, on action {}: every cell of its way there cuts its route, so no crate may ever stand on it, and player {} cannot get in its way in time",
                    walk.plies,
                    state.turn().other().number()
                ),
            )
            .witness(Witness::Path { cells: std::iter::once(state.position(state.turn())).chain(walk.walk).collect() }),
        );
    }
    if lead >= 2 {
        report.findings.push(Finding::new(
            FindingCode::UnfairRace,
            format!(
                "{first} reaches the flag {lead} actions ahead (on action {} against {}), counting steps alone: crates, steals and bonus actions can turn a race, which the balance estimate and the games weigh",
                one.reaches_flag_on_action.min(two.reaches_flag_on_action),
                one.reaches_flag_on_action.max(two.reaches_flag_on_action)
            ),
        ));
    }
}

fn bounded_search(
    state: &GameState,
    options: &AnalysisOptions<'_>,
    report: &mut LevelReport,
) -> SearchReport {
    let limits = SearchLimits { depth: options.depth, budget: options.budget, cancel: options.cancel };
    let (one, n1) = can_win_within(state, Player::One, limits);
    let (two, n2) = can_win_within(state, Player::Two, limits);
    // A dead position: each player shut in a pocket of its own. The line is
    // found by the fence planner and proved by replaying it.
    let start = MazeGraph::new(state.open());
    let all = fences(state, &start);
    let mut dead = Answer::Unknown;
    'pairs: for a in &all {
        for b in &all {
            if a.pocket != b.pocket
                && let Some(line) = stall_line(state, a, b, 200)
            {
                dead = Answer::Proved { line };
                break 'pairs;
            }
        }
    }
    if let Answer::Proved { line } = &dead {
        report.findings.push(
            Finding::new(
                FindingCode::Stall,
                format!("after {} actions both players are shut in and can only pass for ever", line.len()),
            )
            .witness(Witness::Line { actions: line.clone() }),
        );
    }
    // On a small level the whole space may be searched: then the answer is
    // proved or disproved outright.
    let mut n_dead = 0;
    if dead == Answer::Unknown {
        let (verdict, searched) = exhaust_dead(state, options.budget, options.cancel);
        n_dead = searched;
        if let Answer::Proved { line } = &verdict {
            report.findings.push(
                Finding::new(
                    FindingCode::Stall,
                    format!(
                        "after {} actions no win is reachable for either player, found by searching every position the level allows",
                        line.len()
                    ),
                )
                .witness(Witness::Line { actions: line.clone() }),
            );
        }
        dead = verdict;
    }
    // A forced win from the start decides the level before it is played,
    // whatever the race or self-play say.
    let (forced, n3) = solve(state, options.depth, options.budget, options.cancel);
    if let Answer::Proved { line } = &forced {
        let mover = state.turn();
        report.findings.push(
            Finding::new(
                FindingCode::ForcedWin,
                format!(
                    "player {} forces a win within {} actions whatever player {} does: the level is decided before it is played",
                    mover.number(),
                    line.len(),
                    mover.other().number()
                ),
            )
            .witness(Witness::Line { actions: line.clone() }),
        );
    }
    SearchReport {
        depth: options.depth,
        budget: options.budget,
        player1_can_win: one,
        player2_can_win: two,
        dead_position: dead,
        first_forces_win: forced,
        nodes: n1 + n2 + n3 + n_dead,
    }
}
