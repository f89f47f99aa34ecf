//! Drawing pack problems like the Rust compiler's diagnostics, and as JSON:
//! what `pushcrate check` prints and what the editor shows for a file it
//! will not open.

use std::borrow::Borrow;
use std::ops::Range;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use serde::Serialize;

use crate::files::PackFile;
use crate::level::{Problem, Severity};

#[cfg(test)]
mod error_text_tests {
    #[test]
    fn a_cause_the_message_already_ends_with_is_shown_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let error = anyhow::Error::new(crate::files::FileError::Read { path: "x".into(), cause: io });
        assert_eq!(super::error_text(&error), "cannot read x: No such file");
        let wrapped = anyhow::anyhow!("inner").context("outer");
        assert_eq!(super::error_text(&wrapped), "outer: inner");
    }
}

/// `n` and the noun that goes with it: "1 level", "3 levels".
#[must_use]
pub fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

/// `text` safe to print on a terminal: control characters (escape
/// sequences, bells, carriage returns) are shown escaped; newlines and tabs
/// are kept.
#[must_use]
pub fn clean(text: &str) -> std::borrow::Cow<'_, str> {
    crate::files::escape_controls(text, true)
}

/// An error and its causes on one line, `outer: inner: …`, each cause
/// shown once: a cause whose text its outer message already ends with (as
/// `cannot read x: No such file…` ends with the io error) is not repeated.
#[must_use]
pub fn error_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let part = cause.to_string();
        if !text.ends_with(&part) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&part);
        }
    }
    text
}

/// Line starts of a text, for line and column numbers in logarithmic time:
/// diagnostics stay linear in the size of the file however many problems
/// it has.
pub struct LineIndex<'a> {
    text: &'a str,
    /// The byte offset where each line starts.
    starts: Vec<usize>,
    /// Byte offsets of every 1 KiB of text with the characters before them,
    /// so that a column on a long line is counted from nearby.
    checkpoints: Vec<(usize, usize)>,
}

impl<'a> LineIndex<'a> {
    /// The index of `text`.
    #[must_use]
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let mut checkpoints = vec![(0, 0)];
        let (mut at, mut chars) = (0, 0);
        while at + CHECKPOINT < text.len() {
            let mut next = at + CHECKPOINT;
            while !text.is_char_boundary(next) {
                next += 1;
            }
            chars += text[at..next].chars().count();
            at = next;
            checkpoints.push((at, chars));
        }
        LineIndex { text, starts, checkpoints }
    }

    /// Characters before byte `offset` (a character boundary).
    fn chars_before(&self, offset: usize) -> usize {
        let i = self.checkpoints.partition_point(|&(at, _)| at <= offset).saturating_sub(1);
        let (at, chars) = self.checkpoints[i];
        chars + self.text[at..offset].chars().count()
    }

    /// The 0-based line holding byte `offset`.
    fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset).saturating_sub(1)
    }

    /// `offset` moved back to a character boundary, within the text.
    fn boundary(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    /// 1-based line and column (in characters) of byte `offset`. A
    /// byte-order mark at the start of the file is no column: it is read as
    /// nothing.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.boundary(offset);
        let line = self.line(offset);
        let mut column = self.chars_before(offset) - self.chars_before(self.starts[line]) + 1;
        if line == 0 && offset > 0 && self.text.starts_with('\u{feff}') {
            column -= 1;
        }
        (line + 1, column)
    }

    /// The whole lines that `span` touches, with the 1-based number of the
    /// first and the span relative to them.
    fn excerpt(&self, span: &Range<usize>) -> (&'a str, usize, Range<usize>) {
        let start = self.boundary(span.start);
        let end = self.boundary(span.end.max(start));
        let first = self.line(start);
        let last = self.line(end);
        let from = self.starts[first];
        let to = self.starts.get(last + 1).map_or(self.text.len(), |&s| s);
        (&self.text[from..to], first + 1, start - from..end - from)
    }
}

/// Bytes between the checkpoints of a [`LineIndex`].
const CHECKPOINT: usize = 1024;

