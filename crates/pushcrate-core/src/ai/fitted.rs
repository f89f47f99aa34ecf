//! The fitted evaluation: the same kind of score as the hand evaluation
//! ([`super::RaceEvaluator`]), a weighted sum of features of the position,
//! with weights fitted to game outcomes (the Texel method: a logistic
//! regression of who won on the features of positions taken from
//! self-play) instead of chosen by hand.
//!
//! A score is in thousandths of a logit: the fitted model gives the player
//! a chance `1 / (1 + e^(−score / 1000))` of winning from the position.
//! The weights are data (`fitted.toml` beside this file), written by
//! `pushcrate tune`, with how they were made in its comments.

use std::sync::OnceLock;

use super::eval::{Evaluator, finished_score, flag_legs_both, layers_from_flag};
use crate::rules::path::local_cut_candidates;
use crate::rules::{Bitboard, ByPlayer, GameState, Player, RouteEnds, RouteSet};

/// How many features a position has.
pub const FEATURE_COUNT: usize = 11;

/// The features' names, as `fitted.toml` and `pushcrate tune` name them.
/// Each is counted for the player the position is scored for, less the
/// same for the opponent, unless it says otherwise.
pub const FEATURE_NAMES: [&str; FEATURE_COUNT] = [
    // The opponent's steps home with the flag less the player's (the hand
    // evaluation's race).
    "race",
    // Crates destroyed.
    "destroyed",
    // Crate placements left.
    "placements",
    // 1 when the player is to move, −1 when not.
    "to_move",
    // 1 when the player carries the flag, −1 when the opponent does.
    "carrier",
    // With the flag lying: the opponent's steps to it less the player's,
    // who picks it up first.
    "pickup",
    // Bonus actions left, counted for the player to move.
    "bonus",
    // 1 when the player stands next to the opponent's carrier (a steal is
    // a move away), −1 when the opponent stands next to the player's.
    "steal",
    // 1 when the player needs one more crate to win by crates, −1 when the
    // opponent does.
    "last_crate",
    // With placements left, how many steps one placement can add to the
    // opponent's way to its next target (the flag, or home for a carrier),
    // at most 8: a crate on a cell every shortest way passes, where a crate
    // may stand. The player's threat less the opponent's.
    "block",
    // Crate placements left (the player's less the opponent's) times the
    // crates on the board beyond those the players placed, at most 12: what
    // a kept placement is worth on a level that starts with crates, and 0
    // on one that starts with none.
    "natural",
];

/// The index of `block` in [`FEATURE_NAMES`].
pub(crate) const BLOCK: usize = 9;
/// The index of `natural` in [`FEATURE_NAMES`].
pub(crate) const NATURAL: usize = 10;
const _: () = assert!(BLOCK + 1 == NATURAL && NATURAL + 1 == FEATURE_COUNT);

/// A position's features for `player` ([`FEATURE_NAMES`]); the position
/// must not be over.
#[must_use]
#[inline]
pub fn features(state: &GameState, player: Player) -> [i32; FEATURE_COUNT] {
    features_with(state, player, true, true)
}

/// [`features`], with `block` counted only when `with_block` and
/// `natural` only when `with_natural` (else 0): an evaluation that gives
/// either no weight does not pay for it.
#[must_use]
#[inline]
fn features_with(
    state: &GameState,
    player: Player,
    with_block: bool,
    with_natural: bool,
) -> [i32; FEATURE_COUNT] {
    let other = player.other();
    // With `block`, one layered search from the flag gives the flag legs
    // and the blocking threats both.
    let (legs, threat) = if with_block {
        let mut layers = [Bitboard::EMPTY; LAYERS];
        let (reached, last) = layers_from_flag(state, &mut layers);
        let legs = flag_legs_from(state, reached).unwrap_or_else(|| flag_legs_both(state));
        (legs, block_threats_in(state, &layers, last))
    } else {
        (flag_legs_both(state), ByPlayer { one: 0, two: 0 })
    };
    let need = |p: Player| {
        let (to_flag, home) = legs[p];
        i32::try_from(to_flag + home).unwrap_or(i32::MAX)
    };
    let signed = |mine: bool, theirs: bool| i32::from(mine) - i32::from(theirs);
    let carrier = state.carrier();
    let pickup = if carrier.is_none() {
        i32::try_from(legs[other].0).unwrap_or(0) - i32::try_from(legs[player].0).unwrap_or(0)
    } else {
        0
    };
    let to_move = if state.turn() == player { 1 } else { -1 };
    let adjacent = state.position(player).distance(state.position(other)) == 1;
    let to_win = state.rules().crates_to_win;
    let last_crate = |p: Player| state.destroyed(p) + 1 >= to_win;
    [
        need(other) - need(player),
        i32::from(state.destroyed(player)) - i32::from(state.destroyed(other)),
        i32::from(state.placements_left(player)) - i32::from(state.placements_left(other)),
        to_move,
        signed(carrier == Some(player), carrier == Some(other)),
        pickup,
        to_move * i32::from(state.bonus_actions()),
        signed(adjacent && carrier == Some(other), adjacent && carrier == Some(player)),
        signed(last_crate(player), last_crate(other)),
        threat[player] - threat[other],
        if with_natural {
            (i32::from(state.placements_left(player)) - i32::from(state.placements_left(other)))
                * natural_crates(state)
        } else {
            0
        },
    ]
}

