//! What every command shares: exit codes, the formats of reports, writing
//! to the standard streams, progress bars, and reading the pack a command
//! is to use.

use std::io::{IsTerminal, Write as _};
use std::path::Path;

use clap::ValueEnum;

use crate::diagnostics::{self, clean};
use crate::files::{self, PackFile};
use crate::level::{Level, Pack, Playable};
use crate::rules::Rules;

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

/// Problems drawn per pack unless `--max-problems` says otherwise.
pub const DEFAULT_MAX_PROBLEMS: usize = 100;

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

/// Writes `text` to standard error, ignoring a closed stream.
pub(crate) fn err(text: &str) {
    // A closed standard error has nowhere to be reported.
    std::io::stderr().lock().write_all(text.as_bytes()).ok();
}

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

/// A progress bar on standard error drawn with `template`, hidden when it
/// is not a terminal.
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

/// `level` checked under `rules`, for a command that cannot go on without
/// it: the error names the level and every problem.
pub(crate) fn playable(level: &Level, rules: Rules) -> anyhow::Result<Playable> {
    level.playable(rules).map_err(|e| anyhow::anyhow!("level `{}`: {e}", level.id))
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

/// Prints why a pack is not used: its diagnostics, as `check` prints them.
pub(crate) fn refuse(file: &PackFile) {
    err(&diagnostics::render(file, std::io::stderr().is_terminal(), DEFAULT_MAX_PROBLEMS));
    err(&format!("error: {} has errors and is not used; `pushcrate check` lists them\n", clean(&file.name)));
}
