//! Drawing pack problems like the Rust compiler's diagnostics, and as JSON.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use serde::Serialize;

use super::LoadedPack;
use crate::level::format::line_col;
use crate::level::{Problem, Severity};

/// The problems of one pack, drawn with source lines and carets.
pub(crate) fn render(pack: &LoadedPack, color: bool) -> String {
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    let mut out = String::new();
    for problem in &pack.parsed.problems {
        let level = match problem.severity() {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let title = level.primary_title(problem.message.as_str()).id(problem.code.as_str());
        let group = match &problem.span {
            Some(span) if span.end <= pack.text.len() && !pack.text.is_empty() => title.element(
                Snippet::source(pack.text.as_str())
                    .path(pack.name.as_str())
                    .annotation(AnnotationKind::Primary.span(span.clone())),
            ),
            _ => title.element(annotate_snippets::Origin::path(pack.name.as_str())),
        };
        let report: &[Group<'_>] = &[group];
        out.push_str(&renderer.render(report));
        out.push_str("\n\n");
    }
    out
}

/// One line counting packs, errors and warnings.
pub(crate) fn summary(packs: &[LoadedPack]) -> String {
    let problems = packs.iter().flat_map(|p| &p.parsed.problems);
    let errors = problems.clone().filter(|p| p.is_error()).count();
    let warnings = problems.count() - errors;
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let levels: usize = packs.iter().filter_map(|p| p.parsed.pack.as_ref()).map(|p| p.levels.len()).sum();
    format!(
        "checked {} with {}: {}, {}",
        plural(packs.len(), "pack"),
        plural(levels, "level"),
        plural(errors, "error"),
        plural(warnings, "warning")
    )
}

#[derive(Serialize)]
struct JsonReport<'a> {
    packs: Vec<JsonPack<'a>>,
}

#[derive(Serialize)]
struct JsonPack<'a> {
    path: &'a str,
    valid: bool,
    levels: usize,
    problems: Vec<JsonProblem<'a>>,
}

#[derive(Serialize)]
struct JsonProblem<'a> {
    code: &'static str,
    severity: Severity,
    message: &'a str,
    /// The id of the level the problem belongs to, if any.
    level: Option<&'a str>,
    line: Option<usize>,
    column: Option<usize>,
    end_line: Option<usize>,
    end_column: Option<usize>,
    cells: Vec<String>,
}

fn json_problem<'a>(pack: &'a LoadedPack, problem: &'a Problem) -> JsonProblem<'a> {
    let start = problem.span.as_ref().map(|s| line_col(&pack.text, s.start));
    let end = problem.span.as_ref().map(|s| line_col(&pack.text, s.end));
    let level =
        problem.field.level().and_then(|i| pack.parsed.pack.as_ref()?.levels.get(i)).map(|l| l.id.as_str());
    JsonProblem {
        code: problem.code.as_str(),
        severity: problem.severity(),
        message: &problem.message,
        level,
        line: start.map(|s| s.0),
        column: start.map(|s| s.1),
        end_line: end.map(|s| s.0),
        end_column: end.map(|s| s.1),
        cells: problem.cells.iter().map(ToString::to_string).collect(),
    }
}

/// The problems of every pack as one JSON report.
pub(crate) fn json(packs: &[LoadedPack]) -> serde_json::Value {
    let report = JsonReport {
        packs: packs
            .iter()
            .map(|pack| JsonPack {
                path: &pack.name,
                valid: !pack.parsed.has_errors(),
                levels: pack.parsed.pack.as_ref().map_or(0, |p| p.levels.len()),
                problems: pack.parsed.problems.iter().map(|p| json_problem(pack, p)).collect(),
            })
            .collect(),
    };
    serde_json::to_value(report).unwrap_or(serde_json::Value::Null)
}
