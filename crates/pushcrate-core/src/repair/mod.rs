//! Repair: the smallest edits that bring a level into balance, each
//! proposal confirmed by the balance check itself.
//!
//! The search is a beam over edit sets of growing size:
//!
//! 1. **Edits.** Turn a wall into floor or floor into a wall; move a start
//!    square, a goal cell (of a goal set written out) or the flag one step;
//!    add or remove a crate. A level mirrored
//!    left to right keeps that mirror (edits come in mirrored pairs); with
//!    [`Options::keep_symmetry`] a level the same for both players under a
//!    half turn or a top-to-bottom mirror keeps that too (each edit with its
//!    counterpart for the other player).
//! 2. **Static screen.** A candidate must stay valid, with no error or
//!    warning that the level did not have (the pack's problems and the
//!    analysis's findings, counted by code). The race to the flag then
//!    orders them: edits that move the race by one or two actions toward
//!    the player behind come first, then those that leave it, and edits
//!    that help the player ahead are dropped, as are those the solver
//!    proves a forced win for. Then the balance estimate (a millisecond a
//!    candidate, no game) drops those it puts farther from even than the
//!    level as it is and than its own error, and orders the rest nearest
//!    even first, the race's order breaking ties.
//! 3. **Quick games.** The best [`Options::screen`] candidates play a short
//!    sequential check under expert ([`Options::quick_games`] at most), and
//!    are ranked by how near the first player's score is to 50%. The best
//!    [`Options::beam`] take one more edit, up to [`Options::max_edits`].
//! 4. **Confirmation.** The best [`Options::confirm`] candidates of each
//!    size get the full balance check ([`Options::plan`], sequential, at
//!    most [`Options::cap`] games a pairing) before the next size is
//!    grown. A proposal is *balanced* only when that check says so;
//!    otherwise it is shown with the interval the check ended on ("closer:
//!    58% [49–66]").
//! 5. **Fewest edits first.** Once a size has a balanced proposal the
//!    search stops: a fix with more edits changes the level more, and its
//!    full checks would cost more than the rest of the search (the
//!    smallest fix is the answer, as in a Sokoban solver's fewest pushes).
//!    [`Options::every_size`] goes on to [`Options::max_edits`].
//!
//! Everything is seeded: the same level and options give the same
//! proposals, whatever the number of threads.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::ai::Agent;
use crate::ai::estimate::estimate;
use crate::analysis::{AnalysisOptions, LevelReport, Severity, Symmetries, analyze_level};
use crate::level::edit::EditOp;
use crate::level::{Level, Pack, Playable};
use crate::rules::{Bitboard, Cell, Player, Rules, Stage, Symmetry};
use crate::sim::{self, BalanceCheck, BalanceVerdict, Config, Design, Plan, Rate, Report, Tick};

/// A proposal's edit: one of the editor's edits, of the kinds repair makes
/// — a wall (`EditOp::Wall(cell, true)`) or floor (`Wall(cell, false)`),
/// a start square, goal cell or the flag moved a step (`MoveStart`,
/// `MoveGoal`, `MoveFlag`), an intact crate added or a crate removed
/// (`Crate`). The level is changed by `Level::apply`, as any tool's edit.
pub type Edit = EditOp;

/// The edit as a proposal lists it: "wall on c3", "player 2's start d7 to
/// d6" (words, not arrows: the editor's font has no arrow).
#[must_use]
pub fn describe(edit: &Edit) -> String {
    match *edit {
        EditOp::Wall(cell, true) => format!("wall on {cell}"),
        EditOp::Wall(cell, false) => format!("floor on {cell}"),
        EditOp::MoveStart(player, from, to) => format!("{player}'s start {from} to {to}"),
        EditOp::MoveGoal(player, from, to) => format!("{player}'s goal cell {from} to {to}"),
        EditOp::MoveFlag(from, to) => format!("flag {from} to {to}"),
        EditOp::Crate(cell, Some(_)) => format!("crate on {cell}"),
        EditOp::Crate(cell, None) => format!("no crate on {cell}"),
        other => format!("{other:?}"),
    }
}

