//! Helpers shared by the integration tests.

use pushcrate::level::Level;
use pushcrate::level::render::level_from_diagram;
use pushcrate::rules::{
    Action, Bitboard, ByPlayer, Cell, GameState, JumpRule, MAX_SIDE, MIN_SIDE, Player, Rules, Stage,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

/// A random valid level and rules, drawn from `seed`.
pub fn random_start(seed: u64) -> GameState {
    random_level(seed).0
}

/// A random valid level with its rules and starting position, drawn from `seed`.
pub fn random_level(seed: u64) -> (GameState, Level, Rules) {
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
            return (state, level, rules);
        }
    }
}

/// A random action of `actions`: a move (step, jump, push) three times in
/// four when there is one, so that placements last into the middle game
/// and positions repeat.
pub fn mostly_a_move(actions: &[Action], rng: &mut impl Rng) -> Action {
    let moves: Vec<Action> = actions.iter().copied().filter(|a| !matches!(a, Action::Place(_))).collect();
    if !moves.is_empty() && rng.random_range(0..4) > 0 {
        moves[rng.random_range(0..moves.len())]
    } else {
        actions[rng.random_range(0..actions.len())]
    }
}
