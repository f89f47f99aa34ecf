//! Runs split over machines: `--shard K/N` writes a shard report, and
//! `pushcrate merge` turns the N reports into the report one machine would
//! have written (docs/sharding.md).
//!
//! A run that works level by level is computed as [`LevelPart`]s, each the
//! level's text and JSON exactly as the report prints them, with the counts
//! that the report's totals and exit code are drawn from. One machine
//! renders its parts at once; a shard writes its parts, and `merge` renders
//! the parts of every shard in the pack's order, through the same
//! [`render`]. The two reports are therefore the same bytes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{EXIT_OK, EXIT_PROBLEMS, OutputFormat, clean, out};
use crate::files;
use crate::level::shard::{Shard, stable_hash};

/// The layout version of a shard report.
pub const LAYOUT: u32 = 1;

/// The commands whose runs can be sharded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum Command {
    /// `selfplay --all`: the balance check of every level.
    Selfplay,
    /// `analyze`: the findings of every level.
    Analyze,
    /// `analyze --verify`: the expectations of every level.
    AnalyzeVerify,
    /// `generate`: new levels, and the pack that holds them.
    Generate,
}

impl Command {
    fn name(self) -> &'static str {
        match self {
            Command::Selfplay => "selfplay",
            Command::Analyze => "analyze",
            Command::AnalyzeVerify => "analyze --verify",
            Command::Generate => "generate",
        }
    }
}

/// One level's share of a report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct LevelPart {
    /// The level's id.
    pub level: String,
    /// Its block of the text report.
    pub text: String,
    /// Its JSON: one object, or for `analyze --verify` the list of its
    /// expectations.
    pub json: Value,
    /// What the pack's closing line adds up: errors, warnings and notes
    /// (`analyze`), or expectations that hold, fail and were not checked
    /// (`analyze --verify`).
    pub tally: [usize; 3],
    /// Whether this level makes the exit code 1.
    pub fails: bool,
}

/// One pack of a run: what every shard knows of it, and the parts of the
/// levels the run played.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct PackRun {
    /// The pack's name as reports show it.
    pub name: String,
    /// A hash of the pack's text, which tells shards of different packs
    /// apart.
    pub hash: String,
    /// Every level the whole run covers, in the pack's order.
    pub levels: Vec<String>,
    /// Whether the pack was read in full (`analyze` refuses it otherwise).
    pub readable: bool,
    /// Errors `check` finds in the pack.
    pub check_errors: usize,
    /// The parts of the levels played, in the pack's order.
    pub parts: Vec<LevelPart>,
    /// For `generate`: the pack without its levels, as TOML.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
}

impl PackRun {
    /// A pack named `name` with text `text`, covering `levels`.
    pub fn new(name: &str, text: &str, levels: Vec<String>) -> PackRun {
        PackRun {
            name: name.to_owned(),
            hash: format!("{:016x}", stable_hash(text.as_bytes())),
            levels,
            readable: true,
            check_errors: 0,
            parts: Vec::new(),
            header: None,
        }
    }
}

/// A whole run, or one shard's share of it.
#[derive(Debug, Clone)]
pub(super) struct Run {
    pub command: Command,
    pub packs: Vec<PackRun>,
    pub interrupted: bool,
}

