//! The `pushcrate` command line: clap arguments, converted once into the
//! library's calls. Exit codes: 0 ok, 1 a pack has errors, 2 usage or I/O.
//!
//! *Architecture Invariant*: only this module and the editor read files,
//! print, and use `anyhow`.

mod analyze;
mod common;
mod conformance;
mod cost;
mod export;
mod play;
mod repair;
mod report;
mod selfplay;
mod shard;
mod signals;
mod tune;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::Parser;
pub use common::{
    DEFAULT_MAX_PROBLEMS, Deny, EXIT_INTERRUPTED, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, Evaluation,
    ExportFormat, OutputFormat, exit_code, problems_json, render_problems,
};
pub(crate) use common::{err, load, load_valid, out, playable, progress_bar, refuse, spinner};
pub(crate) use signals::stop_flag as stop_on_ctrl_c;

use crate::diagnostics;
use crate::files;
pub use crate::files::BUNDLED;

/// Push Crate Studio: edit, check, analyse and play-test Push Crate level packs.
#[derive(Debug, Parser)]
#[command(name = "pushcrate", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Args {
    /// What to do; with none, open the editor on the bundled pack.
    #[command(subcommand)]
    pub command: Option<Subcommand>,
    /// A pack to open in the editor, as `pushcrate edit PACK` does
    /// (`pushcrate levels.toml`, `pushcrate @flawed`, a file manager's
    /// "Open with"). A name that is also a subcommand means the subcommand.
    pub pack: Option<PathBuf>,
}

/// The subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Subcommand {
    /// Open the level editor on a pack, or on the bundled pack.
    Edit(EditArgs),
    /// Validate packs; diagnostics go to stderr. Exit 1 when a pack has errors.
    Check(CheckArgs),
    /// Draw a position as an ASCII diagram, sole-path cells marked `*`.
    Show(play::ShowArgs),
    /// List the legal actions of a position, sorted, one per line.
    Moves(play::MovesArgs),
    /// Analyse levels: route proofs, the race, chokepoints, room for crates,
    /// fencing, symmetry, and a bounded search. Exit 1 on errors (or warnings
    /// with `--deny warnings`).
    Analyze(analyze::AnalyzeArgs),
    /// Play games between two agents in colour-swapped pairs and report win
    /// rates, balance, stalls and game lengths.
    Selfplay(selfplay::SelfPlayArgs),
    /// Look for a forced win of the side to move within N actions.
    Solve(selfplay::SolveArgs),
    /// Generate a pack of new levels that pass the analysis.
    Generate(export::GenerateArgs),
    /// Search small edits (walls, start squares, the flag, crates) that make
    /// an unbalanced level balanced, each confirmed by the balance check.
    Repair(repair::RepairArgs),
    /// Write a pack for other clients: canonical TOML or JSON, optionally
    /// with derived figures per level.
    Export(export::ExportArgs),
    /// Print the JSON Schema of the pack format.
    Schema(export::SchemaArgs),
    /// Count the action sequences of a given length (perft).
    Perft(play::PerftArgs),
    /// Fit the evaluation's weights to game outcomes (the Texel method):
    /// self-play on generated levels, validated on the bundled ones.
    Tune(tune::TuneArgs),
    /// Merge the reports of a run split with `--shard K/N` into the report
    /// (and exit code) one machine would have given.
    Merge(shard::MergeArgs),
    /// Write the conformance suite: packs, positions with their legal
    /// actions and perft counts, and games that reach every rare rule, for
    /// other implementations to check themselves against.
    Conformance(conformance::ConformanceArgs),
}

/// What `edit` was asked.
#[derive(Debug, clap::Args)]
pub struct EditArgs {
    /// The pack file to open.
    pub pack: Option<PathBuf>,
}

/// What `check` was asked.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Pack files; `@default` is the bundled pack, `@flawed` the bundled
    /// flawed levels.
    #[arg(required = true)]
    pub packs: Vec<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
    /// Problems drawn per pack in the text report (0: all); the rest are
    /// counted by code. JSON lists every problem.
    #[arg(long, default_value_t = DEFAULT_MAX_PROBLEMS)]
    pub max_problems: usize,
}

/// What the command line decided.
#[derive(Debug)]
pub enum Handoff {
    /// Exit with this code.
    Exit(u8),
    /// Open the editor (the binary does), on this pack or the bundled one.
    Edit(Option<PathBuf>),
}

/// Parses the process's arguments and runs them; the editor is left to the
/// caller.
#[must_use]
pub fn main() -> Handoff {
    let args = Args::parse();
    match args.command {
        None => Handoff::Edit(args.pack),
        Some(Subcommand::Edit(edit)) => Handoff::Edit(edit.pack),
        Some(command) => {
            let code = exit_code(run(Args { command: Some(command), pack: None }));
            // A run stopped by a signal ends by it, as coreutils do.
            signals::end_by_signal();
            Handoff::Exit(signals::exit_code().unwrap_or(code))
        }
    }
}

