//! The `pushcrate` binary: the editor, or the command line of
//! [`pushcrate::cli`].

use std::process::ExitCode;

use pushcrate::cli::{self, Outcome};

fn main() -> ExitCode {
    match cli::main() {
        Outcome::Exit(code) => ExitCode::from(code),
        Outcome::Edit(pack) => {
            if !pushcrate::editor::display_available() {
                eprintln!("No display to open the editor on; checking the bundled pack instead.");
                eprintln!(
                    "(Set DISPLAY or WAYLAND_DISPLAY to open the editor; `pushcrate --help` lists every command.)"
                );
                return ExitCode::from(cli::summary());
            }
            match pushcrate::editor::run(pack) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("error: {error:#}");
                    ExitCode::from(cli::EXIT_USAGE)
                }
            }
        }
    }
}
