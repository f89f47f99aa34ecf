//! The editor, driven through egui_kittest by labels and state, as a user
//! would: paint, undo, manage levels, save and reopen, be asked about
//! unsaved changes, click findings. No display or GPU is needed.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::rc::Rc;

use egui::{Event, Key, Modifiers, PointerButton, Pos2, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use pushcrate::editor::board::BoardLayout;
use pushcrate::editor::command::{Command, FormField, Setting};
use pushcrate::editor::storage::{AppPaths, FileDialogs};
use pushcrate::editor::{Answer, Bundled, Editor as Window, EditorApp, FileTask, Modal};
use pushcrate::level::edit::EditOp;
use pushcrate::level::format::parse_pack;
use pushcrate::rules::RuleOption;
use pushcrate::rules::{Cell, Player, Stage};

use crate::support::{c, cells};

/// Dialogs that answer from a queue, as a user picking files would.
#[derive(Clone, Default)]
struct FakeDialogs {
    answers: Rc<RefCell<VecDeque<Option<PathBuf>>>>,
    /// Like a desktop with no file-dialog service.
    unavailable: bool,
}

impl FakeDialogs {
    fn answer(&self, path: Option<PathBuf>) {
        self.answers.borrow_mut().push_back(path);
    }
}

impl FileDialogs for FakeDialogs {
    fn available(&self) -> bool {
        !self.unavailable
    }

    fn open(&mut self) -> Option<PathBuf> {
        self.answers.borrow_mut().pop_front().flatten()
    }

    fn save(&mut self, _name: &str, _extension: &str) -> Option<PathBuf> {
        self.answers.borrow_mut().pop_front().flatten()
    }
}

struct Editor {
    harness: Harness<'static, Window>,
    dialogs: FakeDialogs,
    dir: tempfile::TempDir,
}

fn editor() -> Editor {
    let dir = tempfile::tempdir().unwrap();
    editor_in(dir)
}

/// An editor on the bundled flawed levels (File ▸ Open Bundled), where
/// the small and lopsided levels the play tests use live.
fn flawed_editor() -> Editor {
    let mut ed = editor();
    ed.send(Command::OpenBundled(Bundled::Flawed));
    assert_eq!(ed.app().doc().pack().name, "Flawed levels");
    assert_eq!(ed.app().doc().path(), None, "an unsaved copy");
    ed
}

fn editor_in(dir: tempfile::TempDir) -> Editor {
    let dialogs = FakeDialogs::default();
    let app = EditorApp::new(Box::new(dialogs.clone()), AppPaths { dir: dir.path().to_path_buf() });
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .build_ui_state(|ui, window: &mut Window| window.ui_root(ui), Window::new(app));
    harness.run();
    Editor { harness, dialogs, dir }
}

impl Editor {
    /// Runs frames until the UI settles; a UI still animating or waiting
    /// for the computer is fine too.
    fn settle(&mut self) {
        let _ = self.harness.try_run();
    }

    fn app(&self) -> &EditorApp {
        self.harness.state()
    }

    /// Sends a command as a menu entry would, and lets it run.
    fn send(&mut self, command: Command) {
        self.harness.state_mut().command(command);
        self.settle();
    }

    /// Who plays each side of the game in play mode.
    fn seats(&mut self, one: pushcrate::editor::sandbox::Seat, two: pushcrate::editor::sandbox::Seat) {
        self.send(Command::SetSeat(Player::One, one));
        self.send(Command::SetSeat(Player::Two, two));
    }

    fn cell_pos(&self, cell: Cell) -> Pos2 {
        let rect = self.harness.get_by_label("Board").rect();
        let level = self.app().doc().level().unwrap();
        BoardLayout::zoomed(rect, level.width, level.height, self.app().zoom()).cell_rect(cell).center()
    }

    fn press(&mut self, pos: Pos2, button: PointerButton, pressed: bool) {
        self.harness.event(Event::PointerMoved(pos));
        self.harness.event(Event::PointerButton { pos, button, pressed, modifiers: Modifiers::NONE });
        self.settle();
    }

    fn click_cell(&mut self, cell: Cell, button: PointerButton) {
        let pos = self.cell_pos(cell);
        self.press(pos, button, true);
        self.press(pos, button, false);
    }

    fn drag(&mut self, cells: &[Cell], button: PointerButton) {
        let first = self.cell_pos(cells[0]);
        self.press(first, button, true);
        for &cell in &cells[1..] {
            let pos = self.cell_pos(cell);
            self.harness.event(Event::PointerMoved(pos));
            self.settle();
        }
        let last = self.cell_pos(*cells.last().unwrap());
        self.press(last, button, false);
    }

    fn click(&mut self, label: &str) {
        self.harness.get_by_label(label).click();
        self.settle();
    }

    fn click_label_contains(&mut self, label: &str) {
        self.harness.get_by_label_contains(label).click();
        self.settle();
    }

    fn key(&mut self, modifiers: Modifiers, key: Key) {
        self.harness.key_press_modifiers(modifiers, key);
        self.settle();
    }

    fn level(&self) -> &pushcrate::level::Level {
        self.app().doc().level().unwrap()
    }

    fn select_level(&mut self, id: &str) {
        let label = {
            let level = self.app().doc().pack().level(id).unwrap();
            format!("{} · {}", level.id, level.name)
        };
        self.click(&label);
        assert_eq!(self.level().id, id);
    }
}

#[test]
fn opens_on_the_bundled_pack_as_an_unsaved_copy() {
    let ed = editor();
    assert_eq!(ed.app().doc().path(), None);
    assert!(!ed.app().doc().is_dirty());
    assert_eq!(ed.level().id, "open");
    assert!(ed.harness.query_by_label("Board").is_some());
    assert!(ed.harness.query_by_label_contains("Valid: no errors").is_some());
}

#[test]
fn paints_walls_and_undoes_a_stroke_as_one_step() {
    let mut ed = editor();
    ed.drag(&[c("a3"), c("b3"), c("c3"), c("d3")], PointerButton::Primary);
    let walls = ed.level().walls;
    assert_eq!(walls.count(), 4);
    assert!(walls.has(c("a3")) && walls.has(c("d3")));
    assert!(ed.app().doc().is_dirty());
    ed.click_cell(c("b3"), PointerButton::Secondary);
    assert_eq!(ed.level().walls.count(), 3, "the right button paints floor");
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(ed.level().walls.count(), 4);
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(ed.level().walls.count(), 0, "one drag stroke is one undo step");
    assert!(!ed.app().doc().is_dirty(), "undone back to the state it opened in");
    ed.key(Modifiers::COMMAND, Key::Y);
    assert_eq!(ed.level().walls.count(), 4);
}

#[test]
fn sets_starts_flag_goals_and_crates_with_their_tools() {
    let mut ed = editor();
    ed.click("Start 1");
    ed.click_cell(c("c1"), PointerButton::Primary);
    assert_eq!(ed.level().starts.one, Some(c("c1")));
    ed.key(Modifiers::NONE, Key::Num2);
    ed.click_cell(c("g9"), PointerButton::Primary);
    assert_eq!(ed.level().starts.two, Some(c("g9")));
    ed.click("Flag");
    ed.click_cell(c("d5"), PointerButton::Primary);
    assert_eq!(ed.level().flag, Some(c("d5")));
    ed.click("Goal cells 1");
    ed.click_cell(c("a2"), PointerButton::Primary);
    assert!(ed.level().goal_cells(Player::One).has(c("a2")));
    ed.click("Goal rank 2");
    ed.click_cell(c("b8"), PointerButton::Primary);
    assert!(ed.level().goal_cells(Player::Two).iter().all(|g| g.rank() == 7));
    ed.key(Modifiers::SHIFT, Key::Num3);
    ed.click_cell(c("f6"), PointerButton::Primary);
    assert_eq!(ed.level().crates.get(&c("f6")), Some(&Stage::Rubble));
    ed.click_cell(c("f6"), PointerButton::Secondary);
    assert!(ed.level().crates.is_empty());
}

#[test]
fn mirror_painting_follows_the_half_turn() {
    let mut ed = editor();
    ed.key(Modifiers::NONE, Key::M);
    ed.click_cell(c("b2"), PointerButton::Primary);
    assert!(ed.level().walls.has(c("b2")) && ed.level().walls.has(c("h8")));
}

#[test]
fn adds_duplicates_reorders_and_deletes_levels_with_undo() {
    let mut ed = editor();
    let count = ed.app().doc().pack().levels.len();
    ed.click("Add");
    assert_eq!(ed.app().doc().pack().levels.len(), count + 1);
    assert_eq!(ed.app().doc().current(), 1);
    let added = ed.level().id.clone();
    ed.click("Move up");
    assert_eq!(ed.app().doc().pack().levels[0].id, added);
    ed.click("Move down");
    assert_eq!(ed.app().doc().pack().levels[1].id, added);
    ed.click("Duplicate");
    assert_eq!(ed.app().doc().pack().levels.len(), count + 2);
    assert_ne!(ed.level().id, added, "a duplicate gets a fresh id");
    ed.click("Delete");
    ed.click("Delete");
    assert_eq!(ed.app().doc().pack().levels.len(), count);
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(ed.app().doc().pack().levels.len(), count + 1, "deleting undoes");
    assert!(ed.app().doc().pack().problems().iter().all(|p| !p.is_error()));
}

#[test]
fn saves_and_reopens_through_the_dialog_keeping_comments() {
    let mut ed = editor();
    let path = ed.dir.path().join("mine.toml");
    ed.drag(&[c("a5"), c("b5")], PointerButton::Primary);
    ed.dialogs.answer(Some(path.clone()));
    ed.key(Modifiers::COMMAND, Key::S);
    assert_eq!(ed.app().doc().path(), Some(path.as_path()));
    assert!(!ed.app().doc().is_dirty());
    let saved = std::fs::read_to_string(&path).unwrap();
    assert_eq!(&parse_pack(&saved).pack.unwrap(), ed.app().doc().pack());
    // Edit again and save over it: a backup of the old file is kept, and
    // a hand-written comment survives.
    std::fs::write(&path, format!("# kept by hand\n{saved}")).unwrap();
    ed.dialogs.answer(Some(path.clone()));
    ed.key(Modifiers::COMMAND, Key::O);
    ed.click_cell(c("c5"), PointerButton::Primary);
    ed.key(Modifiers::COMMAND, Key::S);
    let again = std::fs::read_to_string(&path).unwrap();
    assert!(again.starts_with("# kept by hand"));
    assert!(again.contains("#########") || parse_pack(&again).pack.unwrap().levels[0].walls.count() == 3);
    let backup = std::fs::read_to_string(pushcrate::editor::storage::backup_path(&path)).unwrap();
    assert_eq!(parse_pack(&backup).pack.unwrap().levels[0].walls.count(), 2);
    // Reopen in a fresh editor.
    let mut other = editor();
    other.dialogs.answer(Some(path.clone()));
    other.key(Modifiers::COMMAND, Key::O);
    assert_eq!(other.level().walls.count(), 3);
    assert_eq!(other.app().prefs().recent.first(), Some(&path));
}

#[test]
fn asks_before_discarding_unsaved_changes() {
    let mut ed = editor();
    ed.click_cell(c("a5"), PointerButton::Primary);
    ed.key(Modifiers::COMMAND, Key::N);
    assert!(matches!(ed.app().modal(), Some(Modal::Unsaved(_))));
    ed.click("Cancel");
    assert!(ed.app().modal().is_none());
    assert!(ed.level().walls.has(c("a5")), "cancel keeps the work");
    ed.key(Modifiers::COMMAND, Key::N);
    ed.click("Don't save");
    assert_eq!(ed.app().doc().pack().name, "New pack");
    assert_eq!(ed.app().doc().pack().levels.len(), 1);
    // Quitting with changes asks too.
    ed.click_cell(c("a5"), PointerButton::Primary);
    ed.key(Modifiers::COMMAND, Key::Q);
    assert!(matches!(ed.app().modal(), Some(Modal::Unsaved(_))));
    assert!(!ed.app().quit_requested());
    ed.click("Don't save");
    assert!(ed.app().quit_requested());
}

#[test]
fn clicking_a_finding_highlights_it() {
    let mut ed = flawed_editor();
    ed.select_level("maze");
    // A wall under the flag: the flag stands on a wall.
    ed.click_cell(c("e5"), PointerButton::Primary);
    let findings = ed.harness.state_mut().current_findings();
    assert!(findings.iter().any(|f| f.code == "E015"), "{findings:?}");
    // The finding's line, not the expectations' box `finding:E015`.
    ed.harness.get_by_label_contains("E015 ").click();
    ed.harness.run();
    let selected = ed.app().selected_finding().expect("a finding is selected");
    let shown = &ed.harness.state_mut().current_findings()[selected];
    assert_eq!(shown.code, "E015");
    assert!(!shown.cells.is_empty());
}

#[test]
fn a_walled_off_route_is_an_error_at_once() {
    let mut ed = editor();
    let row: Vec<Cell> = (0..9).map(|f| Cell::new(f, 2)).collect();
    ed.drag(&row, PointerButton::Primary);
    assert!(ed.harness.query_by_label_contains("cannot be played").is_some());
    // One wall row is one problem: not E024 and A001 for each route.
    assert_eq!(ed.harness.query_all_by_label_contains("E024 ").count(), 1, "one line for the cut");
    assert_eq!(ed.harness.query_all_by_label_contains("A001 ").count(), 0, "the analysis adds no duplicate");
    let findings = ed.harness.state_mut().current_findings();
    assert_eq!(findings.len(), 1, "{findings:?}");
    let cut = &findings[0];
    assert!(cut.message.contains("start square to the flag") && cut.message.contains("flag to its goal"));
    // The board shows the cut itself: the wall row, beside the region.
    assert_eq!(cut.cut, row.iter().copied().collect::<pushcrate::rules::Bitboard>());
    assert!(cut.cells.iter().all(|c| c.rank() < 2), "the shut-in side: {:?}", cut.cells);
    ed.click_label_contains("E024 ");
    assert_eq!(ed.app().selected_finding(), Some(0));
}

/// The selected finding is drawn in the selection's own text colour, which
/// is legible on the selection's background (no red on teal).
#[test]
fn the_selected_finding_is_legible() {
    use pushcrate::analysis::Severity;
    fn luminance(c: egui::Color32) -> f64 {
        let lin = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.03928 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) }
        };
        0.2126 * lin(c.r()) + 0.7152 * lin(c.g()) + 0.0722 * lin(c.b())
    }
    fn contrast(a: egui::Color32, b: egui::Color32) -> f64 {
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }
    for visuals in [egui::Visuals::light(), egui::Visuals::dark()] {
        for severity in [Severity::Error, Severity::Warning, Severity::Note] {
            let text = pushcrate::editor::finding_text_color(&visuals, severity, true);
            let ratio = contrast(text, visuals.selection.bg_fill);
            assert!(ratio >= 4.5, "{severity:?} on the selection: contrast {ratio:.2}");
        }
    }
}