/// The cells the edit changes: a move's two, another edit's one.
#[must_use]
pub fn edit_cells(edit: &Edit) -> Vec<Cell> {
    match *edit {
        EditOp::Wall(cell, _) | EditOp::Crate(cell, _) => vec![cell],
        EditOp::MoveStart(_, from, to) | EditOp::MoveGoal(_, from, to) | EditOp::MoveFlag(from, to) => {
            vec![from, to]
        }
        _ => Vec::new(),
    }
}

/// The order a proposal lists its edits in (and a set of edits' key):
/// walls, floor, starts, goal cells, the flag, crates added, crates
/// removed, each by player and cells.
fn order(edit: &Edit) -> (u8, u8, Cell, Cell) {
    let player = |p: Player| p.index() as u8;
    match *edit {
        EditOp::Wall(cell, true) => (0, 0, cell, cell),
        EditOp::Wall(cell, false) => (1, 0, cell, cell),
        EditOp::MoveStart(p, from, to) => (2, player(p), from, to),
        EditOp::MoveGoal(p, from, to) => (3, player(p), from, to),
        EditOp::MoveFlag(from, to) => (4, 0, from, to),
        EditOp::Crate(cell, Some(_)) => (5, 0, cell, cell),
        EditOp::Crate(cell, None) => (6, 0, cell, cell),
        _ => (7, 0, Cell::new(0, 0), Cell::new(0, 0)),
    }
}

/// How the search runs.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// The most edits in a proposal (a mirrored pair counts as one).
    pub max_edits: u32,
    /// Keep a symmetry that makes the level the same for both players.
    pub keep_symmetry: bool,
    /// Candidates of each size that play quick games.
    pub screen: usize,
    /// The most games of a candidate's quick check.
    pub quick_games: u32,
    /// Candidates of each size that take one more edit.
    pub beam: usize,
    /// Candidates of each size that get the full check.
    pub confirm: usize,
    /// The full check's pairings.
    pub plan: Plan<'a>,
    /// The most games a pairing of the full check plays.
    pub cap: u32,
    /// Go on to [`Options::max_edits`] after the check has confirmed a
    /// balanced fix with fewer edits (by default the search stops there).
    pub every_size: bool,
    /// The seed of every game.
    pub seed: u64,
    /// Worker threads; 0 uses every core.
    pub threads: usize,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            max_edits: 2,
            keep_symmetry: false,
            screen: 12,
            quick_games: 24,
            beam: 3,
            confirm: 2,
            plan: sim::STRONG,
            cap: sim::SEQUENTIAL_CAP,
            every_size: false,
            seed: 1,
            threads: 0,
        }
    }
}

/// The quick check's agent, both seats.
pub const QUICK: [Agent; 2] = [Agent::EXPERT, Agent::EXPERT];

/// A proposal: its edits, the level they make and what the checks said.
#[derive(Clone, Debug)]
pub struct Proposal {
    /// The edits, in the order made.
    pub edits: Vec<Edit>,
    /// How many edits they count as: a mirrored pair or a player's edit
    /// with its counterpart is one.
    pub steps: u32,
    /// The level with the edits made, playable.
    pub playable: Playable,
    /// The first player's score in the quick games.
    pub quick: Rate,
    /// The quick games played.
    pub quick_games: u32,
    /// The full balance check, for a confirmed proposal.
    pub check: Option<BalanceCheck>,
    /// Games played for this proposal, quick and full.
    pub games: u32,
    /// Seconds spent on it.
    pub seconds: f64,
}

impl Proposal {
    /// Whether the full check calls the proposal balanced.
    #[must_use]
    pub fn is_balanced(&self) -> bool {
        self.check.as_ref().is_some_and(|c| c.verdict == BalanceVerdict::Balanced)
    }

