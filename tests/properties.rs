//! Property tests: random games on random valid levels of every size and
//! option, checked against oracles after every action.

use proptest::prelude::*;
use pushcrate::level::Level;
use pushcrate::rules::path::{RouteEnds, reference_sole_path_cells};
use pushcrate::rules::{
    Action, Bitboard, ByPlayer, Cell, GameState, JumpRule, MAX_SIDE, MIN_SIDE, Player, Rules, Stage,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random valid level and rules, drawn from `seed`.
fn random_start(seed: u64) -> GameState {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    loop {
        let width = rng.random_range(MIN_SIDE..=MAX_SIDE);
        let height = rng.random_range(MIN_SIDE..=MAX_SIDE);
        let mut level = Level::new("random", width, height);
        let density = rng.random_range(0.0..0.35);
        let cells: Vec<Cell> = level.board().iter().collect();
        for &cell in &cells {
            if rng.random_bool(density) {
                level.walls.insert(cell);
            }
        }
        let floor: Vec<Cell> = level.floor().iter().collect();
        if floor.len() < 4 {
            continue;
        }
        let pick = |rng: &mut ChaCha8Rng| floor[rng.random_range(0..floor.len())];
        level.starts = ByPlayer::new(Some(pick(&mut rng)), Some(pick(&mut rng)));
        level.flag = Some(pick(&mut rng));
        if rng.random_bool(0.5) {
            for p in Player::BOTH {
                let goals: Bitboard = (0..rng.random_range(1..4)).map(|_| pick(&mut rng)).collect();
                level.goals[p] = Some(goals);
            }
        }
        for _ in 0..rng.random_range(0..12) {
            let stage = Stage::ALL[rng.random_range(0..4)];
            level.crates.insert(pick(&mut rng), stage);
        }
        level.first = if rng.random_bool(0.5) { Player::One } else { Player::Two };
        let rules = Rules {
            crates_to_win: rng.random_range(1..=6),
            crate_placements: rng.random_range(0..=8),
            flag_bonus_actions: rng.random_range(0..=3),
            draw_offer_after: 50,
            draw_reoffer_gap: 20,
            jump: JumpRule::ALL[rng.random_range(0..3)],
        };
        if let Ok(state) = level.start_state(rules) {
            return state;
        }
    }
}

/// Every action that could be named in a position.
fn every_action(state: &GameState) -> Vec<Action> {
    let mut all = vec![Action::Steal, Action::Pass];
    for cell in Cell::all() {
        if state.board().has(cell) {
            all.push(Action::Move(cell));
            all.push(Action::Place(cell));
        }
    }
    all
}

fn crate_count(state: &GameState) -> u32 {
    state.all_crates().count()
}

fn check_position(state: &GameState) -> Result<(), TestCaseError> {
    // The incremental hash equals a recomputed one.
    prop_assert_eq!(state.hash(), state.compute_hash());
    // No crate on a start square or the lying flag.
    for p in Player::BOTH {
        prop_assert!(!state.all_crates().has(state.start(p)), "crate on a start square");
    }
    if let Some(flag) = state.lying_flag() {
        prop_assert!(!state.all_crates().has(flag), "crate on the lying flag");
    }
    // Stage sets are disjoint and add up to all crates.
    let stages: u32 = Stage::ALL.iter().map(|&s| state.crates(s).count()).sum();
    prop_assert_eq!(stages, crate_count(state));
    // The fast sole-path cells equal one breadth-first search per cell.
    let ends = RouteEnds {
        flag: state.flag(),
        starts: ByPlayer::from_fn(|p| state.start(p)),
        goals: ByPlayer::from_fn(|p| state.goals(p)),
    };
    prop_assert_eq!(state.sole_path_cells(), reference_sole_path_cells(&ends, state.open()));
    // Generated actions and accepted actions are the same set.
    let legal = state.legal_actions();
    for action in every_action(state) {
        let accepted = state.check(action).is_ok();
        prop_assert_eq!(accepted, legal.contains(action), "{} generated/accepted disagree", action);
    }
    prop_assert_eq!(legal.len(), legal.sorted().iter().collect::<std::collections::HashSet<_>>().len());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(seed in any::<u64>()) {
        let start = random_start(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xA5A5);
        let mut state = start;
        let initial_crates = crate_count(&start);
        let placements = |s: &GameState| u32::from(s.placements_left(Player::One)) + u32::from(s.placements_left(Player::Two));
        for _ in 0..80 {
            check_position(&state)?;
            let legal = state.legal_actions();
            if legal.is_empty() {
                prop_assert!(state.is_over());
                break;
            }
            let action = legal[rng.random_range(0..legal.len())];
            let holding = state.routes_holding();
            let before = state;
            prop_assert!(state.play(action).is_ok(), "{} generated but refused", action);
            // A route that holds keeps holding.
            prop_assert!(state.routes_holding().contains_all(holding), "{} cut a route", action);
            if action == Action::Steal {
                prop_assert_eq!(state.flag(), before.position(before.turn().other()));
            }
            // Crates on the board plus destroyed ones equal initial ones plus placed ones.
            let destroyed = u32::from(state.destroyed(Player::One)) + u32::from(state.destroyed(Player::Two));
            let placed = placements(&start) - placements(&state);
            prop_assert_eq!(crate_count(&state) + destroyed, initial_crates + placed);
            prop_assert_eq!(state.actions_played(), before.actions_played() + 1);
        }
    }
}

#[test]
fn random_levels_cover_every_size() {
    let mut sizes = std::collections::HashSet::new();
    for seed in 0..400 {
        let s = random_start(seed);
        sizes.insert((s.width(), s.height()));
    }
    assert!(sizes.len() > 40, "only {} sizes drawn", sizes.len());
}