/// What a shard writes: its run, and what identifies the run it is a share
/// of.
#[derive(Debug, Serialize, Deserialize)]
struct ShardReport {
    shard_report: u32,
    pushcrate: String,
    command: Command,
    /// Every option that changes the report, by name.
    options: BTreeMap<String, String>,
    shard: ShardNumber,
    packs: Vec<PackRun>,
    interrupted: bool,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct ShardNumber {
    index: u32,
    count: u32,
}

/// The report of `run` in `format`, and its exit code (without the
/// interruption's, which the caller adds).
pub(super) fn render(run: &Run, format: OutputFormat) -> anyhow::Result<(String, u8)> {
    if run.command == Command::Generate {
        return Ok((generated_pack(run, format)?, EXIT_OK));
    }
    let text = match format {
        OutputFormat::Text => run.packs.iter().map(|pack| pack_text(run.command, pack)).collect(),
        OutputFormat::Json => {
            let report = match run.command {
                Command::Selfplay => super::report::levels(
                    run.packs.iter().flat_map(|p| &p.parts).map(|p| p.json.clone()).collect(),
                    run.interrupted,
                ),
                Command::Analyze | Command::AnalyzeVerify | Command::Generate => super::report::packs(
                    run.packs.iter().map(|pack| pack_json(run.command, pack)).collect(),
                    run.interrupted,
                ),
            };
            format!("{}\n", serde_json::to_string_pretty(&report)?)
        }
    };
    Ok((text, exit_code(run)))
}

/// The exit code of `run` (without the interruption's, which the caller
/// adds).
pub(super) fn exit_code(run: &Run) -> u8 {
    let failed = run.packs.iter().any(|pack| pack_fails(run.command, pack));
    if failed { EXIT_PROBLEMS } else { EXIT_OK }
}

/// The pack of a generating run: its header with every part's level, as
/// TOML (text) or in the JSON layout.
fn generated_pack(run: &Run, format: OutputFormat) -> anyhow::Result<String> {
    let read = |text: &str| {
        crate::level::format::parse_pack(text)
            .pack
            .ok_or_else(|| anyhow::anyhow!("a generated level in a shard report cannot be read"))
    };
    let Some(first) = run.packs.first() else { bail!("a generating run with no pack") };
    let mut pack = read(first.header.as_deref().unwrap_or_default())?;
    for part in &first.parts {
        pack.levels.extend(read(&part.text)?.levels);
    }
    Ok(match format {
        OutputFormat::Text => crate::level::format::write_pack(&pack),
        OutputFormat::Json => crate::level::write_pack_json(&pack)?,
    })
}

fn pack_fails(command: Command, pack: &PackRun) -> bool {
    let pack_errors = match command {
        Command::Selfplay | Command::Generate => false,
        // Verifying, only the expectations decide.
        Command::AnalyzeVerify => !pack.readable,
        Command::Analyze => !pack.readable || pack.check_errors > 0,
    };
    pack_errors || pack.parts.iter().any(|part| part.fails)
}

/// One pack's block of the text report.
pub(super) fn pack_text(command: Command, pack: &PackRun) -> String {
    if !pack.readable {
        return String::new();
    }
    let name = clean(&pack.name);
    let body: String = pack.parts.iter().map(|part| part.text.as_str()).collect();
    let tally = |i: usize| pack.parts.iter().map(|part| part.tally[i]).sum::<usize>();
    match command {
        Command::Selfplay | Command::Generate => body,
        Command::Analyze => {
            let check = match pack.check_errors {
                0 => String::new(),
                n => format!(" (and {n} from check, above)"),
            };
            format!(
                "{name}: {} level(s)\n\n{body}{name}: {} errors{check}, {} warnings, {} notes\n",
                pack.parts.len(),
                tally(0),
                tally(1),
                tally(2)
            )
        }
        Command::AnalyzeVerify => format!(
            "{body}{name}: {} expectation(s) hold, {} fail, {} not checked\n",
            tally(0),
            tally(1),
            tally(2)
        ),
    }
}

fn pack_json(command: Command, pack: &PackRun) -> Value {
    if !pack.readable {
        return super::report::unreadable_pack(&pack.name);
    }
    let valid = pack.check_errors == 0;
    match command {
        Command::AnalyzeVerify => {
            let expectations: Vec<Value> = pack
                .parts
                .iter()
                .flat_map(|part| part.json.as_array().cloned().unwrap_or_default())
                .collect();
            super::report::verified_pack(&pack.name, valid, expectations)
        }
        Command::Analyze | Command::Selfplay | Command::Generate => super::report::analysed_pack(
            &pack.name,
            valid,
            pack.parts.iter().map(|p| p.json.clone()).collect(),
        ),
    }
}

/// The options that identify a run, by name, as a shard report keeps them.
pub(super) fn options<const N: usize>(pairs: [(&str, String); N]) -> BTreeMap<String, String> {
    pairs.into_iter().map(|(key, value)| (key.to_owned(), value)).collect()
}

/// Writes a shard's report to standard output: the parts of its levels,
/// and what identifies its run.
pub(super) fn write_shard(run: Run, shard: Shard, options: BTreeMap<String, String>) -> anyhow::Result<()> {
    out(&shard_text(run, shard, options)?)
}

/// A shard's report: the parts of its levels, and what identifies its run.
pub(super) fn shard_text(
    run: Run,
    shard: Shard,
    options: BTreeMap<String, String>,
) -> anyhow::Result<String> {
    let report = ShardReport {
        shard_report: LAYOUT,
        pushcrate: env!("CARGO_PKG_VERSION").to_owned(),
        command: run.command,
        options,
        shard: ShardNumber { index: shard.index(), count: shard.count() },
        packs: run.packs,
        interrupted: run.interrupted,
    };
    Ok(format!("{}\n", serde_json::to_string_pretty(&report)?))
}

/// What `merge` was asked.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The shard reports, one from each of `--shard 1/N` … `--shard N/N`,
    /// in any order.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// Report format (of a generating run: `text` is the pack's TOML,
    /// `json` its JSON layout).
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
}

