//! A game client in miniature: reads a level pack, sets up one of its
//! levels and lets two agents play it, printing every action and the
//! result. It uses `pushcrate-core` alone, no GUI and no command-line
//! crate, as a client of the pack format would.
//!
//! ```text
//! cargo run -p pushcrate-core --example client -- [PACK.toml] [LEVEL] [AGENT,AGENT]
//! cargo run -p pushcrate-core --example client -- mazes/default.toml open hard,expert
//! ```
//!
//! Without arguments it plays the bundled pack's first level, easy against
//! medium.

use std::process::ExitCode;

use pushcrate_core::ai::Agent;
use pushcrate_core::level::DEFAULT_PACK_TOML;
use pushcrate_core::level::format::{line_col, parse_pack};
use pushcrate_core::rules::format_actions;

/// Games longer than this are stopped and reported unfinished.
const MAX_ACTIONS: u32 = 400;

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("client: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let (name, text) = match args.first() {
        Some(path) => {
            (path.clone(), std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?)
        }
        None => ("the bundled pack".to_owned(), DEFAULT_PACK_TOML.to_owned()),
    };
    // Every problem is listed, with its line and column where it has one;
    // a pack with errors still reads, but its broken levels cannot be played.
    let parsed = parse_pack(&text);
    for problem in &parsed.problems {
        match &problem.span {
            Some(span) => {
                let (line, column) = line_col(&text, span.start);
                eprintln!("{name}:{line}:{column}: {problem}");
            }
            None => eprintln!("{name}: {problem}"),
        }
    }
    let pack = parsed.pack.ok_or_else(|| format!("{name} is not a pack"))?;
    let level = match args.get(1) {
        Some(id) => pack.level(id).ok_or_else(|| format!("{name} has no level `{id}`"))?,
        None => pack.levels.first().ok_or_else(|| format!("{name} has no level"))?,
    };
    let agents = args.get(2).map_or("easy,medium", String::as_str);
    let (first, second) =
        agents.split_once(',').ok_or_else(|| format!("agents are `A,B`, not `{agents}`"))?;
    let parse = |a: &str| a.parse::<Agent>().map_err(|e| e.to_string());
    let mut players = [parse(first)?.build(1), parse(second)?.build(2)];

    let playable = level.playable(pack.rules).map_err(|e| format!("level `{}`: {e}", level.id))?;
    let mut state = *playable.start();
    let mut actions = Vec::new();
    while !state.is_over() && state.actions_played() < MAX_ACTIONS {
        let action = players[state.turn().index()].choose(&state);
        state.play(action).map_err(|e| format!("{action}: {e}"))?;
        actions.push(action);
    }
    println!("{} ({first} as player 1, {second} as player 2)", level.id);
    println!("{}", format_actions(&actions));
    match state.outcome() {
        Some(outcome) => println!("{outcome} after {} actions", state.actions_played()),
        None => println!("unfinished after {MAX_ACTIONS} actions"),
    }
    Ok(())
}
