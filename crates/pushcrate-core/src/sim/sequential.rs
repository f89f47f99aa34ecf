//! The sequential balance test: colour-swapped pairs of games, one
//! observation each, judged after every pair against the 40–60% band, and
//! stopped the moment the verdict is settled.
//!
//! The method is the one chess-engine testing uses to stop a match early
//! (fishtest's and OpenBench's SPRT on the pentanomial model):
//!
//! - **Pentanomial observations.** A pair is two games from the same
//!   opening with the agents' colours swapped. The first player's points
//!   over the pair (0, ½, 1, 1½ or 2) are one observation, so the
//!   correlation inside a pair counts, and a pair whose two games both
//!   copy earlier games adds no evidence and is not counted.
//! - **A generalised SPRT at each edge of the band.** At the upper edge
//!   (60%) the test weighs the first player's mean score μ = 55% (inside)
//!   against μ ≥ 65% (outside); at the lower edge, 45% against ≤ 35%. The
//!   log-likelihood ratio of two means is computed from the observed
//!   pentanomial frequencies, each mean's distribution being the maximum
//!   likelihood one with that mean (M. Van den Bergh's method, as in
//!   fishtest's `LLRcalc.py`). An edge settles *inside* when the ratio
//!   falls to ln(β / (1 − α)), and *outside* when it rises to
//!   ln((1 − β) / α) (Wald's bounds).
//! - **Outside is a mixture of alternatives.** The test for *outside*
//!   mixes the likelihood ratios of several alternatives (5, 15, 25 and
//!   35 points past the edge, weighted ½, ⅙, ⅙, ⅙: Robbins's mixture
//!   SPRT), so that a level far from the band is called after a handful
//!   of pairs rather than after the pairs a near alternative would need.
//!
//! The verdict: *balanced* when both edges settle inside; *player N
//! ahead* when an edge settles outside; *uncertain* when the cap comes
//! first. A check that needs only one edge's answer (the balance check's
//! second pairing, once the first has called a player ahead: only whether
//! this pairing agrees is left to learn) asks a [`Question`] of that edge
//! alone and stops when it settles. With α = β = 0.05 at each edge, a
//! level whose first player scores at most 55% (at least 45%) is called
//! unbalanced at that edge at most 5% of the time, and one at 65% or more
//! (35% or less) is called balanced at most 5% of the time; a test drives
//! the rule with synthetic streams of pairs and checks it (docs/ai.md
//! records the games needed).

use crate::rules::Player;

/// Which way a balance verdict leans: the level even, or a player ahead.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Leaning {
    /// The first player's score lies within the band: balanced.
    Even,
    /// This player is ahead: unbalanced in its favour.
    Ahead(Player),
}

impl std::fmt::Display for Leaning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Leaning::Even => f.write_str("balanced"),
            Leaning::Ahead(player) => write!(f, "player {} ahead", player.number()),
        }
    }
}

/// The band a balanced level's first player scores within.
pub const BAND: (f64, f64) = (0.4, 0.6);

/// How a sequential check is run: its error rates and its indifference
/// half-width (its cap is the run's number of games).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Design {
    /// The chance of calling a level outside the band when it scores
    /// `width` inside an edge.
    pub alpha: f64,
    /// The chance of calling a level inside the band when it scores
    /// `width` outside an edge.
    pub beta: f64,
    /// Half the indifference zone at each edge: a score within `width` of
    /// an edge may be called either way.
    pub width: f64,
}

impl Design {
    /// α = β = 0.05, indifference ±5 points at each edge.
    pub const DEFAULT: Design = Design { alpha: 0.05, beta: 0.05, width: 0.05 };

    /// The upper bound of the log-likelihood ratio: past it, *outside*.
    #[must_use]
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The lower bound: below it, *inside*.
    #[must_use]
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }
}

impl Default for Design {
    fn default() -> Design {
        Design::DEFAULT
    }
}

/// The alternatives the test for *outside* mixes: distance past the edge
/// and weight.
const MIXTURE: [(f64, f64); 4] = [(0.0, 0.5), (0.1, 1.0 / 6.0), (0.2, 1.0 / 6.0), (0.3, 1.0 / 6.0)];

