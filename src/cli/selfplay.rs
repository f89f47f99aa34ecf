//! `pushcrate selfplay` and `pushcrate solve`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, bail};

use super::{EXIT_INTERRUPTED, EXIT_OK, OutputFormat, clean, err, load_valid, out, shard};
use crate::ai::{Agent, solve};
use crate::analysis::Answer;
use crate::files::write_file;
use crate::level::{Level, Playable};
use crate::rules::{Rules, format_actions};
use crate::sim::{self, Config, Report};

/// What `selfplay` was asked.
#[derive(Debug, clap::Args)]
pub struct SelfPlayArgs {
    /// The pack file; `@default` is the bundled pack, `@flawed` the bundled
    /// flawed levels.
    pub pack: PathBuf,
    /// The level to play.
    #[arg(long, conflicts_with = "all")]
    pub level: Option<String>,
    /// Play every level of the pack.
    #[arg(long)]
    pub all: bool,
    /// A fixed number of games per pairing, 1 to 1,000,000 (rounded up to
    /// whole colour-swapped pairs). Without it each pairing stops as soon
    /// as a sequential test on the pairs has its verdict (α = β = 5% at
    /// each edge of 40–60%, ±5 points: `--error`, `--zone`), within 400
    /// games.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_GAMES)))]
    pub games: Option<u32>,
    /// The most games per pairing of the sequential check, 2 to
    /// 1,000,000 (without --games).
    #[arg(long, default_value_t = sim::SEQUENTIAL_CAP, conflicts_with = "games", value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_GAMES)))]
    pub cap: u32,
    /// The sequential test's error rate at each edge, in percent, 1 to 20
    /// (α = β; without --games): the chance of calling a level that scores
    /// `--zone` points inside an edge unbalanced there, or one that scores
    /// as far outside balanced. A larger rate settles sooner (docs/ai.md).
    #[arg(long, default_value_t = 5.0, conflicts_with = "games", value_parser = parse_error_rate)]
    pub error: f64,
    /// The sequential test's indifference zone, in points each side of an
    /// edge of 40–60%, 1 to 10 (without --games): a level scoring within
    /// it may be called either way. A wider zone settles sooner and
    /// promises less (docs/ai.md).
    #[arg(long, default_value_t = 5.0, conflicts_with = "games", value_parser = parse_zone)]
    pub zone: f64,
    /// The two agents, `A,B`: easy, medium, hard, expert, deep, master,
    /// random, `greedy[:NOISE]`, `alphabeta[:DEPTH[:NODES[:OPTION…]]]`
    /// (options `reuse`, `prune`, `null`, `narrow`, and `hand`, `fitted` or `weights=W1_W2_…`, one
    /// weight per feature as `pushcrate tune` prints them: the evaluation),
    /// `mcts[:ITERATIONS]`; the verdict is then this pairing's alone.
    /// Without it the level is checked under two strong pairings,
    /// expert,expert and deep,deep (six turns, 150,000 positions), and
    /// called balanced or unbalanced only where both agree: a verdict
    /// from one depth-limited agent is the agent's, not the level's.
    /// Where they disagree the verdict is uncertain, with both results
    /// (`--referee` settles it with master).
    #[arg(long, value_parser = parse_agents)]
    pub agents: Option<[Agent; 2]>,
    /// Where expert and deep disagree, play master against master as
    /// referee: the verdict holds where master and one pairing share it.
    /// Master beats both head to head, and its games make a disputed
    /// level's check take minutes (docs/ai.md).
    #[arg(long, conflicts_with_all = ["agents", "skill_trace"])]
    pub referee: bool,
    /// The evaluation of the check's agents, expert, deep and master:
    /// `fitted` (fitted to game outcomes, the default) or `hand` (as
    /// versions before it played, to replay an earlier verdict beside
    /// today's). `--agents` names its own (`alphabeta:6:150000:hand`).
    #[arg(long, value_enum, default_value_t, conflicts_with_all = ["agents", "skill_trace", "head_to_head"])]
    pub evaluation: super::Evaluation,
    /// The check's pairings, in the order they play, in place of expert's
    /// and deep's: `A,B/C,D/…`, each pairing as `--agents` names it (`expert,expert/alphabeta:6:150000:hand,alphabeta:6:150000:hand`).
    /// A level is balanced or unbalanced where every pairing agrees;
    /// `--referee` (master) settles a disagreement.
    #[arg(long, value_parser = parse_pairings, conflicts_with_all = ["agents", "evaluation", "skill_trace", "head_to_head"])]
    pub pairings: Option<Pairings>,
    /// The run's seed: the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Actions after which a game counts as stalled, 1 to 100,000.
    #[arg(long, default_value_t = sim::MAX_ACTIONS, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_actions: u32,
    /// Actions at the start of each game played at random (steps, pushes
    /// and jumps where there are any), the same for both games of a pair,
    /// so that strong agents play different games; 0 to 40.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub opening: u32,
    /// Worker threads, 0 to 256 (0: every core). Does not change the results.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
    /// Save every stalled game as a game record in this folder.
    #[arg(long)]
    pub save_stalls: Option<PathBuf>,
    /// Save every game, won, drawn or stalled, as a game record in this
    /// folder: to replay in the editor what the agents played.
    #[arg(long, conflicts_with = "save_stalls")]
    pub save_games: Option<PathBuf>,
    /// Instead of the balance check, the skill trace: the first player's
    /// score with each strength on both sides, easy, medium, hard, expert,
    /// deep and master, with `--games` games each (20 unless given). Master
    /// takes minutes.
    #[arg(long, conflicts_with_all = ["agents", "save_stalls", "save_games"])]
    pub skill_trace: bool,
    /// Instead of the balance check, agent A against agent B (`--agents
    /// A,B`) head to head: a sequential test on A's score over the
    /// colour-swapped pairs says whether A beats B, scoring above 60%
    /// (α = β = 5% at 55% and 65%; `--error` and `--zone` change them),
    /// within `--cap` games.
    #[arg(long, requires = "agents", conflicts_with_all = ["games", "skill_trace"])]
    pub head_to_head: bool,
    /// With `--head-to-head`, also say how long each agent took a
    /// decision over the games, and A's time as a share of B's: both
    /// measured in the same games on the same threads, so that a busy
    /// machine slows both alike. Wall time on the games' threads (CPU time
    /// where nothing else runs on their cores); the report is otherwise
    /// the same.
    #[arg(long, requires = "head_to_head")]
    pub time_decisions: bool,
    /// Start a run of fixed length (`--games`, `--skill-trace`) even where
    /// its cost, measured on one pair of games first, is over an hour;
    /// without it such a run is refused with the estimate.
    #[arg(long)]
    pub allow_long: bool,
    /// Play only shard K of N of the levels (with `--all`) and write a
    /// shard report for `pushcrate merge` (docs/sharding.md). A level's
    /// shard comes from a hash of its id, and its games from the seed and
    /// the level alone: the merged report is the one a single run writes.
    #[arg(long, requires = "all", conflicts_with_all = ["format", "skill_trace", "head_to_head"])]
    pub shard: Option<crate::level::shard::Shard>,
}

