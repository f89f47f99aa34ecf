//! The layering of docs/ARCHITECTURE.md, enforced.
//!
//! Two crates hold the layers: `pushcrate-core` (the engine: rules, level,
//! analysis, ai, sim, generate, repair, tune) and `pushcrate` (files,
//! diagnostics, the command line and the editor). The crate boundary is
//! the compiler's: the core's `Cargo.toml` names no GUI, command-line or
//! terminal crate, so no core file can use one. Within each crate, the
//! tests below parse every source file with `syn` and resolve each path it
//! names (`use` trees with their groups and re-exports, paths in code and
//! types, and paths inside macro calls and attributes) to the module it
//! reaches: a module may name only what its row of the table lists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// The source folders of the two crates: the core's modules first.
const ROOTS: [&str; 2] = ["crates/pushcrate-core/src", "src"];

/// One parsed source file.
struct Source {
    /// The path, for messages.
    path: String,
    /// The module path of the file: `["ai", "eval"]` for `ai/eval.rs`,
    /// `["ai"]` for `ai/mod.rs` or `ai.rs`.
    module: Vec<String>,
    /// Every path the file names, resolved to absolute module paths from
    /// its crate's root (`["level", "Pack", "new"]`); a path that starts
    /// outside the crate (`std`, `serde`, …) keeps its first segment.
    paths: BTreeSet<Vec<String>>,
    /// The macros the file calls, by their last segment (`println`).
    macros: BTreeSet<String>,
    /// What the file re-exports (`pub use`): the name as others see it
    /// (`["ai", "Game"]`) and the path it stands for (`["ai", "game",
    /// "Game"]`).
    reexports: BTreeMap<Vec<String>, Vec<String>>,
    /// The text, for the few checks that read it.
    text: String,
    /// Whether the file is the core's (`crates/pushcrate-core`).
    core: bool,
    /// Its functions longer than [`LONG_FUNCTION`] lines, as
    /// `path: Type::name` (or `path: name`), with their length and whether
    /// their doc comment gives the reason.
    long_functions: Vec<(String, (usize, bool))>,
}

/// Every source file under `root` (a crate's `src`), parsed.
fn crate_sources(root: &str) -> Vec<Source> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join(root);
    let mut files = Vec::new();
    let mut stack = vec![base.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    let known: BTreeSet<Vec<String>> = files.iter().map(|p| module_of(&base, p)).collect();
    let core = root == ROOTS[0];
    files.iter().map(|p| Source { core, ..parse_source(&base, p, &known) }).collect()
}

/// The module path of file `path` under `base`.
fn module_of(base: &Path, path: &Path) -> Vec<String> {
    let relative = path.strip_prefix(base).unwrap();
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !["mod", "lib", "main"].contains(&stem) {
        parts.push(stem.to_owned());
    }
    parts
}

fn parse_source(base: &Path, path: &PathBuf, known: &BTreeSet<Vec<String>>) -> Source {
    let text = std::fs::read_to_string(path).unwrap();
    let syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
    let module = module_of(base, path);
    let mut collector = Collector {
        module: module.clone(),
        known,
        paths: BTreeSet::new(),
        macros: BTreeSet::new(),
        reexports: BTreeMap::new(),
        exporting: false,
    };
    collector.visit_file(&syntax);
    let shown = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path).display().to_string();
    let mut finder = LongFunctions { path: &shown, owner: None, found: Vec::new() };
    finder.visit_file(&syntax);
    Source {
        path: path.display().to_string(),
        module,
        paths: collector.paths,
        macros: collector.macros,
        reexports: collector.reexports,
        text,
        core: false,
        long_functions: finder.found,
    }
}

/// Gathers the paths of one file, resolved against its module.
struct Collector<'a> {
    /// The module the visitor is in (the file's, plus any inline `mod`).
    module: Vec<String>,
    /// The crate's files' module paths, for relative paths (`eval::race`
    /// in `ai/mod.rs`).
    known: &'a BTreeSet<Vec<String>>,
    paths: BTreeSet<Vec<String>>,
    macros: BTreeSet<String>,
    reexports: BTreeMap<Vec<String>, Vec<String>>,
    /// Whether the `use` being read is public (a re-export).
    exporting: bool,
}

