//! The sequential balance test, driven by synthetic streams of pair
//! outcomes: no game is played.
//!
//! `cargo test --profile ci sequential -- --nocapture` prints the table of
//! verdicts and games needed that docs/ai.md records.

use pushcrate::sim::{Decision, Design, SEQUENTIAL_CAP, Sequential};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How the synthetic games of a pair come about.
#[derive(Clone, Copy, Debug)]
struct Stream {
    /// The share of games drawn (or stalled).
    draws: f64,
    /// The chance that a pair's second game repeats the first's result:
    /// strong, nearly deterministic agents play alike from both sides.
    echo: f64,
}

/// The first player's half points in one game whose mean score is `mu`.
fn game(rng: &mut ChaCha8Rng, mu: f64, draws: f64) -> u8 {
    let draws = draws.min(2.0 * mu).min(2.0 * (1.0 - mu));
    let win = mu - draws / 2.0;
    let roll: f64 = rng.random();
    if roll < win {
        2
    } else if roll < win + draws {
        1
    } else {
        0
    }
}

/// One simulated check: its decision and the games it took.
fn check(rng: &mut ChaCha8Rng, design: Design, mu: f64, stream: Stream) -> (Decision, u32) {
    let mut test = Sequential::new(design, SEQUENTIAL_CAP);
    while !test.is_settled() {
        let first = game(rng, mu, stream.draws);
        let second = if rng.random::<f64>() < stream.echo { first } else { game(rng, mu, stream.draws) };
        test.observe(first + second, false);
    }
    (test.decision, test.games)
}

/// What many checks at one score concluded.
struct Tally {
    balanced: u32,
    first: u32,
    second: u32,
    uncertain: u32,
    mean_games: f64,
    p90_games: u32,
}

const CHECKS: u32 = 2_000;

fn tally(design: Design, mu: f64, stream: Stream, seed: u64) -> Tally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut games = Vec::new();
    let mut t = Tally { balanced: 0, first: 0, second: 0, uncertain: 0, mean_games: 0.0, p90_games: 0 };
    for _ in 0..CHECKS {
        let (decision, n) = check(&mut rng, design, mu, stream);
        match decision {
            Decision::Balanced => t.balanced += 1,
            Decision::FirstAhead => t.first += 1,
            Decision::SecondAhead => t.second += 1,
            Decision::Uncertain | Decision::Open | Decision::NotFirstAhead | Decision::NotSecondAhead => {
                t.uncertain += 1;
            }
        }
        games.push(n);
    }
    games.sort_unstable();
    t.mean_games = games.iter().map(|&g| f64::from(g)).sum::<f64>() / f64::from(CHECKS);
    t.p90_games = games[(CHECKS as usize * 9) / 10];
    t
}

/// The stated error: α = β = 5% at each edge.
const ERROR: f64 = 0.05;

/// At first-player scores from 30% to 70%, 2,000 simulated checks each,
/// under independent games and under pairs whose games echo each other:
/// a level at 30% or 70% is called balanced, and one at 50% unbalanced,
/// within the stated error; and each is called right most of the time.
#[test]
fn the_sequential_test_keeps_its_error_rates_on_synthetic_pairs() {
    let streams = [
        ("independent games, no draws", Stream { draws: 0.0, echo: 0.0 }),
        ("20% draws, half the pairs echo", Stream { draws: 0.2, echo: 0.5 }),
    ];
    for (name, stream) in streams {
        println!("{name}: score, balanced, player 1 ahead, player 2 ahead, uncertain, games mean, p90");
        for (k, mu) in [0.30, 0.40, 0.45, 0.50, 0.55, 0.60, 0.70].into_iter().enumerate() {
            let t = tally(Design::DEFAULT, mu, stream, 1000 + k as u64);
            let share = |n: u32| f64::from(n) / f64::from(CHECKS);
            println!(
                "  {:.2}: {:5.1}% {:5.1}% {:5.1}% {:5.1}%  {:5.1} {:4}",
                mu,
                100.0 * share(t.balanced),
                100.0 * share(t.first),
                100.0 * share(t.second),
                100.0 * share(t.uncertain),
                t.mean_games,
                t.p90_games
            );
            let context = format!("{name}, score {mu}");
            if (mu - 0.30).abs() < 1e-9 {
                assert!(share(t.balanced) <= ERROR, "{context}: 30% called balanced too often");
                assert!(share(t.second) >= 0.9, "{context}: 30% not found lopsided");
                assert_eq!(t.first, 0, "{context}: 30% called the first player's");
            }
            if (mu - 0.70).abs() < 1e-9 {
                assert!(share(t.balanced) <= ERROR, "{context}: 70% called balanced too often");
                assert!(share(t.first) >= 0.9, "{context}: 70% not found lopsided");
                assert_eq!(t.second, 0, "{context}: 70% called the second player's");
            }
            if (mu - 0.50).abs() < 1e-9 {
                assert!(share(t.first + t.second) <= ERROR, "{context}: 50% called unbalanced too often");
                assert!(share(t.balanced) >= 0.9, "{context}: 50% not found balanced");
            }
            // Every check ends by the cap.
            assert!(t.p90_games <= SEQUENTIAL_CAP, "{context}");
        }
    }
}

