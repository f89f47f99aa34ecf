//! The JSON the command line writes for the library's reports. The
//! analysis and self-play types carry domain values (`Player`, `Route`,
//! `Cell`, `Action`) and know nothing of serialisation; this module turns
//! them into the documented layouts (docs/analysis.md, docs/ai.md) at the
//! edge, so that a layout change is made here, in one place, and a domain
//! type can change without changing what clients read. Every report a
//! command prints is built here; the conformance suite's data files
//! (docs/conformance.md), a format of their own, are written by
//! `conformance.rs`.

use serde_json::{Value, json};

use crate::analysis::{Answer, Finding, LevelReport, Race, RouteProof, SearchReport, Symmetries, Witness};
use crate::level::edit::EditOp;
use crate::repair::{Edit, Proposal, Repair};
use crate::rules::{Action, Cell, GameState, Player, Symmetry};
use crate::sim::{BalanceCheck, Decision, Edge, ForcedWin, Question, Rate, Report, Sequential, TracePoint};

fn cells(cells: &[Cell]) -> Value {
    cells.iter().map(ToString::to_string).collect()
}

fn actions(actions: &[Action]) -> Value {
    actions.iter().map(ToString::to_string).collect()
}

fn player(player: Player) -> Value {
    player.number().into()
}

/// A bounded search's answer: `{"answer": "proved", "line": [...]}`,
/// `{"answer": "disproved"}` or `{"answer": "unknown"}`.
#[must_use]
pub fn answer(answer: &Answer) -> Value {
    match answer {
        Answer::Proved { line } => json!({ "answer": "proved", "line": actions(line) }),
        Answer::Disproved => json!({ "answer": "disproved" }),
        Answer::Unknown => json!({ "answer": "unknown" }),
    }
}

fn witness(witness: &Witness) -> Value {
    match witness {
        Witness::Path { cells: path } => json!({ "kind": "path", "cells": cells(path) }),
        Witness::Cut { region } => json!({ "kind": "cut", "region": cells(region) }),
        Witness::Line { actions: line } => json!({ "kind": "line", "actions": actions(line) }),
    }
}

fn finding(finding: &Finding) -> Value {
    json!({
        "code": finding.code.as_str(),
        "severity": finding.severity,
        "message": finding.message,
        "cells": cells(&finding.cells),
        "witness": finding.witness.as_ref().map(witness),
    })
}

fn route(proof: &RouteProof) -> Value {
    json!({
        "route": proof.name(),
        "player": player(proof.player()),
        "holds": proof.holds,
        "holds_with_crates": proof.holds_with_crates,
        "witness": witness(&proof.witness),
    })
}

fn race(race: &Race) -> Value {
    let leg = |i: usize| {
        let leg = &race.legs[i];
        json!({
            "player": player(leg.player),
            "to_flag": leg.to_flag,
            "to_goal": leg.to_goal,
            "reaches_flag_on_action": leg.reaches_flag_on_action,
        })
    };
    json!({ "legs": [leg(0), leg(1)], "first_to_flag": player(race.first_to_flag), "lead": race.lead })
}

fn symmetry(symmetry: &Symmetries) -> Value {
    json!({
        "half_turn_swapping_players": symmetry.has(Symmetry::HalfTurn),
        "mirror_ranks_swapping_players": symmetry.has(Symmetry::MirrorRanks),
        "mirror_files": symmetry.has(Symmetry::MirrorFiles),
    })
}

fn search(search: &SearchReport) -> Value {
    json!({
        "depth": search.depth,
        "budget": search.budget,
        "player1_can_win": answer(&search.player1_can_win),
        "player2_can_win": answer(&search.player2_can_win),
        "dead_position": answer(&search.dead_position),
        "first_forces_win": answer(&search.first_forces_win),
        "nodes": search.nodes,
    })
}

/// One level's analysis.
#[must_use]
pub fn level_report(report: &LevelReport) -> Value {
    json!({
        "level": report.level,
        "size": report.size,
        "findings": report.findings.iter().map(finding).collect::<Vec<_>>(),
        "routes": report.routes.iter().map(route).collect::<Vec<_>>(),
        "race": report.race.as_ref().map(race),
        "sole_path_cells": cells(&report.sole_path_cells),
        "placement_cells": report.placement_cells,
        "symmetry": symmetry(&report.symmetry),
        "search": report.search.as_ref().map(search),
    })
}