    /// The first player's score as the proposal is judged by: the last
    /// pairing of its full check, else its quick games.
    #[must_use]
    pub fn score(&self) -> Rate {
        self.check
            .as_ref()
            .and_then(|c| c.reports.last())
            .filter(|r| r.games > 0)
            .map_or(self.quick, |r| r.first_player_score)
    }

    /// The verdict in a few words, against the level's own score `before`:
    /// "balanced: 52% [45–59]"; "closer: 58% [49–66]" (not balanced, but
    /// nearer 50%), "closer, player 2 still ahead: 30% [22–38]" where the
    /// check calls it unbalanced; "not balanced: 71% [60–80]" or "not
    /// balanced, player 1 ahead: …"; "decided: …"; or "quick games: 61%
    /// [44–76]" for one not confirmed.
    #[must_use]
    pub fn verdict(&self, before: Rate) -> String {
        let s = self.score();
        let pct = |x: f64| format!("{:.0}", 100.0 * x);
        let interval = format!("{}% [{}–{}]", pct(s.rate), pct(s.low), pct(s.high));
        let closer = (s.rate - 0.5).abs() < (before.rate - 0.5).abs();
        match &self.check {
            Some(_) if self.is_balanced() => format!("balanced: {interval}"),
            Some(check) if check.verdict == BalanceVerdict::Decided => {
                "decided: the solver proves a forced win".into()
            }
            Some(BalanceCheck { verdict: BalanceVerdict::Unbalanced, favoured: Some(p), .. }) if closer => {
                format!("closer, {p} still ahead: {interval}")
            }
            Some(BalanceCheck { verdict: BalanceVerdict::Unbalanced, favoured: Some(p), .. }) => {
                format!("not balanced, {p} ahead: {interval}")
            }
            Some(_) if closer => format!("closer: {interval}"),
            Some(_) => format!("not balanced: {interval}"),
            None => format!("quick games: {interval}"),
        }
    }
}

/// What the search found.
#[derive(Clone, Debug)]
pub struct Repair {
    /// The level's id.
    pub level: String,
    /// The first player's score in the level's own quick games.
    pub before: Rate,
    /// The quick games the level played.
    pub before_games: u32,
    /// Confirmed proposals, best first: balanced ones, then by how near
    /// their score is to 50%.
    pub proposals: Vec<Proposal>,
    /// Candidates that passed the static screen.
    pub screened: usize,
    /// Candidates the balance estimate put farther from even than the
    /// level as it is (and than its own error), dropped before any game.
    pub estimate_dropped: usize,
    /// Candidates the solver proves a forced win for, dropped.
    pub decided: usize,
    /// Candidates that played quick games.
    pub played: usize,
    /// Games played in all.
    pub games: u32,
    /// Whether the search was cancelled (the proposals are those found so
    /// far).
    pub interrupted: bool,
    /// The number of edits the search stopped at, below
    /// [`Options::max_edits`], because the check confirmed a balanced fix
    /// with that many ([`Options::every_size`] unset).
    pub stopped_at: Option<u32>,
}

/// What the search tells its caller as it goes.
#[derive(Clone, Debug)]
pub enum Progress {
    /// A new stage, in words.
    Stage(String),
    /// A game finished.
    Game,
}

/// The symmetries repair keeps for `level`.
fn kept_symmetries(level: &Level, keep_symmetry: bool) -> Vec<Symmetry> {
    let symmetries = Symmetries::of(level);
    let mut out = Vec::new();
    if symmetries.has(Symmetry::MirrorFiles) {
        out.push(Symmetry::MirrorFiles);
    }
    if keep_symmetry && symmetries.has(Symmetry::HalfTurn) {
        out.push(Symmetry::HalfTurn);
    } else if keep_symmetry && symmetries.has(Symmetry::MirrorRanks) {
        out.push(Symmetry::MirrorRanks);
    }
    out
}

