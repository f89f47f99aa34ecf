//! The skill-trace part of the sandbox: each strength on both sides,
//! weakest first ([`sim::skill_trace`]), played in the background.

use std::sync::{Arc, Mutex};

use crate::editor::job::{Job, take_finished};
use crate::level::Playable;
use crate::sim::{self, Config};

/// The skill trace of one level.
#[derive(Default)]
pub struct SkillTrace {
    /// The trace being played.
    job: Option<Job<Vec<sim::TracePoint>>>,
    /// The strength the trace is playing.
    stage: Arc<Mutex<&'static str>>,
    /// The last trace, once finished (or cancelled).
    report: Option<Vec<sim::TracePoint>>,
}

impl SkillTrace {
    /// Starts the trace of `playable` ([`sim::TRACE_GAMES`] games a
    /// strength) in the background.
    pub fn start(&mut self, playable: &Playable, seed: u64) {
        let start = *playable.start();
        let level = playable.id().to_owned();
        let stage = Arc::clone(&self.stage);
        let config = Config { seed, ..Config::fixed([sim::TRACE[0].1; 2], sim::TRACE_GAMES) };
        let total = sim::TRACE_GAMES * sim::TRACE.len() as u32;
        self.job = Some(Job::spawn(total, move |progress| {
            let tick = |name: Option<&'static str>| match name {
                Some(name) => {
                    if let Ok(mut stage) = stage.lock() {
                        *stage = name;
                    }
                }
                None => progress.step(),
            };
            sim::skill_trace(&start, &level, &config, &tick, progress.cancel_flag())
        }));
    }

    /// Takes the trace when it has finished (or was cancelled).
    pub fn poll(&mut self) -> bool {
        take_finished(&mut self.job, &mut self.report)
    }

    /// Asks the trace under way to stop; it keeps what it has.
    pub fn cancel(&self) {
        crate::editor::job::cancel(self.job.as_ref());
    }

    /// The trace under way, for its progress.
    #[must_use]
    pub fn job(&self) -> Option<&Job<Vec<sim::TracePoint>>> {
        self.job.as_ref()
    }

    /// The strength the trace is playing.
    #[must_use]
    pub fn stage(&self) -> &'static str {
        self.stage.lock().map(|s| *s).unwrap_or_default()
    }

    /// The last trace.
    #[must_use]
    pub fn report(&self) -> Option<&Vec<sim::TracePoint>> {
        self.report.as_ref()
    }
}
