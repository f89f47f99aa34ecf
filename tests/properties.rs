//! Property tests: random games on random valid levels of every size and
//! option, checked against oracles after every action.

use proptest::prelude::*;
use pushcrate::rules::path::{RouteEnds, reference_sole_path_cells};
use pushcrate::rules::{Action, ByPlayer, Cell, GameState, Player, Stage};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::support::random_start;

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