#[test]
fn a_broken_file_shows_its_diagnostics_and_changes_nothing() {
    let mut ed = editor();
    let path = ed.dir.path().join("broken.toml");
    std::fs::write(&path, "format = 1\nname = \"x\"\n[[level]]\nid = \"a\"\nwat = 3\n").unwrap();
    let before = ed.app().doc().pack().clone();
    ed.dialogs.answer(Some(path));
    ed.key(Modifiers::COMMAND, Key::O);
    let Some(Modal::Problems { text, .. }) = ed.app().modal() else { panic!("no diagnostics") };
    assert!(text.contains("error[E002]") && text.contains("broken.toml:5:1"), "{text}");
    assert_eq!(ed.app().doc().pack(), &before);
    ed.click("Close");
    assert!(ed.app().modal().is_none());
}

fn small_pack(map: &str, extra: &str) -> String {
    format!(
        "format = 1\nname = \"x\"\n\n[[level]]\nid = \"a\"\nname = \"A\"\nsize = \"5x5\"\nmap = '''\n{map}'''\n{extra}\
         p1 = {{ start = \"c1\" }}\np2 = {{ start = \"c5\" }}\n"
    )
}

/// A pack whose text reads as TOML but holds values the reader cannot
/// keep (a map character and a cell that mean nothing) is not opened for
/// editing: opening it would turn `X` into floor and drop `z9`, and saving
/// would write the damage. Every problem is shown with its line.
#[test]
fn a_pack_with_unreadable_values_is_refused_with_every_diagnostic() {
    let mut ed = editor();
    let path = ed.dir.path().join("damaged.toml");
    let original = small_pack(".....\n..X..\n.....\n.....\n.....\n", "crates = [\"z9\"]\n");
    std::fs::write(&path, &original).unwrap();
    let before = ed.app().doc().pack().clone();
    ed.dialogs.answer(Some(path.clone()));
    ed.key(Modifiers::COMMAND, Key::O);
    let Some(Modal::Problems { text, .. }) = ed.app().modal() else { panic!("the damaged pack was opened") };
    assert!(text.contains("damaged.toml:10:3"), "the `X` is placed: {text}");
    assert!(text.contains("z9"), "the crate is named: {text}");
    assert_eq!(text.matches("error[").count(), 2, "{text}");
    assert_eq!(ed.app().doc().pack(), &before, "the editor still holds what it held");
    assert_ne!(ed.app().doc().path(), Some(path.as_path()));
    // Nothing can save over the file: it is not the document.
    ed.click("Close");
    ed.dialogs.answer(None);
    ed.key(Modifiers::COMMAND, Key::S);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original, "the file is untouched");
    // A pack read whole, errors and all, opens: its errors are the layout's.
    let cut = ed.dir.path().join("cut.toml");
    std::fs::write(&cut, small_pack(".....\n.....\n#####\n.....\n.....\n", "")).unwrap();
    ed.dialogs.answer(Some(cut.clone()));
    ed.key(Modifiers::COMMAND, Key::O);
    assert!(ed.app().modal().is_none());
    assert_eq!(ed.app().doc().path(), Some(cut.as_path()));
    assert!(ed.app().status().contains("problem(s) to fix"), "{}", ed.app().status());
}

#[test]
fn unsaved_work_is_offered_back_after_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().to_path_buf();
    {
        let mut ed = editor_in(dir);
        ed.click_cell(c("e3"), PointerButton::Primary);
        ed.harness.state_mut().autosave_now();
        std::mem::forget(ed.dir);
    }
    let app = EditorApp::new(Box::new(FakeDialogs::default()), AppPaths { dir: kept.clone() });
    assert!(matches!(app.modal(), Some(Modal::Recover(_))), "the crash left work to recover");
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .build_ui_state(|ui, window: &mut Window| window.ui_root(ui), Window::new(app));
    harness.run();
    harness.get_by_label("Recover").click();
    harness.run();
    assert!(harness.state().doc().level().unwrap().walls.has(c("e3")));
    assert!(harness.state().doc().is_dirty(), "recovered work is not saved yet");
    let _ = std::fs::remove_dir_all(kept);
}

/// A small picture of the board: every crate stage, goals, the flag and
/// the sole-path overlay. Rendered with wgpu (lavapipe in CI).
fn board_snapshot(name: &str, id: &str, routes: bool) {
    use pushcrate::editor::board::{BoardView, paint_level};
    let pack = pushcrate::level::Pack::bundled_flawed();
    let level = pack.level(id).unwrap().clone();
    let report = pushcrate::analysis::analyze_level(&level, pack.rules, &Default::default());
    let mut view =
        BoardView { sole_path: report.sole_path_cells.iter().copied().collect(), ..BoardView::default() };
    if routes {
        for (i, proof) in report.routes.iter().enumerate() {
            if let pushcrate::analysis::Witness::Path { cells } = &proof.witness {
                view.routes.push((if i < 2 { Player::One } else { Player::Two }, cells.clone()));
            }
        }
    }
    let mut harness = Harness::builder().with_size(Vec2::new(320.0, 320.0)).build_ui(move |ui| {
        let (response, painter) = ui.allocate_painter(ui.available_size(), egui::Sense::hover());
        let layout = BoardLayout::new(response.rect, level.width, level.height);
        paint_level(&painter, &layout, &level, &view);
    });
    harness.run();
    harness.snapshot(name);
}

#[test]
fn snapshot_board_with_every_crate_stage() {
    board_snapshot("board_crates", "crates", false);
}

#[test]
fn snapshot_board_maze_with_routes() {
    board_snapshot("board_maze_routes", "maze", true);
}

// ----- play mode -----

use pushcrate::editor::sandbox::Seat;
use pushcrate::rules::{ByPlayer, Outcome, WinKind};

/// Opens play mode on `id` with two people at the screen.
fn play(ed: &mut Editor, id: &str) {
    ed.select_level(id);
    ed.key(Modifiers::NONE, Key::F5);
    assert!(ed.app().playing(), "{}", ed.app().status());
    ed.seats(Seat::Human, Seat::Human);
    ed.harness.run();
}

fn sandbox(ed: &Editor) -> &pushcrate::editor::sandbox::Sandbox {
    ed.app().sandbox().unwrap()
}

fn game(ed: &Editor) -> &pushcrate::editor::sandbox::Game {
    sandbox(ed).game()
}

fn click_cells(ed: &mut Editor, cells: &str) {
    for name in cells.split_whitespace() {
        ed.click_cell(c(name), PointerButton::Primary);
    }
}

#[test]
fn plays_by_clicks_to_a_flag_win() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    click_cells(&mut ed, "c2 d5 c3 c2 c1");
    assert_eq!(game(&ed).state().outcome(), Some(Outcome::Win { winner: Player::One, by: WinKind::Flag }));
    assert!(ed.app().status().contains("Player 1 wins"), "{}", ed.app().status());
    assert_eq!(game(&ed).record().to_string(), "tiny@598e2b8f42940afe: c2 d5 c3 c2 c1");
    // Clicking a cell no action reaches does nothing.
    click_cells(&mut ed, "a5");
    assert_eq!(game(&ed).actions().len(), 5);
}

#[test]
fn plays_by_clicks_to_a_crate_win() {
    let mut ed = flawed_editor();
    ed.send(Command::SetField(FormField::Rule(RuleOption::CratesToWin, 1)));
    ed.select_level("tiny");
    ed.click("Crate");
    ed.key(Modifiers::SHIFT, Key::Num4);
    ed.click_cell(c("b2"), PointerButton::Primary);
    assert_eq!(ed.level().crates.get(&c("b2")), Some(&Stage::Splinters));
    play(&mut ed, "tiny");
    // Player 1 steps to b1, player 2 waits, player 1 breaks the splinters.
    click_cells(&mut ed, "b1 d5 b2");
    assert_eq!(game(&ed).state().outcome(), Some(Outcome::Win { winner: Player::One, by: WinKind::Crates }));
    assert!(ed.harness.query_by_label_contains("1 of 1").is_some(), "the destroyed bar fills");
}

#[test]
fn place_mode_steal_and_pass_follow_the_rules() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    ed.key(Modifiers::NONE, Key::T);
    assert!(game(&ed).placing());
    click_cells(&mut ed, "a3");
    assert_eq!(game(&ed).state().crate_at(c("a3")), Some(Stage::Intact));
    assert_eq!(game(&ed).state().placements_left(Player::One), 5);
    // Steal and pass are not legal here: their keys do nothing.
    ed.key(Modifiers::NONE, Key::X);
    ed.key(Modifiers::NONE, Key::Space);
    assert_eq!(game(&ed).actions().len(), 1);
}

#[test]
fn undoes_actions_and_jumps_in_the_log() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    click_cells(&mut ed, "c2 d5 b2");
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(game(&ed).cursor(), 2);
    assert_eq!(game(&ed).state().position(Player::One), c("c2"));
    ed.key(Modifiers::COMMAND, Key::Y);
    assert_eq!(game(&ed).state().position(Player::One), c("b2"));
    ed.click("start");
    assert_eq!(game(&ed).cursor(), 0);
    ed.click("Redo Ctrl+Y");
    assert_eq!(game(&ed).cursor(), 1);
    // A new action after going back replaces the rest of the log.
    click_cells(&mut ed, "b5");
    assert_eq!(game(&ed).record().to_string(), "tiny@598e2b8f42940afe: c2 b5");
}

#[test]
fn switching_to_editing_and_back_loses_neither() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    click_cells(&mut ed, "c2 d5");
    ed.key(Modifiers::NONE, Key::F5);
    assert!(!ed.app().playing());
    assert!(ed.level().walls.is_empty(), "playing never changed the level");
    ed.click("Wall brush");
    ed.click_cell(c("a1"), PointerButton::Primary);
    ed.key(Modifiers::NONE, Key::F5);
    assert!(ed.app().playing());
    assert_eq!(game(&ed).record().to_string(), "tiny@598e2b8f42940afe: c2 d5", "the game is kept");
    assert!(ed.harness.query_by_label_contains("The level has changed").is_some());
    ed.key(Modifiers::NONE, Key::F5);
    assert!(ed.level().walls.has(c("a1")), "the edit is kept");
    ed.key(Modifiers::NONE, Key::F5);
    ed.click("New game R");
    assert_eq!(game(&ed).actions().len(), 0);
    assert!(game(&ed).state().walls().has(c("a1")), "a new game plays the new layout");
}

/// R restarts the test game on the layout as edited, as in PuzzleScript;
/// in editing, R is still the rectangle tool.
#[test]
fn r_restarts_the_test_game_from_the_current_edit() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    click_cells(&mut ed, "c2 d5");
    ed.key(Modifiers::NONE, Key::F5);
    ed.click("Wall brush");
    ed.click_cell(c("a1"), PointerButton::Primary);
    ed.key(Modifiers::NONE, Key::F5);
    assert_eq!(game(&ed).actions().len(), 2);
    ed.key(Modifiers::NONE, Key::R);
    assert!(ed.app().playing());
    assert_eq!(game(&ed).actions().len(), 0, "a fresh game");
    assert!(game(&ed).state().walls().has(c("a1")), "on the layout as edited");
    ed.key(Modifiers::NONE, Key::F5);
    ed.key(Modifiers::NONE, Key::R);
    assert_eq!(ed.app().tool(), pushcrate::editor::command::Tool::Rectangle);
}

#[test]
fn a_level_with_errors_says_why_it_cannot_be_played() {
    let mut ed = flawed_editor();
    ed.select_level("tiny");
    let start = ed.level().starts.two.unwrap();
    ed.send(Command::Paint(EditOp::Wall(start, true)));
    ed.key(Modifiers::NONE, Key::F5);
    assert!(!ed.app().playing());
    assert!(ed.app().status().contains("cannot be played"), "{}", ed.app().status());
}