/// `edit` with its images under the kept symmetries (closed under
/// composition for the two that can be kept together), or `None` when
/// they conflict (the flag moved off a symmetry's fixed cells, say).
fn orbit(edit: Edit, symmetries: &[Symmetry], width: u8, height: u8) -> Option<Vec<Edit>> {
    let mut set: Vec<Edit> = vec![edit];
    let mut i = 0;
    while i < set.len() {
        for &symmetry in symmetries {
            let image = set[i].mirrored(symmetry, width, height)?;
            if !set.contains(&image) {
                set.push(image);
            }
        }
        i += 1;
    }
    // Two edits of one piece, or of one cell, would contradict each other.
    let mut cells = HashSet::new();
    for e in &set {
        if matches!(e, EditOp::MoveFlag(..)) && set.len() > 1 {
            return None;
        }
        for c in edit_cells(e) {
            if !cells.insert((c, order(e).0)) {
                return None;
            }
        }
    }
    let starts: Vec<Player> = set
        .iter()
        .filter_map(|e| if let EditOp::MoveStart(player, ..) = e { Some(*player) } else { None })
        .collect();
    if starts.len() > 1 && starts[0] == starts[1] {
        return None;
    }
    set.sort_by_key(order);
    Some(set)
}

/// Every single edit of `level` (before symmetry), in a stable order.
fn single_edits(level: &Level) -> Vec<Edit> {
    let board = level.board();
    let floor = level.floor();
    let starts: Bitboard = [level.starts.one, level.starts.two].into_iter().flatten().collect();
    let flag = level.flag_cell();
    let goals = [Player::One, Player::Two]
        .into_iter()
        .filter(|&p| level.goals[p].is_some())
        .fold(Bitboard::EMPTY, |b, p| b | level.goal_cells(p));
    let crates: Bitboard = level.crates.keys().copied().collect();
    let taken = starts | goals | crates | flag.map_or(Bitboard::EMPTY, Bitboard::from_cell);
    let mut out = Vec::new();
    for cell in board.iter() {
        if level.walls.has(cell) {
            out.push(EditOp::Wall(cell, false));
        } else if !taken.has(cell) {
            out.push(EditOp::Wall(cell, true));
        }
    }
    let free = floor - taken;
    for player in [Player::One, Player::Two] {
        if let Some(from) = level.starts[player] {
            for to in (Bitboard::from_cell(from).dilate() & free).iter() {
                out.push(EditOp::MoveStart(player, from, to));
            }
        }
    }
    for player in [Player::One, Player::Two] {
        let Some(set) = level.goals[player] else { continue };
        for from in set.iter() {
            for to in (Bitboard::from_cell(from).dilate() & free).iter() {
                out.push(EditOp::MoveGoal(player, from, to));
            }
        }
    }
    if let Some(from) = flag {
        for to in (Bitboard::from_cell(from).dilate() & free).iter() {
            out.push(EditOp::MoveFlag(from, to));
        }
    }
    for cell in free.iter() {
        out.push(EditOp::Crate(cell, Some(Stage::Intact)));
    }
    for cell in crates.iter() {
        out.push(EditOp::Crate(cell, None));
    }
    out
}

/// The errors and warnings of `level`, counted by code: the pack's
/// problems and the analysis's findings.
fn concerns(level: &Level, rules: Rules) -> Option<(BTreeMap<String, usize>, LevelReport)> {
    let mut pack = Pack::new("repair");
    pack.rules = rules;
    pack.levels.push(level.clone());
    let mut counts = BTreeMap::new();
    for problem in pack.problems() {
        if problem.is_error() {
            return None;
        }
        *counts.entry(problem.code.as_str().to_owned()).or_insert(0) += 1;
    }
    let report = analyze_level(level, rules, &AnalysisOptions::default());
    for finding in &report.findings {
        match finding.severity {
            Severity::Error => return None,
            Severity::Warning => *counts.entry(finding.code.as_str().to_owned()).or_insert(0) += 1,
            Severity::Note => {}
        }
    }
    Some((counts, report))
}

/// The first player's lead in the race to the flag, in actions (negative
/// when the second player is ahead).
fn race_lead(report: &LevelReport, first: Player) -> Option<i64> {
    let race = report.race?;
    let lead = i64::from(race.lead);
    Some(if race.first_to_flag == first { lead } else { -lead })
}

