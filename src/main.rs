//! The `pushcrate` binary: the editor, or the command line of
//! [`pushcrate::cli`].

use std::process::ExitCode;

use pushcrate::cli::{self, Handoff};

fn main() -> ExitCode {
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