impl Collector<'_> {
    /// Records `segments` as written in the current module; returns the
    /// path resolved.
    fn record(&mut self, segments: Vec<String>, leading_colon: bool) -> Vec<String> {
        if segments.is_empty() {
            return segments;
        }
        if leading_colon {
            self.paths.insert(segments.clone());
            return segments;
        }
        let resolved = match segments[0].as_str() {
            // The core's modules are the application's too (re-exported
            // under the same names).
            "crate" | "pushcrate" | "pushcrate_core" => segments[1..].to_vec(),
            "self" => [self.module.clone(), segments[1..].to_vec()].concat(),
            "super" => {
                let ups = segments.iter().take_while(|s| *s == "super").count();
                let keep = self.module.len().saturating_sub(ups);
                [self.module[..keep].to_vec(), segments[ups..].to_vec()].concat()
            }
            first => {
                let child = [self.module.clone(), vec![first.to_owned()]].concat();
                if self.known.contains(&child) { [child, segments[1..].to_vec()].concat() } else { segments }
            }
        };
        if !resolved.is_empty() {
            self.paths.insert(resolved.clone());
        }
        resolved
    }

    /// Records the paths written inside a macro call or an attribute:
    /// every run `a::b::c` of identifiers joined by `::`.
    fn scan_tokens(&mut self, tokens: TokenStream) {
        let mut run: Vec<String> = Vec::new();
        let mut leading = false;
        let mut colons = 0;
        for tree in tokens {
            match tree {
                TokenTree::Ident(ident) if colons == 2 && !run.is_empty() => run.push(ident.to_string()),
                TokenTree::Ident(ident) => {
                    self.flush(&mut run, leading);
                    leading = colons == 2;
                    run.push(ident.to_string());
                }
                TokenTree::Punct(p) if p.as_char() == ':' => {
                    colons += 1;
                    continue;
                }
                TokenTree::Group(group) => {
                    self.flush(&mut run, leading);
                    self.scan_tokens(group.stream());
                }
                TokenTree::Punct(_) | TokenTree::Literal(_) => self.flush(&mut run, leading),
            }
            colons = 0;
        }
        self.flush(&mut run, leading);
    }

    /// Records a run of identifiers that is a path (two segments or more,
    /// or one of `crate`, `self`, `super`) and empties it.
    fn flush(&mut self, run: &mut Vec<String>, leading: bool) {
        let path = std::mem::take(run);
        if path.len() > 1 || path.first().is_some_and(|s| ["crate", "self", "super"].contains(&s.as_str())) {
            self.record(path, leading);
        }
    }

    /// Records every path of a `use` tree, its groups expanded.
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree, leading: bool) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree, leading);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut full = prefix.clone();
                if n.ident != "self" {
                    full.push(n.ident.to_string());
                }
                let name = full.last().cloned();
                let target = self.record(full, leading);
                self.export(name, target);
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.clone();
                if r.ident != "self" {
                    full.push(r.ident.to_string());
                }
                let target = self.record(full, leading);
                self.export(Some(r.rename.to_string()), target);
            }
            syn::UseTree::Glob(_) => {
                let target = self.record(prefix.clone(), leading);
                self.export(None, target);
            }
            syn::UseTree::Group(g) => {
                for item in &g.items {
                    self.use_tree(prefix, item, leading);
                }
            }
        }
    }
}