/// Whether a candidate the balance estimate gives the first player
/// `candidate` is worth games, the level as it is estimated at `level`: it
/// is not when it is farther from even than the level, and farther than
/// the estimate's own mean error on held-out levels (within that error the
/// estimate cannot tell better from worse).
fn estimate_keeps(candidate: f64, level: f64) -> bool {
    let error = crate::ai::estimate::ACCURACY.mean_error / 100.0;
    (candidate - 0.5).abs() <= (level - 0.5).abs().max(error)
}

/// The most edits a search may make (a mirrored pair counting as one):
/// `repair --max-edits` and the editor's *Suggest fixes* both stop here.
pub const MAX_EDITS: u32 = 3;

/// A candidate: its edits and level.
#[derive(Clone)]
struct Candidate {
    edits: Vec<Edit>,
    steps: u32,
    playable: Playable,
    quick: Option<(Rate, u32)>,
}

impl Candidate {
    /// How far its quick games put the first player's score from 50%
    /// (unplayed: as far as can be).
    fn distance(&self) -> f64 {
        self.quick.map_or(f64::INFINITY, |(r, _)| (r.rate - 0.5).abs())
    }
}

/// The quick check of `playable`: the first player's score under expert, at
/// most `games` games, stopping once the sequential test settles.
fn quick_check(
    playable: &Playable,
    options: &Options<'_>,
    progress: &(dyn Fn(Progress) + Sync),
    cancel: &Arc<AtomicBool>,
) -> Option<(Rate, u32)> {
    let start = *playable.start();
    let config = Config {
        agents: QUICK,
        games: options.quick_games,
        seed: options.seed,
        max_actions: sim::MAX_ACTIONS,
        threads: options.threads,
        opening: 0,
        sequential: Some(Design::DEFAULT),
    };
    let (results, _) = sim::run_sequential(
        &start,
        &config,
        Design::DEFAULT,
        sim::Question::Verdict,
        &|| progress(Progress::Game),
        &|_| {},
        cancel,
    );
    let report = Report::new(playable.id(), QUICK.map(Agent::label), start.turn(), &results, false);
    (report.games > 0).then_some((report.first_player_score, report.games))
}

