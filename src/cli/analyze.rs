//! `pushcrate analyze`: findings drawn with the board, or a JSON report.

use std::path::PathBuf;

use anyhow::bail;

use std::io::IsTerminal as _;

use super::{DEFAULT_MAX_PROBLEMS, Deny, OutputFormat, clean, err, load, out, refuse, shard};
use crate::ai::estimate::Estimate;
use crate::analysis::{
    AnalysisOptions, Answer, Finding, LevelReport, PackReport, Severity, Witness, analyze_pack_levels,
};
use crate::diagnostics;
use crate::level::Pack;
use crate::level::render::{cell_list, diagram};
use crate::rules::{Bitboard, format_actions};

/// The deepest bounded search the command line runs.
pub const MAX_SEARCH_DEPTH: u32 = 200;

/// What `analyze` was asked.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// Pack files; `@default` is the bundled pack, `@flawed` the bundled
    /// flawed levels.
    #[arg(required = true)]
    pub packs: Vec<PathBuf>,
    /// Analyse only this level.
    #[arg(long)]
    pub level: Option<String>,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
    /// Treat warnings as errors for the exit code.
    #[arg(long, value_enum)]
    pub deny: Option<Deny>,
    /// Positions the bounded search may visit per question (0 skips it).
    #[arg(long, default_value_t = 20_000)]
    pub budget: u64,
    /// Actions the bounded search looks ahead, 1 to 200.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_SEARCH_DEPTH)))]
    pub depth: u32,
    /// Check each level's expectations (`expect = [...]`, format version 2)
    /// instead of listing findings: the exit code is 1 when one does not
    /// hold. Those about balance are checked only with `--balance`.
    #[arg(long)]
    pub verify: bool,
    /// With `--verify`, also check `balanced` and `unbalanced:N` by the
    /// default balance check (expert and deep, sequential, seed 1): minutes
    /// a level.
    #[arg(long, requires = "verify")]
    pub balance: bool,
    /// Analyse only shard K of N of the levels and write a shard report
    /// for `pushcrate merge` (docs/sharding.md).
    #[arg(long, conflicts_with_all = ["level", "format"])]
    pub shard: Option<crate::level::shard::Shard>,
}

/// Analyses every pack named. The errors that `check` reports are printed
/// first and make the exit code 1. A pack in which some value could not be
/// read is not analysed at all, so that no verdict is drawn from defaults
/// put in place of what the file says; a pack that was read in full is
/// analysed even with errors (a route cut by walls is explained with the
/// walled-in region).
pub(super) fn analyze(args: &AnalyzeArgs) -> anyhow::Result<u8> {
    // Ctrl-C cuts the searches short: the report so far is printed, marked
    // partial.
    let stop = super::stop_on_ctrl_c();
    let options = AnalysisOptions { budget: args.budget, depth: args.depth, cancel: Some(&stop) };
    let command = if args.verify { shard::Command::AnalyzeVerify } else { shard::Command::Analyze };
    // Text is printed pack by pack, as each is done; JSON and shard reports
    // at the end.
    let streaming = args.format == OutputFormat::Text && args.shard.is_none();
    let mut packs = Vec::new();
    for path in &args.packs {
        let file = load(path)?;
        let has_errors = file.parsed.has_errors();
        let pack = match &file.parsed.pack {
            Some(pack) if file.parsed.complete => pack.clone(),
            _ => {
                refuse(&file);
                let mut refused = shard::PackRun::new(&file.name, &file.text, Vec::new());
                refused.readable = false;
                packs.push(refused);
                continue;
            }
        };
        // Verifying, a level's errors are what its expectations are about:
        // only the expectations decide the exit code.
        if has_errors && !args.verify {
            let mut errors = file.clone();
            errors.parsed.problems.retain(crate::level::Problem::is_error);
            err(&diagnostics::render(&errors, std::io::stderr().is_terminal(), DEFAULT_MAX_PROBLEMS));
        }
        if let Some(id) = &args.level
            && pack.level(id).is_none()
        {
            let ids: Vec<&str> = pack.levels.iter().map(|l| l.id.as_str()).collect();
            bail!(
                "{} has no level `{}`; its levels are: {}",
                clean(&file.name),
                clean(id),
                clean(&ids.join(", "))
            );
        }
        let in_run = |id: &str| args.level.as_ref().is_none_or(|level| level == id);
        let ids: Vec<String> = pack.levels.iter().map(|l| l.id.clone()).filter(|id| in_run(id)).collect();
        let keep = |id: &str| in_run(id) && args.shard.is_none_or(|shard| shard.owns(id));
        let report = analyze_pack_levels(&pack, &options, &keep);
        let mut run = shard::PackRun::new(&file.name, &file.text, ids);
        run.check_errors = file.parsed.problems.iter().filter(|p| p.is_error()).count();
        run.parts = if args.verify {
            let outcomes = verify_pack(&pack, &file.parsed.problems, &report, args.balance, &stop);
            verify_parts(&file.name, &report, &outcomes)
        } else {
            let deny_warnings = args.deny == Some(Deny::Warnings);
            report.levels.iter().map(|level| level_part(&pack, level, deny_warnings)).collect()
        };
        if streaming {
            out(&shard::pack_text(command, &run))?;
        }
        packs.push(run);
    }
    let interrupted = stop.load(std::sync::atomic::Ordering::Relaxed);
    let run = shard::Run { command, packs, interrupted };
    let code = match args.shard {
        Some(part) => {
            let code = shard::exit_code(&run);
            shard::write_shard(run, part, args.identity())?;
            code
        }
        None if streaming => shard::exit_code(&run),
        None => {
            let (text, code) = shard::render(&run, args.format)?;
            out(&text)?;
            code
        }
    };
    if interrupted {
        err("interrupted: the report above is partial (the bounded searches were cut short)\n");
        return Ok(super::EXIT_INTERRUPTED);
    }
    Ok(code)
}

