//! The `pushcrate` command line: clap arguments, converted once into the
//! library's calls. Exit codes: 0 ok, 1 a pack has errors, 2 usage or I/O.
//!
//! *Architecture Invariant*: only this module and the editor read files,
//! print, and use `anyhow`.

mod analyze;
mod diagnostics;
mod export;
mod play;
mod selfplay;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

use crate::level::format::{Parsed, parse_pack};
use crate::level::{DEFAULT_PACK_TOML, MAX_FILE_BYTES};

/// The name that stands for the pack built into the binary.
pub const BUNDLED: &str = "@default";

/// Exit code: everything was fine.
pub const EXIT_OK: u8 = 0;
/// Exit code: a pack or an action has problems.
pub const EXIT_PROBLEMS: u8 = 1;
/// Exit code: bad usage, or a file could not be read or written.
pub const EXIT_USAGE: u8 = 2;

/// Push Crate Studio: edit, check, analyse and play-test Push Crate level packs.
#[derive(Debug, Parser)]
#[command(name = "pushcrate", version, about, long_about = None)]
pub struct Args {
    /// What to do; with none, open the editor on the bundled pack.
    #[command(subcommand)]
    pub command: Option<Command>,
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

/// What `--deny` may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    /// Warnings make the exit code 1.
    Warnings,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the level editor on a pack, or on the bundled pack.
    Edit {
        /// The pack file to open.
        pack: Option<PathBuf>,
    },
    /// Validate packs; diagnostics go to stderr. Exit 1 when a pack has errors.
    Check {
        /// Pack files; `@default` is the bundled pack.
        #[arg(required = true)]
        packs: Vec<PathBuf>,
        /// Report format.
        #[arg(long, value_enum, default_value_t)]
        format: OutputFormat,
    },
    /// Draw a position as an ASCII diagram, sole-path cells marked `*`.
    Show {
        /// The position.
        #[command(flatten)]
        position: play::PositionArgs,
    },
    /// List the legal actions of a position, sorted, one per line.
    Moves {
        /// The position.
        #[command(flatten)]
        position: play::PositionArgs,
        /// Report format.
        #[arg(long, value_enum, default_value_t)]
        format: OutputFormat,
    },
    /// Analyse levels: route proofs, the race, chokepoints, room for crates,
    /// fencing, symmetry, and a bounded search. Exit 1 on errors (or warnings
    /// with `--deny warnings`).
    Analyze {
        /// Pack files; `@default` is the bundled pack.
        #[arg(required = true)]
        packs: Vec<PathBuf>,
        /// Analyse only this level.
        #[arg(long)]
        level: Option<String>,
        /// Report format.
        #[arg(long, value_enum, default_value_t)]
        format: OutputFormat,
        /// Treat warnings as errors for the exit code.
        #[arg(long, value_enum)]
        deny: Option<Deny>,
        /// Positions the bounded search may visit per question (0 skips it).
        #[arg(long, default_value_t = 20_000)]
        budget: u64,
        /// Actions the bounded search looks ahead.
        #[arg(long, default_value_t = 40)]
        depth: u32,
    },
    /// Play games between two agents in colour-swapped pairs and report win
    /// rates, balance, stalls and game lengths.
    Selfplay(selfplay::SelfPlayArgs),
    /// Look for a forced win of the side to move within N actions.
    Solve {
        /// The position.
        #[command(flatten)]
        position: play::PositionArgs,
        /// Actions to look ahead.
        #[arg(long)]
        depth: u32,
        /// Positions to search at most.
        #[arg(long, default_value_t = 5_000_000)]
        budget: u64,
        /// Report format.
        #[arg(long, value_enum, default_value_t)]
        format: OutputFormat,
    },
    /// Generate a pack of new levels that pass the analysis.
    Generate {
        /// Levels to generate.
        #[arg(long, default_value_t = 10)]
        count: usize,
        /// Files × ranks, each 5 to 11.
        #[arg(long, default_value = "9x9")]
        size: String,
        /// rot180 (a half turn, players swapped), mirror (top to bottom,
        /// players swapped) or none.
        #[arg(long, default_value = "rot180")]
        symmetry: crate::generate::GenSymmetry,
        /// open, corridors, rooms or maze.
        #[arg(long, default_value = "open")]
        style: crate::generate::Style,
        /// The seed: the same seed gives the same pack.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Keep only levels whose first player scores 45–55% in greedy self-play.
        #[arg(long)]
        balanced: bool,
        /// Games of each balance check.
        #[arg(long, default_value_t = 200)]
        games: u32,
        /// The pack's name.
        #[arg(long)]
        name: Option<String>,
        /// Where to write the pack (standard output when left out).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Write a pack for other clients: canonical TOML or JSON, optionally
    /// with derived figures per level.
    Export {
        /// The pack file; `@default` is the bundled pack.
        pack: PathBuf,
        /// toml or json.
        #[arg(long, value_enum, default_value_t = ExportFormat::Toml)]
        format: ExportFormat,
        /// Add a `derived` table to every level: route lengths, sole-path
        /// cells, symmetry, findings.
        #[arg(long)]
        with_analysis: bool,
        /// With --with-analysis, also measure balance with this many greedy games.
        #[arg(long, default_value_t = 0)]
        balance: u32,
        /// Where to write (standard output when left out).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Print the JSON Schema of the pack format.
    Schema {
        /// Where to write it (standard output when left out).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Count the action sequences of a given length (perft).
    Perft {
        /// The position.
        #[command(flatten)]
        position: play::PositionArgs,
        /// Number of actions.
        #[arg(long)]
        depth: u32,
        /// Print the count below each first action.
        #[arg(long)]
        divide: bool,
    },
}

/// What the command line decided.
#[derive(Debug)]
pub enum Outcome {
    /// Exit with this code.
    Exit(u8),
    /// Open the editor (the binary does), on this pack or the bundled one.
    Edit(Option<PathBuf>),
}

/// Parses the process's arguments and runs them; the editor is left to the
/// caller.
#[must_use]
pub fn main() -> Outcome {
    let args = Args::parse();
    match args.command {
        None => Outcome::Edit(None),
        Some(Command::Edit { pack }) => Outcome::Edit(pack),
        Some(command) => Outcome::Exit(exit_code(run(Args { command: Some(command) }))),
    }
}

/// The exit code of a run, printing its error.
#[must_use]
pub fn exit_code(result: anyhow::Result<u8>) -> u8 {
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            EXIT_USAGE
        }
    }
}

/// Checks and summarises the bundled pack: what `pushcrate` does where no
/// window can be opened.
pub fn summary() -> u8 {
    exit_code(default_job())
}

/// Runs parsed arguments. `Err` is a usage or I/O error (exit 2).
pub fn run(args: Args) -> anyhow::Result<u8> {
    match args.command {
        None | Some(Command::Edit { .. }) => default_job(),
        Some(Command::Check { packs, format }) => check(&packs, format),
        Some(Command::Show { position }) => play::show(&position),
        Some(Command::Moves { position, format }) => play::moves(&position, format),
        Some(Command::Analyze { packs, level, format, deny, budget, depth }) => {
            analyze::analyze(&analyze::AnalyzeArgs {
                packs,
                level,
                format,
                deny_warnings: deny == Some(Deny::Warnings),
                budget,
                depth,
            })
        }
        Some(Command::Selfplay(args)) => selfplay::selfplay(&args),
        Some(Command::Solve { position, depth, budget, format }) => {
            selfplay::solve_command(&selfplay::SolveArgs { position, depth, budget, format })
        }
        Some(Command::Generate { count, size, symmetry, style, seed, balanced, games, name, out }) => {
            export::generate_command(&export::GenerateArgs {
                count,
                size,
                symmetry,
                style,
                seed,
                balanced,
                games,
                name,
                out,
            })
        }
        Some(Command::Export { pack, format, with_analysis, balance, out }) => {
            export::export_command(&export::ExportArgs {
                pack,
                json: format == ExportFormat::Json,
                with_analysis,
                balance,
                out,
            })
        }
        Some(Command::Schema { out }) => export::schema_command(out.as_ref()),
        Some(Command::Perft { position, depth, divide }) => play::perft(&position, depth, divide),
    }
}

/// A pack file's text and what reading it gave.
pub(crate) struct LoadedPack {
    /// The name to show for the file.
    pub name: String,
    /// The text, when it could be read.
    pub text: String,
    /// The pack and its problems.
    pub parsed: Parsed,
}

/// A progress bar on stderr when it is a terminal, hidden otherwise.
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
pub(crate) fn load(path: &Path) -> anyhow::Result<LoadedPack> {
    if path.as_os_str() == BUNDLED {
        let text = DEFAULT_PACK_TOML.to_owned();
        let parsed = parse_pack(&text);
        return Ok(LoadedPack { name: "mazes/default.toml (bundled)".to_owned(), text, parsed });
    }
    let name = path.display().to_string();
    let size = std::fs::metadata(path).map_err(|e| anyhow::anyhow!("cannot read {name}: {e}"))?.len();
    if size > MAX_FILE_BYTES as u64 {
        // Refused before reading it into memory.
        let text = String::new();
        let parsed = parse_pack(&"#".repeat(MAX_FILE_BYTES + 1));
        return Ok(LoadedPack {
            name,
            text,
            parsed: Parsed { pack: None, problems: oversized(parsed, size) },
        });
    }
    let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("cannot read {name}: {e}"))?;
    let json = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
    match String::from_utf8(bytes) {
        Ok(text) => {
            let parsed = if json { crate::level::format::parse_pack_json(&text) } else { parse_pack(&text) };
            Ok(LoadedPack { name, text, parsed })
        }
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let problem = crate::level::Problem::new(
                crate::level::Code::Syntax,
                crate::level::Field::Pack,
                "the file is not UTF-8 text",
            )
            .at(offset..offset + 1);
            Ok(LoadedPack { name, text, parsed: Parsed { pack: None, problems: vec![problem] } })
        }
    }
}

