//! The checks run on the level in play mode: the balance check, the search for fixes (and applying one), the skill trace.

use super::EditorApp;
use crate::editor::command::Command;

impl EditorApp {
    /// Runs a command of this area ([`EditorApp::apply`] has checked it).
    pub(super) fn apply_checks(&mut self, command: Command) {
        match command {
            Command::RunBalance => self.with_sandbox(|s| s.start_balance(1)),
            Command::CancelBalance => self.with_sandbox(|s| s.balance().cancel()),
            Command::SuggestFixes => self.with_sandbox(|s| s.start_fixes(1)),
            Command::CancelFixes => self.with_sandbox(|s| s.fixes().cancel()),
            Command::PreviewFix(which) => self.with_sandbox(|s| s.fixes_mut().set_preview(which)),
            Command::ApplyFix(i) => self.apply_fix(i),
            Command::RunSkillTrace => self.with_sandbox(|s| s.start_skill_trace(1)),
            Command::CancelSkillTrace => self.with_sandbox(|s| s.skill().cancel()),
            // `apply` sends each area only its own commands.
            _ => {}
        }
    }

    /// Makes proposal `i` of the last search for fixes to the level, as one
    /// undo step, and starts a new game on the repaired layout (its
    /// proposals kept, so that another can be tried after an undo).
    pub(super) fn apply_fix(&mut self, i: usize) {
        let Some(sandbox) = &self.sandbox else { return };
        let Some(found) = sandbox.fixes().found().cloned() else { return };
        let Some(proposal) = found.proposals.get(i) else { return };
        let Some(index) = self.doc.pack().level_index(&found.level) else {
            self.say("The level of these proposals is no longer in the pack.");
            return;
        };
        let level = proposal.playable.level().clone();
        self.doc.edit(|pack, current| {
            pack.levels[index] = level.clone();
            *current = index;
        });
        let edits = proposal.edits.iter().map(crate::repair::describe).collect::<Vec<_>>().join(", ");
        // The pack's rules may have changed since the search: the level is
        // checked under today's.
        match level.playable(self.doc.pack().rules) {
            Ok(playable) => {
                let mut fresh = crate::editor::sandbox::Sandbox::new(playable).keeping_choices_of(sandbox);
                fresh.fixes_mut().keep_found(found);
                self.sandbox = Some(fresh);
            }
            Err(why) => self.say(format!("The repaired level cannot be played: {why}.")),
        }
        self.say(format!("Applied proposal {}: {edits}. Undo in edit mode takes it back.", i + 1));
    }
}