/// The crates on the board beyond those the players placed, at most 12
/// (a placed crate since destroyed counts as placed, so this is never
/// more than the level's own crates left).
fn natural_crates(state: &GameState) -> i32 {
    let placed = 2 * u32::from(state.rules().crate_placements)
        - u32::from(state.placements_left(Player::One))
        - u32::from(state.placements_left(Player::Two));
    i32::try_from(state.all_crates().count().saturating_sub(placed).min(12)).unwrap_or(12)
}

/// The cells a crate could be placed on by the cells' contents alone (the
/// path rule aside): floor, no crate, no player, not a start square, not
/// the flag's cell.
fn stand(state: &GameState) -> Bitboard {
    let mut taken = Bitboard::from_cell(state.flag());
    for p in Player::BOTH {
        taken.insert(state.position(p));
        taken.insert(state.start(p));
    }
    state.open() - taken
}

/// For each player, the most steps one placement of its can add to the
/// opponent's way to its next target (the flag, or home for a carrier), at
/// most 8; 0 with no placements left. The placement is on a
/// cell every shortest way of that leg passes, where the path rule lets a
/// crate stand. A cell whose open neighbours are joined around it (not a
/// [`local_cut_candidates`] cell) cuts no route, and a crate there adds 2
/// to 4 steps, counted as 2; one other cell a leg, the one nearest the
/// leg's far end, is measured with a search of its own.
#[must_use]
pub fn block_threats(state: &GameState) -> ByPlayer<i32> {
    let mut layers = [Bitboard::EMPTY; LAYERS];
    let (_, last) = layers_from_flag(state, &mut layers);
    block_threats_in(state, &layers, last)
}

/// [`block_threats`], given the layers of [`layers_from_flag`],
/// `layers[..=reached]`.
fn block_threats_in(state: &GameState, layers: &[Bitboard; LAYERS], reached: usize) -> ByPlayer<i32> {
    let mut threat = ByPlayer { one: 0, two: 0 };
    let armed = Player::BOTH.map(|p| state.placements_left(p) > 0);
    if !armed[0] && !armed[1] {
        return threat;
    }
    let open = state.open();
    let placeable = stand(state);
    let carrier = state.carrier();
    let cuts = local_cut_candidates(open);
    let ends = state.route_ends();
    let mut holding = None;
    for (i, victim) in Player::BOTH.into_iter().enumerate() {
        if !armed[1 - i] {
            continue;
        }
        let end = if carrier == Some(victim) {
            state.goals(victim)
        } else {
            Bitboard::from_cell(state.position(victim))
        };
        let Some(d) = (1..=reached).find(|&k| (layers[k] & end).any()) else {
            continue;
        };
        let mut best = 0;
        let mut fills = 0;
        // Back from the leg's far end along its shortest ways: the cells
        // alone in their layer.
        let mut on = layers[d] & end;
        for k in (1..d).rev() {
            on = layers[k] & on.dilate();
            if on.count() != 1 || !(on & placeable).any() {
                continue;
            }
            if !(on & cuts).any() {
                best = best.max(2);
                continue;
            }
            if fills == BLOCK_FILLS {
                continue;
            }
            fills += 1;
            // One search from the flag over the cells a crate there leaves
            // open: the leg's new length, and whether the path rule lets
            // the crate stand.
            let (after, longer) = search_from(&ends, open - on, end);
            // Blocking only ever cuts routes: with all four holding after,
            // the crate may stand (the routes holding now are looked up
            // only when some route does not).
            if after != RouteSet::ALL
                && !after.contains_all(*holding.get_or_insert_with(|| state.routes_holding()))
            {
                continue;
            }
            let added = match longer {
                Some(longer) => longer.saturating_sub(u32::try_from(d).unwrap_or(u32::MAX)),
                // A crate that shuts the opponent in: its way is through
                // crates.
                None => BLOCK_CAP as u32,
            };
            best = best.max(i32::try_from(added).unwrap_or(BLOCK_CAP).min(BLOCK_CAP));
        }
        threat[Player::BOTH[1 - i]] = best;
    }
    threat
}