/// The balance estimate before any game, with its measured accuracy:
/// `{"first_player", "value", "nodes", "accuracy": {...}}`.
pub(super) fn estimate(estimate: &crate::ai::estimate::Estimate) -> Value {
    let accuracy = crate::ai::estimate::ACCURACY;
    json!({
        "first": player(estimate.first),
        "first_player": estimate.first_player,
        "value": estimate.value,
        "nodes": estimate.nodes,
        "accuracy": {
            "levels": accuracy.levels,
            "mean_error_points": accuracy.mean_error,
            "same_side": accuracy.same_side,
        },
    })
}

/// A rate with its 95% interval: `{"rate", "low", "high"}`.
pub(super) fn rate(rate: &Rate) -> Value {
    json!({ "rate": rate.rate, "low": rate.low, "high": rate.high })
}

fn edge(edge: Edge) -> &'static str {
    match edge {
        Edge::Open => "open",
        Edge::Inside => "inside",
        Edge::Outside => "outside",
    }
}

fn decision(decision: Decision) -> &'static str {
    match decision {
        Decision::Open => "open",
        Decision::Balanced => "balanced",
        Decision::FirstAhead => "first-ahead",
        Decision::SecondAhead => "second-ahead",
        Decision::NotFirstAhead => "not-first-ahead",
        Decision::NotSecondAhead => "not-second-ahead",
        Decision::Uncertain => "uncertain",
    }
}

pub(super) fn sequential(test: &Sequential) -> Value {
    json!({
        "design": { "alpha": test.design.alpha, "beta": test.design.beta, "width": test.design.width },
        "cap": test.cap,
        "pairs": { "counts": test.pairs.counts },
        "copies": test.copies,
        "games": test.games,
        "upper": edge(test.upper),
        "lower": edge(test.lower),
        "llr": test.llr,
        "question": match test.question {
            Question::Verdict => "verdict",
            Question::FirstAhead => "first-ahead",
            Question::SecondAhead => "second-ahead",
        },
        "decision": decision(test.decision),
        "mean": test.pairs.mean(),
        "near_edge": test.near_edge(),
    })
}

/// One pairing's report.
#[must_use]
pub fn run_report(r: &Report) -> Value {
    json!({
        "level": r.level,
        "agents": r.agents,
        "games": r.games,
        "distinct_games": r.distinct_games,
        "interrupted": r.interrupted,
        "wins_by_player": r.wins_by_player,
        "wins_by_agent": r.wins_by_agent,
        "wins_by_flag": r.wins_by_flag,
        "wins_by_crates": r.wins_by_crates,
        "draws": r.draws,
        "stalls": r.stalls,
        "repetitions": r.repetitions,
        "first_player": player(r.first_player),
        "first_player_score": rate(&r.first_player_score),
        "first_player_advantage": r.first_player_advantage,
        "balance": r.balance,
        "agent_a_score": rate(&r.agent_a_score),
        "stall_rate": rate(&r.stall_rate),
        "repetition_rate": rate(&r.repetition_rate),
        "length": {
            "mean": r.length.mean,
            "median": r.length.median,
            "p90": r.length.p90,
            "spread": r.length.spread,
        },
        "verdicts": {
            "unbalanced": r.verdicts.unbalanced,
            "uncertain": r.verdicts.uncertain,
            "stall_prone": r.verdicts.stall_prone,
        },
        "sequential": r.sequential.as_ref().map(sequential),
    })
}

fn forced_win(forced: &ForcedWin) -> Value {
    json!({ "player": player(forced.player), "line": actions(&forced.line) })
}

/// A level's balance check.
#[must_use]
pub fn balance_check(check: &BalanceCheck) -> Value {
    json!({
        "level": check.level,
        "verdict": check.verdict.name(),
        "favoured": check.favoured.map(player),
        "pairings_disagree": check.pairings_disagree,
        "refereed": check.refereed,
        "stall_prone": check.stall_prone,
        "forced_win": check.forced_win.as_ref().map(forced_win),
        "interrupted": check.interrupted,
        "undecided": check.undecided,
        "near_edge": !check.near_edge().is_empty(),
        "explained_by": check.explained_by.iter().map(finding).collect::<Vec<_>>(),
        "why": check.why,
        "decisions": decisions(&check.decisions),
        "runs": check.reports.iter().map(run_report).collect::<Vec<_>>(),
    })
}

