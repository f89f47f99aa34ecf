//! `pushcrate selfplay` and `pushcrate solve`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, bail};

use super::{EXIT_OK, EXIT_PROBLEMS, OutputFormat, diagnostics, load};
use crate::ai::{Agent, solve};
use crate::analysis::Verdict;
use crate::level::Pack;
use crate::rules::{GameState, format_actions};
use crate::sim::{self, Config, Report};

/// What `selfplay` was asked.
#[derive(Debug, clap::Args)]
pub struct SelfPlayArgs {
    /// The pack file; `@default` is the bundled pack.
    pub pack: PathBuf,
    /// The level to play.
    #[arg(long, conflicts_with = "all")]
    pub level: Option<String>,
    /// Play every level of the pack.
    #[arg(long)]
    pub all: bool,
    /// Games per level (rounded up to whole colour-swapped pairs).
    #[arg(long, default_value_t = 400)]
    pub games: u32,
    /// The two agents, `A,B`: easy, medium, hard, expert, random, `greedy[:NOISE]`,
    /// `alphabeta[:DEPTH[:NODES]]`, `mcts[:ITERATIONS]`.
    #[arg(long, value_parser = parse_agents, default_value = "greedy,greedy")]
    pub agents: [Agent; 2],
    /// The run's seed: the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Actions after which a game counts as stalled.
    #[arg(long, default_value_t = 300)]
    pub max_actions: u32,
    /// Worker threads (0: every core). Does not change the results.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
    /// Save every stalled game as a game record in this folder.
    #[arg(long)]
    pub save_stalls: Option<PathBuf>,
}

/// Reads `A,B` as two agents.
pub(super) fn parse_agents(text: &str) -> Result<[Agent; 2], String> {
    let (a, b) = text.split_once(',').ok_or_else(|| format!("`{text}` is not two agents `A,B`"))?;
    Ok([a.trim().parse()?, b.trim().parse()?])
}

fn load_pack(path: &Path) -> anyhow::Result<Result<Pack, u8>> {
    let loaded = load(path)?;
    match loaded.parsed.pack {
        Some(pack) if !loaded.parsed.has_errors() => Ok(Ok(pack)),
        _ => {
            let again = load(path)?;
            eprint!("{}", diagnostics::render(&again, std::io::stderr().is_terminal()));
            Ok(Err(EXIT_PROBLEMS))
        }
    }
}

fn stop_on_ctrl_c() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    // A second handler cannot be set in the same process; the run then
    // simply cannot be interrupted early, which loses nothing.
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    stop
}

pub(super) fn selfplay(args: &SelfPlayArgs) -> anyhow::Result<u8> {
    let pack = match load_pack(&args.pack)? {
        Ok(pack) => pack,
        Err(code) => return Ok(code),
    };
    let levels: Vec<_> = match (&args.level, args.all) {
        (Some(id), false) => match pack.level(id) {
            Some(level) => vec![level.clone()],
            None => bail!("the pack has no level `{id}`"),
        },
        (None, true) => pack.levels.clone(),
        _ => bail!("name one level with --level ID, or all of them with --all"),
    };
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let config = Config {
        agents: args.agents,
        games: args.games,
        seed: args.seed,
        max_actions: args.max_actions,
        threads: args.threads,
    };
    let stop = stop_on_ctrl_c();
    let mut reports = Vec::new();
    for level in &levels {
        let start: GameState =
            level.start_state(pack.rules).map_err(|e| anyhow::anyhow!("level `{}`: {e}", level.id))?;
        let total = u64::from(args.games.div_ceil(2) * 2);
        let bar = super::progress_bar(total, "{msg:12} [{bar:40}] {pos}/{len} games, {eta} left");
        bar.set_message(level.id.clone());
        let results = sim::run(&start, &config, &|| bar.inc(1), &stop);
        bar.finish_and_clear();
        let interrupted = stop.load(Ordering::Relaxed);
        if let Some(dir) = &args.save_stalls {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            for result in results.iter().filter(|r| r.stalled()) {
                let path = dir.join(format!("{}-game{}.record", level.id, result.index));
                let text = format!("{}\n", sim::record(&level.id, result));
                atomic_write(&path, &text)?;
            }
        }
        let names = args.agents.map(|a| a.to_string());
        reports.push(Report::new(&level.id, names, level.first, &results, interrupted));
        if interrupted {
            break;
        }
    }
    match args.format {
        OutputFormat::Json => {
            println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "levels": reports }))?)
        }
        OutputFormat::Text => {
            for report in &reports {
                print!("{}", text(report));
            }
        }
    }
    Ok(EXIT_OK)
}

