//! Problems found in a level pack: each with a stable code, a severity, a
//! message and where it comes from.

use std::fmt;
use std::ops::Range;

use crate::rules::{Cell, RuleOption};

/// How much a problem of a pack, or a finding of the analysis, matters:
/// one scale for both.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The pack or level cannot be used, or not played or won as designed.
    Error,
    /// Playable, but probably not what the designer meant: unfair,
    /// stall-prone or otherwise suspicious.
    Warning,
    /// Information (findings only: a pack problem is never a note).
    Note,
}

macro_rules! codes {
    ($($name:ident = $code:literal, $severity:ident, $doc:literal;)*) => {
        /// The stable code of each kind of problem. Codes never change
        /// meaning; `docs/format.md` lists them all.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum Code {
            $(#[doc = $doc] $name,)*
        }

        impl Code {
            /// Every code, in order.
            pub const ALL: &'static [Code] = &[$(Code::$name,)*];

            /// The code as written in reports, such as `E012`.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $(Code::$name => $code,)* }
            }

            /// The severity of problems with this code.
            #[must_use]
            pub const fn severity(self) -> Severity {
                match self { $(Code::$name => Severity::$severity,)* }
            }

            /// One line saying what the code means.
            #[must_use]
            pub const fn summary(self) -> &'static str {
                match self { $(Code::$name => $doc,)* }
            }
        }
    };
}

codes! {
    Syntax = "E001", Error, "The file is not valid TOML.";
    Schema = "E002", Error, "A key is unknown, missing, or has the wrong type.";
    Version = "E003", Error, "The format version is missing or not supported.";
    TooLarge = "E004", Error, "The file is larger than 4 MiB.";
    TooManyLevels = "E005", Error, "The pack has more than 10,000 levels.";
    ValueTooLong = "E006", Error, "A text or list is longer than the format allows.";
    NoLevels = "E007", Error, "The pack has no level.";
    Size = "E010", Error, "The size is unreadable or out of range (5 to 11 each way).";
    MapShape = "E011", Error, "The map's rows do not match the level's size.";
    MapChar = "E012", Error, "The map has a character other than `#` (wall) and `.` (floor).";
    CellName = "E013", Error, "A cell name cannot be read.";
    OffBoard = "E014", Error, "A cell lies outside the board.";
    OnWall = "E015", Error, "A start square, goal cell, the flag or a crate lies on a wall.";
    MissingStart = "E016", Error, "A player has no start square.";
    SharedStart = "E017", Error, "Both players start on the same cell.";
    CrateOnStart = "E018", Error, "A crate stands on a start square.";
    CrateOnFlag = "E019", Error, "A crate stands on the flag's cell.";
    EmptyGoals = "E020", Error, "A goal set is empty.";
    DuplicateId = "E021", Error, "Two levels share an id.";
    StageName = "E022", Error, "A crate's stage is not intact, cracked, rubble or splinters.";
    FlagOnStart = "E023", Error, "The flag starts on a start square.";
    RouteWalledOff = "E024", Error, "Walls alone cut a route: the level cannot be won by the flag.";
    DuplicateCell = "E025", Error, "A cell is listed twice in the same list.";
    BadId = "E026", Error, "A level id is empty or has characters other than letters, digits, `-` and `_`.";
    RuleRange = "E027", Error, "A rule option is out of its range.";
    RuleValue = "E028", Error, "The `jump` option is not `diagonal`, `straight` or `none`.";
    FirstPlayer = "E029", Error, "`first` is not 1 or 2.";
    Expectation = "E030", Error, "An expectation is not one the format knows (format version 2).";
    RouteCutByCrates = "W001", Warning, "Initial crates cut a route; the path rule will not protect it.";
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Where in a pack a problem lies, independent of any file.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Field {
    /// The pack as a whole.
    Pack,
    /// A top-level key (`format`, `name`) or a `rules` key (`rules.jump`).
    PackKey(&'static str),
    /// A key of the `[rules]` table.
    Rule(RuleOption),
    /// A level as a whole, by its index in the pack.
    Level(usize),
    /// A key of a level, such as `p1.start` or `size`.
    LevelKey(usize, &'static str),
    /// One cell named by a level key, such as a crate in `crates` or a wall
    /// in `map`.
    LevelCell(usize, &'static str, Cell),
}

impl Field {
    /// The index of the level the field belongs to, if any.
    #[must_use]
    pub const fn level(&self) -> Option<usize> {
        match self {
            Field::Level(i) | Field::LevelKey(i, _) | Field::LevelCell(i, _, _) => Some(*i),
            Field::Pack | Field::PackKey(_) | Field::Rule(_) => None,
        }
    }
}

/// One problem of a pack.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Problem {
    /// The stable code.
    pub code: Code,
    /// What is wrong, as a sentence without a final stop.
    pub message: String,
    /// Where in the pack.
    pub field: Field,
    /// Cells the problem concerns, for drawing it on a board.
    pub cells: Vec<Cell>,
    /// The byte range in the source file, when the pack came from one.
    pub span: Option<Range<usize>>,
}

impl Problem {
    /// A problem at `field`, with no cells and no span yet.
    #[must_use]
    pub fn new(code: Code, field: Field, message: impl Into<String>) -> Problem {
        Problem { code, message: message.into(), field, cells: Vec::new(), span: None }
    }

    /// The same problem with a source span.
    #[must_use]
    pub fn at(mut self, span: Range<usize>) -> Problem {
        self.span = Some(span);
        self
    }

    /// The same problem concerning `cells`.
    #[must_use]
    pub fn with_cells(mut self, cells: impl IntoIterator<Item = Cell>) -> Problem {
        self.cells.extend(cells);
        self
    }

    /// The problem's severity.
    #[must_use]
    pub const fn severity(&self) -> Severity {
        self.code.severity()
    }

    /// Whether it is an error.
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.severity() == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}
