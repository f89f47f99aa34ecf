//! Statistics of a self-play run: win rates with Wilson intervals, balance,
//! stalls, game lengths, and the verdicts.

use super::game::GameResult;
use super::sequential::{BAND, Leaning, Sequential};
use crate::rules::{Outcome, Player, WinKind};

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Rate {
    /// The observed proportion, 0 to 1.
    pub rate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Rate {
    /// `successes` out of `n` (successes may be fractional: half points).
    #[must_use]
    pub fn wilson(successes: f64, n: u32) -> Rate {
        if n == 0 {
            return Rate { rate: 0.0, low: 0.0, high: 1.0 };
        }
        let n = f64::from(n);
        let p = successes / n;
        let z = 1.959_964;
        let z2 = z * z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        Rate { rate: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
    }

    /// `successes` out of `n` games of which only `distinct` differ: the
    /// rate is the games', the interval that of `distinct` independent
    /// games with the same rate. Copies of one game are one observation,
    /// so a run whose games repeat gets the wider interval it deserves.
    #[must_use]
    pub fn wilson_distinct(successes: f64, n: u32, distinct: u32) -> Rate {
        if n == 0 {
            return Rate::wilson(0.0, 0);
        }
        let rate = successes / f64::from(n);
        let distinct = distinct.clamp(1, n);
        Rate { rate, ..Rate::wilson(rate * f64::from(distinct), distinct) }
    }
}

/// Game lengths in actions.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Lengths {
    /// Mean.
    pub mean: f64,
    /// Median.
    pub median: f64,
    /// 90th percentile.
    pub p90: f64,
    /// Standard deviation.
    pub spread: f64,
}

/// The verdicts a designer acts on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ReportVerdict {
    /// The first player's score interval lies outside 40–60%.
    pub unbalanced: bool,
    /// Neither unbalanced nor shown balanced: the first player's score
    /// interval straddles an edge of 40–60% (more distinct games would
    /// tell). Balanced means the interval lies within 40–60%.
    pub uncertain: bool,
    /// The stall rate's 95% interval lies above 5%: more than one game in
    /// twenty hits the action cap without the agents repeating a position.
    pub stall_prone: bool,
}

/// The report of one level's self-play run.
#[derive(Clone, PartialEq, Debug)]
pub struct Report {
    /// The level's id.
    pub level: String,
    /// The two agents, A then B.
    pub agents: [String; 2],
    /// Games finished (all of them unless the run was stopped).
    pub games: u32,
    /// Games that differ from every other in at least one action. The
    /// intervals count these, not `games`: copies add no evidence.
    pub distinct_games: u32,
    /// Whether the run was stopped before all games were played.
    pub interrupted: bool,
    /// Wins by player 1 and player 2.
    pub wins_by_player: [u32; 2],
    /// Wins by agent A and agent B.
    pub wins_by_agent: [u32; 2],
    /// Wins by the flag and by crates.
    pub wins_by_flag: u32,
    /// Wins by destroyed crates.
    pub wins_by_crates: u32,
    /// Games drawn by agreement.
    pub draws: u32,
    /// Games that reached the action cap without a threefold repetition.
    pub stalls: u32,
    /// Games ended by a position occurring a third time: the agents'
    /// loop, counted as a draw, not as a stall of the level.
    pub repetitions: u32,
    /// Who moves first in this level (written as 1 or 2).
    pub first_player: Player,
    /// The first player's score (a draw or stall counting half).
    pub first_player_score: Rate,
    /// The first player's win rate minus the second player's.
    pub first_player_advantage: f64,
    /// 1 − the gap between the two players' win rates.
    pub balance: f64,
    /// Agent A's score against B (a draw or stall counting half).
    pub agent_a_score: Rate,
    /// The share of games that stalled.
    pub stall_rate: Rate,
    /// The share of games ended by repetition.
    pub repetition_rate: Rate,
    /// Game lengths.
    pub length: Lengths,
    /// The verdicts of this run alone.
    pub verdicts: ReportVerdict,
    /// The sequential test that stopped the run, when one did: its
    /// decision is then the run's verdict, not the fixed-size interval.
    pub sequential: Option<Sequential>,
}

/// A forced win proved by the solver.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ForcedWin {
    /// The player who forces the win (written as 1 or 2).
    pub player: Player,
    /// The winning line from the start, in the notation of docs/rules.md.
    pub line: Vec<crate::rules::Action>,
}

impl Report {
    /// The player who moves first in the report's games.
    #[must_use]
    pub const fn first(&self) -> Player {
        self.first_player
    }

    /// Where the first player's interval lies against 40–60%: within
    /// ([`Leaning::Even`], balanced), wholly outside in favour of a player
    /// ([`Leaning::Ahead`], unbalanced), or `None` across an edge or with no
    /// game (uncertain) — the same classification as [`Report::verdicts`].
    /// A run stopped by its sequential test leans as the test decided.
    #[must_use]
    pub fn leaning(&self) -> Option<Leaning> {
        if let Some(test) = &self.sequential {
            return test.leaning(self.first());
        }
        let score = self.first_player_score;
        let (low, high) = BAND;
        if self.games == 0 {
            None
        } else if score.low >= low && score.high <= high {
            Some(Leaning::Even)
        } else if score.low > high {
            Some(Leaning::Ahead(self.first()))
        } else if score.high < low {
            Some(Leaning::Ahead(self.first().other()))
        } else {
            None
        }
    }
}

fn percentile(sorted: &[u32], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    // Linear interpolation between the closest ranks.
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    let frac = pos - lo as f64;
    f64::from(sorted[lo]) * (1.0 - frac) + f64::from(sorted[hi]) * frac
}

