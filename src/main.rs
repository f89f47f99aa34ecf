//! The `pushcrate` binary: the editor, or the command line of
//! [`pushcrate::cli`].

use std::process::ExitCode;

use pushcrate::cli::{self, Handoff};

fn main() -> ExitCode {
    // Games run in the background, in the editor as on the command line:
    // their workers yield to the thread that handles input. Set before any
    // game, as the worker pools are made once.
    pushcrate::sim::on_worker_start(pushcrate::editor::job::yield_to_the_interface);
    match cli::main() {
        Handoff::Exit(code) => ExitCode::from(code),
        Handoff::Edit(pack) => {
            if !pushcrate::editor::display_available() {
                let what = pack
                    .as_ref()
                    .map_or_else(|| "the bundled pack".to_owned(), |p| pushcrate::files::shown(p));
                eprintln!("No display to open the editor on; checking {what} instead.");
                eprintln!(
                    "(Set DISPLAY or WAYLAND_DISPLAY to open the editor; `pushcrate --help` lists every command.)"
                );
                return ExitCode::from(cli::summary(pack.as_deref()));
            }
            match pushcrate::editor::run(pack) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("error: {}", cli::clean(&pushcrate::diagnostics::error_text(&error)));
                    ExitCode::from(cli::EXIT_USAGE)
                }
            }
        }
    }
}
