//! Hostile input and hostile command lines: every known way to crash the
//! command line, make it report a false success, or clobber a file.

use std::io::Read as _;
use std::process::Stdio;

use assert_cmd::Command;
use predicates::prelude::*;
use proptest::prelude::*;
use pushcrate::files::{PackFile, pack_from_bytes};
use pushcrate::level::{DEFAULT_PACK_TOML, MAX_FILE_BYTES};

fn pushcrate() -> Command {
    let mut cmd = Command::cargo_bin("pushcrate").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

fn data(name: &str) -> String {
    format!("{}/tests/data/hostile/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Every command that reads a pack, with what it needs besides the pack.
fn pack_commands() -> Vec<Vec<&'static str>> {
    vec![
        vec!["check"],
        vec!["show", "--level", "a"],
        vec!["moves", "--level", "a"],
        vec!["perft", "--level", "a", "--depth", "1"],
        vec!["solve", "--level", "a", "--depth", "1"],
        vec!["analyze", "--budget", "0"],
        vec!["selfplay", "--level", "a", "--games", "2"],
        vec!["export"],
    ]
}

/// `pushcrate export PACK --out OUT`.
fn export_to(pack: &std::path::Path, out: &std::path::Path) -> assert_cmd::assert::Assert {
    pushcrate().arg("export").arg(pack).arg("--out").arg(out).assert()
}

fn run_on(command: &[&str], pack: &str) -> assert_cmd::assert::Assert {
    let mut cmd = pushcrate();
    cmd.arg(command[0]).arg(pack).args(&command[1..]);
    cmd.assert()
}

#[test]
fn invalid_utf8_is_e001_with_its_byte_offset_in_every_command() {
    let pack = data("invalid-utf8.toml");
    for command in pack_commands() {
        run_on(&command, &pack)
            .code(1)
            .stderr(predicate::str::contains("E001").and(predicate::str::contains("panicked").not()));
    }
    let out = pushcrate().args(["check", "--format", "json"]).arg(&pack).assert().code(1);
    let report: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let problem = &report["packs"][0]["problems"][0];
    assert_eq!(problem["code"], "E001");
    assert!(problem["message"].as_str().unwrap().contains("byte 20 (0xff)"), "{problem}");
    // `name = "x` is 9 characters on line 2; the bad byte is the tenth.
    assert_eq!((problem["line"].as_u64(), problem["column"].as_u64()), (Some(2), Some(10)));
}

#[test]
fn a_pack_with_errors_is_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    for fixture in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/invalid")).unwrap() {
        let path = fixture.unwrap().path();
        pushcrate()
            .args(["analyze", "--budget", "0", "--deny", "warnings"])
            .arg(&path)
            .assert()
            .code(1)
            .stdout(predicate::str::contains("0 errors, 0 warnings, 0 notes").not());
    }
    // A level that reads with a default in place of an unreadable map.
    let broken = dir.path().join("broken.toml");
    std::fs::write(
        &broken,
        "format = 1\nname = \"b\"\n[[level]]\nid = \"a\"\nname = \"A\"\nsize = \"5x5\"\nmap = '''\n.....\n'''\np1 = { start = \"c1\" }\np2 = { start = \"c5\" }\n",
    )
    .unwrap();
    for command in pack_commands() {
        run_on(&command, broken.to_str().unwrap()).code(1).stderr(predicate::str::contains("E011"));
    }
    let exported = dir.path().join("out.toml");
    pushcrate().arg("export").arg(&broken).arg("--out").arg(&exported).assert().code(1);
    assert!(!exported.exists(), "nothing is exported from a broken pack");
}

#[test]
fn depths_counts_threads_and_agents_out_of_range_are_usage_errors() {
    let cases: &[&[&str]] = &[
        &["perft", "@flawed", "--level", "tiny", "--depth", "20000"],
        &["solve", "@flawed", "--level", "tiny", "--depth", "100000"],
        &["analyze", "@default", "--depth", "100000"],
        &["selfplay", "@default", "--level", "open", "--games", "4294967295"],
        &["selfplay", "@default", "--level", "open", "--games", "0"],
        &["selfplay", "@default", "--level", "open", "--games", "4", "--threads", "100000"],
        &[
            "selfplay",
            "@default",
            "--level",
            "open",
            "--games",
            "2",
            "--agents",
            "mcts:18446744073709551615,greedy",
        ],
        &["selfplay", "@default", "--level", "open", "--games", "2", "--agents", "greedy:101,greedy"],
        &["selfplay", "@default", "--level", "open", "--games", "2", "--agents", "alphabeta:65,greedy"],
        &["selfplay", "@default", "--level", "open", "--games", "2", "--max-actions", "0"],
        &["generate", "--count", "0"],
        &["generate", "--count", "10001"],
        &["generate", "--size", "12x9"],
    ];
    for args in cases {
        pushcrate()
            .args(*args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("error").and(predicate::str::contains("panicked").not()));
    }
}

