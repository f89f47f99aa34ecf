//! `pushcrate generate`, `pushcrate export` and `pushcrate schema`.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::Context;

use super::{EXIT_OK, EXIT_PROBLEMS, diagnostics, load};
use crate::analysis::{AnalysisOptions, Witness, analyze_level};
use crate::generate::{GenSymmetry, Options, Style, generate};
use crate::level::format::{pack_schema, parse_size, write_pack};
use crate::level::{Level, Pack};
use crate::rules::Rules;
use crate::sim::{self, Report};

/// What `generate` was asked.
pub(super) struct GenerateArgs {
    pub count: usize,
    pub size: String,
    pub symmetry: GenSymmetry,
    pub style: Style,
    pub seed: u64,
    pub balanced: bool,
    pub games: u32,
    pub name: Option<String>,
    pub out: Option<PathBuf>,
}

fn write_out(out: Option<&PathBuf>, text: &str) -> anyhow::Result<()> {
    match out {
        Some(path) => super::selfplay::atomic_write(path, text),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

pub(super) fn generate_command(args: &GenerateArgs) -> anyhow::Result<u8> {
    let (width, height) =
        parse_size(&args.size).with_context(|| format!("`{}` is not a size such as 9x9", args.size))?;
    let options = Options {
        width,
        height,
        symmetry: args.symmetry,
        style: args.style,
        seed: args.seed,
        balanced: args.balanced,
        balance_games: args.games,
        rules: Rules::default(),
    };
    let bar = super::progress_bar(args.count as u64, "generating [{bar:40}] {pos}/{len} levels, {eta} left");
    let cancel = AtomicBool::new(false);
    let generated = generate(&options, args.count, &|n| bar.set_position(n as u64), &cancel)
        .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    let mut pack = Pack::new(
        args.name.clone().unwrap_or_else(|| format!("Generated {} levels (seed {})", args.style, args.seed)),
    );
    pack.description = Some(format!(
        "{} {} levels, {}x{}, symmetry {}, seed {}{}.",
        args.count,
        args.style,
        width,
        height,
        args.symmetry,
        args.seed,
        if args.balanced { ", balanced by self-play" } else { "" }
    ));
    for g in &generated {
        match &g.balance {
            Some(b) => eprintln!(
                "{}: first player {:.1}% [{:.1}% – {:.1}%] over {} greedy games ({} candidates)",
                g.level.id,
                100.0 * b.first_player_score.rate,
                100.0 * b.first_player_score.low,
                100.0 * b.first_player_score.high,
                b.games,
                g.attempts
            ),
            None => eprintln!("{}: passed the analysis ({} candidates)", g.level.id, g.attempts),
        }
        pack.levels.push(g.level.clone());
    }
    write_out(args.out.as_ref(), &write_pack(&pack))?;
    if let Some(path) = &args.out {
        eprintln!("wrote {} levels to {}", pack.levels.len(), path.display());
    }
    Ok(EXIT_OK)
}

/// What `export` was asked.
pub(super) struct ExportArgs {
    pub pack: PathBuf,
    pub json: bool,
    pub with_analysis: bool,
    pub balance: u32,
    pub out: Option<PathBuf>,
}

/// The version of the derived table.
const DERIVED_VERSION: i64 = 1;

fn derived_table(level: &Level, rules: Rules, balance: Option<&Report>) -> toml_edit::Table {
    use toml_edit::{Array, InlineTable, Table, value};
    let report = analyze_level(level, rules, &AnalysisOptions::default());
    let mut t = Table::new();
    t.insert("version", value(DERIVED_VERSION));
    t.insert("valid", value(!report.has_errors()));
    let mut routes = InlineTable::new();
    for proof in &report.routes {
        let key = format!("p{}_{}", proof.player, proof.route.replace('-', "_"));
        let steps = match &proof.witness {
            Witness::Path { cells } => cells.len() as i64 - 1,
            _ => -1,
        };
        routes.insert(&key, steps.into());
    }
    t.insert("route_steps", value(routes));
    if let Some(race) = &report.race {
        let mut r = InlineTable::new();
        r.insert("first_to_flag", i64::from(race.first_to_flag).into());
        r.insert("lead", i64::from(race.lead).into());
        t.insert("race", value(r));
    }
    let cells: Array = report.sole_path_cells.iter().map(|c| c.to_string()).collect();
    t.insert("sole_path_cells", value(cells));
    t.insert("placement_cells", value(i64::from(report.placement_cells)));
    let mut sym = InlineTable::new();
    sym.insert("half_turn_swapping_players", report.symmetry.half_turn_swapping_players.into());
    sym.insert("mirror_ranks_swapping_players", report.symmetry.mirror_ranks_swapping_players.into());
    sym.insert("mirror_files", report.symmetry.mirror_files.into());
    t.insert("symmetry", value(sym));
    let codes: Array = report.findings.iter().map(|f| f.code.as_str()).collect();
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
    t.set_implicit(false);
    t
}

/// The pack's canonical TOML with a derived table added to every level.
fn with_analysis(pack: &Pack, balance_games: u32) -> anyhow::Result<String> {
    let mut doc: toml_edit::DocumentMut =
        write_pack(pack).parse().context("the pack's own text does not read back")?;
    if let Some(levels) = doc.get_mut("level").and_then(|i| i.as_array_of_tables_mut()) {
        for (table, level) in levels.iter_mut().zip(&pack.levels) {
            let balance = if balance_games > 0 {
                level.start_state(pack.rules).ok().map(|start| {
                    sim::greedy_balance(&start, &level.id, balance_games, 1, &AtomicBool::new(false)).0
                })
            } else {
                None
            };
            table.insert(
                "derived",
                toml_edit::Item::Table(derived_table(level, pack.rules, balance.as_ref())),
            );
        }
    }
    Ok(doc.to_string())
}

pub(super) fn export_command(args: &ExportArgs) -> anyhow::Result<u8> {
    let loaded = load(&args.pack)?;
    let Some(pack) = &loaded.parsed.pack else {
        eprint!("{}", diagnostics::render(&loaded, std::io::stderr().is_terminal()));
        return Ok(EXIT_PROBLEMS);
    };
    if loaded.parsed.has_errors() {
        eprint!("{}", diagnostics::render(&loaded, std::io::stderr().is_terminal()));
        return Ok(EXIT_PROBLEMS);
    }
    let toml_text = if args.with_analysis { with_analysis(pack, args.balance)? } else { write_pack(pack) };
    let text = if args.json {
        let value: toml::Value =
            toml::from_str(&toml_text).context("the exported text does not read back")?;
        format!("{}\n", serde_json::to_string_pretty(&value)?)
    } else {
        toml_text
    };
    write_out(args.out.as_ref(), &text)?;
    Ok(EXIT_OK)
}

pub(super) fn schema_command(out: Option<&PathBuf>) -> anyhow::Result<u8> {
    let text = format!("{}\n", serde_json::to_string_pretty(&pack_schema())?);
    write_out(out, &text)?;
    Ok(EXIT_OK)
}
