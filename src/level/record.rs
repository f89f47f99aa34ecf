//! Game records: a level id and the actions played, in the notation of
//! docs/rules.md section 13.
//!
//! The text form is one line: the level id, a colon, then the actions
//! separated by spaces — `open: e2 e8 +c3 x`. Level ids hold no colon or
//! space, so the form reads back unambiguously.

use std::fmt;
use std::str::FromStr;

use super::Pack;
use super::validate::is_valid_id;
use crate::rules::{Action, GameState, IllegalAction, ParseActionError, parse_actions};

/// A game: which level, and every action in order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    /// The level's id in its pack.
    pub level: String,
    /// The actions, bonus actions and passes included.
    pub actions: Vec<Action>,
}

/// Why a record cannot be read or replayed.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RecordError {
    /// No `level:` prefix.
    #[error("a game record starts with a level id and a colon, such as `open: e2 e8`")]
    MissingLevel,
    /// The level id is not valid.
    #[error("`{0}` is not a level id")]
    BadLevelId(String),
    /// An action cannot be read.
    #[error("action {index}: {source}")]
    BadAction {
        /// 1-based position in the record.
        index: usize,
        /// What is wrong with it.
        source: ParseActionError,
    },
    /// The pack has no such level.
    #[error("the pack has no level `{0}`")]
    UnknownLevel(String),
    /// The level cannot be played.
    #[error("level `{0}` has errors and cannot be played")]
    InvalidLevel(String),
    /// An action is illegal where it stands.
    #[error("action {index}, `{action}`, is illegal: {reason}")]
    Illegal {
        /// 1-based position in the record.
        index: usize,
        /// The action.
        action: Action,
        /// The rule it breaks.
        reason: IllegalAction,
    },
}

impl GameRecord {
    /// The start of a game on `level`.
    #[must_use]
    pub fn new(level: impl Into<String>) -> GameRecord {
        GameRecord { level: level.into(), actions: Vec::new() }
    }

    /// The level's starting position in `pack`.
    pub fn start(&self, pack: &Pack) -> Result<GameState, RecordError> {
        let level = pack.level(&self.level).ok_or_else(|| RecordError::UnknownLevel(self.level.clone()))?;
        level.start_state(pack.rules).map_err(|_| RecordError::InvalidLevel(self.level.clone()))
    }

    /// Every position of the game, the start included, so that a viewer can
    /// jump to any point of the log.
    pub fn positions(&self, pack: &Pack) -> Result<Vec<GameState>, RecordError> {
        let mut state = self.start(pack)?;
        let mut out = Vec::with_capacity(self.actions.len() + 1);
        out.push(state);
        for (i, &action) in self.actions.iter().enumerate() {
            state.play(action).map_err(|reason| RecordError::Illegal { index: i + 1, action, reason })?;
            out.push(state);
        }
        Ok(out)
    }

    /// The position after every action.
    pub fn replay(&self, pack: &Pack) -> Result<GameState, RecordError> {
        let mut state = self.start(pack)?;
        for (i, &action) in self.actions.iter().enumerate() {
            state.play(action).map_err(|reason| RecordError::Illegal { index: i + 1, action, reason })?;
        }
        Ok(state)
    }
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.level)?;
        for action in &self.actions {
            write!(f, " {action}")?;
        }
        Ok(())
    }
}

impl FromStr for GameRecord {
    type Err = RecordError;

    fn from_str(s: &str) -> Result<GameRecord, RecordError> {
        let (level, actions) = s.trim().split_once(':').ok_or(RecordError::MissingLevel)?;
        let level = level.trim();
        if !is_valid_id(level) {
            return Err(RecordError::BadLevelId(level.to_owned()));
        }
        let actions = match parse_actions(actions) {
            Ok(actions) => actions,
            Err(source) => {
                let index = actions.split_whitespace().position(|w| w == source.0).map_or(0, |i| i + 1);
                return Err(RecordError::BadAction { index, source });
            }
        };
        Ok(GameRecord { level: level.to_owned(), actions })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_replay() {
        let pack = Pack::bundled();
        let record: GameRecord = "open: e2 e8 +c3 e7".parse().unwrap();
        assert_eq!(record.to_string().parse::<GameRecord>().unwrap(), record);
        assert_eq!(record.replay(&pack).unwrap().actions_played(), 4);
        assert_eq!(record.positions(&pack).unwrap().len(), 5);
        assert_eq!(GameRecord::new("open").to_string(), "open:");
        assert_eq!("open:".parse::<GameRecord>().unwrap().actions, Vec::new());
    }

    #[test]
    fn bad_records_say_what_is_wrong() {
        let pack = Pack::bundled();
        assert_eq!("e2 e8".parse::<GameRecord>(), Err(RecordError::MissingLevel));
        assert!(matches!("open: e2 zz".parse::<GameRecord>(), Err(RecordError::BadAction { index: 2, .. })));
        let illegal: GameRecord = "open: e2 e3".parse().unwrap();
        assert!(matches!(illegal.replay(&pack), Err(RecordError::Illegal { index: 2, .. })));
        let unknown: GameRecord = "nowhere: e2".parse().unwrap();
        assert_eq!(unknown.replay(&pack), Err(RecordError::UnknownLevel("nowhere".into())));
    }
}