/// Searches edits of `playable` that the balance check calls balanced, as
/// the module describes. Setting `cancel` ends the search with
/// the proposals confirmed so far.
#[must_use]
pub fn repair(
    playable: &Playable,
    options: &Options<'_>,
    progress: &(dyn Fn(Progress) + Sync),
    cancel: &Arc<AtomicBool>,
) -> Repair {
    let stopped = || cancel.load(Ordering::Relaxed);
    let (level, rules) = (playable.level(), playable.rules());
    let mut out = Repair {
        level: level.id.clone(),
        before: Rate { rate: 0.5, low: 0.0, high: 1.0 },
        before_games: 0,
        proposals: Vec::new(),
        screened: 0,
        estimate_dropped: 0,
        decided: 0,
        played: 0,
        games: 0,
        interrupted: false,
        stopped_at: None,
    };
    let Some((baseline, base_report)) = concerns(level, rules) else {
        return out;
    };
    progress(Progress::Stage(format!("quick games on `{}` as it is", level.id)));
    if let Some((rate, games)) = quick_check(playable, options, progress, cancel) {
        out.before = rate;
        out.before_games = games;
        out.games += games;
    }
    let screen = Screen {
        rules,
        baseline,
        first: level.first,
        first_ahead: out.before.rate >= 0.5,
        as_estimated: estimate(playable.start()).map_or(0.5, |e| e.first_player),
        lead0: race_lead(&base_report, level.first),
        symmetries: kept_symmetries(level, options.keep_symmetry),
        cancel,
    };
    let mut seen: HashSet<Vec<Edit>> = HashSet::new();
    let mut frontier =
        vec![Candidate { edits: Vec::new(), steps: 0, playable: playable.clone(), quick: None }];
    for size in 1..=options.max_edits {
        if stopped() {
            break;
        }
        progress(Progress::Stage(format!("screening {size}-edit candidates")));
        let mut screened = screen.candidates(&frontier, size, &mut seen, &mut out);
        out.screened += screened.len();
        screened.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut played: Vec<Candidate> = Vec::new();
        let total = screened.len().min(options.screen);
        for (i, (_, _, mut candidate)) in screened.into_iter().take(options.screen).enumerate() {
            if stopped() {
                break;
            }
            progress(Progress::Stage(format!("quick games: {size}-edit candidate {} of {total}", i + 1)));
            candidate.quick = quick_check(&candidate.playable, options, progress, cancel);
            if let Some((_, games)) = candidate.quick {
                out.games += games;
                out.played += 1;
                played.push(candidate);
            }
        }
        played.sort_by(|a, b| a.distance().total_cmp(&b.distance()));
        frontier = played.iter().take(options.beam).cloned().collect();
        // Fewest edits first: once the check confirms a fix of this size,
        // a larger one is not wanted (unless asked for).
        if confirm(&played, options, progress, cancel, &mut out) && !options.every_size {
            out.stopped_at = (size < options.max_edits).then_some(size);
            break;
        }
    }
    out.interrupted = stopped();
    let distance = |p: &Proposal| (p.score().rate - 0.5).abs();
    // A proposal no nearer even than the level as it is is not a fix.
    let as_it_is = (out.before.rate - 0.5).abs();
    out.proposals.retain(|p| p.is_balanced() || distance(p) < as_it_is);
    out.proposals.sort_by(|a, b| {
        b.is_balanced()
            .cmp(&a.is_balanced())
            .then(distance(a).total_cmp(&distance(b)))
            .then(a.steps.cmp(&b.steps))
    });
    out
}

/// What every candidate of a repair is screened against before any game:
/// the level's own concerns, race and estimate, and the symmetries an edit
/// keeps.
struct Screen<'a> {
    rules: Rules,
    /// The level's warnings and errors by code: a candidate may add none.
    baseline: BTreeMap<String, usize>,
    first: Player,
    /// Whether the first player is ahead in the level's quick games.
    first_ahead: bool,
    /// The level's balance estimate.
    as_estimated: f64,
    /// The level's race lead for the first player, if there is a race.
    lead0: Option<i64>,
    symmetries: Vec<Symmetry>,
    cancel: &'a Arc<AtomicBool>,
}

impl Screen<'_> {
    /// The candidates of `size` edits grown from `frontier` that pass the
    /// static screen (valid, no new concern, the race moving toward the
    /// player behind, no forced win, the estimate no farther from even
    /// than the level's), as (the estimate's distance from even, the race's
    /// priority, the candidate): the least of each is tried first. `seen`
    /// holds the edit sets already met; `out` counts what was decided or
    /// dropped.
    fn candidates(
        &self,
        frontier: &[Candidate],
        size: u32,
        seen: &mut HashSet<Vec<Edit>>,
        out: &mut Repair,
    ) -> Vec<(f64, u32, Candidate)> {
        let (rules, cancel, first) = (self.rules, self.cancel, self.first);
        let mut screened: Vec<(f64, u32, Candidate)> = Vec::new();
        for parent in frontier {
            let touched: HashSet<Cell> = parent.edits.iter().flat_map(edit_cells).collect();
            let level = parent.playable.level();
            for edit in single_edits(level) {
                let Some(group) = orbit(edit, &self.symmetries, level.width, level.height) else {
                    continue;
                };
                if group.iter().flat_map(edit_cells).any(|c| touched.contains(&c)) {
                    continue;
                }
                let mut edits = parent.edits.clone();
                edits.extend(group.iter().copied());
                let mut key = edits.clone();
                key.sort_by_key(order);
                if !seen.insert(key) {
                    continue;
                }
                let mut next = level.clone();
                for e in &group {
                    next.apply(*e, None);
                }
                let Some((counts, report)) = concerns(&next, rules) else { continue };
                if counts.iter().any(|(code, &n)| n > self.baseline.get(code).copied().unwrap_or(0)) {
                    continue;
                }
                // How far the race moves toward the player behind.
                let toward = match (self.lead0, race_lead(&report, first)) {
                    (Some(before), Some(after)) => {
                        if self.first_ahead {
                            before - after
                        } else {
                            after - before
                        }
                    }
                    _ => 0,
                };
                let priority = match toward {
                    1 => 0,
                    2 => 1,
                    0 => 2,
                    _ => continue,
                };
                // A forced win the solver proves cannot be balanced.
                let next = match Playable::new(next, rules) {
                    Ok(next) if sim::settle(next.start(), cancel).is_none() => next,
                    _ => {
                        out.decided += 1;
                        continue;
                    }
                };
                // The balance estimate, a millisecond before any game: a
                // candidate it puts farther from even than the level as
                // it is, and farther than its own error, goes no further;
                // the rest are tried nearest even first, the race's move
                // as the tie-break.
                let estimated = estimate(next.start()).map_or(0.5, |e| e.first_player);
                if !estimate_keeps(estimated, self.as_estimated) {
                    out.estimate_dropped += 1;
                    continue;
                }
                screened.push((
                    (estimated - 0.5).abs(),
                    priority,
                    Candidate { edits, steps: size, playable: next, quick: None },
                ));
            }
        }
        screened
    }
}