impl AnalyzeArgs {
    /// The options that change a sharded run's report, by name.
    fn identity(&self) -> std::collections::BTreeMap<String, String> {
        super::shard::options([
            ("deny", format!("{:?}", self.deny)),
            ("budget", self.budget.to_string()),
            ("depth", self.depth.to_string()),
            ("verify", self.verify.to_string()),
            ("balance", self.balance.to_string()),
        ])
    }
}

/// A level's findings as a part of the report.
fn level_part(pack: &Pack, level: &LevelReport, deny_warnings: bool) -> shard::LevelPart {
    // Where ids repeat (E021), the first level with the id is the one
    // reported, as `level_text` draws it.
    let estimate = pack
        .level(&level.level)
        .and_then(|l| l.playable(pack.rules).ok())
        .and_then(|p| crate::ai::estimate::estimate(p.start()));
    let mut text = String::new();
    level_text(&mut text, pack, level, estimate.as_ref());
    let count = |s: Severity| level.findings.iter().filter(|f| f.severity == s).count();
    let mut json = super::report::level_report(level);
    json["estimate"] = estimate.as_ref().map_or(serde_json::Value::Null, super::report::estimate);
    shard::LevelPart {
        level: level.level.clone(),
        text,
        json,
        tally: [count(Severity::Error), count(Severity::Warning), count(Severity::Note)],
        fails: level.has_errors() || (deny_warnings && level.has_warnings()),
    }
}

/// The expectations of each analysed level as parts of the report.
fn verify_parts(name: &str, report: &PackReport, outcomes: &[Outcome]) -> Vec<shard::LevelPart> {
    report
        .levels
        .iter()
        .map(|level| {
            let mine: Vec<&Outcome> = outcomes.iter().filter(|o| o.level == level.level).collect();
            let count = |r: Verified| mine.iter().filter(|o| o.result == r).count();
            shard::LevelPart {
                level: level.level.clone(),
                text: verify_text(name, &mine),
                json: mine.iter().map(|o| o.json()).collect(),
                tally: [count(Verified::Holds), count(Verified::Fails), count(Verified::Unchecked)],
                fails: count(Verified::Fails) > 0,
            }
        })
        .collect()
}