/// The most games one self-play run plays per level.
pub const MAX_GAMES: u32 = 1_000_000;

/// The most worker threads a run may ask for.
pub const MAX_THREADS: usize = 256;

pub(super) fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n <= MAX_THREADS => Ok(n),
        _ => Err(format!("`{text}` is not a number of threads from 0 (every core) to {MAX_THREADS}")),
    }
}

/// Reads a percentage from `low` to `high`.
fn parse_percent(text: &str, what: &str, low: f64, high: f64) -> Result<f64, String> {
    match text.trim().trim_end_matches('%').parse::<f64>() {
        Ok(value) if (low..=high).contains(&value) => Ok(value),
        _ => Err(format!("`{text}` is not {what} from {low} to {high}")),
    }
}

fn parse_error_rate(text: &str) -> Result<f64, String> {
    parse_percent(text, "an error rate in percent", 1.0, 20.0)
}

fn parse_zone(text: &str) -> Result<f64, String> {
    parse_percent(text, "an indifference zone in points", 1.0, 10.0)
}

impl SelfPlayArgs {
    /// The options that change a sharded run's report, by name: shards
    /// that differ in any are not shares of one run.
    fn identity(&self) -> std::collections::BTreeMap<String, String> {
        let agents = self.agents.map(|[a, b]| format!("{a},{b}"));
        super::shard::options([
            ("games", format!("{:?}", self.games)),
            ("cap", self.cap.to_string()),
            ("error", self.error.to_string()),
            ("zone", self.zone.to_string()),
            ("agents", format!("{agents:?}")),
            ("referee", self.referee.to_string()),
            ("evaluation", format!("{:?}", self.evaluation)),
            (
                "pairings",
                format!(
                    "{:?}",
                    self.pairings.as_ref().map(|p| p
                        .0
                        .iter()
                        .map(|[a, b]| format!("{a},{b}"))
                        .collect::<Vec<_>>()
                        .join("/"))
                ),
            ),
            ("seed", self.seed.to_string()),
            ("max-actions", self.max_actions.to_string()),
            ("opening", self.opening.to_string()),
        ])
    }