/// Where the games were decided: per event, every cell where it happened,
/// the most frequent first.
fn decisions(d: &crate::sim::Decisions) -> Value {
    let cells: serde_json::Map<String, Value> = crate::sim::Event::ALL
        .into_iter()
        .map(|event| {
            let top: Vec<Value> = d
                .top(event)
                .into_iter()
                .map(|(cell, n)| json!({ "cell": cell.to_string(), "count": n }))
                .collect();
            (event.name().to_owned(), Value::Array(top))
        })
        .collect();
    json!({
        "games": d.games,
        "wins": { "1": d.wins[0], "2": d.wins[1] },
        "flag_wins": d.flag_wins,
        "cells": cells,
    })
}

fn edit_json(edit: &Edit) -> Value {
    match *edit {
        EditOp::Wall(cell, true) => json!({ "edit": "wall", "cell": cell.to_string() }),
        EditOp::Wall(cell, false) => json!({ "edit": "floor", "cell": cell.to_string() }),
        EditOp::MoveStart(player, from, to) => {
            json!({ "edit": "start", "player": player.number(), "from": from.to_string(), "to": to.to_string() })
        }
        EditOp::MoveGoal(player, from, to) => {
            json!({ "edit": "goal", "player": player.number(), "from": from.to_string(), "to": to.to_string() })
        }
        EditOp::MoveFlag(from, to) => {
            json!({ "edit": "flag", "from": from.to_string(), "to": to.to_string() })
        }
        EditOp::Crate(cell, Some(_)) => json!({ "edit": "add-crate", "cell": cell.to_string() }),
        EditOp::Crate(cell, None) => json!({ "edit": "remove-crate", "cell": cell.to_string() }),
        // Repair makes no other edit; should it, its words say what it is.
        _ => json!({ "edit": crate::repair::describe(edit) }),
    }
}

fn proposal_json(p: &Proposal, before: Rate) -> Value {
    let check = p.check.as_ref().map(|c| {
        json!({
            "verdict": c.verdict.name(),
            "favoured": c.favoured.map(Player::number),
            "pairings": c.reports.iter().map(|r| json!({
                "agents": r.agents,
                "games": r.games,
                "first_player_score": rate(&r.first_player_score),
                "sequential": r.sequential.map(|s| s.decision.describe()),
            })).collect::<Vec<_>>(),
        })
    });
    json!({
        "edits": p.edits.iter().map(edit_json).collect::<Vec<_>>(),
        "balanced": p.is_balanced(),
        "verdict": p.verdict(before),
        "steps": p.steps,
        "score": rate(&p.score()),
        "quick": { "games": p.quick_games, "first_player_score": rate(&p.quick) },
        "check": check,
        "games": p.games,
        "seconds": p.seconds,
    })
}

/// A repair's report: the level as it is, each proposal with its edits,
/// scores and check, and what the search screened and played.
#[must_use]
pub fn repair(r: &Repair) -> Value {
    json!({
        "level": r.level,
        "before": { "games": r.before_games, "first_player_score": rate(&r.before) },
        "proposals": r.proposals.iter().map(|p| proposal_json(p, r.before)).collect::<Vec<_>>(),
        "screened": r.screened,
        "estimate_dropped": r.estimate_dropped,
        "decided": r.decided,
        "played": r.played,
        "games": r.games,
        "interrupted": r.interrupted,
        "stopped_at": r.stopped_at,
    })
}

/// `solve`'s answer from a position of `level`: the side to move, the
/// depth and budget asked (`limits`), the positions searched and the answer.
#[must_use]
pub fn solve(level: &str, state: &GameState, limits: (u32, u64), nodes: u64, verdict: &Answer) -> Value {
    json!({
        "level": level,
        "to_move": state.turn().number(),
        "depth": limits.0,
        "budget": limits.1,
        "nodes": nodes,
        "verdict": answer(verdict),
    })
}