fn label(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn verdict(v: &Answer) -> String {
    match v {
        Answer::Proved { line } if line.is_empty() => "proved (already)".to_owned(),
        Answer::Proved { line } => format!("proved in {} actions: {}", line.len(), format_actions(line)),
        Answer::Disproved => "disproved".to_owned(),
        Answer::Unknown => "unknown within the budget".to_owned(),
    }
}

fn finding_text(out: &mut String, finding: &Finding, board: Option<&crate::rules::GameState>) {
    out.push_str(&format!("{}[{}]: {}\n", label(finding.severity), finding.code, clean(&finding.message)));
    let marks: Bitboard = finding.cells.iter().copied().collect();
    if let (Some(state), true) = (board, marks.any()) {
        for line in diagram(state, marks).lines() {
            out.push_str(&format!("    {line}\n"));
        }
    }
    match &finding.witness {
        Some(Witness::Path { cells }) => {
            // In walking order, not sorted like a set of cells.
            let walk: Vec<String> = cells.iter().map(ToString::to_string).collect();
            out.push_str(&format!("  path: {}\n", walk.join(" ")));
        }
        Some(Witness::Cut { region }) => {
            out.push_str(&format!("  region: {}\n", cell_list(region.iter().copied().collect())));
        }
        Some(Witness::Line { actions }) => {
            out.push_str(&format!(
                "  witness line ({} actions): {}\n",
                actions.len(),
                format_actions(actions)
            ));
        }
        None => {}
    }
}

fn level_text(out: &mut String, pack: &Pack, report: &LevelReport, estimate: Option<&Estimate>) {
    let errors = report.findings.iter().filter(|f| f.severity == Severity::Error).count();
    let warnings = report.findings.iter().filter(|f| f.severity == Severity::Warning).count();
    out.push_str(&format!(
        "level `{}` ({}): {errors} errors, {warnings} warnings\n",
        clean(&report.level),
        report.size
    ));
    let level = pack.level(&report.level);
    // Marked cells are drawn on the empty starting board (no `*` of its own).
    let playable = level.and_then(|l| l.playable(pack.rules).ok());
    let state = playable.as_ref().map(crate::level::Playable::start);
    for proof in &report.routes {
        let how = match &proof.witness {
            Witness::Path { cells } => format!("holds, {} steps", cells.len().saturating_sub(1)),
            _ => "cut by walls".to_owned(),
        };
        let crates = if proof.holds && !proof.holds_with_crates { ", cut by initial crates" } else { "" };
        out.push_str(&format!("  route: {} {}: {how}{crates}\n", proof.player(), proof.name()));
    }
    if let Some(race) = &report.race {
        out.push_str(&format!(
            "  race: {} reaches the flag first, by {} action(s); to flag {} / {}, flag to goal {} / {} steps\n",
            race.first_to_flag, race.lead, race.legs[0].to_flag, race.legs[1].to_flag, race.legs[0].to_goal, race.legs[1].to_goal
        ));
    }
    if let Some(estimate) = estimate {
        out.push_str(&format!("  estimate: {}\n", estimate.describe()));
    }
    if !report.routes.is_empty() {
        out.push_str(&format!(
            "  sole-path cells: {}\n  cells that can take a crate: {}\n",
            cell_list(report.sole_path_cells.iter().copied().collect()),
            report.placement_cells
        ));
    }
    if let Some(search) = &report.search {
        out.push_str(&format!(
            "  search (depth {}, budget {} per question, {} positions): player 1 win {}; player 2 win {}; dead position {}; forced win for the first to move {}\n",
            search.depth,
            search.budget,
            search.nodes,
            verdict(&search.player1_can_win),
            verdict(&search.player2_can_win),
            verdict(&search.dead_position),
            verdict(&search.first_forces_win)
        ));
    }
    for finding in &report.findings {
        finding_text(out, finding, state);
    }
    out.push('\n');
}

/// Whether an expectation holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verified {
    Holds,
    Fails,
    /// Not checked: a balance expectation without `--balance`, or a check
    /// cut short.
    Unchecked,
}