    /// The folder game records go to and which games, from
    /// `--save-stalls` or `--save-games`.
    fn saving(&self) -> Option<(&Path, Saved)> {
        let stalls = self.save_stalls.as_deref().map(|dir| (dir, Saved::Stalls));
        stalls.or_else(|| self.save_games.as_deref().map(|dir| (dir, Saved::All)))
    }

    /// The sequential test's design from `--error` and `--zone`.
    fn design(&self) -> sim::Design {
        let error = self.error / 100.0;
        sim::Design { alpha: error, beta: error, width: self.zone / 100.0 }
    }
}

/// Reads `A,B` as two agents.
pub(super) fn parse_agents(text: &str) -> Result<[Agent; 2], String> {
    let (a, b) = text.split_once(',').ok_or_else(|| format!("`{text}` is not two agents `A,B`"))?;
    let agent = |text: &str| text.trim().parse::<Agent>().map_err(|e| e.to_string());
    Ok([agent(a)?, agent(b)?])
}

/// A balance check's pairings, as `--pairings` names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairings(pub Vec<[Agent; 2]>);

/// The most pairings `--pairings` takes.
const MAX_PAIRINGS: usize = 8;

fn parse_pairings(text: &str) -> Result<Pairings, String> {
    let pairings = text.split('/').map(parse_agents).collect::<Result<Vec<_>, _>>()?;
    if pairings.len() > MAX_PAIRINGS {
        return Err(format!("{} pairings: at most {MAX_PAIRINGS}", pairings.len()));
    }
    Ok(Pairings(pairings))
}

impl SelfPlayArgs {
    /// The balance check this run plays: one pairing (`--agents`), the
    /// pairings named (`--pairings`), or the default check with the
    /// evaluation asked; with `--referee`, master settles a disagreement.
    fn plan<'a>(&'a self, single: &'a Option<[[Agent; 2]; 1]>) -> sim::Plan<'a> {
        let referee = self.referee.then_some(sim::REFEREE);
        match (single, &self.pairings) {
            (Some(one), _) => sim::Plan::only(one),
            (None, Some(Pairings(pairings))) => sim::Plan { pairings, referee },
            (None, None) => sim::strong(self.evaluation.eval(), self.referee),
        }
    }
}

pub(super) fn selfplay(args: &SelfPlayArgs) -> anyhow::Result<u8> {
    let (file, pack) = match load_valid(&args.pack)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let levels: Vec<_> = match (&args.level, args.all) {
        (Some(id), false) => match pack.level(id) {
            Some(level) => vec![level.clone()],
            None => bail!("the pack has no level `{}`", clean(id)),
        },
        (None, true) => pack.levels.clone(),
        _ => bail!("name one level with --level ID, or all of them with --all"),
    };
    let ids: Vec<String> = levels.iter().map(|level| level.id.clone()).collect();
    let levels: Vec<_> = match args.shard {
        Some(shard) => levels.into_iter().filter(|level| shard.owns(&level.id)).collect(),
        None => levels,
    };
    let saving = args.saving();
    if let Some((dir, _)) = saving {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create {}", crate::files::shown(dir)))?;
    }
    estimate_fixed_run(args, &levels, pack.rules)?;
    if args.skill_trace {
        return skill_trace_command(args, &levels, pack.rules);
    }
    if let (true, Some(agents)) = (args.head_to_head, args.agents) {
        return head_to_head_command(args, agents, &levels, pack.rules);
    }
    let single = args.agents.map(|agents| [agents]);
    let plan = args.plan(&single);
    let config = Config {
        agents: plan.pairings[0],
        games: args.games.unwrap_or(args.cap),
        seed: args.seed,
        max_actions: args.max_actions,
        threads: args.threads,
        opening: args.opening,
        sequential: args.games.is_none().then_some(args.design()),
    };
    let stop = super::stop_on_ctrl_c();
    let mut checks = Vec::new();
    for level in &levels {
        let playable = super::playable(level, pack.rules)?;
        let (check, games) = check_level(&playable, plan, &config, &stop);
        if let Some((dir, which)) = saving {
            save_records(dir, which, level, pack.rules, &games)?;
        }
        let interrupted = check.interrupted;
        checks.push(check);
        if interrupted {
            break;
        }
    }
    let interrupted = stop.load(Ordering::Relaxed);
    let mut run_pack = shard::PackRun::new(&file.name, &file.text, ids);
    run_pack.parts = checks
        .iter()
        .map(|check| shard::LevelPart {
            level: check.level.clone(),
            text: check_text(check),
            json: super::report::balance_check(check),
            tally: [0; 3],
            fails: false,
        })
        .collect();
    let run = shard::Run { command: shard::Command::Selfplay, packs: vec![run_pack], interrupted };
    match args.shard {
        Some(part) => shard::write_shard(run, part, args.identity())?,
        None => out(&shard::render(&run, args.format)?.0)?,
    }
    Ok(exit_code(interrupted))
}