/// A file in `dir` holding `text`, with permissions `mode`.
#[cfg(unix)]
fn file_with_mode(dir: &tempfile::TempDir, name: &str, text: &str, mode: u32) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    path
}

#[cfg(unix)]
#[test]
fn out_writes_through_a_symlink_and_keeps_the_targets_mode() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let real = file_with_mode(&dir, "real.toml", "old", 0o640);
    let link = dir.path().join("link.toml");
    std::os::unix::fs::symlink("real.toml", &link).unwrap();
    pushcrate().args(["export", "@default", "--out"]).arg(&link).assert().success();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert!(
        std::fs::read_to_string(&real).unwrap().starts_with("format = 2"),
        "the bundled pack states expectations: version 2"
    );
    assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o640);
    // A dangling link: its target is created, the link kept.
    let dangling = dir.path().join("dangling.toml");
    std::os::unix::fs::symlink("new.toml", &dangling).unwrap();
    pushcrate().args(["schema", "--out"]).arg(&dangling).assert().success();
    assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
    assert!(dir.path().join("new.toml").is_file());
}

#[cfg(unix)]
#[test]
fn out_writes_into_devices_and_refuses_a_fifo_nobody_reads() {
    use std::os::unix::fs::FileTypeExt as _;
    pushcrate().args(["export", "@default", "--out", "/dev/null"]).assert().success();
    assert!(
        std::fs::metadata("/dev/null").unwrap().file_type().is_char_device(),
        "/dev/null is still a device"
    );
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        pushcrate()
            .args(["export", "@default", "--out"])
            .arg(&fifo)
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("no process is reading"));
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO is kept");
    }
}

#[cfg(unix)]
#[test]
fn out_refuses_read_only_files_directories_and_the_input_itself() {
    let dir = tempfile::tempdir().unwrap();
    let read_only = file_with_mode(&dir, "ro.toml", "keep me", 0o444);
    pushcrate()
        .args(["export", "@default", "--out"])
        .arg(&read_only)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("read-only"));
    assert_eq!(std::fs::read_to_string(&read_only).unwrap(), "keep me");
    pushcrate().args(["export", "@default", "--out"]).arg(dir.path()).assert().code(2);

    let own = dir.path().join("own.toml");
    std::fs::write(&own, DEFAULT_PACK_TOML).unwrap();
    export_to(&own, &own).code(2).stderr(predicate::str::contains("is the pack being exported"));
    assert_eq!(std::fs::read_to_string(&own).unwrap(), DEFAULT_PACK_TOML, "comments and all are kept");

    let json_named_toml = dir.path().join("x.toml");
    pushcrate()
        .args(["export", "@default", "--format", "json", "--out"])
        .arg(&json_named_toml)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does not match"));
    assert!(!json_named_toml.exists());
    let by_extension = dir.path().join("x.json");
    pushcrate().args(["export", "@default", "--out"]).arg(&by_extension).assert().success();
    let text = std::fs::read_to_string(&by_extension).unwrap();
    assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok(), "the extension chose JSON");
}

