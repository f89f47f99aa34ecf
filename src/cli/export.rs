//! `pushcrate generate`, `pushcrate export` and `pushcrate schema`.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::{Context, bail};

use super::{EXIT_INTERRUPTED, EXIT_OK, ExportFormat, clean, counted, err, load_valid};
use crate::analysis::{AnalysisOptions, Witness, analyze_level};
use crate::files::{Committed, Output, same_file};
use crate::generate::{Options, Style, generate_shard, parse_symmetry, symmetry_name};
use crate::level::format::{pack_schema, parse_size, write_pack};
use crate::level::{Level, MAX_FILE_BYTES, MAX_LEVELS, Pack};
use crate::rules::{Player, RuleOption, Rules};
use crate::sim::{self, Report};

/// The generator's symmetry, or none, as `--symmetry` reads it
/// ([`parse_symmetry`]). A name of its own, so that the argument is a
/// value with a default rather than an optional flag.
pub type GeneratorSymmetry = Option<crate::rules::Symmetry>;

/// What `generate` was asked.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Levels to generate, 1 to 10,000 (a pack's limit).
    #[arg(long, default_value_t = 10, value_parser = parse_count)]
    pub count: usize,
    /// Files × ranks, each 5 to 11.
    #[arg(long, default_value = "9x9")]
    pub size: String,
    /// rot180 (a half turn, players swapped), mirror (top to bottom,
    /// players swapped) or none.
    #[arg(long, default_value = "rot180", value_parser = parse_symmetry)]
    pub symmetry: GeneratorSymmetry,
    /// open, corridors, rooms or maze.
    #[arg(long, default_value = "open")]
    pub style: Style,
    /// The seed: the same seed gives the same pack.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Keep only levels the balance check calls balanced: the sequential
    /// test settles the first player's score within 40–60% under expert
    /// and under deep, and the solver proves no forced win.
    #[arg(long)]
    pub balanced: bool,
    /// With --balanced, keep only levels that every pairing settles clear
    /// of the edges of 40–60%: a candidate whose first player scores
    /// within the test's indifference zone of an edge (35–45% or 55–65%),
    /// where another seed or a small edit can change the verdict, is
    /// dropped. Slower: most balanced candidates sit near an edge.
    #[arg(long, requires = "balanced")]
    pub clear_of_edges: bool,
    /// The most games each pairing of the balance check plays, 2 to
    /// 1,000,000.
    #[arg(long, default_value_t = crate::sim::SEQUENTIAL_CAP, value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    pub games: u32,
    /// The pack's name.
    #[arg(long)]
    pub name: Option<String>,
    /// Where to write the pack (standard output when left out). An existing
    /// file is replaced atomically.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Generate only shard K of N of the levels and write a shard report
    /// (JSON) for `pushcrate merge`, which writes the pack one run writes
    /// (docs/sharding.md).
    #[arg(long)]
    pub shard: Option<crate::level::shard::Shard>,
}

impl GenerateArgs {
    /// The options that change the generated levels, by name.
    fn identity(&self) -> std::collections::BTreeMap<String, String> {
        super::shard::options([
            ("count", self.count.to_string()),
            ("size", self.size.clone()),
            ("symmetry", symmetry_name(self.symmetry).to_owned()),
            ("style", self.style.to_string()),
            ("seed", self.seed.to_string()),
            ("balanced", self.balanced.to_string()),
            ("clear-of-edges", self.clear_of_edges.to_string()),
            ("games", self.games.to_string()),
            ("name", format!("{:?}", self.name)),
        ])
    }
}

fn parse_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_LEVELS).contains(&n) => Ok(n),
        _ => Err(format!("`{text}` is not a number of levels from 1 to {MAX_LEVELS} (a pack's limit)")),
    }
}

/// An output opened before the work: standard output, or a file that is
/// known writable before anything is computed.
enum Sink {
    Stdout,
    File(Output),
}

impl Sink {
    fn open(out: Option<&PathBuf>) -> anyhow::Result<Sink> {
        Ok(match out {
            Some(path) => Sink::File(Output::create(path)?),
            None => Sink::Stdout,
        })
    }

    /// Writes `text`, stopping once a signal raises the process's stop
    /// flag (installed here, after the work, so that until now a signal
    /// simply ends the run): a file is then left as it was, and a stream
    /// ends with a line saying it is incomplete. Returns the exit code,
    /// having said what happened to a run stopped.
    fn write(self, text: &str) -> anyhow::Result<u8> {
        let stop = super::stop_on_ctrl_c();
        let output = match self {
            Sink::Stdout => Output::stdout(),
            Sink::File(output) => output,
        };
        let name = output.name().to_owned();
        Ok(match output.commit_until(text.as_bytes(), &stop)? {
            Committed::Whole => EXIT_OK,
            Committed::Unchanged => {
                err(&format!("interrupted: nothing was written; {name} is as it was\n"));
                EXIT_INTERRUPTED
            }
            Committed::Cut { written } => {
                err(&format!(
                    "interrupted after {written} of {} bytes: {name} ends with a line saying the output is incomplete\n",
                    text.len()
                ));
                EXIT_INTERRUPTED
            }
        })
    }
}

