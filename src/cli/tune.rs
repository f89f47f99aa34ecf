//! `pushcrate tune`: fit the evaluation's weights to game outcomes.

use std::path::PathBuf;

use super::{EXIT_INTERRUPTED, EXIT_OK, err};
use crate::ai::{Agent, Eval};
use crate::files::{Committed, Output};
use crate::tune::{self, Options};

/// What `tune` was asked.
#[derive(Debug, clap::Args)]
pub struct TuneArgs {
    /// Seeds the training levels and every game: the same seed gives the
    /// same weights.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Generated training levels of each style, size and symmetry (1 to
    /// 100).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub levels_each: u64,
    /// Sides of the square training boards, comma-separated (5 to 11).
    #[arg(long, value_delimiter = ',', default_values_t = [7u8, 9, 11], value_parser = clap::value_parser!(u8).range(5..=11))]
    pub sizes: Vec<u8>,
    /// Games per level, in colour-swapped pairs (2 to 10,000).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(2..=10_000))]
    pub games: u32,
    /// The two agents whose games are sampled, `A,B` (the shipped weights
    /// come from expert's games with the hand evaluation, the default).
    #[arg(long, default_value = "alphabeta:4:40000:hand,alphabeta:4:40000:hand", value_parser = super::selfplay::parse_agents)]
    pub agents: [Agent; 2],
    /// Random actions at the start of each game (0 to 40), for varied
    /// positions; none of them is sampled.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub opening: u32,
    /// Take a position every N actions (1 to 100).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub every: u32,
    /// Worker threads, 0 to 256 (0: every core). Does not change the
    /// weights.
    #[arg(long, default_value_t = 0, value_parser = super::selfplay::parse_threads)]
    pub threads: usize,
    /// Labels each position with a blend of its game's result and this
    /// search's score of it (an alpha-beta agent with the fitted
    /// evaluation, such as `deep`), so that the weights learn what a deeper
    /// search sees as well as who won; without it, the result alone.
    #[arg(long, value_parser = parse_label_search)]
    pub label_search: Option<Agent>,
    /// With `--label-search`, the game's result's share of each label, 0 to
    /// 1 (the search's score has the rest).
    #[arg(long, default_value_t = 0.5, requires = "label_search", value_parser = parse_share)]
    pub result_share: f64,
    /// Fits the `block` feature as well (its weight is 0 without it, as
    /// in the shipped weights: scoring it about doubles a position's cost).
    #[arg(long)]
    pub with_block: bool,
    /// Fits the `natural` feature as well: placements left times the
    /// crates the level started with (its weight is 0 without it, as in
    /// the shipped weights).
    #[arg(long)]
    pub with_natural: bool,
    /// Where to write the weights (standard output when left out), as
    /// `crates/pushcrate-core/src/ai/fitted.toml` holds them.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub(super) fn tune_command(args: &TuneArgs) -> anyhow::Result<u8> {
    let output = match &args.out {
        Some(path) => Output::create(path)?,
        None => Output::stdout(),
    };
    let options = Options {
        seed: args.seed,
        levels_each: usize::try_from(args.levels_each).unwrap_or(1),
        sizes: args.sizes.clone(),
        games: args.games,
        agents: args.agents,
        opening: args.opening,
        sample_every: args.every,
        threads: args.threads,
        label: args.label_search.map(|search| tune::Label { search, result_share: args.result_share }),
        with_block: args.with_block,
        with_natural: args.with_natural,
    };
    let stop = super::stop_on_ctrl_c();
    let tuned = tune::tune(&options, &|phase| err(&format!("{phase}…\n")), &stop);
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        err(&format!("interrupted: nothing was written; {} is as it was\n", output.name()));
        return Ok(EXIT_INTERRUPTED);
    }
    err(&format!(
        "{} training positions ({} games on {} levels), {} validation positions ({} games on {} bundled levels)\n\
         mean log loss on the validation positions: fitted {:.4}, hand {:.4} (at its best scale, {:.5} logits a point), knowing nothing {:.4}\n\
         weights (thousandths of a logit):\n{}\
         as an agent, without building again: {}\n",
        tuned.training.samples.len(),
        tuned.training.games,
        tuned.training.levels,
        tuned.validation.samples.len(),
        tuned.validation.games,
        tuned.validation.levels,
        tuned.validation_loss,
        tuned.hand_validation_loss,
        tuned.hand_scale,
        tuned.constant_validation_loss,
        tune::weights_text(&tuned.weights),
        Agent::DEEP.with_eval(Eval::Weights(tuned.weights)),
    ));
    let command = command_line(args);
    let text = tuned.to_toml(&command, &options);
    Ok(match output.commit_until(text.as_bytes(), &stop)? {
        Committed::Whole => EXIT_OK,
        Committed::Unchanged | Committed::Cut { .. } => {
            err("interrupted while writing: the weights are incomplete\n");
            EXIT_INTERRUPTED
        }
    })
}

/// The command that makes these weights again, for their provenance.
fn command_line(args: &TuneArgs) -> String {
    let sizes: Vec<String> = args.sizes.iter().map(u8::to_string).collect();
    let label = args.label_search.map_or_else(String::new, |search| {
        format!(" --label-search {search} --result-share {}", args.result_share)
    });
    let block = if args.with_block { " --with-block" } else { "" };
    let natural = if args.with_natural { " --with-natural" } else { "" };
    format!(
        "pushcrate tune --seed {} --levels-each {} --sizes {} --games {} --agents {},{} --opening {} --every {}{label}{block}{natural}",
        args.seed,
        args.levels_each,
        sizes.join(","),
        args.games,
        args.agents[0],
        args.agents[1],
        args.opening,
        args.every
    )
}

/// An agent whose search can label positions: alpha-beta with the fitted
/// evaluation, whose values are logits.
fn parse_label_search(text: &str) -> Result<Agent, String> {
    let agent: Agent = text.parse().map_err(|e: crate::ai::ParseAgentError| e.to_string())?;
    match tune::Label::search_agent(agent) {
        Some(_) => Ok(agent),
        None => Err(format!(
            "`{text}` cannot label positions: give an alpha-beta agent with the fitted evaluation (`deep`, `alphabeta:6:150000:fitted`) or fitted weights (`alphabeta:6:150000:weights=…`), whose values are logits"
        )),
    }
}

/// A share from 0 to 1.
fn parse_share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(share) if (0.0..=1.0).contains(&share) => Ok(share),
        _ => Err(format!("`{text}` is not a share from 0 to 1")),
    }
}