#[test]
fn generate_fails_on_an_unwritable_out_before_doing_the_work() {
    pushcrate()
        .args(["generate", "--count", "50", "--out", "/nonexistent-folder/g.toml"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("does not exist")
                .and(predicate::str::contains("passed the analysis").not()),
        );
}

#[cfg(target_os = "linux")]
#[test]
fn reading_a_device_stops_at_the_size_limit() {
    pushcrate()
        .args(["check", "/dev/zero"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("E004"));
}

/// A pack whose only level has `count` copies of one crate on one line.
fn duplicate_crates(count: usize) -> String {
    let crates = vec!["\"c3\""; count].join(",");
    format!(
        "format = 1\nname = \"x\"\n[[level]]\nid = \"a\"\nname = \"a\"\nsize = \"9x9\"\np1 = {{ start = \"e1\" }}\np2 = {{ start = \"e9\" }}\ncrates = [{crates}]\n"
    )
}

#[test]
fn thousands_of_problems_are_counted_drawn_in_part_and_placed_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dup.toml");
    std::fs::write(&path, duplicate_crates(5000)).unwrap();
    pushcrate().arg("check").arg(&path).assert().code(1).stderr(
        predicate::str::contains("4899 more problem(s)")
            .and(predicate::str::contains("E025 ×4899"))
            .and(predicate::str::contains("4999 errors")),
    );
    let out = pushcrate().arg("check").arg(&path).args(["--format", "json"]).assert().code(1);
    let report: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let problems = report["packs"][0]["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 4999);
    // `crates = [` is 10 characters; each entry `"c3",` is 5.
    let last = problems.last().unwrap();
    assert_eq!((last["line"].as_u64(), last["column"].as_u64()), (Some(9), Some(11 + 5 * 4999)));
    // A long line is drawn around the problem, with its true column.
    let file = pushcrate::files::read_pack(&path).unwrap();
    let text = pushcrate::cli::render_problems(&file, 0);
    assert!(text.contains(&format!(":9:{}", 11 + 5 * 4999)));
    assert!(text.lines().all(|l| l.len() < 400), "no line of the report is drawn whole");
}

#[test]
fn writers_never_produce_what_the_reader_refuses() {
    // 10,000 levels with long notes: valid TOML under 4 MiB whose JSON is
    // larger.
    let mut pack = pushcrate::level::Pack::new("big");
    let notes = "n".repeat(260);
    for i in 0..10_000 {
        let mut level = pushcrate::level::Level::new(format!("level-{i}"), 11, 11);
        level.starts =
            pushcrate::rules::ByPlayer::new(Some("f1".parse().unwrap()), Some("f11".parse().unwrap()));
        level.notes = Some(notes.clone());
        pack.levels.push(level);
    }
    let text = pushcrate::level::format::write_pack(&pack);
    assert!(text.len() < MAX_FILE_BYTES, "the fixture itself is readable");
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("big.toml");
    std::fs::write(&source, &text).unwrap();
    let json = dir.path().join("big.json");
    export_to(&source, &json).code(2).stderr(predicate::str::contains("4 MiB"));
    assert!(!json.exists(), "nothing is written");
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    let bin = assert_cmd::cargo::cargo_bin("pushcrate");
    let mut child = std::process::Command::new(bin)
        .args(["generate", "--count", "600"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Runs pushcrate with `args` (and `more`), sends it `signal` after
/// `wait_ms`, and returns what it printed and how it ended.
#[cfg(unix)]
fn signalled(args: &[&str], more: &[&std::ffi::OsStr], signal: &str, wait_ms: u64) -> std::process::Output {
    use std::os::unix::process::CommandExt as _;
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("pushcrate"));
    command.args(args).args(more).stdout(Stdio::piped()).stderr(Stdio::piped());
    // A shell's background job starts with SIGINT ignored, and pushcrate
    // keeps an ignored signal ignored, as coreutils do: the child starts
    // with the default, as from a terminal, wherever the tests run.
    // SAFETY: between fork and exec only `signal`, which is
    // async-signal-safe, runs.
    #[allow(unsafe_code)]
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::signal(libc::SIGHUP, libc::SIG_DFL);
            Ok(())
        });
    }
    let child = command.spawn().unwrap();
    // Sent once the process has taken the signal over (the work takes
    // longer), and a moment into the work.
    let number = match signal {
        "INT" => Some(2),
        "TERM" => Some(15),
        _ => None,
    };
    match number {
        Some(number) => wait_for_handler(child.id(), number),
        None => std::thread::sleep(std::time::Duration::from_millis(wait_ms)),
    }
    std::thread::sleep(std::time::Duration::from_millis(wait_ms.min(500)));
    let sent = std::process::Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(sent.success());
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn ctrl_c_ends_a_long_self_play_with_a_partial_report_and_by_sigint() {
    use std::os::unix::process::ExitStatusExt as _;
    let output = signalled(
        &["selfplay", "@default", "--level", "open", "--games", "2", "--agents", "mcts:10000000,greedy"],
        &[],
        "INT",
        1500,
    );
    // Ended by the signal, as coreutils end: a shell shows 130.
    assert_eq!(output.status.signal(), Some(2), "{:?}", output.status);
    assert!(String::from_utf8_lossy(&output.stderr).contains("partial"));
    // No game finished: the report says so and shows no made-up numbers.
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(report.contains("no game finished"), "{report}");
    assert!(!report.contains("-0.0") && !report.contains("balance 1.000"), "{report}");
}

/// Whether the file system under `dir` makes unnamed temporary files
/// (`O_TMPFILE`), which no kill can leave behind.
#[cfg(target_os = "linux")]
fn makes_unnamed_temporaries(dir: &std::path::Path) -> bool {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new().write(true).custom_flags(libc::O_TMPFILE).open(dir).is_ok()
}

/// The names in `dir`, sorted.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[cfg(target_os = "linux")]
#[test]
fn a_killed_generate_leaves_its_output_intact_and_nothing_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("X.toml");
    std::fs::write(&out, "old\n").unwrap();
    for signal in ["TERM", "INT", "KILL"] {
        let output = signalled(&["generate", "--count", "10000", "--out"], &[out.as_os_str()], signal, 1000);
        if signal != "KILL" {
            use std::os::unix::process::ExitStatusExt as _;
            let number = if signal == "TERM" { 15 } else { 2 };
            assert_eq!(
                output.status.signal(),
                Some(number),
                "{signal}: ends by the signal; {}",
                String::from_utf8_lossy(&output.stderr)
            );
            assert!(String::from_utf8_lossy(&output.stderr).contains("nothing was written"), "{signal}");
        }
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "old\n", "{signal}");
        if signal != "KILL" || makes_unnamed_temporaries(dir.path()) {
            assert_eq!(names_in(dir.path()), ["X.toml"], "{signal}");
        }
    }
}