/// The best [`Options::confirm`] candidates of one size (`played`, nearest
/// even first), confirmed by the full balance check: each becomes a
/// proposal of `out`. Whether the check calls any of them balanced.
fn confirm(
    played: &[Candidate],
    options: &Options<'_>,
    progress: &(dyn Fn(Progress) + Sync),
    cancel: &Arc<AtomicBool>,
    out: &mut Repair,
) -> bool {
    let stopped = || cancel.load(Ordering::Relaxed);
    let mut balanced = false;
    let total = played.len().min(options.confirm);
    for (i, candidate) in played.iter().take(options.confirm).cloned().enumerate() {
        if stopped() {
            break;
        }
        progress(Progress::Stage(format!(
            "full check {} of {total}: {}",
            i + 1,
            candidate.edits.iter().map(describe).collect::<Vec<_>>().join(", ")
        )));
        let began = Instant::now();
        let base = Config {
            agents: options.plan.pairings[0],
            games: options.cap,
            seed: options.seed,
            max_actions: sim::MAX_ACTIONS,
            threads: options.threads,
            opening: 0,
            sequential: Some(Design::DEFAULT),
        };
        let tick = |t: Tick| {
            if t == Tick::Game {
                progress(Progress::Game);
            }
        };
        let (check, games) = sim::check_balance(&candidate.playable, options.plan, &base, &tick, cancel);
        if check.interrupted {
            break;
        }
        let played: u32 = games.iter().map(|g| g.len() as u32).sum();
        let (quick, quick_games) = candidate.quick.unwrap_or((Rate { rate: 0.5, low: 0.0, high: 1.0 }, 0));
        out.games += played;
        balanced |= check.verdict == BalanceVerdict::Balanced;
        out.proposals.push(Proposal {
            edits: candidate.edits,
            steps: candidate.steps,
            playable: candidate.playable,
            quick,
            quick_games,
            check: Some(check),
            games: played + quick_games,
            seconds: began.elapsed().as_secs_f64(),
        });
    }
    balanced
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::render::level_from_diagram;

    fn c(name: &str) -> Cell {
        name.parse().unwrap()
    }

    /// A proposal's edit changes a level as the editor's tools would, and
    /// only as it says: every single edit of every bundled level.
    #[test]
    fn an_edit_does_what_it_says_and_nothing_else() {
        for pack in Pack::bundled_both() {
            for level in &pack.levels {
                for edit in single_edits(level) {
                    let mut expected = level.clone();
                    match edit {
                        EditOp::Wall(cell, true) => expected.walls.insert(cell),
                        EditOp::Wall(cell, false) => expected.walls.remove(cell),
                        EditOp::MoveStart(player, _, to) => expected.starts[player] = Some(to),
                        EditOp::MoveGoal(player, from, to) => {
                            let goals = expected.goals[player].as_mut().unwrap();
                            goals.remove(from);
                            goals.insert(to);
                        }
                        EditOp::MoveFlag(_, to) => expected.flag = Some(to),
                        EditOp::Crate(cell, Some(_)) => {
                            expected.crates.insert(cell, Stage::Intact);
                        }
                        EditOp::Crate(cell, None) => {
                            expected.crates.remove(&cell);
                        }
                        other => panic!("repair makes no {other:?}"),
                    }
                    let mut made = level.clone();
                    made.apply(edit, None);
                    assert_eq!(made, expected, "{}: {}", level.id, describe(&edit));
                }
            }
        }
    }

    #[test]
    fn the_estimate_drops_only_what_it_can_tell_is_worse() {
        // The level at 80%: a candidate at 85% or 10% is worse, one at 75%
        // or 25% is not.
        assert!(!estimate_keeps(0.85, 0.8) && !estimate_keeps(0.1, 0.8));
        assert!(estimate_keeps(0.75, 0.8) && estimate_keeps(0.25, 0.8) && estimate_keeps(0.5, 0.8));
        // The level near even: within the estimate's error, nothing is
        // dropped.
        assert!(estimate_keeps(0.65, 0.52) && estimate_keeps(0.35, 0.5));
        assert!(!estimate_keeps(0.9, 0.5));
    }

    #[test]
    fn a_mirrored_level_is_edited_in_mirrored_pairs() {
        let level = level_from_diagram(
            "m",
            "
            . . 2 . .
            . # . # .
            . . F . .
            . # . # .
            . . 1 . .",
        )
        .unwrap();
        let symmetries = kept_symmetries(&level, false);
        assert_eq!(symmetries.len(), 1, "left to right only, unless asked");
        let pair = orbit(EditOp::Wall(c("a3"), true), &symmetries, 5, 5).unwrap();
        assert_eq!(pair, vec![EditOp::Wall(c("a3"), true), EditOp::Wall(c("e3"), true)]);
        let both = kept_symmetries(&level, true);
        let four = orbit(EditOp::Wall(c("a2"), true), &both, 5, 5).unwrap();
        assert_eq!(four.len(), 4, "{four:?}");
        // The flag cannot move off the cells the symmetries fix.
        assert!(orbit(EditOp::MoveFlag(c("c3"), c("b3")), &both, 5, 5).is_none());
        let start = orbit(EditOp::MoveStart(Player::One, c("c1"), c("c2")), &both, 5, 5).unwrap();
        assert_eq!(start.len(), 2, "each player's start, as its counterpart: {start:?}");
    }

    #[test]
    fn goal_cells_move_only_where_the_goal_set_is_written_out() {
        let mut level =
            level_from_diagram("g", ". . 2 . .\n. . . . .\n. . F . .\n. . . . .\n. . 1 . .").unwrap();
        let goal_moves = |level: &Level| {
            single_edits(level).into_iter().filter(|e| matches!(e, EditOp::MoveGoal(..))).count()
        };
        assert_eq!(goal_moves(&level), 0, "default goals move with the start square");
        level.goals.one = Some(Bitboard::from_cell(c("a1")));
        assert_eq!(goal_moves(&level), 2, "a1 to a2 or to b1");
        let edit = EditOp::MoveGoal(Player::One, c("a1"), c("a2"));
        let mut moved = level.clone();
        moved.apply(edit, None);
        assert_eq!(moved.goals.one, Some(Bitboard::from_cell(c("a2"))));
        let pair = orbit(edit, &[Symmetry::HalfTurn], 5, 5).unwrap();
        assert!(pair.contains(&EditOp::MoveGoal(Player::Two, c("e5"), c("e4"))), "{pair:?}");
    }
}
