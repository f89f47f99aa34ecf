//! `show`, `moves` and `perft`: a position of a level after some actions.

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;

use super::{EXIT_OK, OutputFormat, clean, load_valid, out};
use crate::level::render::{cell_list, diagram};
use crate::rules::{self, Action, GameState, Player};

/// A position: a pack, a level and actions played from its start.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// The pack file; `@default` is the bundled pack, `@flawed` the bundled
    /// flawed levels.
    pub pack: PathBuf,
    /// The level's id.
    #[arg(long)]
    pub level: String,
    /// Actions to play first, in the notation of docs/rules.md: "e2 e8 +c3 x
    /// pass". `draw:accepted` and `draw:declined` are draw offers by the
    /// player to move, which are not actions.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub actions: String,
}

/// What `show` was asked.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Report format: a diagram, or the state as JSON (the layout of the
    /// conformance suite).
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
}

/// What `moves` was asked.
#[derive(Debug, Args)]
pub struct MovesArgs {
    /// The position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
}

/// The deepest perft the command line runs: deeper counts take years, and
/// the recursion must fit the stack.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// What `perft` was asked.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Number of actions, 0 to 20.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_PERFT_DEPTH)))]
    pub depth: u32,
    /// Print the count below each first action.
    #[arg(long)]
    pub divide: bool,
    /// Count even where the estimate (from the count at depth 3 and its
    /// time) is over an hour; without it such a count is refused with the
    /// estimate.
    #[arg(long)]
    pub allow_long: bool,
}

/// The position, or the exit code when the pack has errors: a pack with
/// any error is refused, so that nothing is played with defaults put in
/// place of what could not be read.
pub(super) fn position(args: &PositionArgs) -> anyhow::Result<Result<(GameState, Vec<Action>), u8>> {
    let (file, pack) = match load_valid(&args.pack)? {
        Ok(found) => found,
        Err(code) => return Ok(Err(code)),
    };
    let Some(index) = pack.level_index(&args.level) else {
        let ids: Vec<&str> = pack.levels.iter().map(|l| l.id.as_str()).collect();
        bail!(
            "{} has no level `{}`; its levels are: {}",
            clean(&file.name),
            clean(&args.level),
            clean(&ids.join(", "))
        );
    };
    let level = &pack.levels[index];
    let mut state = *level
        .playable(pack.rules)
        .map_err(|e| anyhow::anyhow!("level `{}` cannot be played: {e}", clean(&args.level)))?
        .start();
    let mut played = Vec::new();
    for (n, word) in args.actions.split_whitespace().enumerate() {
        if let Some(answer) = word.strip_prefix("draw:") {
            let accepted = match answer {
                "accepted" => true,
                "declined" => false,
                _ => bail!("`{}` in --actions is not `draw:accepted` or `draw:declined`", clean(word)),
            };
            if let Err(reason) = state.offer_draw(accepted) {
                bail!("the draw offer `{word}` (word {} of --actions) cannot be made: {reason}", n + 1);
            }
            continue;
        }
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
    if !state.is_over() {
        match state.can_offer_draw() {
            Ok(()) => out.push_str("A draw may be offered now.\n"),
            Err(why) => out.push_str(&format!("No draw offer now: {why}.\n")),
        }
    }
    out
}

pub(super) fn show(args: &ShowArgs) -> anyhow::Result<u8> {
    let (state, played) = match position(&args.position)? {
        Ok(found) => found,
        Err(code) => return Ok(code),
    };
    if args.format == OutputFormat::Json {
        let mut value = super::conformance::state_json(&state);
        value["level"] = args.position.level.clone().into();
        value["line"] = rules::format_actions(&played).into();
        value["may_offer_draw"] = state.can_offer_draw().is_ok().into();
        out(&format!("{}\n", serde_json::to_string_pretty(&value)?))?;
        return Ok(EXIT_OK);
    }
    let sole = state.sole_path_cells();
    let mut text = String::new();
    if !played.is_empty() {
        text.push_str(&format!("After: {}\n", rules::format_actions(&played)));
    }
    text.push_str(&diagram(&state, sole));
    text.push_str(&describe(&state));
    text.push_str(&format!(
        "Sole-path cells (*): {}\n",
        if sole.is_empty() { "none".to_owned() } else { cell_list(sole) }
    ));
    out(&text)?;
    Ok(EXIT_OK)
}

pub(super) fn moves(args: &MovesArgs) -> anyhow::Result<u8> {
    let (state, _) = match position(&args.position)? {
        Ok(found) => found,
        Err(code) => return Ok(code),
    };
    let actions = state.legal_actions().sorted();
    match args.format {
        OutputFormat::Text => {
            let text: String = actions.iter().map(|a| format!("{a}\n")).collect();
            out(&text)?;
        }
        OutputFormat::Json => {
            let report = super::report::legal_actions(&args.position.level, &state, &actions);
            out(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
        }
    }
    Ok(EXIT_OK)
}

pub(super) fn perft(args: &PerftArgs) -> anyhow::Result<u8> {
    let (state, _) = match position(&args.position)? {
        Ok(found) => found,
        Err(code) => return Ok(code),
    };
    let depth = args.depth;
    estimate_perft(&state, depth, args.allow_long)?;
    // Ctrl-C stops the count: with --divide, the first actions counted so
    // far are printed; either way the run says it was interrupted.
    let stop = super::stop_on_ctrl_c();
    let interrupted = || {
        super::err("interrupted: the count did not finish\n");
        Ok(super::EXIT_INTERRUPTED)
    };
    if args.divide {
        let mut total = 0u64;
        if depth > 0 {
            for action in state.legal_actions().sorted() {
                let mut next = state;
                next.play_unchecked(action);
                let Some(count) = rules::perft_until(&next, depth - 1, &stop) else { return interrupted() };
                out(&format!("{action}: {count}\n"))?;
                total += count;
            }
        }
        out(&format!("\n{}\n", if depth == 0 { 1 } else { total }))?;
    } else {
        let Some(count) = rules::perft_until(&state, depth, &stop) else { return interrupted() };
        out(&format!("{count}\n"))?;
    }
    Ok(EXIT_OK)
}

/// The depth from which a count is measured first.
const MEASURED_DEPTH: u32 = 3;

/// Above [`MEASURED_DEPTH`], a count's cost: the count at that depth is
/// made and timed, the tree taken to keep branching as it did from depth
/// 2 to 3, and the estimate said or refused as [`super::cost`] does.
fn estimate_perft(state: &GameState, depth: u32, allow_long: bool) -> anyhow::Result<()> {
    if depth <= MEASURED_DEPTH {
        return Ok(());
    }
    let below = rules::perft(state, MEASURED_DEPTH - 1);
    let (measured, time) = super::cost::timed(|| rules::perft(state, MEASURED_DEPTH));
    if measured == 0 || below == 0 {
        return Ok(());
    }
    let branching = measured as f64 / below as f64;
    let sequences =
        measured as f64 * branching.powi(i32::try_from(depth - MEASURED_DEPTH).unwrap_or(i32::MAX));
    super::cost::Estimate {
        what: format!(
            "counting to depth {depth} (about {sequences:.1e} sequences, {branching:.0} actions a position)"
        ),
        each: time / u32::try_from(measured).unwrap_or(u32::MAX).max(1),
        units: sequences,
        threads: 1,
    }
    .check(allow_long)
}
