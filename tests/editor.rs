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
use pushcrate::editor::files::{AppPaths, FileDialogs};
use pushcrate::editor::{EditorApp, Modal};
use pushcrate::level::format::parse_pack;
use pushcrate::rules::{Cell, Player, Stage};

use crate::support::c;

/// Dialogs that answer from a queue, as a user picking files would.
#[derive(Clone, Default)]
struct FakeDialogs {
    answers: Rc<RefCell<VecDeque<Option<PathBuf>>>>,
}

impl FakeDialogs {
    fn answer(&self, path: Option<PathBuf>) {
        self.answers.borrow_mut().push_back(path);
    }
}

impl FileDialogs for FakeDialogs {
    fn open(&mut self) -> Option<PathBuf> {
        self.answers.borrow_mut().pop_front().flatten()
    }

    fn save(&mut self, _name: &str, _extension: &str) -> Option<PathBuf> {
        self.answers.borrow_mut().pop_front().flatten()
    }
}

struct Editor {
    harness: Harness<'static, EditorApp>,
    dialogs: FakeDialogs,
    dir: tempfile::TempDir,
}

fn editor() -> Editor {
    let dir = tempfile::tempdir().unwrap();
    editor_in(dir)
}

fn editor_in(dir: tempfile::TempDir) -> Editor {
    let dialogs = FakeDialogs::default();
    let app = EditorApp::new(Box::new(dialogs.clone()), AppPaths { dir: dir.path().to_path_buf() });
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    harness.run();
    Editor { harness, dialogs, dir }
}

impl Editor {
    fn app(&self) -> &EditorApp {
        self.harness.state()
    }

    fn cell_pos(&self, cell: Cell) -> Pos2 {
        let rect = self.harness.get_by_label("Board").rect();
        let level = self.app().doc.level().unwrap();
        BoardLayout::new(rect, level.width, level.height).cell_rect(cell).center()
    }

    fn press(&mut self, pos: Pos2, button: PointerButton, pressed: bool) {
        self.harness.event(Event::PointerMoved(pos));
        self.harness.event(Event::PointerButton { pos, button, pressed, modifiers: Modifiers::NONE });
        self.harness.run();
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
            self.harness.run();
        }
        let last = self.cell_pos(*cells.last().unwrap());
        self.press(last, button, false);
    }

    fn click(&mut self, label: &str) {
        self.harness.get_by_label(label).click();
        self.harness.run();
    }

    fn key(&mut self, modifiers: Modifiers, key: Key) {
        self.harness.key_press_modifiers(modifiers, key);
        self.harness.run();
    }

    fn level(&self) -> &pushcrate::level::Level {
        self.app().doc.level().unwrap()
    }

    fn select_level(&mut self, id: &str) {
        let label = {
            let level = self.app().doc.pack.level(id).unwrap();
            format!("{} · {}", level.id, level.name)
        };
        self.click(&label);
        assert_eq!(self.level().id, id);
    }
}

#[test]
fn opens_on_the_bundled_pack_as_an_unsaved_copy() {
    let ed = editor();
    assert_eq!(ed.app().doc.path, None);
    assert!(!ed.app().doc.is_dirty());
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
    assert!(ed.app().doc.is_dirty());
    ed.click_cell(c("b3"), PointerButton::Secondary);
    assert_eq!(ed.level().walls.count(), 3, "the right button paints floor");
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(ed.level().walls.count(), 4);
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(ed.level().walls.count(), 0, "one drag stroke is one undo step");
    assert!(!ed.app().doc.is_dirty(), "undone back to the state it opened in");
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
    let count = ed.app().doc.pack.levels.len();
    ed.click("Add");
    assert_eq!(ed.app().doc.pack.levels.len(), count + 1);
    assert_eq!(ed.app().doc.current, 1);
    let added = ed.level().id.clone();
    ed.click("Up");
    assert_eq!(ed.app().doc.pack.levels[0].id, added);
    ed.click("Down");
    assert_eq!(ed.app().doc.pack.levels[1].id, added);
    ed.click("Duplicate");
    assert_eq!(ed.app().doc.pack.levels.len(), count + 2);
    assert_ne!(ed.level().id, added, "a duplicate gets a fresh id");
    ed.click("Delete");
    ed.click("Delete");
    assert_eq!(ed.app().doc.pack.levels.len(), count);
    ed.key(Modifiers::COMMAND, Key::Z);
    assert_eq!(ed.app().doc.pack.levels.len(), count + 1, "deleting undoes");
    assert!(ed.app().doc.pack.problems().iter().all(|p| !p.is_error()));
}

