//! The TOML level-pack format: reading with exact error positions, and
//! writing. `docs/format.md` documents every key.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::validate::{goals_key, start_key};
use super::{
    Code, DEFAULT_PACK_TOML, Expectation, FLAWED_PACK_TOML, FORMAT_VERSION, Field, Level, MAX_FILE_BYTES,
    MAX_LEVELS, OLDEST_FORMAT_VERSION, Pack, Problem,
};
use crate::rules::{
    Bitboard, ByPlayer, Cell, JumpRule, MAX_SIDE, MIN_SIDE, Player, RuleOption, Rules, Stage,
};

impl Pack {
    /// The bundled default pack.
    ///
    /// # Panics
    /// Never in a released build: a test loads the bundled file and checks
    /// that it has no error.
    #[must_use]
    #[allow(clippy::expect_used)]
    pub fn bundled() -> Pack {
        parse_pack(DEFAULT_PACK_TOML).pack.expect("the bundled pack parses")
    }

    /// The bundled pack of flawed levels.
    ///
    /// # Panics
    /// Never in a released build: a test loads the bundled file and checks
    /// that it has no error.
    #[must_use]
    #[allow(clippy::expect_used)]
    pub fn bundled_flawed() -> Pack {
        parse_pack(FLAWED_PACK_TOML).pack.expect("the bundled flawed pack parses")
    }

    /// Both bundled packs: the showcase, then the flawed levels.
    #[must_use]
    pub fn bundled_both() -> [Pack; 2] {
        [Pack::bundled(), Pack::bundled_flawed()]
    }

    /// The bundled pack that holds level `id`, if either does.
    #[must_use]
    pub fn bundled_with(id: &str) -> Option<Pack> {
        Pack::bundled_both().into_iter().find(|pack| pack.level(id).is_some())
    }
}

/// The schema's default of `crates`: none.
fn no_crates() -> Vec<String> {
    Vec::new()
}

#[derive(Deserialize)]
struct VersionProbe {
    format: Option<Spanned<toml::Value>>,
}

