//! Reading a pack written as JSON (the layout of the TOML file, key for
//! key), with problems placed in the JSON text.
//!
//! The JSON is scanned once for the byte span of every key and value and
//! for duplicate keys (which JSON parsers silently resolve, and TOML
//! refuses), then written as TOML on one line per top-level key while the
//! span of every value written is noted. The TOML reader then checks it as
//! it checks any pack, and each problem's span is carried back from the
//! TOML text to the JSON value (or key) it came from.

use std::collections::HashMap;
use std::ops::Range;

use super::format::{Parsed, parse_pack};
use super::{Code, Field, Problem};

/// One step of a path into the document.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// Where a path's key and value stand in a text.
#[derive(Clone, Default, Debug)]
struct Place {
    key: Option<Range<usize>>,
    value: Option<Range<usize>>,
}

type Places = HashMap<Vec<Step>, Place>;

/// Why a pack's TOML text could not be written as JSON.
#[derive(Debug, thiserror::Error)]
pub enum ToJsonError {
    /// The text does not read back as TOML.
    #[error("the pack's text does not read back as TOML: {0}")]
    Toml(#[from] toml::de::Error),
    /// The JSON could not be written.
    #[error("cannot write the pack as JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// A pack in the JSON layout: its canonical TOML text, key for key. The
/// one way every tool (export, the editor, repair) writes a pack as JSON.
///
/// # Errors
/// Never for a pack the writer wrote; the error is kept for the types.
pub fn write_pack_json(pack: &super::Pack) -> Result<String, ToJsonError> {
    toml_to_json(&super::format::write_pack(pack))
}

/// A pack's TOML text (as [`super::format::write_pack`] writes it) in the
/// JSON layout: the same keys, pretty-printed, with a final newline.
///
/// # Errors
/// When the text is not TOML.
pub fn toml_to_json(text: &str) -> Result<String, ToJsonError> {
    let value: toml::Value = toml::from_str(text)?;
    Ok(format!("{}\n", serde_json::to_string_pretty(&value)?))
}

/// Reads a pack exported as JSON (the same layout as the TOML file), with
/// problems placed in the JSON text: a key given twice is E001 and `null`
/// is E002. Never panics: anything wrong is a [`Problem`] with a span in
/// `text` where it has a place.
#[must_use]
pub fn parse_pack_json(text: &str) -> Parsed {
    if text.len() > super::MAX_FILE_BYTES {
        // The TOML reader refuses an oversized file with the same problem.
        return parse_pack(text);
    }
    parse_json_text(text)
}

fn parse_json_text(text: &str) -> Parsed {
    let fatal = Parsed::failed;
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            let offset = offset_of(text, e.line(), e.column());
            let message = format!("the file is not JSON: {}", strip_position(&e.to_string()));
            return fatal(Problem::new(Code::Syntax, Field::Pack, message).at(offset..offset));
        }
    };
    let mut scanner = Scanner { text: text.as_bytes(), at: 0, places: Places::new(), duplicate: None };
    scanner.value(&mut Vec::new());
    if let Some((key, span)) = scanner.duplicate {
        return fatal(
            Problem::new(Code::Syntax, Field::Pack, format!("duplicate key `{}`", key.escape_debug()))
                .at(span),
        );
    }
    let json_places = scanner.places;
    let mut writer = TomlWriter { out: String::new(), places: Vec::new(), problem: None };
    // A schema problem at the JSON value of `path`, placed when it has a place.
    let schema_problem = |path: &[Step], message: String| {
        let problem = Problem::new(Code::Schema, Field::Pack, message);
        match json_places.get(path).and_then(|p| p.value.clone()) {
            Some(span) => fatal(problem.at(span)),
            None => fatal(problem),
        }
    };
    let serde_json::Value::Object(root) = &value else {
        return schema_problem(&[], "a pack is a JSON object".to_owned());
    };
    writer.root(root);
    if let Some((path, message)) = writer.problem.take() {
        return schema_problem(&path, message);
    }
    writer.index();
    let mut parsed = parse_pack(&writer.out);
    for problem in &mut parsed.problems {
        problem.span = problem.span.take().and_then(|span| {
            let (path, is_key) = writer.path_at(&span)?;
            let place = json_places.get(&path)?;
            if is_key { place.key.clone().or_else(|| place.value.clone()) } else { place.value.clone() }
        });
    }
    parsed
}

/// serde_json's message without its " at line L column C" tail, which the
/// span replaces.
fn strip_position(message: &str) -> &str {
    message.rfind(" at line ").map_or(message, |i| &message[..i])
}

/// The byte offset of 1-based `line` and `column` (serde_json counts
/// columns in bytes).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    let mut offset = (start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A scanner over JSON text already known to be valid: the spans of keys
/// and values by path, and the first duplicate key.
struct Scanner<'a> {
    text: &'a [u8],
    at: usize,
    places: Places,
    duplicate: Option<(String, Range<usize>)>,
}

