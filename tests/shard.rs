//! Runs split with `--shard K/N` in separate processes, merged by
//! `pushcrate merge`: the merged report is the one a single run writes.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn pushcrate() -> Command {
    let mut cmd = Command::cargo_bin("pushcrate").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// Stdout and exit code of `pushcrate ARGS`.
fn run(args: &[&str]) -> (String, i32) {
    let output = pushcrate().args(args).output().unwrap();
    (String::from_utf8(output.stdout).unwrap(), output.status.code().unwrap())
}

/// Runs `args` as `count` shards, each in its own process, and writes
/// their reports into `dir`.
fn shards(dir: &Path, args: &[&str], count: u32) -> Vec<PathBuf> {
    (1..=count)
        .map(|k| {
            let shard = format!("{k}/{count}");
            let mut with: Vec<&str> = args.to_vec();
            with.extend(["--shard", &shard]);
            let (report, _) = run(&with);
            let path = dir.join(format!("shard-{k}.json"));
            std::fs::write(&path, report).unwrap();
            path
        })
        .collect()
}

fn merged(paths: &[PathBuf], format: &str) -> (String, i32) {
    let mut args = vec!["merge".to_owned(), "--format".to_owned(), format.to_owned()];
    // In another order than written: merge puts the pack's order back.
    args.extend(paths.iter().rev().map(|p| p.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args)
}

/// The whole run and the merged shards agree in JSON and text, byte for
/// byte, and in the exit code.
fn assert_shards_merge_to_the_whole(args: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let paths = shards(dir.path(), args, 3);
    for format in ["json", "text"] {
        let mut whole: Vec<&str> = args.to_vec();
        whole.extend(["--format", format]);
        let (expected, code) = run(&whole);
        assert!(!expected.is_empty());
        let (got, merged_code) = merged(&paths, format);
        assert_eq!(got, expected, "{format} of {args:?}");
        assert_eq!(merged_code, code, "exit code of {args:?}");
    }
}

#[test]
fn selfplay_all_in_three_shards_merges_to_the_whole_run() {
    assert_shards_merge_to_the_whole(&[
        "selfplay",
        "mazes/default.toml",
        "--all",
        "--agents",
        "easy,medium",
        "--games",
        "4",
        "--seed",
        "3",
    ]);
}

#[test]
fn analyze_verify_in_three_shards_merges_to_the_whole_run_and_its_exit_code() {
    // One expectation that fails, so that the exit code is 1 both ways.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/mazes/default.toml")).unwrap();
    let text = text.replacen(r#"expect = ["no-warnings", "balanced"]"#, r#"expect = ["finding:A030"]"#, 1);
    let pack = dir.path().join("pack.toml");
    std::fs::write(&pack, text).unwrap();
    let pack = pack.display().to_string();
    assert_eq!(run(&["analyze", &pack, "--verify"]).1, 1);
    assert_shards_merge_to_the_whole(&["analyze", &pack, "--verify"]);
    assert_shards_merge_to_the_whole(&["analyze", &pack, "mazes/flawed.toml"]);
}

fn merge_error(paths: &[&Path]) -> String {
    let output = pushcrate().arg("merge").args(paths).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    String::from_utf8(output.stderr).unwrap()
}

const CHEAP: [&str; 6] = ["selfplay", "mazes/default.toml", "--all", "--agents", "easy,easy", "--games"];

#[test]
fn merge_refuses_shards_of_different_runs() {
    let dir = tempfile::tempdir().unwrap();
    let a = shards(dir.path(), &[&CHEAP[..], &["2", "--seed", "1"]].concat(), 2);
    let other = tempfile::tempdir().unwrap();
    let b = shards(other.path(), &[&CHEAP[..], &["2", "--seed", "2"]].concat(), 2);
    let error = merge_error(&[&a[0], &b[1]]);
    assert!(
        error.contains("are shards of different runs: seed is `2` in one and `1` in the other"),
        "{error}"
    );
    let c = shards(
        other.path(),
        &["selfplay", "mazes/flawed.toml", "--all", "--agents", "easy,easy", "--games", "2"],
        2,
    );
    let error = merge_error(&[&a[0], &c[1]]);
    assert!(error.contains("different runs: the packs are"), "{error}");
}

#[test]
fn merge_refuses_a_missing_shard() {
    let dir = tempfile::tempdir().unwrap();
    let paths = shards(dir.path(), &[&CHEAP[..], &["2"]].concat(), 3);
    let error = merge_error(&[&paths[0], &paths[2]]);
    assert!(error.contains("shard 2/3 of the run is missing: merge needs all 3"), "{error}");
}

#[test]
fn merge_refuses_a_duplicated_shard() {
    let dir = tempfile::tempdir().unwrap();
    let paths = shards(dir.path(), &[&CHEAP[..], &["2"]].concat(), 2);
    let error = merge_error(&[&paths[0], &paths[1], &paths[0]]);
    assert!(error.contains("shard 1/2 is given twice"), "{error}");
}

#[test]
fn merge_refuses_what_is_not_a_shard_report_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("report.json");
    std::fs::write(&whole, "{\n  \"levels\": []\n}\n").unwrap();
    let error = merge_error(&[&whole]);
    assert!(
        error.contains("report.json: not a shard report") && error.contains("no `shard_report` key"),
        "{error}"
    );
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\n  \"shard_report\": 1,\n  \"command\": 7\n").unwrap();
    let error = merge_error(&[&broken]);
    assert!(error.contains("broken.json:4:1: not a shard report"), "{error}");
}

#[test]
fn generate_in_three_shards_merges_to_the_pack_one_run_writes() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["generate", "--count", "7", "--seed", "4", "--style", "rooms"];
    let paths = shards(dir.path(), &args, 3);
    let (whole, code) = run(&args);
    assert_eq!(code, 0);
    assert!(whole.contains("gen-4-7"));
    assert_eq!(merged(&paths, "text"), (whole.clone(), 0));
    // And in the JSON layout, as `export` writes it.
    let toml = dir.path().join("whole.toml");
    std::fs::write(&toml, &whole).unwrap();
    let (json, _) = run(&["export", &toml.display().to_string(), "--format", "json"]);
    assert_eq!(merged(&paths, "json"), (json, 0));
}