#[test]
fn saves_and_reopens_a_game_record() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    click_cells(&mut ed, "c2 d5 c3");
    let path = ed.dir.path().join("tiny.record");
    ed.dialogs.answer(Some(path.clone()));
    ed.click("Save game…");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "tiny@598e2b8f42940afe: c2 d5 c3\n");
    ed.click("New game R");
    assert_eq!(game(&ed).actions().len(), 0);
    ed.dialogs.answer(Some(path.clone()));
    ed.click("Open game…");
    assert_eq!(game(&ed).cursor(), 3, "opened at its last action");
    assert_eq!(game(&ed).state().carrier(), Some(Player::One));
    // Once the level is edited, the record names the change instead of
    // replaying into another layout.
    ed.key(Modifiers::NONE, Key::F5);
    ed.click("Wall brush");
    ed.click_cell(c("a1"), PointerButton::Primary);
    ed.key(Modifiers::NONE, Key::F5);
    ed.dialogs.answer(Some(path));
    ed.click("Open game…");
    match ed.app().modal() {
        Some(pushcrate::editor::Modal::Error(why)) => assert!(why.contains("edited since"), "{why}"),
        other => panic!("no refusal: {other:?}"),
    }
}

#[test]
fn the_computer_answers_off_the_ui_thread() {
    let mut ed = flawed_editor();
    ed.select_level("tiny");
    ed.key(Modifiers::NONE, Key::F5);
    ed.seats(Seat::Human, Seat::Computer(2));
    click_cells(&mut ed, "c2");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while game(&ed).actions().len() < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        ed.harness.step();
    }
    assert_eq!(game(&ed).actions().len(), 2, "the computer played");
    assert!(game(&ed).human_to_move());
    // Undo takes back the computer's action and the person's.
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(game(&ed).cursor(), 0);
}

/// Steps the editor until its balance run has reported (or `secs` pass).
fn wait_for_balance(ed: &mut Editor, secs: u64) {
    ed.harness.run_steps(2);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while (sandbox(ed).balance().job().is_some() || sandbox(ed).balance().report().is_none())
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
        ed.harness.step();
    }
}

#[test]
fn the_balance_panel_runs_self_play_in_the_background() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    ed.click("Balance");
    // The default check plays both strong pairings, sequentially.
    let choice = sandbox(&ed).balance().choice();
    assert_eq!(pushcrate::editor::sandbox::BALANCE_CHOICES[choice].1, pushcrate::sim::STRONG);
    assert!(!sandbox(&ed).balance().fixed());
    ed.click("Run self-play");
    wait_for_balance(&mut ed, 60);
    let (check, games) = sandbox(&ed).balance().report().cloned().expect("the run finished");
    // tiny is a forced win: the solver decides it, and no game is played.
    assert_eq!(check.verdict, pushcrate::sim::BalanceVerdict::Decided);
    assert!(check.reports.is_empty() && games.is_empty());
    ed.harness.run();
    assert!(ed.harness.query_by_label_contains("Settled by the solver").is_some());
    assert!(ed.harness.query_by_label_contains("Decided: player 1 forces a win").is_some());
    // A fixed count plays every game: greedy alone, 40 games on open.
    ed.key(Modifiers::NONE, Key::F5);
    ed.send(Command::OpenBundled(Bundled::Default));
    play(&mut ed, "open");
    {
        ed.send(Command::Set(Setting::BalanceChoice(3)));
        ed.send(Command::Set(Setting::BalanceFixed(true)));
        ed.send(Command::Set(Setting::BalanceGames(40)));
    }
    // The panel now sits below the game record, out of view: the button's
    // command.
    ed.harness.state_mut().command(pushcrate::editor::command::Command::RunBalance);
    wait_for_balance(&mut ed, 60);
    let (check, games) = sandbox(&ed).balance().report().cloned().expect("the run finished");
    assert_eq!((check.reports.len(), check.reports[0].games, games[0].len()), (1, 40, 40));
    assert!(check.reports[0].sequential.is_none());
    ed.harness.run();
    assert_eq!(ed.harness.query_all_by_label_contains("40 games (").count(), 1);
    assert_eq!(ed.harness.query_all_by_label_contains("First player scores").count(), 1);
    // Why: where the games were decided, from the check's own games, drawn
    // over the board on request, the count under the pointer.
    assert_eq!(check.decisions.games, 40);
    assert!(ed.harness.query_by_label("Where the 40 games were decided").is_some());
    assert!(ed.harness.query_by_label_contains("• Of 40 games, player 1 won").is_some(), "the why, in words");
    let home = check.decisions.total(pushcrate::sim::Event::Home);
    assert!(home > 0, "greedy brings the flag home on open");
    ed.send(Command::Set(Setting::Decisions(Some(pushcrate::sim::Event::Home))));
    assert_eq!(sandbox(&ed).balance().decisions_shown(), Some(pushcrate::sim::Event::Home));
    let (cell, n) = check.decisions.top(pushcrate::sim::Event::Home)[0];
    let pos = ed.cell_pos(cell);
    ed.harness.event(Event::PointerMoved(pos));
    ed.settle();
    let reading = format!("the flag brought home: {n} time(s) here, of 40 games");
    assert!(ed.harness.query_by_label(&reading).is_some(), "the status bar reads {reading}");
    // The strong check shows each pairing's test as it converges, and a
    // cancelled check with no finished one before it reports what was
    // played so far (after a finished one, that one stays:
    // `cancelling_a_rerun_keeps_the_finished_verdict`). A new game is a new
    // sandbox, with no verdict yet.
    ed.key(Modifiers::NONE, Key::F5);
    play(&mut ed, "pillars");
    assert!(sandbox(&ed).balance().report().is_none());
    {
        ed.send(Command::Set(Setting::BalanceChoice(0)));
        ed.send(Command::Set(Setting::BalanceFixed(false)));
        ed.send(Command::Set(Setting::BalanceGames(20_000)));
    }
    ed.harness.state_mut().command(pushcrate::editor::command::Command::RunBalance);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let looked = |ed: &Editor| sandbox(ed).balance().live().first().copied().flatten().is_some();
    while !looked(&ed) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        ed.harness.step();
    }
    ed.harness.run_steps(2);
    assert!(ed.harness.query_by_label_contains("games, first player").is_some(), "the live test is shown");
    ed.harness.state_mut().command(pushcrate::editor::command::Command::CancelBalance);
    wait_for_balance(&mut ed, 30);
    let (check, _) = sandbox(&ed).balance().report().cloned().unwrap();
    assert!(check.interrupted && check.reports[0].games < 20_000);
    assert_eq!(check.verdict, pushcrate::sim::BalanceVerdict::Uncertain);
    assert!(
        check.summary().contains("leaning to") || check.summary().contains("balanced,"),
        "{}",
        check.summary()
    );
}

#[test]
fn generates_a_level_from_the_editor() {
    let mut ed = editor();
    let count = ed.app().doc().pack().levels.len();
    ed.key(Modifiers::COMMAND, Key::G);
    assert!(matches!(ed.app().modal(), Some(Modal::Generate(_))));
    ed.click("maze");
    ed.click("Generate");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while ed.app().generating() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        ed.harness.step();
    }
    assert_eq!(ed.app().doc().pack().levels.len(), count + 1);
    assert!(ed.level().tags.contains(&"maze".to_owned()));
    assert!(ed.app().doc().pack().problems().iter().all(|p| !p.is_error()));
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(ed.app().doc().pack().levels.len(), count, "generating undoes");
}

/// The Generate dialog asks for levels clear of the band's edges only
/// with a balanced level: the box is greyed out until Balanced is ticked.
#[test]
fn clear_of_edges_is_asked_only_with_balanced() {
    let mut ed = editor();
    ed.key(Modifiers::COMMAND, Key::G);
    let form = |ed: &Editor| match ed.app().modal() {
        Some(Modal::Generate(form)) => form.clone(),
        other => panic!("the Generate dialog, not {other:?}"),
    };
    ed.click_label_contains("Clear of the band's edges");
    assert!(!form(&ed).clear_of_edges, "greyed out without Balanced");
    ed.click_label_contains("Balanced (");
    ed.click_label_contains("Clear of the band's edges");
    let asked = form(&ed);
    assert!(asked.balanced && asked.clear_of_edges);
}

/// Generating a balanced level plays strong self-play for minutes: the
/// status bar offers to stop it, and stopping adds nothing.
#[test]
fn generating_can_be_stopped_from_the_status_bar() {
    let mut ed = editor();
    let count = ed.app().doc().pack().levels.len();
    let form = pushcrate::editor::GenerateForm { balanced: true, ..Default::default() };
    ed.harness.state_mut().command(Command::Dialog(Answer::Generate(form)));
    ed.harness.run_steps(2);
    ed.click("Stop generating");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while ed.app().generating() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        ed.harness.step();
    }
    assert!(!ed.app().generating(), "the job ended");
    assert_eq!(ed.app().doc().pack().levels.len(), count);
    assert!(ed.app().status().contains("Generating stopped"), "{}", ed.app().status());
    assert!(ed.app().modal().is_none());
}

#[test]
fn the_title_names_the_pack_and_marks_unsaved_changes() {
    let mut ed = editor();
    assert!(ed.app().title().contains("untitled") && ed.app().title().contains("Push Crate classics"));
    assert!(!ed.app().title().starts_with('●'));
    ed.click_cell(c("a5"), PointerButton::Primary);
    assert!(ed.app().title().starts_with('●'), "{}", ed.app().title());
}

#[test]
fn arrow_keys_step_push_and_jump() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    ed.key(Modifiers::NONE, Key::ArrowUp);
    assert_eq!(game(&ed).state().position(Player::One), c("c2"));
    ed.key(Modifiers::NONE, Key::ArrowDown);
    assert_eq!(game(&ed).state().position(Player::Two), c("c4"));
    ed.key(Modifiers::NONE, Key::ArrowUp);
    assert_eq!(game(&ed).state().position(Player::One), c("c3"), "picks the flag up");
    // Player 2 is straight ahead on c4: up jumps over it to c5.
    ed.key(Modifiers::NONE, Key::ArrowUp);
    assert_eq!(game(&ed).state().position(Player::One), c("c5"));
}

#[test]
fn computer_games_pause_and_step() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    // In one frame, so that the computer has no turn in between.
    assert!(game(&ed).running(), "computer-only games run by default");
    for command in [
        Command::SetSeat(Player::One, Seat::Computer(0)),
        Command::SetSeat(Player::Two, Seat::Computer(0)),
        Command::ToggleRunning,
    ] {
        ed.harness.state_mut().command(command);
    }
    ed.harness.run();
    assert_eq!(game(&ed).actions().len(), 0, "paused: nothing moves");
    ed.click("Step");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while game(&ed).actions().is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
        ed.harness.step();
    }
    assert_eq!(game(&ed).actions().len(), 1, "one step");
    ed.click("Run");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while game(&ed).actions().len() < 3 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
        ed.harness.step();
    }
    assert!(game(&ed).actions().len() >= 3, "running: the computers play on");
}

