//! The balance check: one verdict from several strong pairings.
//!
//! A verdict from one pairing is that pairing's: a depth-limited search
//! has horizons of its own, and a level can look even to one agent and
//! lopsided to a deeper one. The check therefore plays the level under
//! each pairing of a [`Plan`] ([`STRONG`] by default: expert, then deep)
//! and calls it *balanced* or *unbalanced* only when the pairings say so,
//! with the same player ahead. Each pairing stops on its own as soon as
//! the sequential test of [`super::sequential`] has its verdict (or plays
//! a fixed number of games, for comparison). Where the pairings disagree,
//! a plan with a referee plays it too, and a verdict holds when the
//! referee and one of the pairings share it (a pairing that was asked one
//! edge alone goes on to the whole verdict where that is what could let
//! it share the referee's). The default plan has none:
//! master beats both pairings' agents head to head (docs/ai.md), but a
//! refereed verdict costs minutes of master's games, so by default a
//! disagreement is *uncertain: strong agents disagree*. The
//! solver looks for a forced win of the first player first: a proof
//! decides the level and no game is played.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{
    Config, Decision, Decisions, ForcedWin, GameResult, Leaning, Question, Rate, Report, Sequential,
    resume_sequential, run, run_sequential,
};
use crate::ai::{Agent, Eval};
use crate::analysis::{AnalysisOptions, Finding, FindingCode, LevelReport, analyze_level};
use crate::level::Playable;
use crate::rules::{GameState, Player};

/// How deep the solver looks to settle a level before sampling is believed.
pub const SETTLE_DEPTH: u32 = 40;
/// Positions the solver may visit to settle a level.
pub const SETTLE_BUDGET: u64 = 20_000;

/// The pairings of the default balance check: expert against expert, and
/// deep against deep, two turns deeper (master, deeper still, would make
/// the check about ten times slower). Both score positions with the fitted
/// evaluation.
pub const STRONG_PAIRINGS: [[Agent; 2]; 2] = [[Agent::EXPERT, Agent::EXPERT], [Agent::DEEP, Agent::DEEP]];

/// Master against master, the referee a plan may name: master beats deep
/// (and expert) head to head (docs/ai.md), at about ten times deep's cost
/// a game, which is why the default plan does not call it.
pub const REFEREE: [Agent; 2] = [Agent::MASTER, Agent::MASTER];

/// The default check's pairings with the hand evaluation, as versions
/// before the fitted one played them (`selfplay --evaluation hand`): every
/// earlier verdict can be replayed beside today's.
pub const HAND_PAIRINGS: [[Agent; 2]; 2] = [
    [Agent::EXPERT.with_eval(Eval::Hand), Agent::EXPERT.with_eval(Eval::Hand)],
    [Agent::DEEP.with_eval(Eval::Hand), Agent::DEEP.with_eval(Eval::Hand)],
];

/// The referee with the hand evaluation.
pub const HAND_REFEREE: [Agent; 2] =
    [Agent::MASTER.with_eval(Eval::Hand), Agent::MASTER.with_eval(Eval::Hand)];

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
    /// The agent of pairing `pairing` (its index in the plan; the
    /// referee's is the plan's length), as [`Tick::Look`] numbers them.
    #[must_use]
    pub fn agent(&self, pairing: usize) -> Option<Agent> {
        self.pairings.get(pairing).or(self.referee.as_ref()).map(|a| a[0])
    }

    /// The pairings alone, with no referee.
    #[must_use]
    pub const fn only(pairings: &'a [[Agent; 2]]) -> Plan<'a> {
        Plan { pairings, referee: None }
    }
}

/// The default check: expert and deep, with no referee (master's games
/// would put a disputed level's verdict minutes away: docs/ai.md).
pub const STRONG: Plan<'static> = Plan { pairings: &STRONG_PAIRINGS, referee: None };

/// The default check with master as referee where expert and deep
/// disagree: a verdict on a disputed level, at the cost of master's games
/// (minutes on 2 cores; `selfplay --referee`, the editor's Balance menu).
pub const REFEREED: Plan<'static> = Plan { pairings: &STRONG_PAIRINGS, referee: Some(REFEREE) };

