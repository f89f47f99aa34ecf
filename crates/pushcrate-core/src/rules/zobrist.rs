//! Zobrist keys, made at compile time from a fixed seed.
//!
//! The hash covers what the legal moves and the future of a game depend on:
//! crates, players, the flag, the side to move, bonus actions, placements
//! left and destroyed crates. It leaves out the action count and the draw
//! offer counters, which only matter to players offering draws.

use super::types::{Cell, Player, Stage};

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Counters above this share the last key.
pub const COUNTER_KEYS: usize = 64;
const CELLS: usize = Cell::COUNT;

const CRATE_BASE: usize = 0;
const PLAYER_BASE: usize = CRATE_BASE + 4 * CELLS;
const FLAG_BASE: usize = PLAYER_BASE + 2 * CELLS;
const CARRIED_BASE: usize = FLAG_BASE + CELLS;
const TURN_KEY: usize = CARRIED_BASE + 2;
const BONUS_BASE: usize = TURN_KEY + 1;
const PLACEMENT_BASE: usize = BONUS_BASE + COUNTER_KEYS;
const DESTROYED_BASE: usize = PLACEMENT_BASE + 2 * COUNTER_KEYS;
const KEY_COUNT: usize = DESTROYED_BASE + 2 * COUNTER_KEYS;

static KEYS: [u64; KEY_COUNT] = {
    let mut keys = [0u64; KEY_COUNT];
    let mut state = 0x5055_5348_4352_4154u64; // "PUSHCRAT"
    let mut i = 0;
    while i < KEY_COUNT {
        state = splitmix(state);
        keys[i] = state;
        i += 1;
    }
    keys
};

/// Key of a crate of `stage` on `cell`.
#[inline]
pub fn crate_key(stage: Stage, cell: Cell) -> u64 {
    KEYS[CRATE_BASE + stage.index() * CELLS + cell.index()]
}

/// Key of `player` standing on `cell`.
#[inline]
pub fn player_key(player: Player, cell: Cell) -> u64 {
    KEYS[PLAYER_BASE + player.index() * CELLS + cell.index()]
}

/// Key of the flag: lying on `cell`, or carried by `carrier`.
#[inline]
pub fn flag_key(cell: Cell, carrier: Option<Player>) -> u64 {
    match carrier {
        None => KEYS[FLAG_BASE + cell.index()],
        Some(p) => KEYS[CARRIED_BASE + p.index()],
    }
}

/// Key XORed in when player 2 is to move.
#[inline]
pub fn turn_key() -> u64 {
    KEYS[TURN_KEY]
}

/// Key of `n` bonus actions left.
#[inline]
pub fn bonus_key(n: u8) -> u64 {
    KEYS[BONUS_BASE + (n as usize).min(COUNTER_KEYS - 1)]
}

/// Key of `player` having `n` placements left.
#[inline]
pub fn placements_key(player: Player, n: u8) -> u64 {
    KEYS[PLACEMENT_BASE + player.index() * COUNTER_KEYS + (n as usize).min(COUNTER_KEYS - 1)]
}

/// Key of `player` having destroyed `n` crates.
#[inline]
pub fn destroyed_key(player: Player, n: u8) -> u64 {
    KEYS[DESTROYED_BASE + player.index() * COUNTER_KEYS + (n as usize).min(COUNTER_KEYS - 1)]
}
