//! The TOML pack format: the shipped packs, malformed files, round trips
//! and hostile input.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use pushcrate::level::format::{line_col, parse_pack, write_pack};
use pushcrate::level::{Code, DEFAULT_PACK_TOML, FLAWED_PACK_TOML, MAX_FILE_BYTES, Pack};

fn files_in(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_shipped_pack_loads_validates_and_round_trips() {
    let packs = files_in("mazes");
    assert!(packs.len() >= 2);
    for path in packs {
        let text = std::fs::read_to_string(&path).unwrap();
        let parsed = parse_pack(&text);
        assert!(!parsed.has_errors(), "{}: {:?}", path.display(), parsed.problems);
        let pack = parsed.pack.unwrap();
        for level in &pack.levels {
            assert!(level.start_state(pack.rules).is_ok(), "{} {}", path.display(), level.id);
        }
        let written = write_pack(&pack);
        let reread = parse_pack(&written);
        assert!(reread.problems.is_empty(), "{:?}", reread.problems);
        assert_eq!(reread.pack.as_ref(), Some(&pack), "{} round trip", path.display());
        assert_eq!(write_pack(&reread.pack.unwrap()), written, "writing is stable");
    }
}

#[test]
fn the_default_pack_has_the_levels_the_game_needs() {
    let pack = Pack::bundled();
    assert_eq!(parse_pack(DEFAULT_PACK_TOML).problems, Vec::new(), "no errors and no warnings");
    assert_eq!(parse_pack(FLAWED_PACK_TOML).problems, Vec::new(), "no errors and no warnings");
    assert!(pack.levels.len() >= 6);
    let open = pack.level("open").unwrap();
    let state = open.start_state(pack.rules).unwrap();
    assert_eq!((state.width(), state.height()), (9, 9));
    assert!(state.walls().is_empty() && state.all_crates().is_empty());
    let c = |s: &str| s.parse().unwrap();
    use pushcrate::rules::Player;
    assert_eq!(state.position(Player::One), c("e1"));
    assert_eq!(state.position(Player::Two), c("e9"));
    assert_eq!(state.flag(), c("e5"));
    assert_eq!(state.turn(), Player::One);
    assert_eq!(state.goals(Player::One).count(), 9);
    assert!(state.goals(Player::One).iter().all(|g| g.rank() == 0));
    assert!(state.goals(Player::Two).iter().all(|g| g.rank() == 8));
    assert_eq!(*state.rules(), pushcrate::rules::Rules::default());
    // The two bundled packs together: boards of 5 to 11, crates of every
    // stage (the tests and the conformance suite draw on both).
    let both = Pack::bundled_both();
    let levels = || both.iter().flat_map(|p| &p.levels);
    let sizes: Vec<(u8, u8)> = levels().map(|l| (l.width, l.height)).collect();
    assert!(sizes.contains(&(5, 5)) && sizes.contains(&(7, 7)) && sizes.contains(&(11, 11)));
    let stages: std::collections::HashSet<_> = levels().flat_map(|l| l.crates.values().copied()).collect();
    assert_eq!(stages.len(), 4, "crates of every stage");
}

#[test]
fn every_malformed_file_gives_its_code_with_a_position() {
    let files = files_in("tests/data/invalid");
    assert!(files.len() >= 25, "{} malformed files", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let expected: Vec<&str> = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect:"))
            .unwrap_or_else(|| panic!("{} has no `# expect:` line", path.display()))
            .split_whitespace()
            .collect();
        let parsed = parse_pack(&text);
        assert!(parsed.has_errors(), "{} parsed without errors", path.display());
        let mut found: Vec<&str> = parsed.problems.iter().map(|p| p.code.as_str()).collect();
        found.sort_unstable();
        found.dedup();
        let mut expected_sorted = expected.clone();
        expected_sorted.sort_unstable();
        assert_eq!(found, expected_sorted, "{}: {:?}", path.display(), parsed.problems);
        for problem in &parsed.problems {
            let span = problem
                .span
                .clone()
                .unwrap_or_else(|| panic!("{}: {problem} has no position", path.display()));
            // The span lies in the text, on character boundaries, and not on
            // the `# expect:` comment, which nothing is wrong with.
            assert!(
                span.start <= span.end && span.end <= text.len(),
                "{}: {problem} at {span:?}",
                path.display()
            );
            assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
            let (line, col) = line_col(&text, span.start);
            // A problem of the whole file (a missing key) points at its start.
            let whole_file = span.start == 0 && span.end <= text.lines().next().map_or(0, str::len);
            assert!(
                line >= 2 || whole_file,
                "{}: {problem} at {line}:{col} ({span:?}), the comment line",
                path.display()
            );
        }
    }
}

#[test]
fn every_code_is_documented() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/format.md")).unwrap();
    for code in Code::ALL {
        assert!(doc.contains(code.as_str()), "{code} is not in docs/format.md");
    }
}