pub(super) fn atomic_write(path: &Path, text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut file = atomic_write_file::AtomicWriteFile::options()
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    file.write_all(text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
    file.commit().with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn text(r: &Report) -> String {
    let mut out = format!(
        "level `{}`: {} games, {} (A) against {} (B){}\n",
        r.level,
        r.games,
        r.agents[0],
        r.agents[1],
        if r.interrupted { " — interrupted, results so far" } else { "" }
    );
    out += &format!(
        "  wins: player 1 {}, player 2 {}; agent A {}, agent B {}; by flag {}, by crates {}\n",
        r.wins_by_player[0],
        r.wins_by_player[1],
        r.wins_by_agent[0],
        r.wins_by_agent[1],
        r.wins_by_flag,
        r.wins_by_crates
    );
    out += &format!(
        "  draws {}, stalls {} ({} [{} – {}])\n",
        r.draws,
        r.stalls,
        pct(r.stall_rate.rate),
        pct(r.stall_rate.low),
        pct(r.stall_rate.high)
    );
    out += &format!(
        "  first player (player {}) scores {} [{} – {}]; advantage {:+.1} points; balance {:.3}\n",
        r.first_player,
        pct(r.first_player_score.rate),
        pct(r.first_player_score.low),
        pct(r.first_player_score.high),
        100.0 * r.first_player_advantage,
        r.balance
    );
    out += &format!(
        "  agent A scores {} [{} – {}]\n",
        pct(r.agent_a_score.rate),
        pct(r.agent_a_score.low),
        pct(r.agent_a_score.high)
    );
    out += &format!(
        "  length: mean {:.1}, median {:.1}, 90th percentile {:.1}, spread {:.1}\n",
        r.length.mean, r.length.median, r.length.p90, r.length.spread
    );
    let mut verdicts = Vec::new();
    if r.verdicts.unbalanced {
        verdicts.push("UNBALANCED (the first player's interval lies outside 40–60%)");
    }
    if r.verdicts.stall_prone {
        verdicts.push("STALL-PRONE (more than 5% of games stall)");
    }
    out += &format!(
        "  verdict: {}\n\n",
        if verdicts.is_empty() { "balanced, not stall-prone".to_owned() } else { verdicts.join("; ") }
    );
    out
}

/// What `solve` was asked.
pub(super) struct SolveArgs {
    pub position: super::play::PositionArgs,
    pub depth: u32,
    pub budget: u64,
    pub format: OutputFormat,
}

pub(super) fn solve_command(args: &SolveArgs) -> anyhow::Result<u8> {
    let (state, _) = match super::play::position(&args.position)? {
        Ok(found) => found,
        Err(code) => return Ok(code),
    };
    let stop = stop_on_ctrl_c();
    let (verdict, nodes) = solve(&state, args.depth, args.budget, Some(&stop));
    match args.format {
        OutputFormat::Json => {
            let report = serde_json::json!({
                "level": args.position.level,
                "to_move": state.turn().number(),
                "depth": args.depth,
                "budget": args.budget,
                "nodes": nodes,
                "verdict": verdict,
            });
            println!("{}", serde_json::to_string_pretty(&report)?);
        }
        OutputFormat::Text => {
            let mover = state.turn();
            match &verdict {
                Verdict::Proved { line } => println!(
                    "proved: {mover} forces a win within {} actions: {} ({nodes} positions)",
                    line.len(),
                    format_actions(line)
                ),
                Verdict::Disproved => {
                    println!(
                        "disproved: {mover} has no forced win within {} actions ({nodes} positions)",
                        args.depth
                    );
                }
                Verdict::Unknown => println!("unknown within the budget of {} positions", args.budget),
            }
        }
    }
    Ok(EXIT_OK)
}