/// The report of every mode of `selfplay`: an object per level, and
/// whether the run was interrupted.
#[must_use]
pub fn levels(levels: Vec<Value>, interrupted: bool) -> Value {
    json!({ "levels": levels, "interrupted": interrupted })
}

/// One level of a head-to-head run: the agents, the games, agent A's
/// score with its interval, the test's `verdict` in a word, the test and
/// the run's report.
#[must_use]
pub fn head_to_head(level: &str, report: &Report, test: &Sequential, verdict: &str) -> Value {
    let (low, high) = test.pairs.interval();
    json!({
        "level": level,
        "agents": report.agents,
        "games": test.games,
        "agent_a_score": { "rate": test.pairs.mean(), "low": low, "high": high },
        "verdict": verdict,
        "sequential": sequential(test),
        "report": run_report(report),
    })
}

/// Each agent's time a decision over a head-to-head run's games
/// (`--time-decisions`): milliseconds a decision and decisions, by agent,
/// and A's time as a share of B's (`null` where either made none).
#[must_use]
pub fn thinking(thinking: &crate::sim::Thinking) -> Value {
    let ms = |agent: usize| thinking.per_decision(agent).map(|t| t.as_secs_f64() * 1000.0);
    json!({
        "a": { "ms": ms(0), "decisions": thinking.decisions[0] },
        "b": { "ms": ms(1), "decisions": thinking.decisions[1] },
        "a_share_of_b": thinking.share_of_b(),
    })
}

/// A level's skill trace: each strength's agent, games and the first
/// player's score.
#[must_use]
pub fn skill_trace(level: &str, points: &[TracePoint]) -> Value {
    json!({
        "level": level,
        "skill_trace": points.iter().map(|p| json!({
            "strength": p.name,
            "agent": p.report.agents[0],
            "games": p.report.games,
            "distinct_games": p.report.distinct_games,
            "first_player_score": rate(&p.report.first_player_score),
            "interrupted": p.report.interrupted,
        })).collect::<Vec<_>>(),
    })
}

/// The legal actions of a position of `level`, each with what it does,
/// and the side to move (none when the game is over).
#[must_use]
pub fn legal_actions(level: &str, state: &GameState, actions: &[Action]) -> Value {
    let list: Vec<Value> = actions
        .iter()
        .map(|&a| {
            let kind = state.check(a).map(|k| format!("{k:?}").to_lowercase()).unwrap_or_default();
            json!({ "action": a.to_string(), "kind": kind })
        })
        .collect();
    json!({
        "level": level,
        "to_move": if state.is_over() { Value::Null } else { state.turn().number().into() },
        "over": state.is_over(),
        "actions": list,
    })
}

/// One expectation of a level as `analyze --verify` found it: `result`
/// is "holds", "fails" or "unchecked", with why.
#[must_use]
pub fn expectation(level: &str, expectation: &str, result: &str, why: &str) -> Value {
    json!({
        "level": level,
        "expectation": expectation,
        "result": result,
        "why": why,
    })
}

/// A run over packs: each pack's object, and whether the run was
/// interrupted.
#[must_use]
pub fn packs(packs: Vec<Value>, interrupted: bool) -> Value {
    json!({ "packs": packs, "interrupted": interrupted })
}

/// A pack that could not be read whole.
#[must_use]
pub fn unreadable_pack(path: &str) -> Value {
    json!({ "path": path, "valid": false, "report": null })
}

/// A pack's expectations, as `analyze --verify` found them.
#[must_use]
pub fn verified_pack(path: &str, valid: bool, expectations: Vec<Value>) -> Value {
    json!({ "path": path, "valid": valid, "expectations": expectations })
}

/// A pack's analysis: its levels' reports under the report's version.
#[must_use]
pub fn analysed_pack(path: &str, valid: bool, levels: Vec<Value>) -> Value {
    json!({
        "path": path,
        "valid": valid,
        "report": {
            "version": crate::analysis::REPORT_VERSION,
            "levels": levels,
        },
    })
}

/// A level's note, as `generate` reports a level it made.
#[must_use]
pub fn note(note: &str) -> Value {
    json!({ "note": note })
}