#[test]
fn oversized_files_and_packs_are_refused() {
    let huge = format!("format = 1\nname = \"x\"\n# {}\n", "x".repeat(MAX_FILE_BYTES));
    assert_eq!(parse_pack(&huge).problems[0].code, Code::TooLarge);
    let mut many = String::from("format = 1\nname = \"x\"\n");
    for i in 0..10_001 {
        many.push_str(&format!("[[level]]\nid = \"l{i}\"\nname = \"\"\nsize = \"5x5\"\n"));
    }
    assert_eq!(parse_pack(&many).problems[0].code, Code::TooManyLevels);
}

#[test]
fn absurd_nesting_and_values_do_not_panic() {
    let deep = format!("format = 1\nname = \"x\"\nvalue = {}", "[".repeat(100_000));
    assert!(parse_pack(&deep).has_errors());
    let big_number = "format = 1\nname = \"x\"\n[rules]\ncrates_to_win = 99999999999999\n";
    assert!(parse_pack(big_number).has_errors());
    let big_size = "format = 1\nname = \"x\"\n[[level]]\nid = \"a\"\nname = \"\"\nsize = \"255x255\"\n";
    assert!(parse_pack(big_size).has_errors());
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in ".{0,400}") {
        let _ = parse_pack(&text);
    }

    #[test]
    fn damaged_default_packs_never_panic(cut in 0usize..DEFAULT_PACK_TOML.len(), edits in proptest::collection::vec((0usize..DEFAULT_PACK_TOML.len(), any::<char>()), 0..6)) {
        let mut text: Vec<char> = DEFAULT_PACK_TOML.chars().collect();
        for (at, ch) in edits {
            let at = at % text.len();
            text[at] = ch;
        }
        let text: String = text.into_iter().collect();
        let end = text.char_indices().map(|(i, _)| i).find(|&i| i >= cut).unwrap_or(text.len());
        let parsed = parse_pack(&text[..end]);
        for problem in parsed.problems {
            if let Some(span) = problem.span {
                prop_assert!(span.start <= span.end && span.end <= end.max(1));
            }
        }
    }
}

#[test]
fn the_schema_has_no_null_and_only_standard_formats() {
    let schema = pushcrate::level::format::pack_schema();
    let text = schema.to_string();
    assert!(!text.contains("\"null\""), "a null type would let serialisers write what the reader refuses");
    for format in ["int64", "uint32", "int32", "uint64", "uint8", "double", "float"] {
        assert!(!text.contains(&format!("\"format\":\"{format}\"")), "non-standard format {format}");
    }
    let required = |pointer: &str| -> Vec<String> {
        schema
            .pointer(pointer)
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    assert!(required("/required").contains(&"level".to_owned()));
    for key in ["id", "name", "size", "p1", "p2"] {
        assert!(required("/$defs/Level/required").contains(&key.to_owned()), "{key}");
    }
    assert!(required("/$defs/Player/required").contains(&"start".to_owned()));
    let goals = schema.pointer("/$defs/Player/properties/goals").unwrap();
    assert_eq!(goals["minItems"], 1);
    assert_eq!(goals["uniqueItems"], true);
}

#[test]
fn every_pack_the_schema_refuses_check_refuses_too() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/schema-reject");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let file = pushcrate::files::read_pack(&path).unwrap();
        assert!(file.parsed.has_errors(), "{} was accepted", path.display());
        seen += 1;
    }
    assert!(seen >= 20);
    let accept = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/schema-accept");
    let mut accepted = 0;
    for entry in std::fs::read_dir(accept).unwrap() {
        let path = entry.unwrap().path();
        let file = pushcrate::files::read_pack(&path).unwrap();
        assert!(!file.parsed.has_errors(), "{}: {:?}", path.display(), file.parsed.problems);
        accepted += 1;
    }
    assert!(accepted >= 3, "a pack naming its own schema (`$schema`) among them");
}