/// The flag legs of [`flag_legs_both`] from the layers where a search
/// from the flag first met each of its targets ([`layers_from_flag`]);
/// `None` where [`flag_legs_both`] would count a leg otherwise (a leg with
/// no open way, or longer than the layers kept).
fn flag_legs_from(state: &GameState, reached: [Option<usize>; 4]) -> Option<ByPlayer<(u32, u32)>> {
    let open = state.open();
    if !open.has(state.flag()) || !Player::BOTH.iter().all(|&p| open.has(state.position(p))) {
        return None;
    }
    let steps = |k: Option<usize>| k.and_then(|k| u32::try_from(k).ok());
    let leg = |i: usize| -> Option<(u32, u32)> {
        let home = steps(reached[2 * i + 1])?;
        if state.carrier() == Some(Player::BOTH[i]) {
            Some((0, home))
        } else {
            Some((steps(reached[2 * i])?, home))
        }
    };
    Some(ByPlayer { one: leg(0)?, two: leg(1)? })
}

/// How many layers [`block_threats`] keeps: a leg longer than this is not
/// looked at.
const LAYERS: usize = 48;

/// The most steps [`block_threats`] counts.
const BLOCK_CAP: i32 = 8;
/// How many cells [`block_threats`] measures with a search of its own.
const BLOCK_FILLS: u32 = 1;

/// The routes that hold over `open`, and the steps from the flag to the
/// nearest cell of `to`: one search from the flag, which stops once it has
/// met `to` and the ends of all four routes.
fn search_from(ends: &RouteEnds, open: Bitboard, to: Bitboard) -> (RouteSet, Option<u32>) {
    let flag = Bitboard::from_cell(ends.flag);
    let mut seen = flag;
    let mut frontier = flag;
    let mut d = 0;
    let mut found = (flag & to).any().then_some(0);
    let reached = |seen: Bitboard| {
        seen.has(ends.starts.one)
            && seen.has(ends.starts.two)
            && (seen & ends.goals.one).any()
            && (seen & ends.goals.two).any()
    };
    loop {
        if found.is_some() && reached(seen) {
            return (RouteSet::ALL, found);
        }
        frontier = (frontier.dilate() & open) - seen;
        if frontier.is_empty() {
            return (ends.holding_in(seen), found);
        }
        d += 1;
        if found.is_none() && (frontier & to).any() {
            found = Some(d);
        }
        seen |= frontier;
    }
}

/// Weights of the features, one per name of [`FEATURE_NAMES`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weights(pub [i32; FEATURE_COUNT]);

impl Weights {
    /// The hand evaluation's weights, with none on the features it does
    /// not have: `100 × race + 150 × destroyed + 10 × placements + 30 ×
    /// to_move + 80 × carrier`.
    pub const HAND: Weights = Weights([100, 150, 10, 30, 80, 0, 0, 0, 0, 0, 0]);

    /// The score of features `f`.
    #[must_use]
    pub fn score(&self, f: &[i32; FEATURE_COUNT]) -> i32 {
        self.0.iter().zip(f).map(|(w, x)| w.saturating_mul(*x)).fold(0i32, i32::saturating_add)
    }

    /// The weights as `fitted.toml` writes them: `[weights]`, a key a
    /// feature, after `header` (comment lines, each starting with `#`).
    #[must_use]
    pub fn to_toml(&self, header: &str) -> String {
        let mut text = String::from(header);
        text.push_str("[weights]\n");
        for (name, weight) in FEATURE_NAMES.iter().zip(self.0) {
            text.push_str(&format!("{name} = {weight}\n"));
        }
        text
    }

