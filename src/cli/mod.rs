//! The `pushcrate` command line: clap arguments, converted once into the
//! library's calls. Exit codes: 0 ok, 1 a pack has errors, 2 usage or I/O.
//!
//! *Architecture Invariant*: only this module and the editor read files,
//! print, and use `anyhow`.

mod analyze;
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

use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};

use clap::{Parser, ValueEnum};

use crate::diagnostics;
pub use crate::files::BUNDLED;
use crate::files::{self, PackFile};
use crate::level::Pack;

/// Exit code: everything was fine.
pub const EXIT_OK: u8 = 0;
/// Exit code: a pack or an action has problems.
pub const EXIT_PROBLEMS: u8 = 1;
/// Exit code: bad usage, or a file could not be read or written.
pub const EXIT_USAGE: u8 = 2;
/// Exit code: the run was interrupted (Ctrl-C) and its report is partial.
/// The process then ends by the signal itself (a shell shows 130 for
/// SIGINT, 143 for SIGTERM, 129 for SIGHUP); this code stands where it
/// cannot.
pub const EXIT_INTERRUPTED: u8 = 130;

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

/// Output format of reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum OutputFormat {
    /// Text for people.
    #[default]
    Text,
    /// JSON for programs.
    Json,
}

/// The formats of `export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// Canonical TOML.
    Toml,
    /// JSON with the same layout.
    Json,
}

impl ExportFormat {
    /// The format's name, as on the command line and as a file extension.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ExportFormat::Toml => "toml",
            ExportFormat::Json => "json",
        }
    }
}

/// The evaluation the balance check's agents score positions with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Evaluation {
    /// Weights fitted to game outcomes (docs/ai.md, "The fitted evaluation").
    #[default]
    Fitted,
    /// The hand-weighted race evaluation, as versions before the fitted one
    /// played: an earlier verdict replayed beside today's.
    Hand,
}

impl Evaluation {
    /// The engine's name for it.
    #[must_use]
    pub const fn eval(self) -> crate::ai::Eval {
        match self {
            Evaluation::Fitted => crate::ai::Eval::Fitted,
            Evaluation::Hand => crate::ai::Eval::Hand,
        }
    }
}

/// What `--deny` may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    /// Warnings make the exit code 1.
    Warnings,
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

/// Problems drawn per pack unless `--max-problems` says otherwise.
pub const DEFAULT_MAX_PROBLEMS: usize = 100;

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

/// The exit code of a run, printing its error. A closed standard output
/// (`pushcrate generate | head`) ends the run quietly, as other Unix tools
/// do.
#[must_use]
pub fn exit_code(result: anyhow::Result<u8>) -> u8 {
    match result {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => EXIT_OK,
        Err(error) => {
            // Nowhere is left to report a failure to write this.
            writeln!(std::io::stderr(), "error: {}", clean(&crate::diagnostics::error_text(&error))).ok();
            EXIT_USAGE
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Writes `text` to standard output. A closed pipe is an error that
/// [`exit_code`] turns into a quiet exit.
pub(crate) fn out(text: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

pub(crate) use crate::diagnostics::counted;

/// Writes `text` to standard error, ignoring a closed stream.
pub(crate) fn err(text: &str) {
    // A closed standard error has nowhere to be reported.
    std::io::stderr().lock().write_all(text.as_bytes()).ok();
}

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

/// A progress bar on stderr when it is a terminal, hidden otherwise.
/// A spinner on standard error with a message, hidden when it is not a
/// terminal.
pub(crate) fn spinner() -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

pub(crate) fn progress_bar(len: u64, template: &str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let style = indicatif::ProgressStyle::with_template(template)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> ");
    indicatif::ProgressBar::new(len).with_style(style)
}

/// Reads a pack file (or the bundled pack). `Err` only for I/O errors; a
/// malformed file is a pack with problems.
pub(crate) fn load(path: &Path) -> anyhow::Result<PackFile> {
    Ok(files::read_pack(path)?)
}

/// Reads a pack that a command is to use: one with any error is refused,
/// its diagnostics printed as `check` prints them, with exit code 1.
pub(crate) fn load_valid(path: &Path) -> anyhow::Result<Result<(PackFile, Pack), u8>> {
    let file = load(path)?;
    match &file.parsed.pack {
        Some(pack) if !file.parsed.has_errors() => {
            let pack = pack.clone();
            Ok(Ok((file, pack)))
        }
        _ => {
            refuse(&file);
            Ok(Err(EXIT_PROBLEMS))
        }
    }
}

/// The problems of a pack drawn as `check` draws them: source lines and
/// carets, at most `limit` problems (0: all), control characters escaped.
#[must_use]
pub fn render_problems(file: &PackFile, limit: usize) -> String {
    diagnostics::render(file, false, limit)
}

/// The problems of packs as `check --format json` writes them.
///
/// # Errors
/// Only if serialising fails.
pub fn problems_json(files: &[PackFile]) -> serde_json::Result<String> {
    diagnostics::json(files, &[])
}

/// The state of a game as JSON, as `show --format json` and the
/// conformance suite write it.
#[must_use]
pub fn state_json(state: &crate::rules::GameState) -> serde_json::Value {
    conformance::state_json(state)
}

/// Prints why a pack is not used: its diagnostics, as `check` prints them.
pub(crate) fn refuse(file: &PackFile) {
    err(&diagnostics::render(file, std::io::stderr().is_terminal(), DEFAULT_MAX_PROBLEMS));
    err(&format!("error: {} has errors and is not used; `pushcrate check` lists them\n", clean(&file.name)));
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
            let status = match level.start_state(p.rules) {
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

/// The stop flag that SIGINT, SIGTERM or SIGHUP raises, for every long
/// command (see [`signals`]).
fn stop_on_ctrl_c() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    signals::stop_flag()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        super::Args::command().debug_assert();
    }
}