/// The default check, with or without its referee, its agents scoring
/// positions with `eval`: [`STRONG`] or [`REFEREED`] for the fitted
/// evaluation, the same plans with [`HAND_PAIRINGS`] and [`HAND_REFEREE`]
/// for the hand one. Other weights (`Eval::Weights`) have no plan of their
/// own: a check with them names its agents (`selfplay --pairings`), and
/// here they get the fitted plan.
#[must_use]
pub const fn strong(eval: Eval, refereed: bool) -> Plan<'static> {
    let (pairings, referee) = match eval {
        Eval::Fitted | Eval::Weights(_) => (&STRONG_PAIRINGS, REFEREE),
        Eval::Hand => (&HAND_PAIRINGS, HAND_REFEREE),
    };
    Plan { pairings, referee: if refereed { Some(referee) } else { None } }
}

/// What a check tells its caller as it goes.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Tick {
    /// One more game has finished.
    Game,
    /// This many more games are announced: the referee's, or those of a
    /// pairing going on to the whole verdict.
    MoreGames(u32),
    /// A pairing stopped early: this many of the games announced for it
    /// were not played. The games counted by [`Tick::Game`] then come to
    /// the games announced, those a batch played past the settling pair
    /// (and did not keep) included.
    FewerGames(u32),
    /// The sequential test of pairing `pairing` (its index in the plan;
    /// the referee's is the plan's length) after a batch of games.
    Look {
        /// Which pairing.
        pairing: usize,
        /// Where its test stands.
        test: Sequential,
    },
}

/// What a balance check concludes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
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
#[derive(Clone, PartialEq, Debug)]
pub struct BalanceCheck {
    /// The level's id.
    pub level: String,
    /// The verdict that holds under every pairing.
    pub verdict: BalanceVerdict,
    /// The player ahead (written as 1 or 2), when the verdict is decided or
    /// unbalanced.
    pub favoured: Option<Player>,
    /// Whether the pairings' own balance verdicts differ (the referee's
    /// apart).
    pub pairings_disagree: bool,
    /// Whether the referee settled the pairings' disagreement: its report
    /// is then the last of `reports`.
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
    pub reports: Vec<Report>,
    /// Where the check's games were decided (every pairing's games).
    pub decisions: Decisions,
    /// Why, in plain words, once [`BalanceCheck::explain`] has been given
    /// the level's analysis: only what the games or a proof show.
    pub why: Vec<String>,
}

/// The events that decide where a game turns: the flag picked up, stolen
/// or dropped, and crates broken.
const DECISIVE: [super::Event; 4] =
    [super::Event::Pickup, super::Event::Steal, super::Event::Caught, super::Event::Break];