#[test]
fn a_write_removes_the_stale_temporaries_of_its_output_only() {
    let dir = tempfile::tempdir().unwrap();
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let make = |name: &str, old: bool| {
        let file = std::fs::File::create(dir.path().join(name)).unwrap();
        if old {
            file.set_modified(hour_ago).unwrap();
        }
    };
    make(".X.toml.Old123", true);
    make(".X.toml.New123", false);
    make(".Y.toml.Old456", true);
    make(".X.toml.Old12345", true);
    pushcrate().args(["generate", "--count", "1", "--out"]).arg(dir.path().join("X.toml")).assert().success();
    assert_eq!(names_in(dir.path()), [".X.toml.New123", ".X.toml.Old12345", ".Y.toml.Old456", "X.toml"]);
}

#[test]
fn terminal_escapes_are_never_printed_raw() {
    let pack = data("terminal-escape-in-id.toml");
    for command in pack_commands() {
        let out = run_on(&command, &pack).get_output().clone();
        for stream in [&out.stdout, &out.stderr] {
            assert!(!stream.contains(&0x1b), "{command:?} printed a raw escape");
            assert!(!stream.contains(&0x07), "{command:?} printed a raw bell");
        }
    }
}

#[test]
fn json_packs_refuse_duplicate_keys_and_place_every_problem() {
    pushcrate()
        .args(["check", &data("json-duplicate-key.json")])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("E001").and(predicate::str::contains("duplicate key `name`")));
    let out = pushcrate()
        .args(["check", "--format", "json", &data("json-wrong-type-no-location.json")])
        .assert()
        .code(1);
    let report: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let problem = &report["packs"][0]["problems"][0];
    assert_eq!(problem["code"], "E002");
    // The first level is an array where a table belongs: the problem is
    // the array itself, at column 158 (its `[`).
    assert_eq!((problem["line"].as_u64(), problem["column"].as_u64()), (Some(1), Some(158)));
    assert!(problem["message"].as_str().unwrap().contains("expected a table"), "{problem}");

    let json = r#"{"format": 1, "name": "n", "level": [{"id": "a", "name": "A", "size": 9,
  "p1": {"start": "e1"}, "p2": {"start": null}}]}"#;
    let file = pack_from_bytes("n.json".into(), json.as_bytes().to_vec(), true);
    assert!(file.parsed.has_errors());
    let problem = &file.parsed.problems[0];
    let span = problem.span.clone().unwrap();
    assert_eq!(&json[span], "null", "{}", problem.message);
}