/// The balance check of one level under `plan`, its progress on a bar;
/// with every pairing's games.
fn check_level(
    playable: &Playable,
    plan: sim::Plan<'_>,
    config: &Config,
    stop: &Arc<AtomicBool>,
) -> (sim::BalanceCheck, Vec<Vec<sim::GameResult>>) {
    let per_run = u64::from(config.games).div_ceil(2) * 2;
    let bar = super::progress_bar(
        per_run * plan.pairings.len() as u64,
        "{msg} [{bar:30}] {pos}/{len} games at most",
    );
    let id = playable.id();
    bar.set_message(id.to_owned());
    let tick = |tick: sim::Tick| match tick {
        sim::Tick::Game => bar.inc(1),
        sim::Tick::MoreGames(n) => {
            bar.inc_length(u64::from(n));
            bar.set_message(format!("{id} (referee)"));
        }
        sim::Tick::FewerGames(n) => bar.set_length(bar.length().unwrap_or(0).saturating_sub(u64::from(n))),
        sim::Tick::Look { pairing, test } => {
            let agent = plan.agent(pairing).map(Agent::short_name);
            bar.set_message(format!("{id} {}: {}", agent.unwrap_or_default(), look_text(&test)));
        }
    };
    let (check, games) = sim::check_balance(playable, plan, config, &tick, stop);
    bar.finish_and_clear();
    (check, games)
}

/// Which games `--save-stalls` and `--save-games` write.
#[derive(Clone, Copy)]
enum Saved {
    /// The stalled games.
    Stalls,
    /// Every game.
    All,
}

/// Writes the games of `games` (a check's, one list per pairing, or a
/// head-to-head test's) that `which` names to `dir`, each as a game
/// record.
fn save_records(
    dir: &Path,
    which: Saved,
    level: &Level,
    rules: Rules,
    games: &[Vec<sim::GameResult>],
) -> anyhow::Result<()> {
    let saved = |result: &&sim::GameResult| match which {
        Saved::Stalls => result.stalled(),
        Saved::All => true,
    };
    for (run, results) in games.iter().enumerate() {
        for result in results.iter().filter(saved) {
            let name = if games.len() > 1 {
                format!("{}-run{}-game{}.record", level.id, run + 1, result.index)
            } else {
                format!("{}-game{}.record", level.id, result.index)
            };
            let text = format!("{}\n", sim::record(level, rules, result));
            write_file(&dir.join(name), text.as_bytes())?;
        }
    }
    Ok(())
}

/// Games over which a run of fixed length is measured before it starts.
const ESTIMATE_ABOVE: u64 = 1_000;

/// A run of fixed length (`--games`, or the skill trace) of more than
/// [`ESTIMATE_ABOVE`] games: its cost is measured on one colour-swapped
/// pair of its costliest agents on the first level, on one thread, then
/// said, or refused past an hour without `--allow-long` (see
/// [`super::cost`]). The sequential check and the head-to-head test stop
/// at their verdict, usually within a few hundred games, and are not
/// estimated.
fn estimate_fixed_run(
    args: &SelfPlayArgs,
    levels: &[crate::level::Level],
    rules: crate::rules::Rules,
) -> anyhow::Result<()> {
    let (agents, each, runs, what) = match (args.skill_trace, args.games) {
        // Master's games are the trace's cost.
        (true, games) => {
            let each = u64::from(games.unwrap_or(sim::TRACE_GAMES).div_ceil(2) * 2);
            ([sim::TRACE[sim::TRACE.len() - 1].1; 2], each, sim::TRACE.len() as u64, "strengths")
        }
        (false, Some(games)) if !args.head_to_head => {
            let each = u64::from(games.div_ceil(2) * 2);
            if let Some(agents) = args.agents {
                return estimate_games(args, levels, rules, agents, (each, 1, "pairings"));
            }
            let plan = args.plan(&None);
            // Every pairing of the plan plays the games; the referee's only
            // where the others disagree.
            let pairings = plan.pairings.len() as u64 - u64::from(args.referee);
            (plan.pairings[0], each, pairings, "pairings")
        }
        _ => return Ok(()),
    };
    estimate_games(args, levels, rules, agents, (each, runs, what))
}