#[test]
fn saves_and_reopens_through_the_dialog_keeping_comments() {
    let mut ed = editor();
    let path = ed.dir.path().join("mine.toml");
    ed.drag(&[c("a5"), c("b5")], PointerButton::Primary);
    ed.dialogs.answer(Some(path.clone()));
    ed.key(Modifiers::COMMAND, Key::S);
    assert_eq!(ed.app().doc.path.as_ref(), Some(&path));
    assert!(!ed.app().doc.is_dirty());
    let saved = std::fs::read_to_string(&path).unwrap();
    assert_eq!(parse_pack(&saved).pack.unwrap(), ed.app().doc.pack);
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
    let backup = std::fs::read_to_string(pushcrate::editor::files::backup_path(&path)).unwrap();
    assert_eq!(parse_pack(&backup).pack.unwrap().levels[0].walls.count(), 2);
    // Reopen in a fresh editor.
    let mut other = editor();
    other.dialogs.answer(Some(path.clone()));
    other.key(Modifiers::COMMAND, Key::O);
    assert_eq!(other.level().walls.count(), 3);
    assert_eq!(other.app().prefs.recent.first(), Some(&path));
}

#[test]
fn asks_before_discarding_unsaved_changes() {
    let mut ed = editor();
    ed.click_cell(c("a5"), PointerButton::Primary);
    ed.key(Modifiers::COMMAND, Key::N);
    assert!(matches!(ed.app().modal, Some(Modal::Unsaved(_))));
    ed.click("Cancel");
    assert!(ed.app().modal.is_none());
    assert!(ed.level().walls.has(c("a5")), "cancel keeps the work");
    ed.key(Modifiers::COMMAND, Key::N);
    ed.click("Don't save");
    assert_eq!(ed.app().doc.pack.name, "New pack");
    assert_eq!(ed.app().doc.pack.levels.len(), 1);
    // Quitting with changes asks too.
    ed.click_cell(c("a5"), PointerButton::Primary);
    ed.key(Modifiers::COMMAND, Key::Q);
    assert!(matches!(ed.app().modal, Some(Modal::Unsaved(_))));
    assert!(!ed.app().quit_requested);
    ed.click("Don't save");
    assert!(ed.app().quit_requested);
}

#[test]
fn clicking_a_finding_highlights_it() {
    let mut ed = editor();
    ed.select_level("maze");
    // A wall under the flag: the flag stands on a wall.
    ed.click_cell(c("e5"), PointerButton::Primary);
    let findings = ed.harness.state_mut().current_findings();
    assert!(findings.iter().any(|f| f.code == "E015"), "{findings:?}");
    ed.harness.get_by_label_contains("E015").click();
    ed.harness.run();
    let selected = ed.app().selected_finding.expect("a finding is selected");
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
    assert_eq!(ed.harness.query_all_by_label_contains("A001").count(), 2, "both of player 1's routes");
    assert_eq!(ed.harness.query_all_by_label_contains("E024").count(), 2);
}

#[test]
fn a_broken_file_shows_its_diagnostics_and_changes_nothing() {
    let mut ed = editor();
    let path = ed.dir.path().join("broken.toml");
    std::fs::write(&path, "format = 1\nname = \"x\"\n[[level]]\nid = \"a\"\nwat = 3\n").unwrap();
    let before = ed.app().doc.pack.clone();
    ed.dialogs.answer(Some(path));
    ed.key(Modifiers::COMMAND, Key::O);
    let Some(Modal::Problems { lines, .. }) = &ed.app().modal else { panic!("no diagnostics") };
    assert!(lines[0].starts_with("5:1: E002"), "{lines:?}");
    assert_eq!(ed.app().doc.pack, before);
    ed.click("Close");
    assert!(ed.app().modal.is_none());
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
    assert!(matches!(app.modal, Some(Modal::Recover(_))), "the crash left work to recover");
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.ui_root(ui), app);
    harness.run();
    harness.get_by_label("Recover").click();
    harness.run();
    assert!(harness.state().doc.level().unwrap().walls.has(c("e3")));
    assert!(harness.state().doc.is_dirty(), "recovered work is not saved yet");
    let _ = std::fs::remove_dir_all(kept);
}

/// A small picture of the board: every crate stage, goals, the flag and
/// the sole-path overlay. Rendered with wgpu (lavapipe in CI).
fn board_snapshot(name: &str, id: &str, routes: bool) {
    use pushcrate::editor::board::{BoardView, paint_level};
    let pack = pushcrate::level::Pack::bundled();
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