    /// Reads weights as [`Weights::to_toml`] writes them.
    ///
    /// # Errors
    /// When the text is not TOML, a feature is missing, unknown or not a
    /// whole number in `i32`'s range.
    pub fn from_toml(text: &str) -> Result<Weights, String> {
        let table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
        let weights = table.get("weights").and_then(toml::Value::as_table).ok_or("no [weights] table")?;
        if let Some(unknown) = weights.keys().find(|k| !FEATURE_NAMES.contains(&k.as_str())) {
            return Err(format!("`{unknown}` is not a feature"));
        }
        let mut out = [0; FEATURE_COUNT];
        for (slot, name) in out.iter_mut().zip(FEATURE_NAMES) {
            let value = weights.get(name).ok_or_else(|| format!("no weight for `{name}`"))?;
            *slot = value
                .as_integer()
                .and_then(|v| i32::try_from(v).ok())
                .ok_or_else(|| format!("the weight of `{name}` is not a whole number"))?;
        }
        Ok(Weights(out))
    }

    /// The fitted weights the crate ships (`crates/pushcrate-core/src/ai/fitted.toml`).
    ///
    /// # Panics
    /// Never for the shipped file, which a test reads.
    #[must_use]
    pub fn fitted() -> Weights {
        static FITTED: OnceLock<Weights> = OnceLock::new();
        *FITTED.get_or_init(|| Weights::from_toml(FITTED_TOML).unwrap_or(Weights::HAND))
    }
}

/// The weights joined by `_`, in the order of [`FEATURE_NAMES`]: how an
/// agent's `weights=` option gives them (`41_-56_101_…`). A `natural` of
/// 0 is left out, so that weights from before it was a feature print as
/// they did (and read back the same).
impl std::fmt::Display for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown = if self.0[NATURAL] == 0 { &self.0[..NATURAL] } else { &self.0[..] };
        for (i, w) in shown.iter().enumerate() {
            if i > 0 {
                f.write_str("_")?;
            }
            write!(f, "{w}")?;
        }
        Ok(())
    }
}

/// The shipped fitted weights, as `pushcrate tune` wrote them.
pub const FITTED_TOML: &str = include_str!("fitted.toml");

/// A bound on a feature's magnitude: a player's steps home are two legs of
/// at most 200 steps each (a leg with no way), the counts are bytes.
const FEATURE_BOUND: i64 = 1 << 10;

/// An evaluation by weighted features: with [`Weights::HAND`] it scores as
/// [`super::RaceEvaluator`] does (more slowly: it counts every feature).
#[derive(Clone, Copy, Debug)]
pub struct FeatureEvaluator {
    weights: Weights,
    /// Whether no product and no partial sum of the score can leave `i32`
    /// (the weights' magnitudes summed, times the largest feature, fit):
    /// then plain arithmetic gives [`Weights::score`]'s saturating sum,
    /// without its checks.
    plain: bool,
}

impl FeatureEvaluator {
    /// The evaluation with `weights`.
    #[must_use]
    pub const fn new(weights: Weights) -> FeatureEvaluator {
        let mut sum: i64 = 0;
        let mut i = 0;
        while i < FEATURE_COUNT {
            sum += (weights.0[i] as i64).abs();
            i += 1;
        }
        FeatureEvaluator { weights, plain: sum * FEATURE_BOUND <= i32::MAX as i64 }
    }
}

impl Evaluator for FeatureEvaluator {
    #[inline]
    fn evaluate(&self, state: &GameState, player: Player) -> i32 {
        if let Some(score) = finished_score(state, player) {
            return score;
        }
        let w = &self.weights.0;
        let f = features_with(state, player, w[BLOCK] != 0, w[NATURAL] != 0);
        debug_assert!(f.iter().all(|&x| i64::from(x).abs() < FEATURE_BOUND), "{f:?}");
        let score = if self.plain {
            self.weights.0.iter().zip(&f).map(|(w, x)| w * x).sum()
        } else {
            self.weights.score(&f)
        };
        // Far from the bound of a win: a score stays a score.
        score.clamp(-super::eval::WIN_BOUND / 2, super::eval::WIN_BOUND / 2)
    }
}