/// `pushcrate merge`: the report and exit code one machine would have
/// given, from the reports of every shard of a run.
pub(super) fn merge_command(args: &MergeArgs) -> anyhow::Result<u8> {
    let mut reports = Vec::new();
    for path in &args.shards {
        let shown = files::shown(path);
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {shown}"))?;
        let position = |error: &serde_json::Error| {
            // The position leads the message, as in every other report.
            let message = error.to_string();
            let message = message.rsplit_once(" at line ").map_or(message.as_str(), |(what, _)| what);
            format!(
                "{shown}:{}:{}: not a shard report of `pushcrate … --shard K/N`: {message}",
                error.line(),
                error.column().max(1)
            )
        };
        let value: Value = serde_json::from_str(&text).map_err(|error| anyhow::anyhow!(position(&error)))?;
        if value.get("shard_report").is_none() {
            bail!(
                "{shown}: not a shard report of `pushcrate … --shard K/N` (it has no `shard_report` key): a whole run's report has nothing to merge with"
            );
        }
        let report: ShardReport =
            serde_json::from_str(&text).map_err(|error| anyhow::anyhow!(position(&error)))?;
        reports.push((shown, report));
    }
    let run = merge(reports)?;
    if run.command == Command::Generate {
        // What `generate` says of each level, as one run says it.
        let notes: String =
            run.packs.iter().flat_map(|p| &p.parts).filter_map(|p| p.json["note"].as_str()).collect();
        super::err(&notes);
    }
    let (text, code) = render(&run, args.format)?;
    out(&text)?;
    Ok(code)
}

