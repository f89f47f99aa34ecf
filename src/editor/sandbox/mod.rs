//! The sandbox: what play mode does with the current level, in four parts
//! that each own their state and their background job — the game
//! ([`Game`]), the balance check ([`BalanceRun`]), the search for fixes
//! ([`FixSearch`]) and the skill trace ([`SkillTrace`]). The level itself
//! is never changed by play.

mod balance;
mod fixes;
mod game;
mod skill;

pub use balance::{BALANCE_CHOICES, BalanceResult, BalanceRun};
pub use fixes::FixSearch;
pub use game::{Game, MOTION, Motion, SandboxError, Seat, announce};
pub use skill::SkillTrace;

use crate::level::Playable;

/// Play mode on one level: its game and the checks run on it.
pub struct Sandbox {
    game: Game,
    balance: BalanceRun,
    fixes: FixSearch,
    skill: SkillTrace,
}

impl Sandbox {
    /// A new game on `playable`, no check run yet.
    #[must_use]
    pub fn new(playable: Playable) -> Sandbox {
        Sandbox {
            game: Game::new(playable),
            balance: BalanceRun::default(),
            fixes: FixSearch::default(),
            skill: SkillTrace::default(),
        }
    }

    /// Takes the designer's choices of `old` (who plays, the speed, how
    /// the panel checks balance and fixes), which are for the pack, not
    /// for one level.
    #[must_use]
    pub fn keeping_choices_of(mut self, old: &Sandbox) -> Sandbox {
        self.game.keep_choices_of(&old.game);
        self.balance.keep_choices_of(&old.balance);
        self.fixes.keep_choices_of(&old.fixes);
        self
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, to play.
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// The balance check.
    #[must_use]
    pub fn balance(&self) -> &BalanceRun {
        &self.balance
    }

    /// The balance check, to set up or run.
    pub fn balance_mut(&mut self) -> &mut BalanceRun {
        &mut self.balance
    }

    /// The search for fixes.
    #[must_use]
    pub fn fixes(&self) -> &FixSearch {
        &self.fixes
    }

    /// The search for fixes, to set up or run.
    pub fn fixes_mut(&mut self) -> &mut FixSearch {
        &mut self.fixes
    }

    /// The skill trace.
    #[must_use]
    pub fn skill(&self) -> &SkillTrace {
        &self.skill
    }

    /// Starts the chosen balance check of the level ([`BalanceRun::start`]).
    pub fn start_balance(&mut self, seed: u64) {
        self.balance.start(self.game.playable(), seed);
    }

    /// Starts a search for fixes ([`FixSearch::start`]), confirmed by the
    /// balance check the panel has chosen (the default: expert and deep)
    /// with its number of games as the cap.
    pub fn start_fixes(&mut self, seed: u64) {
        self.fixes.start(self.game.playable(), self.balance.plan(), self.balance.cap(), seed);
    }

    /// Starts the skill trace ([`SkillTrace::start`]).
    pub fn start_skill_trace(&mut self, seed: u64) {
        self.skill.start(self.game.playable(), seed);
    }

    /// Takes what the background jobs have finished. Returns whether
    /// anything came.
    pub fn poll_jobs(&mut self) -> bool {
        let balance = self.balance.poll();
        let fixes = self.fixes.poll();
        let skill = self.skill.poll();
        balance || fixes || skill
    }

    /// Whether a check, a search or a trace is running in the background.
    #[must_use]
    pub fn busy(&self) -> bool {
        self.balance.job().is_some() || self.fixes.job().is_some() || self.skill.job().is_some()
    }
}
