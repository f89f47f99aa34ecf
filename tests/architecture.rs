//! The layering of docs/ARCHITECTURE.md, enforced.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn sources(dir: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out
}

fn forbid(dir: &str, needles: &[&str]) {
    for (path, text) in sources(dir) {
        for needle in needles {
            assert!(!text.contains(needle), "{path} uses `{needle}`, which its layer must not");
        }
    }
}

#[test]
fn rules_stand_alone_and_do_no_io() {
    forbid(
        "rules",
        &[
            "crate::level",
            "crate::cli",
            "std::fs",
            "std::io",
            "anyhow",
            "clap",
            "petgraph",
            "println!",
            "serde",
        ],
    );
}

#[test]
fn level_does_no_io() {
    forbid(
        "level",
        &["crate::cli", "crate::analysis", "std::fs", "std::io", "anyhow", "clap", "petgraph", "println!"],
    );
}

#[test]
fn analysis_does_no_io_and_keeps_petgraph_in_maze_graph() {
    forbid("analysis", &["crate::cli", "std::fs", "std::io", "anyhow", "clap", "println!", "serde"]);
    for (path, text) in
        sources("analysis").into_iter().chain(sources("cli")).chain(sources("level")).chain(sources("rules"))
    {
        if !path.ends_with("graph.rs") {
            assert!(!text.contains("petgraph::"), "{path} names petgraph");
        }
    }
}

/// The engine, the analysis and self-play know nothing of serialisation:
/// their reports carry domain types, and `cli::report` writes the JSON at
/// the edge.
#[test]
fn ai_and_sim_do_no_io() {
    forbid(
        "ai",
        &[
            "crate::cli",
            "crate::sim",
            "std::fs",
            "std::io",
            "anyhow",
            "clap",
            "petgraph::",
            "println!",
            "serde",
        ],
    );
    forbid("sim", &["crate::cli", "std::fs", "std::io", "anyhow", "clap", "petgraph::", "println!", "serde"]);
}

#[test]
fn only_the_editor_names_the_gui_and_nothing_imports_it() {
    for layer in ["rules", "level", "analysis", "ai", "sim", "generate", "repair", "cli"] {
        forbid(layer, &["egui", "eframe", "rfd::", "crate::editor"]);
    }
}

#[test]
fn the_editor_keeps_to_its_layer() {
    forbid("editor", &["crate::cli", "clap", "petgraph::"]);
}

#[test]
fn generate_does_no_io() {
    forbid("generate", &["crate::cli", "std::fs", "std::io", "anyhow", "clap", "petgraph::", "println!"]);
}

#[test]
fn repair_does_no_io_and_serialises_nothing() {
    forbid(
        "repair",
        &[
            "crate::cli",
            "crate::editor",
            "crate::generate",
            "std::fs",
            "std::io",
            "anyhow",
            "clap",
            "serde",
            "println!",
        ],
    );
}

/// The table of docs/ARCHITECTURE.md: each module and the modules it may
/// import.
fn layer_table() -> BTreeMap<String, BTreeSet<String>> {
    let table = doc_table("| module | imports |");
    assert!(table.len() >= 10, "docs/ARCHITECTURE.md has no layer table");
    table
}

/// A table of docs/ARCHITECTURE.md whose header row starts with `header`:
/// each row's first cell and the names listed in its second.
fn doc_table(header: &str) -> BTreeMap<String, BTreeSet<String>> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ARCHITECTURE.md")).unwrap();
    let mut table = BTreeMap::new();
    let mut in_table = false;
    for line in doc.lines() {
        if line.starts_with(header) {
            in_table = true;
            continue;
        }
        if in_table {
            if !line.starts_with('|') {
                break;
            }
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            if cells[0].starts_with("---") {
                continue;
            }
            let names = |cell: &str| -> BTreeSet<String> {
                cell.split(',')
                    .map(|n| n.trim().trim_matches('`').to_owned())
                    .filter(|n| !n.is_empty() && n != "—")
                    .collect()
            };
            table.insert(cells[0].trim_matches('`').to_owned(), names(cells[1]));
        }
    }
    table
}