/// An integer as the schema means one: a whole number, written `2` or
/// `2.0` (JSON Schema counts `2.0` an integer, and JSON writers may write it
/// so); `2.5` is refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Whole(i64);

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Whole, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Whole;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Whole, E> {
                Ok(Whole(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Whole, E> {
                i64::try_from(v)
                    .map(Whole)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Whole, E> {
                // Within ±2^53 every whole float is exactly an integer.
                if v.fract() == 0.0 && v.abs() <= 9_007_199_254_740_992.0 {
                    #[allow(clippy::cast_possible_truncation)]
                    Ok(Whole(v as i64))
                } else {
                    Err(E::invalid_type(serde::de::Unexpected::Float(v), &self))
                }
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// Free text as the schema means it: a string. A TOML date or time written
/// unquoted (`name = 1979-05-27`) is not text to a TOML reader (Python's
/// `tomllib` gives a `datetime`, which the schema's `string` refuses), so it
/// is E002 with the fix in its message, not text whose spelling a client
/// would have to guess.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Text(String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Text, D::Error> {
        use serde::de::{Error as _, Unexpected};
        match toml::Value::deserialize(deserializer)? {
            toml::Value::String(text) => Ok(Text(text)),
            toml::Value::Datetime(_) => Err(D::Error::custom(
                "invalid type: TOML date-time, expected a string; to mean it as text, put it in quotes",
            )),
            other => {
                let unexpected = match &other {
                    toml::Value::Integer(n) => Unexpected::Signed(*n),
                    toml::Value::Float(x) => Unexpected::Float(*x),
                    toml::Value::Boolean(b) => Unexpected::Bool(*b),
                    toml::Value::Array(_) => Unexpected::Seq,
                    _ => Unexpected::Map,
                };
                Err(D::Error::invalid_type(unexpected, &"a string"))
            }
        }
    }
}

/// A table of the format. serde's derived `Deserialize` also reads a
/// struct written as an array of its values in field order
/// (`p1 = ["c1", ["a1"]]`), which the format and the schema refuse: this
/// takes a table only, and anything else is the usual located E002.
struct Table<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Table<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Table<T>, D::Error> {
        struct Visitor<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Visitor<T> {
            type Value = Table<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a table")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Table<T>, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Table)
            }
        }
        deserializer.deserialize_map(Visitor(std::marker::PhantomData))
    }
}

/// The version a `format` value names, if it is a whole number.
fn version_of(value: &toml::Value) -> Option<i64> {
    match value {
        toml::Value::Integer(n) => Some(*n),
        #[allow(clippy::cast_possible_truncation)]
        toml::Value::Float(x) if x.fract() == 0.0 && x.abs() <= 9_007_199_254_740_992.0 => Some(*x as i64),
        _ => None,
    }
}

/// Types that only describe values for the JSON Schema: the reader parses
/// these strings itself, with exact positions for errors.
mod schema_types {
    #![allow(dead_code)]
    use schemars::JsonSchema;

    use crate::rules::{
        CRATE_PLACEMENTS_RANGE, CRATES_TO_WIN_RANGE, DRAW_ACTIONS_RANGE, FLAG_BONUS_ACTIONS_RANGE, MAX_SIDE,
        MIN_SIDE,
    };

    /// A cell name: a file letter `a`–`k`, then a rank `1`–`11`.
    #[derive(JsonSchema)]
    pub struct CellName(#[schemars(pattern(r"^[a-k](1[01]|[1-9])$"))] String);

    /// An expectation of the level's designer (format version 2).
    #[derive(JsonSchema)]
    pub struct ExpectationName(
        #[schemars(pattern(
            r"^(valid|no-warnings|unwinnable|balanced|decided:[12]|unbalanced:[12]|finding:[AEW][0-9]{3})$"
        ))]
        String,
    );

    /// A crate: its cell, then optionally `:` and its stage (intact when left out).
    #[derive(JsonSchema)]
    pub struct CrateEntry(
        #[schemars(pattern(r"^[a-k](1[01]|[1-9])(:(intact|cracked|rubble|splinters))?$"))] String,
    );

    /// `WxH`: W files (columns, lettered `a`… from the left) by H ranks
    /// (rows, numbered 1… from the bottom), each from 5 to 11, such as `9x9`
    /// or `8x6` (8 files, 6 ranks).
    #[derive(JsonSchema)]
    pub struct Size(#[schemars(pattern(r"^([5-9]|1[01])x([5-9]|1[01])$"))] String);

    /// A level id: 1 to 64 letters, digits, `-` and `_`.
    #[derive(JsonSchema)]
    pub struct LevelId(#[schemars(pattern(r"^[A-Za-z0-9_-]{1,64}$"))] String);

    /// The walls: one row per rank, the top rank (rank H) first, so that the
    /// last row is rank 1, the bottom row; one character per file, file `a`
    /// first; `#` wall and `.` floor.
    /// Rows end with `\n` or `\r\n`; spaces and tabs around a row, and blank
    /// lines, are ignored.
    // Every row splits one way only (blanks, then optionally a run of `#`
    // and `.` with its trailing blanks), so that a backtracking validator
    // reads any text in linear time; CI runs every pattern of the schema
    // through a ReDoS checker (scripts/check_patterns.js).
    #[derive(JsonSchema)]
    pub struct Map(#[schemars(pattern(r"^(?:[ \t]*(?:[#.]+[ \t]*)?\r?\n)*[ \t]*(?:[#.]+[ \t]*)?$"))] String);

    /// Which jumps are allowed.
    #[derive(JsonSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Jump {
        /// Straight, or beside the opponent when the cell beyond is blocked.
        Diagonal,
        /// Straight only.
        Straight,
        /// No jumps.
        None,
    }

    /// Derived figures a tool added for clients (`pushcrate export
    /// --with-analysis`). Never read back: the level's own keys are the
    /// truth, and a reader accepts any content here.
    #[derive(JsonSchema)]
    pub struct Derived {
        /// The version of the derived table's layout (now 1).
        #[schemars(range(min = 1))]
        pub version: Option<i64>,
        /// The level's values with every default applied.
        pub resolved: Option<Resolved>,
        /// Whether the level has no error.
        pub valid: Option<bool>,
        /// Steps of each route over the floor; -1 where walls cut it.
        pub route_steps: Option<RouteSteps>,
        /// Who reaches the flag first, and by how many actions.
        pub race: Option<Race>,
        /// Cells where no crate may go at the start.
        #[schemars(extend("uniqueItems" = true))]
        pub sole_path_cells: Option<Vec<CellName>>,
        /// How many cells can take a crate at the start.
        #[schemars(range(min = 0))]
        pub placement_cells: Option<i64>,
        /// The board's symmetries.
        pub symmetry: Option<DerivedSymmetry>,
        /// The analysis finding codes of the level, each once.
        #[schemars(extend("uniqueItems" = true), inner(regex(pattern = r"^[AEW][0-9]{3}$")))]
        pub findings: Option<Vec<String>>,
        /// A greedy self-play balance measurement.
        pub balance: Option<DerivedBalance>,
        /// The balance estimate before any game, with its measured accuracy.
        pub estimate: Option<DerivedEstimate>,
    }

    /// The balance estimate before any game: the fitted evaluation's chance
    /// that the first player wins, after a shallow search.
    #[derive(JsonSchema)]
    pub struct DerivedEstimate {
        /// The first player's expected score, 0 to 1.
        #[schemars(range(min = 0.0, max = 1.0))]
        pub first_player_score: Option<f64>,
        /// The estimate's mean absolute error against the balance check on
        /// held-out generated levels, in points.
        #[schemars(range(min = 0.0))]
        pub mean_error_points: Option<f64>,
        /// How many held-out levels that error was measured on.
        #[schemars(range(min = 0))]
        pub held_out_levels: Option<i64>,
    }

    /// The level's values with every default applied, so that a client
    /// needs no default table of its own: the board's size, who moves
    /// first, the flag's cell, each player's start and goal cells, and every
    /// rule option of the pack.
    #[derive(JsonSchema)]
    pub struct Resolved {
        /// Files (columns, `a` at the left), 5 to 11: the W of `size`.
        #[schemars(range(min = MIN_SIDE, max = MAX_SIDE))]
        pub width: Option<i64>,
        /// Ranks (rows, rank 1 at the bottom), 5 to 11: the H of `size`.
        #[schemars(range(min = MIN_SIDE, max = MAX_SIDE))]
        pub height: Option<i64>,
        /// The player who moves first.
        #[schemars(range(min = 1, max = 2))]
        pub first: Option<i64>,
        /// The flag's starting cell.
        pub flag: Option<CellName>,
        /// Player 1's start square and goal cells.
        pub p1: Option<ResolvedPlayer>,
        /// Player 2's start square and goal cells.
        pub p2: Option<ResolvedPlayer>,
        /// Every rule option, the pack's value or its default.
        pub rules: Option<ResolvedRules>,
    }

    /// A player's start square and goal cells, the default applied.
    #[derive(JsonSchema)]
    pub struct ResolvedPlayer {
        /// The start square.
        pub start: Option<CellName>,
        /// The goal cells, sorted by rank then file.
        #[schemars(extend("uniqueItems" = true))]
        pub goals: Option<Vec<CellName>>,
    }

    /// Every rule option of docs/rules.md.
    #[derive(JsonSchema)]
    pub struct ResolvedRules {
        #[schemars(range(min = CRATES_TO_WIN_RANGE.0, max = CRATES_TO_WIN_RANGE.1))]
        pub crates_to_win: Option<i64>,
        #[schemars(range(min = CRATE_PLACEMENTS_RANGE.0, max = CRATE_PLACEMENTS_RANGE.1))]
        pub crate_placements: Option<i64>,
        #[schemars(range(min = FLAG_BONUS_ACTIONS_RANGE.0, max = FLAG_BONUS_ACTIONS_RANGE.1))]
        pub flag_bonus_actions: Option<i64>,
        #[schemars(range(min = DRAW_ACTIONS_RANGE.0, max = DRAW_ACTIONS_RANGE.1))]
        pub draw_offer_after: Option<i64>,
        #[schemars(range(min = DRAW_ACTIONS_RANGE.0, max = DRAW_ACTIONS_RANGE.1))]
        pub draw_reoffer_gap: Option<i64>,
        pub jump: Option<Jump>,
    }

    /// Steps of each route; -1 where walls cut it.
    #[derive(JsonSchema)]
    pub struct RouteSteps {
        #[schemars(range(min = -1))]
        pub p1_start_to_flag: Option<i64>,
        #[schemars(range(min = -1))]
        pub p1_flag_to_goal: Option<i64>,
        #[schemars(range(min = -1))]
        pub p2_start_to_flag: Option<i64>,
        #[schemars(range(min = -1))]
        pub p2_flag_to_goal: Option<i64>,
    }

    /// The race to the flag (see docs/analysis.md).
    #[derive(JsonSchema)]
    pub struct Race {
        /// 1 or 2.
        #[schemars(range(min = 1, max = 2))]
        pub first_to_flag: Option<i64>,
        /// The lead in actions.
        #[schemars(range(min = 0))]
        pub lead: Option<i64>,
    }

    // The wire form of `analysis::Symmetries`, one field per
    // `rules::Symmetry` (a plain comment: doc comments go into the schema).
    /// The board's symmetries.
    #[derive(JsonSchema)]
    pub struct DerivedSymmetry {
        pub half_turn_swapping_players: Option<bool>,
        pub mirror_ranks_swapping_players: Option<bool>,
        pub mirror_files: Option<bool>,
    }

    /// A self-play balance measurement.
    #[derive(JsonSchema)]
    pub struct DerivedBalance {
        #[schemars(range(min = 0))]
        pub games: Option<i64>,
        pub agents: Option<String>,
        #[schemars(range(min = 0.0, max = 1.0))]
        pub first_player_score: Option<f64>,
        #[schemars(range(min = 0.0, max = 1.0))]
        pub first_player_low: Option<f64>,
        #[schemars(range(min = 0.0, max = 1.0))]
        pub first_player_high: Option<f64>,
        #[schemars(range(min = 0.0, max = 1.0))]
        pub stall_rate: Option<f64>,
    }
}

/// A Push Crate level pack (format version 1 or 2). See docs/format.md.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Push Crate level pack")]
struct RawPack {
    /// The JSON Schema the file names for its editor or validator (this
    /// format's is `pushcrate schema`); readers ignore it.
    #[serde(rename = "$schema")]
    #[allow(dead_code)]
    #[schemars(with = "Option<String>")]
    schema: Option<Spanned<String>>,
    /// The format version: 1, or 2 where a level has `expect`.
    #[allow(dead_code)]
    #[schemars(with = "i64", range(min = 1, max = 2))]
    format: Spanned<Whole>,
    /// The pack's name.
    #[schemars(with = "String", length(max = 200))]
    name: Spanned<Text>,
    /// Who made the pack.
    #[schemars(with = "Option<String>")]
    author: Option<Spanned<Text>>,
    /// What the pack is for.
    #[schemars(with = "Option<String>")]
    description: Option<Spanned<Text>>,
    /// Rule options for every level; missing keys take their defaults.
    #[schemars(with = "Option<RawRules>")]
    rules: Option<Table<RawRules>>,
    /// The levels, in order.
    #[serde(default)]
    #[schemars(with = "Vec<RawLevel>", required, length(min = 1, max = 10000))]
    level: Vec<Table<RawLevel>>,
}

/// The options of docs/rules.md; each key is optional.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Rules")]
struct RawRules {
    /// Destroyed crates that win (default 5).
    #[schemars(with = "Option<i64>", range(min = 1, max = 50))]
    crates_to_win: Option<Spanned<Whole>>,
    /// Crates each player may place in a game (default 6).
    #[schemars(with = "Option<i64>", range(min = 0, max = 60))]
    crate_placements: Option<Spanned<Whole>>,
    /// Extra actions for picking up the flag (default 2).
    #[schemars(with = "Option<i64>", range(min = 0, max = 8))]
    flag_bonus_actions: Option<Spanned<Whole>>,
    /// Actions before a draw may be offered (default 50).
    #[schemars(with = "Option<i64>", range(min = 0, max = 10000))]
    draw_offer_after: Option<Spanned<Whole>>,
    /// Actions between one player's draw offers (default 20).
    #[schemars(with = "Option<i64>", range(min = 0, max = 10000))]
    draw_reoffer_gap: Option<Spanned<Whole>>,
    /// Which jumps are allowed (default diagonal).
    #[schemars(with = "Option<schema_types::Jump>")]
    jump: Option<Spanned<String>>,
}

/// One level.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Level")]
struct RawLevel {
    /// Unique in the pack.
    #[schemars(with = "schema_types::LevelId")]
    id: Spanned<String>,
    /// A display name (may be empty).
    #[schemars(with = "String", length(max = 200))]
    name: Spanned<Text>,
    /// Who made the level.
    #[schemars(with = "Option<String>", length(max = 200))]
    author: Option<Spanned<Text>>,
    /// Notes for designers.
    #[schemars(with = "Option<String>", length(max = 10000))]
    notes: Option<Spanned<Text>>,
    /// Free tags.
    #[serde(default)]
    #[schemars(length(max = 32), inner(length(max = 64)))]
    tags: Vec<String>,
    /// `WxH`: W files (columns) by H ranks (rows).
    #[schemars(with = "schema_types::Size")]
    size: Spanned<String>,
    /// The walls; without it the board has none.
    #[schemars(with = "Option<schema_types::Map>")]
    map: Option<Spanned<String>>,
    /// Who moves first (default 1).
    #[schemars(with = "Option<i64>", range(min = 1, max = 2))]
    first: Option<Spanned<Whole>>,
    /// The flag's starting cell. Default: the centre, file `(W-1)/2` and rank
    /// `(H-1)/2` counted from 0 (`e5` on 9 × 9; on an even side, the lower or
    /// left of the two middle cells, so `e5` on 10 × 10).
    #[schemars(with = "Option<schema_types::CellName>")]
    flag: Option<Spanned<String>>,
    /// Player 1.
    #[schemars(with = "RawPlayer")]
    p1: Option<Spanned<Table<RawPlayer>>>,
    /// Player 2.
    #[schemars(with = "RawPlayer")]
    p2: Option<Spanned<Table<RawPlayer>>>,
    /// Initial crates.
    #[serde(default)]
    #[schemars(with = "Vec<schema_types::CrateEntry>", default = "no_crates")]
    crates: Option<Spanned<Vec<Spanned<String>>>>,
    /// What the level's designer expects of it, checked by `pushcrate
    /// analyze --verify` (format version 2): `valid`, `no-warnings`,
    /// `finding:CODE`, `unwinnable`, `decided:1`, `decided:2`, `balanced`,
    /// `unbalanced:1`, `unbalanced:2`.
    #[schemars(with = "Option<Vec<schema_types::ExpectationName>>", extend("uniqueItems" = true))]
    expect: Option<Spanned<Vec<Spanned<String>>>>,
    /// Derived figures for clients; ignored when read.
    #[allow(dead_code)]
    #[schemars(with = "Option<schema_types::Derived>")]
    derived: Option<serde::de::IgnoredAny>,
}

/// A player's start square and goal set.
#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Player")]
struct RawPlayer {
    /// The start square.
    #[schemars(with = "schema_types::CellName")]
    start: Option<Spanned<String>>,
    /// The goal set. Default: every floor cell of the start square's rank
    /// (`a1`–`i1` less walls for a start on `e1`), not the start square
    /// alone.
    #[schemars(
        with = "Option<Vec<schema_types::CellName>>",
        length(min = 1),
        extend("uniqueItems" = true)
    )]
    goals: Option<Spanned<Vec<Spanned<String>>>>,
}

