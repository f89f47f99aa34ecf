//! The layering of docs/ARCHITECTURE.md, enforced.

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
        &["crate::level", "crate::cli", "std::fs", "std::io", "anyhow", "clap", "petgraph", "println!"],
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
    forbid("analysis", &["crate::cli", "std::fs", "std::io", "anyhow", "clap", "println!"]);
    for (path, text) in
        sources("analysis").into_iter().chain(sources("cli")).chain(sources("level")).chain(sources("rules"))
    {
        if !path.ends_with("graph.rs") {
            assert!(!text.contains("petgraph::"), "{path} names petgraph");
        }
    }
}

#[test]
fn ai_and_sim_do_no_io() {
    forbid(
        "ai",
        &["crate::cli", "crate::sim", "std::fs", "std::io", "anyhow", "clap", "petgraph::", "println!"],
    );
    forbid("sim", &["crate::cli", "std::fs", "std::io", "anyhow", "clap", "petgraph::", "println!"]);
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