impl Report {
    /// Summarises `results`.
    #[must_use]
    pub fn new(
        level: &str,
        agents: [String; 2],
        first: Player,
        results: &[GameResult],
        interrupted: bool,
    ) -> Report {
        let games = results.len() as u32;
        let distinct =
            results.iter().map(|r| r.actions.as_slice()).collect::<std::collections::HashSet<_>>().len()
                as u32;
        let rate = |successes: f64| Rate::wilson_distinct(successes, games, distinct);
        let mut wins_by_player = [0u32; 2];
        let mut wins_by_agent = [0u32; 2];
        let (mut flag, mut crates, mut draws, mut stalls, mut repetitions) = (0, 0, 0, 0, 0);
        for r in results {
            match r.outcome {
                Some(Outcome::Win { winner, by }) => {
                    wins_by_player[winner.index()] += 1;
                    wins_by_agent[r.agent_of(winner)] += 1;
                    match by {
                        WinKind::Flag => flag += 1,
                        WinKind::Crates => crates += 1,
                    }
                }
                Some(Outcome::Draw) => draws += 1,
                None if r.repeated => repetitions += 1,
                None => stalls += 1,
            }
        }
        let halves = f64::from(draws + stalls + repetitions) / 2.0;
        let first_wins = wins_by_player[first.index()];
        let second_wins = wins_by_player[first.other().index()];
        let n = f64::from(games.max(1));
        let (w_first, w_second) = (f64::from(first_wins) / n, f64::from(second_wins) / n);
        let mut lengths: Vec<u32> = results.iter().map(|r| r.length).collect();
        lengths.sort_unstable();
        // Sums start at 0.0, not at the -0.0 an empty `f64` sum gives.
        let mean = lengths.iter().fold(0.0, |sum, &l| sum + f64::from(l)) / n;
        let spread = (lengths.iter().fold(0.0, |sum, &l| sum + (f64::from(l) - mean).powi(2)) / n).sqrt();
        let first_player_score = rate(f64::from(first_wins) + halves);
        let stall_rate = rate(f64::from(stalls));
        Report {
            level: level.to_owned(),
            agents,
            games,
            distinct_games: distinct,
            interrupted,
            wins_by_player,
            wins_by_agent,
            wins_by_flag: flag,
            wins_by_crates: crates,
            draws,
            stalls,
            repetitions,
            first_player: first,
            first_player_score,
            first_player_advantage: w_first - w_second,
            balance: 1.0 - (w_first - w_second).abs(),
            agent_a_score: rate(f64::from(wins_by_agent[0]) + halves),
            stall_rate,
            repetition_rate: rate(f64::from(repetitions)),
            length: Lengths {
                mean,
                median: percentile(&lengths, 0.5),
                p90: percentile(&lengths, 0.9),
                spread,
            },
            verdicts: ReportVerdict {
                unbalanced: games > 0
                    && (first_player_score.low > BAND.1 || first_player_score.high < BAND.0),
                uncertain: games == 0
                    || (first_player_score.low <= BAND.1
                        && first_player_score.high >= BAND.0
                        && (first_player_score.low < BAND.0 || first_player_score.high > BAND.1)),
                stall_prone: stall_rate.low > 0.05,
            },
            sequential: None,
        }
    }

    /// The same report, judged by the sequential test that stopped its
    /// run: the verdicts follow the test's decision.
    #[must_use]
    pub fn with_sequential(mut self, test: Sequential) -> Report {
        self.sequential = Some(test);
        // The interval shown is the pairs', as the test counts them.
        let (low, high) = test.pairs.interval();
        self.first_player_score = Rate { rate: test.pairs.mean(), low, high };
        let leaning = self.leaning();
        self.verdicts.unbalanced = matches!(leaning, Some(Leaning::Ahead(_)));
        self.verdicts.uncertain = leaning.is_none();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_of_no_game_has_no_negative_zero() {
        let r = Report::new("x", ["a".into(), "b".into()], Player::One, &[], true);
        for value in [r.length.mean, r.length.median, r.length.p90, r.length.spread, r.first_player_advantage]
        {
            assert!(value == 0.0 && value.is_sign_positive(), "{value}");
        }
        assert!(r.verdicts.uncertain && !r.verdicts.unbalanced);
    }

    #[test]
    fn wilson_matches_known_values() {
        // 50 of 100: the interval is about 0.404 to 0.596.
        let r = Rate::wilson(50.0, 100);
        assert!((r.low - 0.4038).abs() < 1e-3 && (r.high - 0.5962).abs() < 1e-3, "{r:?}");
        let none = Rate::wilson(0.0, 10);
        assert_eq!(none.low, 0.0);
        assert!((none.high - 0.2775).abs() < 1e-3);
    }

    #[test]
    fn repeated_games_widen_the_interval() {
        let independent = Rate::wilson_distinct(99.0, 100, 100);
        let one_game = Rate::wilson_distinct(99.0, 100, 1);
        assert_eq!((independent.rate, one_game.rate), (0.99, 0.99));
        assert!(independent.low > 0.94, "{independent:?}");
        // A hundred copies of one game say no more than one game.
        assert_eq!(one_game, Rate { rate: 0.99, ..Rate::wilson(0.99, 1) });
        assert!(one_game.low < 0.25, "{one_game:?}");
    }

    #[test]
    fn percentiles_interpolate() {
        let v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(percentile(&v, 0.5), 5.5);
        assert!((percentile(&v, 0.9) - 9.1).abs() < 1e-9);
    }
}