/// The default design, and those `--error` and `--zone` offer, keep their
/// own error rates: a level `width` inside an edge is called unbalanced
/// there, and one `width` outside called balanced, at most α of the time
/// (2,000 simulated checks at each point; the simulation's own spread
/// allowed for, about 1.5 points at 3 standard errors). `--nocapture`
/// prints what docs/ai.md's table of other designs records.
#[test]
fn every_design_keeps_its_own_error_rates() {
    let stream = Stream { draws: 0.0, echo: 0.0 };
    for (alpha, width) in [(0.05, 0.05), (0.05, 0.075), (0.05, 0.10), (0.10, 0.05), (0.10, 0.075)] {
        let design = Design { alpha, beta: alpha, width };
        let slack = 3.0 * (alpha * (1.0 - alpha) / f64::from(CHECKS)).sqrt();
        let share = |n: u32| f64::from(n) / f64::from(CHECKS);
        let inside = tally(design, 0.6 - width, stream, 7);
        let outside = tally(design, 0.6 + width, stream, 8);
        let below = tally(design, 0.4 - width, stream, 9);
        let context = format!("α = β = {alpha}, ±{width}");
        assert!(share(inside.first) <= alpha + slack, "{context}: {:.3} called ahead", 0.6 - width);
        assert!(share(outside.balanced) <= alpha + slack, "{context}: {:.3} called balanced", 0.6 + width);
        assert!(share(below.balanced) <= alpha + slack, "{context}: {:.3} called balanced", 0.4 - width);
        let row: Vec<String> = [0.50, 0.575, 0.60, 0.65, 0.70]
            .iter()
            .enumerate()
            .map(|(k, &mu)| {
                let t = tally(design, mu, stream, 20 + k as u64);
                format!(
                    "{mu}: {:.0} games (90th {}), balanced {:.1}%, unbalanced {:.1}%",
                    t.mean_games,
                    t.p90_games,
                    100.0 * share(t.balanced),
                    100.0 * share(t.first + t.second)
                )
            })
            .collect();
        println!("{context}: {}", row.join("; "));
    }
}

/// A level whose first player wins every pair is called after a handful
/// of pairs, and one whose second player does likewise; a pair of copies
/// is played but adds no evidence.
#[test]
fn a_lopsided_level_is_called_within_a_dozen_pairs() {
    for (points, decision) in [(4, Decision::FirstAhead), (0, Decision::SecondAhead)] {
        let mut test = Sequential::new(Design::DEFAULT, SEQUENTIAL_CAP);
        let mut pairs = 0;
        while !test.is_settled() {
            test.observe(points, false);
            pairs += 1;
        }
        assert_eq!(test.decision, decision);
        assert!((4..=12).contains(&pairs), "{pairs} pairs");
    }
    let mut test = Sequential::new(Design::DEFAULT, SEQUENTIAL_CAP);
    for _ in 0..50 {
        test.observe(4, true);
    }
    assert_eq!((test.decision, test.pairs.pairs(), test.games), (Decision::Open, 0, 100));
}

/// Asked only whether the first player is ahead (the balance check's
/// second pairing, once the first has called player 1 ahead), the test
/// stops when the upper edge settles (balanced, when the lower edge
/// settled first), with that edge's error: a level at
/// 70% is called *not ahead*, and one at 45% or 50% *ahead*, within the
/// stated error, and the answer comes sooner than the whole verdict.
#[test]
fn one_edge_alone_keeps_its_error_and_stops_sooner() {
    use pushcrate::sim::Question;
    let stream = Stream { draws: 0.2, echo: 0.5 };
    for (k, mu) in [0.45, 0.50, 0.70].into_iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(2000 + k as u64);
        let (mut ahead, mut not_ahead, mut games, mut full_games) = (0u32, 0u32, 0u64, 0u64);
        for _ in 0..CHECKS {
            let mut one = Sequential::new(Design::DEFAULT, SEQUENTIAL_CAP).asking(Question::FirstAhead);
            let mut full = Sequential::new(Design::DEFAULT, SEQUENTIAL_CAP);
            // The same pairs feed both tests.
            while !one.is_settled() || !full.is_settled() {
                let first = game(&mut rng, mu, stream.draws);
                let second =
                    if rng.random::<f64>() < stream.echo { first } else { game(&mut rng, mu, stream.draws) };
                one.observe(first + second, false);
                full.observe(first + second, false);
            }
            match one.decision {
                Decision::FirstAhead => ahead += 1,
                Decision::NotFirstAhead | Decision::Balanced | Decision::SecondAhead => not_ahead += 1,
                _ => {}
            }
            games += u64::from(one.games);
            full_games += u64::from(full.games);
        }
        let share = |n: u32| f64::from(n) / f64::from(CHECKS);
        println!(
            "  first ahead only, {mu:.2}: ahead {:5.1}%, not ahead {:5.1}%, games mean {:5.1} (the whole verdict {:5.1})",
            100.0 * share(ahead),
            100.0 * share(not_ahead),
            games as f64 / f64::from(CHECKS),
            full_games as f64 / f64::from(CHECKS)
        );
        if mu < 0.6 {
            assert!(share(ahead) <= ERROR, "{mu}: called ahead too often");
            assert!(share(not_ahead) >= 0.9, "{mu}: not found not ahead");
            assert!(games < full_games, "{mu}: one edge stops sooner ({games} against {full_games})");
        } else {
            assert!(share(not_ahead) <= ERROR, "{mu}: 70% called not ahead too often");
            assert!(share(ahead) >= 0.9, "{mu}");
        }
    }
    // A whole-verdict check never ends on one edge's answer.
    let mut test = Sequential::new(Design::DEFAULT, SEQUENTIAL_CAP);
    for _ in 0..30 {
        test.observe(2, false);
    }
    assert_ne!(test.decision, Decision::NotFirstAhead);
}