/// The five pair outcomes' values, as the first player's mean score over
/// the pair.
const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Counts of the five pair outcomes: the first player's points over a
/// colour-swapped pair, in half points (0 to 4).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Pentanomial {
    /// Pairs by the first player's half points: 0, 1, 2, 3, 4.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Adds a pair in which the first player took `half_points` (0 to 4;
    /// more counts as 4).
    pub fn add(&mut self, half_points: u8) {
        self.counts[usize::from(half_points.min(4))] += 1;
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The first player's mean score, 0 to 1 (½ with no pair).
    #[must_use]
    pub fn mean(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        self.counts.iter().zip(SCORES).map(|(&c, s)| f64::from(c) * s).sum::<f64>() / f64::from(n)
    }

    /// A 95% interval of the mean for display, from the pairs' own spread
    /// (the pentanomial variance, which counts the correlation inside a
    /// pair), with half a pair added at each extreme so that a run of
    /// identical pairs does not show a zero-width interval. The verdict
    /// comes from the sequential test, not from this interval.
    #[must_use]
    pub fn interval(&self) -> (f64, f64) {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let sum: f64 = self.counts.iter().zip(SCORES).map(|(&c, s)| f64::from(c) * s).sum();
        let squares: f64 = self.counts.iter().zip(SCORES).map(|(&c, s)| f64::from(c) * s * s).sum();
        // Half a pair at 0 and half at 1.
        let (m, sum, squares) = (n + 1.0, sum + 0.5, squares + 0.5);
        let mean = sum / m;
        let var = (squares / m - mean * mean).max(0.0);
        let half = 1.96 * (var / m).sqrt();
        ((self.mean() - half).max(0.0), (self.mean() + half).min(1.0))
    }

    /// The observed frequencies, with an empty outcome given a tiny count
    /// (fishtest's regularisation) so that every mean in (0, 1) has a
    /// distribution.
    fn frequencies(&self) -> [f64; 5] {
        let counts = self.counts.map(|c| if c == 0 { 1e-3 } else { f64::from(c) });
        let n: f64 = counts.iter().sum();
        counts.map(|c| c / n)
    }

    /// The log-likelihood ratio of mean `s1` against mean `s0`, each with
    /// the maximum-likelihood distribution of that mean given the
    /// observed frequencies.
    #[must_use]
    pub fn llr(&self, s0: f64, s1: f64) -> f64 {
        self.llrs(s0, [s1])[0]
    }

    /// The log-likelihood ratios of each of `alternatives` against `s0`,
    /// the null's distribution computed once.
    fn llrs<const N: usize>(&self, s0: f64, alternatives: [f64; N]) -> [f64; N] {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return [0.0; N];
        }
        let p = self.frequencies();
        let p0 = constrained(&p, s0);
        alternatives.map(|s1| {
            let p1 = constrained(&p, s1);
            n * (0..5).map(|i| p[i] * (p1[i] / p0[i]).ln()).sum::<f64>()
        })
    }
}

/// The distribution nearest `p` (in likelihood) whose mean is `s`:
/// `p[i] / (1 + x (a[i] − s))`, with `x` the root of
/// Σ p[i] (a[i] − s) / (1 + x (a[i] − s)) = 0 (Van den Bergh's
/// proposition; the sum falls as `x` grows, so bisection finds it).
fn constrained(p: &[f64; 5], s: f64) -> [f64; 5] {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    let f = |x: f64| (0..5).map(|i| p[i] * (SCORES[i] - s) / (1.0 + x * (SCORES[i] - s))).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / (1.0 - s) + 1e-12, 1.0 / s - 1e-12);
    for _ in 0..48 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    std::array::from_fn(|i| p[i] / (1.0 + x * (SCORES[i] - s)))
}

/// How one edge of the band stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Edge {
    /// Not settled yet.
    Open,
    /// The first player's score lies on the band's side of this edge.
    Inside,
    /// It lies past this edge.
    Outside,
}