/// The whole run that the shards are shares of, or why they are not the
/// shares of one run.
fn merge(reports: Vec<(String, ShardReport)>) -> anyhow::Result<Run> {
    let Some((_, first)) = reports.first() else { bail!("no shard reports to merge") };
    whole_shards(&reports)?;
    same_run(&reports)?;
    every_shard_once(&reports)?;
    let count = first.shard.count;
    let command = first.command;
    let mut packs: Vec<PackRun> =
        first.packs.iter().map(|p| PackRun { parts: Vec::new(), ..p.clone() }).collect();
    for (index, pack) in packs.iter_mut().enumerate() {
        let mut parts: BTreeMap<&str, &LevelPart> = BTreeMap::new();
        for (name, report) in &reports {
            for part in &report.packs[index].parts {
                if Shard::of(&part.level, count) != report.shard.index {
                    bail!(
                        "{name}: level `{}` is not shard {}/{count}'s: the report was not written by `--shard`",
                        clean(&part.level),
                        report.shard.index
                    );
                }
                if parts.insert(&part.level, part).is_some() {
                    bail!("{name}: level `{}` is reported twice", clean(&part.level));
                }
            }
        }
        let unique: BTreeSet<&str> = pack.levels.iter().map(String::as_str).collect();
        for id in &unique {
            if !parts.contains_key(id) {
                bail!(
                    "level `{}` of {} is in no shard's report (shard {}/{count} should have it)",
                    clean(id),
                    clean(&pack.name),
                    Shard::of(id, count)
                );
            }
        }
        if let Some(extra) = parts.keys().find(|id| !unique.contains(*id)) {
            bail!("level `{}` is in a shard's report but not in {}", clean(extra), clean(&pack.name));
        }
        pack.parts =
            pack.levels.iter().filter_map(|id| parts.get(id.as_str()).map(|p| (*p).clone())).collect();
    }
    Ok(Run { command, packs, interrupted: false })
}

/// Refuses a report of another layout, or of a shard that was interrupted.
fn whole_shards(reports: &[(String, ShardReport)]) -> anyhow::Result<()> {
    for (name, report) in reports {
        if report.shard_report != LAYOUT {
            bail!(
                "{name}: a shard report of layout {}, and this pushcrate reads layout {LAYOUT}",
                report.shard_report
            );
        }
        if report.interrupted {
            bail!(
                "{name}: shard {}/{} was interrupted and its report is partial: run that shard again",
                report.shard.index,
                report.shard.count
            );
        }
    }
    Ok(())
}

/// Refuses shards of different runs: another version, command, option,
/// pack, pack content, or N.
fn same_run(reports: &[(String, ShardReport)]) -> anyhow::Result<()> {
    let Some((first_name, first)) = reports.first() else { return Ok(()) };
    for (name, report) in &reports[1..] {
        let differ = |what: &str, a: &str, b: &str| {
            anyhow::anyhow!(
                "{name} and {first_name} are shards of different runs: {what} {} in one and {} in the other",
                clean(b),
                clean(a)
            )
        };
        if report.pushcrate != first.pushcrate {
            return Err(differ("pushcrate version", &first.pushcrate, &report.pushcrate));
        }
        if report.command != first.command {
            return Err(differ("command", first.command.name(), report.command.name()));
        }
        if let Some(key) = first
            .options
            .keys()
            .chain(report.options.keys())
            .find(|key| first.options.get(*key) != report.options.get(*key))
        {
            let value = |options: &BTreeMap<String, String>| {
                options.get(key).map_or_else(|| "(none)".to_owned(), |v| format!("`{v}`"))
            };
            return Err(differ(&format!("{key} is"), &value(&first.options), &value(&report.options)));
        }
        let names = |r: &ShardReport| r.packs.iter().map(|p| p.name.clone()).collect::<Vec<_>>().join(", ");
        if names(report) != names(first) {
            return Err(differ("the packs are", &names(first), &names(report)));
        }
        for (a, b) in first.packs.iter().zip(&report.packs) {
            if a.hash != b.hash || a.levels != b.levels {
                return Err(differ(
                    &format!("the pack {} has content", a.name),
                    &format!("{} ({} levels)", a.hash, a.levels.len()),
                    &format!("{} ({} levels)", b.hash, b.levels.len()),
                ));
            }
        }
        if report.shard.count != first.shard.count {
            bail!(
                "{name} is shard {}/{} and {first_name} shard {}/{}: shards of one run share their N",
                report.shard.index,
                report.shard.count,
                first.shard.index,
                first.shard.count
            );
        }
    }
    Ok(())
}