/// Refuses a pack text that readers would refuse for its size.
fn within_limit(text: &str, what: &str) -> anyhow::Result<()> {
    if text.len() > MAX_FILE_BYTES {
        bail!(
            "the {what} would be {} bytes, and packs are at most {MAX_FILE_BYTES} bytes (4 MiB): nothing was written; use fewer levels",
            text.len()
        );
    }
    Ok(())
}

pub(super) fn generate_command(args: &GenerateArgs) -> anyhow::Result<u8> {
    let (width, height) = parse_size(&args.size)
        .with_context(|| format!("`{}` is not a size such as 9x9", clean(&args.size)))?;
    if let Some(name) = &args.name
        && name.chars().count() > crate::level::MAX_NAME_LEN
    {
        bail!(
            "--name is {} characters long, and a pack's name is at most {} (E006): nothing was written",
            name.chars().count(),
            crate::level::MAX_NAME_LEN
        );
    }
    let sink = Sink::open(args.out.as_ref())?;
    let options = Options {
        width,
        height,
        symmetry: args.symmetry,
        style: args.style,
        seed: args.seed,
        balanced: args.balanced,
        clear_of_edges: args.clear_of_edges,
        balance_games: args.games,
        balance: crate::sim::STRONG,
        rules: Rules::default(),
    };
    let bar = super::progress_bar(args.count as u64, "generating [{bar:40}] {pos}/{len} levels, {eta} left");
    let cancel = super::stop_on_ctrl_c();
    let ids: Vec<String> = (1..=args.count).map(|n| format!("gen-{}-{n}", args.seed)).collect();
    let wanted = ids.iter().filter(|id| args.shard.is_none_or(|shard| shard.owns(id))).count();
    bar.set_length(wanted as u64);
    let generated =
        generate_shard(&options, args.count, args.shard, &|n| bar.set_position(n as u64), &cancel)?;
    bar.finish_and_clear();
    if cancel.load(std::sync::atomic::Ordering::Relaxed) || generated.len() < wanted {
        err(&format!("interrupted after {} of {wanted} levels: nothing was written\n", generated.len(),));
        return Ok(EXIT_INTERRUPTED);
    }
    let mut pack = Pack::new(
        args.name.clone().unwrap_or_else(|| format!("Generated {} levels (seed {})", args.style, args.seed)),
    );
    pack.description = Some(format!(
        "{} {} levels, {}x{}, symmetry {}, seed {}{}.",
        args.count,
        args.style,
        width,
        height,
        symmetry_name(args.symmetry),
        args.seed,
        if args.balanced { ", balanced by self-play" } else { "" }
    ));
    if let Some(shard) = args.shard {
        return generated_shard(args, shard, &pack, &generated, ids, sink);
    }
    let mut notes = String::new();
    for g in &generated {
        notes.push_str(&generated_note(g));
        pack.levels.push(g.level.clone());
    }
    err(&notes);
    let text = write_pack(&pack);
    within_limit(&text, "pack")?;
    let code = sink.write(&text)?;
    if code == EXIT_OK
        && let Some(path) = &args.out
    {
        err(&format!(
            "wrote {} to {}\n",
            counted(pack.levels.len(), "level", "levels"),
            crate::files::shown(path)
        ));
    }
    Ok(code)
}

/// What `generate` says of a level it kept.
fn generated_note(g: &crate::generate::Generated) -> String {
    let candidates = counted(g.attempts as usize, "candidate", "candidates");
    match &g.balance {
        Some(check) => format!("{}: {} ({candidates})\n", g.level.id, crate::generate::balance_note(check)),
        None => format!("{}: passed the analysis ({candidates})\n", g.level.id),
    }
}

/// Writes the shard report of a generating run: the pack's header, and
/// each level of the shard as a pack of its own, with its note.
fn generated_shard(
    args: &GenerateArgs,
    shard: crate::level::shard::Shard,
    header: &Pack,
    generated: &[crate::generate::Generated],
    ids: Vec<String>,
    sink: Sink,
) -> anyhow::Result<u8> {
    let identity = args.identity();
    let mut run = super::shard::PackRun::new(&header.name, &format!("{identity:?}"), ids);
    run.header = Some(write_pack(header));
    run.parts = generated
        .iter()
        .map(|g| super::shard::LevelPart {
            level: g.level.id.clone(),
            text: write_pack(&Pack { levels: vec![g.level.clone()], ..header.clone() }),
            json: super::report::note(&generated_note(g)),
            tally: [0; 3],
            fails: false,
        })
        .collect();
    let run =
        super::shard::Run { command: super::shard::Command::Generate, packs: vec![run], interrupted: false };
    sink.write(&super::shard::shard_text(run, shard, identity)?)
}