pub(crate) use crate::diagnostics::counted;

pub use crate::diagnostics::clean;

/// Checks and summarises `pack` (the bundled pack when `None`): what
/// `pushcrate` and `pushcrate edit [PACK]` do where no window can be
/// opened. A pack that cannot be read is an error naming the file.
pub fn summary(pack: Option<&Path>) -> u8 {
    exit_code(default_job(pack))
}

/// Runs parsed arguments. `Err` is a usage or I/O error (exit 2).
pub fn run(args: Args) -> anyhow::Result<u8> {
    match args.command {
        None => default_job(None),
        Some(Subcommand::Edit(edit)) => default_job(edit.pack.as_deref()),
        Some(Subcommand::Check(args)) => check(&args),
        Some(Subcommand::Show(args)) => play::show(&args),
        Some(Subcommand::Moves(args)) => play::moves(&args),
        Some(Subcommand::Analyze(args)) => analyze::analyze(&args),
        Some(Subcommand::Selfplay(args)) => selfplay::selfplay(&args),
        Some(Subcommand::Solve(args)) => selfplay::solve_command(&args),
        Some(Subcommand::Generate(args)) => export::generate_command(&args),
        Some(Subcommand::Repair(args)) => repair::repair_command(&args),
        Some(Subcommand::Export(args)) => export::export_command(&args),
        Some(Subcommand::Schema(args)) => export::schema_command(&args),
        Some(Subcommand::Perft(args)) => play::perft(&args),
        Some(Subcommand::Conformance(args)) => conformance::conformance_command(&args),
        Some(Subcommand::Tune(args)) => tune::tune_command(&args),
        Some(Subcommand::Merge(args)) => shard::merge_command(&args),
    }
}

/// The state of a game as JSON, as `show --format json` and the
/// conformance suite write it.
#[must_use]
pub fn state_json(state: &crate::rules::GameState) -> serde_json::Value {
    conformance::state_json(state)
}

fn check(args: &CheckArgs) -> anyhow::Result<u8> {
    let mut checked = Vec::new();
    for path in &args.packs {
        match files::read_pack(path) {
            Ok(file) => checked.push(diagnostics::Checked::Read(file)),
            Err(error) => {
                err(&format!("error: {}\n", clean(&error.to_string())));
                checked.push(diagnostics::Checked::Unreadable {
                    path: files::shown(path),
                    error: error.to_string(),
                });
            }
        }
    }
    let loaded: Vec<&files::PackFile> = checked
        .iter()
        .filter_map(|c| match c {
            diagnostics::Checked::Read(file) => Some(file),
            diagnostics::Checked::Unreadable { .. } => None,
        })
        .collect();
    let unreadable = checked.len() - loaded.len();
    let color = std::io::stderr().is_terminal();
    match args.format {
        OutputFormat::Text => {
            for pack in &loaded {
                err(&diagnostics::render(pack, color, args.max_problems));
            }
            let mut line = diagnostics::summary(&loaded);
            if unreadable > 0 {
                line.push_str(&format!("; {unreadable} file(s) could not be read"));
            }
            err(&format!("{line}\n"));
        }
        OutputFormat::Json => {
            out(&format!("{}\n", diagnostics::json_in_order(&checked)?))?;
        }
    }
    Ok(if unreadable > 0 {
        EXIT_USAGE
    } else if loaded.iter().any(|p| p.parsed.has_errors()) {
        EXIT_PROBLEMS
    } else {
        EXIT_OK
    })
}

/// With no subcommand: check the bundled pack and list its levels.
fn default_job(path: Option<&Path>) -> anyhow::Result<u8> {
    let pack = load(path.unwrap_or(Path::new(BUNDLED)))?;
    let color = std::io::stderr().is_terminal();
    err(&diagnostics::render(&pack, color, DEFAULT_MAX_PROBLEMS));
    if let Some(p) = &pack.parsed.pack {
        let mut text = format!("{} — {} levels\n", clean(&p.name), p.levels.len());
        for level in &p.levels {
            let status = match level.playable(p.rules) {
                Ok(_) => "ok",
                Err(_) => "errors",
            };
            text.push_str(&format!(
                "  {:<12} {:>2}×{:<2} {:<7} {}\n",
                clean(&level.id),
                level.width,
                level.height,
                status,
                clean(&level.name)
            ));
        }
        text.push_str(
            "\nTry: pushcrate show @default --level open    (pushcrate --help lists every command)\n",
        );
        out(&text)?;
    }
    Ok(if pack.parsed.has_errors() { EXIT_PROBLEMS } else { EXIT_OK })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        super::Args::command().debug_assert();
    }
}
