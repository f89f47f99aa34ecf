//! The small window through which the AI sees the rules.

use crate::rules::{Action, ActionList, GameState, Outcome, Player};

/// What search needs of a game: nothing more. Rules know nothing of search;
/// search knows the rules only through this trait.
pub trait Game: Copy {
    /// The player to move.
    fn to_move(&self) -> Player;
    /// The legal actions; empty when the game is over.
    fn actions(&self) -> ActionList;
    /// Plays a legal action.
    fn apply(&mut self, action: Action);
    /// `None` while the game goes on; `Some(Some(p))` when `p` has won,
    /// `Some(None)` for a draw.
    fn result(&self) -> Option<Option<Player>>;
    /// A hash of the position for transposition tables.
    fn key(&self) -> u64;
}

impl Game for GameState {
    fn to_move(&self) -> Player {
        self.turn()
    }

    fn actions(&self) -> ActionList {
        self.legal_actions()
    }

    fn apply(&mut self, action: Action) {
        self.play_unchecked(action);
    }

    fn result(&self) -> Option<Option<Player>> {
        self.outcome().map(|o| match o {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw => None,
        })
    }

    fn key(&self) -> u64 {
        self.hash()
    }
}