impl Collector<'_> {
    /// Notes a re-export of `target` as `name` (`None`: a glob, every name
    /// of `target`) when the `use` being read is public.
    fn export(&mut self, name: Option<String>, target: Vec<String>) {
        if self.exporting && !target.is_empty() {
            let mut key = self.module.clone();
            key.extend(name);
            self.reexports.insert(key, target);
        }
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.exporting = !matches!(item.vis, syn::Visibility::Inherited);
        self.use_tree(&mut Vec::new(), &item.tree, item.leading_colon.is_some());
        self.exporting = false;
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.module.push(item.ident.to_string());
        syn::visit::visit_item_mod(self, item);
        self.module.pop();
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 || ["crate", "self", "super"].contains(&segments[0].as_str()) {
            self.record(segments, path.leading_colon.is_some());
        }
        syn::visit::visit_path(self, path);
    }

    /// `pub(super)` and `pub(crate)` say who may see an item, not what it
    /// uses.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(last) = mac.path.segments.last() {
            self.macros.insert(last.ident.to_string());
        }
        self.scan_tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }

    fn visit_meta_list(&mut self, list: &'ast syn::MetaList) {
        self.scan_tokens(list.tokens.clone());
        syn::visit::visit_meta_list(self, list);
    }
}

/// Every module of both crates (the top-level name of each file's module
/// path; `lib.rs` and `main.rs` are the crates' roots, not modules) and
/// its files, parsed once for all the tests.
fn modules() -> &'static BTreeMap<String, Vec<Source>> {
    static PARSED: std::sync::OnceLock<BTreeMap<String, Vec<Source>>> = std::sync::OnceLock::new();
    PARSED.get_or_init(|| {
        let mut out: BTreeMap<String, Vec<Source>> = BTreeMap::new();
        for root in ROOTS {
            for source in crate_sources(root) {
                if let Some(top) = source.module.first().cloned() {
                    out.entry(top).or_default().push(source);
                }
            }
        }
        out
    })
}

/// The files of module `name`.
fn sources(name: &str) -> &'static [Source] {
    modules().get(name).unwrap_or_else(|| panic!("no module `{name}`"))
}

/// The crate-level modules a file names (the first segment of each
/// resolved path that is a module of either crate).
fn named_modules(source: &Source, modules: &BTreeSet<String>) -> BTreeSet<String> {
    source.paths.iter().filter_map(|p| p.first()).filter(|m| modules.contains(*m)).cloned().collect()
}

/// Fails when a file of `module` names a path starting with one of
/// `prefixes` (`"std::fs"`, `"serde"`) or calls one of `macros`.
fn forbid(module: &str, prefixes: &[&str], macros: &[&str]) {
    for source in sources(module) {
        for prefix in prefixes {
            let wanted: Vec<&str> = prefix.split("::").collect();
            let hit = source
                .paths
                .iter()
                .find(|p| p.len() >= wanted.len() && p.iter().zip(&wanted).all(|(a, b)| a == b));
            assert!(
                hit.is_none(),
                "{} names `{}`, which its layer must not",
                source.path,
                hit.unwrap().join("::")
            );
        }
        for mac in macros {
            assert!(
                !source.macros.contains(*mac),
                "{} calls `{mac}!`, which its layer must not",
                source.path
            );
        }
    }
}

/// The crates `package` depends on, directly or not, as `Cargo.lock`
/// records them (every target and feature).
fn locked_dependencies(package: &str) -> BTreeSet<String> {
    let lock = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock")).unwrap();
    let lock: toml::Table = lock.parse().unwrap();
    let packages = lock["package"].as_array().unwrap();
    let deps_of = |name: &str| -> Vec<String> {
        packages
            .iter()
            .filter(|p| p["name"].as_str() == Some(name))
            .flat_map(|p| p.get("dependencies").and_then(|d| d.as_array()).cloned().unwrap_or_default())
            .map(|d| d.as_str().unwrap().split(' ').next().unwrap().to_owned())
            .collect()
    };
    let mut seen = BTreeSet::new();
    let mut stack = deps_of(package);
    while let Some(name) = stack.pop() {
        if seen.insert(name.clone()) {
            stack.extend(deps_of(&name));
        }
    }
    seen
}

/// The crates of the GUI, the command line and the terminal: none may be
/// a dependency of the core, even an indirect one.
const NOT_IN_THE_CORE: [&str; 13] = [
    "eframe",
    "egui",
    "egui_plot",
    "egui_kittest",
    "wgpu",
    "winit",
    "rfd",
    "clap",
    "indicatif",
    "console",
    "anyhow",
    "annotate-snippets",
    "signal-hook",
];

