//! Perft counts of every level of both bundled packs, stored in
//! `tests/data/perft.toml`, and perft's own definition.

use std::collections::BTreeMap;

use pushcrate::level::Pack;
use pushcrate::rules::{divide, perft, perft_full};

fn stored() -> BTreeMap<String, Vec<u64>> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.toml")).unwrap();
    toml::from_str(&text).unwrap()
}

#[test]
fn bundled_levels_match_stored_counts() {
    let stored = stored();
    let packs = Pack::bundled_both();
    let levels: Vec<_> =
        packs.iter().flat_map(|pack| pack.levels.iter().map(move |level| (pack, level))).collect();
    assert_eq!(stored.len(), levels.len(), "every level has stored counts");
    for (pack, level) in levels {
        let state = level.start_state(pack.rules).unwrap();
        let counts = &stored[&level.id];
        assert_eq!(counts.len(), 4, "{}: depths 1 to 4", level.id);
        for (depth, &expected) in (1..=4).zip(counts) {
            assert_eq!(perft(&state, depth), expected, "{} at depth {depth}", level.id);
        }
    }
}

#[test]
fn perft_definitions_agree() {
    let pack = Pack::bundled_flawed();
    let state = pack.level("tiny").unwrap().start_state(pack.rules).unwrap();
    assert_eq!(perft(&state, 0), 1);
    for depth in 1..=3 {
        assert_eq!(perft(&state, depth), perft_full(&state, depth));
        let sum: u64 = divide(&state, depth).iter().map(|(_, n)| n).sum();
        assert_eq!(sum, perft(&state, depth));
    }
}

/// Perft by asking [`GameState::check`] about every nameable action: it
/// shares no code with move generation.
fn perft_by_check(state: &pushcrate::rules::GameState, depth: u32) -> u64 {
    use pushcrate::rules::{Action, Cell};
    if depth == 0 {
        return 1;
    }
    let mut all = vec![Action::Steal, Action::Pass];
    for cell in Cell::all().filter(|&c| state.board().has(c)) {
        all.push(Action::Move(cell));
        all.push(Action::Place(cell));
    }
    all.into_iter()
        .filter_map(|action| state.after(action).ok())
        .map(|next| perft_by_check(&next, depth - 1))
        .sum()
}

#[test]
fn perft_agrees_with_checking_every_action() {
    for id in ["open", "maze", "crates", "tiny", "fortress"] {
        let pack = Pack::bundled_with(id).unwrap();
        let state = pack.level(id).unwrap().start_state(pack.rules).unwrap();
        assert_eq!(perft_by_check(&state, 2), perft(&state, 2), "{id}");
    }
}

/// Every level of both shipped packs, at two points of a seeded random
/// game: the engine's perft to depth 3 against the reference engine of
/// `tests/reference.rs`, a plain grid with breadth-first searches that
/// shares no code with it and reads the levels from their JSON export.
#[test]
fn an_independent_engine_counts_the_same_on_random_mid_game_positions() {
    use rand::SeedableRng;
    let mut compared = 0;
    for file in ["mazes/default.toml", "mazes/flawed.toml"] {
        let exported = assert_cmd::Command::cargo_bin("pushcrate")
            .unwrap()
            .args(["export", file, "--with-analysis", "--format", "json"])
            .output()
            .unwrap();
        assert!(exported.status.success());
        let json: serde_json::Value = serde_json::from_slice(&exported.stdout).unwrap();
        let pack = pushcrate::files::read_pack(std::path::Path::new(file)).unwrap().parsed.pack.unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
        for level in &pack.levels {
            let mut state = level.start_state(pack.rules).unwrap();
            let mut line = Vec::new();
            for stop in [12, 30] {
                while line.len() < stop && !state.is_over() {
                    let action = crate::support::mostly_a_move(&state.legal_actions(), &mut rng);
                    state.play(action).unwrap();
                    line.push(action.to_string());
                }
                let text = line.join(" ");
                let reference = crate::reference::perft_after(&json, &level.id, &text, 3);
                assert_eq!(perft(&state, 3), reference, "{file} {} after [{text}]", level.id);
                compared += 1;
            }
        }
    }
    assert!(compared >= 38, "{compared} positions");
}
