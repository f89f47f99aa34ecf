//! [`Job`]: work on a thread of its own, off the UI thread, with progress,
//! cancellation and a result that the UI polls once per frame. The
//! computer's moves, self-play balance runs and level generation are jobs.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Lowers the calling thread's scheduling priority (nice 10), so that
/// games played in the background never starve the interface of a core:
/// its thread keeps the default priority and is run first whenever it has
/// input to handle. The `pushcrate` binary has every game-playing worker
/// call it as it starts (`sim::on_worker_start`), in the editor as on the
/// command line. Linux only; elsewhere a no-op.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn yield_to_the_interface() {
    // SAFETY: `setpriority` reads no memory of ours; `PRIO_PROCESS` with
    // `who = 0` names the calling thread on Linux, whose nice value is per
    // thread. A failure (a sandbox that forbids it) leaves the priority as
    // it was, which is harmless.
    let _ignored = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 10) };
}

/// Lowers the calling thread's scheduling priority: Linux only; here a
/// no-op.
#[cfg(not(target_os = "linux"))]
pub fn yield_to_the_interface() {}

/// What a running job sees: where to count progress and whether it was
/// cancelled.
#[derive(Clone, Debug)]
pub struct Progress {
    done: Arc<AtomicU32>,
    total: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
}

impl Progress {
    /// Counts one unit of work done.
    pub fn step(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    /// Expects `more` units of work than the job was started with (a
    /// balance check whose referee is called in).
    pub fn expect_more(&self, more: u32) {
        self.total.fetch_add(more, Ordering::Relaxed);
    }

    /// Expects `fewer` units of work than announced (a balance pairing
    /// that stopped as soon as its verdict was known).
    pub fn expect_fewer(&self, fewer: u32) {
        // Never below what is done: a total is an upper bound.
        let done = self.done.load(Ordering::Relaxed);
        // The closure always gives a value, so the update cannot fail.
        self.total
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |total| {
                Some(total.saturating_sub(fewer).max(done))
            })
            .ok();
    }

    /// The flag that asks the work to stop, for code that checks it
    /// itself (searches, self-play runs).
    #[must_use]
    pub fn cancel_flag(&self) -> &Arc<AtomicBool> {
        &self.cancel
    }
}

/// The state of a job, as a frame sees it.
#[derive(Debug, PartialEq, Eq)]
pub enum Poll<T> {
    /// Still working.
    Running,
    /// Finished with this result.
    Ready(T),
    /// The thread ended without a result (it panicked).
    Lost,
}

/// Work under way on its own thread.
#[derive(Debug)]
pub struct Job<T> {
    progress: Progress,
    receiver: Receiver<T>,
    started: std::time::Instant,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a new thread; `total` is the number of progress
    /// steps it is expected to count (0 when it counts none).
    pub fn spawn(total: u32, work: impl FnOnce(&Progress) -> T + Send + 'static) -> Job<T> {
        Job::spawn_with_cancel(total, Arc::new(AtomicBool::new(false)), work)
    }

    /// Starts `work` as [`Job::spawn`] does, with `cancel` as its cancel
    /// flag (cleared first): for work that keeps something across jobs
    /// that watches the flag, such as the computer's player.
    pub fn spawn_with_cancel(
        total: u32,
        cancel: Arc<AtomicBool>,
        work: impl FnOnce(&Progress) -> T + Send + 'static,
    ) -> Job<T> {
        cancel.store(false, Ordering::Relaxed);
        let progress =
            Progress { done: Arc::new(AtomicU32::new(0)), total: Arc::new(AtomicU32::new(total)), cancel };
        let (sender, receiver) = channel();
        let theirs = progress.clone();
        std::thread::spawn(move || {
            // The job may be dropped before it ends: nobody wants the result.
            sender.send(work(&theirs)).ok();
        });
        Job { progress, receiver, started: std::time::Instant::now() }
    }
}

impl<T> Job<T> {
    /// The result, once there is one.
    pub fn poll(&self) -> Poll<T> {
        match self.receiver.try_recv() {
            Ok(result) => Poll::Ready(result),
            Err(TryRecvError::Empty) => Poll::Running,
            Err(TryRecvError::Disconnected) => Poll::Lost,
        }
    }

    /// Asks the work to stop soon; it still sends what it has.
    pub fn cancel(&self) {
        self.progress.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether [`Job::cancel`] was called.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.progress.cancel.load(Ordering::Relaxed)
    }

    /// How long the job has been running.
    #[must_use]
    pub fn elapsed(&self) -> std::time::Duration {
        self.started.elapsed()
    }

    /// Steps done and steps expected.
    #[must_use]
    pub fn progress(&self) -> (u32, u32) {
        (self.progress.done.load(Ordering::Relaxed), self.progress.total.load(Ordering::Relaxed))
    }
}

impl<T> Drop for Job<T> {
    /// A job nobody waits for any more is asked to stop.
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Asks `job`, if one is under way, to stop.
pub fn cancel<T>(job: Option<&Job<T>>) {
    if let Some(job) = job {
        job.cancel();
    }
}

/// Moves the result of `job` into `into` once it has finished, and clears
/// the job (also when its thread was lost). Returns whether a result came.
pub fn take_finished<T: Send + 'static>(job: &mut Option<Job<T>>, into: &mut Option<T>) -> bool {
    let Some(running) = job else { return false };
    match running.poll() {
        Poll::Ready(result) => {
            *job = None;
            *into = Some(result);
            true
        }
        Poll::Lost => {
            *job = None;
            false
        }
        Poll::Running => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait<T>(job: &Job<T>) -> Poll<T> {
        loop {
            match job.poll() {
                Poll::Running => std::thread::yield_now(),
                other => return other,
            }
        }
    }

    #[test]
    fn a_job_reports_progress_and_its_result() {
        let job = Job::spawn(3, |p| {
            for _ in 0..3 {
                p.step();
            }
            p.expect_more(2);
            p.step();
            p.expect_fewer(10);
            7
        });
        assert_eq!(wait(&job), Poll::Ready(7));
        assert_eq!(job.progress(), (4, 4), "never fewer expected than done");
    }

    #[test]
    fn a_cancelled_job_stops_and_a_panicked_one_is_lost() {
        let job = Job::spawn(0, |p| {
            while !p.cancel_flag().load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
            "stopped"
        });
        assert_eq!(job.poll(), Poll::Running);
        job.cancel();
        assert!(job.is_cancelled());
        assert_eq!(wait(&job), Poll::Ready("stopped"));
        let lost: Job<u8> = Job::spawn(0, |_| panic!("the work failed"));
        assert_eq!(wait(&lost), Poll::Lost);
    }

    #[test]
    fn dropping_a_job_cancels_it() {
        let (tx, rx) = channel();
        let job = Job::spawn(0, move |p| {
            while !p.cancel_flag().load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
            tx.send(()).unwrap();
        });
        drop(job);
        rx.recv().unwrap();
    }
}