#[test]
fn map_rows_end_with_lf_or_crlf_and_are_indented_with_spaces_or_tabs_only() {
    let pack = |map: &str| {
        format!(
            "format = 1\nname = \"m\"\n[[level]]\nid = \"a\"\nname = \"A\"\nsize = \"5x5\"\nmap = {}\np1 = {{ start = \"c1\" }}\np2 = {{ start = \"c5\" }}\n",
            serde_json::to_string(map).unwrap()
        )
    };
    let codes = |map: &str| -> Vec<&'static str> {
        parse_pack(&pack(map)).problems.iter().map(|p| p.code.as_str()).collect()
    };
    assert!(codes(".....\r\n.#...\r\n.....\r\n.....\r\n.....\r\n").is_empty());
    assert!(codes("  .....\n\t.#...\n.....  \n.....\n.....\n").is_empty());
    assert_eq!(codes("\u{a0}....\n.....\n.....\n.....\n.....\n"), ["E012"]);
    assert!(codes(".....\r.....\n.....\n.....\n.....\n").contains(&"E011"));
}

#[test]
fn defaults_are_left_out_even_when_set_explicitly() {
    let mut pack = Pack::bundled();
    pack.levels.truncate(1);
    let level = &mut pack.levels[0];
    level.flag = level.centre();
    let one = level.goal_cells(pushcrate::rules::Player::One);
    level.goals[pushcrate::rules::Player::One] = Some(one);
    let text = write_pack(&pack);
    assert!(!text.contains("flag ="), "{text}");
    assert!(!text.contains("goals ="), "{text}");
    let reread = parse_pack(&text).pack.unwrap();
    let rules = pack.rules;
    assert_eq!(reread.levels[0].start_state(rules).unwrap(), pack.levels[0].start_state(rules).unwrap());
    assert_eq!(write_pack(&reread), text, "writing is stable");
}

/// A map row ends with `\n` or `\r\n`; a lone `\r` at the end of the map
/// is a character of its last row, and the row is then too long (as the
/// schema and docs/format.md say), while `\r\n` endings read as usual.
#[test]
fn a_lone_carriage_return_ends_no_map_row() {
    let pack = |map: &str| {
        format!(
            "format = 1\nname = \"x\"\n[[level]]\nid = \"a\"\nname = \"A\"\nsize = \"5x5\"\nmap = \"{map}\"\np1 = {{ start = \"c1\" }}\np2 = {{ start = \"c5\" }}\n"
        )
    };
    let lone = parse_pack(&pack(".....\\n.....\\n.....\\n.....\\n.....\\r"));
    assert!(lone.problems.iter().any(|p| p.code.as_str() == "E011"), "{:?}", lone.problems);
    let crlf = parse_pack(&pack(".....\\r\\n.....\\r\\n.....\\r\\n.....\\r\\n.....\\r\\n"));
    assert!(!crlf.has_errors(), "{:?}", crlf.problems);
}

/// A warning about the initial crates points at the `crates` line, not
/// at the level's id.
#[test]
fn w001_points_at_the_crates() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/w001-crates-cut-a-route.toml"
    ))
    .unwrap();
    let parsed = parse_pack(&text);
    let warning = parsed.problems.iter().find(|p| p.code.as_str() == "W001").expect("W001");
    let span = warning.span.clone().expect("a place in the file");
    let (line, _) = line_col(&text, span.start);
    assert!(text.lines().nth(line - 1).unwrap().starts_with("crates = "), "line {line}");
}

/// Problems of what the file leaves at its default point at what decides
/// the default: the wall under a default flag at that wall in the map, an
/// empty default goal set at the start square whose rank it is.
#[test]
fn problems_of_defaults_point_at_what_sets_them() {
    let text = "format = 1\nname = \"x\"\n[[level]]\nid = \"a\"\nname = \"A\"\nsize = \"5x5\"\nmap = '''\n.....\n.....\n..#..\n.....\n#####\n'''\np1 = { start = \"c1\" }\np2 = { start = \"c5\" }\n";
    let parsed = parse_pack(text);
    let flag = parsed
        .problems
        .iter()
        .find(|p| p.code.as_str() == "E015" && p.message.contains("flag"))
        .unwrap_or_else(|| panic!("{:?}", parsed.problems));
    assert_eq!(line_col(text, flag.span.clone().expect("a place").start), (10, 3), "the centre's wall");
    assert!(flag.message.contains("default"), "{}", flag.message);
    let goals = parsed.problems.iter().find(|p| p.code.as_str() == "E020").expect("E020");
    let (line, _) = line_col(text, goals.span.clone().unwrap().start);
    assert!(text.lines().nth(line - 1).unwrap().starts_with("p1 = "), "line {line}: {}", goals.message);
}