/// The JSON Schema of the pack format, made from the reader's own types so
/// that it cannot drift from what the reader accepts. A TOML pack read as
/// JSON (or exported as JSON) validates against it.
#[must_use]
pub fn pack_schema() -> serde_json::Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(RawPack)).unwrap_or_default();
    strict_schema(&mut schema);
    if let Some(serde_json::Value::Array(required)) = schema.get_mut("required")
        && !required.iter().any(|k| k == "level")
    {
        // `level` reads as empty when left out, then fails as E007.
        required.push("level".into());
    }
    no_final_newline(&mut schema);
    // Readers ignore `derived`, whatever it holds, so the schema does not
    // constrain it either; the layout export writes stays in `$defs` for
    // clients that read it.
    if let Some(derived) = schema.pointer_mut("/$defs/Level/properties/derived") {
        *derived = serde_json::json!({
            "description": "Derived figures for clients, as `pushcrate export --with-analysis` writes them (their layout is `#/$defs/Derived`). Readers ignore this key whatever it holds, and so does this schema."
        });
    }
    schema_defaults(&mut schema);
    if let Some(object) = schema.as_object_mut() {
        object.insert("$id".into(), "https://pushcrate.invalid/schemas/pack-2.json".into());
        // `expect` is version 2's: a pack that says `format = 1` has none
        // (E003, as the reader says).
        object.insert(
            "if".into(),
            serde_json::json!({ "type": "object", "properties": { "format": { "const": 1 } }, "required": ["format"] }),
        );
        object.insert(
            "then".into(),
            serde_json::json!({
                "type": "object",
                "properties": {
                    "level": {
                        "type": "array",
                        "items": { "type": "object", "not": { "type": "object", "properties": { "expect": true }, "required": ["expect"] } }
                    }
                }
            }),
        );
    }
    schema
}

