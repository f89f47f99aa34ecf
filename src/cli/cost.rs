//! Work that cannot finish in a sitting says so before it starts: a run
//! whose cost, measured on a small sample first, is over
//! [`SAY_ABOVE`] is announced on standard error, and one over [`LONG_RUN`]
//! is refused unless `--allow-long` insists (docs/analysis.md, "Long
//! runs").

use std::time::{Duration, Instant};

use anyhow::bail;

use super::err;

/// A run estimated to take longer is announced before it starts.
pub const SAY_ABOVE: Duration = Duration::from_secs(60);

/// A run estimated to take longer is refused without `--allow-long`.
pub const LONG_RUN: Duration = Duration::from_secs(60 * 60);

/// An estimate of a run's wall time: `units` of work at `each` apiece, on
/// `threads` threads.
pub(super) struct Estimate {
    /// What the run does, as the message names it ("1,000,000 games").
    pub what: String,
    /// The measured cost of one unit of work on one thread.
    pub each: Duration,
    /// Units of work.
    pub units: f64,
    /// Threads that share the work.
    pub threads: usize,
}

impl Estimate {
    /// The run's estimated wall time.
    fn total(&self) -> Duration {
        let seconds = self.each.as_secs_f64() * self.units / self.threads.max(1) as f64;
        Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)
    }

    /// Says the estimate where it is over [`SAY_ABOVE`], and refuses a run
    /// over [`LONG_RUN`] unless `allow_long`.
    ///
    /// # Errors
    /// A run estimated over [`LONG_RUN`] without `allow_long`.
    pub(super) fn check(&self, allow_long: bool) -> anyhow::Result<()> {
        let total = self.total();
        if total <= SAY_ABOVE {
            return Ok(());
        }
        let each = if self.each >= Duration::from_micros(100) {
            format!("{} each, ", duration_text(self.each))
        } else {
            String::new()
        };
        let text = format!(
            "{} would take about {} ({each}measured on a sample, on {} thread{})",
            self.what,
            duration_text(total),
            self.threads,
            if self.threads == 1 { "" } else { "s" },
        );
        if total > LONG_RUN && !allow_long {
            bail!(
                "{text}: nothing was started. A run estimated at over an hour needs --allow-long; or ask for less"
            );
        }
        err(&format!("{text}; Ctrl-C stops it with what it has\n"));
        Ok(())
    }
}

/// Times `work`, which runs a sample of the run.
pub(super) fn timed<T>(work: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let value = work();
    (value, start.elapsed())
}

/// A duration as a person reads it: "3.2 ms", "41 s", "12 min", "5.3 h",
/// "6.1 days", "4e9 years".
pub(super) fn duration_text(duration: Duration) -> String {
    let s = duration.as_secs_f64();
    let (value, unit) = match s {
        s if s < 1.0 => return format!("{:.1} ms", s * 1000.0),
        s if s < 120.0 => (s, "s"),
        s if s < 2.0 * 3600.0 => (s / 60.0, "min"),
        s if s < 2.0 * 86_400.0 => (s / 3600.0, "h"),
        s if s < 2.0 * 365.25 * 86_400.0 => (s / 86_400.0, "days"),
        s => (s / (365.25 * 86_400.0), "years"),
    };
    if value >= 1e6 {
        format!("{value:.0e} {unit}")
    } else if value >= 10.0 {
        format!("{value:.0} {unit}")
    } else {
        format!("{value:.1} {unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(duration_text(Duration::from_micros(3200)), "3.2 ms");
        assert_eq!(duration_text(Duration::from_secs(41)), "41 s");
        assert_eq!(duration_text(Duration::from_secs(12 * 60)), "12 min");
        assert_eq!(duration_text(Duration::from_secs(6 * 86_400 + 3 * 3600)), "6.1 days");
        assert_eq!(duration_text(Duration::MAX), "6e11 years");
    }

    #[test]
    fn a_run_past_the_bound_is_refused_unless_insisted_on() {
        let estimate = |units: f64| Estimate {
            what: format!("{units} games"),
            each: Duration::from_millis(500),
            units,
            threads: 2,
        };
        assert!(estimate(100.0).check(false).is_ok(), "25 s: not even said");
        assert!(estimate(1_000.0).check(false).is_ok(), "250 s: said, not refused");
        let refused = estimate(1_000_000.0).check(false).unwrap_err().to_string();
        assert!(refused.contains("2.9 days") && refused.contains("--allow-long"), "{refused}");
        assert!(estimate(1_000_000.0).check(true).is_ok());
    }
}
