//! Fitting the evaluation to game outcomes: the Texel method. Positions
//! are taken from self-play on generated levels of every style, size and
//! symmetry (the training set) and on the bundled levels (the validation
//! set, which the fit never sees); each is labelled with the result of its
//! game for the player to move (1 a win, ½ a draw or a stall, 0 a loss),
//! and the weights of [`crate::ai::FEATURE_NAMES`] are fitted by logistic
//! regression of that result on the features (Newton's method on the mean
//! log loss, with a little ridge). The hand weights are scored on the same
//! positions, with the one scale that fits them best, so that the two
//! losses compare like with like.
//!
//! With [`Options::label`], each position's label blends its game's result
//! with a deeper search's score of it (the search's value passed through
//! the logistic function, as the fitted weights' thousandths of a logit
//! are), so that the evaluation learns what that search sees as well as
//! who won.
//!
//! Deterministic for a seed: the levels, the games (`sim` plays the same
//! games whatever the threads), the searches' labels (each a fresh search
//! with no random choice) and the fit.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::ai::{
    Agent, AlphaBeta, Eval, FEATURE_COUNT, FEATURE_NAMES, FeatureEvaluator, Limits, Weights, estimate,
    features,
};
use crate::generate::{self, Style};
use crate::level::{Pack, Playable};
use crate::rules::{GameState, Outcome, Rules, Symmetry};
use crate::sim::{self, Config};

/// Thousandths of a logit per unit of score: a fitted weight `w` (in
/// logits per unit of its feature) is written as `round(w × SCALE)`.
pub const SCALE: f64 = 1000.0;

/// What a fit is asked.
#[derive(Clone, Debug)]
pub struct Options {
    /// Seeds the levels and the games.
    pub seed: u64,
    /// Generated levels of each style, size and symmetry.
    pub levels_each: usize,
    /// Sides of the generated (square) boards.
    pub sizes: Vec<u8>,
    /// Games per level, in colour-swapped pairs.
    pub games: u32,
    /// The agents whose games are sampled.
    pub agents: [Agent; 2],
    /// Random actions at the start of each game, for varied positions.
    pub opening: u32,
    /// Every how many actions a position is taken.
    pub sample_every: u32,
    /// Worker threads (0: every core).
    pub threads: usize,
    /// Labels each position with a blend of its game's result and a
    /// search's score of it: `None` labels with the result alone.
    pub label: Option<Label>,
    /// Fits the `block` feature too; without it, its weight is 0 and its
    /// column is left out of the fit (the shipped weights leave it out: a
    /// position with it costs about twice as much to score; docs/ai.md,
    /// "The blocking threat").
    pub with_block: bool,
    /// Fits the `natural` feature too (a kept placement's worth by the
    /// crates the level started with); without it, its weight is 0 and
    /// its column is left out of the fit, as in the shipped weights.
    pub with_natural: bool,
}

/// A deeper search's part in each position's label.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Label {
    /// The search: an alpha-beta agent with the fitted evaluation or
    /// other fitted weights, whose values are thousandths of a logit
    /// ([`Label::search_agent`]).
    pub search: Agent,
    /// The game's result's share of the label, 0 to 1 (the search's is
    /// the rest): `result_share × result + (1 − result_share) × σ(value)`.
    pub result_share: f64,
}

impl Label {
    /// The search's limits, if `agent` is an alpha-beta agent with the
    /// fitted evaluation or other fitted weights (whose values are logits).
    #[must_use]
    pub fn search_agent(agent: Agent) -> Option<Limits> {
        match agent {
            Agent::AlphaBeta { depth, nodes, eval: Eval::Fitted | Eval::Weights(_), .. } => {
                Some(Limits { depth, nodes, time: None })
            }
            _ => None,
        }
    }