/// A `default` keyword for every key whose default is a constant: the rule
/// options (from [`Rules::DEFAULT`], so the schema cannot drift from the
/// engine), who moves first, tags and crates. The flag's cell and the goal
/// sets default to values computed from the level; their descriptions say
/// how.
fn schema_defaults(schema: &mut serde_json::Value) {
    let rules = crate::rules::Rules::DEFAULT;
    let mut defaults: Vec<(String, serde_json::Value)> = crate::rules::RuleOption::ALL
        .into_iter()
        .map(|option| {
            let value = if option == crate::rules::RuleOption::Jump {
                serde_json::Value::from(rules.jump.name())
            } else {
                serde_json::Value::from(rules.number(option))
            };
            (format!("/$defs/Rules/properties/{}", option.key()), value)
        })
        .collect();
    defaults.push(("/$defs/Level/properties/first".to_owned(), serde_json::json!(1)));
    defaults.push(("/$defs/Level/properties/tags".to_owned(), serde_json::json!([])));
    defaults.push(("/$defs/Level/properties/crates".to_owned(), serde_json::json!([])));
    for (pointer, value) in defaults {
        if let Some(serde_json::Value::Object(property)) = schema.pointer_mut(&pointer) {
            property.insert("default".into(), value);
        }
    }
}

/// Refuses a final newline wherever a pattern describes a one-line string:
/// `$` in Python's `re` (so in the `jsonschema` package) also matches before
/// a final `\n`, where ECMA-262 (ajv), Rust's `regex` (taplo) and the reader
/// refuse it. A pattern of its own that finds a newline, under `not`, makes
/// all of them agree.
fn no_final_newline(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(object) => {
            let one_line = object
                .get("pattern")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|p| !p.contains("\\n") && !p.contains('\n'));
            if one_line && !object.contains_key("not") {
                object.insert("not".into(), serde_json::json!({ "pattern": "\n" }));
            }
            object.values_mut().for_each(no_final_newline);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(no_final_newline),
        _ => {}
    }
}

/// Makes a generated schema say exactly what the reader accepts: no `null`
/// anywhere (the reader refuses it; leave a key out instead), and only
/// standard formats (schemars adds `int64` and `uint32`, which strict
/// validators refuse as unknown).
fn strict_schema(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(object) => {
            if let Some(serde_json::Value::Array(types)) = object.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    object.insert("type".into(), only);
                }
            }
            if object.get("format").is_some_and(serde_json::Value::is_string) && object.contains_key("type") {
                object.remove("format");
            }
            if let Some(serde_json::Value::Array(choices)) = object.get_mut("anyOf") {
                choices.retain(|c| c.get("type").is_none_or(|t| t != "null"));
                if choices.len() == 1 {
                    let only = choices.remove(0);
                    object.remove("anyOf");
                    if let serde_json::Value::Object(inner) = only {
                        for (key, value) in inner {
                            object.entry(key).or_insert(value);
                        }
                    }
                }
            }
            for child in object.values_mut() {
                strict_schema(child);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strict_schema),
        _ => {}
    }
}

