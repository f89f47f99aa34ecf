//! What the views show of the pack's analyses, brought up to date by the
//! app before each frame's views run, so that a view only reads: the
//! pack's problems, each level's analysis, the current level's overlays
//! and balance estimate, and the solver's forced win for a level that
//! expects one, which runs as a background job (never on the UI thread).
//! Each value is kept per level content (the analysis) or layout (the
//! rest) and rules, so an undo finds it again.

use std::collections::HashMap;
use std::sync::Arc;

use super::job::{Job, Poll};
use super::overlays::Overlays;
use crate::ai::estimate::Estimate;
use crate::analysis::{AnalysisOptions, LevelReport, analyze_level};
use crate::level::{Expectation, Level, Pack, Problem};
use crate::rules::Rules;
use crate::sim::ForcedWin;

/// Levels' derived values kept per content before a table starts over.
const CACHE_LIMIT: usize = 2_000;

/// The key of what a level's play depends on: its layout and `rules`
/// (not its name, notes or expectations, so that ticking an expectation
/// keeps what the solver found). A hash, as [`level_key`]: the views ask
/// for it every frame.
fn layout_key(level: &Level, rules: Rules) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (level.width, level.height, level.walls & level.board(), level.crates_by_stage()).hash(&mut hasher);
    (level.starts, level.flag_cell(), level.first, rules).hash(&mut hasher);
    for player in crate::rules::Player::BOTH {
        level.goal_cells(player).hash(&mut hasher);
    }
    hasher.finish()
}

/// The key of a level's whole content under `rules`.
fn level_key(level: &Level, rules: &Rules) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    level.hash(&mut hasher);
    rules.hash(&mut hasher);
    hasher.finish()
}

/// Keeps `value` under `key`; past [`CACHE_LIMIT`] entries the table
/// starts over.
fn keep<T>(table: &mut HashMap<u64, T>, key: u64, value: T) {
    if table.len() > CACHE_LIMIT {
        table.clear();
    }
    table.insert(key, value);
}

/// The analyses of one document, as of the last refresh.
pub struct Analyses {
    /// The document revision and current level the last refresh saw.
    seen: Option<(u64, Option<usize>)>,
    /// The pack's rules at the last refresh (every key is under them).
    rules: Rules,
    /// The validation problems of the pack.
    problems: Arc<Vec<Problem>>,
    /// Each level's analysis, per content.
    reports: HashMap<u64, Arc<LevelReport>>,
    /// The board's overlays, per layout (the current level's).
    overlays: HashMap<u64, Arc<Overlays>>,
    /// The balance estimate, per layout (the current level's).
    estimates: HashMap<u64, Option<Estimate>>,
    /// The solver's forced win from the start, per layout (asked only of
    /// levels that expect one).
    solved: HashMap<u64, Option<ForcedWin>>,
    /// The solver at work on a layout.
    solving: Option<(u64, Job<Option<ForcedWin>>)>,
}

impl Default for Analyses {
    fn default() -> Analyses {
        Analyses {
            seen: None,
            rules: Rules::default(),
            problems: Arc::new(Vec::new()),
            reports: HashMap::new(),
            overlays: HashMap::new(),
            estimates: HashMap::new(),
            solved: HashMap::new(),
            solving: None,
        }
    }
}

impl Analyses {
    /// Brings everything the views read up to date with `pack` at
    /// `revision`, `current` being the level edited: the problems and every
    /// level's analysis, the current level's overlays and estimate, and its
    /// forced win started in the background where it expects one. Takes a
    /// finished solver's answer. Returns whether the solver is at work (the
    /// window then wakes to show its answer).
    pub fn refresh(&mut self, pack: &Pack, revision: u64, current: Option<usize>) -> bool {
        self.poll_solver();
        if self.seen != Some((revision, current)) {
            self.seen = Some((revision, current));
            self.rules = pack.rules;
            self.problems = Arc::new(pack.problems());
            let rules = pack.rules;
            for level in &pack.levels {
                let key = level_key(level, &rules);
                if !self.reports.contains_key(&key) {
                    let report = Arc::new(analyze_level(level, rules, &AnalysisOptions::default()));
                    keep(&mut self.reports, key, report);
                }
            }
            if let Some(level) = current.and_then(|i| pack.levels.get(i)) {
                self.refresh_current(level);
            }
        }
        self.solving.is_some()
    }

    /// The current level's overlays, estimate and (where it expects one)
    /// forced win.
    fn refresh_current(&mut self, level: &Level) {
        let rules = self.rules;
        let key = layout_key(level, rules);
        if !self.overlays.contains_key(&key) {
            keep(&mut self.overlays, key, Arc::new(Overlays::of(level)));
        }
        let playable = level.playable(rules).ok();
        if !self.estimates.contains_key(&key) {
            let estimate = playable.as_ref().and_then(|p| crate::ai::estimate::estimate(p.start()));
            keep(&mut self.estimates, key, estimate);
        }
        let expects_decided = level.expect.iter().any(|e| matches!(e, Expectation::Decided(_)));
        let asked = self.solved.contains_key(&key) || self.solving.as_ref().is_some_and(|(k, _)| *k == key);
        if expects_decided && !asked {
            match playable {
                // Another level's search, if any, is dropped (and so
                // cancelled): only the level edited is solved.
                Some(playable) => {
                    let job = Job::spawn(0, move |progress| {
                        crate::sim::settle(playable.start(), progress.cancel_flag())
                    });
                    self.solving = Some((key, job));
                }
                None => keep(&mut self.solved, key, None),
            }
        }
    }

    /// Takes the solver's answer once it has one.
    fn poll_solver(&mut self) {
        let Some((key, job)) = &self.solving else { return };
        match job.poll() {
            Poll::Ready(forced) => {
                let key = *key;
                self.solving = None;
                keep(&mut self.solved, key, forced);
            }
            Poll::Lost => self.solving = None,
            Poll::Running => {}
        }
    }

    /// Whether the solver is at work.
    #[must_use]
    pub fn solving(&self) -> bool {
        self.solving.is_some()
    }

    /// The validation problems of the pack.
    #[must_use]
    pub fn problems(&self) -> Arc<Vec<Problem>> {
        Arc::clone(&self.problems)
    }

    /// The analysis of `level`, a level of the pack as last refreshed.
    #[must_use]
    pub fn report(&self, level: &Level) -> Option<Arc<LevelReport>> {
        self.reports.get(&level_key(level, &self.rules)).cloned()
    }

    /// The board's overlays of the current level.
    #[must_use]
    pub fn overlays(&self, level: &Level) -> Option<Arc<Overlays>> {
        self.overlays.get(&layout_key(level, self.rules)).cloned()
    }

    /// The balance estimate of the current level before any game
    /// (docs/ai.md): `None` when it cannot be played or was not estimated.
    #[must_use]
    pub fn estimate(&self, level: &Level) -> Option<Estimate> {
        self.estimates.get(&layout_key(level, self.rules)).copied().flatten()
    }

    /// The forced win the solver proved from the start of `level` (the
    /// balance check's first step): `None` while it is at work or was not
    /// asked, `Some(None)` when it found none.
    #[must_use]
    pub fn forced_win(&self, level: &Level) -> Option<Option<ForcedWin>> {
        self.solved.get(&layout_key(level, self.rules)).cloned()
    }
}
