//! The balance check: one verdict from several strong pairings.
//!
//! A verdict from one pairing is that pairing's: a depth-limited search
//! has horizons of its own, and a level can look even to one agent and
//! lopsided to a deeper one. The check therefore plays the level under
//! each pairing of a [`Plan`] ([`STRONG`] by default: expert, then deep)
//! and calls it *balanced* or *unbalanced* only when the pairings say so,
//! with the same player ahead. Where they disagree, the plan's referee
//! (master, the strongest agent) plays the level too, and a verdict
//! holds when the referee and one of the pairings share it: it then holds
//! under two different strong pairings. Where no two agree, or an
//! interval straddles an edge of 40–60%, the verdict is *uncertain*. The
//! solver looks for a forced win of the first player first: a proof
//! decides the level whatever the games say.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use super::{Config, ForcedWin, GameResult, Rate, Report, SETTLE_BUDGET, SETTLE_DEPTH, run};
use crate::ai::Agent;
use crate::analysis::{Finding, FindingCode, LevelReport};
use crate::rules::GameState;

/// The pairings of the default balance check: expert against expert, and
/// deep against deep, two turns deeper (master's depth on a seventh of its
/// budget: master itself would make the check about four times slower).
pub const STRONG_PAIRINGS: [[Agent; 2]; 2] = [[Agent::EXPERT, Agent::EXPERT], [Agent::DEEP, Agent::DEEP]];

/// The pairing that settles a disagreement of [`STRONG_PAIRINGS`]: master
/// against master, about four times deep's cost, played only on the levels
/// where expert and deep disagree.
pub const REFEREE: [Agent; 2] = [Agent::MASTER, Agent::MASTER];

/// What a balance check plays: its pairings, and the pairing that settles
/// their disagreement.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Plan<'a> {
    /// Played in turn on every level.
    pub pairings: &'a [[Agent; 2]],
    /// Played only where the pairings disagree; `None` leaves a
    /// disagreement uncertain.
    pub referee: Option<[Agent; 2]>,
}

impl<'a> Plan<'a> {
    /// The pairings alone, with no referee.
    #[must_use]
    pub const fn only(pairings: &'a [[Agent; 2]]) -> Plan<'a> {
        Plan { pairings, referee: None }
    }
}

/// The default check: expert and deep, refereed by master.
pub const STRONG: Plan<'static> = Plan { pairings: &STRONG_PAIRINGS, referee: Some(REFEREE) };

/// What a check tells its caller as it goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tick {
    /// One more game has finished.
    Game,
    /// The referee is called in: this many more games will be played.
    MoreGames(u32),
}

/// What a balance check concludes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BalanceVerdict {
    /// The solver proves a forced win for the first player: the level is
    /// decided before it is played.
    Decided,
    /// Under every pairing the first player's score interval lies within
    /// 40–60%.
    Balanced,
    /// Under every pairing the interval lies wholly outside 40–60%, with
    /// the same player ahead.
    Unbalanced,
    /// Anything else: an interval straddles an edge of 40–60%, or the
    /// pairings disagree. More games, or stronger play, would tell.
    Uncertain,
}

impl BalanceVerdict {
    /// The verdict as the reports write it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            BalanceVerdict::Decided => "decided",
            BalanceVerdict::Balanced => "balanced",
            BalanceVerdict::Unbalanced => "unbalanced",
            BalanceVerdict::Uncertain => "uncertain",
        }
    }
}

/// One level's balance check: a report per pairing and the verdict.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct BalanceCheck {
    /// The level's id.
    pub level: String,
    /// The verdict that holds under every pairing.
    pub verdict: BalanceVerdict,
    /// The player (1 or 2) ahead, when the verdict is decided or
    /// unbalanced.
    pub favoured: Option<u8>,
    /// Whether the pairings' own balance verdicts differ (the referee's
    /// apart).
    pub pairings_disagree: bool,
    /// Whether the referee settled the pairings' disagreement: its report
    /// is then the last of `runs`.
    pub refereed: bool,
    /// Whether some pairing found the level stall-prone (its stall rate's
    /// interval lies above 5%): a stall under strong play is the level's.
    pub stall_prone: bool,
    /// A forced win the solver proved from the start.
    pub forced_win: Option<ForcedWin>,
    /// Whether the check was stopped before every game was played.
    pub interrupted: bool,
    /// Whether some pairing left many games undecided: the interval of
    /// its share of stalls and draws by repetition lies above 5%.
    pub undecided: bool,
    /// The static findings of the level that explain undecided games
    /// (chokepoints, a flag in a dead end, a goal through a start,
    /// fences, dead positions, standoffs), once [`BalanceCheck::explain`]
    /// has been given the level's analysis.
    pub explained_by: Vec<Finding>,
    /// One report per pairing, in the order played.
    pub runs: Vec<Report>,
}

