//! The conformance suite: generated, complete, and in agreement with the
//! engine when replayed through the library.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use pushcrate::rules::{Action, GameState, perft};

use crate::reference::{Misreading, run_suite};

/// The suite as last reviewed, committed so that a change of the generator
/// that alters an expected result fails a test instead of passing unseen.
fn frozen() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance")
}

fn suite_files(dir: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for sub in ["", "packs"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                let name = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                files.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_generator_writes_the_frozen_suite() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    conformance(&suite).success();
    let (made, kept) = (suite_files(&suite), suite_files(&frozen()));
    let names = |files: &[(String, String)]| files.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&made), names(&kept), "the suite's files changed");
    for ((name, text), (_, frozen_text)) in made.iter().zip(&kept) {
        // The generator's version is the one field that may change alone.
        let strip =
            |t: &str| t.lines().filter(|l| !l.contains("\"generator\"")).collect::<Vec<_>>().join("\n");
        assert!(
            strip(text) == strip(frozen_text),
            "{name} differs from tests/data/conformance/{name}: review the change, then write the suite again with `pushcrate conformance --out tests/data/conformance`"
        );
    }
}

#[test]
fn an_independent_engine_passes_the_frozen_suite() {
    let run = run_suite(&frozen(), None, true);
    assert!(run.failed.is_empty(), "{} failed:\n{}", run.failed.len(), run.failed.join("\n"));
    assert!(run.passed > 500, "only {} checks", run.passed);
}

#[test]
fn the_suite_catches_every_misreading() {
    let mut uncaught = Vec::new();
    for misreading in Misreading::ALL {
        let run = run_suite(&frozen(), Some(misreading), false);
        match run.failed.first() {
            // With --nocapture: the check that caught each one.
            Some(first) => eprintln!("{misreading:?}: {} checks fail, first {first}", run.failed.len()),
            None => uncaught.push(misreading),
        }
    }
    assert!(uncaught.is_empty(), "the suite passes an engine with these misreadings: {uncaught:?}");
}

fn replay(suite: &std::path::Path, pack: &str, level: &str, line: &str) -> GameState {
    let file = pushcrate::files::read_pack(&suite.join("packs").join(format!("{pack}.json"))).unwrap();
    assert!(file.is_valid(), "{pack}: {:?}", file.parsed.problems);
    let pack = file.parsed.pack.unwrap();
    let mut state = pack.level(level).unwrap().start_state(pack.rules).unwrap();
    for word in line.split_whitespace() {
        match word {
            "draw:accepted" => state.offer_draw(true).unwrap(),
            "draw:declined" => state.offer_draw(false).unwrap(),
            _ => {
                state.play(word.parse::<Action>().unwrap()).unwrap();
            }
        }
    }
    state
}

#[test]
fn the_suite_covers_every_rare_rule_and_agrees_with_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("pushcrate")
        .unwrap()
        .args(["conformance", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(name)).unwrap()).unwrap()
    };
    let manifest = read("manifest.json");
    assert_eq!(manifest["version"], 2);
    let games = read("games.json");
    let events: Vec<&str> =
        games["games"].as_array().unwrap().iter().map(|g| g["event"].as_str().unwrap()).collect();
    for event in [
        "pass",
        "steal",
        "steal-on-own-start",
        "refused-slide",
        "break-intact",
        "break-cracked",
        "break-rubble",
        "destroy-splinters",
        "win-by-flag",
        "win-by-crates",
        "draw-accepted",
        "draw-declined",
        "steal-in-legal-list",
        "no-steal-from-victims-start",
        "pickup-on-own-goal-wins",
        "carrier-slides-home",
        "jump-onto-lying-flag",
        "diagonal-jump-past-a-wall",
        "no-crate-on-a-left-start-square",
        "pass-only-action",
        "pass-during-bonus",
        "draw-too-early",
        "draw-reoffer-too-soon",
        "draw-during-bonus",
    ] {
        assert!(events.contains(&event), "no game reaches {event}");
    }
    for game in games["games"].as_array().unwrap() {
        let s = |k: &str| game[k].as_str().unwrap();
        let state = replay(dir.path(), s("pack"), s("level"), s("line"));
        assert_eq!(pushcrate::cli::state_json(&state), game["expected"], "{}", s("event"));
    }
    let positions = read("positions.json");
    let positions = positions["positions"].as_array().unwrap();
    assert!(positions.len() >= 50);
    let mut sizes = std::collections::BTreeSet::new();
    for position in positions {
        let s = |k: &str| position[k].as_str().unwrap();
        let state = replay(dir.path(), s("pack"), s("level"), s("line"));
        sizes.insert((state.width(), state.height()));
        let legal: Vec<String> = state.legal_actions().sorted().iter().map(ToString::to_string).collect();
        let listed: Vec<String> =
            position["legal"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_owned()).collect();
        assert_eq!(legal, listed);
        assert_eq!(position["perft"][0].as_u64(), Some(perft(&state, 1)));
        assert_eq!(pushcrate::cli::state_json(&state), position["state"]);
    }
    for side in 5..=11u8 {
        assert!(sizes.iter().any(|&(w, h)| w == side || h == side), "no board with a side of {side}");
    }
}