#[test]
fn one_unreadable_file_does_not_stop_the_batch() {
    pushcrate()
        .args(["check", "mazes/default.toml", "missing.toml", "mazes/flawed.toml"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("cannot read missing.toml")
                .and(predicate::str::contains("checked 2 packs"))
                .and(predicate::str::contains("1 file(s) could not be read")),
        );
    let out = pushcrate()
        .args(["check", "--format", "json", "missing.toml", "mazes/default.toml"])
        .assert()
        .code(2);
    let report: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let packs = report["packs"].as_array().unwrap();
    assert_eq!(packs.len(), 2);
    assert!(
        packs.iter().any(|p| p["path"] == "missing.toml" && p["valid"] == false && p["error"].is_string())
    );
}

#[test]
fn sizes_are_written_as_the_schema_says() {
    for name in ["size-padded-accepted.toml", "size-times-sign-accepted.toml"] {
        pushcrate().args(["check", &data(name)]).assert().code(1).stderr(predicate::str::contains("E010"));
    }
}

/// Checks what a reader and the diagnostics make of `bytes`: no panic, and
/// every span on character boundaries of the text shown.
fn diagnose(bytes: Vec<u8>, json: bool) -> PackFile {
    let file = pack_from_bytes("fuzz".into(), bytes, json);
    for problem in &file.parsed.problems {
        if let Some(span) = &problem.span {
            assert!(span.start <= span.end && span.end <= file.text.len(), "{problem:?}");
            assert!(file.text.is_char_boundary(span.start) && file.text.is_char_boundary(span.end));
        }
    }
    let _ = pushcrate::cli::render_problems(&file, 0);
    let _ = pushcrate::cli::problems_json(std::slice::from_ref(&file)).unwrap();
    file
}

/// Pieces that make a pack's text interesting to break.
const TOKENS: &[&str] = &[
    "\"",
    "'''",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    "\n",
    "#",
    "\\",
    "\\u0000",
    "\u{1b}[31m",
    "é",
    "\u{feff}",
    "null",
    "[[level]]",
    "size = \"11x11\"",
    "crates = [\"z9\"]",
    "map = '''\nX\n'''",
    "format = 2",
    "9x9",
    "\r",
    "\r\n",
    "-1",
    "1e400",
    "18446744073709551616",
    "\u{0}",
];

/// Cases per fuzz test: 256 in the suite; `PUSHCRATE_FUZZ_CASES` sets more
/// for a long run (docs/performance.md records one of a million).
fn fuzz_cases() -> u32 {
    std::env::var("PUSHCRATE_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256)
}

/// One random edit: where, which token, which byte, and what to do (insert
/// the token, replace a byte, or cut the text there).
type Edit = (prop::sample::Index, usize, u8, u8);

fn edit(bytes: &mut Vec<u8>, edits: Vec<Edit>) {
    for (at, token, byte, kind) in edits {
        let i = at.index(bytes.len() + 1);
        match kind {
            0 => bytes.splice(i..i, TOKENS[token].bytes()).for_each(drop),
            1 if i < bytes.len() => bytes[i] = byte,
            _ => bytes.truncate(i.max(1)),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

    /// Random edits of the bundled pack: bytes replaced, tokens inserted,
    /// the text cut short.
    #[test]
    fn edited_packs_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..TOKENS.len(), any::<u8>(), 0u8..3), 1..8),
        cut in any::<prop::sample::Index>(),
        cut_it in any::<bool>(),
    ) {
        let mut bytes = DEFAULT_PACK_TOML.as_bytes().to_vec();
        edit(&mut bytes, edits);
        if cut_it {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        diagnose(bytes, false);
    }

    /// Random edits of the bundled pack's JSON export.
    #[test]
    fn edited_json_packs_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..TOKENS.len(), any::<u8>(), 0u8..3), 1..8),
    ) {
        let value: toml::Value = toml::from_str(DEFAULT_PACK_TOML).unwrap();
        let mut bytes = serde_json::to_vec_pretty(&value).unwrap();
        edit(&mut bytes, edits);
        diagnose(bytes, true);
    }

    /// Arbitrary bytes.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048), json in any::<bool>()) {
        diagnose(bytes, json);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for (text, json) in [
        (format!("format = 1\nname = {}{}", "[".repeat(100_000), "]".repeat(100_000)), false),
        (format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)), true),
        (format!("{{\"format\": 1, \"name\": {}1{}}}", "[".repeat(100_000), "]".repeat(100_000)), true),
    ] {
        let file = diagnose(text.into_bytes(), json);
        assert!(file.parsed.has_errors());
    }
}

/// Runs `script` in bash with `$P` the binary under test, in `dir`.
#[cfg(unix)]
fn bash(dir: &std::path::Path, script: &str) -> std::process::Output {
    std::process::Command::new("bash")
        .arg("-c")
        .arg(script)
        .env("P", env!("CARGO_BIN_EXE_pushcrate"))
        .current_dir(dir)
        .output()
        .unwrap()
}