/// Lines longer than this are drawn only around the problem.
const LONG_LINE: usize = 240;
/// Excerpts longer than this are not drawn; the problem's place is named.
const MAX_EXCERPT: usize = 16 * 1024;
/// Bytes kept either side of a problem on a long line.
const CONTEXT: usize = 60;

/// The byte offset in the file of `offset` in the excerpt starting at
/// 1-based line `first`.
fn pack_offset(index: &LineIndex<'_>, first: usize, offset: usize) -> usize {
    index.starts[first - 1] + offset
}

/// The part of one long line around `span`, with `...` where it is cut,
/// and the span moved to match.
fn window(line: &str, span: Range<usize>) -> (String, Range<usize>) {
    let floor = |mut i: usize| {
        i = i.min(line.len());
        while !line.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let from = floor(span.start.saturating_sub(CONTEXT));
    let to = floor(span.end.max(span.start + 1) + CONTEXT);
    let to = if to < line.trim_end().len() { to } else { line.len() };
    let prefix = if from > 0 { "..." } else { "" };
    let suffix = if to < line.len() { "...\n" } else { "" };
    let text = format!("{prefix}{}{suffix}", &line[from..to]);
    let shift = prefix.len();
    (text, span.start - from + shift..span.end.min(to) - from + shift)
}

/// A long line drawn around `span` below a diagnostic's title, in the
/// layout of the others: a gutter with the line number and carets.
fn long_line_excerpt(line: &str, span: Range<usize>, number: usize) -> String {
    let (text, span) = window(line, span);
    let (text, span) = clean_excerpt(&text, span);
    let text = text.trim_end();
    let width = number.to_string().len();
    let pad = text[..span.start.min(text.len())].chars().count();
    let carets = text.get(span.clone()).map_or(1, |s| s.chars().count().max(1));
    format!("\n{:width$} |\n{number} | {text}\n{:width$} | {}{}", "", "", " ".repeat(pad), "^".repeat(carets))
}

/// Source lines safe to print, with control characters other than line
/// ends and tabs escaped, and `span` moved to match.
fn clean_excerpt(lines: &str, span: Range<usize>) -> (String, Range<usize>) {
    let mut out = String::with_capacity(lines.len());
    let (mut start, mut end) = (None, None);
    let mut chars = lines.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if i >= span.start && start.is_none() {
            start = Some(out.len());
        }
        if i >= span.end && end.is_none() {
            end = Some(out.len());
        }
        let line_end = c == '\r' && chars.peek().is_some_and(|&(_, next)| next == '\n');
        if c.is_control() && c != '\n' && c != '\t' && !line_end {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    let start = start.unwrap_or(out.len());
    let end = end.unwrap_or(out.len()).max(start);
    (out, start..end)
}

/// The problems of one pack, drawn with source lines and carets.
pub fn render(pack: &PackFile, color: bool, limit: usize) -> String {
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    // A byte-order mark is drawn as nothing and counted as no column: the
    // text is drawn from after it, each span moved back by its length.
    let (text, mark) = match pack.text.strip_prefix('\u{feff}') {
        Some(rest) => (rest, pack.text.len() - rest.len()),
        None => (pack.text.as_str(), 0),
    };
    let index = LineIndex::new(text);
    let name = clean(&pack.name);
    let mut out = String::new();
    let shown = if limit == 0 { pack.parsed.problems.len() } else { limit.min(pack.parsed.problems.len()) };
    for problem in &pack.parsed.problems[..shown] {
        let level = match problem.severity() {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
            Severity::Note => Level::NOTE,
        };
        let message = clean(&problem.message);
        let title = level.primary_title(message.as_ref()).id(problem.code.as_str());
        let span = problem.span.as_ref().map(|s| s.start.saturating_sub(mark)..s.end.saturating_sub(mark));
        let group = match &span {
            Some(span) if span.start <= text.len() && !text.is_empty() => {
                let (lines, first, span) = index.excerpt(span);
                if !lines.trim_end().contains('\n') && lines.len() > LONG_LINE {
                    // One long line (a list of thousands of crates): its
                    // place is named exactly, and only the part around the
                    // problem is drawn, so that drawing stays linear.
                    let (line, column) = index.line_col(pack_offset(&index, first, span.start));
                    let origin =
                        annotate_snippets::Origin::path(name.as_ref()).line(line).char_column(column);
                    let report: &[Group<'_>] = &[title.element(origin)];
                    out.push_str(&renderer.render(report));
                    out.push_str(&long_line_excerpt(lines, span, line));
                    out.push_str("\n\n");
                    continue;
                } else if lines.len() <= MAX_EXCERPT {
                    let (lines, span) = clean_excerpt(lines, span);
                    title.element(
                        Snippet::source(lines)
                            .line_start(first)
                            .path(name.as_ref())
                            .annotation(AnnotationKind::Primary.span(span)),
                    )
                } else {
                    let (line, column) = index.line_col(pack_offset(&index, first, span.start));
                    title.element(
                        annotate_snippets::Origin::path(name.as_ref()).line(line).char_column(column),
                    )
                }
            }
            _ => title.element(annotate_snippets::Origin::path(name.as_ref())),
        };
        let report: &[Group<'_>] = &[group];
        out.push_str(&renderer.render(report));
        out.push_str("\n\n");
    }
    let hidden = &pack.parsed.problems[shown..];
    if !hidden.is_empty() {
        let mut codes: Vec<(&str, usize)> = Vec::new();
        for problem in hidden {
            match codes.iter_mut().find(|(code, _)| *code == problem.code.as_str()) {
                Some((_, n)) => *n += 1,
                None => codes.push((problem.code.as_str(), 1)),
            }
        }
        let codes: Vec<String> = codes.iter().map(|(code, n)| format!("{code} ×{n}")).collect();
        out.push_str(&format!(
            "note: {} more problem(s) in {name} not shown ({}); `--max-problems 0` shows them all, `--format json` lists them\n\n",
            hidden.len(),
            codes.join(", ")
        ));
    }
    out
}

/// One line counting packs, errors and warnings.
pub fn summary<P: std::borrow::Borrow<PackFile>>(packs: &[P]) -> String {
    let packs: Vec<&PackFile> = packs.iter().map(Borrow::borrow).collect();
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
    /// Why the file could not be read at all, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
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

fn json_problem<'a>(pack: &'a PackFile, index: &LineIndex<'_>, problem: &'a Problem) -> JsonProblem<'a> {
    let start = problem.span.as_ref().map(|s| index.line_col(s.start));
    let end = problem.span.as_ref().map(|s| index.line_col(s.end));
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

/// A file given to `check`: read (with its problems), or not readable.
pub enum Checked {
    /// Read, whatever its content.
    Read(PackFile),
    /// Could not be read at all.
    Unreadable {
        /// The file, as shown.
        path: String,
        /// Why.
        error: String,
    },
}

/// The problems of every pack as one JSON report; `unreadable` lists the
/// files that could not be read, with the reason, after them.
pub fn json(packs: &[PackFile], unreadable: &[(String, String)]) -> serde_json::Result<String> {
    let entries: Vec<JsonPack<'_>> = packs
        .iter()
        .map(json_pack)
        .chain(unreadable.iter().map(|(path, error)| unreadable_pack(path, error)))
        .collect();
    serde_json::to_string_pretty(&JsonReport { packs: entries })
}

/// The report of `files` in the order given, readable or not.
pub fn json_in_order(files: &[Checked]) -> serde_json::Result<String> {
    let entries: Vec<JsonPack<'_>> = files
        .iter()
        .map(|file| match file {
            Checked::Read(pack) => json_pack(pack),
            Checked::Unreadable { path, error } => unreadable_pack(path, error),
        })
        .collect();
    serde_json::to_string_pretty(&JsonReport { packs: entries })
}

fn json_pack(pack: &PackFile) -> JsonPack<'_> {
    let index = LineIndex::new(&pack.text);
    JsonPack {
        path: &pack.name,
        valid: !pack.parsed.has_errors(),
        levels: pack.parsed.pack.as_ref().map_or(0, |p| p.levels.len()),
        problems: pack.parsed.problems.iter().map(|p| json_problem(pack, &index, p)).collect(),
        error: None,
    }
}

fn unreadable_pack<'a>(path: &'a str, error: &'a str) -> JsonPack<'a> {
    JsonPack { path, valid: false, levels: 0, problems: Vec::new(), error: Some(error) }
}