/// A one-level pack (level `index` of the default pack) as a TOML table,
/// written canonically, with the struct `which` (0 `[rules]`, 1 `p1`, 2
/// `p2`, 3 the level) replaced by an array of its values in field order, as
/// serde's derived `Deserialize` would read it.
fn pack_with_positional_array(index: usize, rules: (i64, i64, i64), which: usize) -> toml::Table {
    let pack = parse_pack(DEFAULT_PACK_TOML).pack.unwrap();
    let level = &pack.levels[index % pack.levels.len()];
    let mut one = Pack::new("positional");
    one.levels.push(level.clone());
    let mut table: toml::Table = toml::from_str(&write_pack(&one)).unwrap();
    table.insert("format".into(), toml::Value::Integer(2));
    let string = |s: &str| toml::Value::String(s.to_owned());
    let (crates_to_win, placements, bonus) = rules;
    table.insert(
        "rules".into(),
        toml::Value::Array(vec![
            toml::Value::Integer(crates_to_win),
            toml::Value::Integer(placements),
            toml::Value::Integer(bonus),
            toml::Value::Integer(50),
            toml::Value::Integer(20),
            string("diagonal"),
        ]),
    );
    if which == 0 {
        return table;
    }
    // The rules stay a table when another struct is the array.
    let mut rules = toml::Table::new();
    rules.insert("crates_to_win".into(), toml::Value::Integer(crates_to_win));
    rules.insert("crate_placements".into(), toml::Value::Integer(placements));
    table.insert("rules".into(), toml::Value::Table(rules));
    let levels = table.get_mut("level").unwrap().as_array_mut().unwrap();
    let written = levels[0].as_table_mut().unwrap();
    if which == 1 || which == 2 {
        let key = if which == 1 { "p1" } else { "p2" };
        let start = written[key].as_table().unwrap()["start"].clone();
        // Every field given, so that only the array's shape is wrong: the
        // start square, and a goal set of that one cell.
        written.insert(key.into(), toml::Value::Array(vec![start.clone(), toml::Value::Array(vec![start])]));
        return table;
    }
    let flag = level.flag.or(level.centre()).unwrap().to_string();
    let values = vec![
        written["id"].clone(),
        written["name"].clone(),
        string(level.author.as_deref().unwrap_or("")),
        string(level.notes.as_deref().unwrap_or("")),
        toml::Value::Array(level.tags.iter().map(|t| string(t)).collect()),
        written["size"].clone(),
        string(&pushcrate::level::format::map_text(level)),
        toml::Value::Integer(if level.first == pushcrate::rules::Player::One { 1 } else { 2 }),
        string(&flag),
        written["p1"].clone(),
        written["p2"].clone(),
        written.get("crates").cloned().unwrap_or_else(|| toml::Value::Array(Vec::new())),
        toml::Value::Array(Vec::new()),
        toml::Value::Integer(0),
    ];
    table.insert("level".into(), toml::Value::Array(vec![toml::Value::Array(values)]));
    table
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every struct of the format, written as an array of its values in
    /// field order, is refused (E002), placed at the array, in TOML and in
    /// JSON alike.
    #[test]
    fn every_struct_written_as_an_array_is_refused_with_a_location(
        index in 0usize..16,
        crates_to_win in 1i64..=50,
        placements in 0i64..=60,
        bonus in 0i64..=8,
        which in 0usize..4,
        json in any::<bool>(),
    ) {
        let table = pack_with_positional_array(index, (crates_to_win, placements, bonus), which);
        let text = if json {
            serde_json::to_string_pretty(&table).unwrap()
        } else {
            toml::to_string(&table).unwrap()
        };
        let parsed = if json { pushcrate::level::parse_pack_json(&text) } else { parse_pack(&text) };
        prop_assert!(parsed.has_errors(), "accepted:\n{text}");
        let problem = &parsed.problems[0];
        prop_assert_eq!(problem.code, Code::Schema, "{:?}", problem);
        prop_assert!(problem.message.contains("expected a table"), "{}", problem.message);
        let span = problem.span.clone().expect("a location");
        prop_assert!(text[span.start..].starts_with('['), "placed at {:?}: {}", span, &text[span.start..]);
    }
}