/// `--out /dev/stdout` (and `/dev/fd/N`) writes into the open descriptor:
/// a file it is redirected to is appended to or written at its place,
/// never replaced, and a closed pipe there ends the run quietly.
#[cfg(unix)]
#[test]
fn out_to_an_open_descriptor_writes_into_it() {
    let dir = tempfile::tempdir().unwrap();
    let run = |script: &str| {
        let out = bash(dir.path(), script);
        assert!(out.status.success(), "{script}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    run("printf 'line 1\\nline 2\\n' > log.txt; \"$P\" schema --out /dev/stdout >> log.txt");
    let log = std::fs::read_to_string(dir.path().join("log.txt")).unwrap();
    assert!(log.starts_with("line 1\nline 2\n{"), "{}", &log[..40.min(log.len())]);
    run("{ echo HEADER; \"$P\" export @default --out /dev/stdout; echo FOOTER; } > log2.txt");
    let log = std::fs::read_to_string(dir.path().join("log2.txt")).unwrap();
    assert!(log.starts_with("HEADER\n") && log.ends_with("FOOTER\n") && log.contains("[[level]]"));
    run(
        "echo kept > log3.txt; exec 3>>log3.txt; \"$P\" schema --out /dev/fd/3; \"$P\" schema --out /proc/self/fd/3",
    );
    let log = std::fs::read_to_string(dir.path().join("log3.txt")).unwrap();
    assert!(
        log.starts_with("kept\n{") && log.matches("\"$schema\": \"https://json-schema.org").count() == 2,
        "{}",
        log.len()
    );
    let codes = run(
        "\"$P\" generate --count 300 --out /dev/stdout 2>/dev/null | head -c1 >/dev/null; echo ${PIPESTATUS[0]}",
    );
    assert_eq!(codes.trim(), "0", "a closed pipe is a quiet end");
}

/// A FIFO with a live reader gets the whole output, every time: the probe
/// that checks for a reader stays open until the real open returns.
#[cfg(unix)]
#[test]
fn out_to_a_fifo_with_a_reader_never_hangs_or_loses_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = bash(
        dir.path(),
        // A reader not yet started is refused, rightly: then try again.
        "fail=0; for i in $(seq 1 30); do rm -f ff; mkfifo ff; (timeout 20 cat ff > got) & sleep 0.05; \
         for try in 1 2 3 4 5 6 7 8 9 10; do timeout 20 \"$P\" schema --out ff 2>err && break; \
         grep -q 'no process is reading' err || { fail=$((fail+1)); break; }; sleep 0.2; done; \
         wait; [ -s got ] || fail=$((fail+1)); done; echo $fail",
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0", "{}", String::from_utf8_lossy(&out.stderr));
}

/// Write access is the user's, not the mode bits': as another user, a file
/// of root's in a folder anyone may write is refused, as a shell's `>`
/// refuses it, and a writable file in a folder the user may not write
/// names the folder. (Needs root to set up, as CI runs.)
#[cfg(unix)]
#[test]
fn out_refuses_what_the_user_may_not_write() {
    let root = std::process::Command::new("id").arg("-u").output().unwrap();
    if String::from_utf8_lossy(&root.stdout).trim() != "0" {
        eprintln!("skipped: needs root to make files of another user");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = bash(
        dir.path(),
        "chmod 755 .; mkdir ww ro; chmod 777 ww; echo \"root's data\" > ww/r.toml; chmod 644 ww/r.toml; \
         echo x > ro/w.toml; chmod 666 ro/w.toml; chmod 555 ro; cp \"$P\" pc; chmod 755 pc; \
         setpriv --reuid=65534 --regid=65534 --clear-groups ./pc schema --out ww/r.toml; echo \"rc=$?\"; \
         setpriv --reuid=65534 --regid=65534 --clear-groups ./pc schema --out ro/w.toml; echo \"rc=$?\"",
    );
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.matches("rc=2").count(), 2, "{stdout}{stderr}");
    assert!(stderr.contains("permission denied"), "{stderr}");
    assert!(stderr.contains("the folder") && stderr.contains("not writable"), "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.path().join("ww/r.toml")).unwrap(), "root's data\n");
}

/// A newline in a file name is shown escaped, so it cannot forge a line of
/// the report; and `check --format json` lists files in the order given,
/// readable or not.
#[cfg(unix)]
#[test]
fn file_names_cannot_forge_lines_and_reports_keep_the_order_given() {
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().join("bad\nchecked 9 packs: all fine\n.toml");
    std::fs::write(&name, "format = 1\nname = \"x\"\n").unwrap();
    let out = pushcrate().arg("check").arg(&name).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad\\nchecked 9 packs: all fine\\n.toml"), "{stderr}");
    assert!(!stderr.lines().any(|l| l.starts_with("checked 9 packs")), "{stderr}");
    let out = pushcrate().args(["check", "--format", "json", "/nonexistent", "@default"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let paths: Vec<&str> =
        json["packs"].as_array().unwrap().iter().map(|p| p["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["/nonexistent", "mazes/default.toml (bundled)"]);
}

/// Readers ignore `derived`, nulls inside it too; and a JSON pack with a
/// byte-order mark reads as the same pack in TOML does.
#[test]
fn derived_nulls_and_a_json_byte_order_mark_are_accepted() {
    for name in ["derived-with-null.json", "json-with-bom.json"] {
        let path = format!("{}/tests/data/edge/{name}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap();
        let file = pack_from_bytes(name.to_owned(), bytes, true);
        assert!(file.is_valid(), "{name}: {:?}", file.parsed.problems);
    }
    // A null outside `derived` is still refused.
    let file =
        pack_from_bytes("x.json".into(), br#"{"format": 1, "name": null, "level": []}"#.to_vec(), true);
    assert!(file.parsed.problems.iter().any(|p| p.code.as_str() == "E002"), "{:?}", file.parsed.problems);
}

/// Ctrl-C stops `perft` and `analyze` with a line that says so, and the
/// process ends by SIGINT (a shell shows 130); analyze prints the report
/// so far.
#[cfg(unix)]
#[test]
fn perft_and_analyze_stop_on_ctrl_c_and_say_so() {
    use std::os::unix::process::ExitStatusExt as _;
    for (args, reports) in [
        (vec!["perft", "@flawed", "--level", "arena", "--depth", "9", "--divide", "--allow-long"], false),
        (vec!["analyze", "@default", "--budget", "100000000", "--depth", "200"], true),
    ] {
        let out = signalled(&args, &[], "INT", 1500);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.signal(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("interrupted"), "{args:?}: {stderr}");
        assert_eq!(!out.stdout.is_empty(), reports, "{args:?}");
    }
}

/// Waits for `child` at most `limit`, killing it if it runs on: a guard
/// against a hang, not a measure of speed.
#[cfg(unix)]
fn wait_or_kill(
    child: &mut std::process::Child,
    limit: std::time::Duration,
) -> Option<std::process::ExitStatus> {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().ok();
    child.wait().ok();
    None
}

/// A stopped run dispatches no more games: SIGTERM to a run of a million
/// expert games ends it at once with its partial report, and the process
/// ends by the signal (a shell shows 143), as coreutils do. Before, each
/// remaining game still built its agents, and the run took minutes to end.
#[cfg(unix)]
#[test]
fn a_signal_stops_a_long_run_from_dispatching_and_ends_it_by_that_signal() {
    use std::os::unix::process::ExitStatusExt as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pushcrate"))
        .args(["selfplay", "@default", "--level", "open", "--games", "1000000", "--agents", "expert,expert"])
        .args(["--threads", "2", "--allow-long"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The signal is sent once the run has taken SIGTERM over (on a busy
    // machine that can take longer than any fixed pause), and a moment
    // into its games.
    wait_for_handler(child.id(), 15);
    std::thread::sleep(std::time::Duration::from_millis(500));
    std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    let status = wait_or_kill(&mut child, std::time::Duration::from_secs(60));
    let status = status.expect("the run went on dispatching games after SIGTERM");
    assert_eq!(status.signal(), Some(15), "{status:?}");
    let mut stdout = String::new();
    child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    assert!(stdout.contains("interrupted, results so far"), "{stdout}");
}

/// Waits (at most a minute) until process `pid` catches `signal`: its
/// `SigCgt` mask in `/proc` has the signal's bit. Elsewhere than Linux, a
/// pause.
#[cfg(unix)]
fn wait_for_handler(pid: u32, signal: u32) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
            std::thread::sleep(std::time::Duration::from_millis(1500));
            return;
        };
        let caught = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & (1 << (signal - 1)) != 0);
        if caught {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A SIGINT ignored when the process started (a script's background job)
/// stays ignored, as coreutils leave it; SIGTERM still stops the run.
#[cfg(unix)]
#[test]
fn a_sigint_ignored_at_start_stays_ignored() {
    use std::os::unix::process::ExitStatusExt as _;
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' INT; exec \"$P\" selfplay @default --level open --games 1000000 --agents random,random --threads 1 --allow-long")
        .env("P", env!("CARGO_BIN_EXE_pushcrate"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    assert!(child.try_wait().unwrap().is_none(), "an ignored SIGINT ended the run");
    std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    let status = wait_or_kill(&mut child, std::time::Duration::from_secs(60)).expect("SIGTERM ends the run");
    assert_eq!(status.signal(), Some(15));
}

/// A stream cut short by a signal says so to its reader: `export` into a
/// FIFO whose reader is slow, stopped by SIGTERM, writes what it had
/// written then a last line that no TOML or JSON reader takes for the end
/// of a pack, and says on standard error how far it got.
#[cfg(unix)]
#[test]
fn export_into_a_fifo_stopped_by_a_signal_ends_with_a_line_saying_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut pack = DEFAULT_PACK_TOML.to_owned();
    let levels = &DEFAULT_PACK_TOML[DEFAULT_PACK_TOML.find("[[level]]").unwrap()..];
    // Far more than a pipe holds, with every id its own.
    for copy in 0..40 {
        pack.push_str(&levels.replace("id = \"", &format!("id = \"c{copy}-")));
    }
    std::fs::write(dir.path().join("big.toml"), pack).unwrap();
    let out = bash(
        dir.path(),
        "mkfifo f; ( exec 3<f; sleep 3; cat <&3 > got ) & reader=$!; sleep 0.3; \
         \"$P\" export big.toml --out f 2>err & writer=$!; sleep 1.5; kill -TERM $writer; \
         wait $writer; echo \"rc=$?\"; wait $reader",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("rc=143"), "{stdout}");
    let err = std::fs::read_to_string(dir.path().join("err")).unwrap();
    assert!(err.contains("interrupted after") && err.contains("incomplete"), "{err}");
    let got = std::fs::read_to_string(dir.path().join("got")).unwrap();
    assert!(got.ends_with(pushcrate::files::INCOMPLETE), "{}", &got[got.len().saturating_sub(200)..]);
    let file = pack_from_bytes("got".into(), got.into_bytes(), false);
    assert!(file.parsed.has_errors(), "the cut pack reads as a whole one");
}

/// Output names up to the file system's 255 bytes are written (the
/// temporary beside a long name is named after what fits of it), and the
/// written file is the pack.
#[cfg(unix)]
#[test]
fn out_names_of_up_to_255_bytes_are_written() {
    let dir = tempfile::tempdir().unwrap();
    for length in [247, 248, 255] {
        let name = format!("{}.toml", "n".repeat(length - 5));
        let path = dir.path().join(&name);
        pushcrate().args(["export", "@default", "--out"]).arg(&path).assert().success();
        let file = pushcrate::files::read_pack(&path).unwrap();
        assert!(file.is_valid(), "{length}");
        // Replacing it keeps its mode, as any replaced output does.
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        pushcrate().args(["export", "@flawed", "--out"]).arg(&path).assert().success();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640, "{length}");
        assert!(pushcrate::files::read_pack(&path).unwrap().text.contains("corridors"));
    }
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 3, "nothing beside the outputs: {names:?}");
}

/// `generate` and `conformance` show a newline in their `--out` path
/// escaped, as every other message does, so it cannot forge a line.
#[test]
fn out_paths_in_success_lines_cannot_forge_lines() {
    let dir = tempfile::tempdir().unwrap();
    let generated = dir.path().join("g\nchecked 9 packs: all fine\n.toml");
    let out = pushcrate().args(["generate", "--count", "1", "--out"]).arg(&generated).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("g\\nchecked 9 packs: all fine\\n.toml"), "{stderr}");
    assert!(!stderr.lines().any(|l| l.starts_with("checked 9 packs")), "{stderr}");
    let suite = dir.path().join("c\nFAKE");
    let out = pushcrate().args(["conformance", "--out"]).arg(&suite).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("c\\nFAKE") && !stderr.lines().any(|l| l.starts_with("FAKE")), "{stderr}");
}

/// Work that cannot finish in a sitting is refused before it starts, with
/// its estimate and the flag that insists.
#[test]
fn runs_estimated_at_over_an_hour_are_refused_with_their_cost() {
    let out = pushcrate().args(["perft", "@default", "--level", "open", "--depth", "12"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("would take about") && stderr.contains("--allow-long"), "{stderr}");
    assert!(out.stdout.is_empty());
    let out = pushcrate()
        .args(["selfplay", "@default", "--level", "open", "--games", "1000000", "--agents", "deep,deep"])
        .args(["--threads", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("1,000,000 games") && stderr.contains("--allow-long"), "{stderr}");
    // Small runs start without a word about their cost.
    let out = pushcrate().args(["perft", "@default", "--level", "open", "--depth", "4"]).output().unwrap();
    assert!(out.status.success() && !String::from_utf8_lossy(&out.stderr).contains("would take"));
}