/// The computer keeps its player from move to move, as self-play does: on
/// `open`, expert against expert plays the actions of two expert players
/// each kept for the game, and a rewound game starts them afresh.
#[test]
fn the_computer_keeps_its_player_through_a_game() {
    use pushcrate::ai::Agent;
    let pack = pushcrate::level::Pack::bundled();
    let level = pack.level("open").unwrap();
    let mut sandbox = pushcrate::editor::sandbox::Game::new(level.playable(pack.rules).unwrap());
    sandbox.set_seat(Player::One, Seat::Computer(3));
    sandbox.set_seat(Player::Two, Seat::Computer(3));
    for _ in 0..3 {
        sandbox.step_computer();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !sandbox.poll_thinking() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
    assert_eq!(sandbox.actions().len(), 3);
    assert!(sandbox.keeps_player(Player::One) && sandbox.keeps_player(Player::Two));
    // The same two players, each kept for the game, seeded as the editor
    // seeds a new player (by the position it first moves at).
    let start = level.start_state(pack.rules).unwrap();
    let mut players = [Agent::EXPERT.build(0x5EED), Agent::EXPERT.build(1 ^ 0x5EED)];
    let (mut state, mut history, mut expected) = (start, Vec::new(), Vec::new());
    for i in 0..3 {
        let action = players[i % 2].choose_in_game(&state, &history);
        history.push(state.hash());
        state.play(action).unwrap();
        expected.push(action);
    }
    assert_eq!(sandbox.actions(), expected);
    sandbox.undo();
    assert!(!sandbox.keeps_player(Player::One) && !sandbox.keeps_player(Player::Two));
}

/// An editor on a desktop with no file dialog, a folder of its own, and
/// Save (Ctrl+S) pressed on its unsaved bundled pack.
fn saving_without_file_dialogs() -> (tempfile::TempDir, Harness<'static, Window>) {
    let dir = tempfile::tempdir().unwrap();
    let dialogs = FakeDialogs { unavailable: true, ..FakeDialogs::default() };
    let app = EditorApp::new(Box::new(dialogs), AppPaths { dir: dir.path().to_path_buf() });
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .build_ui_state(|ui, window: &mut Window| window.ui_root(ui), Window::new(app));
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run();
    (dir, harness)
}

#[test]
fn without_file_dialogs_the_path_is_typed_in() {
    let (dir, mut harness) = saving_without_file_dialogs();
    let Some(Modal::AskPath { task, path: suggested }) = harness.state().modal().cloned() else {
        panic!("no path field");
    };
    assert!(
        harness
            .query_by_label_contains("No file dialog can be shown here (this desktop offers no file dialog)")
            .is_some(),
        "the field says why it is asked"
    );
    assert!(suggested.ends_with("push-crate-classics.toml"), "{suggested}");
    assert!(std::path::Path::new(&suggested).is_absolute(), "a full path is suggested: {suggested}");
    let path = dir.path().join("typed.toml");
    harness
        .state_mut()
        .command(Command::Dialog(Answer::Edit(Modal::AskPath { task, path: path.display().to_string() })));
    harness.run();
    harness.get_by_label("OK").click();
    harness.run();
    assert_eq!(harness.state().doc().path(), Some(path.as_path()));
    assert!(parse_pack(&std::fs::read_to_string(&path).unwrap()).pack.is_some());
}

/// A drag that reports only the given pointer positions, all in as few
/// frames as a fast hand gives: the press and the first move land in one
/// frame.
fn sparse_drag(ed: &mut Editor, cells: &[Cell], button: PointerButton) {
    let first = ed.cell_pos(cells[0]);
    ed.harness.event(Event::PointerMoved(first));
    ed.harness.event(Event::PointerButton { pos: first, button, pressed: true, modifiers: Modifiers::NONE });
    for &cell in &cells[1..] {
        ed.harness.event(Event::PointerMoved(ed.cell_pos(cell)));
        ed.settle();
    }
    let last = ed.cell_pos(*cells.last().unwrap());
    ed.harness.event(Event::PointerButton { pos: last, button, pressed: false, modifiers: Modifiers::NONE });
    ed.settle();
}

#[test]
fn a_fast_stroke_paints_every_cell_it_crosses() {
    let mut ed = editor();
    // Two samples across the whole rank.
    sparse_drag(&mut ed, &[c("a3"), c("i3")], PointerButton::Primary);
    let rank3 = cells("a3 b3 c3 d3 e3 f3 g3 h3 i3");
    assert_eq!(ed.level().walls, rank3, "a continuous line from the pressed cell to the last");
    // Three samples, the eraser, back along part of it.
    ed.key(Modifiers::NONE, Key::E);
    sparse_drag(&mut ed, &[c("h3"), c("e3"), c("b3")], PointerButton::Primary);
    assert_eq!(ed.level().walls, cells("a3 i3"));
    // A diagonal flick crosses the cells between its ends too.
    ed.key(Modifiers::NONE, Key::W);
    sparse_drag(&mut ed, &[c("a6"), c("d9")], PointerButton::Primary);
    for name in ["a6", "b7", "c8", "d9"] {
        assert!(ed.level().walls.has(c(name)), "{name}");
    }
}

#[test]
fn a_fast_mirrored_stroke_paints_both_lines_whole() {
    let mut ed = editor();
    ed.key(Modifiers::NONE, Key::M);
    sparse_drag(&mut ed, &[c("a3"), c("i3")], PointerButton::Primary);
    let both = cells("a3 b3 c3 d3 e3 f3 g3 h3 i3 a7 b7 c7 d7 e7 f7 g7 h7 i7");
    assert_eq!(ed.level().walls, both, "the mirror of every cell, the first included");
}

#[test]
fn a_stroke_pressed_moved_and_released_within_one_frame_is_whole() {
    let mut ed = editor();
    let (from, to) = (ed.cell_pos(c("c7")), ed.cell_pos(c("g7")));
    let button = PointerButton::Primary;
    ed.harness.event(Event::PointerMoved(from));
    ed.harness.event(Event::PointerButton { pos: from, button, pressed: true, modifiers: Modifiers::NONE });
    ed.harness.event(Event::PointerMoved(to));
    ed.harness.event(Event::PointerButton { pos: to, button, pressed: false, modifiers: Modifiers::NONE });
    ed.settle();
    assert_eq!(ed.level().walls, cells("c7 d7 e7 f7 g7"));
    ed.key(Modifiers::COMMAND, Key::Z);
    assert!(ed.level().walls.is_empty(), "one stroke, one undo step");
}

#[test]
fn ctrl_shift_z_redoes_and_ctrl_y_too() {
    let mut ed = editor();
    ed.click_cell(c("b2"), PointerButton::Primary);
    assert!(ed.level().walls.has(c("b2")));
    ed.key(Modifiers::COMMAND, Key::Z);
    assert!(ed.level().walls.is_empty());
    ed.key(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    assert!(ed.level().walls.has(c("b2")), "Ctrl+Shift+Z redoes, as in Tiled and LDtk");
    ed.key(Modifiers::COMMAND, Key::Z);
    ed.key(Modifiers::COMMAND, Key::Y);
    assert!(ed.level().walls.has(c("b2")), "Ctrl+Y redoes");
}

/// An edit followed by no input at all still reaches the recovery file:
/// the editor asks the window to wake when the autosave is due, and writes
/// it then. (Before, the file was written only on input, so the last edit
/// before a crash was lost.)
#[test]
fn autosave_runs_on_a_timer_without_input() {
    use pushcrate::editor::AUTOSAVE_EVERY;
    let mut ed = editor();
    let paths = AppPaths { dir: ed.dir.path().to_path_buf() };
    ed.click_cell(c("e3"), PointerButton::Primary);
    // The first edit is written at once; the next waits for the timer.
    let first = paths.read_recovery().expect("the first edit is kept at once");
    assert!(parse_pack(&first.text).pack.unwrap().levels[0].walls.has(c("e3")));
    ed.click_cell(c("d3"), PointerButton::Primary);
    let wake = ed.harness.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
    assert!(wake <= AUTOSAVE_EVERY, "the window sleeps for {wake:?} with unsaved work");
    assert!(!parse_pack(&paths.read_recovery().unwrap().text).pack.unwrap().levels[0].walls.has(c("d3")));
    // Time passes; no pointer, no key: one frame, as the wake-up brings.
    let now = ed.harness.ctx.input(|i| i.time);
    ed.harness.input_mut().time = Some(now + AUTOSAVE_EVERY.as_secs_f64() + 0.5);
    ed.harness.step();
    let later = paths.read_recovery().unwrap();
    assert!(parse_pack(&later.text).pack.unwrap().levels[0].walls.has(c("d3")), "the idle edit is kept");
    // Once written, an idle editor does not wake for it again.
    ed.harness.input_mut().time = Some(now + 100.0);
    ed.harness.step();
    let idle = ed.harness.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
    assert!(idle > AUTOSAVE_EVERY, "{idle:?}");
}

/// Save game… saves every action of the game, whichever position is
/// viewed; the panel says when a past position is shown, and the computer
/// waits there until the game is resumed. Opening a record keeps the seats.
#[test]
fn a_past_position_is_marked_and_the_whole_game_is_saved() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    click_cells(&mut ed, "c2 d5 c3");
    ed.click("start");
    assert_eq!(game(&ed).cursor(), 0);
    assert!(ed.harness.query_by_label_contains("Past position: after action 0 of 3").is_some());
    let path = ed.dir.path().join("tiny.record");
    ed.dialogs.answer(Some(path.clone()));
    ed.click("Save game…");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "tiny@598e2b8f42940afe: c2 d5 c3\n",
        "the whole game"
    );
    // The computer takes player 2's seat; at a past position where it is
    // to move, it waits.
    ed.seats(Seat::Human, Seat::Computer(0));
    ed.click("c2");
    assert_eq!(game(&ed).cursor(), 1);
    for _ in 0..20 {
        ed.harness.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(!game(&ed).thinking(), "the computer waits at a past position");
    assert_eq!(game(&ed).actions().len(), 3, "nothing was played over the log");
    ed.click("Resume at the last action");
    assert_eq!(game(&ed).cursor(), 3);
    assert!(ed.harness.query_by_label_contains("Past position").is_none());
    // Opening the record keeps the seats as set.
    ed.dialogs.answer(Some(path));
    ed.click("Open game…");
    assert_eq!(game(&ed).seats(), ByPlayer::new(Seat::Human, Seat::Computer(0)));
    assert_eq!(game(&ed).actions().len(), 3);
}

/// Every character typed into a multi-line field is kept, even when the
/// pointer moves focus away in the same frame as the typing.
#[test]
fn multi_line_fields_keep_every_character() {
    let mut ed = editor();
    ed.select_level("open");
    let notes = ed.harness.get_by_label("Notes").rect().center();
    ed.press(notes, PointerButton::Primary, true);
    ed.press(notes, PointerButton::Primary, false);
    // One frame: the keys and the click that moves focus to the board.
    let board = ed.cell_pos(c("a9"));
    let key =
        |key, modifiers| Event::Key { key, physical_key: None, pressed: true, repeat: false, modifiers };
    let button = |pressed| Event::PointerButton {
        pos: board,
        button: PointerButton::Primary,
        pressed,
        modifiers: Modifiers::NONE,
    };
    ed.harness.input_mut().events.extend([
        key(Key::End, Modifiers::COMMAND),
        Event::Text(" More.".into()),
        key(Key::Enter, Modifiers::NONE),
        Event::Text("Line two".into()),
        Event::PointerMoved(board),
        button(true),
        button(false),
    ]);
    ed.harness.step();
    ed.settle();
    let notes = ed.level().notes.clone().unwrap();
    assert!(notes.ends_with(" More.\nLine two"), "{notes:?}");
    assert!(ed.level().walls.has(c("a9")), "the click painted too");
    // The click took focus from the field: keys are shortcuts again.
    assert!(ed.harness.ctx.memory(|m| m.focused()).is_none());
    ed.key(Modifiers::NONE, Key::E);
    assert_eq!(ed.app().tool(), pushcrate::editor::command::Tool::Eraser);
    assert_eq!(ed.level().notes.as_deref(), Some(notes.as_str()));
}

/// The board keeps its place and size whatever the side panels show: a
/// click target never moves mid-game.
#[test]
fn the_board_does_not_move_when_a_panel_changes() {
    let mut ed = flawed_editor();
    let board = |ed: &Editor| ed.harness.get_by_label("Board").rect();
    ed.select_level("arena");
    let editing = board(&ed);
    ed.click("Pack and rules");
    ed.click_cell(c("a1"), PointerButton::Primary);
    ed.click_cell(c("i9"), PointerButton::Primary);
    for i in 0..ed.app().doc().pack().levels.len() {
        ed.harness.state_mut().command(pushcrate::editor::command::Command::SelectLevel(i));
        ed.settle();
        assert_eq!(board(&ed).width(), editing.width(), "level {i}");
        assert_eq!(board(&ed).left(), editing.left(), "level {i}");
    }
    play(&mut ed, "tiny");
    let playing = board(&ed);
    for cell in ["c2", "d5", "c3", "c2", "c1"] {
        click_cells(&mut ed, cell);
        assert_eq!(board(&ed), playing, "after {cell}");
    }
    ed.click("Balance");
    assert_eq!(board(&ed), playing);
}

/// Growing a level from 9 to 11 ranks in the inspector keeps player 2 on
/// the top rank, its goal rank with it.
#[test]
fn resizing_keeps_each_start_and_goal_rank_at_its_edge() {
    let mut ed = editor();
    ed.select_level("open");
    ed.harness.get_by_role_and_label(egui::accesskit::Role::SpinButton, "ranks").set_value_accesskit(11.0);
    ed.settle();
    let level = ed.level();
    assert_eq!(level.height, 11);
    assert_eq!(level.starts, ByPlayer::new(Some(c("e1")), Some(c("e11"))));
    assert!(level.goal_cells(Player::Two).iter().all(|g| g.rank() == 10));
    assert!(ed.harness.query_by_label_contains("error(s)").is_none(), "the grown level is still valid");
}

fn disabled(node: &egui_kittest::Node<'_>) -> bool {
    use egui_kittest::kittest::NodeT as _;
    node.accesskit_node().is_disabled()
}

/// Ctrl+Delete cannot delete a pack's last level; the menu entry and the
/// button are disabled by the same rule, and the key says why.
#[test]
fn the_last_level_cannot_be_deleted() {
    let mut ed = editor();
    ed.key(Modifiers::COMMAND, Key::N);
    assert_eq!(ed.app().doc().pack().levels.len(), 1);
    ed.key(Modifiers::COMMAND, Key::Delete);
    assert_eq!(ed.app().doc().pack().levels.len(), 1, "the last level stays");
    assert!(ed.app().status().contains("needs a level"), "{}", ed.app().status());
    assert!(disabled(&ed.harness.get_by_label("Delete")));
    ed.harness.get_by_role_and_label(egui::accesskit::Role::Button, "Level").click();
    ed.settle();
    assert!(disabled(&ed.harness.get_by_label_contains("Delete level")));
    ed.key(Modifiers::NONE, Key::Escape);
    ed.key(Modifiers::COMMAND, Key::L);
    assert_eq!(ed.app().doc().pack().levels.len(), 2);
    assert!(!disabled(&ed.harness.get_by_label("Delete")));
    ed.key(Modifiers::COMMAND, Key::Delete);
    assert_eq!(ed.app().doc().pack().levels.len(), 1);
}

/// Play-mode keys are entries of the one shortcut table, scoped to play.
#[test]
fn play_keys_are_in_the_shortcut_table() {
    use pushcrate::editor::command::{Command, Scope};
    use pushcrate::rules::{Action, Dir};
    let table = Command::shortcut_table();
    let key_of = |command: Command| table.iter().find(|(_, c)| *c == command).map(|(s, _)| s.logical_key);
    assert_eq!(key_of(Command::TogglePlacing), Some(Key::T));
    assert_eq!(key_of(Command::Play(Action::Steal)), Some(Key::X));
    assert_eq!(key_of(Command::Play(Action::Pass)), Some(Key::Space));
    for (dir, key) in [(Dir::North, Key::ArrowUp), (Dir::South, Key::ArrowDown)] {
        assert_eq!(key_of(Command::Arrow(dir)), Some(key));
        assert_eq!(Command::Arrow(dir).scope(), Scope::Play);
    }
    // In editing, T and the arrows do nothing to a game.
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    ed.key(Modifiers::NONE, Key::F5);
    ed.key(Modifiers::NONE, Key::T);
    ed.key(Modifiers::NONE, Key::ArrowUp);
    assert!(!game(&ed).placing());
    assert_eq!(game(&ed).actions().len(), 0);
    ed.key(Modifiers::NONE, Key::F5);
    ed.key(Modifiers::NONE, Key::ArrowUp);
    assert_eq!(game(&ed).actions().len(), 1);
}

/// An illegal action says why, with the engine's reason: a crate on a
/// sole-path cell names the route it would cut.
#[test]
fn an_illegal_action_says_why() {
    let mut ed = flawed_editor();
    play(&mut ed, "maze");
    let state = *game(&ed).state();
    let occupied = [state.position(Player::One), state.position(Player::Two)];
    let sole = state.sole_path_cells().iter().find(|c| !occupied.contains(c) && *c != state.flag()).unwrap();
    ed.key(Modifiers::NONE, Key::T);
    click_cells(&mut ed, &sole.to_string());
    assert_eq!(game(&ed).actions().len(), 0);
    let status = ed.app().status();
    assert!(status.contains("not legal") && status.contains("cut"), "{status}");
    // A step out of reach says so too.
    ed.key(Modifiers::NONE, Key::T);
    click_cells(&mut ed, "a9");
    assert!(ed.app().status().contains("not a step, jump or push"), "{}", ed.app().status());
}

/// A status message is cleared once it stops being true: a win after
/// undo, "New pack." after an edit; play mode shows no edit tool.
#[test]
fn status_messages_are_cleared_when_they_stop_being_true() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    click_cells(&mut ed, "c2 d5 c3 c2 c1");
    assert!(ed.app().status().contains("Player 1 wins"), "{}", ed.app().status());
    assert!(ed.harness.query_by_label_contains("Play · tiny").is_some());
    assert!(ed.harness.query_by_label_contains("Wall brush ·").is_none(), "no edit tool in play");
    ed.key(Modifiers::COMMAND, Key::Z);
    assert!(!ed.app().status().contains("wins"), "{}", ed.app().status());
    ed.key(Modifiers::NONE, Key::F5);
    ed.key(Modifiers::COMMAND, Key::N);
    ed.dialogs.answer(None);
    if ed.harness.query_by_label("Don't save").is_some() {
        ed.click("Don't save");
    }
    assert_eq!(ed.app().status(), "New pack.");
    ed.click_cell(c("b2"), PointerButton::Primary);
    assert_eq!(ed.app().status(), "", "the pack is no longer new");
}