/// The result of reading a pack: the pack when the file could be read as
/// one, and every problem found, with source spans, in file order.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The pack, unless the file is not TOML, breaks the schema, or is too
    /// large. It may still have errors; see `problems`.
    pub pack: Option<Pack>,
    /// Every problem found while reading and validating.
    pub problems: Vec<Problem>,
    /// Whether the pack holds everything the file says: no value failed to
    /// read and was left at its default. A complete pack with errors is
    /// still the file's own layout (a route cut by walls, two levels with
    /// one id), which analysis can explain; an incomplete one is not.
    pub complete: bool,
}

impl Parsed {
    /// A file that could not be read as a pack at all.
    #[must_use]
    pub fn failed(problem: Problem) -> Parsed {
        Parsed { pack: None, problems: vec![problem], complete: false }
    }

    /// Whether any problem is an error.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(Problem::is_error)
    }
}

/// Byte spans of the values of a file, keyed by the field they hold.
#[derive(Default, Debug)]
struct SourceMap {
    spans: HashMap<Field, Range<usize>>,
    /// Fields that already had a reading problem: validation problems on
    /// them would only repeat it.
    broken: HashSet<Field>,
}

impl SourceMap {
    fn resolve(&self, field: &Field) -> Option<Range<usize>> {
        if let Some(span) = self.spans.get(field) {
            return Some(span.clone());
        }
        match field {
            Field::LevelCell(i, key, _) => self.resolve(&Field::LevelKey(*i, key)),
            Field::LevelKey(i, _) => self.spans.get(&Field::Level(*i)).cloned(),
            Field::Rule(_) => self.spans.get(&Field::PackKey("rules")).cloned(),
            Field::Pack => self.spans.get(&Field::PackKey("name")).cloned(),
            _ => None,
        }
    }

    fn is_broken(&self, field: &Field) -> bool {
        if self.broken.contains(field) {
            return true;
        }
        match field {
            Field::LevelCell(i, key, _) => {
                self.broken.contains(&Field::LevelKey(*i, key)) || self.broken.contains(&Field::Level(*i))
            }
            Field::LevelKey(i, _) => self.broken.contains(&Field::Level(*i)),
            _ => false,
        }
    }
}

/// Reads a pack from TOML text. Never panics: anything wrong with the text
/// is a [`Problem`].
#[must_use]
pub fn parse_pack(text: &str) -> Parsed {
    let fatal = |problem: Problem| Parsed::failed(problem);
    if text.len() > MAX_FILE_BYTES {
        return fatal(Problem::new(
            Code::TooLarge,
            Field::Pack,
            format!("the file is {} bytes; packs are at most {MAX_FILE_BYTES} bytes (4 MiB)", text.len()),
        ));
    }
    let probe: VersionProbe = match toml::from_str(text) {
        Ok(probe) => probe,
        Err(e) => return fatal(toml_problem(Code::Syntax, &e)),
    };
    if let Some(problem) = toml_1_1_problem(text) {
        return fatal(problem);
    }
    let version = match probe.format {
        None => {
            return fatal(
                Problem::new(
                    Code::Version,
                    Field::Pack,
                    "the pack has no `format` key; add `format = 1` at the top",
                )
                .at(0..0),
            );
        }
        Some(v) => {
            let span = v.span();
            match version_of(v.get_ref()) {
                Some(version) if (OLDEST_FORMAT_VERSION..=FORMAT_VERSION).contains(&version) => version,
                _ => {
                    return fatal(
                        Problem::new(
                            Code::Version,
                            Field::PackKey("format"),
                            format!(
                                "format version {} is not supported; this build reads versions {OLDEST_FORMAT_VERSION} and {FORMAT_VERSION}",
                                v.get_ref()
                            ),
                        )
                        .at(span),
                    );
                }
            }
        }
    };
    let raw: RawPack = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => return fatal(toml_problem(Code::Schema, &e)),
    };
    if raw.level.len() > MAX_LEVELS {
        return fatal(Problem::new(
            Code::TooManyLevels,
            Field::Pack,
            format!("the pack has {} levels; packs have at most {MAX_LEVELS}", raw.level.len()),
        ));
    }
    let mut reader = Reader { text, version, map: SourceMap::default(), problems: Vec::new() };
    let pack = reader.pack(raw);
    let Reader { map, mut problems, .. } = reader;
    let complete = problems.is_empty();
    for mut problem in pack.problems() {
        if map.is_broken(&problem.field) {
            continue;
        }
        problem.span = map.resolve(&problem.field);
        problems.push(problem);
    }
    problems.sort_by_key(|p| p.span.as_ref().map_or(usize::MAX, |s| s.start));
    Parsed { pack: Some(pack), problems, complete }
}

/// How deep arrays and tables may nest in a pack (`derived` included):
/// the TOML readers' own bound, one deeper is E001 (docs/format.md).
pub const MAX_NESTING: usize = 79;

/// E001 for text that TOML 1.1 reads and TOML 1.0 does not: packs are TOML
/// 1.0, as Python's `tomllib` and most TOML libraries read it, so an escape
/// `\e` or `\xHH`, a time without seconds, or an inline table over several
/// lines or with a trailing comma is refused where it stands rather than
/// accepted here and refused by a client. Also the nesting bound.
fn toml_1_1_problem(text: &str) -> Option<Problem> {
    let error = toml_v1_0::from_str::<toml_v1_0::Table>(text).err()?;
    let message = error.message().trim().trim_end_matches('.').replace('\n', "; ");
    let message = if message.contains("recursion limit") {
        format!("values nest too deeply: arrays and tables nest at most {MAX_NESTING} deep in a pack")
    } else {
        format!(
            "{message}: packs are TOML 1.0, and this is TOML 1.1 syntax that TOML 1.0 readers (Python's tomllib) refuse"
        )
    };
    let problem = Problem::new(Code::Syntax, Field::Pack, message);
    Some(match error.span() {
        Some(span) => problem.at(span),
        None => problem,
    })
}

fn toml_problem(code: Code, error: &toml::de::Error) -> Problem {
    let message = error.message().trim().trim_end_matches('.').to_owned();
    let problem = Problem::new(code, Field::Pack, message);
    match error.span() {
        Some(span) => problem.at(span),
        None => problem,
    }
}

struct Reader<'a> {
    text: &'a str,
    /// The pack's format version.
    version: i64,
    map: SourceMap,
    problems: Vec<Problem>,
}

