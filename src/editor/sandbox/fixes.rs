//! The fixes part of the sandbox: the search for small edits that make the
//! level balanced ([`crate::repair`]), its proposals and the one previewed.

use std::sync::{Arc, Mutex};

use crate::editor::job::{Job, take_finished};
use crate::level::Playable;
use crate::repair::{Progress, Repair};
use crate::sim;

/// A search for fixes and its proposals.
pub struct FixSearch {
    /// A search under way.
    job: Option<Job<Repair>>,
    /// What the search is doing, in words, as it last said.
    stage: Arc<Mutex<String>>,
    /// The last search's proposals.
    found: Option<Repair>,
    /// The proposal shown on the board instead of the game, if any.
    preview: Option<usize>,
    /// The most edits a proposal may make, 1 to 3 (a mirrored pair counts
    /// as one), as `repair --max-edits`.
    edits: u32,
}

impl Default for FixSearch {
    fn default() -> FixSearch {
        FixSearch { job: None, stage: Arc::default(), found: None, preview: None, edits: 1 }
    }
}

impl FixSearch {
    /// Starts a search for the smallest edits that make `playable`
    /// balanced, in the background, confirmed by the balance check `plan`
    /// with `cap` games a pairing at most.
    pub fn start(&mut self, playable: &Playable, plan: sim::Plan<'static>, cap: u32, seed: u64) {
        let playable = playable.clone();
        let stage = Arc::clone(&self.stage);
        let max_edits = self.edits.clamp(1, crate::repair::MAX_EDITS);
        self.preview = None;
        self.job = Some(Job::spawn(0, move |progress| {
            let options =
                crate::repair::Options { max_edits, seed, plan, cap, ..crate::repair::Options::default() };
            let tell = |p: Progress| match p {
                Progress::Stage(text) => {
                    if let Ok(mut s) = stage.lock() {
                        *s = text;
                    }
                }
                Progress::Game => progress.step(),
            };
            crate::repair::repair(&playable, &options, &tell, progress.cancel_flag())
        }));
    }

    /// Takes the proposals when the search has finished (or was cancelled).
    pub fn poll(&mut self) -> bool {
        take_finished(&mut self.job, &mut self.found)
    }

    /// Asks the search under way to stop; it reports what it has.
    pub fn cancel(&self) {
        crate::editor::job::cancel(self.job.as_ref());
    }

    /// The search under way, for its progress.
    #[must_use]
    pub fn job(&self) -> Option<&Job<Repair>> {
        self.job.as_ref()
    }

    /// What the search is doing, in words.
    #[must_use]
    pub fn stage(&self) -> String {
        self.stage.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The last search's proposals.
    #[must_use]
    pub fn found(&self) -> Option<&Repair> {
        self.found.as_ref()
    }

    /// Keeps `found` as the last search's proposals (a repaired level's
    /// game keeps those that repaired it, so another can be tried after an
    /// undo).
    pub fn keep_found(&mut self, found: Repair) {
        self.found = Some(found);
    }

    /// The proposal shown on the board, if any.
    #[must_use]
    pub fn preview(&self) -> Option<usize> {
        self.preview
    }

    /// Shows proposal `which` on the board, or the game.
    pub fn set_preview(&mut self, which: Option<usize>) {
        self.preview = which;
    }

    /// The most edits a proposal may make.
    #[must_use]
    pub fn edits(&self) -> u32 {
        self.edits
    }

    /// Sets the most edits a proposal may make, kept within 1 to
    /// [`crate::repair::MAX_EDITS`].
    pub fn set_edits(&mut self, edits: u32) {
        self.edits = edits.clamp(1, crate::repair::MAX_EDITS);
    }

    /// Takes the designer's choice of `old` (the most edits), which is for
    /// the pack, not for one level.
    pub fn keep_choices_of(&mut self, old: &FixSearch) {
        self.edits = old.edits;
    }
}