/// The heat map has a legend, gives the number of the cell under the
/// pointer, and marks floor the flag cannot reach; such floor is a finding.
#[test]
fn the_heat_map_has_a_legend_numbers_and_unreachable_floor() {
    let mut ed = editor();
    ed.select_level("open");
    ed.key(Modifiers::NONE, Key::D);
    assert!(ed.harness.query_by_label("Distance heat map: steps from the flag").is_some());
    assert!(ed.harness.query_by_label("unreachable from the flag: 0 floor cell(s)").is_some());
    let pos = ed.cell_pos(c("e3"));
    ed.harness.event(Event::PointerMoved(pos));
    ed.settle();
    assert!(ed.harness.query_by_label("2 steps from the flag").is_some());
    // Shut a1 in: it is unreachable, hatched, counted and reported.
    ed.click_cell(c("a2"), PointerButton::Primary);
    ed.click_cell(c("b1"), PointerButton::Primary);
    assert!(ed.harness.query_by_label("unreachable from the flag: 1 floor cell(s)").is_some());
    let pos = ed.cell_pos(c("a1"));
    ed.harness.event(Event::PointerMoved(pos));
    ed.settle();
    assert!(ed.harness.query_by_label("unreachable from the flag").is_some());
    let findings = ed.harness.state_mut().current_findings();
    let a032 = findings.iter().find(|f| f.code == "A032").expect("unreachable floor is reported");
    assert_eq!(a032.cells, pushcrate::rules::Bitboard::from_cell(c("a1")));
}

/// Save, Export and Save game go by the same output rules as the command
/// line: a read-only file is refused and kept, with no backup made of it;
/// a symbolic link is written through and stays a link; a folder that
/// vanished is named; and the work is never lost on the way.
#[cfg(unix)]
#[test]
fn the_editors_own_writes_refuse_keep_and_name_as_the_command_line_does() {
    use pushcrate::editor::FileTask;
    use std::os::unix::fs::PermissionsExt as _;
    let mut ed = editor();
    ed.drag(&[c("a5"), c("b5")], PointerButton::Primary);
    let dir = ed.dir.path().to_path_buf();
    let error = |ed: &Editor| match ed.app().modal() {
        Some(Modal::Error(text)) => text.clone(),
        other => panic!("no error shown: {other:?}"),
    };

    let read_only = dir.join("ro.toml");
    std::fs::write(&read_only, "keep me\n").unwrap();
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
    for task in [FileTask::SaveAs, FileTask::ExportToml, FileTask::ExportJson] {
        ed.send(Command::Dialog(Answer::FileTask(task, read_only.clone())));
        assert!(error(&ed).contains("read-only"), "{task:?}: {}", error(&ed));
        ed.send(Command::Dialog(Answer::Dismiss));
        assert_eq!(std::fs::read_to_string(&read_only).unwrap(), "keep me\n", "{task:?}");
    }
    assert!(!pushcrate::editor::storage::backup_path(&read_only).exists(), "no backup of a file not saved");
    assert!(ed.app().doc().is_dirty(), "the work is still unsaved, not lost");

    let real = dir.join("real.toml");
    std::fs::write(&real, "old\n").unwrap();
    let link = dir.join("link.toml");
    std::os::unix::fs::symlink("real.toml", &link).unwrap();
    ed.send(Command::Dialog(Answer::FileTask(FileTask::SaveAs, link.clone())));
    assert!(!ed.app().doc().is_dirty(), "saved through the link");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
    assert_eq!(&parse_pack(&std::fs::read_to_string(&real).unwrap()).pack.unwrap(), ed.app().doc().pack());

    let gone = dir.join("gone");
    std::fs::create_dir(&gone).unwrap();
    let inside = gone.join("pack.toml");
    ed.send(Command::Dialog(Answer::FileTask(FileTask::SaveAs, inside.clone())));
    assert!(!ed.app().doc().is_dirty(), "saved inside the folder");
    ed.click_cell(c("c5"), PointerButton::Primary);
    std::fs::remove_dir_all(&gone).unwrap();
    ed.key(Modifiers::COMMAND, Key::S);
    assert!(error(&ed).contains("does not exist"), "{}", error(&ed));
    ed.send(Command::Dialog(Answer::Dismiss));
    assert!(ed.app().doc().is_dirty());
    ed.harness.state_mut().autosave_now();
    let recovery =
        AppPaths { dir: dir.clone() }.read_recovery().expect("the unsaved work is in the recovery file");
    assert_eq!(&parse_pack(&recovery.text).pack.unwrap(), ed.app().doc().pack());

    // The recovery file's own folder vanishing is no reason to lose it.
    let config = tempfile::tempdir().unwrap();
    let paths = AppPaths { dir: config.path().join("sub") };
    std::fs::create_dir(&paths.dir).unwrap();
    std::fs::remove_dir(&paths.dir).unwrap();
    paths.write_recovery(&recovery).unwrap();
    assert_eq!(paths.read_recovery(), Some(recovery));
}

/// Quitting with "Don't save" gives the work up: the frames before the
/// window closes do not write it back to the recovery file, so the next
/// start offers nothing.
#[test]
fn quitting_without_saving_leaves_nothing_to_recover() {
    use pushcrate::editor::AUTOSAVE_EVERY;
    let mut ed = editor();
    let paths = AppPaths { dir: ed.dir.path().to_path_buf() };
    ed.click_cell(c("e3"), PointerButton::Primary);
    assert!(paths.read_recovery().is_some(), "the edit is autosaved");
    ed.key(Modifiers::COMMAND, Key::Q);
    assert!(matches!(ed.app().modal(), Some(Modal::Unsaved(_))));
    ed.click("Don't save");
    // Frames still run until the window closes, long after the autosave
    // would be due.
    for later in [1.0, AUTOSAVE_EVERY.as_secs_f64() + 1.0, 10.0 * AUTOSAVE_EVERY.as_secs_f64()] {
        let now = ed.harness.ctx.input(|i| i.time);
        ed.harness.input_mut().time = Some(now + later);
        ed.harness.step();
    }
    assert_eq!(paths.read_recovery(), None, "the discarded work came back");
    let next = EditorApp::new(Box::new(FakeDialogs::default()), paths);
    assert!(!matches!(next.modal(), Some(Modal::Recover(_))), "a clean quit is not a crash");
}

/// The display check belongs to the systems whose windows come from an X11
/// or Wayland server: macOS and Windows always have a display.
#[test]
fn only_x11_and_wayland_systems_need_a_display_variable() {
    use pushcrate::editor::display_available_on;
    let none = |_: &str| None;
    let x11 = |name: &str| (name == "DISPLAY").then(|| ":0".into());
    let empty = |_: &str| Some(std::ffi::OsString::new());
    assert!(display_available_on("macos", none));
    assert!(display_available_on("windows", none));
    assert!(!display_available_on("linux", none));
    assert!(!display_available_on("linux", empty));
    assert!(display_available_on("linux", x11));
    assert!(!display_available_on("freebsd", none));
}

/// While a balance check runs and nothing is touched, the window wakes
/// twice a second to draw its progress, not at every frame: a software
/// renderer draws on the CPU the games would otherwise have.
#[test]
fn a_running_check_draws_its_progress_twice_a_second() {
    let mut ed = editor();
    play(&mut ed, "courtyard");
    ed.harness.state_mut().command(pushcrate::editor::command::Command::RunBalance);
    ed.harness.step();
    assert!(sandbox(&ed).balance().job().is_some(), "the check runs");
    // The first frames show what the command did; then the window rests.
    let mut delays = Vec::new();
    for _ in 0..5 {
        let now = ed.harness.ctx.input(|i| i.time);
        ed.harness.input_mut().time = Some(now + 1.0);
        ed.harness.step();
        delays.push(ed.harness.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay);
    }
    assert!(sandbox(&ed).balance().job().is_some(), "the check still runs");
    let delay = *delays.last().unwrap();
    assert_eq!(delay, std::time::Duration::from_millis(500), "a running check repaints after {delay:?}");
    ed.harness.state_mut().command(pushcrate::editor::command::Command::CancelBalance);
}

/// While a level is generated and nothing is touched, the window wakes
/// twice a second to count the time up, with no spinner asking for every
/// frame: on a software renderer those frames took most of the cores the
/// candidates' games need.
#[test]
fn generating_draws_its_time_twice_a_second() {
    let mut ed = editor();
    let form = pushcrate::editor::GenerateForm { balanced: true, ..Default::default() };
    ed.harness.state_mut().command(Command::Dialog(Answer::Generate(form)));
    ed.harness.step();
    assert!(ed.app().generating(), "the level is being generated");
    let mut delay = std::time::Duration::ZERO;
    for _ in 0..5 {
        let now = ed.harness.ctx.input(|i| i.time);
        ed.harness.input_mut().time = Some(now + 1.0);
        ed.harness.step();
        delay = ed.harness.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
    }
    assert!(ed.app().generating(), "still generating");
    assert_eq!(delay, std::time::Duration::from_millis(500), "generating repaints after {delay:?}");
    assert!(ed.app().generating_for().is_some());
    ed.harness.state_mut().command(Command::StopGenerating);
}

/// Play mode at rest draws no frames: with a person to move, nothing is
/// animated or searched, so the window sleeps until input (before, it
/// repainted every 30 ms, which on a software renderer is most of a core).
/// A game the computer plays against itself wakes for its next move only.
#[test]
fn play_mode_at_rest_asks_for_no_frames() {
    let mut ed = editor();
    play(&mut ed, "open");
    let idle_delay = |ed: &mut Editor| {
        let now = ed.harness.ctx.input(|i| i.time);
        ed.harness.input_mut().time = Some(now + 30.0);
        ed.harness.step();
        ed.harness.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay
    };
    let delay = idle_delay(&mut ed);
    assert!(delay > std::time::Duration::from_secs(60), "a person's turn repaints after {delay:?}");
    // A computer-only game at half an action a second, just after a move.
    let mut sandbox =
        pushcrate::editor::sandbox::Game::new(ed.level().playable(ed.app().doc().pack().rules).unwrap());
    sandbox.set_seat(Player::One, Seat::Computer(0));
    sandbox.set_seat(Player::Two, Seat::Computer(0));
    sandbox.set_speed(0.5);
    sandbox.step_computer();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !sandbox.poll_thinking() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    sandbox.toggle_running();
    let gap = sandbox.next_computer_move_in().expect("the next move waits on the clock");
    assert!(gap <= std::time::Duration::from_secs(2) && gap > std::time::Duration::from_secs(1), "{gap:?}");
}