impl Reader<'_> {
    fn problem(&mut self, code: Code, field: Field, span: Range<usize>, message: String) {
        self.map.broken.insert(field.clone());
        self.problems.push(Problem::new(code, field, message).at(span));
    }

    fn pack(&mut self, raw: RawPack) -> Pack {
        let mut pack = Pack::new(raw.name.get_ref().0.clone());
        self.map.spans.insert(Field::PackKey("name"), raw.name.span());
        pack.author = raw.author.map(|a| a.into_inner().0);
        pack.description = raw.description.map(|d| d.into_inner().0);
        if let Some(rules) = raw.rules {
            pack.rules = self.rules(rules.0);
        }
        pack.levels = raw.level.into_iter().enumerate().map(|(i, l)| self.level(i, l.0)).collect();
        pack
    }

    fn rules(&mut self, raw: RawRules) -> Rules {
        let mut rules = Rules::default();
        let numbers = [
            (RuleOption::CratesToWin, raw.crates_to_win),
            (RuleOption::CratePlacements, raw.crate_placements),
            (RuleOption::FlagBonusActions, raw.flag_bonus_actions),
            (RuleOption::DrawOfferAfter, raw.draw_offer_after),
            (RuleOption::DrawReofferGap, raw.draw_reoffer_gap),
        ];
        for (option, value) in numbers {
            let Some(value) = value else { continue };
            self.map.spans.insert(Field::Rule(option), value.span());
            if let Err(error) = rules.set_number(option, value.get_ref().0) {
                self.problem(Code::RuleRange, Field::Rule(option), value.span(), error.to_string());
            }
        }
        if let Some(jump) = raw.jump {
            self.map.spans.insert(Field::Rule(RuleOption::Jump), jump.span());
            match jump.get_ref().parse::<JumpRule>() {
                Ok(j) => rules.jump = j,
                Err(error) => self.problem(
                    Code::RuleValue,
                    Field::Rule(RuleOption::Jump),
                    jump.span(),
                    error.to_string(),
                ),
            }
        }
        rules
    }

    fn cell(&mut self, i: usize, key: &'static str, text: &Spanned<String>) -> Option<Cell> {
        match text.get_ref().parse::<Cell>() {
            Ok(cell) => {
                self.map.spans.insert(Field::LevelCell(i, key, cell), text.span());
                Some(cell)
            }
            Err(e) => {
                self.problem(Code::CellName, Field::LevelKey(i, key), text.span(), e.to_string());
                None
            }
        }
    }

    fn level(&mut self, i: usize, raw: RawLevel) -> Level {
        let RawLevel {
            id,
            name,
            author,
            notes,
            tags,
            size,
            map,
            first,
            flag,
            p1,
            p2,
            crates,
            expect,
            derived: _,
        } = raw;
        self.map.spans.insert(Field::Level(i), id.span());
        self.map.spans.insert(Field::LevelKey(i, "id"), id.span());
        self.map.spans.insert(Field::LevelKey(i, "name"), name.span());
        self.map.spans.insert(Field::LevelKey(i, "size"), size.span());
        let (width, height) = self.size(i, &size);
        let mut level = Level::new(id.into_inner(), width, height);
        level.name = name.into_inner().0;
        level.author = author.map(|a| a.into_inner().0);
        level.notes = notes.map(|n| n.into_inner().0);
        level.tags = tags;
        level.starts = ByPlayer::new(None, None);
        if let Some(map) = map {
            self.map.spans.insert(Field::LevelKey(i, "map"), map.span());
            if !self.map.broken.contains(&Field::Level(i)) {
                level.walls = self.walls(i, &map, width, height);
            }
        }
        if let Some(first) = first {
            self.map.spans.insert(Field::LevelKey(i, "first"), first.span());
            match Player::from_number(first.get_ref().0) {
                Some(p) => level.first = p,
                None => self.problem(
                    Code::FirstPlayer,
                    Field::LevelKey(i, "first"),
                    first.span(),
                    format!("`first` must be 1 or 2, not {}", first.get_ref().0),
                ),
            }
        }
        if let Some(flag) = flag {
            self.map.spans.insert(Field::LevelKey(i, "flag"), flag.span());
            level.flag = self.cell(i, "flag", &flag);
            if level.flag.is_none() {
                // Keep the flag off the centre default so that no problem of
                // a flag the file never named is reported.
                self.map.broken.insert(Field::LevelKey(i, "flag"));
            }
        }
        for (player, raw) in [(Player::One, p1), (Player::Two, p2)] {
            if let Some(raw) = raw {
                self.player(i, player, raw, &mut level);
            }
        }
        if let Some(crates) = crates {
            self.map.spans.insert(Field::LevelKey(i, "crates"), crates.span());
            level.crates = self.crates(i, crates.get_ref());
        }
        if let Some(expect) = expect {
            self.map.spans.insert(Field::LevelKey(i, "expect"), expect.span());
            level.expect = self.expectations(i, &expect);
        }
        level
    }

    /// A level's `size`, or the smallest board after a problem (the level
    /// is then marked broken).
    fn size(&mut self, i: usize, size: &Spanned<String>) -> (u8, u8) {
        match parse_size(size.get_ref()) {
            Some((w, h))
                if (MIN_SIDE..=MAX_SIDE).contains(&w)
                    && (MIN_SIDE..=MAX_SIDE).contains(&h)
                    && *size.get_ref() == format!("{w}x{h}") =>
            {
                (w, h)
            }
            parsed => {
                let message = match parsed {
                    Some((w, h))
                        if (MIN_SIDE..=MAX_SIDE).contains(&w) && (MIN_SIDE..=MAX_SIDE).contains(&h) =>
                    {
                        format!(
                            "`{}` is not written as files × ranks with a plain `x` and no spaces or leading zeros; write \"{w}x{h}\"",
                            size.get_ref().escape_debug()
                        )
                    }
                    Some((w, h)) => format!(
                        "a {w} × {h} board is out of range: each side is from {MIN_SIDE} to {MAX_SIDE}"
                    ),
                    None => format!(
                        "`{}` is not a size; write files × ranks, such as \"9x9\"",
                        size.get_ref().escape_debug()
                    ),
                };
                self.problem(Code::Size, Field::LevelKey(i, "size"), size.span(), message);
                self.map.broken.insert(Field::Level(i));
                (MIN_SIDE, MIN_SIDE)
            }
        }
    }

    /// A player's table, `p1` or `p2`: its start square and goal set.
    fn player(&mut self, i: usize, player: Player, raw: Spanned<Table<RawPlayer>>, level: &mut Level) {
        let table_span = raw.span();
        let raw = raw.into_inner().0;
        self.map.spans.insert(Field::LevelKey(i, start_key(player)), table_span.clone());
        if let Some(start) = raw.start {
            self.map.spans.insert(Field::LevelKey(i, start_key(player)), start.span());
            level.starts[player] = self.cell(i, start_key(player), &start);
        }
        if let Some(goals) = raw.goals {
            let key = goals_key(player);
            self.map.spans.insert(Field::LevelKey(i, key), goals.span());
            let mut set = Bitboard::EMPTY;
            for entry in goals.get_ref() {
                if let Some(cell) = self.cell(i, key, entry) {
                    if set.has(cell) {
                        self.problem(
                            Code::DuplicateCell,
                            Field::LevelCell(i, key, cell),
                            entry.span(),
                            format!("goal cell {cell} is listed twice"),
                        );
                    }
                    set.insert(cell);
                }
            }
            level.goals[player] = Some(set);
        }
    }

    /// A level's expectations, in the order written, each problem listed.
    fn expectations(&mut self, i: usize, expect: &Spanned<Vec<Spanned<String>>>) -> Vec<Expectation> {
        let mut out = Vec::new();
        if self.version < 2 {
            self.problem(
                Code::Version,
                Field::LevelKey(i, "expect"),
                expect.span(),
                format!("`expect` is a key of format version 2; this pack says `format = {}`", self.version),
            );
        }
        for entry in expect.get_ref() {
            match entry.get_ref().parse::<Expectation>() {
                Ok(e) if out.contains(&e) => self.problem(
                    Code::DuplicateCell,
                    Field::LevelKey(i, "expect"),
                    entry.span(),
                    format!("the expectation `{e}` is listed twice"),
                ),
                Ok(e) => out.push(e),
                Err(error) => {
                    self.problem(
                        Code::Expectation,
                        Field::LevelKey(i, "expect"),
                        entry.span(),
                        error.to_string(),
                    );
                }
            }
        }
        out
    }

    fn crates(&mut self, i: usize, entries: &[Spanned<String>]) -> BTreeMap<Cell, Stage> {
        let mut crates = BTreeMap::new();
        for entry in entries {
            let text = entry.get_ref();
            let (cell_text, stage) = match text.split_once(':') {
                None => (text.as_str(), Some(Stage::Intact)),
                Some((cell, stage)) => (cell, Stage::from_name(stage)),
            };
            let Some(stage) = stage else {
                let name = text.split_once(':').map_or("", |(_, s)| s);
                self.problem(
                    Code::StageName,
                    Field::LevelKey(i, "crates"),
                    entry.span(),
                    format!(
                        "`{}` is not a crate stage (expected intact, cracked, rubble or splinters)",
                        name.escape_debug()
                    ),
                );
                continue;
            };
            let named = Spanned::new(entry.span(), cell_text.to_owned());
            let Some(cell) = self.cell(i, "crates", &named) else { continue };
            if crates.insert(cell, stage).is_some() {
                self.problem(
                    Code::DuplicateCell,
                    Field::LevelCell(i, "crates", cell),
                    entry.span(),
                    format!("a crate on {cell} is listed twice"),
                );
            }
        }
        crates
    }

    /// Reads the map: `height` rows of `width` characters, top rank first.
    fn walls(&mut self, i: usize, map: &Spanned<String>, width: u8, height: u8) -> Bitboard {
        let rows: Vec<(usize, &str)> = map_rows(map.get_ref());
        let field = Field::LevelKey(i, "map");
        let centre = Cell::try_new(width.saturating_sub(1) / 2, height.saturating_sub(1) / 2);
        let mut walls = Bitboard::EMPTY;
        if rows.len() != height as usize {
            self.problem(
                Code::MapShape,
                field,
                map.span(),
                format!("the map has {} rows; a {width} × {height} level needs {height}", rows.len()),
            );
            return walls;
        }
        for (r, &(offset, row)) in rows.iter().enumerate() {
            let rank = height - 1 - r as u8;
            let row_span = self.map_span(map, offset, row.len());
            if row.chars().count() != width as usize {
                self.problem(
                    Code::MapShape,
                    field.clone(),
                    row_span,
                    format!(
                        "map row {} (rank {}) has {} characters; the level is {width} wide",
                        r + 1,
                        rank + 1,
                        row.chars().count()
                    ),
                );
                continue;
            }
            for (file, (byte, ch)) in row.char_indices().enumerate() {
                let cell = Cell::new(file as u8, rank);
                match ch {
                    '#' => {
                        // The one wall a problem may point at: the centre,
                        // where a flag the file does not place stands.
                        if Some(cell) == centre {
                            let span = self.map_span(map, offset + byte, 1);
                            self.map.spans.insert(Field::LevelCell(i, "map", cell), span);
                        }
                        walls.insert(cell);
                    }
                    '.' => {}
                    other => {
                        let span = self.map_span(map, offset + byte, ch.len_utf8());
                        self.problem(
                            Code::MapChar,
                            Field::LevelCell(i, "map", cell),
                            span,
                            format!("`{}` on {cell} is not `#` (wall) or `.` (floor)", other.escape_debug()),
                        );
                    }
                }
            }
        }
        walls
    }

    /// The source span of `len` bytes at `offset` in a map string's value,
    /// exact when the string has no escapes, else the whole string.
    fn map_span(&self, map: &Spanned<String>, offset: usize, len: usize) -> Range<usize> {
        let span = map.span();
        let raw = self.text.get(span.clone()).unwrap_or("");
        let delimiter = if raw.starts_with("'''") || raw.starts_with("\"\"\"") {
            3
        } else if raw.starts_with('\'') || raw.starts_with('"') {
            1
        } else {
            return span;
        };
        let mut start = span.start + delimiter;
        let body = &raw[delimiter..];
        // TOML drops a newline right after the opening delimiter.
        if delimiter == 3 {
            if body.starts_with("\r\n") {
                start += 2;
            } else if body.starts_with('\n') {
                start += 1;
            }
        }
        let escaped = raw.starts_with('"') && raw.contains('\\');
        if escaped || start + offset + len > span.end {
            return span;
        }
        start + offset..start + offset + len
    }
}