    /// The search's score of `state` for the player to move, 0 to 1: a
    /// found win 1, a found loss 0, else the logistic function of its
    /// value. `None` when the game is over or the agent is no fitted
    /// alpha-beta agent.
    #[must_use]
    pub fn score(&self, state: &GameState) -> Option<f64> {
        let limits = Label::search_agent(self.search)?;
        let Agent::AlphaBeta { eval, .. } = self.search else { return None };
        let mut search = AlphaBeta::new(FeatureEvaluator::new(eval.weights()), limits);
        let (_, value) = search.best(state)?;
        Some(estimate::win_probability(value, 1.0))
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: 1,
            levels_each: 3,
            sizes: vec![7, 9, 11],
            games: 16,
            agents: [Agent::EXPERT.with_eval(crate::ai::Eval::Hand); 2],
            opening: 4,
            sample_every: 2,
            threads: 0,
            label: None,
            with_block: false,
            with_natural: false,
        }
    }
}

/// A position's features for the player to move, and its game's result
/// for that player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// [`features`] of the position for the player to move.
    pub features: [i32; FEATURE_COUNT],
    /// 1 a win, 0.5 a draw or stall, 0 a loss.
    pub result: f64,
}

/// Positions taken from the games on some levels.
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    /// The positions.
    pub samples: Vec<Sample>,
    /// Levels played.
    pub levels: usize,
    /// Games played.
    pub games: usize,
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Tuned {
    /// The fitted weights, in thousandths of a logit.
    pub weights: Weights,
    /// The training set.
    pub training: DataSet,
    /// The validation set.
    pub validation: DataSet,
    /// Mean log loss of the fitted weights on the training positions.
    pub training_loss: f64,
    /// Mean log loss of the fitted weights on the validation positions.
    pub validation_loss: f64,
    /// Mean log loss of the hand weights on the validation positions, at
    /// their best scale.
    pub hand_validation_loss: f64,
    /// The hand weights' best scale on the training positions: logits per
    /// unit of hand score.
    pub hand_scale: f64,
    /// Mean log loss of a constant prediction (the training positions' mean
    /// result) on the validation positions: what knowing nothing scores.
    pub constant_validation_loss: f64,
}

/// The training levels: `options.levels_each` generated levels of every
/// style, size and symmetry, each kind with its own seed.
#[must_use]
pub fn training_levels(options: &Options, stop: &Arc<AtomicBool>) -> Vec<Playable> {
    let mut levels = Vec::new();
    let mut kind = 0u64;
    for &size in &options.sizes {
        for style in Style::ALL {
            for symmetry in [Some(Symmetry::HalfTurn), Some(Symmetry::MirrorRanks), None] {
                kind += 1;
                let generate_options = generate::Options {
                    width: size,
                    height: size,
                    symmetry,
                    style,
                    seed: options.seed.wrapping_mul(1_000).wrapping_add(kind),
                    balanced: false,
                    clear_of_edges: false,
                    balance_games: 0,
                    balance: sim::STRONG,
                    rules: Rules::default(),
                };
                // A kind that cannot be generated (too small a board for
                // its style) is left out.
                if let Ok(generated) =
                    generate::generate(&generate_options, options.levels_each, &|_| {}, stop)
                {
                    levels.extend(
                        generated.into_iter().filter_map(|g| g.level.playable(Rules::default()).ok()),
                    );
                }
            }
        }
    }
    levels
}

/// The validation levels: every playable level of both bundled packs,
/// which no generated level is.
#[must_use]
pub fn validation_levels() -> Vec<Playable> {
    Pack::bundled_both()
        .into_iter()
        .flat_map(|pack| {
            let rules = pack.rules;
            pack.levels.into_iter().filter_map(move |l| Playable::new(l, rules).ok())
        })
        .collect()
}