/// What `export` was asked.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The pack file; `@default` is the bundled pack, `@flawed` the bundled
    /// flawed levels.
    pub pack: PathBuf,
    /// toml or json; by default the extension of `--out` decides (TOML
    /// for standard output).
    #[arg(long, value_enum)]
    pub format: Option<ExportFormat>,
    /// Add a `derived` table to every level: route lengths, sole-path
    /// cells, symmetry, findings.
    #[arg(long)]
    pub with_analysis: bool,
    /// With --with-analysis, also measure balance with this many greedy
    /// games (0 to 1,000,000).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub balance: u32,
    /// Where to write (standard output when left out). An existing file is
    /// replaced atomically, except the pack being exported itself.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// What `schema` was asked.
#[derive(Debug, clap::Args)]
pub struct SchemaArgs {
    /// Where to write it (standard output when left out).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The export format: as asked, else by the extension of `--out`; a format
/// that contradicts the extension is refused.
fn export_format(args: &ExportArgs) -> anyhow::Result<ExportFormat> {
    let by_extension = args.out.as_deref().and_then(|path| {
        let extension = path.extension()?.to_string_lossy().to_ascii_lowercase();
        match extension.as_str() {
            "json" => Some(ExportFormat::Json),
            "toml" => Some(ExportFormat::Toml),
            _ => None,
        }
    });
    match (args.format, by_extension) {
        (Some(asked), Some(named)) if asked != named => bail!(
            "--format {} does not match the extension of --out {}; name the file .{}, or leave --format out",
            asked.name(),
            args.out.as_deref().map(crate::files::shown).unwrap_or_default(),
            asked.name()
        ),
        (Some(asked), _) => Ok(asked),
        (None, Some(named)) => Ok(named),
        (None, None) => Ok(ExportFormat::Toml),
    }
}

/// The version of the derived table.
const DERIVED_VERSION: i64 = 1;

/// The level's values with every default applied, so that a client needs
/// no default table of its own: the board's size, who moves first, the
/// flag's cell, each player's start and goal cells, and every rule option.
fn resolved_table(level: &Level, rules: Rules) -> toml_edit::InlineTable {
    use toml_edit::{Array, InlineTable};
    let mut t = InlineTable::new();
    t.insert("width", i64::from(level.width).into());
    t.insert("height", i64::from(level.height).into());
    t.insert("first", i64::from(level.first.number()).into());
    if let Some(flag) = level.flag_cell() {
        t.insert("flag", flag.to_string().into());
    }
    for player in Player::BOTH {
        let mut p = InlineTable::new();
        if let Some(start) = level.starts[player] {
            p.insert("start", start.to_string().into());
        }
        let goals: Array = level.goal_cells(player).iter().map(|c| c.to_string()).collect();
        p.insert("goals", goals.into());
        t.insert(format!("p{}", player.number()), p.into());
    }
    let mut options = InlineTable::new();
    for option in RuleOption::ALL {
        if option == RuleOption::Jump {
            options.insert(option.key(), rules.jump.name().into());
        } else {
            options.insert(option.key(), rules.number(option).into());
        }
    }
    t.insert("rules", options.into());
    t
}

/// A derived table holding only the resolved values (the conformance
/// suite's packs carry these, and no analysis that could change).
pub(super) fn resolved_only(level: &Level, rules: Rules) -> toml_edit::Table {
    let mut t = toml_edit::Table::new();
    t.insert("version", toml_edit::value(DERIVED_VERSION));
    t.insert("resolved", toml_edit::value(resolved_table(level, rules)));
    t
}

fn derived_table(level: &Level, rules: Rules, balance: Option<&Report>) -> toml_edit::Table {
    use toml_edit::{Array, InlineTable, Table, value};
    let report = analyze_level(level, rules, &AnalysisOptions::default());
    let mut t = Table::new();
    t.insert("version", value(DERIVED_VERSION));
    t.insert("resolved", value(resolved_table(level, rules)));
    t.insert("valid", value(!report.has_errors()));
    let mut routes = InlineTable::new();
    for proof in &report.routes {
        let key = format!("p{}_{}", proof.player().number(), proof.name().replace('-', "_"));
        let steps = match &proof.witness {
            Witness::Path { cells } => cells.len() as i64 - 1,
            _ => -1,
        };
        routes.insert(&key, steps.into());
    }
    t.insert("route_steps", value(routes));
    if let Some(race) = &report.race {
        let mut r = InlineTable::new();
        r.insert("first_to_flag", i64::from(race.first_to_flag.number()).into());
        r.insert("lead", i64::from(race.lead).into());
        t.insert("race", value(r));
    }
    let cells: Array = report.sole_path_cells.iter().map(|c| c.to_string()).collect();
    t.insert("sole_path_cells", value(cells));
    t.insert("placement_cells", value(i64::from(report.placement_cells)));
    let mut sym = InlineTable::new();
    sym.insert("half_turn_swapping_players", report.symmetry.has(crate::rules::Symmetry::HalfTurn).into());
    sym.insert(
        "mirror_ranks_swapping_players",
        report.symmetry.has(crate::rules::Symmetry::MirrorRanks).into(),
    );
    sym.insert("mirror_files", report.symmetry.has(crate::rules::Symmetry::MirrorFiles).into());
    t.insert("symmetry", value(sym));
    // Each code once, in the order the analysis reports them.
    let mut codes: Vec<&str> = Vec::new();
    for finding in &report.findings {
        if !codes.contains(&finding.code.as_str()) {
            codes.push(finding.code.as_str());
        }
    }
    let codes: Array = codes.into_iter().collect();
    t.insert("findings", value(codes));
    if let Some(b) = balance {
        let mut bal = InlineTable::new();
        bal.insert("games", i64::from(b.games).into());
        bal.insert("agents", "greedy,greedy".into());
        bal.insert("first_player_score", b.first_player_score.rate.into());
        bal.insert("first_player_low", b.first_player_score.low.into());
        bal.insert("first_player_high", b.first_player_score.high.into());
        bal.insert("stall_rate", b.stall_rate.rate.into());
        t.insert("balance", value(bal));
    }
    if let Some(estimate) = level.playable(rules).ok().and_then(|p| crate::ai::estimate::estimate(p.start()))
    {
        let accuracy = crate::ai::estimate::ACCURACY;
        let mut e = InlineTable::new();
        e.insert("first_player_score", estimate.first_player.into());
        e.insert("mean_error_points", accuracy.mean_error.into());
        e.insert("held_out_levels", i64::from(accuracy.levels).into());
        t.insert("estimate", value(e));
    }
    t.set_implicit(false);
    t
}

/// The pack's canonical TOML with `derived(level)` added to every level.
pub(super) fn with_derived(
    pack: &Pack,
    mut derived: impl FnMut(&Level) -> toml_edit::Table,
) -> anyhow::Result<String> {
    let mut doc: toml_edit::DocumentMut =
        write_pack(pack).parse().context("the pack's own text does not read back")?;
    if let Some(levels) = doc.get_mut("level").and_then(|i| i.as_array_of_tables_mut()) {
        for (table, level) in levels.iter_mut().zip(&pack.levels) {
            table.insert("derived", toml_edit::Item::Table(derived(level)));
        }
    }
    Ok(doc.to_string())
}

/// The pack's canonical TOML with a derived table added to every level.
fn with_analysis(pack: &Pack, balance_games: u32, stop: &Arc<AtomicBool>) -> anyhow::Result<String> {
    with_derived(pack, |level| {
        let balance = if balance_games > 0 {
            level
                .playable(pack.rules)
                .ok()
                .map(|p| sim::greedy_balance(p.start(), p.id(), balance_games, 1, stop).0)
        } else {
            None
        };
        derived_table(level, pack.rules, balance.as_ref())
    })
}

pub(super) fn export_command(args: &ExportArgs) -> anyhow::Result<u8> {
    let format = export_format(args)?;
    if let Some(out) = &args.out
        && crate::files::bundled_text(&args.pack).is_none()
        && same_file(&args.pack, out)
    {
        bail!(
            "--out {} is the pack being exported; export writes canonical text without the file's comments, so it never replaces its input. Write to another file (the editor's Save keeps comments)",
            crate::files::shown(out)
        );
    }
    let (_, pack) = match load_valid(&args.pack)? {
        Ok(found) => found,
        Err(code) => return Ok(code),
    };
    let sink = Sink::open(args.out.as_ref())?;
    // The balance games take long: a signal stops them, and then nothing
    // of the pack is written (a stream gets only the incomplete line).
    let stop = if args.balance > 0 { super::stop_on_ctrl_c() } else { Arc::new(AtomicBool::new(false)) };
    let toml_text =
        if args.with_analysis { with_analysis(&pack, args.balance, &stop)? } else { write_pack(&pack) };
    let text = if format == ExportFormat::Json { crate::level::toml_to_json(&toml_text)? } else { toml_text };
    within_limit(&text, "export")?;
    sink.write(&text)
}

pub(super) fn schema_command(args: &SchemaArgs) -> anyhow::Result<u8> {
    let sink = Sink::open(args.out.as_ref())?;
    let text = format!("{}\n", serde_json::to_string_pretty(&pack_schema())?);
    sink.write(&text)
}