/// The finding codes that explain games no one wins.
pub const STALL_FINDINGS: [FindingCode; 6] = [
    FindingCode::Chokepoint,
    FindingCode::FlagInDeadEnd,
    FindingCode::GoalThroughStart,
    FindingCode::Fencing,
    FindingCode::Stall,
    FindingCode::Standoff,
];

/// Whether a run left many games undecided: the interval of its share of
/// stalls and draws by repetition lies above 5%.
fn undecided(report: &Report) -> bool {
    let stuck = f64::from(report.stalls + report.repetitions);
    Rate::wilson_distinct(stuck, report.games, report.distinct_games).low > 0.05
}

impl BalanceCheck {
    /// The verdict of `runs` (one report per pairing), settled by a
    /// forced win where the solver found one.
    #[must_use]
    pub fn new(level: &str, runs: Vec<Report>, forced_win: Option<ForcedWin>) -> BalanceCheck {
        BalanceCheck::judge(level, runs, None, forced_win)
    }

    /// The verdict of `runs` where they disagree, settled by `referee`'s
    /// report: a side holds when the referee and one of the runs share it.
    #[must_use]
    pub fn refereed(
        level: &str,
        runs: Vec<Report>,
        referee: Report,
        forced_win: Option<ForcedWin>,
    ) -> BalanceCheck {
        BalanceCheck::judge(level, runs, Some(referee), forced_win)
    }

    fn judge(
        level: &str,
        mut runs: Vec<Report>,
        referee: Option<Report>,
        forced_win: Option<ForcedWin>,
    ) -> BalanceCheck {
        let sides: Vec<Option<u8>> = runs.iter().map(Report::leaning).collect();
        let pairings_disagree = sides.windows(2).any(|w| w[0] != w[1]);
        let agreed = match &referee {
            _ if !pairings_disagree => sides.first().copied().flatten(),
            // Two different strong pairings must share the side.
            Some(referee) => referee.leaning().filter(|side| sides.contains(&Some(*side))),
            None => None,
        };
        let (verdict, favoured) = match (&forced_win, agreed) {
            (Some(forced), _) => (BalanceVerdict::Decided, Some(forced.player)),
            (None, Some(0)) => (BalanceVerdict::Balanced, None),
            (None, Some(player)) => (BalanceVerdict::Unbalanced, Some(player)),
            (None, None) => (BalanceVerdict::Uncertain, None),
        };
        let refereed = pairings_disagree && referee.is_some();
        runs.extend(referee.filter(|_| refereed));
        BalanceCheck {
            level: level.to_owned(),
            verdict,
            favoured,
            pairings_disagree,
            refereed,
            stall_prone: runs.iter().any(|r| r.verdicts.stall_prone),
            interrupted: runs.iter().any(|r| r.interrupted),
            undecided: runs.iter().any(undecided),
            explained_by: Vec::new(),
            forced_win,
            runs,
        }
    }

    /// The reports that hold the verdict, and those that disagreed with
    /// it: where the referee settled a disagreement, the runs on its side
    /// and the others; else every run, and none.
    fn sides(&self) -> (Vec<&Report>, Vec<&Report>) {
        match self.runs.last().filter(|_| self.refereed) {
            Some(referee) => {
                let side = referee.leaning();
                self.runs.iter().partition(|r| r.leaning() == side)
            }
            None => (self.runs.iter().collect(), Vec::new()),
        }
    }

    /// Links undecided games to the level's static findings: keeps those
    /// of `analysis` that explain them, when the check left many games
    /// undecided.
    pub fn explain(&mut self, analysis: &LevelReport) {
        self.explained_by = if self.undecided {
            analysis.findings.iter().filter(|f| STALL_FINDINGS.contains(&f.code)).cloned().collect()
        } else {
            Vec::new()
        };
    }

    /// What the undecided games come from, for reports; `None` when few
    /// games were undecided.
    #[must_use]
    pub fn undecided_note(&self) -> Option<String> {
        if !self.undecided {
            return None;
        }
        let mut codes: Vec<&str> = self.explained_by.iter().map(|f| f.code.as_str()).collect();
        codes.dedup();
        Some(if codes.is_empty() {
            "many games end undecided (stalls, draws by repetition), and no static finding explains them"
                .to_owned()
        } else {
            format!(
                "many games end undecided (stalls, draws by repetition), explained by {}",
                codes.join(", ")
            )
        })
    }