/// Plays `options.games` games on each level and takes a position every
/// `options.sample_every` actions after the opening, labelled with the
/// game's result for the player to move. `salt` keeps the games of two
/// sets apart.
#[must_use]
pub fn positions(levels: &[Playable], options: &Options, salt: u64, stop: &Arc<AtomicBool>) -> DataSet {
    let mut set = DataSet::default();
    for (i, playable) in levels.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let start = *playable.start();
        let config = Config {
            agents: options.agents,
            games: options.games,
            seed: options.seed
                ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15)
                ^ (i as u64).wrapping_mul(0x2545_f491),
            max_actions: sim::MAX_ACTIONS,
            threads: options.threads,
            opening: options.opening,
            sequential: None,
        };
        let games = sim::run(&start, &config, &|| {}, stop);
        set.levels += 1;
        set.games += games.len();
        let taken: Vec<(GameState, Sample)> =
            games.iter().flat_map(|game| game_samples(&start, game, options)).collect();
        match options.label {
            None => set.samples.extend(taken.into_iter().map(|(_, sample)| sample)),
            Some(label) => {
                let relabel = |(state, sample): &(GameState, Sample)| {
                    let searched = label.score(state).unwrap_or(sample.result);
                    Sample {
                        result: label.result_share * sample.result + (1.0 - label.result_share) * searched,
                        ..*sample
                    }
                };
                // Each search is fresh and seedless: the same labels on
                // any number of threads, in the positions' order.
                let labelled: Vec<Sample> = match sim::pool(options.threads) {
                    Some(pool) => pool.install(|| taken.par_iter().map(relabel).collect()),
                    None => taken.iter().map(relabel).collect(),
                };
                set.samples.extend(labelled);
            }
        }
    }
    set
}