/// The crates that reach into the process (signals, priorities, files
/// written in place): the core names none of them itself. (`libc` comes in
/// under `rand`'s random seeding, which the core does not use.)
const NOT_NAMED_BY_THE_CORE: [&str; 4] = ["libc", "signal-hook", "atomic-write-file", "tempfile"];

#[test]
fn the_core_crate_depends_on_no_gui_cli_or_terminal_crate() {
    let manifest = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/pushcrate-core/Cargo.toml"),
    )
    .unwrap();
    let manifest: toml::Table = manifest.parse().unwrap();
    let direct: BTreeSet<&str> = ["dependencies", "dev-dependencies", "build-dependencies"]
        .iter()
        .filter_map(|t| manifest.get(*t).and_then(|d| d.as_table()))
        .flat_map(|t| t.keys().map(String::as_str))
        .collect();
    assert!(manifest.get("target").is_none(), "the core has no platform-specific dependencies");
    let all = locked_dependencies("pushcrate-core");
    assert!(all.contains("petgraph") && direct.contains("petgraph"), "the lock file is read: {all:?}");
    for name in NOT_IN_THE_CORE.iter().chain(&NOT_NAMED_BY_THE_CORE) {
        assert!(!direct.contains(name), "crates/pushcrate-core/Cargo.toml names `{name}`");
    }
    for name in NOT_IN_THE_CORE {
        assert!(!all.contains(name), "`{name}` reaches pushcrate-core through its dependencies");
    }
    // The application does depend on them: the list names real crates.
    let app = locked_dependencies("pushcrate");
    for name in ["eframe", "egui", "wgpu", "clap", "indicatif", "anyhow", "libc"] {
        assert!(app.contains(name), "pushcrate depends on {name}");
    }
}

/// The core's modules: the folders of `crates/pushcrate-core/src`.
fn core_modules() -> BTreeSet<String> {
    modules().iter().filter(|(_, files)| files.iter().any(|s| s.core)).map(|(name, _)| name.clone()).collect()
}

#[test]
fn the_core_does_no_process_io() {
    let core = core_modules();
    assert!(core.len() >= 8, "{core:?}");
    for module in &core {
        forbid(
            module,
            &["std::process", "std::env", "std::fs", "std::io::stdin", "std::io::stdout", "std::io::stderr"],
            &["print", "println", "eprint", "eprintln", "dbg"],
        );
    }
}

#[test]
fn rules_stand_alone_and_do_no_io() {
    forbid("rules", &["level", "cli", "std::io", "petgraph", "serde"], &[]);
}

#[test]
fn level_does_no_io() {
    forbid("level", &["cli", "analysis", "std::io", "petgraph"], &[]);
}

#[test]
fn analysis_does_no_io_and_keeps_petgraph_in_maze_graph() {
    forbid("analysis", &["cli", "std::io", "serde"], &[]);
    for module in ["analysis", "cli", "level", "rules"] {
        for source in sources(module) {
            if !source.path.ends_with("graph.rs") {
                assert!(!source.paths.iter().any(|p| p[0] == "petgraph"), "{} names petgraph", source.path);
            }
        }
    }
}

/// The engine, the analysis and self-play know nothing of serialisation:
/// their reports carry domain types, and `cli::report` writes the JSON at
/// the edge.
#[test]
fn ai_and_sim_do_no_io() {
    forbid("ai", &["cli", "sim", "std::io", "petgraph", "serde"], &[]);
    forbid("sim", &["cli", "std::io", "petgraph", "serde"], &[]);
}

#[test]
fn only_the_editor_names_the_gui_and_nothing_imports_it() {
    for layer in ["files", "diagnostics", "cli"] {
        forbid(layer, &["egui", "eframe", "egui_plot", "rfd", "editor"], &[]);
    }
}

#[test]
fn the_editor_keeps_to_its_layer() {
    forbid("editor", &["cli", "clap", "petgraph"], &[]);
}

#[test]
fn generate_does_no_io() {
    forbid("generate", &["cli", "std::io", "petgraph"], &[]);
}