/// Refuses a shard that is not K/N, one given twice, and a missing one.
fn every_shard_once(reports: &[(String, ShardReport)]) -> anyhow::Result<()> {
    let Some((_, first)) = reports.first() else { return Ok(()) };
    let count = first.shard.count;
    let mut seen: BTreeMap<u32, &str> = BTreeMap::new();
    for (name, report) in reports {
        let index = report.shard.index;
        if Shard::new(index, count).is_none() {
            bail!("{name}: shard {index}/{count} is not a shard K/N with 1 ≤ K ≤ N");
        }
        if let Some(other) = seen.insert(index, name) {
            bail!("shard {index}/{count} is given twice: {other} and {name}");
        }
    }
    let missing: Vec<String> =
        (1..=count).filter(|k| !seen.contains_key(k)).map(|k| format!("{k}/{count}")).collect();
    if !missing.is_empty() {
        bail!(
            "shard{} {} of the run {} missing: merge needs all {count}",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            if missing.len() == 1 { "is" } else { "are" }
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn part(level: &str) -> LevelPart {
        LevelPart {
            level: level.into(),
            text: format!("{level}\n"),
            json: json!({ "level": level }),
            tally: [0; 3],
            fails: false,
        }
    }

    fn shard(index: u32, count: u32, ids: &[&str]) -> (String, ShardReport) {
        let levels: Vec<String> = ids.iter().map(|s| (*s).to_owned()).collect();
        let mut pack = PackRun::new("pack.toml", "text", levels.clone());
        pack.parts = levels.iter().filter(|id| Shard::of(id, count) == index).map(|id| part(id)).collect();
        let report = ShardReport {
            shard_report: LAYOUT,
            pushcrate: "0".into(),
            command: Command::Selfplay,
            options: BTreeMap::from([("seed".to_owned(), "1".to_owned())]),
            shard: ShardNumber { index, count },
            packs: vec![pack],
            interrupted: false,
        };
        (format!("s{index}.json"), report)
    }

    const IDS: [&str; 4] = ["open", "arena", "crates", "gates"];

    #[test]
    fn shards_merge_in_the_packs_order() {
        let run = merge((1..=3).map(|k| shard(k, 3, &IDS)).collect()).unwrap();
        let (text, code) = render(&run, OutputFormat::Text).unwrap();
        assert_eq!(text, "open\narena\ncrates\ngates\n");
        assert_eq!(code, EXIT_OK);
    }

    #[test]
    fn a_missing_or_doubled_shard_is_refused() {
        let error = merge(vec![shard(1, 3, &IDS), shard(3, 3, &IDS)]).unwrap_err().to_string();
        assert!(error.contains("shard 2/3 of the run is missing"), "{error}");
        let error =
            merge(vec![shard(1, 2, &IDS), shard(1, 2, &IDS), shard(2, 2, &IDS)]).unwrap_err().to_string();
        assert!(error.contains("shard 1/2 is given twice: s1.json and s1.json"), "{error}");
    }

    #[test]
    fn shards_of_other_runs_are_refused() {
        let (name, mut other) = shard(2, 2, &IDS);
        other.options.insert("seed".into(), "2".into());
        let error = merge(vec![shard(1, 2, &IDS), (name, other)]).unwrap_err().to_string();
        assert!(error.contains("different runs: seed is `2` in one and `1` in the other"), "{error}");
        let (name, mut other) = shard(2, 2, &IDS);
        other.packs[0].hash = "0".into();
        let error = merge(vec![shard(1, 2, &IDS), (name, other)]).unwrap_err().to_string();
        assert!(error.contains("the pack pack.toml has content"), "{error}");
        let error = merge(vec![shard(1, 2, &IDS), shard(2, 3, &IDS)]).unwrap_err().to_string();
        assert!(error.contains("shards of one run share their N"), "{error}");
    }

    #[test]
    fn an_interrupted_shard_is_refused() {
        let (name, mut cut) = shard(2, 2, &IDS);
        cut.interrupted = true;
        let error = merge(vec![shard(1, 2, &IDS), (name, cut)]).unwrap_err().to_string();
        assert!(error.contains("interrupted"), "{error}");
    }
}