/// What a sequential check asks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Question {
    /// Where the first player's score lies: within the band, or past
    /// which edge.
    #[default]
    Verdict,
    /// Only whether the first player is ahead: the upper edge settling
    /// inside ends the check too.
    FirstAhead,
    /// Only whether the second player is ahead: the lower edge settling
    /// inside ends the check too.
    SecondAhead,
}

/// Where a sequential check stands, or what it concluded.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Decision {
    /// Still playing.
    Open,
    /// Both edges settled inside: the first player scores within 40–60%.
    Balanced,
    /// The upper edge settled outside: the first player is ahead.
    FirstAhead,
    /// The lower edge settled outside: the second player is ahead.
    SecondAhead,
    /// The upper edge settled inside, and the check asked only whether
    /// the first player is ahead ([`Question::FirstAhead`]): not ahead.
    NotFirstAhead,
    /// The lower edge settled inside, and the check asked only whether
    /// the second player is ahead: not ahead.
    NotSecondAhead,
    /// The cap came before the test settled.
    Uncertain,
}

impl Decision {
    /// The decision as reports show it: "playing", "balanced", "first
    /// player ahead", "second player ahead", "uncertain at the cap".
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            Decision::Open => "playing",
            Decision::Balanced => "balanced",
            Decision::FirstAhead => "first player ahead",
            Decision::SecondAhead => "second player ahead",
            Decision::NotFirstAhead => "first player not ahead",
            Decision::NotSecondAhead => "second player not ahead",
            Decision::Uncertain => "uncertain at the cap",
        }
    }
}

/// A sequential check of one pairing: the pairs seen and each edge's
/// standing.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sequential {
    /// The design it runs under.
    pub design: Design,
    /// The most games it plays before it is *uncertain*.
    pub cap: u32,
    /// What it asks: the verdict, or one edge's answer alone.
    pub question: Question,
    /// The distinct pairs counted.
    pub pairs: Pentanomial,
    /// Pairs played that copied earlier games and were not counted.
    pub copies: u32,
    /// Games played.
    pub games: u32,
    /// The upper edge (60%).
    pub upper: Edge,
    /// The lower edge (40%).
    pub lower: Edge,
    /// The log-likelihood ratios of the upper and lower edges' last look
    /// (outside against inside).
    pub llr: [f64; 2],
    /// The outcome so far.
    pub decision: Decision,
}

impl Sequential {
    /// A check with nothing seen that plays at most `cap` games.
    #[must_use]
    pub fn new(design: Design, cap: u32) -> Sequential {
        Sequential {
            design,
            cap,
            question: Question::Verdict,
            pairs: Pentanomial::default(),
            copies: 0,
            games: 0,
            upper: Edge::Open,
            lower: Edge::Open,
            llr: [0.0; 2],
            decision: Decision::Open,
        }
    }

    /// The same check asking `question`.
    #[must_use]
    pub fn asking(self, question: Question) -> Sequential {
        Sequential { question, ..self }
    }

    /// Whether the check has its answer (or reached its cap).
    #[must_use]
    pub fn is_settled(&self) -> bool {
        self.decision != Decision::Open
    }

    /// Takes one pair in which the first player took `half_points` (0 to
    /// 4); `copy` marks a pair whose two games both repeat earlier ones,
    /// which is played but not counted. Returns the decision after it.
    pub fn observe(&mut self, half_points: u8, copy: bool) -> Decision {
        if self.is_settled() {
            return self.decision;
        }
        self.games += 2;
        if copy {
            self.copies += 1;
        } else {
            self.pairs.add(half_points);
            self.look();
        }
        if self.decision == Decision::Open && self.games >= self.cap {
            self.decision = Decision::Uncertain;
        }
        self.decision
    }

    /// Judges both edges after a new pair.
    fn look(&mut self) {
        let (low, high) = BAND;
        let width = self.design.width;
        if self.upper == Edge::Open {
            let (edge, llr) = self.judge(high, width);
            self.upper = edge;
            self.llr[0] = llr;
        }
        if self.lower == Edge::Open {
            let (edge, llr) = self.judge(low, -width);
            self.lower = edge;
            self.llr[1] = llr;
        }
        self.decision = self.decide();
    }