/// The top-level modules a source file names as `crate::NAME`, comments left
/// out.
fn named_modules(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
        let code = line.split(" //").next().unwrap_or(line);
        for (at, _) in code.match_indices("crate::") {
            // `pushcrate::` in a test is not `crate::`.
            if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &code[at + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// Every module's files: `src/NAME.rs` or everything under `src/NAME/`.
fn modules() -> BTreeMap<String, Vec<(String, String)>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if ["lib", "main"].contains(&name.as_str()) {
            continue;
        }
        let files = if path.is_dir() {
            sources(&name)
        } else {
            vec![(path.display().to_string(), std::fs::read_to_string(&path).unwrap())]
        };
        out.insert(name, files);
    }
    out
}

#[test]
fn every_module_imports_exactly_what_the_layer_table_lists() {
    let table = layer_table();
    let modules = modules();
    assert_eq!(
        modules.keys().collect::<Vec<_>>(),
        table.keys().collect::<Vec<_>>(),
        "docs/ARCHITECTURE.md's table has a row for each module of src/"
    );
    for (module, files) in &modules {
        let allowed = &table[module];
        let mut used = BTreeSet::new();
        for (path, text) in files {
            for name in named_modules(text) {
                if &name == module {
                    continue;
                }
                assert!(
                    allowed.contains(&name),
                    "{path} imports `crate::{name}`, which the row of `{module}` in docs/ARCHITECTURE.md does not list"
                );
                used.insert(name);
            }
        }
        let unused: Vec<_> = allowed.difference(&used).collect();
        assert!(unused.is_empty(), "the row of `{module}` lists {unused:?}, which no file of it imports");
    }
    assert_no_cycle(&table, "the layer table");
}

/// Fails when the import graph `table` has a cycle: repeatedly take out a
/// node that imports nothing left.
fn assert_no_cycle(table: &BTreeMap<String, BTreeSet<String>>, what: &str) {
    let mut left = table.clone();
    while !left.is_empty() {
        let free: Vec<String> = left
            .iter()
            .filter(|(_, deps)| deps.iter().all(|d| !left.contains_key(d)))
            .map(|(m, _)| m.clone())
            .collect();
        assert!(!free.is_empty(), "{what} has a cycle among {:?}", left.keys().collect::<Vec<_>>());
        for node in free {
            left.remove(&node);
        }
    }
}

#[test]
fn no_two_files_of_a_module_import_each_other() {
    for (module, files) in modules() {
        let stems: BTreeMap<String, &String> = files
            .iter()
            .map(|(path, text)| (Path::new(path).file_stem().unwrap().to_string_lossy().into_owned(), text))
            .collect();
        for (a, text) in &stems {
            for (b, other) in &stems {
                let names = |t: &str, n: &str| {
                    t.contains(&format!("super::{n}::")) || t.contains(&format!("super::{n}}}"))
                };
                if a < b && names(text, b) && names(other, a) {
                    panic!("{module}/{a}.rs and {module}/{b}.rs import each other");
                }
            }
        }
    }
}

#[test]
fn the_import_scan_sees_what_it_must() {
    let text = "use crate::rules::Cell;\n// crate::editor in a comment\nlet x = crate::level::Pack::new(); // crate::cli\nuse pushcrate::sim;\n";
    let found: Vec<String> = named_modules(text).into_iter().collect();
    assert_eq!(found, ["level", "rules"]);
}

/// The editor's own files (`app`, `ui`, … and `mod` for `src/editor/mod.rs`)
/// and the editor files each names: `super::NAME` from a file directly in
/// `src/editor/` or a folder's `mod.rs`, `super::super::NAME` one folder
/// deeper, `crate::editor::NAME` anywhere, and `use NAME::` in `mod.rs`.
fn editor_imports() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/editor");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in sources("editor") {
        let relative = Path::new(&path).strip_prefix(&root).unwrap().to_path_buf();
        let parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        let unit = parts[0].trim_end_matches(".rs").to_owned();
        let depth_prefix = match (parts.len(), parts.last().map(String::as_str)) {
            (1, _) | (2, Some("mod.rs")) => "super::",
            _ => "super::super::",
        };
        let mut names = BTreeSet::new();
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for prefix in [depth_prefix, "crate::editor::"] {
                for (at, _) in line.match_indices(prefix) {
                    // `super::super::x` is not `super::x` of a shallower file.
                    if prefix == "super::" && line[..at].ends_with("super::") {
                        continue;
                    }
                    let rest = &line[at + prefix.len()..];
                    let name: String =
                        rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    if rest[name.len()..].starts_with("::") || rest[name.len()..].starts_with(";") {
                        names.insert(name);
                    }
                }
            }
            if unit == "mod" {
                let code = line.trim_start().trim_start_matches("pub ");
                if let Some(rest) = code.strip_prefix("use ") {
                    let name: String =
                        rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    names.insert(name);
                }
            }
        }
        names.retain(|n| n != &unit && root.join(format!("{n}.rs")).exists() || root.join(n).is_dir());
        names.remove(&unit);
        out.entry(unit).or_default().extend(names);
    }
    out
}

#[test]
fn each_editor_file_imports_what_its_row_lists_and_the_editor_has_no_cycle() {
    let table = doc_table("| editor file | imports |");
    let found = editor_imports();
    assert_eq!(
        found.keys().collect::<Vec<_>>(),
        table.keys().collect::<Vec<_>>(),
        "docs/ARCHITECTURE.md's editor table has a row for each file or folder of src/editor/"
    );
    for (unit, names) in &found {
        assert_eq!(
            names, &table[unit],
            "src/editor/{unit} imports {names:?}; its row in docs/ARCHITECTURE.md's editor table lists {:?}",
            table[unit]
        );
    }
    assert_no_cycle(&table, "the editor's import graph");
}

/// The one door: a view cannot change the editor's state. `EditorApp`'s
/// fields are private (a view that writes one does not compile), and no
/// view takes the editor mutably or applies a command itself.
#[test]
fn views_change_the_editor_only_by_commands() {
    let app =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/editor/app/mod.rs")).unwrap();
    let start = app.find("pub struct EditorApp {").expect("EditorApp is defined in app/mod.rs");
    let body = &app[start..start + app[start..].find("\n}").unwrap()];
    for line in body.lines().skip(1) {
        let line = line.trim_start();
        assert!(!line.starts_with("pub"), "EditorApp has a public field, a side door: `{line}`");
    }
    for (path, text) in sources("editor").into_iter().filter(|(p, _)| p.contains("/ui/")) {
        for needle in ["&mut EditorApp", ".apply(", "app_mut", "state_mut"] {
            assert!(
                !text.contains(needle),
                "{path} names `{needle}`: a view reads `&EditorApp` and sends commands"
            );
        }
    }
}