/// The map's non-empty rows with their byte offsets in the value. Rows end
/// with `\n` or `\r\n`; spaces and tabs around a row are indentation, and
/// any other character (a lone `\r`, a no-break space) is part of the row.
fn map_rows(map: &str) -> Vec<(usize, &str)> {
    let mut rows = Vec::new();
    let mut offset = 0;
    let mut lines = map.split('\n').peekable();
    while let Some(line) = lines.next() {
        // `\r\n` ends a row; a `\r` with no `\n` after it is a character of
        // the row (docs/format.md), and so an unknown one.
        let ended = lines.peek().is_some();
        let content = if ended { line.strip_suffix('\r').unwrap_or(line) } else { line };
        let trimmed_start = content.trim_start_matches([' ', '\t']);
        let row = trimmed_start.trim_end_matches([' ', '\t']);
        if !row.is_empty() {
            rows.push((offset + (content.len() - trimmed_start.len()), row));
        }
        offset += line.len() + 1;
    }
    rows
}

/// Reads `"9x9"` as files and ranks.
#[must_use]
pub fn parse_size(text: &str) -> Option<(u8, u8)> {
    let (w, h) = text.split_once(['x', '×'])?;
    let read = |s: &str| -> Option<u8> {
        let s = s.trim();
        if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    Some((read(w)?, read(h)?))
}

/// A TOML string literal for `text`.
fn quote(text: &str) -> String {
    toml_edit::Value::from(text).to_string().trim().to_owned()
}

fn quote_list<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let quoted: Vec<String> = items.into_iter().map(quote).collect();
    format!("[{}]", quoted.join(", "))
}