/// A finding explains a verdict when its cells carry at least this share
/// of the games' decisive events.
pub const DECISIVE_SHARE: f64 = 0.25;

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
    /// The verdict of `reports` (one report per pairing), settled by a
    /// forced win where the solver found one.
    #[must_use]
    pub fn new(level: &str, reports: Vec<Report>, forced_win: Option<ForcedWin>) -> BalanceCheck {
        BalanceCheck::judge(level, reports, None, forced_win)
    }

    /// The verdict of `reports` where they disagree, settled by `referee`'s
    /// report: a side holds when the referee and one of the reports share it.
    #[must_use]
    pub fn refereed(
        level: &str,
        reports: Vec<Report>,
        referee: Report,
        forced_win: Option<ForcedWin>,
    ) -> BalanceCheck {
        BalanceCheck::judge(level, reports, Some(referee), forced_win)
    }

    fn judge(
        level: &str,
        mut reports: Vec<Report>,
        referee: Option<Report>,
        forced_win: Option<ForcedWin>,
    ) -> BalanceCheck {
        let sides: Vec<Option<Leaning>> = reports.iter().map(Report::leaning).collect();
        let pairings_disagree = sides.windows(2).any(|w| w[0] != w[1]);
        let agreed = match &referee {
            _ if !pairings_disagree => sides.first().copied().flatten(),
            // Two different strong pairings must share the side.
            Some(referee) => referee.leaning().filter(|side| sides.contains(&Some(*side))),
            None => None,
        };
        let (verdict, favoured) = match (&forced_win, agreed) {
            (Some(forced), _) => (BalanceVerdict::Decided, Some(forced.player)),
            (None, Some(Leaning::Even)) => (BalanceVerdict::Balanced, None),
            (None, Some(Leaning::Ahead(player))) => (BalanceVerdict::Unbalanced, Some(player)),
            (None, None) => (BalanceVerdict::Uncertain, None),
        };
        let refereed = pairings_disagree && referee.is_some();
        reports.extend(referee.filter(|_| refereed));
        BalanceCheck {
            level: level.to_owned(),
            verdict,
            favoured,
            pairings_disagree,
            refereed,
            stall_prone: reports.iter().any(|r| r.verdicts.stall_prone),
            interrupted: reports.iter().any(|r| r.interrupted),
            undecided: reports.iter().any(undecided),
            explained_by: Vec::new(),
            forced_win,
            reports,
            decisions: Decisions::default(),
            why: Vec::new(),
        }
    }

    /// The reports that hold the verdict, and those that disagreed with
    /// it: where the referee settled a disagreement, the reports on its side
    /// and the others; else every run, and none.
    fn sides(&self) -> (Vec<&Report>, Vec<&Report>) {
        match self.reports.last().filter(|_| self.refereed) {
            Some(referee) => {
                let side = referee.leaning();
                self.reports.iter().partition(|r| r.leaning() == side)
            }
            None => (self.reports.iter().collect(), Vec::new()),
        }
    }

    /// The pairings that hold a balanced or unbalanced verdict from a
    /// sequential test whose mean score lies within the design's
    /// indifference zone of an edge (57.5% against the 60% edge, under
    /// the default ±5 points), each with that edge: the verdict stands,
    /// with its stated error, but a level there sits where the test may
    /// settle either way, and another seed or a small edit can tip it.
    #[must_use]
    pub fn near_edge(&self) -> Vec<(&Report, &Sequential, f64)> {
        if !matches!(self.verdict, BalanceVerdict::Balanced | BalanceVerdict::Unbalanced) {
            return Vec::new();
        }
        self.sides()
            .0
            .into_iter()
            .filter_map(|r| {
                let test = r.sequential.as_ref()?;
                Some((r, test, test.near_edge()?))
            })
            .collect()
    }

    /// The note the summary adds for [`BalanceCheck::near_edge`]: "close
    /// to an edge: under deep (…) the first player scores 57.5% over the
    /// pairs, within 5 points of 60%, …".
    #[must_use]
    pub fn near_edge_note(&self) -> Option<String> {
        let near = self.near_edge();
        if near.is_empty() {
            return None;
        }
        let each: Vec<String> = near
            .iter()
            .map(|(r, test, edge)| {
                format!(
                    "under {} the first player scores {:.1}% over the pairs, within {} points of {:.0}%",
                    r.agents[0],
                    100.0 * test.pairs.mean(),
                    (test.design.width * 1000.0).round() / 10.0,
                    100.0 * edge
                )
            })
            .collect();
        Some(format!(
            "close to an edge: {}, where the test may settle either way (another seed, or a small edit, can change the verdict)",
            each.join("; ")
        ))
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
        self.why = self.why_sentences(analysis);
        for (finding, share, total) in self.decisive_findings(analysis) {
            self.why.push(format!(
                "{} marks the cells of {share} of the games' {total} pickups, steals, catches and breaks: {}.",
                finding.code,
                finding.message
            ));
            if !self.explained_by.iter().any(|f| f.code == finding.code && f.cells == finding.cells) {
                self.explained_by.push(finding.clone());
            }
        }
    }

    /// The findings whose cells carried at least [`DECISIVE_SHARE`] of the
    /// games' decisive events (where the flag was picked up, stolen or
    /// dropped, and where crates broke), with that count and the total:
    /// the static findings that say where this level is decided.
    fn decisive_findings<'a>(
        &self,
        analysis: &'a LevelReport,
    ) -> Vec<(&'a crate::analysis::Finding, u32, u32)> {
        let d = &self.decisions;
        let total: u32 = DECISIVE.iter().map(|&event| d.total(event)).sum();
        if total == 0 || self.forced_win.is_some() {
            return Vec::new();
        }
        analysis
            .findings
            .iter()
            .filter(|f| f.severity != crate::level::Severity::Note)
            .filter_map(|finding| {
                let mut cells: crate::rules::Bitboard = finding.cells.iter().copied().collect();
                let witnessed: &[crate::rules::Cell] = match &finding.witness {
                    Some(crate::analysis::Witness::Path { cells: path }) => path,
                    Some(crate::analysis::Witness::Cut { region }) => region,
                    _ => &[],
                };
                witnessed.iter().for_each(|&cell| cells.insert(cell));
                let share: u32 = DECISIVE
                    .iter()
                    .flat_map(|&event| d.top(event))
                    .filter(|(cell, _)| cells.has(*cell))
                    .map(|(_, n)| n)
                    .sum();
                (cells.any() && f64::from(share) >= DECISIVE_SHARE * f64::from(total))
                    .then_some((finding, share, total))
            })
            .collect()
    }

    /// The plain-language reasons: the solver's proof; the race to the
    /// flag where it favours the player the check found ahead (and the
    /// proof, A012, that no crate can delay it); the share of wins and the
    /// cells that carried most of them.
    fn why_sentences(&self, analysis: &LevelReport) -> Vec<String> {
        use super::Event;
        let mut why = Vec::new();
        if let Some(win) = &self.forced_win {
            why.push(format!(
                "{} forces a win in {} actions whatever the other does (the solver's proof): {}.",
                win.player,
                win.line.len(),
                crate::rules::format_actions(&win.line)
            ));
            return why;
        }
        if let Some(race) = analysis.race {
            let [one, two] = race.legs;
            let (ahead, behind) = (race.first_to_flag, race.first_to_flag.other());
            let sure = analysis.findings.iter().any(|f| f.code == FindingCode::SureFlag);
            let lead = if race.lead == 1 { "1 action".to_owned() } else { format!("{} actions", race.lead) };
            if race.lead == 0 {
                why.push(format!(
                    "Both players reach the flag on the same action ({} and {} steps): the race favours neither.",
                    one.to_flag, two.to_flag
                ));
            } else if self.favoured == Some(ahead) {
                let (mine, theirs) = (race.legs[ahead.index()].to_flag, race.legs[behind.index()].to_flag);
                let steps = if mine == theirs {
                    format!("both are {mine} steps away and {ahead} moves first")
                } else {
                    format!("{mine} steps against {theirs}")
                };
                let (on, against) = (
                    race.legs[ahead.index()].reaches_flag_on_action,
                    race.legs[behind.index()].reaches_flag_on_action,
                );
                why.push(format!(
                    "{ahead} reaches the flag {} sooner, on action {on} against {against}, the players taking turns ({steps}){}.",
                    lead,
                    if sure { format!("; no crate of {behind} can delay it (A012)") } else { String::new() }
                ));
            } else if self.favoured.is_some() {
                why.push(format!(
                    "{ahead} reaches the flag {} sooner, yet the games favour {behind}: the race does not explain this level.",
                    lead
                ));
            } else {
                why.push(format!(
                    "{ahead} reaches the flag {} sooner; the games do not turn that into a clear edge.",
                    lead
                ));
            }
        }
        let d = &self.decisions;
        if d.games > 0 {
            why.push(format!(
                "Of {} games, player 1 won {} and player 2 {}; {} by bringing the flag home.",
                d.games, d.wins[0], d.wins[1], d.flag_wins
            ));
            if let Some(&(cell, n)) = d.top(Event::Home).first() {
                why.push(format!("Most flag wins came home on {cell}: {n} of {}.", d.flag_wins));
            }
            if let Some(&(cell, n)) = d.top(Event::Caught).first() {
                why.push(format!(
                    "Carriers were caught {} time(s), most on {cell} ({n}).",
                    d.total(Event::Caught)
                ));
            }
            if let Some(&(cell, n)) = d.top(Event::WinnerCrate).first() {
                why.push(format!(
                    "The winners' crates went most to {cell} ({n} of {}).",
                    d.total(Event::WinnerCrate)
                ));
            }
        }
        why.iter_mut().for_each(|sentence| {
            if let Some(first) = sentence.get(..1) {
                *sentence = first.to_uppercase() + &sentence[1..];
            }
        });
        why
    }

    /// Whether the check meets `expectation`: `balanced` when its verdict
    /// is balanced, `unbalanced:N` when it finds player N ahead or the
    /// solver proves player N's forced win; `None` for an expectation the
    /// analysis answers, or when the check was cut short.
    #[must_use]
    pub fn meets(&self, expectation: &crate::level::Expectation) -> Option<crate::analysis::Met> {
        use crate::level::Expectation;
        if self.interrupted {
            return None;
        }
        let forced = self.forced_win.as_ref().map(|w| w.player);
        let holds = match expectation {
            Expectation::Balanced => self.verdict == BalanceVerdict::Balanced,
            Expectation::Unbalanced(p) => {
                (self.verdict == BalanceVerdict::Unbalanced && self.favoured == Some(*p))
                    || forced == Some(*p)
            }
            _ => return None,
        };
        Some(crate::analysis::Met { holds, why: self.summary() })
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

    /// One line a designer reads: the verdict and why, with the note of
    /// [`BalanceCheck::near_edge_note`] where it applies.
    #[must_use]
    pub fn summary(&self) -> String {
        self.summary_noting(true)
    }

    /// [`BalanceCheck::summary`] without the near-edge note, for a view
    /// that shows that note on its own.
    #[must_use]
    pub fn summary_without_near_edge(&self) -> String {
        self.summary_noting(false)
    }

    fn summary_noting(&self, near_edge: bool) -> String {
        let names = |reports: &[&Report]| {
            reports
                .iter()
                .map(|r| format!("{} ({})", r.agents[0], score_text(r)))
                .collect::<Vec<_>>()
                .join(" and ")
        };
        let sequential = !self.reports.is_empty() && self.reports.iter().all(|r| r.sequential.is_some());
        let (holding, dissent) = self.sides();
        let pairings = names(&holding);
        // Who disagreed, when the referee settled it.
        let overruled = if self.refereed {
            let others: Vec<String> = dissent
                .iter()
                .map(|r| {
                    let found = match r.leaning() {
                        Some(leaning) => format!("finding it {leaning}"),
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
                "decided: {} forces a win in {} actions (the solver's proof overrides the games)",
                forced.player,
                forced.line.len()
            ),
            (BalanceVerdict::Balanced, _) if sequential => format!(
                "balanced: the sequential test settles the first player's score within 40–60% under {pairings}{overruled}"
            ),
            (BalanceVerdict::Balanced, _) => {
                format!("balanced: the first player's interval lies within 40–60% under {pairings}{overruled}")
            }
            (BalanceVerdict::Unbalanced, _) if sequential => format!(
                "unbalanced: player {} is ahead, the sequential test settling the first player's score outside 40–60% under {pairings}{overruled}",
                self.favoured.map_or(0, Player::number)
            ),
            (BalanceVerdict::Unbalanced, _) => format!(
                "unbalanced: player {} is ahead, the first player's interval lying outside 40–60% under {pairings}{overruled}",
                self.favoured.map_or(0, Player::number)
            ),
            (BalanceVerdict::Uncertain, _) if self.interrupted => format!(
                "uncertain: the check was stopped before every pairing had its verdict ({})",
                self.reports.iter().map(|r| format!("{}: {}", r.agents[0], run_side(r))).collect::<Vec<_>>().join("; ")
            ),
            _ if self.pairings_disagree && !self.refereed => format!(
                "uncertain: strong agents disagree ({})",
                self.reports.iter().map(|r| format!("{}: {}", r.agents[0], run_side(r))).collect::<Vec<_>>().join("; ")
            ),
            _ if self.pairings_disagree => format!(
                "uncertain: the pairings disagree ({}){}",
                self.reports
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let role = if self.refereed && i + 1 == self.reports.len() { ", the referee" } else { "" };
                        format!("{}{role}: {}", r.agents[0], side_name(r.leaning()))
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
                match self.reports.last().map(Report::leaning) {
                    _ if !self.refereed => "",
                    Some(None) => ", and the referee cannot tell either",
                    _ => ", and no pairing shares the referee's verdict",
                }
            ),
            _ => "uncertain: the first player's interval reaches past an edge of 40–60% (more distinct games would tell)"
                .to_owned(),
        };
        if let Some(note) = self.near_edge_note().filter(|_| near_edge) {
            text.push_str("; ");
            text.push_str(&note);
        }
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

/// A run's first-player score: "71.0% [58.0–82.0%] over 36 games".
fn score_text(report: &Report) -> String {
    let score = report.first_player_score;
    format!(
        "{:.1}% [{:.1}–{:.1}%] over {} games",
        100.0 * score.rate,
        100.0 * score.low,
        100.0 * score.high,
        report.games
    )
}

/// A run's side with its score: "player 1 ahead, 71.0% [58.0–82.0%]
/// over 36 games"; for a run asked only whether a player is ahead, its
/// answer: "player 1 not ahead (all it was asked), 42.9% [28.7–57.0%]
/// over 42 games"; or for a run without a verdict where it leans:
/// "uncertain after 36 games, leaning to player 1: 71.0% [58.0–82.0%]".
fn run_side(report: &Report) -> String {
    let score = report.first_player_score;
    let not_ahead = match report.sequential.map(|test| test.decision) {
        Some(Decision::NotFirstAhead) => Some(report.first_player),
        Some(Decision::NotSecondAhead) => Some(report.first_player.other()),
        _ => None,
    };
    if let Some(player) = not_ahead {
        return format!("{player} not ahead (all it was asked), {}", score_text(report));
    }
    match report.leaning() {
        None if report.games > 0 => {
            let leaning = if score.rate > 0.5 {
                format!("leaning to {}", report.first_player)
            } else if score.rate < 0.5 {
                format!("leaning to {}", report.first_player.other())
            } else {
                "leaning to neither".to_owned()
            };
            format!(
                "uncertain after {} games, {leaning}: {:.1}% [{:.1}–{:.1}%]",
                report.games,
                100.0 * score.rate,
                100.0 * score.low,
                100.0 * score.high
            )
        }
        side => format!("{}, {}", side_name(side), score_text(report)),
    }
}

fn side_name(side: Option<Leaning>) -> String {
    side.map_or_else(|| "uncertain".into(), |leaning| leaning.to_string())
}

/// Plays `plan`'s pairings in turn from `start`, each with `base`'s games,
/// seed and cap, and where they disagree its referee too, and returns the
/// check with every run's games. With `base.sequential`, each pairing
/// stops as soon as its sequential test is settled, `base.games` being
/// its cap; else it plays `base.games` games. The solver is asked first,
/// and a forced win it proves settles the check with no game played.
/// `progress` is told of every finished game, of the tests after every
/// batch, and of games added (the referee's) or dropped (a pairing that
/// stopped early); setting `cancel` ends the check with the games so far
/// (the check then says it was interrupted). The check comes back
/// explained by the level's static findings ([`BalanceCheck::explain`]).
#[must_use]
pub fn check_balance(
    playable: &Playable,
    plan: Plan<'_>,
    base: &Config,
    progress: &(dyn Fn(Tick) + Sync),
    cancel: &Arc<AtomicBool>,
) -> (BalanceCheck, Vec<Vec<GameResult>>) {
    let (start, level) = (playable.start(), playable.id());
    let forced_win = settle(start, cancel);
    let cap = super::runs::pairs_cap(base);
    let (mut check, games) = if forced_win.is_some() {
        progress(Tick::FewerGames(plan.pairings.len() as u32 * cap));
        (BalanceCheck::new(level, Vec::new(), forced_win), Vec::new())
    } else {
        Pairings { start, level, base, cap, progress, cancel }.check(plan)
    };
    check.explain(&analyze_level(playable.level(), playable.rules(), &AnalysisOptions::default()));
    (check, games)
}

/// What every pairing of one check shares as it is played: the level's
/// start and name, the base configuration, each pairing's cap in games,
/// where progress goes and the cancel flag.
struct Pairings<'a> {
    start: &'a GameState,
    level: &'a str,
    base: &'a Config,
    cap: u32,
    progress: &'a (dyn Fn(Tick) + Sync),
    cancel: &'a Arc<AtomicBool>,
}

impl Pairings<'_> {
    /// The check's games: each pairing in turn, the referee where they
    /// disagree; the verdict, and where the games were decided.
    fn check(&self, plan: Plan<'_>) -> (BalanceCheck, Vec<Vec<GameResult>>) {
        let (start, level, cancel) = (self.start, self.level, self.cancel);
        let mut reports = Vec::new();
        let mut games = Vec::new();
        for (pairing, &agents) in plan.pairings.iter().enumerate() {
            let (report, results) = self.play(agents, pairing, question_left(&reports, start.turn()), None);
            reports.push(report);
            games.push(results);
            if cancel.load(Ordering::Relaxed) {
                break;
            }
        }
        let mut check = BalanceCheck::new(level, reports, None);
        let complete = check.reports.len() == plan.pairings.len() && !check.interrupted;
        if let Some(referee) = plan.referee
            && complete
            && check.pairings_disagree
        {
            check = self.referee(plan.pairings, referee, check.reports, &mut games);
        }
        if check.reports.len() < plan.pairings.len() {
            // A pairing that was never played cannot agree: no verdict yet.
            check.verdict = BalanceVerdict::Uncertain;
            check.favoured = None;
        }
        check.decisions = Decisions::of(start, games.iter().flatten());
        (check, games)
    }

    /// A pairing's games and report: a new run asking `question`, or the
    /// run of an earlier test, with its games, going on to ask the whole
    /// verdict.
    fn play(
        &self,
        agents: [Agent; 2],
        pairing: usize,
        question: Question,
        earlier: Option<(Sequential, Vec<GameResult>)>,
    ) -> (Report, Vec<GameResult>) {
        let (start, cancel, progress) = (self.start, self.cancel, self.progress);
        let config = Config { agents, ..*self.base };
        let names = agents.map(Agent::label);
        let before = earlier.as_ref().map_or(0, |(_, played)| played.len() as u32);
        let announced = self.cap - before;
        // Games played here, those past the settling pair included: what
        // was not played of the announced games is withdrawn, so that the
        // games counted come to the games announced.
        let played_here = std::sync::atomic::AtomicU32::new(0);
        let on_game = || {
            played_here.fetch_add(1, Ordering::Relaxed);
            progress(Tick::Game);
        };
        let look = |test: &Sequential| progress(Tick::Look { pairing, test: *test });
        let (results, test) = match (self.base.sequential, earlier) {
            (_, Some((test, played))) => {
                let (results, test) =
                    resume_sequential(start, &config, test, played, &on_game, &look, cancel);
                (results, Some(test))
            }
            (Some(design), None) => {
                let (results, test) =
                    run_sequential(start, &config, design, question, &on_game, &look, cancel);
                (results, Some(test))
            }
            (None, None) => (run(start, &config, &on_game, cancel), None),
        };
        let played = played_here.load(Ordering::Relaxed);
        if played < announced && !cancel.load(Ordering::Relaxed) {
            progress(Tick::FewerGames(announced - played));
        }
        let report = Report::new(self.level, names, start.turn(), &results, cancel.load(Ordering::Relaxed));
        (
            match test {
                Some(test) => report.with_sequential(test),
                None => report,
            },
            results,
        )
    }

    /// The referee's games where the pairings (`reports`, their games in
    /// `games`) disagree, and the check they make together.
    fn referee(
        &self,
        pairings: &[[Agent; 2]],
        referee: [Agent; 2],
        mut reports: Vec<Report>,
        games: &mut Vec<Vec<GameResult>>,
    ) -> BalanceCheck {
        (self.progress)(Tick::MoreGames(self.cap));
        let (referee_report, referee_games) = self.play(referee, pairings.len(), Question::Verdict, None);
        // A pairing asked one edge alone (the second, after the first
        // called a player ahead) answered only "not ahead": where the
        // referee finds the level even or the other player ahead, and no
        // pairing shares that yet, the pairing goes on to the whole
        // verdict, since the verdict holds where it shares the referee's.
        if let Some(side) = referee_report.leaning()
            && !reports.iter().any(|r| r.leaning() == Some(side))
            && !self.cancel.load(Ordering::Relaxed)
        {
            for (pairing, &agents) in pairings.iter().enumerate() {
                let Some(test) = reports[pairing].sequential else { continue };
                let ruled_out = match test.decision {
                    Decision::NotFirstAhead => Leaning::Ahead(self.start.turn()),
                    Decision::NotSecondAhead => Leaning::Ahead(self.start.turn().other()),
                    _ => continue,
                };
                if ruled_out == side {
                    continue;
                }
                (self.progress)(Tick::MoreGames(self.cap - test.games));
                let played = std::mem::take(&mut games[pairing]);
                let (report, results) = self.play(agents, pairing, Question::Verdict, Some((test, played)));
                reports[pairing] = report;
                games[pairing] = results;
            }
        }
        games.push(referee_games);
        BalanceCheck::refereed(self.level, reports, referee_report, None)
    }
}

/// What is left for the next pairing's sequential test to learn, given the
/// pairings played so far (`first` moving first). The check's verdict holds
/// only where every pairing shares a side. Once the first has called a
/// player ahead, only whether the next one also finds that player ahead
/// can change the verdict, and that is one edge's test: an answer of *not
/// ahead* ends the pairing there (the pairings then disagree), where the
/// full verdict (balanced, or the other player ahead) could take hundreds
/// of games more to tell apart. Else the whole verdict is asked.
fn question_left(reports: &[Report], first: Player) -> Question {
    match reports.first().and_then(Report::leaning) {
        Some(Leaning::Ahead(player)) if player == first => Question::FirstAhead,
        Some(Leaning::Ahead(_)) => Question::SecondAhead,
        _ => Question::Verdict,
    }
}

/// Whether the solver's answer from the start, `forced` (its proof, or none
/// within its budget), meets `expectation` when that is `decided:N`; `None`
/// for any other expectation. The one reading of `decided:N` where the
/// analysis ran no search of its own: `analyze --verify --budget 0` and the
/// editor ask the solver themselves.
#[must_use]
pub fn meets_decided(
    expectation: &crate::level::Expectation,
    forced: Option<&ForcedWin>,
) -> Option<crate::analysis::Met> {
    let crate::level::Expectation::Decided(player) = expectation else { return None };
    Some(match forced {
        Some(win) => crate::analysis::Met {
            holds: win.player == *player,
            why: format!(
                "{} forces a win in {} actions: {}",
                win.player,
                win.line.len(),
                crate::rules::format_actions(&win.line)
            ),
        },
        None => crate::analysis::Met {
            holds: false,
            why: "the solver proves no forced win from the start".to_owned(),
        },
    })
}

/// A forced win of the first player the solver proves from `start` within
/// [`SETTLE_DEPTH`] actions and [`SETTLE_BUDGET`] positions; setting
/// `cancel` ends the search with no proof.
#[must_use]
pub fn settle(start: &GameState, cancel: &AtomicBool) -> Option<ForcedWin> {
    match crate::analysis::solve(start, SETTLE_DEPTH, SETTLE_BUDGET, Some(cancel)) {
        (crate::analysis::Answer::Proved { line }, _) => Some(ForcedWin { player: start.turn(), line }),
        _ => None,
    }
}