    /// One line a designer reads: the verdict and why.
    #[must_use]
    pub fn summary(&self) -> String {
        let names =
            |runs: &[&Report]| runs.iter().map(|r| r.agents[0].as_str()).collect::<Vec<_>>().join(" and ");
        let (holding, dissent) = self.sides();
        let pairings = names(&holding);
        // Who disagreed, when the referee settled it.
        let overruled = if self.refereed {
            let others: Vec<String> = dissent
                .iter()
                .map(|r| {
                    let found = match r.leaning() {
                        Some(0) => "finding it balanced".to_owned(),
                        Some(p) => format!("finding player {p} ahead"),
                        None => "unable to tell".to_owned(),
                    };
                    format!("{} disagreed, {found}", r.agents[0])
                })
                .collect();
            format!("; {}, and the referee settled it", others.join("; "))
        } else {
            String::new()
        };
        let mut text = match (self.verdict, &self.forced_win) {
            (BalanceVerdict::Decided, Some(forced)) => format!(
                "decided: player {} forces a win in {} actions (the solver's proof overrides the games)",
                forced.player,
                forced.line.len()
            ),
            (BalanceVerdict::Balanced, _) => {
                format!("balanced: the first player's interval lies within 40–60% under {pairings}{overruled}")
            }
            (BalanceVerdict::Unbalanced, _) => format!(
                "unbalanced: player {} is ahead, the first player's interval lying outside 40–60% under {pairings}{overruled}",
                self.favoured.unwrap_or(0)
            ),
            (BalanceVerdict::Uncertain, _) if self.interrupted => {
                "uncertain: the check was stopped before every pairing had played its games".to_owned()
            }
            _ if self.pairings_disagree => format!(
                "uncertain: the pairings disagree ({}){}",
                self.runs
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let role = if self.refereed && i + 1 == self.runs.len() { ", the referee" } else { "" };
                        format!("{}{role}: {}", r.agents[0], side_name(r.leaning()))
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
                match self.runs.last().map(Report::leaning) {
                    _ if !self.refereed => "",
                    Some(None) => ", and the referee cannot tell either",
                    _ => ", and no pairing shares the referee's verdict",
                }
            ),
            _ => "uncertain: the first player's interval reaches past an edge of 40–60% (more distinct games would tell)"
                .to_owned(),
        };
        if self.stall_prone {
            text.push_str("; stall-prone (a stall rate's interval lies above 5%)");
        }
        if let Some(note) = self.undecided_note() {
            text.push_str("; ");
            text.push_str(&note);
        }
        text
    }
}

fn side_name(side: Option<u8>) -> String {
    match side {
        Some(0) => "balanced".into(),
        Some(p) => format!("player {p} ahead"),
        None => "uncertain".into(),
    }
}

/// Plays `plan`'s pairings in turn from `start`, each with `base`'s games,
/// seed and cap, and where they disagree its referee too, and returns the
/// check with every run's games. The solver is asked first; `progress` is
/// told of every finished game and of the referee's games before they
/// start; setting `cancel` ends the check with the games so far (the check
/// then says it was interrupted).
#[must_use]
pub fn check_balance(
    start: &GameState,
    level: &str,
    plan: Plan<'_>,
    base: &Config,
    progress: &(dyn Fn(Tick) + Sync),
    cancel: &Arc<AtomicBool>,
) -> (BalanceCheck, Vec<Vec<GameResult>>) {
    let forced_win = settle(start);
    let play = |agents: [Agent; 2]| {
        let config = Config { agents, ..*base };
        let results = run(start, &config, &|| progress(Tick::Game), cancel);
        let names = agents.map(Agent::label);
        (Report::new(level, names, start.turn(), &results, cancel.load(Ordering::Relaxed)), results)
    };
    let mut runs = Vec::new();
    let mut games = Vec::new();
    for &agents in plan.pairings {
        let (report, results) = play(agents);
        runs.push(report);
        games.push(results);
        if cancel.load(Ordering::Relaxed) {
            break;
        }
    }
    let mut check = BalanceCheck::new(level, runs, forced_win);
    let complete = check.runs.len() == plan.pairings.len() && !check.interrupted;
    if let Some(referee) = plan.referee
        && complete
        && check.pairings_disagree
        && check.verdict != BalanceVerdict::Decided
    {
        progress(Tick::MoreGames(base.games.div_ceil(2) * 2));
        let (report, results) = play(referee);
        games.push(results);
        check = BalanceCheck::refereed(level, check.runs, report, check.forced_win);
    }
    if check.runs.len() < plan.pairings.len() && check.verdict != BalanceVerdict::Decided {
        // A pairing that was never played cannot agree: no verdict yet.
        check.verdict = BalanceVerdict::Uncertain;
        check.favoured = None;
    }
    (check, games)
}

/// A forced win of the first player the solver proves from `start` within
/// [`SETTLE_DEPTH`] actions and [`SETTLE_BUDGET`] positions.
#[must_use]
pub fn settle(start: &GameState) -> Option<ForcedWin> {
    match crate::analysis::solve(start, SETTLE_DEPTH, SETTLE_BUDGET, None) {
        (crate::analysis::Verdict::Proved { line }, _) => {
            Some(ForcedWin { player: start.turn().number(), line })
        }
        _ => None,
    }
}