/// The map of `level` as rows, top rank first.
#[must_use]
pub fn map_text(level: &Level) -> String {
    let mut out = String::new();
    for rank in (0..level.height).rev() {
        for file in 0..level.width {
            let wall = Cell::try_new(file, rank).is_some_and(|c| level.walls.has(c));
            out.push(if wall { '#' } else { '.' });
        }
        out.push('\n');
    }
    out
}

/// Writes a pack as canonical TOML: defaults are left out, keys come in the
/// documented order, and reading the text back gives an equal pack.
#[must_use]
pub fn write_pack(pack: &Pack) -> String {
    // Writing into a `String` cannot fail, so each write's `Result` is
    // dropped with `.ok()`, here and in `write_level`.
    let mut out = String::new();
    writeln!(out, "format = {}", pack.format_version()).ok();
    writeln!(out, "name = {}", quote(&pack.name)).ok();
    if let Some(author) = &pack.author {
        writeln!(out, "author = {}", quote(author)).ok();
    }
    if let Some(description) = &pack.description {
        writeln!(out, "description = {}", quote(description)).ok();
    }
    let defaults = Rules::default();
    if pack.rules != defaults {
        out.push_str("\n[rules]\n");
        for option in RuleOption::ALL {
            if option == RuleOption::Jump {
                if pack.rules.jump != defaults.jump {
                    writeln!(out, "jump = {}", quote(pack.rules.jump.name())).ok();
                }
            } else if pack.rules.number(option) != defaults.number(option) {
                writeln!(out, "{} = {}", option.key(), pack.rules.number(option)).ok();
            }
        }
    }
    for level in &pack.levels {
        out.push('\n');
        write_level(&mut out, level);
    }
    out
}

fn write_level(out: &mut String, level: &Level) {
    writeln!(out, "[[level]]").ok();
    writeln!(out, "id = {}", quote(&level.id)).ok();
    writeln!(out, "name = {}", quote(&level.name)).ok();
    if let Some(author) = &level.author {
        writeln!(out, "author = {}", quote(author)).ok();
    }
    if let Some(notes) = &level.notes {
        writeln!(out, "notes = {}", quote(notes)).ok();
    }
    if !level.tags.is_empty() {
        writeln!(out, "tags = {}", quote_list(level.tags.iter().map(String::as_str))).ok();
    }
    writeln!(out, "size = \"{}x{}\"", level.width, level.height).ok();
    if level.first != Player::One {
        writeln!(out, "first = {}", level.first.number()).ok();
    }
    if (level.walls & level.board()).any() {
        write!(out, "map = '''\n{}'''\n", map_text(level)).ok();
    }
    // Defaults are left out: a flag on the centre, a goal set equal to the
    // floor of the start square's rank.
    if let Some(flag) = level.flag.filter(|&f| Some(f) != level.centre()) {
        writeln!(out, "flag = \"{flag}\"").ok();
    }
    for player in Player::BOTH {
        let mut parts = Vec::new();
        if let Some(start) = level.starts[player] {
            parts.push(format!("start = \"{start}\""));
        }
        let default_goals = Level { goals: ByPlayer::new(None, None), ..level.clone() }.goal_cells(player);
        if let Some(goals) =
            level.goals[player].filter(|&g| level.starts[player].is_none() || g != default_goals)
        {
            let names: Vec<String> = goals.iter().map(|c| c.to_string()).collect();
            parts.push(format!("goals = {}", quote_list(names.iter().map(String::as_str))));
        }
        if !parts.is_empty() {
            writeln!(out, "p{} = {{ {} }}", player.number(), parts.join(", ")).ok();
        }
    }
    if !level.crates.is_empty() {
        let entries: Vec<String> = level
            .crates
            .iter()
            .map(|(cell, stage)| match stage {
                Stage::Intact => cell.to_string(),
                other => format!("{cell}:{other}"),
            })
            .collect();
        writeln!(out, "crates = {}", quote_list(entries.iter().map(String::as_str))).ok();
    }
    if !level.expect.is_empty() {
        let entries: Vec<String> = level.expect.iter().map(ToString::to_string).collect();
        writeln!(out, "expect = {}", quote_list(entries.iter().map(String::as_str))).ok();
    }
}

/// 1-based line and column (in characters) of byte `offset` in `text`; a
/// byte-order mark at the start is no column.
#[must_use]
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let before = before.strip_prefix('\u{feff}').unwrap_or(before);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}
