//! [`Playable`]: a level that has been checked once and can be played.

use crate::rules::{GameState, Piece, Player, Rules, SetupError, SetupProblem};

use super::pack::Level;

/// A level, the rules it is played under and its starting position, built
/// only by [`Playable::new`], which lists every problem that keeps a level
/// from being played. Whatever plays, checks, repairs, estimates or
/// exports a level takes one, so none of them handles an unplayable level
/// on its own.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Playable {
    level: Level,
    rules: Rules,
    start: GameState,
}

impl Playable {
    /// `level` under `rules`, or every problem that keeps it from a start:
    /// never an empty list.
    pub fn new(level: Level, rules: Rules) -> Result<Playable, SetupError> {
        let start = start_of(&level, rules)?;
        Ok(Playable { level, rules, start })
    }

    /// The level as it was checked.
    #[must_use]
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The level's id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.level.id
    }

    /// The rules it is played under.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Its starting position.
    #[must_use]
    pub fn start(&self) -> &GameState {
        &self.start
    }

    /// The level, given back.
    #[must_use]
    pub fn into_level(self) -> Level {
        self.level
    }
}

impl Level {
    /// The level checked under `rules`: see [`Playable::new`].
    pub fn playable(&self, rules: Rules) -> Result<Playable, SetupError> {
        Playable::new(self.clone(), rules)
    }

    /// The starting position of the level under `rules`, or every problem
    /// that keeps it from one: never an empty list. [`Level::playable`]'s
    /// start, by the same check, for code that wants the position alone
    /// (the level is not copied).
    pub fn start_state(&self, rules: Rules) -> Result<GameState, SetupError> {
        start_of(self, rules)
    }
}

/// The one check of a level: its start under `rules`, or every problem
/// that keeps it from one, never an empty list.
fn start_of(level: &Level, rules: Rules) -> Result<GameState, SetupError> {
    let Some(setup) = level.setup(rules) else {
        // `setup` fails only when a start square or the flag's cell is
        // missing, so this list names at least one of them.
        let missing = Player::BOTH
            .into_iter()
            .filter(|&p| level.starts[p].is_none())
            .map(|p| SetupProblem::Missing(Piece::Start(p)))
            .chain(level.flag_cell().is_none().then_some(SetupProblem::Missing(Piece::Flag)));
        return Err(SetupError(missing.collect()));
    };
    GameState::new(&setup)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Pack;

    #[test]
    fn a_bundled_level_is_playable_and_keeps_its_parts() {
        let pack = Pack::bundled();
        let level = pack.level("open").unwrap().clone();
        let playable = Playable::new(level.clone(), pack.rules).unwrap();
        assert_eq!(playable.id(), "open");
        assert_eq!(playable.level(), &level);
        assert_eq!(playable.rules(), pack.rules);
        assert_eq!(playable.start().turn(), level.first);
        assert!(playable.start().outcome().is_none());
    }

    #[test]
    fn every_problem_is_named_and_the_list_is_never_empty() {
        let pack = Pack::bundled();
        let mut level = pack.level("open").unwrap().clone();
        level.starts.one = None;
        level.starts.two = None;
        let SetupError(problems) = Playable::new(level.clone(), pack.rules).unwrap_err();
        assert_eq!(
            problems,
            vec![
                SetupProblem::Missing(Piece::Start(Player::One)),
                SetupProblem::Missing(Piece::Start(Player::Two))
            ]
        );
        // A level with all its pieces that breaks a rule names that rule.
        let mut walled = pack.level("open").unwrap().clone();
        walled.walls.insert(walled.flag_cell().unwrap());
        let SetupError(problems) = Playable::new(walled, pack.rules).unwrap_err();
        assert!(!problems.is_empty());
        assert!(problems.iter().all(SetupProblem::is_error));
    }
}