#[test]
fn repair_does_no_io_and_serialises_nothing() {
    forbid("repair", &["cli", "editor", "generate", "std::io", "serde"], &[]);
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

#[test]
fn every_module_imports_exactly_what_the_layer_table_lists() {
    let table = layer_table();
    let modules = modules();
    assert_eq!(
        modules.keys().collect::<Vec<_>>(),
        table.keys().collect::<Vec<_>>(),
        "docs/ARCHITECTURE.md's table has a row for each module of both crates"
    );
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    for (module, files) in modules {
        let allowed = &table[module];
        let mut used = BTreeSet::new();
        for source in files {
            for name in named_modules(source, &names) {
                if &name == module {
                    continue;
                }
                assert!(
                    allowed.contains(&name),
                    "{} names `{name}`, which the row of `{module}` in docs/ARCHITECTURE.md does not list",
                    source.path
                );
                used.insert(name);
            }
        }
        let unused: Vec<_> = allowed.difference(&used).collect();
        assert!(unused.is_empty(), "the row of `{module}` lists {unused:?}, which no file of it imports");
    }
    assert_no_cycle(&table, "the layer table");
    // The core's modules import only the core's: the crate boundary.
    let core = core_modules();
    for module in &core {
        let outside: Vec<_> = table[module].difference(&core).collect();
        assert!(outside.is_empty(), "`{module}` is in the core but its row lists {outside:?}");
    }
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

/// Each file of a module (by its module path, `ai` for `ai/mod.rs`, `ai/eval`
/// for `ai/eval.rs`) and the module's other files it names: a path reaches
/// the file whose module path is its longest prefix.
fn file_graph(files: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let known: BTreeSet<&[String]> = files.iter().map(|s| s.module.as_slice()).collect();
    let reexports: BTreeMap<&[String], &[String]> =
        files.iter().flat_map(|s| s.reexports.iter().map(|(k, v)| (k.as_slice(), v.as_slice()))).collect();
    let mut graph = BTreeMap::new();
    for source in files {
        let mut targets = BTreeSet::new();
        for path in source.paths.iter().filter(|p| p.first() == source.module.first()) {
            let path = &through_reexports(path, &reexports);
            let target = (1..=path.len()).rev().map(|k| &path[..k]).find(|prefix| known.contains(prefix));
            if let Some(target) = target.filter(|t| *t != source.module.as_slice()) {
                targets.insert(target.join("/"));
            }
        }
        graph.insert(source.module.join("/"), targets);
    }
    graph
}

/// `path` with every re-exported name in it replaced by what it stands
/// for: `crate::ai::Game` names `ai/game.rs`, not `ai/mod.rs`, when
/// `ai/mod.rs` has `pub use game::Game`. A re-export of a name that
/// `ai/mod.rs` defines (`pub use self::x`) is followed no farther.
fn through_reexports(path: &[String], reexports: &BTreeMap<&[String], &[String]>) -> Vec<String> {
    let mut path = path.to_vec();
    for _ in 0..8 {
        let Some((k, target)) =
            (1..=path.len()).rev().find_map(|k| reexports.get(&path[..k]).map(|t| (k, *t)))
        else {
            break;
        };
        let mut next = target.to_vec();
        next.extend_from_slice(&path[k..]);
        if next == path {
            break;
        }
        path = next;
    }
    path
}

/// The files of each module that import one another in a cycle (a
/// strongly connected component of two files or more of the module's file
/// graph), as `module/file` names with `module` for its `mod.rs`.
fn file_cycles() -> BTreeSet<BTreeSet<String>> {
    let mut out = BTreeSet::new();
    for files in modules().values() {
        let graph = file_graph(files);
        let mut g = petgraph::graph::DiGraph::<&str, ()>::new();
        let nodes: BTreeMap<&str, _> = graph.keys().map(|k| (k.as_str(), g.add_node(k.as_str()))).collect();
        for (from, targets) in &graph {
            for to in targets {
                g.add_edge(nodes[from.as_str()], nodes[to.as_str()], ());
            }
        }
        for component in petgraph::algo::tarjan_scc(&g) {
            if component.len() > 1 {
                out.insert(component.iter().map(|n| g[*n].to_owned()).collect());
            }
        }
    }
    out
}

/// A file cycle ties its files together: none can be read, tested or moved
/// alone. No module has one (docs/ARCHITECTURE.md, "Cycles between files").
#[test]
fn the_files_of_a_module_form_no_cycle() {
    let row = |cycle: &BTreeSet<String>| cycle.iter().cloned().collect::<Vec<_>>().join(" · ");
    let found: Vec<String> = file_cycles().iter().map(row).collect();
    assert!(found.is_empty(), "files that import one another: {found:#?}");
}

#[test]
fn the_import_scan_sees_what_it_must() {
    let text = "
        use crate::{rules::Cell, level::{self, Pack}};
        pub use crate::sim::Report;
        use super::analysis::race;
        use eval::Weights;
        // crate::editor in a comment
        fn f() { let x = crate::tune::fit(); /* crate::cli */ }
        #[derive(serde::Serialize)]
        struct S;
        fn g() { println!(\"{}\", crate::generate::draw()); let _ = \"crate::repair\"; }
        mod tests { use super::*; use std::fs; }
    ";
    let dir = std::env::temp_dir().join(format!("pushcrate-arch-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("ai")).unwrap();
    let file = dir.join("ai/mod.rs");
    std::fs::write(&file, text).unwrap();
    let known: BTreeSet<Vec<String>> = [
        vec!["ai".to_owned()],
        vec!["ai".to_owned(), "eval".to_owned()],
        vec!["ai".to_owned(), "alphabeta".to_owned()],
    ]
    .into();
    let source = parse_source(&dir, &file, &known);
    std::fs::remove_dir_all(&dir).unwrap();
    let modules: BTreeSet<String> =
        ["rules", "level", "sim", "analysis", "tune", "generate", "editor", "cli", "repair", "ai"]
            .map(str::to_owned)
            .into();
    let found: Vec<String> = named_modules(&source, &modules).into_iter().collect();
    // Grouped imports, a re-export, a path that climbs out of the module,
    // a relative path to a sibling file, a path in code and one inside a
    // macro call; not a comment or a string.
    assert_eq!(found, ["ai", "analysis", "generate", "level", "rules", "sim", "tune"]);
    assert!(source.paths.contains(&vec!["ai".to_owned(), "eval".to_owned(), "Weights".to_owned()]));
    assert!(source.paths.contains(&vec!["serde".to_owned(), "Serialize".to_owned()]));
    assert!(source.paths.contains(&vec!["std".to_owned(), "fs".to_owned()]));
    assert!(source.macros.contains("println"));
}

/// The editor's own files (`app`, `ui`, … and `mod` for `src/editor/mod.rs`)
/// and the editor files each names.
fn editor_imports() -> BTreeMap<String, BTreeSet<String>> {
    let files = sources("editor");
    let units: BTreeSet<String> = files.iter().filter_map(|s| s.module.get(1).cloned()).collect();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for source in files {
        let unit = source.module.get(1).cloned().unwrap_or_else(|| "mod".to_owned());
        let names: BTreeSet<String> = source
            .paths
            .iter()
            .filter(|p| p.len() >= 2 && p[0] == "editor" && units.contains(&p[1]) && p[1] != unit)
            .map(|p| p[1].clone())
            .collect();
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
    for source in sources("editor").iter().filter(|s| s.module.get(1).is_some_and(|u| u == "ui")) {
        for needle in
            ["&mut EditorApp", ".apply(", "app_mut", "state_mut", "game_mut", "balance_mut", "fixes_mut"]
        {
            assert!(
                !source.text.contains(needle),
                "{} names `{needle}`: a view reads `&EditorApp` and sends commands",
                source.path
            );
        }
    }
}

/// The editor's parts own their state: the app, the document and the
/// sandbox's four parts have no public field (parsed, not matched), so a
/// change goes through their methods.
#[test]
fn the_editor_parts_have_no_public_field() {
    let parts =
        ["EditorApp", "Document", "Sandbox", "Game", "BalanceRun", "FixSearch", "SkillTrace", "Analyses"];
    let mut seen = BTreeSet::new();
    for source in sources("editor") {
        let file = syn::parse_file(&source.text).unwrap();
        for item in &file.items {
            let syn::Item::Struct(item) = item else { continue };
            let name = item.ident.to_string();
            if !parts.contains(&name.as_str()) {
                continue;
            }
            seen.insert(name.clone());
            for field in &item.fields {
                assert!(
                    matches!(field.vis, syn::Visibility::Inherited),
                    "{}: `{name}` has a public field `{}`",
                    source.path,
                    field.ident.as_ref().map(ToString::to_string).unwrap_or_default()
                );
            }
        }
    }
    assert_eq!(seen, parts.iter().map(ToString::to_string).collect(), "every part is found");
}

/// Functions longer than this many lines need a reason in their doc
/// comment: a paragraph that starts "Its length:".
const LONG_FUNCTION: usize = 100;

/// Every function with a body in both crates longer than [`LONG_FUNCTION`]
/// lines, with its length and whether its doc comment gives the reason.
fn long_functions() -> Vec<(String, (usize, bool))> {
    modules().values().flatten().flat_map(|s| s.long_functions.iter().cloned()).collect()
}

/// Finds a file's functions longer than [`LONG_FUNCTION`] lines.
struct LongFunctions<'a> {
    path: &'a str,
    /// The type of the `impl` block being read, if any.
    owner: Option<String>,
    found: Vec<(String, (usize, bool))>,
}
impl LongFunctions<'_> {
    fn check(&mut self, name: &syn::Ident, attrs: &[syn::Attribute], block: &syn::Block) {
        use syn::spanned::Spanned;
        let span = block.span();
        let lines = span.end().line - span.start().line + 1;
        if lines > LONG_FUNCTION {
            let reason = attrs.iter().any(|a| {
                matches!(&a.meta, syn::Meta::NameValue(nv)
                    if matches!(&nv.value, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })
                        if s.value().trim_start().starts_with("Its length:")))
            });
            let name = match &self.owner {
                Some(owner) => format!("{owner}::{name}"),
                None => name.to_string(),
            };
            self.found.push((format!("{}: {name}", self.path), (lines, reason)));
        }
    }
}
impl<'ast> Visit<'ast> for LongFunctions<'_> {
    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        let owner = match &*item.self_ty {
            syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        let outer = std::mem::replace(&mut self.owner, owner);
        syn::visit::visit_item_impl(self, item);
        self.owner = outer;
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.check(&f.sig.ident, &f.attrs, &f.block);
        syn::visit::visit_item_fn(self, f);
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.check(&f.sig.ident, &f.attrs, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }
    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            self.check(&f.sig.ident, &f.attrs, block);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }
}

/// No function runs past [`LONG_FUNCTION`] lines without saying why, except
/// the ones docs/ARCHITECTURE.md lists as still to split ("Long
/// functions"); a listed one that is split, or that gives its reason, must
/// leave the list.
#[test]
fn long_functions_say_why_or_are_listed_to_split() {
    let listed: BTreeSet<String> =
        doc_table("| function still to split | what it holds |").into_keys().collect();
    let unexplained = long_functions()
        .into_iter()
        .filter(|(_, (_, reason))| !reason)
        .map(|(name, (lines, _))| (name, lines))
        .collect::<BTreeMap<String, usize>>();
    let new: Vec<String> = unexplained
        .iter()
        .filter(|(name, _)| !listed.contains(*name))
        .map(|(name, lines)| format!("{name} ({lines} lines)"))
        .collect();
    assert!(new.is_empty(), "functions over {LONG_FUNCTION} lines without a reason: {new:#?}");
    let gone: Vec<_> = listed.iter().filter(|name| !unexplained.contains_key(*name)).collect();
    assert!(gone.is_empty(), "docs/ARCHITECTURE.md lists functions that are no longer long: {gone:#?}");
}