fn oversized(parsed: Parsed, size: u64) -> Vec<crate::level::Problem> {
    parsed
        .problems
        .into_iter()
        .map(|mut p| {
            p.message = format!("the file is {size} bytes; packs are at most {MAX_FILE_BYTES} bytes (4 MiB)");
            p
        })
        .collect()
}

fn check(paths: &[PathBuf], format: OutputFormat) -> anyhow::Result<u8> {
    let mut loaded = Vec::new();
    for path in paths {
        loaded.push(load(path)?);
    }
    let color = std::io::stderr().is_terminal();
    match format {
        OutputFormat::Text => {
            for pack in &loaded {
                eprint!("{}", diagnostics::render(pack, color));
            }
            eprintln!("{}", diagnostics::summary(&loaded));
        }
        OutputFormat::Json => {
            println!("{}", serde_json::to_string_pretty(&diagnostics::json(&loaded))?);
        }
    }
    let any_errors = loaded.iter().any(|p| p.parsed.has_errors());
    Ok(if any_errors { EXIT_PROBLEMS } else { EXIT_OK })
}

/// With no subcommand: check the bundled pack and list its levels.
fn default_job() -> anyhow::Result<u8> {
    let pack = load(Path::new(BUNDLED))?;
    let color = std::io::stderr().is_terminal();
    eprint!("{}", diagnostics::render(&pack, color));
    if let Some(p) = &pack.parsed.pack {
        println!("{} — {} levels", p.name, p.levels.len());
        for level in &p.levels {
            let status = match level.start_state(p.rules) {
                Ok(_) => "ok",
                Err(_) => "errors",
            };
            println!(
                "  {:<12} {:>2}×{:<2} {:<7} {}",
                level.id, level.width, level.height, status, level.name
            );
        }
        println!("\nTry: pushcrate show @default --level open    (pushcrate --help lists every command)");
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