#[test]
fn show_prints_the_state_as_json_and_takes_draw_offers() {
    let out = Command::cargo_bin("pushcrate")
        .unwrap()
        .args(["show", "@flawed", "--level", "tiny", "--actions", "c2 d5", "--format", "json"])
        .assert()
        .success();
    let state: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(state["to_move"], 1);
    assert_eq!(state["actions_played"], 2);
    assert_eq!(state["players"][0]["cell"], "c2");
    assert_eq!(state["flag"]["carrier"], serde_json::Value::Null);
    assert_eq!(state["may_offer_draw"], false);
    // The text says why no offer may be made yet.
    Command::cargo_bin("pushcrate")
        .unwrap()
        .args(["show", "@flawed", "--level", "tiny", "--actions", "c2 d5"])
        .assert()
        .success()
        .stdout(predicates::str::contains("No draw offer now: a draw may be offered once 50 actions"));
    // A finished game: nobody to move, no bonus left, no offer.
    let out = Command::cargo_bin("pushcrate")
        .unwrap()
        .args(["show", "@flawed", "--level", "tiny", "--actions", "c2 d5 c3 c2 c1", "--format", "json"])
        .assert()
        .success();
    let state: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(state["over"], true);
    assert_eq!(state["outcome"], serde_json::json!({ "winner": 1, "by": "flag" }));
    assert_eq!(state["to_move"], serde_json::Value::Null);
    assert_eq!(state["bonus_actions"], 0);
    assert_eq!(state["may_offer_draw"], false);
    // The bundled pack allows draw offers only after 50 actions.
    Command::cargo_bin("pushcrate")
        .unwrap()
        .args(["show", "@flawed", "--level", "tiny", "--actions", "c2 draw:accepted"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot be made"));
}

fn conformance(out: &std::path::Path) -> assert_cmd::assert::Assert {
    Command::cargo_bin("pushcrate").unwrap().args(["conformance", "--out"]).arg(out).assert()
}

#[test]
fn the_suite_replaces_an_earlier_suite_whole_and_refuses_a_folder_of_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    conformance(&suite).success();
    // A file of an older suite's layout goes with the folder it was in.
    std::fs::write(suite.join("packs").join("retired.json"), "{}\n").unwrap();
    // A folder a killed run left beside it is removed; a live run's is not.
    let abandoned = dir.path().join(".suite.partial-4000000000");
    std::fs::create_dir(&abandoned).unwrap();
    let live = dir.path().join(format!(".suite.partial-{}", std::process::id()));
    std::fs::create_dir(&live).unwrap();
    conformance(&suite).success();
    assert!(suite.join("manifest.json").is_file());
    assert!(!suite.join("packs").join("retired.json").exists());
    assert!(!abandoned.exists());
    assert!(live.exists());
    std::fs::remove_dir(&live).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["suite"], "nothing is left beside the suite");

    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "mine\n").unwrap();
    conformance(&other).code(2).stderr(predicates::str::contains("holds other files"));
    assert_eq!(std::fs::read_to_string(other.join("notes.txt")).unwrap(), "mine\n");
    assert_eq!(std::fs::read_dir(&other).unwrap().count(), 1);

    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    conformance(&file).code(2).stderr(predicates::str::contains("not a folder"));
}

#[cfg(unix)]
#[test]
fn an_interrupted_suite_leaves_no_part_of_itself() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("pushcrate"))
        .args(["conformance", "--out"])
        .arg(&suite)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    let _ = std::process::Command::new("kill").args(["-KILL", &child.id().to_string()]).status();
    let _ = child.wait_with_output();
    // Whenever the kill came, the suite is whole or absent.
    assert!(!suite.exists() || suite.join("manifest.json").is_file());
}