/// Suggest fixes, as a designer uses it: the search runs in the background
/// under the panel's chosen check, its proposals are listed with their
/// verdicts, one is previewed on the board and applied as one undo step.
#[test]
fn suggest_fixes_proposes_previews_and_applies_in_one_undo_step() {
    use pushcrate::editor::command::Command;
    use pushcrate::repair::Edit;
    let mut ed = editor();
    let path = ed.dir.path().join("close.toml");
    std::fs::write(
        &path,
        "format = 1\nname = \"Repair example\"\n\n[[level]]\nid = \"too-close\"\nname = \"Too close\"\nsize = \"7x7\"\nmap = '''\n.......\n.#...#.\n.......\n.......\n.......\n.#...#.\n.......\n'''\np1 = { start = \"d2\" }\np2 = { start = \"d7\" }\n",
    )
    .unwrap();
    ed.send(Command::Dialog(Answer::FileTask(FileTask::Open, path.clone())));
    ed.harness.run();
    assert_eq!(ed.level().id, "too-close", "{}", ed.app().status());
    play(&mut ed, "too-close");
    {
        ed.send(Command::Set(Setting::BalanceChoice(1))); // expert only
        ed.send(Command::Set(Setting::BalanceGames(60)));
    }
    ed.harness.state_mut().command(Command::SuggestFixes);
    ed.harness.run_steps(2);
    assert!(sandbox(&ed).fixes().job().is_some(), "the search runs in the background");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while sandbox(&ed).fixes().job().is_some() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
        ed.harness.step();
    }
    let found = sandbox(&ed).fixes().found().cloned().expect("the search finished");
    let back = Edit::MoveStart(Player::One, c("d2"), c("d1"));
    let index =
        found.proposals.iter().position(|p| p.edits == [back]).expect("the start moved back is proposed");
    ed.click("Balance");
    ed.harness.run();
    assert!(ed.harness.query_by_label_contains("quick games (expert)").is_some(), "the search is summed up");
    ed.harness.state_mut().command(Command::PreviewFix(Some(index)));
    ed.harness.run();
    assert_eq!(sandbox(&ed).fixes().preview(), Some(index));
    assert_eq!(ed.level().starts.one, Some(c("d2")), "a preview changes nothing");
    ed.harness.state_mut().command(Command::ApplyFix(index));
    ed.harness.run();
    assert_eq!(ed.level().starts.one, Some(c("d1")));
    assert!(ed.app().doc().is_dirty());
    assert_eq!(game(&ed).level().starts.one, Some(c("d1")), "the game is on the repaired layout");
    assert!(ed.app().status().contains("Applied proposal"), "{}", ed.app().status());
    // In play mode Ctrl+Z takes back game actions; back in edit mode it
    // takes back the fix, in one step.
    ed.key(Modifiers::NONE, Key::F5);
    assert!(!ed.app().playing());
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(ed.level().starts.one, Some(c("d2")), "one undo takes the fix back");
}

/// The diagnostics dialog opens afresh each time (at the top left, not at
/// the scroll position it was left at), its codes and places at the left.
#[test]
fn the_diagnostics_dialog_opens_afresh_each_time() {
    let mut ed = editor();
    let path = ed.dir.path().join("broken.toml");
    let long = "x".repeat(300);
    std::fs::write(&path, format!("format = 1\nname = \"{long}\"\n[[level]]\nid = \"a\"\nwat = 3\n"))
        .unwrap();
    let mut shown = Vec::new();
    for _ in 0..2 {
        ed.dialogs.answer(Some(path.clone()));
        ed.key(Modifiers::COMMAND, Key::O);
        let Some(Modal::Problems { text, shown: serial, .. }) = ed.app().modal().cloned() else {
            panic!("no diagnostics")
        };
        assert!(text.lines().any(|l| l.starts_with("error[")), "each diagnostic starts at its code: {text}");
        shown.push(serial);
        ed.click("Close");
    }
    assert_ne!(shown[0], shown[1], "the second opening is a new dialog, scrolled to the top left");
}

/// A start square moved to another rank takes its default goal rank with
/// it: the editor says so, and one undo takes both back.
#[test]
fn moving_a_start_square_says_that_its_goal_rank_moves_too() {
    let mut ed = editor();
    ed.select_level("open");
    let goals_before = ed.level().goal_cells(Player::One);
    ed.click("Start 1");
    ed.click_cell(c("c3"), PointerButton::Primary);
    assert_eq!(ed.level().starts.one, Some(c("c3")));
    assert!(ed.level().goal_cells(Player::One).has(c("a3")), "the goal rank is now rank 3");
    assert!(
        ed.app().status().contains("goal rank moved with its start square, from rank 1 to rank 3"),
        "{}",
        ed.app().status()
    );
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(ed.level().starts.one, Some(c("e1")));
    assert_eq!(ed.level().goal_cells(Player::One), goals_before);
    // Along its rank, nothing to say.
    ed.click_cell(c("d1"), PointerButton::Primary);
    assert!(!ed.app().status().contains("goal rank moved"), "{}", ed.app().status());
}

/// Who plays each side is kept from level to level of a pack, with the
/// balance panel's choices.
#[test]
fn seats_and_check_choices_are_kept_across_levels() {
    let mut ed = flawed_editor();
    ed.select_level("crates");
    ed.key(Modifiers::NONE, Key::F5);
    {
        ed.seats(Seat::Human, Seat::Computer(3));
        ed.send(Command::Set(Setting::BalanceChoice(2)));
    }
    ed.key(Modifiers::NONE, Key::F5);
    ed.select_level("arena");
    ed.key(Modifiers::NONE, Key::F5);
    assert_eq!(game(&ed).level().id, "arena");
    assert_eq!(game(&ed).seats(), ByPlayer::new(Seat::Human, Seat::Computer(3)));
    assert_eq!(sandbox(&ed).balance().choice(), 2);
}

/// Four walls around the flag are one cut: one finding, which names the
/// four walls and what they shut in, and crosses out those walls only,
/// not the other walls of the board.
#[test]
fn walls_around_the_flag_are_one_finding_naming_them() {
    let mut ed = editor();
    ed.select_level("pillars");
    let ring = [c("e4"), c("d5"), c("f5"), c("e6")];
    for cell in ring {
        ed.click_cell(cell, PointerButton::Primary);
    }
    let findings = ed.harness.state_mut().current_findings();
    let cuts: Vec<_> = findings.iter().filter(|f| f.code == "E024").collect();
    assert_eq!(cuts.len(), 1, "{findings:?}");
    let cut = cuts[0];
    assert!(
        cut.message.contains("the walls e4 d5 f5 e6 shut the flag in on a single cell, e5"),
        "{}",
        cut.message
    );
    assert!(cut.message.contains("player 2's route from the flag to its goal"), "{}", cut.message);
    assert!(!cut.message.contains("its end"), "{}", cut.message);
    assert_eq!(
        cut.cut,
        ring.into_iter().collect::<pushcrate::rules::Bitboard>(),
        "the walls that cut, no others"
    );
    assert_eq!(cut.cells, pushcrate::rules::Bitboard::from(c("e5")));
}

/// The level list's status marks have a legend under the list.
#[test]
fn the_status_marks_have_a_legend() {
    let mut ed = editor();
    // A new pack's level states no expectation, so no box reads `valid`.
    ed.key(Modifiers::COMMAND, Key::N);
    for meaning in ["valid", "warnings", "errors"] {
        assert!(ed.harness.query_by_label(meaning).is_some(), "no legend entry `{meaning}`");
    }
}

/// Ctrl and the wheel (a zoom event) zoom about the pointer, the cell under
/// it staying there; a zoomed board still paints the cell clicked, pans with
/// a middle-button drag, and Ctrl+0 fits it again.
#[test]
fn the_board_zooms_about_the_pointer_pans_and_fits_again() {
    let mut ed = editor();
    ed.select_level("open");
    let rect = ed.harness.get_by_label("Board").rect();
    let fit = BoardLayout::new(rect, 9, 9).cell;
    let pointer = ed.cell_pos(c("c3"));
    ed.harness.event(Event::PointerMoved(pointer));
    ed.harness.event(Event::Zoom(2.0));
    ed.settle();
    let zoom = ed.app().zoom();
    assert!((zoom.scale - 2.0).abs() < 1e-3, "{zoom:?}");
    let layout = BoardLayout::zoomed(rect, 9, 9, zoom);
    assert!(layout.cell >= 2.0 * fit - 1.0, "{} against {fit}", layout.cell);
    assert_eq!(layout.cell_at(pointer), Some(c("c3")), "the cell under the pointer stays under it");

    ed.click("Wall brush");
    ed.click_cell(c("d4"), PointerButton::Primary);
    assert!(ed.level().walls.has(c("d4")), "a zoomed board paints the cell clicked");
    assert_eq!(ed.level().walls.count(), 1, "the click on the tool painted no cell hidden under it");

    let before = ed.app().zoom().pan;
    let from = ed.cell_pos(c("e5"));
    ed.press(from, PointerButton::Middle, true);
    ed.harness.event(Event::PointerMoved(from + egui::vec2(-40.0, 25.0)));
    ed.settle();
    ed.press(from + egui::vec2(-40.0, 25.0), PointerButton::Middle, false);
    let moved = ed.app().zoom().pan - before;
    assert!(moved.x < -20.0 && moved.y > 10.0, "a middle drag pans: {moved:?}");
    assert_eq!(ed.level().walls.count(), 1, "panning paints nothing");

    ed.key(Modifiers::COMMAND, Key::Num0);
    assert_eq!(ed.app().zoom(), pushcrate::editor::board::BoardZoom::default());
}

/// A command changes the state at the end of the frame that sent it: the
/// editor asks for the next frame at once, so the screen never keeps the
/// old state until the next input (defect: 0.25–0.7 s of a stale frame
/// after a shortcut).
#[test]
fn a_command_is_shown_in_the_very_next_frame() {
    let mut ed = editor();
    ed.settle();
    let idle = ed.harness.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
    assert!(idle > std::time::Duration::from_secs(1), "at rest the editor waits: {idle:?}");
    ed.harness.state_mut().command(Command::Set(Setting::Tool(pushcrate::editor::command::Tool::Eraser)));
    ed.harness.step();
    let next = ed.harness.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
    assert_eq!(next, std::time::Duration::ZERO, "the frame after a command is asked for at once");
    ed.harness.step();
    assert!(ed.harness.query_by_label_contains("Eraser ·").is_some(), "the status bar shows the new tool");
}

/// Select, copy and paste, as in Tiled: a region dragged with the Select
/// tool is copied with Ctrl+C and stamped with Ctrl+V where a click puts
/// it, in another level too; each paste is one undo step, and a cut clears
/// what it copied.
#[test]
fn selects_copies_and_pastes_a_region_across_levels() {
    let mut ed = flawed_editor();
    ed.select_level("tiny");
    ed.click("Wall brush");
    ed.click_cell(c("a1"), PointerButton::Primary);
    ed.click("Crate");
    ed.click_cell(c("b1"), PointerButton::Primary);
    let source = ed.level().clone();
    ed.key(Modifiers::NONE, Key::A);
    assert_eq!(ed.app().tool(), pushcrate::editor::command::Tool::Select);
    ed.drag(&[c("a2"), c("b1")], PointerButton::Primary);
    assert_eq!(ed.app().selection(), Some((c("a2"), c("b1"))));
    ed.key(Modifiers::COMMAND, Key::C);
    assert!(ed.app().status().contains("Copied a 2 × 2 region"), "{}", ed.app().status());
    assert_eq!(ed.level(), &source, "copying changes nothing");

    // Another level: paste follows the pointer until a click.
    ed.select_level("chokepoints");
    let before = ed.level().clone();
    ed.key(Modifiers::COMMAND, Key::V);
    assert!(ed.app().stamp().is_some(), "pasting");
    ed.click_cell(c("c5"), PointerButton::Primary);
    let level = ed.level().clone();
    // Top-left on c5: c5 d5 / c4 d4, that is a2 b2 / a1 b1 of the source.
    for (from, to) in [("a2", "c5"), ("b2", "d5"), ("a1", "c4"), ("b1", "d4")] {
        assert_eq!(source.walls.has(c(from)), level.walls.has(c(to)), "{from} → {to}");
        assert_eq!(source.crates.get(&c(from)), level.crates.get(&c(to)), "{from} → {to}");
    }
    assert!(ed.app().stamp().is_some(), "a stamp places copy after copy until Esc");
    ed.key(Modifiers::NONE, Key::Escape);
    assert!(ed.app().stamp().is_none());
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(ed.level(), &before, "one paste, one undo step");

    // A cut copies, then clears to floor.
    ed.select_level("tiny");
    assert_eq!(ed.app().selection(), None, "a selection belongs to its level");
    ed.drag(&[c("a1"), c("b1")], PointerButton::Primary);
    ed.key(Modifiers::COMMAND, Key::X);
    assert!(!ed.level().walls.has(c("a1")) && !ed.level().crates.contains_key(&c("b1")));
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(ed.level(), &source, "the cut undoes");
}

/// Ctrl+C in a text field copies its text, not the board's selection.
#[test]
fn clipboard_keys_in_a_text_field_leave_the_board_alone() {
    let mut ed = editor();
    ed.key(Modifiers::NONE, Key::A);
    ed.drag(&[c("a1"), c("b2")], PointerButton::Primary);
    ed.harness.get_by_label("Name").click();
    ed.settle();
    ed.key(Modifiers::COMMAND, Key::C);
    assert!(!ed.app().status().contains("Copied"), "{}", ed.app().status());
    ed.key(Modifiers::COMMAND, Key::V);
    assert!(ed.app().stamp().is_none(), "no paste while typing");
}

