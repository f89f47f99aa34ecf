//! SIGINT, SIGTERM and SIGHUP as coreutils treat them: a long command
//! stops at its next safe point, prints what it has (a partial report, or
//! a note that nothing was written), and the process then ends *by the
//! signal*, so that a shell shows 130, 143 or 129 and a script that ran it
//! stops as it would for any other program. A second signal ends the
//! process at once. A signal that was ignored when the process started
//! (a background job of a script, `nohup`) stays ignored.
//!
//! Commands that finish in a moment (`check`, `show`, `moves`, `schema`)
//! install nothing: the signal's default action ends them, which loses
//! nothing, since a file is only ever replaced whole.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The signals that stop a run.
#[cfg(unix)]
const STOPPING: [i32; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

struct Handlers {
    /// Raised by the first stopping signal.
    stop: Arc<AtomicBool>,
    /// The number of the first stopping signal received; 0 before.
    which: Arc<AtomicUsize>,
}

static HANDLERS: OnceLock<Handlers> = OnceLock::new();

/// The process's stop flag, raised by SIGINT, SIGTERM or SIGHUP; the
/// handlers are installed by the first call.
pub(crate) fn stop_flag() -> Arc<AtomicBool> {
    Arc::clone(&HANDLERS.get_or_init(install).stop)
}

/// The stopping signal received, if any.
pub(super) fn received() -> Option<i32> {
    let which = HANDLERS.get()?.which.load(Ordering::SeqCst);
    i32::try_from(which).ok().filter(|&s| s != 0)
}

/// Ends the process by the signal received, if one was: its default
/// action is restored and the signal raised again. Returns when none was
/// received (or the platform cannot re-raise it), and the caller exits
/// with its own code.
pub(super) fn end_by_signal() {
    let Some(signal) = received() else { return };
    #[cfg(unix)]
    {
        use std::io::Write as _;
        std::io::stdout().flush().ok();
        std::io::stderr().flush().ok();
        signal_hook::low_level::emulate_default_handler(signal).ok();
    }
    let _ = signal;
}

/// The exit code for a run stopped by a signal where the process cannot
/// end by the signal itself: 128 + its number, as a shell reports it.
#[must_use]
pub(super) fn exit_code() -> Option<u8> {
    received().and_then(|s| u8::try_from(128 + s).ok())
}

fn install() -> Handlers {
    let handlers = Handlers { stop: Arc::new(AtomicBool::new(false)), which: Arc::new(AtomicUsize::new(0)) };
    #[cfg(unix)]
    for signal in STOPPING {
        if ignored(signal) {
            continue;
        }
        // In this order: the second signal finds the flag already raised
        // and ends the process; the first raises it and notes its number.
        // A registration that fails leaves the default action, which only
        // makes the run end at once.
        signal_hook::flag::register_conditional_default(signal, Arc::clone(&handlers.stop)).ok();
        let number = usize::try_from(signal).unwrap_or(0);
        signal_hook::flag::register_usize(signal, Arc::clone(&handlers.which), number).ok();
        signal_hook::flag::register(signal, Arc::clone(&handlers.stop)).ok();
    }
    handlers
}

/// Whether `signal` was set to be ignored when the process started, as
/// the shell does for the background jobs of a script.
#[cfg(unix)]
#[allow(unsafe_code)]
fn ignored(signal: i32) -> bool {
    // SAFETY: `sigaction` with a null new action only reads the current
    // one into `old`, a plain struct that an all-zero value initialises.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &raw mut old) == 0 && old.sa_sigaction == libc::SIG_IGN
    }
}