/// The positions of one game, labelled with its result, each beside the
/// position it describes.
fn game_samples(start: &GameState, game: &sim::GameResult, options: &Options) -> Vec<(GameState, Sample)> {
    let mut samples = Vec::new();
    let mut state = *start;
    for (ply, &action) in game.actions.iter().enumerate() {
        let ply = u32::try_from(ply).unwrap_or(u32::MAX);
        if ply >= options.opening && ply % options.sample_every.max(1) == 0 && !state.is_over() {
            let mover = state.turn();
            let result = match game.outcome {
                Some(Outcome::Win { winner, .. }) if winner == mover => 1.0,
                Some(Outcome::Win { .. }) => 0.0,
                _ => 0.5,
            };
            let mut features = features(&state, mover);
            if !options.with_block {
                features[crate::ai::BLOCK_FEATURE] = 0;
            }
            if !options.with_natural {
                features[crate::ai::NATURAL_FEATURE] = 0;
            }
            samples.push((state, Sample { features, result }));
        }
        state.play_unchecked(action);
    }
    samples
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Mean log loss of predicting `σ(logit(sample))` for each sample.
#[must_use]
pub fn log_loss(samples: &[Sample], logit: impl Fn(&Sample) -> f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(logit(s)).clamp(1e-12, 1.0 - 1e-12);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len() as f64
}

/// The logit of `weights` (in thousandths of a logit) for a sample.
#[must_use]
pub fn weights_logit(weights: &Weights, sample: &Sample) -> f64 {
    f64::from(weights.score(&sample.features)) / SCALE
}

/// Fits weights (logits per unit of each feature) to `samples` by
/// Newton's method on the mean log loss plus `ridge` times the sum of
/// squared weights. Deterministic: sums run in the samples' order.
#[must_use]
pub fn fit(samples: &[Sample], ridge: f64) -> [f64; FEATURE_COUNT] {
    let mut w = [0.0; FEATURE_COUNT];
    if samples.is_empty() {
        return w;
    }
    let n = samples.len() as f64;
    for _ in 0..50 {
        let mut gradient = [0.0; FEATURE_COUNT];
        let mut hessian = [[0.0; FEATURE_COUNT]; FEATURE_COUNT];
        for s in samples {
            let x = s.features.map(f64::from);
            let z: f64 = w.iter().zip(&x).map(|(a, b)| a * b).sum();
            let p = sigmoid(z);
            let curvature = p * (1.0 - p);
            for i in 0..FEATURE_COUNT {
                gradient[i] += (p - s.result) * x[i] / n;
                for j in 0..FEATURE_COUNT {
                    hessian[i][j] += curvature * x[i] * x[j] / n;
                }
            }
        }
        for i in 0..FEATURE_COUNT {
            gradient[i] += 2.0 * ridge * w[i];
            hessian[i][i] += 2.0 * ridge;
        }
        let Some(step) = solve(hessian, gradient) else { break };
        let mut largest: f64 = 0.0;
        for i in 0..FEATURE_COUNT {
            w[i] -= step[i];
            largest = largest.max(step[i].abs());
        }
        if largest < 1e-9 {
            break;
        }
    }
    w
}

/// Solves `a · x = b` by Gaussian elimination with partial pivoting;
/// `None` when `a` is singular.
fn solve(
    mut a: [[f64; FEATURE_COUNT]; FEATURE_COUNT],
    mut b: [f64; FEATURE_COUNT],
) -> Option<[f64; FEATURE_COUNT]> {
    for col in 0..FEATURE_COUNT {
        let pivot = (col..FEATURE_COUNT).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-15 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..FEATURE_COUNT {
            let factor = a[row][col] / pivot_row[col];
            for (value, pivot) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *value -= factor * pivot;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0; FEATURE_COUNT];
    for row in (0..FEATURE_COUNT).rev() {
        let rest: f64 = (row + 1..FEATURE_COUNT).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// The scale (logits per unit of score) that fits `weights`' scores to
/// `samples` best: Newton's method in one dimension.
#[must_use]
pub fn best_scale(samples: &[Sample], weights: &Weights) -> f64 {
    let scores: Vec<f64> = samples.iter().map(|s| f64::from(weights.score(&s.features))).collect();
    let mut k = 0.0;
    for _ in 0..100 {
        let (mut gradient, mut curvature) = (0.0, 0.0);
        for (s, &x) in samples.iter().zip(&scores) {
            let p = sigmoid(k * x);
            gradient += (p - s.result) * x;
            curvature += p * (1.0 - p) * x * x;
        }
        if curvature <= 0.0 {
            break;
        }
        let step = gradient / curvature;
        k -= step;
        if step.abs() < 1e-12 {
            break;
        }
    }
    k
}

/// Plays the games, fits the weights and scores them and the hand weights
/// on the validation positions. `progress` is told each phase as it
/// starts.
#[must_use]
pub fn tune(options: &Options, progress: &dyn Fn(&str), stop: &Arc<AtomicBool>) -> Tuned {
    progress("generating the training levels");
    let train_levels = training_levels(options, stop);
    progress("playing the training games");
    let training = positions(&train_levels, options, 1, stop);
    progress("playing the validation games");
    let validation = positions(&validation_levels(), options, 2, stop);
    progress("fitting");
    let fitted = fit(&training.samples, 1e-6);
    let weights =
        Weights(fitted.map(|w| (w * SCALE).round().clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32));
    let hand_scale = best_scale(&training.samples, &Weights::HAND);
    let mean = if training.samples.is_empty() {
        0.5
    } else {
        training.samples.iter().map(|s| s.result).sum::<f64>() / training.samples.len() as f64
    };
    let constant = (mean / (1.0 - mean)).ln();
    Tuned {
        training_loss: log_loss(&training.samples, |s| weights_logit(&weights, s)),
        validation_loss: log_loss(&validation.samples, |s| weights_logit(&weights, s)),
        hand_validation_loss: log_loss(&validation.samples, |s| {
            hand_scale * f64::from(Weights::HAND.score(&s.features))
        }),
        constant_validation_loss: log_loss(&validation.samples, |_| constant),
        weights,
        training,
        validation,
        hand_scale,
    }
}

impl Tuned {
    /// The weights as `crates/pushcrate-core/src/ai/fitted.toml` holds them, with how they were
    /// made (`command`, the options, the sets and the losses) in comments.
    #[must_use]
    pub fn to_toml(&self, command: &str, options: &Options) -> String {
        let agents = format!("{} against {}", options.agents[0].label(), options.agents[1].label());
        let header = format!(
            "# The evaluation's weights, fitted to game outcomes (docs/ai.md, \"The fitted evaluation\").\n\
             # Made by `{command}`: {} positions from {} games of {agents}\n\
             # on {} generated levels (sizes {:?}, every style and symmetry, {} of each kind; {} random\n\
             # opening actions, a position every {} actions). Validated on {} positions from {} games on\n\
             # the {} bundled levels, which the fit never saw. Mean log loss on the validation positions:\n\
             # fitted {:.4}, hand weights at their best scale {:.4}, knowing nothing {:.4}.\n\
             # Scores are thousandths of a logit of the chance to win. Features: ai::FEATURE_NAMES.\n{}",
            self.training.samples.len(),
            self.training.games,
            self.training.levels,
            options.sizes,
            options.levels_each,
            options.opening,
            options.sample_every,
            self.validation.samples.len(),
            self.validation.games,
            self.validation.levels,
            self.validation_loss,
            self.hand_validation_loss,
            self.constant_validation_loss,
            options.label.map_or_else(String::new, |label| format!(
                "# Each position is labelled {:.2} its game's result and {:.2} the score of {}'s search of it.\n",
                label.result_share,
                1.0 - label.result_share,
                label.search.label()
            )),
        );
        self.weights.to_toml(&header)
    }
}

/// The names of the features with their weights, one per line.
#[must_use]
pub fn weights_text(weights: &Weights) -> String {
    FEATURE_NAMES.iter().zip(weights.0).map(|(name, w)| format!("  {name:<12} {w:>7}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_the_weights_that_made_the_results() {
        // Results drawn from a known logistic model are fitted back to it.
        let truth = [0.3, -0.2, 0.0, 0.5, 0.0, 0.1, 0.0, 0.0, 0.0, -0.15, 0.05];
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
        let samples: Vec<Sample> = (0..20_000)
            .map(|_| {
                let features = std::array::from_fn(|_| rand::Rng::random_range(&mut rng, -4..=4));
                let z: f64 = truth.iter().zip(&features).map(|(w, &x)| w * f64::from(x)).sum();
                let result = if rand::Rng::random::<f64>(&mut rng) < sigmoid(z) { 1.0 } else { 0.0 };
                Sample { features, result }
            })
            .collect();
        let fitted = fit(&samples, 0.0);
        for (f, t) in fitted.iter().zip(truth) {
            assert!((f - t).abs() < 0.05, "{fitted:?} against {truth:?}");
        }
        // The fit's loss is no worse than the truth's on its own data.
        let weights = Weights(fitted.map(|w| (w * SCALE).round() as i32));
        let truth_weights = Weights(truth.map(|w| (w * SCALE).round() as i32));
        let fitted_loss = log_loss(&samples, |s| weights_logit(&weights, s));
        let truth_loss = log_loss(&samples, |s| weights_logit(&truth_weights, s));
        assert!(fitted_loss <= truth_loss + 1e-4, "{fitted_loss} against {truth_loss}");
    }

    #[test]
    fn the_best_scale_of_a_score_is_found() {
        let samples: Vec<Sample> = (-50..=50)
            .flat_map(|x| {
                let p = sigmoid(0.02 * f64::from(x));
                let mut f = [0; FEATURE_COUNT];
                f[0] = x;
                // A win and a loss weighted to the model's chance.
                [Sample { features: f, result: p }]
            })
            .collect();
        let k = best_scale(&samples, &Weights([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
        assert!((k - 0.02).abs() < 1e-6, "{k}");
    }
}