impl Scanner<'_> {
    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn value(&mut self, path: &mut Vec<Step>) {
        self.skip_space();
        let start = self.at;
        match self.text.get(self.at) {
            Some(b'{') => self.object(path),
            Some(b'[') => self.array(path),
            Some(b'"') => {
                self.string();
            }
            Some(_) => {
                while self.text.get(self.at).is_some_and(|b| !b",]} \t\r\n".contains(b)) {
                    self.at += 1;
                }
            }
            None => return,
        }
        self.places.entry(path.clone()).or_default().value = Some(start..self.at);
    }

    /// Skips a string and returns its content (unescaped by serde_json).
    fn string(&mut self) -> String {
        let start = self.at;
        self.at += 1;
        while let Some(&b) = self.text.get(self.at) {
            self.at += 1;
            match b {
                b'\\' => self.at += 1,
                b'"' => break,
                _ => {}
            }
        }
        let raw = self.text.get(start..self.at).unwrap_or_default();
        std::str::from_utf8(raw).ok().and_then(|s| serde_json::from_str(s).ok()).unwrap_or_default()
    }

    fn object(&mut self, path: &mut Vec<Step>) {
        self.at += 1;
        let mut seen = std::collections::HashSet::new();
        loop {
            self.skip_space();
            match self.text.get(self.at) {
                Some(b'}') | None => {
                    self.at += 1;
                    return;
                }
                Some(b',') => self.at += 1,
                Some(b'"') => {
                    let key_start = self.at;
                    let key = self.string();
                    let key_span = key_start..self.at;
                    if !seen.insert(key.clone()) && self.duplicate.is_none() {
                        self.duplicate = Some((key.clone(), key_span.clone()));
                    }
                    self.skip_space();
                    self.at += 1; // the colon
                    path.push(Step::Key(key));
                    self.places.entry(path.clone()).or_default().key = Some(key_span);
                    self.value(path);
                    path.pop();
                }
                Some(_) => self.at += 1,
            }
        }
    }

    fn array(&mut self, path: &mut Vec<Step>) {
        self.at += 1;
        let mut index = 0;
        loop {
            self.skip_space();
            match self.text.get(self.at) {
                Some(b']') | None => {
                    self.at += 1;
                    return;
                }
                Some(b',') => self.at += 1,
                Some(_) => {
                    path.push(Step::Index(index));
                    self.value(path);
                    path.pop();
                    index += 1;
                }
            }
        }
    }
}

/// Writes a JSON document as TOML, noting where each value and key went.
struct TomlWriter {
    out: String,
    /// (span in the TOML text, path, whether the span is the key's).
    places: Vec<(Range<usize>, Vec<Step>, bool)>,
    /// The first value TOML cannot hold, with its path.
    problem: Option<(Vec<Step>, String)>,
}

impl TomlWriter {
    fn root(&mut self, root: &serde_json::Map<String, serde_json::Value>) {
        let mut path = Vec::new();
        for (key, value) in root {
            path.push(Step::Key(key.clone()));
            self.key(key, &path);
            self.out.push_str(" = ");
            self.value(value, &mut path);
            self.out.push('\n');
            path.pop();
        }
    }

    fn key(&mut self, key: &str, path: &[Step]) {
        let start = self.out.len();
        self.out.push_str(&quote(key));
        self.places.push((start..self.out.len(), path.to_vec(), true));
    }

    fn value(&mut self, value: &serde_json::Value, path: &mut Vec<Step>) {
        let start = self.out.len();
        match value {
            serde_json::Value::Null => {
                // Readers ignore `derived`, whatever it holds.
                let derived = path.iter().any(|step| matches!(step, Step::Key(key) if key == "derived"));
                if !derived {
                    self.fail(path, "`null` is not a value in a pack; leave the key out instead");
                }
                self.out.push_str("\"\"");
            }
            serde_json::Value::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            serde_json::Value::Number(n) => match (n.as_i64(), n.as_f64()) {
                (Some(i), _) => self.out.push_str(&i.to_string()),
                (None, Some(f)) if n.is_f64() => self.out.push_str(&toml_edit::Value::from(f).to_string()),
                _ => {
                    self.fail(path, &format!("{n} is too large for a pack's whole numbers"));
                    self.out.push('0');
                }
            },
            serde_json::Value::String(s) => self.out.push_str(&quote(s)),
            serde_json::Value::Array(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    path.push(Step::Index(i));
                    self.value(item, path);
                    path.pop();
                }
                self.out.push(']');
            }
            serde_json::Value::Object(map) => {
                self.out.push('{');
                for (i, (key, item)) in map.iter().enumerate() {
                    self.out.push_str(if i > 0 { ", " } else { " " });
                    path.push(Step::Key(key.clone()));
                    self.key(key, path);
                    self.out.push_str(" = ");
                    self.value(item, path);
                    path.pop();
                }
                self.out.push_str(if map.is_empty() { "}" } else { " }" });
            }
        }
        self.places.push((start..self.out.len(), path.clone(), false));
    }

    fn fail(&mut self, path: &[Step], message: &str) {
        if self.problem.is_none() {
            self.problem = Some((path.to_vec(), message.to_owned()));
        }
    }

    /// Sorts the places for [`TomlWriter::path_at`]: by start, and the
    /// larger first where two start together.
    fn index(&mut self) {
        self.places.sort_by_key(|(place, _, _)| (place.start, std::cmp::Reverse(place.end)));
    }

    /// The path of the innermost value or key whose TOML span holds `span`.
    /// Places nest, so going back from the last place that starts at or
    /// before `span`, the first that holds it is the innermost.
    fn path_at(&self, span: &Range<usize>) -> Option<(Vec<Step>, bool)> {
        let after = self.places.partition_point(|(place, _, _)| place.start <= span.start);
        self.places[..after]
            .iter()
            .rev()
            .find(|(place, _, _)| span.start < place.end.max(place.start + 1))
            .map(|(_, path, is_key)| (path.clone(), *is_key))
    }
}

/// A TOML basic string for `text`, on one line.
fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