    /// The decision the edges give, for the question asked.
    fn decide(&self) -> Decision {
        match (self.upper, self.lower) {
            (Edge::Outside, _) => Decision::FirstAhead,
            (_, Edge::Outside) => Decision::SecondAhead,
            (Edge::Inside, Edge::Inside) => Decision::Balanced,
            (Edge::Inside, _) if self.question == Question::FirstAhead => Decision::NotFirstAhead,
            (_, Edge::Inside) if self.question == Question::SecondAhead => Decision::NotSecondAhead,
            _ => Decision::Open,
        }
    }

    /// The same test asking the whole verdict: a test that asked one edge
    /// alone and answered it goes on from the pairs it has seen (the other
    /// edge was judged after every one of them, so it stands where a test
    /// asking the verdict from the start would stand). Its error rates are
    /// each edge's, unchanged.
    #[must_use]
    pub fn asking_all(mut self) -> Sequential {
        self.question = Question::Verdict;
        if matches!(self.decision, Decision::NotFirstAhead | Decision::NotSecondAhead) {
            self.decision = self.decide();
            if self.decision == Decision::Open && self.games >= self.cap {
                self.decision = Decision::Uncertain;
            }
        }
        self
    }

    /// One edge at `edge`, the band lying on the side that `-toward`
    /// points to: *outside* by the mixture over alternatives past it,
    /// *inside* by the single ratio of `edge + toward` to `edge − toward`.
    fn judge(&self, edge: f64, toward: f64) -> (Edge, f64) {
        let inside = edge - toward;
        let alternatives =
            MIXTURE.map(|(past, _)| (edge + toward + past * toward.signum()).clamp(1e-3, 1.0 - 1e-3));
        let ratios = self.pairs.llrs(inside, alternatives);
        // The first alternative is the near one, `edge + toward`.
        let near = ratios[0];
        let terms: [f64; 4] = std::array::from_fn(|i| MIXTURE[i].1.ln() + ratios[i]);
        let top = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mixture = top + terms.iter().map(|t| (t - top).exp()).sum::<f64>().ln();
        if mixture >= self.design.upper() {
            (Edge::Outside, mixture)
        } else if near <= self.design.lower() {
            (Edge::Inside, near)
        } else {
            (Edge::Open, near)
        }
    }

    /// The edge of the band (0.4 or 0.6) whose indifference zone holds the
    /// first player's mean score over the pairs, when the test settled:
    /// within `width` of that edge, where its error rates promise nothing
    /// and a second run (another seed) may settle the other way. `None`
    /// while it is open, when it reached its cap, or when the mean lies
    /// clear of both zones.
    #[must_use]
    pub fn near_edge(&self) -> Option<f64> {
        if matches!(self.decision, Decision::Open | Decision::Uncertain) || self.pairs.pairs() == 0 {
            return None;
        }
        let mean = self.pairs.mean();
        let (low, high) = BAND;
        [high, low].into_iter().find(|edge| (mean - edge).abs() < self.design.width)
    }