/// The board's marks have a key beside it, and the level list's buttons sit
/// in two rows by design, each whole inside the panel.
#[test]
fn the_board_has_a_key_and_the_level_buttons_fit() {
    let mut ed = editor();
    assert!(
        ed.harness.query_by_label_contains("sole-path cell:").is_some(),
        "the sole-path dot is explained"
    );
    assert!(ed.harness.query_by_label("start 1").is_some() && ed.harness.query_by_label("goal 2").is_some());
    ed.key(Modifiers::NONE, Key::S);
    assert!(
        ed.harness.query_by_label_contains("sole-path cell:").is_none(),
        "only what is shown is explained"
    );
    ed.key(Modifiers::NONE, Key::P);
    assert!(ed.harness.query_by_label("route 1").is_some());
    let panel = ed.harness.get_by_label("Levels").rect();
    let add = ed.harness.get_by_label("Add").rect();
    for label in ["Duplicate", "Delete", "Move up", "Move down"] {
        let rect = ed.harness.get_by_label(label).rect();
        assert!(rect.right() <= panel.left() + 272.0, "{label} runs past the panel: {rect:?}");
        let row = if label.starts_with("Move") { 1.0 } else { 0.0 };
        assert!(
            (rect.top() - add.top() - row * (add.height() + 4.0)).abs() < 6.0,
            "{label} is on its row: {rect:?}"
        );
    }
}

/// Each level of the list has a thumbnail of its layout; clicking it edits
/// that level.
#[test]
fn a_levels_thumbnail_selects_it() {
    let mut ed = editor();
    assert_eq!(ed.level().id, "open");
    ed.click("Thumbnail of gates");
    assert_eq!(ed.level().id, "gates");
    assert!(ed.harness.query_by_label("Thumbnail of fortress").is_some(), "every level has one");
}

/// The skill trace in the Balance panel: each strength on both sides,
/// weakest first, drawn as a curve with each point's interval; on `tiny`,
/// a forced win, the strong strengths find it every time.
#[test]
fn the_skill_trace_climbs_the_ladder() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    ed.click("Balance");
    ed.harness.state_mut().command(Command::RunSkillTrace);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while sandbox(&ed).skill().report().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        ed.harness.step();
    }
    let points = sandbox(&ed).skill().report().cloned().expect("the trace finished");
    let names: Vec<&str> = points.iter().map(|p| p.name).collect();
    assert_eq!(names, ["easy", "medium", "hard", "expert", "deep", "master"]);
    assert!(points.iter().all(|p| p.report.games == pushcrate::sim::TRACE_GAMES));
    let master = &points[5].report.first_player_score;
    assert!(master.rate == 1.0, "master finds the forced win: {master:?}");
    ed.harness.run();
    assert!(ed.harness.query_by_label_contains("master: 100% [").is_some());
}

/// A level's expectations in the inspector: each form a box, each chosen
/// one marked as holding or failing now; choosing one is an undo step.
#[test]
fn expectations_are_set_and_checked_in_the_inspector() {
    let mut ed = flawed_editor();
    ed.select_level("tiny");
    // The solver answers `decided:1` in the background, off the UI thread.
    wait_for_solver(&mut ed);
    // Folded, the header says how the level stands.
    ed.click("Expectations (2): 2 hold, 0 fail");
    assert_eq!(ed.harness.query_all_by_label("holds").count(), 2, "valid and decided:1 hold");
    ed.click("Unwinnable");
    let unwinnable: pushcrate::level::Expectation = "unwinnable".parse().unwrap();
    assert!(ed.level().expect.contains(&unwinnable));
    assert!(ed.harness.query_by_label("fails").is_some(), "tiny can be won");
    assert!(ed.harness.query_by_label("Expectations (3): 2 hold, 1 fail").is_some());
    ed.key(Modifiers::COMMAND, Key::Z);
    assert!(!ed.level().expect.contains(&unwinnable), "one undo step");
    // A balance expectation waits for the balance check.
    ed.click("Balanced");
    assert!(ed.harness.query_by_label("run the balance check").is_some());
    assert!(ed.harness.query_by_label("Expectations (3): 2 hold, 0 fail, 1 unchecked").is_some());
    // Expectations read as words, a finding's by its title; the raw key is
    // in the tooltip.
    ed.select_level("unfair-race");
    assert!(
        ed.harness
            .query_by_label_contains("A010: One player reaches the flag two or more actions before the other")
            .is_some(),
        "a finding by its title"
    );
    assert!(ed.harness.query_by_label("finding:A010").is_none(), "no raw key as a label");
}

/// Shift and a digit select a crate stage whatever symbol the keyboard
/// layout gives the key: egui reports Shift+1 on a US keyboard as `!`, with
/// the key pressed as its physical key.
#[test]
fn shift_and_a_digit_select_a_stage_on_any_layout() {
    use pushcrate::rules::Stage;
    let mut ed = editor();
    for (symbol, digit, stage) in [
        (Key::Exclamationmark, Key::Num1, Stage::Intact),
        (Key::Plus, Key::Num2, Stage::Cracked),
        (Key::Num3, Key::Num3, Stage::Rubble),
        (Key::Exclamationmark, Key::Num1, Stage::Intact),
    ] {
        ed.harness.input_mut().events.push(Event::Key {
            key: symbol,
            physical_key: Some(digit),
            pressed: true,
            repeat: false,
            modifiers: Modifiers::SHIFT,
        });
        ed.harness.step();
        ed.settle();
        assert_eq!(ed.app().stage(), stage, "{symbol:?} on {digit:?}");
    }
}

/// The flood fill never buries the start squares or the flag under walls:
/// one-of-a-kind cells are left alone, as paste leaves them.
#[test]
fn flood_fill_leaves_the_start_squares_and_the_flag() {
    let mut ed = editor();
    ed.select_level("open");
    ed.key(Modifiers::NONE, Key::F);
    ed.click_cell(c("a2"), PointerButton::Primary);
    let level = ed.level().clone();
    let starts = [level.starts.one.unwrap(), level.starts.two.unwrap()];
    let flag = level.flag.or(level.centre()).unwrap();
    for cell in starts.into_iter().chain([flag]) {
        assert!(!level.walls.has(cell), "{cell} was buried");
    }
    assert_eq!(level.walls.count(), 81 - 3, "every other cell of the floor is a wall");
}

/// Copy puts the region on the system clipboard as map rows, so that the
/// clipboard holds text and the desktop sends the first Ctrl+V to the
/// editor (egui-winit sends a paste only when the clipboard holds text):
/// a paste right after Copy works in a session whose clipboard started
/// empty.
#[test]
fn copy_fills_the_system_clipboard_so_the_first_paste_works() {
    let mut ed = flawed_editor();
    ed.select_level("tiny");
    ed.click("Wall brush");
    ed.click_cell(c("a1"), PointerButton::Primary);
    ed.key(Modifiers::NONE, Key::A);
    ed.drag(&[c("a2"), c("b1")], PointerButton::Primary);
    ed.harness.input_mut().events.push(Event::Key {
        key: Key::C,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: Modifiers::COMMAND,
    });
    // The command runs at the end of the frame that took the key; the
    // clipboard's text leaves with that frame's output.
    let copied = (0..4)
        .find_map(|_| {
            ed.harness.step();
            ed.harness.output().platform_output.commands.iter().find_map(|c| match c {
                egui::OutputCommand::CopyText(text) => Some(text.clone()),
                _ => None,
            })
        })
        .unwrap_or_else(|| panic!("the copy reached the system clipboard; status {:?}", ed.app().status()));
    assert_eq!(copied, "..\n#.\n", "the region as map rows, top rank first");
    ed.settle();
    // What the desktop sends for Ctrl+V once the clipboard holds text.
    ed.harness.input_mut().events.push(Event::Paste(copied));
    ed.harness.step();
    ed.settle();
    assert!(ed.app().stamp().is_some(), "the first paste pastes");
}

/// A level renamed to an id another level has is blamed too: both sides
/// of the clash show E021, the level just edited included (it showed
/// "Valid" while the untouched one took the blame).
#[test]
fn a_clashing_id_is_blamed_on_both_levels() {
    let mut ed = editor();
    ed.select_level("pillars");
    ed.send(Command::SetField(FormField::LevelId("open".into())));
    assert_eq!(ed.level().id, "open");
    assert!(ed.harness.query_by_label_contains("E021").is_some(), "the renamed level is blamed");
    assert!(ed.harness.query_by_label_contains("Valid: no errors").is_none());
    ed.select_level("open");
    assert_eq!(ed.level().name, "The open board");
    assert!(ed.harness.query_by_label_contains("E021").is_some(), "and the level it clashes with");
}

/// Expectations read the verdict the editor just found as long as the
/// layout and the rules are the ones it was found on: ticking an
/// expectation or renaming the level keeps it (before, any change to the
/// level, its expectations and name included, threw it away).
#[test]
fn expectations_keep_a_verdict_found_on_the_same_layout() {
    let mut ed = flawed_editor();
    play(&mut ed, "tiny");
    ed.click("Balance");
    ed.click("Run self-play");
    wait_for_balance(&mut ed, 60);
    assert!(sandbox(&ed).balance().report().is_some(), "the check finished");
    ed.key(Modifiers::NONE, Key::F5);
    assert!(!ed.app().playing());
    let mut expect = ed.level().expect.clone();
    expect.push("unbalanced:1".parse().unwrap());
    ed.send(Command::SetField(FormField::Expectations(expect)));
    ed.send(Command::SetField(FormField::LevelName("Tiny, renamed".into())));
    ed.harness.run();
    assert!(
        ed.harness.query_by_label_contains("Expectations (3): 3 hold, 0 fail").is_some(),
        "the check's verdict answers unbalanced:1"
    );
    // A change of layout is another level: the verdict no longer answers.
    ed.click("Wall brush");
    ed.click_cell(c("a3"), PointerButton::Primary);
    wait_for_solver(&mut ed);
    assert!(ed.harness.query_by_label_contains("1 unchecked").is_some());
}

/// Steps frames until the solver, which the editor runs in the background
/// for a level that expects `decided:N`, has answered.
fn wait_for_solver(ed: &mut Editor) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    ed.harness.step();
    while ed.app().analyses().solving() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
        ed.harness.step();
    }
    ed.harness.run();
}

/// Cancelling a rerun keeps the verdict the last finished check found (it
/// became "uncertain (cancelled)"), and while the rerun goes on the panel
/// says the verdict shown is the last finished one.
#[test]
fn cancelling_a_rerun_keeps_the_finished_verdict() {
    let mut ed = editor();
    play(&mut ed, "open");
    ed.click("Balance");
    ed.send(Command::Set(Setting::BalanceChoice(3)));
    ed.send(Command::Set(Setting::BalanceFixed(true)));
    ed.send(Command::Set(Setting::BalanceGames(40)));
    ed.harness.state_mut().command(Command::RunBalance);
    wait_for_balance(&mut ed, 60);
    let (finished, _) = sandbox(&ed).balance().report().cloned().expect("the first run finished");
    assert!(!finished.interrupted);
    ed.send(Command::Set(Setting::BalanceGames(100_000)));
    ed.harness.state_mut().command(Command::RunBalance);
    ed.harness.run_steps(2);
    assert!(sandbox(&ed).balance().job().is_some(), "the rerun is running");
    assert!(ed.harness.query_by_label_contains("The last finished check").is_some());
    ed.harness.state_mut().command(Command::CancelBalance);
    wait_for_balance(&mut ed, 60);
    let (kept, _) = sandbox(&ed).balance().report().cloned().expect("a verdict is shown");
    assert!(!kept.interrupted, "the cancelled rerun did not replace the finished verdict");
    assert_eq!(kept.reports[0].games, finished.reports[0].games);
}

/// Save As of a bundled pack keeps its comments and its order, as a file
/// opened from disk keeps them: untouched, the copy is the bundled text
/// itself; after an edit only the edited value differs.
#[test]
fn save_as_of_a_bundled_pack_keeps_its_comments_and_order() {
    for (bundled, text) in [
        (Bundled::Default, pushcrate::level::DEFAULT_PACK_TOML),
        (Bundled::Flawed, pushcrate::level::FLAWED_PACK_TOML),
    ] {
        let mut ed = editor();
        ed.send(Command::OpenBundled(bundled));
        let path = ed.dir.path().join("copy.toml");
        ed.dialogs.answer(Some(path.clone()));
        ed.key(Modifiers::COMMAND, Key::S);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text,
            "{bundled:?}: the copy is the bundled text"
        );
    }
    let mut ed = editor();
    ed.select_level("fortress");
    ed.click_cell(c("a5"), PointerButton::Primary);
    let path = ed.dir.path().join("edited.toml");
    ed.dialogs.answer(Some(path.clone()));
    ed.key(Modifiers::COMMAND, Key::S);
    let saved = std::fs::read_to_string(&path).unwrap();
    let header: Vec<&str> =
        pushcrate::level::DEFAULT_PACK_TOML.lines().take_while(|l| l.starts_with('#')).collect();
    assert!(header.len() > 3 && saved.starts_with(&header.join("\n")), "the header comments are kept");
    let changed =
        saved.lines().zip(pushcrate::level::DEFAULT_PACK_TOML.lines()).filter(|(a, b)| a != b).count();
    assert!(changed <= 2, "only the edited map row differs: {changed} lines");
}