/// [`estimate_fixed_run`] for `runs` runs (of `what`: pairings,
/// strengths) of `each` games on every level, measured with `agents`.
fn estimate_games(
    args: &SelfPlayArgs,
    levels: &[crate::level::Level],
    rules: crate::rules::Rules,
    agents: [Agent; 2],
    (each, runs, what): (u64, u64, &str),
) -> anyhow::Result<()> {
    let games = each * runs * levels.len() as u64;
    let Some(first) = levels.first() else { return Ok(()) };
    if games <= ESTIMATE_ABOVE {
        return Ok(());
    }
    let start = *super::playable(first, rules)?.start();
    let sample = Config {
        agents,
        games: 2,
        seed: args.seed,
        max_actions: args.max_actions,
        threads: 1,
        opening: args.opening,
        sequential: None,
    };
    let never = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (played, time) = super::cost::timed(|| sim::run(&start, &sample, &|| {}, &never).len());
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        n => n,
    };
    super::cost::Estimate {
        what: format!(
            "{} games ({} for each of {runs} {what} on {} level{})",
            thousands(games),
            thousands(each),
            levels.len(),
            if levels.len() == 1 { "" } else { "s" }
        ),
        each: time / u32::try_from(played.max(1)).unwrap_or(1),
        units: games as f64,
        threads,
    }
    .check(args.allow_long)
}

/// `n` with thousands separated by commas: "1,000,000".
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The sequential test as the progress line shows it: the first player's
/// score and interval against the band, and the verdict once settled.
fn look_text(test: &sim::Sequential) -> String {
    let (low, high) = test.pairs.interval();
    let mean = test.pairs.mean();
    let band = band_bar(low, high);
    format!("{} [{}–{}] {band} {}", pct(mean), pct(low), pct(high), test.decision.describe())
}

