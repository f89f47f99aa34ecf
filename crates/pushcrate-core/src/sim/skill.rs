//! The skill trace (after Ludii's SkillTrace): the first player's score
//! with each strength playing both sides, weakest first. It shows whether a
//! level rewards skill and whether its balance holds as play gets stronger.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::ai::Agent;
use crate::rules::GameState;

use super::{Config, Report, run};

/// The strengths of the trace, weakest first: the named strengths with
/// `deep` between expert and master, the ladder of docs/ai.md.
pub const TRACE: [(&str, Agent); 6] = [
    Agent::STRENGTHS[0],
    Agent::STRENGTHS[1],
    Agent::STRENGTHS[2],
    Agent::STRENGTHS[3],
    ("deep", Agent::DEEP),
    Agent::STRENGTHS[4],
];

/// Games a strength plays in a trace unless asked otherwise: ten
/// colour-swapped pairs, an interval of about ±20 points; enough to see a
/// curve's shape, not to settle a verdict (the balance check does that).
pub const TRACE_GAMES: u32 = 20;

/// One point of the trace.
#[derive(Clone, Debug)]
pub struct TracePoint {
    /// The strength's name.
    pub name: &'static str,
    /// Its report, each side played by the strength.
    pub report: Report,
}

/// Plays `base.games` games from `start` under each strength of [`TRACE`],
/// weakest first, each with `base`'s seed and cap, and reports each.
/// `progress` is told of every finished game and of the strength begun;
/// setting `cancel` ends the trace with the points finished (the last one
/// marked interrupted).
#[must_use]
pub fn skill_trace(
    start: &GameState,
    level: &str,
    base: &Config,
    progress: &(dyn Fn(Option<&'static str>) + Sync),
    cancel: &Arc<AtomicBool>,
) -> Vec<TracePoint> {
    let mut points = Vec::new();
    for (name, agent) in TRACE {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        progress(Some(name));
        let config = Config { agents: [agent, agent], sequential: None, ..*base };
        let results = run(start, &config, &|| progress(None), cancel);
        let report = Report::new(
            level,
            [agent.label(), agent.label()],
            start.turn(),
            &results,
            cancel.load(Ordering::Relaxed),
        );
        points.push(TracePoint { name, report });
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trace_climbs_the_ladder_weakest_first() {
        let names: Vec<&str> = TRACE.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["easy", "medium", "hard", "expert", "deep", "master"]);
    }

    /// On `tiny` the two weakest strengths, two pairs each, played from the
    /// start: each point is that strength against itself.
    #[test]
    fn each_point_is_a_strength_against_itself() {
        let pack = crate::level::format::parse_pack(crate::level::FLAWED_PACK_TOML).pack.unwrap();
        let start = pack.level("tiny").unwrap().start_state(pack.rules).unwrap();
        let cancel = Arc::new(AtomicBool::new(false));
        let base = Config { threads: 1, ..Config::fixed([TRACE[0].1; 2], 4) };
        // Stop after the second strength begins.
        let begun = std::sync::atomic::AtomicU32::new(0);
        let progress = |name: Option<&'static str>| {
            if name.is_some() && begun.fetch_add(1, Ordering::Relaxed) == 2 {
                cancel.store(true, Ordering::Relaxed);
            }
        };
        let points = skill_trace(&start, "tiny", &base, &progress, &cancel);
        assert!(points.len() >= 2);
        for (point, (name, agent)) in points.iter().zip(TRACE).take(2) {
            assert_eq!(point.name, name);
            assert_eq!(point.report.agents, [agent.label(), agent.label()]);
            assert_eq!(point.report.games, 4);
        }
    }
}
