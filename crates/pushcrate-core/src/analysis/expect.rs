//! Whether a level meets what its designer expects of it, as far as the
//! analysis settles it: every expectation but the two the balance check
//! answers (`balanced`, `unbalanced:N`; see `sim::BalanceCheck::meets`).

use super::finding::{FindingCode, Severity, Witness};
use super::report::LevelReport;
use crate::level::{Expectation, Level, Problem};

/// What the analysis says of one expectation: whether it holds, and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Met {
    /// Whether it holds.
    pub holds: bool,
    /// The finding, problem or proof that answers it.
    pub why: String,
}

/// Whether `level` meets `expectation`, by its format `problems` (those of
/// this level) and its analysis `report`; `None` for an expectation only the
/// balance check answers. `decided:N` reads the analysis's own solver (A011,
/// within its depth and budget: by default those of the balance check's
/// first step), and is `None` too when the analysis ran no search.
#[must_use]
pub fn meets(
    expectation: &Expectation,
    level: &Level,
    problems: &[Problem],
    report: &LevelReport,
) -> Option<Met> {
    let codes: Vec<(String, Severity, String)> = problems
        .iter()
        .map(|p| (p.code.as_str().to_owned(), p.severity(), p.message.clone()))
        .chain(report.findings.iter().map(|f| (f.code.as_str().to_owned(), f.severity, f.message.clone())))
        .collect();
    let first = |severity: Severity| codes.iter().find(|(_, s, _)| *s == severity);
    let label = |severity: Severity| match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let met = |holds: bool, why: String| Some(Met { holds, why });
    match expectation {
        Expectation::Valid => match first(Severity::Error) {
            None => met(true, "no error".to_owned()),
            Some((code, _, message)) => met(false, format!("error[{code}]: {message}")),
        },
        Expectation::NoWarnings => match first(Severity::Error).or_else(|| first(Severity::Warning)) {
            None => met(true, "no error or warning".to_owned()),
            Some((code, severity, message)) => met(false, format!("{}[{code}]: {message}", label(*severity))),
        },
        Expectation::Finding(code) => match codes.iter().find(|(c, _, _)| c == code) {
            Some((_, _, message)) => met(true, format!("{code}: {message}")),
            None => met(false, format!("no {code} among the level's problems and findings")),
        },
        Expectation::Unwinnable => match codes.iter().find(|(c, _, _)| c == "A000" || c == "A001") {
            Some((code, _, message)) => met(true, format!("{code}: {message}")),
            None => met(false, "the analysis finds every route open (no A000 or A001)".to_owned()),
        },
        // An analysis run without its bounded search (`budget` 0) cannot
        // tell: the caller asks the solver itself.
        Expectation::Decided(_) if report.search.is_none() => None,
        Expectation::Decided(player) => {
            let forced = report.findings.iter().find(|f| f.code == FindingCode::ForcedWin);
            match forced {
                Some(f) if level.first == *player => {
                    let line = match &f.witness {
                        Some(Witness::Line { actions }) => {
                            format!(
                                " in {} actions (A011): {}",
                                actions.len(),
                                crate::rules::format_actions(actions)
                            )
                        }
                        _ => " (A011)".to_owned(),
                    };
                    met(true, format!("{player} forces a win{line}"))
                }
                Some(_) => met(false, format!("the solver proves {}'s forced win instead", level.first)),
                None => met(
                    false,
                    format!(
                        "the solver proves no forced win for {} within the analysis's depth and budget",
                        level.first
                    ),
                ),
            }
        }
        Expectation::Balanced | Expectation::Unbalanced(_) => None,
    }
}
