//! The document's edits: a tool's paint, a stroke, a field, a resize, undo and redo.

use super::EditorApp;
use crate::editor::command::{Command, FormField};
use crate::rules::Player;

impl EditorApp {
    /// Runs a command of this area ([`EditorApp::apply`] has checked it).
    pub(super) fn apply_edit(&mut self, command: Command) {
        match command {
            Command::UndoTo(done) => {
                self.doc.go_to(done);
                self.selected_finding = None;
            }
            Command::Undo => {
                self.doc.undo();
                self.selected_finding = None;
            }
            Command::Redo => {
                self.doc.redo();
                self.selected_finding = None;
            }
            Command::Resize(w, h) => self.doc.apply(crate::level::edit::EditOp::Resize(w, h), None),
            Command::ClearLevel => self.doc.apply(crate::level::edit::EditOp::Clear, None),
            Command::SetField(field) => self.set_field(field),
            Command::Paint(op) => {
                let goals_before = self.default_goal_ranks();
                self.doc.apply(op, self.prefs.mirror);
                self.selected_finding = None;
                // A start square that changes rank takes its default goal
                // rank with it: say so, since nothing on the tool does.
                for (player, (before, after)) in
                    Player::BOTH.into_iter().zip(goals_before.into_iter().zip(self.default_goal_ranks()))
                {
                    if let (Some(before), Some(after)) = (before, after)
                        && before != after
                    {
                        self.say(format!(
                            "{player}'s goal rank moved with its start square, from rank {} to rank {} (its goals are at their default: the start square's rank). Undo takes both back; Goal cells {} sets them apart.",
                            before + 1,
                            after + 1,
                            player.number()
                        ));
                    }
                }
            }
            Command::BeginStroke => self.doc.begin_stroke(),
            Command::EndStroke => self.doc.end_stroke(),
            // `apply` sends each area only its own commands.
            _ => {}
        }
    }

    /// Applies a form's change to the pack or the current level.
    pub(super) fn set_field(&mut self, field: FormField) {
        let Some(key) = field.typing_key() else {
            match field {
                // The form's widgets keep the value within the option's
                // range, so a refusal cannot happen; if it did, the rule
                // would stay as it was, which is the right outcome.
                FormField::Rule(option, value) => self.doc.edit(|pack, _| {
                    pack.rules.set_number(option, value).ok();
                }),
                FormField::Jump(jump) => self.doc.edit(|pack, _| pack.rules.jump = jump),
                FormField::First(p) => self.doc.edit(|pack, i| pack.levels[*i].first = p),
                FormField::Expectations(expect) => self.doc.edit(|pack, i| pack.levels[*i].expect = expect),
                FormField::DefaultGoals(p) => {
                    self.doc.apply(crate::level::edit::EditOp::DefaultGoals(p), None);
                }
                _ => {}
            }
            return;
        };
        let text = |t: String| Some(t).filter(|t| !t.is_empty());
        self.doc.edit_text(key, |pack, i| match field {
            FormField::PackName(name) => pack.name = name,
            FormField::PackAuthor(author) => pack.author = text(author),
            FormField::PackDescription(description) => pack.description = text(description),
            FormField::LevelId(id) => pack.levels[i].id = id,
            FormField::LevelName(name) => pack.levels[i].name = name,
            FormField::LevelAuthor(author) => pack.levels[i].author = text(author),
            FormField::LevelTags(tags) => {
                pack.levels[i].tags =
                    tags.split(',').map(str::trim).filter(|t| !t.is_empty()).map(String::from).collect();
            }
            FormField::LevelNotes(notes) => pack.levels[i].notes = text(notes),
            FormField::Rule(..)
            | FormField::Jump(_)
            | FormField::First(_)
            | FormField::DefaultGoals(_)
            | FormField::Expectations(_) => {}
        });
    }

    /// The rank of each player's start square where its goals are at their
    /// default (the start square's rank), else `None`.
    pub(super) fn default_goal_ranks(&self) -> [Option<u8>; 2] {
        let Some(level) = self.doc.level() else { return [None, None] };
        Player::BOTH.map(|p| if level.goals[p].is_none() { level.starts[p].map(|s| s.rank()) } else { None })
    }
}