    /// Which way the test's decision leans, given who moves first; `None`
    /// while it is open or when it ended uncertain.
    #[must_use]
    pub fn leaning(&self, first: Player) -> Option<Leaning> {
        match self.decision {
            Decision::Balanced => Some(Leaning::Even),
            Decision::FirstAhead => Some(Leaning::Ahead(first)),
            Decision::SecondAhead => Some(Leaning::Ahead(first.other())),
            // One edge's answer places the score on neither side of the
            // band's other edge.
            Decision::Open | Decision::Uncertain | Decision::NotFirstAhead | Decision::NotSecondAhead => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ratio_of_equal_means_is_zero_and_favours_the_observed_side() {
        let mut p = Pentanomial::default();
        for h in [4, 4, 3, 2, 4, 4, 3, 4] {
            p.add(h);
        }
        assert!(p.llr(0.55, 0.55).abs() < 1e-9);
        assert!(p.llr(0.55, 0.65) > 0.0, "{}", p.llr(0.55, 0.65));
        assert!(p.llr(0.45, 0.35) < 0.0);
        let d = constrained(&p.frequencies(), 0.6);
        let mean: f64 = d.iter().zip(SCORES).map(|(q, s)| q * s).sum();
        assert!((mean - 0.6).abs() < 1e-9 && (d.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{d:?}");
    }

    #[test]
    fn pairs_that_copy_earlier_games_are_not_counted_but_reach_the_cap() {
        let mut s = Sequential::new(Design::DEFAULT, 10);
        for _ in 0..4 {
            assert_eq!(s.observe(4, true), Decision::Open);
        }
        assert_eq!(s.observe(4, true), Decision::Uncertain);
        assert_eq!((s.pairs.pairs(), s.copies, s.games), (0, 5, 10));
    }

    /// A test that asked one edge and answered it, asked the whole
    /// verdict, goes on where one that asked the verdict from the start
    /// stands after the same pairs, and reaches the same decision.
    #[test]
    fn a_narrowed_test_asked_the_verdict_goes_on_as_the_whole_test() {
        // Pairs near the lower edge (a first-player score of 40%, no
        // draws): the upper edge settles inside long before the lower
        // edge settles either way.
        let mut state = 7u64;
        let mut pairs = std::iter::repeat_with(move || {
            let mut game = || {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                if (state >> 33) % 100 < 40 { 2 } else { 0 }
            };
            game() + game()
        });
        let mut narrow = Sequential::new(Design::DEFAULT, 400).asking(Question::FirstAhead);
        let mut whole = Sequential::new(Design::DEFAULT, 400);
        while !narrow.is_settled() {
            let p = pairs.next().unwrap();
            narrow.observe(p, false);
            whole.observe(p, false);
        }
        assert_eq!(narrow.decision, Decision::NotFirstAhead);
        assert_eq!(whole.decision, Decision::Open, "the lower edge is still open");
        let mut widened = narrow.asking_all();
        assert_eq!(widened, whole);
        while !whole.is_settled() {
            let p = pairs.next().unwrap();
            assert_eq!(widened.observe(p, false), whole.observe(p, false));
        }
        assert_eq!(widened, whole);
        assert!(widened.games > narrow.games, "{} games, then {}", narrow.games, widened.games);
        // A settled verdict is kept.
        assert_eq!(whole.asking_all(), whole);
    }

    #[test]
    fn a_settled_mean_within_the_zone_of_an_edge_is_near_it() {
        // Means of 57.5%, 50%, 42.5% and 66.9% over 40 pairs.
        let settled = |counts: [u32; 5], decision| Sequential {
            pairs: Pentanomial { counts },
            decision,
            ..Sequential::new(Design::DEFAULT, 400)
        };
        assert_eq!(settled([4, 6, 14, 6, 10], Decision::Balanced).pairs.mean(), 0.575);
        assert_eq!(settled([4, 6, 14, 6, 10], Decision::Balanced).near_edge(), Some(0.6));
        assert_eq!(settled([5, 5, 20, 5, 5], Decision::Balanced).near_edge(), None);
        assert_eq!(settled([10, 6, 14, 6, 4], Decision::Balanced).near_edge(), Some(0.4));
        assert_eq!(settled([3, 4, 10, 9, 14], Decision::FirstAhead).near_edge(), None);
        // An open test, or one that reached its cap, has settled nothing.
        assert_eq!(settled([4, 6, 14, 6, 10], Decision::Open).near_edge(), None);
        assert_eq!(settled([4, 6, 14, 6, 10], Decision::Uncertain).near_edge(), None);
        // Outside a wider design's zone is inside it.
        let wide = Sequential {
            design: Design { width: 0.075, ..Design::DEFAULT },
            ..settled([3, 4, 10, 9, 14], Decision::FirstAhead)
        };
        assert_eq!(wide.near_edge(), Some(0.6));
    }
}
