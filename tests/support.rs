//! Helpers shared by the integration tests.

use pushcrate::level::Level;
use pushcrate::level::render::level_from_diagram;
use pushcrate::rules::{Action, Bitboard, Cell, GameState, Player, Rules};

/// A cell by name.
pub fn c(name: &str) -> Cell {
    name.parse().unwrap()
}

/// An action by notation.
pub fn a(text: &str) -> Action {
    text.parse().unwrap()
}

/// Cells by name.
pub fn cells(names: &str) -> Bitboard {
    names.split_whitespace().map(c).collect()
}

/// A level drawn in the legend, with goal sets given by cell names.
pub fn level(diagram: &str, goals1: &str, goals2: &str) -> Level {
    let mut level = level_from_diagram("test", diagram).unwrap();
    level.goals.one = Some(cells(goals1));
    level.goals.two = Some(cells(goals2));
    level
}

/// The starting position of a drawn level under `rules`.
pub fn state_with(diagram: &str, goals1: &str, goals2: &str, rules: Rules) -> GameState {
    level(diagram, goals1, goals2).start_state(rules).unwrap()
}

/// The starting position of a drawn level under default rules.
pub fn state(diagram: &str, goals1: &str, goals2: &str) -> GameState {
    state_with(diagram, goals1, goals2, Rules::default())
}

/// Plays actions, panicking with the reason on an illegal one.
pub fn play(state: &mut GameState, actions: &str) {
    for word in actions.split_whitespace() {
        if let Err(e) = state.play(a(word)) {
            panic!("{word} is illegal: {e}");
        }
    }
}

/// The sorted legal actions as notation.
pub fn moves(state: &GameState) -> Vec<String> {
    state.legal_actions().sorted().iter().map(ToString::to_string).collect()
}

/// Player shorthand.
pub const P1: Player = Player::One;
/// Player shorthand.
pub const P2: Player = Player::Two;
