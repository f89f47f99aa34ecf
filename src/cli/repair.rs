//! `pushcrate repair`: small edits that the balance check confirms.

use std::path::PathBuf;

use anyhow::bail;

use super::{EXIT_INTERRUPTED, EXIT_OK, OutputFormat, clean, err, load_valid, out};
use crate::files::{Output, is_json, same_file};
use crate::level::render::diagram;
use crate::repair::{Edit, Options, Progress, Repair, repair};
use crate::rules::Bitboard;
use crate::sim::Rate;

/// What `repair` was asked.
#[derive(Debug, clap::Args)]
pub struct RepairArgs {
    /// The pack file; `@default` is the bundled pack, `@flawed` the bundled
    /// flawed levels.
    pub pack: PathBuf,
    /// The level to repair.
    #[arg(long)]
    pub level: String,
    /// The most edits in a proposal, 1 to 3 (a mirrored pair counts as
    /// one).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::repair::MAX_EDITS)))]
    pub max_edits: u32,
    /// Keep a symmetry that makes the level the same for both players (a
    /// half turn or a top-to-bottom mirror with the players swapped): each
    /// edit comes with its counterpart for the other player. A left-to-right
    /// mirror is always kept.
    #[arg(long)]
    pub keep_symmetry: bool,
    /// The most games of a candidate's quick check under expert, 2 to 400.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(2..=400))]
    pub quick_games: u32,
    /// The most games a pairing of the full check plays, 2 to 1,000,000.
    #[arg(long, default_value_t = crate::sim::SEQUENTIAL_CAP, value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    pub cap: u32,
    /// Go on to `--max-edits` after the balance check has confirmed a
    /// balanced fix with fewer edits (by default the search stops at the
    /// fewest edits that balance the level).
    #[arg(long)]
    pub every_size: bool,
    /// The seed of every game: the same seed gives the same proposals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, 0 to 256 (0: every core). Does not change the results.
    #[arg(long, default_value_t = 0, value_parser = super::selfplay::parse_threads)]
    pub threads: usize,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
    /// Write the pack with the best proposal made (comments and order
    /// kept) to this file; nothing is written when there is none.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

fn pct(x: f64) -> String {
    format!("{:.0}", 100.0 * x)
}

fn interval(rate: Rate) -> String {
    format!("{}% [{}–{}]", pct(rate.rate), pct(rate.low), pct(rate.high))
}

fn edits_text(edits: &[Edit]) -> String {
    edits.iter().map(crate::repair::describe).collect::<Vec<_>>().join(", ")
}

fn report_text(r: &Repair, seconds: f64) -> String {
    let mut text = format!(
        "level `{}`: the first player scores {} in {} quick games (expert)\n",
        clean(&r.level),
        interval(r.before),
        r.before_games
    );
    text += &format!(
        "searched {} candidates that keep the level valid with no new warning ({} more the solver proves a forced win for, {} more the balance estimate puts farther from even); {} played quick games; {} games in all, {:.0} s{}\n",
        r.screened,
        r.decided,
        r.estimate_dropped,
        r.played,
        r.games,
        seconds,
        if r.interrupted { " — interrupted, the proposals so far" } else { "" }
    );
    if let Some(size) = r.stopped_at {
        text += &format!(
            "stopped at {}: the balance check confirms a fix with no more (--every-size looks further)\n",
            crate::diagnostics::counted(size as usize, "edit", "edits")
        );
    }
    if r.proposals.is_empty() {
        text += "no proposal: no candidate was confirmed by the balance check\n";
    }
    for (i, p) in r.proposals.iter().enumerate() {
        text += &format!(
            "\nproposal {}: {} — {} edit{}{}: {}\n",
            i + 1,
            p.verdict(r.before),
            p.steps,
            if p.steps == 1 { "" } else { "s" },
            match (p.edits.len() as u32 > p.steps, p.steps) {
                (false, _) => "",
                (true, 1) => " (with its mirror image)",
                (true, _) => " (with their mirror images)",
            },
            edits_text(&p.edits)
        );
        if let Some(check) = &p.check {
            for run in &check.reports {
                text += &format!(
                    "  {} against {}: first player {} over {} games\n",
                    run.agents[0],
                    run.agents[1],
                    interval(run.first_player_score),
                    run.games
                );
            }
        }
        text += &format!("  cost: {} games, {:.0} s; changed cells marked *\n", p.games, p.seconds);
        let changed: Bitboard = p.edits.iter().flat_map(crate::repair::edit_cells).collect();
        for line in diagram(p.playable.start(), changed).lines() {
            text += &format!("    {line}\n");
        }
    }
    text
}

pub(super) fn repair_command(args: &RepairArgs) -> anyhow::Result<u8> {
    let (file, pack) = match load_valid(&args.pack)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let Some(index) = pack.level_index(&args.level) else {
        bail!("the pack has no level `{}`", clean(&args.level));
    };
    if let Some(path) = &args.out
        && same_file(path, &args.pack)
    {
        // Writing over the input is what a designer may want; it keeps the
        // comments, and the old file is replaced atomically.
        err(&format!("writing the repaired pack over {}\n", crate::files::shown(path)));
    }
    let output = args.out.as_ref().map(|path| Output::create(path)).transpose()?;
    let options = Options {
        max_edits: args.max_edits,
        keep_symmetry: args.keep_symmetry,
        quick_games: args.quick_games,
        cap: args.cap,
        every_size: args.every_size,
        seed: args.seed,
        threads: args.threads,
        ..Options::default()
    };
    let cancel = super::stop_on_ctrl_c();
    let bar = super::spinner();
    let began = std::time::Instant::now();
    let games = std::sync::atomic::AtomicU64::new(0);
    let stage = std::sync::Mutex::new(String::new());
    let progress = |p: Progress| {
        match p {
            Progress::Stage(text) => {
                if let Ok(mut s) = stage.lock() {
                    *s = text;
                }
            }
            Progress::Game => {
                games.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        }
        let text = stage.lock().map(|s| s.clone()).unwrap_or_default();
        bar.set_message(format!("{text} ({} games)", games.load(std::sync::atomic::Ordering::Relaxed)));
    };
    let playable = super::playable(&pack.levels[index], pack.rules)?;
    let found = repair(&playable, &options, &progress, &cancel);
    bar.finish_and_clear();
    let seconds = began.elapsed().as_secs_f64();
    match args.format {
        OutputFormat::Text => out(&report_text(&found, seconds))?,
        OutputFormat::Json => {
            let mut value = super::report::repair(&found);
            value["seconds"] = seconds.into();
            out(&format!("{}\n", serde_json::to_string_pretty(&value)?))?;
        }
    }
    if let (Some(output), Some(best)) = (output, found.proposals.first()) {
        let mut repaired = pack.clone();
        repaired.levels[index] = best.playable.level().clone();
        let text = if is_json(args.out.as_deref().unwrap_or(&args.pack)) {
            crate::level::write_pack_json(&repaired)?
        } else if is_json(&args.pack) {
            crate::level::format::write_pack(&repaired)
        } else {
            crate::level::preserve::update_pack_text(&file.text, &repaired)
        };
        output.commit(text.as_bytes())?;
        err(&format!(
            "wrote the pack with proposal 1 ({}) to {}\n",
            edits_text(&best.edits),
            crate::files::shown(args.out.as_deref().unwrap_or(&args.pack))
        ));
    } else if args.out.is_some() {
        err("no proposal: nothing was written\n");
    }
    if found.interrupted {
        err("interrupted: the proposals above are those confirmed so far\n");
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(EXIT_OK)
}
