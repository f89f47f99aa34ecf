//! `show`, `moves` and `perft`: a position of a level after some actions.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;

use super::{EXIT_OK, EXIT_PROBLEMS, OutputFormat, diagnostics, load};
use crate::level::render::{cell_list, diagram};
use crate::rules::{self, Action, GameState, Player};

/// A position: a pack, a level and actions played from its start.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// The pack file; `@default` is the bundled pack.
    pub pack: PathBuf,
    /// The level's id.
    #[arg(long)]
    pub level: String,
    /// Actions to play first, in the notation of RULES.md: "e2 e8 +c3 x pass".
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub actions: String,
}

/// The position, or the exit code when the pack has errors.
pub(super) fn position(args: &PositionArgs) -> anyhow::Result<Result<(GameState, Vec<Action>), u8>> {
    let loaded = load(&args.pack)?;
    let Some(pack) = &loaded.parsed.pack else {
        eprint!("{}", diagnostics::render(&loaded, std::io::stderr().is_terminal()));
        return Ok(Err(EXIT_PROBLEMS));
    };
    let Some(index) = pack.level_index(&args.level) else {
        let ids: Vec<&str> = pack.levels.iter().map(|l| l.id.as_str()).collect();
        bail!("{} has no level `{}`; its levels are: {}", loaded.name, args.level, ids.join(", "));
    };
    let level = &pack.levels[index];
    let mut state = match level.start_state(pack.rules) {
        Ok(state) => state,
        Err(_) => {
            let mut only_level = loaded;
            only_level.parsed.problems.retain(|p| p.field.level() == Some(index) && p.is_error());
            eprint!("{}", diagnostics::render(&only_level, std::io::stderr().is_terminal()));
            eprintln!("error: level `{}` has errors and cannot be played", args.level);
            return Ok(Err(EXIT_PROBLEMS));
        }
    };
    let mut played = Vec::new();
    for (n, word) in args.actions.split_whitespace().enumerate() {
        let action: Action = word.parse().with_context(|| format!("action {} of --actions", n + 1))?;
        if let Err(reason) = state.play(action) {
            bail!("action {} of --actions, `{action}`, is illegal: {reason}", n + 1);
        }
        played.push(action);
    }
    Ok(Ok((state, played)))
}

fn describe(state: &GameState) -> String {
    let mut out = String::new();
    if let Some(outcome) = state.outcome() {
        out.push_str(&format!("Game over: {outcome}.\n"));
    } else {
        let mover = state.turn();
        out.push_str(&format!("{mover} to move"));
        if state.bonus_actions() > 0 {
            out.push_str(&format!(", {} bonus action(s) left in this turn", state.bonus_actions()));
        }
        out.push_str(".\n");
    }
    match state.carrier() {
        Some(p) => out.push_str(&format!("Flag: carried by {p} on {}.\n", state.flag())),
        None => out.push_str(&format!("Flag: lying on {}.\n", state.flag())),
    }
    for p in Player::BOTH {
        out.push_str(&format!(
            "Player {}: on {}, start {}, destroyed {}/{}, placements left {}, goals {}.\n",
            p.number(),
            state.position(p),
            state.start(p),
            state.destroyed(p),
            state.rules().crates_to_win,
            state.placements_left(p),
            cell_list(state.goals(p)),
        ));
    }
    out.push_str(&format!("Actions played: {}.\n", state.actions_played()));
    out
}

pub(super) fn show(args: &PositionArgs) -> anyhow::Result<u8> {
    let (state, played) = match position(args)? {
        Ok(found) => found,
        Err(code) => return Ok(code),
    };
    let sole = state.sole_path_cells();
    if !played.is_empty() {
        println!("After: {}", rules::format_actions(&played));
    }
    print!("{}", diagram(&state, sole));
    print!("{}", describe(&state));
    println!("Sole-path cells (*): {}", if sole.is_empty() { "none".to_owned() } else { cell_list(sole) });
    Ok(EXIT_OK)
}

pub(super) fn moves(args: &PositionArgs, format: OutputFormat) -> anyhow::Result<u8> {
    let (state, _) = match position(args)? {
        Ok(found) => found,
        Err(code) => return Ok(code),
    };
    let actions = state.legal_actions().sorted();
    match format {
        OutputFormat::Text => {
            for action in &actions {
                println!("{action}");
            }
        }
        OutputFormat::Json => {
            let list: Vec<serde_json::Value> = actions
                .iter()
                .map(|&a| {
                    let kind = state.check(a).map(|k| format!("{k:?}").to_lowercase()).unwrap_or_default();
                    serde_json::json!({ "action": a.to_string(), "kind": kind })
                })
                .collect();
            let report = serde_json::json!({
                "level": args.level,
                "to_move": state.turn().number(),
                "over": state.is_over(),
                "actions": list,
            });
            println!("{}", serde_json::to_string_pretty(&report)?);
        }
    }
    Ok(EXIT_OK)
}

pub(super) fn perft(args: &PositionArgs, depth: u32, divide: bool) -> anyhow::Result<u8> {
    let (state, _) = match position(args)? {
        Ok(found) => found,
        Err(code) => return Ok(code),
    };
    if divide {
        let mut total = 0;
        for (action, count) in rules::divide(&state, depth) {
            println!("{action}: {count}");
            total += count;
        }
        println!("\n{}", if depth == 0 { 1 } else { total });
    } else {
        println!("{}", rules::perft(&state, depth));
    }
    Ok(EXIT_OK)
}
