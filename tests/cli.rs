//! The `pushcrate` binary, run as a user would.

use assert_cmd::Command;
use predicates::prelude::*;

fn pushcrate() -> Command {
    let mut cmd = Command::cargo_bin("pushcrate").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

fn stored_perft(id: &str, depth: usize) -> u64 {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.toml")).unwrap();
    let table: std::collections::BTreeMap<String, Vec<u64>> = toml::from_str(&text).unwrap();
    table[id][depth - 1]
}

#[test]
fn no_subcommand_summarises_the_bundled_pack() {
    // Without a display: with one, the editor would open.
    pushcrate()
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .assert()
        .success()
        .stdout(predicate::str::contains("open").and(predicate::str::contains("6 levels")));
}

#[test]
fn check_accepts_the_shipped_packs() {
    pushcrate()
        .args(["check", "mazes/default.toml", "mazes/flawed.toml"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains("0 errors"));
}

#[test]
fn check_draws_diagnostics_with_line_and_column() {
    pushcrate()
        .args(["check", "tests/data/invalid/e012-map-char.toml"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error[E012]"))
        .stderr(predicate::str::contains("e012-map-char.toml:11:3"))
        .stderr(predicate::str::contains("^"));
}

#[test]
fn check_reports_json() {
    let output = pushcrate()
        .args(["check", "--format", "json", "tests/data/invalid/many-problems.toml"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let problems = report["packs"][0]["problems"].as_array().unwrap();
    // Five problems, the shared id named on both of its levels.
    assert_eq!(problems.len(), 6);
    assert_eq!(problems.iter().filter(|p| p["code"] == "E021").count(), 2);
    assert!(problems.iter().all(|p| p["line"].is_u64() && p["column"].is_u64() && p["code"].is_string()));
    assert_eq!(report["packs"][0]["valid"], false);
}

#[test]
fn unreadable_files_and_bad_usage_exit_2() {
    pushcrate()
        .args(["check", "no/such/pack.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/pack.toml"));
    pushcrate().args(["check"]).assert().code(2);
    pushcrate()
        .args(["show", "@default", "--level", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("open"));
}

#[test]
fn show_draws_the_position() {
    pushcrate()
        .args(["show", "mazes/default.toml", "--level", "open", "--actions", "e2 e8 +c3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("player 2 to move"))
        .stdout(predicate::str::contains(" 3 . . i"))
        .stdout(predicate::str::contains("placements left 5"));
}

#[test]
fn moves_lists_sorted_legal_actions() {
    let output = pushcrate().args(["moves", "@default", "--level", "open"]).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len() as u64, stored_perft("open", 1));
    assert_eq!(&lines[..3], ["d1", "f1", "e2"]);
    let json =
        pushcrate().args(["moves", "@default", "--level", "open", "--format", "json"]).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["actions"][0]["kind"], "step");
}

#[test]
fn an_illegal_action_names_its_position_and_rule() {
    pushcrate()
        .args(["moves", "@default", "--level", "open", "--actions", "e2 e3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("action 2"))
        .stderr(predicate::str::contains("`e3`"))
        .stderr(predicate::str::contains("rule 4"));
}

#[test]
fn perft_prints_the_stored_count() {
    pushcrate()
        .args(["perft", "mazes/default.toml", "--level", "open", "--depth", "3"])
        .assert()
        .success()
        .stdout(format!("{}\n", stored_perft("open", 3)));
    let output = pushcrate()
        .args(["perft", "@flawed", "--level", "maze", "--depth", "2", "--divide"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.trim_end().ends_with(&stored_perft("maze", 2).to_string()));
    assert_eq!(text.lines().filter(|l| l.contains(": ")).count() as u64, stored_perft("maze", 1));
}

#[test]
fn analyze_passes_the_default_pack_and_reports_flaws() {
    pushcrate().args(["analyze", "mazes/default.toml", "--budget", "2000"]).assert().code(0);
    pushcrate()
        .args(["analyze", "mazes/flawed.toml", "--budget", "2000"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("warning[A010]"))
        .stdout(predicate::str::contains("warning[A040]"))
        .stdout(predicate::str::contains("witness line"));
    pushcrate()
        .args(["analyze", "mazes/flawed.toml", "--deny", "warnings", "--budget", "0"])
        .assert()
        .code(1);
}

#[test]
fn analyze_shows_the_walled_off_region_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("walled.toml");
    std::fs::write(
        &path,
        "format = 1\nname = \"w\"\n[[level]]\nid = \"w\"\nname = \"W\"\nsize = \"5x5\"\nmap = '''\n.....\n.....\n.....\n#####\n.....\n'''\np1 = { start = \"c1\" }\np2 = { start = \"c5\" }\n",
    )
    .unwrap();
    pushcrate()
        .args(["analyze"])
        .arg(&path)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("error[A001]"))
        .stdout(predicate::str::contains("region: a1 b1 c1 d1 e1"));
}

#[test]
fn analyze_json_follows_the_documented_schema() {
    let output = pushcrate()
        .args(["analyze", "mazes/flawed.toml", "--level", "pockets", "--format", "json", "--budget", "2000"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let report = &json["packs"][0]["report"];
    assert_eq!(report["version"], 1);
    let level = &report["levels"][0];
    assert_eq!(level["level"], "pockets");
    for key in
        ["size", "findings", "routes", "race", "sole_path_cells", "placement_cells", "symmetry", "search"]
    {
        assert!(!level[key].is_null(), "{key} missing");
    }
    let finding = &level["findings"][0];
    for key in ["code", "severity", "message", "cells", "witness"] {
        assert!(finding.get(key).is_some(), "finding.{key} missing");
    }
    assert_eq!(level["search"]["dead_position"]["answer"], "proved");
    assert!(level["routes"][0]["witness"]["kind"] == "path");
}

#[test]
fn selfplay_reports_are_complete_and_thread_independent() {
    let run = |threads: &str| {
        pushcrate()
            .args([
                "selfplay",
                "mazes/default.toml",
                "--level",
                "open",
                "--games",
                "40",
                "--agents",
                "greedy,greedy",
            ])
            .args(["--seed", "7", "--format", "json", "--threads", threads])
            .output()
            .unwrap()
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(one.stdout, two.stdout);
    let json: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    let check = &json["levels"][0];
    assert_eq!(check["level"], "open");
    for key in ["verdict", "pairings_disagree", "stall_prone", "forced_win", "interrupted", "near_edge"] {
        assert!(check.get(key).is_some(), "{key} missing");
    }
    // One pairing named: one run, whose verdict is the check's.
    assert_eq!(check["runs"].as_array().map(Vec::len), Some(1));
    let report = &check["runs"][0];
    for key in [
        "wins_by_player",
        "wins_by_agent",
        "wins_by_flag",
        "wins_by_crates",
        "draws",
        "stalls",
        "first_player_score",
        "first_player_advantage",
        "balance",
        "stall_rate",
        "length",
        "verdicts",
    ] {
        assert!(!report[key].is_null(), "{key} missing");
    }
    assert_eq!(report["games"], 40);
}

#[test]
fn selfplay_saves_stalls_as_records() {
    let dir = tempfile::tempdir().unwrap();
    pushcrate()
        .args(["selfplay", "@flawed", "--level", "maze", "--games", "4", "--agents", "random,random"])
        .args(["--max-actions", "10", "--save-stalls"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("STALL-PRONE"));
    let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(files.len(), 4);
    let text = std::fs::read_to_string(files[0].as_ref().unwrap().path()).unwrap();
    assert!(text.starts_with("maze@"), "{text}");
    // The record names the layout, and so replays on the bundled level.
    let record: pushcrate::level::record::GameRecord = text.parse().unwrap();
    assert_eq!(record.positions(&pushcrate::level::Pack::bundled_flawed()).unwrap().len(), 11);
}

/// The game records in `dir` by file name, each with the name, and
/// asserted to replay to a finished game on the bundled level.
fn finished_records(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    for name in &names {
        let record: pushcrate::level::record::GameRecord =
            std::fs::read_to_string(dir.join(name)).unwrap().parse().unwrap();
        assert!(record.replay(&pushcrate::level::Pack::bundled()).unwrap().is_over(), "{name}");
    }
    names
}

#[test]
fn selfplay_saves_every_game_as_a_record() {
    let run = |flag: &str| {
        let dir = tempfile::tempdir().unwrap();
        pushcrate()
            .args(["selfplay", "@default", "--level", "open", "--games", "4", "--agents", "greedy,random"])
            .arg(flag)
            .arg(dir.path())
            .assert()
            .success();
        finished_records(dir.path())
    };
    // Greedy beats random on `open` in every game: none stalls, and every
    // game is saved, each replaying to its end on the bundled level.
    assert_eq!(
        run("--save-games"),
        ["open-game0.record", "open-game1.record", "open-game2.record", "open-game3.record"]
    );
    assert!(run("--save-stalls").is_empty());
    // A head-to-head test saves each game it played.
    let dir = tempfile::tempdir().unwrap();
    let output = pushcrate()
        .args(["selfplay", "@default", "--level", "open", "--agents", "greedy,random", "--head-to-head"])
        .args(["--format", "json", "--save-games"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(output.status.success());
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let games = report["levels"][0]["games"].as_u64().unwrap();
    assert!(games >= 2);
    assert_eq!(finished_records(dir.path()).len() as u64, games);
    // Both at once would write one folder's games under two rules.
    pushcrate()
        .args(["selfplay", "@default", "--level", "open", "--save-games", "a", "--save-stalls", "b"])
        .assert()
        .code(2);
}

#[test]
fn selfplay_and_solve_refuse_bad_usage() {
    pushcrate()
        .args(["selfplay", "@default", "--agents", "greedy,genius", "--level", "open"])
        .assert()
        .code(2);
    pushcrate().args(["selfplay", "@default"]).assert().code(2).stderr(predicate::str::contains("--all"));
}

#[test]
fn solve_proves_and_disproves() {
    pushcrate()
        .args(["solve", "@flawed", "--level", "tiny", "--actions", "c2 d5 c3", "--depth", "3"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("proved: player 1 forces a win within 2 actions: c2 c1"));
    pushcrate()
        .args(["solve", "@flawed", "--level", "tiny", "--depth", "4"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("disproved"));
    // A walk home that nothing can stop is proved with no search.
    pushcrate()
        .args(["solve", "mazes/flawed.toml", "--level", "pockets", "--depth", "40"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("proved: player 1 forces a win within 13 actions: e2 "))
        .stdout(predicate::str::contains("(a runaway: a walk home nothing can stop, no position searched)"));
    let json = pushcrate()
        .args(["solve", "@default", "--level", "open", "--depth", "20", "--budget", "50", "--format", "json"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["verdict"]["answer"], "unknown");
}

#[test]
fn generate_and_export_for_clients() {
    let dir = tempfile::tempdir().unwrap();
    let generated = dir.path().join("gen.toml");
    pushcrate()
        .args(["generate", "--count", "20", "--seed", "1", "--symmetry", "rot180", "--out"])
        .arg(&generated)
        .assert()
        .success();
    pushcrate().arg("check").arg(&generated).assert().code(0);
    pushcrate().arg("analyze").arg(&generated).args(["--budget", "0"]).assert().code(0);
    let again = pushcrate()
        .args(["generate", "--count", "20", "--seed", "1", "--symmetry", "rot180"])
        .output()
        .unwrap();
    assert_eq!(std::fs::read(&generated).unwrap(), again.stdout, "the same seed writes the same pack");
    // Clear of the band's edges is a condition on the balance check: alone
    // it is refused, naming what it needs.
    pushcrate()
        .args(["generate", "--count", "1", "--clear-of-edges"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--balanced"));
    // Export with derived figures, as TOML and JSON: both read back as the same pack.
    let derived = dir.path().join("derived.toml");
    pushcrate().args(["export", "@default", "--with-analysis", "--out"]).arg(&derived).assert().success();
    let text = std::fs::read_to_string(&derived).unwrap();
    assert!(text.contains("[level.derived]") && text.contains("sole_path_cells"));
    let reread = pushcrate::level::format::parse_pack(&text).pack.unwrap();
    assert_eq!(reread, pushcrate::level::Pack::bundled());
    let json = dir.path().join("derived.json");
    pushcrate()
        .args(["export", "@default", "--with-analysis", "--format", "json", "--out"])
        .arg(&json)
        .assert()
        .success();
    pushcrate().arg("check").arg(&json).assert().code(0);
    pushcrate().args(["schema"]).assert().success().stdout(predicate::str::contains("Push Crate level pack"));
}

/// Without `--games` a pairing stops at its sequential test's verdict:
/// the report carries the test, stops well before the cap on a level the
/// first player always wins, and is the same on one thread or two.
#[test]
fn selfplay_stops_at_the_sequential_verdict() {
    let run = |threads: &str| {
        pushcrate()
            .args(["selfplay", "@flawed", "--level", "maze", "--agents", "hard,hard", "--format", "json"])
            .args(["--threads", threads])
            .output()
            .unwrap()
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one.status.code(), Some(0), "{}", String::from_utf8_lossy(&one.stderr));
    assert_eq!(one.stdout, two.stdout);
    let json: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    let check = &json["levels"][0];
    assert_eq!((check["verdict"].as_str(), check["favoured"].as_u64()), (Some("unbalanced"), Some(1)));
    let test = &check["runs"][0]["sequential"];
    assert_eq!(test["decision"], "first-ahead");
    // Every pair won by the first player: a mean of 100%, near no edge.
    assert_eq!((test["mean"].as_f64(), &test["near_edge"]), (Some(1.0), &serde_json::Value::Null));
    assert_eq!(check["near_edge"], false);
    let games = test["games"].as_u64().unwrap();
    assert!(games < 100 && games == check["runs"][0]["games"].as_u64().unwrap(), "{games}");
    // The text report names the test and its bounds; --games and --cap
    // cannot be given together.
    pushcrate()
        .args(["selfplay", "@flawed", "--level", "maze", "--agents", "hard,hard"])
        .assert()
        .success()
        .stdout(predicate::str::contains("sequential test: player 1 ahead after"));
    pushcrate()
        .args(["selfplay", "@flawed", "--level", "maze", "--games", "10", "--cap", "10"])
        .assert()
        .code(2);
}

/// `--error` and `--zone` set the sequential test's design: the report
/// states it and the test uses its bounds (a larger error rate, nearer
/// bounds); values out of range, or given with `--games`, are refused.
#[test]
fn selfplay_takes_the_tests_design() {
    let run = |extra: &[&str]| {
        let out = pushcrate()
            .args(["selfplay", "@flawed", "--level", "maze", "--agents", "hard,hard", "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json["levels"][0]["runs"][0]["sequential"].clone()
    };
    let strict = run(&[]);
    let loose = run(&["--error", "20", "--zone", "10"]);
    assert_eq!(strict["design"], serde_json::json!({ "alpha": 0.05, "beta": 0.05, "width": 0.05 }));
    assert_eq!(loose["design"], serde_json::json!({ "alpha": 0.2, "beta": 0.2, "width": 0.1 }));
    assert_eq!(
        (strict["decision"].as_str(), loose["decision"].as_str()),
        (Some("first-ahead"), Some("first-ahead"))
    );
    // Every pair goes to player 1 on `maze`: the looser test needs fewer.
    assert!(loose["games"].as_u64() < strict["games"].as_u64(), "{loose} against {strict}");
    pushcrate()
        .args([
            "selfplay",
            "@flawed",
            "--level",
            "maze",
            "--agents",
            "hard,hard",
            "--zone",
            "7.5",
            "--error",
            "10",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "the test's design: α = β = 10% at each edge, indifference ±7.5 points",
        ));
    for (flag, bad) in [("--zone", "12"), ("--zone", "nan"), ("--error", "0.5"), ("--error", "x")] {
        pushcrate()
            .args(["selfplay", "@flawed", "--level", "maze", flag, bad])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("`{bad}` is not")));
    }
    pushcrate()
        .args(["selfplay", "@flawed", "--level", "maze", "--games", "10", "--error", "10"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}

/// `--referee` adds master where the pairings disagree: it cannot go with
/// one pairing of the caller's, and a level the solver decides still
/// plays no game at all.
#[test]
fn selfplay_takes_a_referee_for_the_whole_check_only() {
    pushcrate()
        .args(["selfplay", "@flawed", "--level", "tiny", "--referee", "--agents", "hard,hard"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
    let out = pushcrate()
        .args(["selfplay", "@flawed", "--level", "tiny", "--referee", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let check = &json["levels"][0];
    assert_eq!((check["verdict"].as_str(), check["refereed"].as_bool()), (Some("decided"), Some(false)));
    assert_eq!(check["runs"].as_array().map(Vec::len), Some(0));
}

/// Commands that cannot do what was asked say so and fail: a name too
/// long for the format, a finished game to solve, a pack to edit that
/// cannot be read where there is no display.
#[test]
fn commands_never_claim_a_false_success() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.toml");
    pushcrate()
        .args(["generate", "--count", "1", "--name", &"n".repeat(201), "--out"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 200"));
    assert!(!out.exists(), "nothing was written");
    pushcrate()
        .args(["generate", "--count", "1", "--name", &"n".repeat(200), "--out"])
        .arg(&out)
        .assert()
        .success();
    pushcrate().arg("check").arg(&out).assert().success();
    pushcrate()
        .args(["solve", "@flawed", "--level", "tiny", "--depth", "3", "--actions", "c2 d5 c3 c2 c1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already over"));
    pushcrate()
        .args(["edit", "/nonexistent/pack.toml"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/nonexistent/pack.toml"));
    // A readable pack named to edit is the one summarised.
    pushcrate()
        .args(["edit", "mazes/flawed.toml"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .assert()
        .success()
        .stdout(predicate::str::contains("unfair-race"));
}

/// `analyze --verify`: every expectation of the bundled packs that needs no
/// games holds; a level that does not meet one fails the run, naming the
/// level and the expectation.
#[test]
fn verify_checks_each_levels_expectations() {
    pushcrate()
        .args(["analyze", "--verify", "mazes/default.toml", "mazes/flawed.toml"])
        .assert()
        .code(0)
        .stdout(
            predicate::str::contains("level `tiny`\n  valid: holds")
                .and(predicate::str::contains("decided:1: holds: player 1 forces a win in 5 actions"))
                .and(predicate::str::contains("balanced: not checked"))
                .and(predicate::str::contains("0 fail")),
        );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("expects.toml");
    std::fs::write(
        &path,
        "format = 2\nname = \"x\"\n\n[[level]]\nid = \"open-ish\"\nname = \"\"\nsize = \"9x9\"\np1 = { start = \"e1\" }\np2 = { start = \"e9\" }\nexpect = [\"valid\", \"unwinnable\", \"finding:A010\", \"decided:2\"]\n",
    )
    .unwrap();
    let output = pushcrate().args(["analyze", "--verify", "--format", "json"]).arg(&path).output().unwrap();
    assert_eq!(output.status.code(), Some(1), "failed expectations fail the run");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let results: Vec<(String, String)> = report["packs"][0]["expectations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["expectation"].as_str().unwrap().to_owned(), e["result"].as_str().unwrap().to_owned()))
        .collect();
    let expected =
        [("valid", "holds"), ("unwinnable", "fails"), ("finding:A010", "fails"), ("decided:2", "fails")];
    assert_eq!(results, expected.map(|(a, b)| (a.to_owned(), b.to_owned())));
    pushcrate().args(["analyze", "--verify"]).arg(&path).assert().code(1).stdout(
        predicate::str::contains("level `open-ish`\n  valid: holds")
            .and(predicate::str::contains("unwinnable: FAILS: the analysis finds every route open")),
    );
}

/// With `--balance`, the balance expectations are checked by the default
/// check; on a level the solver settles, at once and with no game.
#[test]
fn verify_with_balance_settles_a_decided_level_without_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny.toml");
    let pack = pushcrate::level::format::parse_pack(pushcrate::level::FLAWED_PACK_TOML).pack.unwrap();
    let mut tiny = pack.level("tiny").unwrap().clone();
    tiny.expect = vec!["unbalanced:1".parse().unwrap(), "balanced".parse().unwrap()];
    let mut one = pushcrate::level::Pack::new("tiny");
    one.levels.push(tiny);
    std::fs::write(&path, pushcrate::level::format::write_pack(&one)).unwrap();
    pushcrate().args(["analyze", "--verify", "--balance"]).arg(&path).assert().code(1).stdout(
        predicate::str::contains("unbalanced:1: holds: decided: player 1 forces a win")
            .and(predicate::str::contains("balanced: FAILS")),
    );
}

/// `--balance` means nothing without `--verify`.
#[test]
fn balance_needs_verify() {
    pushcrate().args(["analyze", "--balance", "mazes/default.toml"]).assert().code(2);
}

/// `selfplay` says why: where its games were decided, cell by cell, and a
/// few plain sentences drawn from the games and the race.
#[test]
fn selfplay_reports_where_games_were_decided() {
    let report =
        selfplay_json(&["@default", "--level", "courtyard", "--agents", "medium,medium", "--games", "20"]);
    let level = &report["levels"][0];
    let decisions = &level["decisions"];
    assert_eq!(decisions["games"], 20);
    let wins = decisions["wins"]["1"].as_u64().unwrap() + decisions["wins"]["2"].as_u64().unwrap();
    let homes: u64 =
        decisions["cells"]["home"].as_array().unwrap().iter().map(|c| c["count"].as_u64().unwrap()).sum();
    assert_eq!(homes, decisions["flag_wins"].as_u64().unwrap(), "every flag win came home on a cell");
    assert!(homes <= wins);
    let pickups: u64 =
        decisions["cells"]["pickup"].as_array().unwrap().iter().map(|c| c["count"].as_u64().unwrap()).sum();
    assert!(pickups >= homes, "a flag is picked up before it comes home");
    let why: Vec<&str> = level["why"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    assert!(why.iter().any(|s| s.starts_with("Player 1 reaches the flag 1 action sooner")), "{why:?}");
    assert!(why.iter().any(|s| s.starts_with("Of 20 games, player 1 won")), "{why:?}");
    // The text report lists the top cells of each.
    pushcrate()
        .args(["selfplay", "@default", "--level", "courtyard", "--agents", "medium,medium", "--games", "20"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("where the 20 games were decided")
                .and(predicate::str::contains("the flag brought home: "))
                .and(predicate::str::contains("  why: Of 20 games")),
        );
}

/// `selfplay --skill-trace`: a point per strength, weakest first, each that
/// strength on both sides.
#[test]
fn selfplay_traces_the_first_players_score_up_the_ladder() {
    let output = pushcrate()
        .args(["selfplay", "@flawed", "--level", "tiny", "--skill-trace", "--games", "4", "--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let trace = report["levels"][0]["skill_trace"].as_array().unwrap();
    let names: Vec<&str> = trace.iter().map(|p| p["strength"].as_str().unwrap()).collect();
    assert_eq!(names, ["easy", "medium", "hard", "expert", "deep", "master"]);
    assert!(trace.iter().all(|p| p["games"] == 4));
    assert_eq!(trace[5]["first_player_score"]["rate"], 1.0, "master finds tiny's forced win");
    pushcrate()
        .args(["selfplay", "@flawed", "--level", "tiny", "--skill-trace", "--agents", "easy,easy"])
        .assert()
        .code(2);
}

/// The JSON report of a successful `selfplay` run with `args`.
fn selfplay_json(args: &[&str]) -> serde_json::Value {
    let output = pushcrate().arg("selfplay").args(args).args(["--format", "json"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// `selfplay --head-to-head`: agent A against agent B, stopped by the
/// sequential test on A's score: medium beats easy on `open` within a
/// dozen pairs; easy against itself does not beat itself; the test needs
/// two agents.
#[test]
fn selfplay_head_to_head_says_whether_a_beats_b() {
    let report = selfplay_json(&["@default", "--level", "open", "--agents", "medium,easy", "--head-to-head"]);
    let level = &report["levels"][0];
    assert_eq!(level["verdict"], "beats");
    assert_eq!(level["sequential"]["question"], "first-ahead");
    assert!(level["games"].as_u64().unwrap() <= 24, "{level}");
    assert!(level["agent_a_score"]["low"].as_f64().unwrap() > 0.6);
    pushcrate()
        .args(["selfplay", "@default", "--level", "open", "--agents", "easy,easy", "--head-to-head"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "A does not beat B: the sequential test decided for a score of 55% or less against 65% or more (it misses an agent scoring 65% at most 5% of the time)",
        ));
    pushcrate().args(["selfplay", "@default", "--level", "open", "--head-to-head"]).assert().code(2);
}

/// `selfplay --head-to-head --time-decisions` adds each agent's time a
/// decision, measured in the same games: every action but the random
/// opening's is one agent's decision, and the report is otherwise the one
/// the run gives without the option. The option needs `--head-to-head`.
#[test]
fn selfplay_head_to_head_times_each_agent_in_the_same_games() {
    let args = ["@default", "--level", "open", "--agents", "medium,easy", "--head-to-head", "--opening", "2"];
    let plain = selfplay_json(&args);
    let mut timed = selfplay_json(&[&args[..], &["--time-decisions"]].concat());
    let level = timed["levels"][0].as_object_mut().unwrap();
    let time = level.remove("time_a_decision").expect("the option adds the agents' times");
    assert_eq!(timed, plain, "the same games, the same report");
    let report = &plain["levels"][0]["report"];
    let games = report["games"].as_f64().unwrap();
    let actions = report["length"]["mean"].as_f64().unwrap() * games;
    let decisions = time["a"]["decisions"].as_f64().unwrap() + time["b"]["decisions"].as_f64().unwrap();
    assert_eq!(decisions, (actions - 2.0 * games).round(), "{time}");
    for agent in ["a", "b"] {
        assert!(time[agent]["ms"].is_f64(), "{time}");
    }
    assert!(time["a_share_of_b"].is_f64(), "{time}");
    pushcrate()
        .args([
            "selfplay",
            "@default",
            "--level",
            "open",
            "--agents",
            "medium,easy",
            "--head-to-head",
            "--time-decisions",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("time a decision (wall time on the games' threads): A "))
        .stdout(predicate::str::contains(" of B's time"));
    pushcrate()
        .args(["selfplay", "@default", "--level", "open", "--agents", "medium,easy", "--time-decisions"])
        .assert()
        .code(2);
}

/// Both bundled packs are named with `@`; a mistyped name says which
/// names there are.
#[test]
fn bundled_packs_are_named_and_a_mistyped_name_says_which_exist() {
    pushcrate()
        .args(["check", "@default", "@flawed"])
        .assert()
        .success()
        .stderr(predicate::str::contains("checked 2 packs with 19 levels"));
    pushcrate().args(["check", "@flaw"]).assert().code(2).stderr(
        predicate::str::contains("cannot read @flaw").and(predicate::str::contains("@default and @flawed")),
    );
}

/// `tune` writes weights the crate can read, with the command that makes
/// them again in their comments, and says the losses it measured.
#[test]
fn tune_writes_weights_with_their_provenance() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.toml");
    let assert = pushcrate()
        .args([
            "tune",
            "--levels-each",
            "1",
            "--sizes",
            "7",
            "--games",
            "2",
            "--agents",
            "hard,hard",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("mean log loss on the validation positions"), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    let weights = pushcrate::ai::Weights::from_toml(&text).unwrap();
    // It says how to play with them without building again, and that
    // agent plays.
    let agent = format!("alphabeta:6:150000:weights={weights}");
    assert!(stderr.contains(&format!("as an agent, without building again: {agent}")), "{stderr}");
    let shallow = format!("alphabeta:2:2000:weights={weights}");
    pushcrate()
        .args(["selfplay", "@default", "--level", "open", "--games", "2", "--agents"])
        .arg(format!("{shallow},{shallow}"))
        .assert()
        .success()
        .stdout(predicate::str::contains(&shallow));
    assert!(
        text.contains("# Made by `pushcrate tune --seed 1 --levels-each 1 --sizes 7 --games 2 --agents alphabeta:2:4000:fitted,alphabeta:2:4000:fitted"),
        "{text}"
    );
}

/// A pack given as the only argument opens the editor, as `edit PACK`
/// does (here, with no display, it is checked and listed instead); a name
/// that is also a subcommand still means the subcommand.
#[test]
fn a_pack_as_the_only_argument_opens_it() {
    let run = |arg: &str| pushcrate().arg(arg).env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY").assert();
    let out = run("@flawed").success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stdout.starts_with("Flawed levels — 13 levels"), "{stdout}");
    assert!(stderr.contains("checking @flawed instead"), "{stderr}");
    let out = run("mazes/default.toml").success();
    assert!(String::from_utf8_lossy(&out.get_output().stdout).contains("The open board"));
    // `check` is the subcommand, not a file named check.
    run("check")
        .failure()
        .stderr(predicate::str::contains("Pack files").or(predicate::str::contains("required")));
}

/// The hand evaluation stays selectable and plays the games it played
/// before the named agents moved to the fitted one: the check of `pillars`
/// (as the bundled pack held it then, `tests/data/pillars-0.1.toml`) under
/// `--evaluation hand` is, game for game, the report version 0.1.0 wrote
/// with its default agents (`tests/data/selfplay-pillars-hand.json`), the
/// agents now named by their settings, since the names belong to the
/// fitted agents.
#[test]
fn the_hand_evaluation_replays_the_earlier_games() {
    let run = |evaluation: &str| {
        let output = pushcrate()
            .args(["selfplay", "tests/data/pillars-0.1.toml", "--level", "pillars"])
            .args(["--games", "2", "--seed", "1"])
            .args(["--format", "json", "--evaluation", evaluation])
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let before = std::fs::read_to_string("tests/data/selfplay-pillars-hand.json")
        .unwrap()
        .replace("expert (alphabeta:4:40000)", "alphabeta:4:40000")
        .replace("deep (alphabeta:6:150000)", "alphabeta:6:150000");
    assert_eq!(run("hand"), before);
    // The default, fitted, plays other games with the named agents.
    let fitted = run("fitted");
    assert_ne!(fitted, before);
    assert!(fitted.contains("deep (alphabeta:6:150000:fitted)"), "{fitted}");
}

/// `--pairings` plays a check of one's own pairings, in order, and
/// refuses what is not a list of pairings.
#[test]
fn selfplay_plays_the_pairings_named() {
    let output = pushcrate()
        .args(["selfplay", "@default", "--level", "pillars", "--games", "2", "--format", "json"])
        .args(["--pairings", "hard,hard/alphabeta:2:4000:hand,alphabeta:2:4000:hand/medium,medium"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let agents: Vec<&str> = report["levels"][0]["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|run| run["agents"][0].as_str().unwrap())
        .collect();
    assert_eq!(agents, ["hard (alphabeta:2:4000:fitted)", "alphabeta:2:4000", "medium (greedy:25:fitted)"]);
    for bad in ["hard", "hard,hard/", "hard,hard/x,y"] {
        pushcrate()
            .args(["selfplay", "@default", "--level", "pillars", "--pairings", bad])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--pairings"));
    }
    pushcrate()
        .args([
            "selfplay",
            "@default",
            "--level",
            "pillars",
            "--pairings",
            "hard,hard",
            "--evaluation",
            "hand",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}