/// One expectation of one level, and what was found.
struct Outcome {
    level: String,
    expectation: crate::level::Expectation,
    result: Verified,
    why: String,
}

impl Outcome {
    fn json(&self) -> serde_json::Value {
        let result = match self.result {
            Verified::Holds => "holds",
            Verified::Fails => "fails",
            Verified::Unchecked => "unchecked",
        };
        super::report::expectation(&self.level, &self.expectation.to_string(), result, &self.why)
    }
}

/// Checks every expectation of every level of `pack`: those the analysis
/// and the solver settle at once, and with `balance` those the default
/// balance check settles.
fn verify_pack(
    pack: &Pack,
    problems: &[crate::level::Problem],
    report: &PackReport,
    balance: bool,
    stop: &std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Vec<Outcome> {
    let mut outcomes = Vec::new();
    for (index, level) in pack.levels.iter().enumerate() {
        // Levels outside the run (`--level`, `--shard`) were not analysed.
        let Some(analysis) = report.levels.iter().find(|r| r.level == level.id) else { continue };
        let mine: Vec<crate::level::Problem> =
            problems.iter().filter(|p| p.field.level() == Some(index)).cloned().collect();
        let playable = level.playable(pack.rules).ok();
        let mut check: Option<crate::sim::BalanceCheck> = None;
        for expectation in &level.expect {
            // With `--budget 0` the analysis ran no solver: `decided:N`
            // asks it here.
            let met = crate::analysis::meets(expectation, level, &mine, analysis).or_else(|| {
                matches!(expectation, crate::level::Expectation::Decided(_))
                    .then(|| playable.as_ref().and_then(|p| crate::sim::settle(p.start(), stop)))
                    .and_then(|forced| crate::sim::meets_decided(expectation, forced.as_ref()))
            });
            let (result, why) = match met {
                Some(met) => verified(met),
                None if !balance => (
                    Verified::Unchecked,
                    "`--balance` runs the default balance check (minutes a level)".to_owned(),
                ),
                None => match &playable {
                    None => (Verified::Fails, "the level cannot be played".to_owned()),
                    Some(playable) => {
                        let check = check.get_or_insert_with(|| default_check(playable, stop));
                        match check.meets(expectation) {
                            Some(met) => verified(met),
                            None => (Verified::Unchecked, format!("cut short: {}", check.summary())),
                        }
                    }
                },
            };
            outcomes.push(Outcome { level: level.id.clone(), expectation: expectation.clone(), result, why });
        }
    }
    outcomes
}

/// An answer as the report gives it.
fn verified(met: crate::analysis::Met) -> (Verified, String) {
    (if met.holds { Verified::Holds } else { Verified::Fails }, met.why)
}

/// The default balance check of `selfplay` (expert and deep, sequential,
/// seed 1, every core).
fn default_check(
    playable: &crate::level::Playable,
    stop: &std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> crate::sim::BalanceCheck {
    let plan = crate::sim::STRONG;
    let config = crate::sim::Config {
        games: crate::sim::SEQUENTIAL_CAP,
        sequential: Some(crate::sim::Design::DEFAULT),
        ..crate::sim::Config::fixed(plan.pairings[0], crate::sim::SEQUENTIAL_CAP)
    };
    let bar = super::spinner();
    bar.set_message(format!("{}: the balance check", playable.id()));
    let (check, _) = crate::sim::check_balance(playable, plan, &config, &|_| {}, stop);
    bar.finish_and_clear();
    check
}

/// One level's lines of the verification report.
fn verify_text(name: &str, outcomes: &[&Outcome]) -> String {
    let name = clean(name);
    let mut out = String::new();
    let mut level = None;
    for o in outcomes {
        if level != Some(&o.level) {
            out.push_str(&format!("{name}: level `{}`\n", clean(&o.level)));
            level = Some(&o.level);
        }
        let result = match o.result {
            Verified::Holds => "holds",
            Verified::Fails => "FAILS",
            Verified::Unchecked => "not checked",
        };
        out.push_str(&format!("  {}: {result}: {}\n", o.expectation, clean(&o.why)));
    }
    out
}
