//! `pushcrate analyze`: findings drawn with the board, or a JSON report.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::bail;

use super::{EXIT_OK, EXIT_PROBLEMS, OutputFormat, diagnostics, load};
use crate::analysis::{
    AnalysisOptions, Finding, LevelReport, PackReport, Severity, Verdict, Witness, analyze_pack,
};
use crate::level::Pack;
use crate::level::render::{cell_list, diagram};
use crate::rules::{Bitboard, format_actions};

/// What `analyze` was asked.
pub(super) struct AnalyzeArgs {
    pub packs: Vec<PathBuf>,
    pub level: Option<String>,
    pub format: OutputFormat,
    pub deny_warnings: bool,
    pub budget: u64,
    pub depth: u32,
}

pub(super) fn analyze(args: &AnalyzeArgs) -> anyhow::Result<u8> {
    let options = AnalysisOptions { budget: args.budget, depth: args.depth, cancel: None };
    let mut failed = false;
    let mut json_packs = Vec::new();
    for path in &args.packs {
        let loaded = load(path)?;
        let Some(pack) = &loaded.parsed.pack else {
            eprint!("{}", diagnostics::render(&loaded, std::io::stderr().is_terminal()));
            failed = true;
            continue;
        };
        let mut pack = pack.clone();
        if let Some(id) = &args.level {
            if pack.level(id).is_none() {
                let ids: Vec<&str> = pack.levels.iter().map(|l| l.id.as_str()).collect();
                bail!("{} has no level `{id}`; its levels are: {}", loaded.name, ids.join(", "));
            }
            pack.levels.retain(|l| &l.id == id);
        }
        let report = analyze_pack(&pack, &options);
        failed |= report.levels.iter().any(|l| l.has_errors() || (args.deny_warnings && l.has_warnings()));
        match args.format {
            OutputFormat::Text => print!("{}", text(&loaded.name, &pack, &report)),
            OutputFormat::Json => {
                json_packs.push(serde_json::json!({ "path": loaded.name, "report": report }))
            }
        }
    }
    if args.format == OutputFormat::Json {
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "packs": json_packs }))?);
    }
    Ok(if failed { EXIT_PROBLEMS } else { EXIT_OK })
}

fn label(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn verdict(v: &Verdict) -> String {
    match v {
        Verdict::Proved { line } if line.is_empty() => "proved (already)".to_owned(),
        Verdict::Proved { line } => format!("proved in {} actions: {}", line.len(), format_actions(line)),
        Verdict::Disproved => "disproved".to_owned(),
        Verdict::Unknown => "unknown within the budget".to_owned(),
    }
}

fn finding_text(out: &mut String, finding: &Finding, board: Option<&crate::rules::GameState>) {
    out.push_str(&format!("{}[{}]: {}\n", label(finding.severity), finding.code, finding.message));
    let marks: Bitboard = finding.cells.iter().copied().collect();
    if let (Some(state), true) = (board, marks.any()) {
        for line in diagram(state, marks).lines() {
            out.push_str(&format!("    {line}\n"));
        }
    }
    match &finding.witness {
        Some(Witness::Path { cells }) => {
            out.push_str(&format!("  path: {}\n", cell_list(cells.iter().copied().collect())))
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

fn level_text(out: &mut String, pack: &Pack, report: &LevelReport) {
    let errors = report.findings.iter().filter(|f| f.severity == Severity::Error).count();
    let warnings = report.findings.iter().filter(|f| f.severity == Severity::Warning).count();
    out.push_str(&format!(
        "level `{}` ({}): {errors} errors, {warnings} warnings\n",
        report.level, report.size
    ));
    let level = pack.level(&report.level);
    // Marked cells are drawn on the empty starting board (no `*` of its own).
    let state = level.and_then(|l| l.start_state(pack.rules).ok());
    for proof in &report.routes {
        let how = match &proof.witness {
            Witness::Path { cells } => format!("holds, {} steps", cells.len().saturating_sub(1)),
            _ => "cut by walls".to_owned(),
        };
        let crates = if proof.holds && !proof.holds_with_crates { ", cut by initial crates" } else { "" };
        out.push_str(&format!("  route: player {} {}: {how}{crates}\n", proof.player, proof.route));
    }
    if let Some(race) = &report.race {
        out.push_str(&format!(
            "  race: player {} reaches the flag first, by {} action(s); to flag {} / {}, flag to goal {} / {} steps\n",
            race.first_to_flag, race.lead, race.legs[0].to_flag, race.legs[1].to_flag, race.legs[0].to_goal, race.legs[1].to_goal
        ));
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
            "  search (depth {}, budget {} per question, {} positions): player 1 win {}; player 2 win {}; dead position {}\n",
            search.depth,
            search.budget,
            search.nodes,
            verdict(&search.player1_can_win),
            verdict(&search.player2_can_win),
            verdict(&search.dead_position)
        ));
    }
    for finding in &report.findings {
        finding_text(out, finding, state.as_ref());
    }
    out.push('\n');
}

fn text(name: &str, pack: &Pack, report: &PackReport) -> String {
    let mut out = format!("{name}: {} level(s)\n\n", report.levels.len());
    for level in &report.levels {
        level_text(&mut out, pack, level);
    }
    let count =
        |s: Severity| report.levels.iter().flat_map(|l| &l.findings).filter(|f| f.severity == s).count();
    out.push_str(&format!(
        "{name}: {} errors, {} warnings, {} notes\n",
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Note)
    ));
    out
}