/// Escape closes an open menu (the editor's own Escape, which deselects,
/// took the key first and the menu stayed open).
#[test]
fn escape_closes_menus() {
    let mut ed = editor();
    ed.click("File");
    assert!(ed.harness.query_by_label_contains("Save As").is_some(), "the File menu is open");
    ed.key(Modifiers::NONE, Key::Escape);
    assert!(ed.harness.query_by_label_contains("Save As").is_none(), "Escape closed it");
}

/// The play view names the level as the designer does, not by its id.
#[test]
fn the_play_view_names_the_level() {
    let mut ed = editor();
    play(&mut ed, "open");
    assert!(ed.harness.query_by_label("Playing The open board").is_some());
    assert!(ed.harness.query_by_label("Playing open").is_none());
}

/// Shift+click draws a straight line from the last cell painted (Tiled's
/// line), as one stroke that one undo takes back.
#[test]
fn shift_click_paints_a_line_from_the_last_painted_cell() {
    let mut ed = flawed_editor();
    ed.select_level("unfair-race");
    ed.click("Wall brush");
    ed.click_cell(c("a7"), PointerButton::Primary);
    let end = ed.cell_pos(c("g7"));
    ed.harness.event(Event::PointerMoved(end));
    ed.harness.event(Event::PointerButton {
        pos: end,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::SHIFT,
    });
    ed.settle();
    ed.harness.event(Event::PointerButton {
        pos: end,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::SHIFT,
    });
    ed.settle();
    for name in ["a7", "b7", "c7", "d7", "e7", "f7", "g7"] {
        assert!(ed.level().walls.has(c(name)), "{name}");
    }
    assert!(!ed.level().walls.has(c("h7")));
    ed.key(Modifiers::COMMAND, Key::Z);
    assert!(ed.level().walls.has(c("a7")), "the click before stays");
    assert!(!ed.level().walls.has(c("d7")) && !ed.level().walls.has(c("g7")), "one undo takes the line back");
    // Without Shift a click paints its own cell only.
    ed.click_cell(c("c2"), PointerButton::Primary);
    assert!(ed.level().walls.has(c("c2")) && !ed.level().walls.has(c("b2")));
}

/// Started without a pack named, the editor reopens the last pack worked
/// on (Tiled, LDtk); on a first run, or when that file is gone, the
/// bundled pack stays open, and the status bar says why.
#[test]
fn the_editor_reopens_the_last_pack_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let paths = AppPaths { dir: dir.path().join("config") };
    let mut first = EditorApp::new(Box::new(FakeDialogs::default()), paths.clone());
    first.reopen_last_at_start();
    assert_eq!(first.doc().path(), None, "a first run keeps the bundled pack");
    let pack = dir.path().join("mine.toml");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/mazes/flawed.toml"), &pack).unwrap();
    let mut prefs = paths.load_prefs();
    prefs.remember(&pack);
    paths.save_prefs(&prefs).unwrap();
    let mut app = EditorApp::new(Box::new(FakeDialogs::default()), paths.clone());
    app.reopen_last_at_start();
    assert_eq!(app.doc().path(), Some(pack.as_path()));
    assert!(app.doc().pack().level("tiny").is_some());
    std::fs::remove_file(&pack).unwrap();
    let mut gone = EditorApp::new(Box::new(FakeDialogs::default()), paths);
    gone.reopen_last_at_start();
    assert_eq!(gone.doc().path(), None);
    assert!(gone.status().contains("is no longer there"), "{}", gone.status());
    // A bundled pack opened last (`pushcrate @flawed`) is reopened too.
    let mut prefs = paths_again(&dir).load_prefs();
    prefs.remember(std::path::Path::new("@flawed"));
    paths_again(&dir).save_prefs(&prefs).unwrap();
    let mut bundled = EditorApp::new(Box::new(FakeDialogs::default()), paths_again(&dir));
    bundled.reopen_last_at_start();
    assert!(bundled.doc().pack().level("tiny").is_some(), "{}", bundled.status());
}

fn paths_again(dir: &tempfile::TempDir) -> AppPaths {
    AppPaths { dir: dir.path().join("config") }
}

/// X, Y and Z flip and turn the copy before it is pasted, as Tiled's
/// stamp keys do; with nothing copied they say so.
#[test]
fn a_copy_flips_and_turns_before_it_is_pasted() {
    let mut ed = flawed_editor();
    ed.select_level("unfair-race");
    ed.key(Modifiers::NONE, Key::Z);
    assert!(ed.app().status().contains("Nothing is copied"), "{}", ed.app().status());
    // A wall on a7 and a crate on b7, above floor: "#i" over "..".
    ed.click("Wall brush");
    ed.click_cell(c("a7"), PointerButton::Primary);
    ed.click("Crate");
    ed.click_cell(c("b7"), PointerButton::Primary);
    ed.key(Modifiers::NONE, Key::A);
    ed.drag(&[c("a7"), c("b6")], PointerButton::Primary);
    ed.key(Modifiers::COMMAND, Key::C);
    ed.key(Modifiers::NONE, Key::Z);
    assert!(ed.app().status().contains("turned a quarter clockwise (2 × 2)"), "{}", ed.app().status());
    assert!(ed.app().stamp().is_some(), "pasting the turned copy");
    ed.click_cell(c("f4"), PointerButton::Primary);
    // Turned: ".#" over ".i", top-left on f4.
    let level = ed.level().clone();
    assert!(level.walls.has(c("g4")) && !level.walls.has(c("f4")), "the wall turned to the top right");
    assert!(
        level.crates.contains_key(&c("g3")) && !level.crates.contains_key(&c("f3")),
        "the crate below it"
    );
    ed.key(Modifiers::NONE, Key::X);
    ed.click_cell(c("a3"), PointerButton::Primary);
    assert!(
        ed.level().walls.has(c("a3")) && ed.level().crates.contains_key(&c("a2")),
        "flipped left to right"
    );
    ed.key(Modifiers::NONE, Key::Y);
    ed.click_cell(c("h8"), PointerButton::Primary);
    assert!(
        ed.level().crates.contains_key(&c("h8")) && ed.level().walls.has(c("h7")),
        "flipped top to bottom"
    );
}

/// A level dragged by its name in the list moves there (Tiled, LDtk), one
/// undo step, and stays the level being edited.
#[test]
fn a_level_dragged_in_the_list_moves_there() {
    let mut ed = flawed_editor();
    let ids = |ed: &Editor| ed.app().doc().pack().levels.iter().map(|l| l.id.clone()).collect::<Vec<_>>();
    let before = ids(&ed);
    assert_eq!(before[0], "unfair-race");
    let tiny = before.iter().position(|id| id == "tiny").unwrap();
    let from = ed.harness.get_by_label("tiny · Tiny").rect().center();
    let onto = ed.harness.get_by_label("chokepoints · Chokepoints").rect();
    // Above the middle of the second row: between the first and second.
    let to = egui::pos2(from.x, onto.top() + 2.0);
    ed.harness.event(Event::PointerMoved(from));
    ed.harness.event(Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    ed.settle();
    for step in 1..=10 {
        let t = step as f32 / 10.0;
        ed.harness.event(Event::PointerMoved(from + (to - from) * t));
        ed.settle();
    }
    ed.harness.event(Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    ed.settle();
    let after = ids(&ed);
    assert_eq!(after[1], "tiny", "{after:?}");
    assert_eq!(after.len(), before.len());
    assert_eq!(ed.level().id, before[0], "the level being edited stays so");
    let mut expected = before.clone();
    let moved = expected.remove(tiny);
    expected.insert(1, moved);
    assert_eq!(after, expected);
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(ids(&ed), before, "one undo step");
}

/// The undo history (View ▸ Undo history, as in Tiled) names each step by
/// what it did; a click on a step goes to the state after it, undoing or
/// redoing as many steps as it takes.
#[test]
fn the_undo_history_names_each_step_and_goes_to_any() {
    let mut ed = flawed_editor();
    ed.select_level("unfair-race");
    let opened = ed.level().clone();
    ed.click("Wall brush");
    ed.click_cell(c("a7"), PointerButton::Primary);
    ed.click("Crate");
    ed.click_cell(c("b7"), PointerButton::Primary);
    ed.drag(&[c("c6"), c("e6")], PointerButton::Primary);
    let last = ed.level().clone();
    ed.send(Command::ToggleHistory);
    assert!(ed.app().showing_history());
    for label in
        ["Opened", "Wall on a7 (unfair-race)", "Crate on b7 (unfair-race)", "Crate on c6 (unfair-race)"]
    {
        assert!(ed.harness.query_by_label(label).is_some(), "{label} is listed");
    }
    ed.click("Opened");
    assert_eq!(ed.level(), &opened, "back to the pack as opened");
    assert!(ed.harness.query_by_label("Crate on c6 (unfair-race)").is_some(), "undone steps stay listed");
    ed.click("Crate on b7 (unfair-race)");
    assert!(ed.level().walls.has(c("a7")) && ed.level().crates.contains_key(&c("b7")));
    assert!(!ed.level().crates.contains_key(&c("c6")), "the stroke after it stays undone");
    ed.click("Crate on c6 (unfair-race)");
    assert_eq!(ed.level(), &last, "the stroke, three crates, is one step");
    ed.send(Command::ToggleHistory);
    assert!(ed.harness.query_by_label("Wall on a7 (unfair-race)").is_none(), "closed");
}

/// At 1280 × 800, with the level panel at its usual width, every rule's
/// default is shown whole, inside the panel (it was cut to "d…").
#[test]
fn the_rules_defaults_fit_the_level_panel() {
    let mut ed = flawed_editor();
    ed.click("Pack and rules");
    let defaults: Vec<egui::Rect> =
        ed.harness.query_all_by_label_contains("default ").map(|node| node.rect()).collect();
    assert_eq!(defaults.len(), pushcrate::rules::RuleOption::ALL.len());
    let panel = ed.harness.get_by_label("Pack and rules").rect();
    for rect in defaults {
        assert!(rect.right() <= panel.left() + 272.0, "{rect:?} reaches past the panel");
        assert!(rect.width() > 40.0, "whole, not cut short: {rect:?}");
    }
}

/// Suggest fixes searches up to the number of edits the designer chooses,
/// 1 to 3, as `repair --max-edits` does on the command line.
#[test]
fn suggest_fixes_takes_the_number_of_edits_from_one_to_three() {
    let mut ed = flawed_editor();
    play(&mut ed, "unfair-race");
    ed.click("Balance");
    assert!(ed.harness.query_by_label("Edits, at most").is_some());
    assert_eq!(sandbox(&ed).fixes().edits(), 1, "one edit by default");
    ed.send(Command::Set(Setting::FixEdits(3)));
    assert_eq!(sandbox(&ed).fixes().edits(), 3);
    ed.send(Command::Set(Setting::FixEdits(9)));
    assert_eq!(sandbox(&ed).fixes().edits(), 3, "at most three");
    ed.send(Command::Set(Setting::FixEdits(0)));
    assert_eq!(sandbox(&ed).fixes().edits(), 1, "at least one");
}

/// At 1280 × 800, the analysis stays in sight with the expectations and
/// the heat map's legend open: it comes right under the level's fields.
#[test]
fn the_analysis_stays_in_sight_with_expectations_and_heat_map_open() {
    let mut ed = flawed_editor();
    ed.select_level("crates");
    ed.send(Command::ToggleOverlay(pushcrate::editor::command::Overlay::Distances));
    ed.harness.get_by_label_contains("Expectations (").click();
    ed.settle();
    let analysis = ed.harness.get_by_label("Analysis").rect();
    assert!(analysis.bottom() < 560.0, "the analysis heading is high in the panel: {analysis:?}");
    let first_finding = ed.harness.query_all_by_label_contains("A0").map(|n| n.rect()).next();
    if let Some(rect) = first_finding {
        assert!(rect.bottom() < 800.0, "its first finding is on screen: {rect:?}");
    }
}

/// The path field takes the keyboard as the dialog opens, the file's name
/// selected: typing replaces the name and keeps the folder and the
/// extension, with no click first. Escape cancels.
#[test]
fn the_path_field_takes_typing_at_once_and_escape_cancels() {
    let (_dir, mut harness) = saving_without_file_dialogs();
    let Some(Modal::AskPath { path: suggested, .. }) = harness.state().modal().cloned() else {
        panic!("no path field");
    };
    harness.event(Event::Text("mine".to_owned()));
    harness.run();
    let Some(Modal::AskPath { path: typed, .. }) = harness.state().modal().cloned() else {
        panic!("the dialog closed");
    };
    let folder = std::path::Path::new(&suggested).parent().unwrap();
    assert_eq!(std::path::Path::new(&typed), folder.join("mine.toml"), "from {suggested}");
    harness.key_press(Key::Escape);
    harness.run();
    assert!(harness.state().modal().is_none(), "Escape cancels the dialog");
    assert_eq!(harness.state().doc().path(), None, "and nothing was saved");
}

/// The status bar names the cell under the pointer at once, not after the
/// pointer moves again (it is drawn before the board, which finds it).
#[test]
fn the_status_bar_names_the_cell_under_the_pointer_without_waiting() {
    let mut ed = flawed_editor();
    for name in ["c5", "d5"] {
        let pos = ed.cell_pos(name.parse().unwrap());
        ed.harness.event(Event::PointerMoved(pos));
        ed.settle();
        assert!(ed.harness.query_by_label(&format!("{name:>3}")).is_some(), "the status bar names {name}");
    }
    ed.click_cell("e5".parse().unwrap(), PointerButton::Primary);
    assert!(ed.harness.query_by_label(" e5").is_some(), "and the cell clicked");
}