/// The interval `low`–`high` drawn on a 20-character scale from 0 to
/// 100%, with the 40–60% band marked: `....|==###=|.........`.
fn band_bar(low: f64, high: f64) -> String {
    (0..20)
        .map(|i| {
            let (a, b) = (f64::from(i) / 20.0, f64::from(i + 1) / 20.0);
            let inside = b > low && a < high;
            let band = a >= sim::BAND.0 - 1e-9 && b <= sim::BAND.1 + 1e-9;
            match (inside, band) {
                (true, _) => '#',
                (false, true) => '=',
                (false, false) => '.',
            }
        })
        .collect()
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The scores and lengths of a report with at least one game.
fn scores_text(r: &Report) -> String {
    let mut out = String::new();
    out += &format!(
        "  first player ({}) scores {} [{} – {}]; advantage {:+.1} points; balance {:.3}\n",
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
    out
}

fn text(r: &Report) -> String {
    let mut out = format!(
        "level `{}`: {} games ({} distinct), {} (A) against {} (B){}\n",
        clean(&r.level),
        r.games,
        r.distinct_games,
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
        "  draws {}, stalls {} ({} [{} – {}]), draws by repetition {} ({} [{} – {}])\n",
        r.draws,
        r.stalls,
        pct(r.stall_rate.rate),
        pct(r.stall_rate.low),
        pct(r.stall_rate.high),
        r.repetitions,
        pct(r.repetition_rate.rate),
        pct(r.repetition_rate.low),
        pct(r.repetition_rate.high)
    );
    if r.games == 0 {
        out += "  no game finished: no score, balance or length to report\n";
    } else {
        out += &scores_text(r);
    }
    let mut verdicts = Vec::new();
    let sequential = r.sequential.is_some();
    if r.verdicts.unbalanced {
        verdicts.push(if sequential {
            "UNBALANCED (the sequential test settles the first player's score outside 40–60%)"
        } else {
            "UNBALANCED (the first player's interval lies outside 40–60%)"
        });
    }
    if r.verdicts.uncertain {
        verdicts.push(if sequential {
            "UNCERTAIN (the sequential test did not settle before its cap or the stop)"
        } else {
            "UNCERTAIN (the first player's interval reaches past 40–60%: too few distinct games to tell)"
        });
    }
    if r.verdicts.stall_prone {
        verdicts.push("STALL-PRONE (the stall rate's interval lies above 5%)");
    }
    let verdict = if r.games == 0 {
        "none: no game finished".to_owned()
    } else if verdicts.is_empty() && sequential {
        "balanced (the sequential test settles the first player's score within 40–60%), not stall-prone"
            .to_owned()
    } else if verdicts.is_empty() {
        "balanced (the first player's interval lies within 40–60%), not stall-prone".to_owned()
    } else {
        verdicts.join("; ")
    };
    if let Some(test) = &r.sequential {
        let verdict = match test.decision {
            sim::Decision::Open => "not settled".to_owned(),
            sim::Decision::Balanced => "balanced".to_owned(),
            sim::Decision::FirstAhead => format!("{} ahead", r.first_player),
            sim::Decision::SecondAhead => format!("{} ahead", r.first_player.other()),
            sim::Decision::NotFirstAhead => format!("{} not ahead (all the check asked)", r.first_player),
            sim::Decision::NotSecondAhead => {
                format!("{} not ahead (all the check asked)", r.first_player.other())
            }
            sim::Decision::Uncertain => "uncertain at the cap".to_owned(),
        };
        out += &format!(
            "  sequential test: {verdict} after {} pairs ({} distinct, pentanomial {:?}); log-likelihood ratios {:.2} at 60%, {:.2} at 40%, bounds {:.2} and {:.2}\n",
            test.games / 2,
            test.pairs.pairs(),
            test.pairs.counts,
            test.llr[0],
            test.llr[1],
            test.design.lower(),
            test.design.upper()
        );
        if test.design != sim::Design::DEFAULT {
            out += &format!(
                "  the test's design: α = β = {}% at each edge, indifference ±{} points\n",
                (test.design.alpha * 1000.0).round() / 10.0,
                (test.design.width * 1000.0).round() / 10.0
            );
        }
    }
    let partial =
        if r.interrupted && r.games > 0 { " (from the games finished before the interruption)" } else { "" };
    out += &format!("  this pairing's verdict: {verdict}{partial}\n");
    out
}

/// A level's check: the solver's word, each pairing's report, and the
/// verdict that holds under all of them.
fn check_text(check: &sim::BalanceCheck) -> String {
    let mut out = String::new();
    if let Some(forced) = &check.forced_win {
        out += &format!(
            "level `{}`: settled by the solver: {} forces a win in {} actions: {}\n",
            clean(&check.level),
            forced.player,
            forced.line.len(),
            format_actions(&forced.line)
        );
    }
    for run in &check.reports {
        out += &text(run);
    }
    let verdict = if check.reports.iter().all(|r| r.games == 0) && check.forced_win.is_none() {
        "none: no game finished".to_owned()
    } else {
        check.summary()
    };
    let partial = if check.interrupted { " (from the games finished before the interruption)" } else { "" };
    let label = match check.reports.len() {
        0 | 1 => "verdict",
        2 => "verdict under both pairings",
        _ => "verdict under the pairings and the referee",
    };
    out += &format!("  {label}: {verdict}{partial}\n");
    for sentence in &check.why {
        out += &format!("  why: {}\n", clean(sentence));
    }
    let d = &check.decisions;
    if d.games > 0 {
        out += &format!("  where the {} games were decided (the top cells, with how many times):\n", d.games);
        for event in sim::Event::ALL {
            let top = d.top(event);
            if top.is_empty() {
                continue;
            }
            let cells: Vec<String> = top.iter().take(5).map(|(cell, n)| format!("{cell} {n}")).collect();
            out += &format!("    {}: {}\n", event.describe(), cells.join(", "));
        }
    }
    out += "\n";
    out
}

/// The deepest search `solve` runs.
pub const MAX_SOLVE_DEPTH: u32 = 200;

/// What `solve` was asked.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// The position.
    #[command(flatten)]
    pub position: super::play::PositionArgs,
    /// Actions to look ahead, 1 to 200.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_SOLVE_DEPTH)))]
    pub depth: u32,
    /// Positions to search at most.
    #[arg(long, default_value_t = 5_000_000)]
    pub budget: u64,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
}

pub(super) fn solve_command(args: &SolveArgs) -> anyhow::Result<u8> {
    let (state, _) = match super::play::position(&args.position)? {
        Ok(found) => found,
        Err(code) => return Ok(code),
    };
    if let Some(outcome) = state.outcome() {
        bail!("the game is already over after these actions ({}): there is no move to solve for", outcome);
    }
    let stop = super::stop_on_ctrl_c();
    let (verdict, nodes) = solve(&state, args.depth, args.budget, Some(&stop));
    match args.format {
        OutputFormat::Json => {
            let report = super::report::solve(
                &args.position.level,
                &state,
                (args.depth, args.budget),
                nodes,
                &verdict,
            );
            out(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
        }
        OutputFormat::Text => {
            let mover = state.turn();
            let line = match &verdict {
                // Only a runaway proves a win with no position searched.
                Answer::Proved { line } if nodes == 0 => format!(
                    "proved: {mover} forces a win within {} actions: {} (a runaway: a walk home nothing can stop, no position searched)",
                    line.len(),
                    format_actions(line)
                ),
                Answer::Proved { line } => format!(
                    "proved: {mover} forces a win within {} actions: {} ({nodes} positions)",
                    line.len(),
                    format_actions(line)
                ),
                Answer::Disproved => {
                    format!(
                        "disproved: {mover} has no forced win within {} actions ({nodes} positions)",
                        args.depth
                    )
                }
                Answer::Unknown if stop.load(Ordering::Relaxed) => {
                    format!("unknown: interrupted after {nodes} positions")
                }
                Answer::Unknown => format!("unknown within the budget of {} positions", args.budget),
            };
            out(&format!("{line}\n"))?;
        }
    }
    if stop.load(Ordering::Relaxed) {
        err("interrupted: the search did not finish\n");
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(EXIT_OK)
}

/// Prints the JSON report of every mode of `selfplay`: an object per
/// level, and whether the run was interrupted.
fn out_levels_json(levels: Vec<serde_json::Value>, interrupted: bool) -> anyhow::Result<()> {
    out(&format!("{}\n", serde_json::to_string_pretty(&super::report::levels(levels, interrupted))?))
}

/// The exit code of a run, saying so on standard error when it was
/// interrupted (its report is then partial).
fn exit_code(interrupted: bool) -> u8 {
    if interrupted {
        err("interrupted: the report above is partial\n");
        return EXIT_INTERRUPTED;
    }
    EXIT_OK
}

/// What a head-to-head test concluded: its name in the JSON report, and
/// the text report's sentence, which says what the test decided and at
/// what error, and claims no more: the test tells a score of 60% − zone or
/// less from one of 60% + zone or more, and says nothing finer.
fn head_to_head_verdict(test: &sim::Sequential) -> (&'static str, String) {
    let d = test.design;
    let (low, high) = (60.0 - 100.0 * d.width, 60.0 + 100.0 * d.width);
    match test.decision {
        sim::Decision::FirstAhead => (
            "beats",
            format!(
                "A beats B: the sequential test decided for a score of {high:.0}% or more against {low:.0}% or less (it calls an agent scoring {low:.0}% a winner at most {:.0}% of the time); between the two it may go either way",
                100.0 * d.alpha
            ),
        ),
        sim::Decision::NotFirstAhead | sim::Decision::Balanced | sim::Decision::SecondAhead => (
            "does-not-beat",
            format!(
                "A does not beat B: the sequential test decided for a score of {low:.0}% or less against {high:.0}% or more (it misses an agent scoring {high:.0}% at most {:.0}% of the time); between the two it may go either way",
                100.0 * d.beta
            ),
        ),
        sim::Decision::NotSecondAhead | sim::Decision::Uncertain | sim::Decision::Open => (
            "uncertain",
            "uncertain: the test did not settle within its cap; the interval is all it shows".to_owned(),
        ),
    }
}

fn head_to_head_command(
    args: &SelfPlayArgs,
    agents: [Agent; 2],
    levels: &[crate::level::Level],
    rules: crate::rules::Rules,
) -> anyhow::Result<u8> {
    let design = args.design();
    let config = Config {
        agents,
        games: args.cap,
        seed: args.seed,
        max_actions: args.max_actions,
        threads: args.threads,
        opening: args.opening,
        sequential: Some(design),
    };
    let names = agents.map(Agent::label);
    let stop = super::stop_on_ctrl_c();
    let mut results = Vec::new();
    for level in levels {
        let start = *super::playable(level, rules)?.start();
        let bar = super::progress_bar(
            u64::from(args.cap.div_ceil(2) * 2),
            "{msg} [{bar:30}] {pos}/{len} games at most",
        );
        bar.set_message(level.id.clone());
        let look = |test: &sim::Sequential| {
            let (low, high) = test.pairs.interval();
            bar.set_message(format!(
                "{}: A scores {} [{}–{}]",
                level.id,
                pct(test.pairs.mean()),
                pct(low),
                pct(high)
            ));
        };
        let (games, test) = sim::head_to_head(&start, &config, design, &|| bar.inc(1), &look, &stop);
        bar.finish_and_clear();
        if let Some((dir, which)) = args.saving() {
            save_records(dir, which, level, rules, std::slice::from_ref(&games))?;
        }
        let report =
            Report::new(&level.id, names.clone(), start.turn(), &games, stop.load(Ordering::Relaxed));
        let thinking = args.time_decisions.then(|| sim::Thinking::total(&games));
        results.push((level.id.clone(), report, test, thinking));
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    let interrupted = stop.load(Ordering::Relaxed);
    match args.format {
        OutputFormat::Json => {
            let levels: Vec<serde_json::Value> = results
                .iter()
                .map(|(id, report, test, thinking)| {
                    let mut level =
                        super::report::head_to_head(id, report, test, head_to_head_verdict(test).0);
                    if let Some(thinking) = thinking {
                        level["time_a_decision"] = super::report::thinking(thinking);
                    }
                    level
                })
                .collect();
            out_levels_json(levels, interrupted)?;
        }
        OutputFormat::Text => {
            let mut text = String::new();
            for (id, report, test, thinking) in &results {
                let (low, high) = test.pairs.interval();
                let verdict = head_to_head_verdict(test).1;
                text += &format!(
                    "level `{}`: head to head, A = {} against B = {}\n  A scores {} [{}–{}] over {} games ({} distinct pairs; A won {}, B won {}, {} drawn or stalled)\n  {verdict}\n",
                    clean(id),
                    report.agents[0],
                    report.agents[1],
                    pct(test.pairs.mean()),
                    pct(low),
                    pct(high),
                    test.games,
                    test.pairs.pairs(),
                    report.wins_by_agent[0],
                    report.wins_by_agent[1],
                    report.games - report.wins_by_agent[0] - report.wins_by_agent[1],
                );
                if let Some(thinking) = thinking {
                    text += &format!("  {}\n", thinking_text(thinking));
                }
            }
            out(&text)?;
        }
    }
    Ok(exit_code(interrupted))
}

/// What `--time-decisions` says of a head-to-head run: each agent's time a
/// decision, and A's as a share of B's.
fn thinking_text(thinking: &sim::Thinking) -> String {
    let each = |agent: usize| match thinking.per_decision(agent) {
        Some(t) => format!("{:.3} ms over {} decisions", t.as_secs_f64() * 1000.0, thinking.decisions[agent]),
        None => "no decision".to_owned(),
    };
    let share =
        thinking.share_of_b().map_or(String::new(), |share| format!("; A takes {share:.2} of B's time"));
    format!("time a decision (wall time on the games' threads): A {}, B {}{share}", each(0), each(1))
}

/// `selfplay --skill-trace`: each level's trace, a line a strength.
fn skill_trace_command(
    args: &SelfPlayArgs,
    levels: &[crate::level::Level],
    rules: crate::rules::Rules,
) -> anyhow::Result<u8> {
    let games = args.games.unwrap_or(sim::TRACE_GAMES).div_ceil(2) * 2;
    let config = Config {
        agents: [sim::TRACE[0].1; 2],
        games,
        seed: args.seed,
        max_actions: args.max_actions,
        threads: args.threads,
        opening: args.opening,
        sequential: None,
    };
    let stop = super::stop_on_ctrl_c();
    let mut traces = Vec::new();
    for level in levels {
        let start = *super::playable(level, rules)?.start();
        let bar = super::progress_bar(
            u64::from(games) * sim::TRACE.len() as u64,
            "{msg} [{bar:30}] {pos}/{len} games",
        );
        let progress = |name: Option<&'static str>| match name {
            Some(name) => bar.set_message(format!("{} {name}", level.id)),
            None => bar.inc(1),
        };
        let points = sim::skill_trace(&start, &level.id, &config, &progress, &stop);
        bar.finish_and_clear();
        traces.push((level.id.clone(), points));
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    let interrupted = stop.load(Ordering::Relaxed);
    match args.format {
        OutputFormat::Json => {
            let levels: Vec<serde_json::Value> =
                traces.iter().map(|(id, points)| super::report::skill_trace(id, points)).collect();
            out_levels_json(levels, interrupted)?;
        }
        OutputFormat::Text => {
            let mut text = String::new();
            for (id, points) in &traces {
                text += &format!(
                    "level `{}`: skill trace, the first player's score with each strength on both sides ({games} games each; the band 40–60% is `=`)\n",
                    clean(id)
                );
                for p in points {
                    let r = &p.report.first_player_score;
                    text += &format!(
                        "  {:<7} {}  {} [{}–{}]{}\n",
                        p.name,
                        band_bar(r.low, r.high),
                        pct(r.rate),
                        pct(r.low),
                        pct(r.high),
                        if p.report.interrupted { " (interrupted)" } else { "" }
                    );
                }
                text += "\n";
            }
            out(&text)?;
        }
    }
    if interrupted {
        err("interrupted: the trace above is partial\n");
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(EXIT_OK)
}