#[test]
fn packs_are_toml_1_0_and_dates_are_not_text() {
    let mut seen = 0;
    for path in files_in("tests/data/toml-1.0") {
        let file = pushcrate::files::read_pack(&path).unwrap();
        assert!(file.parsed.has_errors(), "{} was accepted", path.display());
        let problem = &file.parsed.problems[0];
        assert!(matches!(problem.code, Code::Syntax | Code::Schema), "{}: {problem:?}", path.display());
        let span = problem.span.clone().unwrap_or_else(|| panic!("{}: no place", path.display()));
        let (line, _) = line_col(&file.text, span.start);
        assert!(line >= 2, "{}: placed on line {line}", path.display());
        seen += 1;
    }
    assert!(seen >= 6);
    // The same text in TOML 1.0 is read as ever.
    let fine = "format = 1\nname = \"esc\\u001B \\u0041 1979-05-27\"\n[[level]]\nid = \"a\"\nname = \"a\"\nsize = \"5x5\"\np1 = { start = \"c1\" }\np2 = { start = \"c5\" }\n";
    let parsed = parse_pack(fine);
    assert!(!parsed.has_errors(), "{:?}", parsed.problems);
    assert_eq!(parsed.pack.unwrap().name, "esc\u{1b} A 1979-05-27");
    let date = parse_pack(
        "format = 1\nname = 1979-05-27 07:32:00\n[[level]]\nid = \"a\"\nname = \"a\"\nsize = \"5x5\"\np1 = { start = \"c1\" }\np2 = { start = \"c5\" }\n",
    );
    let problem = &date.problems[0];
    assert_eq!(problem.code, Code::Schema);
    assert!(problem.message.contains("put it in quotes"), "{}", problem.message);
}

#[test]
fn values_nest_at_most_the_documented_depth() {
    use pushcrate::level::format::MAX_NESTING;
    let pack = |depth: usize| {
        format!(
            "format = 1\nname = \"n\"\n[[level]]\nid = \"a\"\nname = \"a\"\nsize = \"5x5\"\np1 = {{ start = \"c1\" }}\np2 = {{ start = \"c5\" }}\nderived = {}1{}\n",
            "[".repeat(depth),
            "]".repeat(depth)
        )
    };
    let fits = parse_pack(&pack(MAX_NESTING));
    assert!(!fits.has_errors(), "{:?}", fits.problems);
    let deeper = parse_pack(&pack(MAX_NESTING + 1));
    let problem = &deeper.problems[0];
    assert_eq!(problem.code, Code::Syntax);
    assert!(problem.message.contains(&format!("at most {MAX_NESTING} deep")), "{}", problem.message);
}

#[test]
fn a_byte_order_mark_is_no_column() {
    for (text, json) in [("format = x\n", false), ("{\"format\": 1, \"name\": 5}", true)] {
        let column = |text: String| {
            let file = pushcrate::files::pack_from_bytes("p".into(), text.into_bytes(), json);
            let rendered = pushcrate::diagnostics::render(&file, false, 10);
            rendered.lines().find(|l| l.contains("-->")).map(str::to_owned).unwrap()
        };
        let plain = column(text.to_owned());
        let marked = column(format!("\u{feff}{text}"));
        assert_eq!(plain, marked, "json {json}");
    }
    assert_eq!(line_col("\u{feff}format = x", "\u{feff}format = ".len()), (1, 10));
}

/// A level that cannot start says why: its start is never an empty list
/// of problems.
#[test]
fn a_level_without_a_start_square_names_it() {
    let mut level = pushcrate::level::Pack::bundled().levels[0].clone();
    level.starts.two = None;
    let error = level.start_state(pushcrate::rules::Rules::default()).unwrap_err();
    assert!(!error.0.is_empty());
    assert!(error.to_string().contains("player 2's start square is not placed"), "{error}");
}
