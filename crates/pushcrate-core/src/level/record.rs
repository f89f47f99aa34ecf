//! Game records: a level id and the actions played, in the notation of
//! docs/rules.md section 13.
//!
//! The text form is one line: the level id, optionally `@` and the level's
//! layout fingerprint (16 hex digits), a colon, then the actions separated
//! by spaces — `open@5be4d2f1a08c3e77: e2 e8 +c3 x`. Level ids hold no `@`,
//! colon or space, so the form reads back unambiguously. A record with a
//! fingerprint replays only on the layout it was played on: a level edited
//! since is refused by name, not replayed into nonsense.

use std::fmt;
use std::str::FromStr;

use super::validate::is_valid_id;
use super::{Level, Pack};
use crate::rules::{
    Action, GameState, IllegalAction, ParseActionError, Player, RuleOption, Rules, parse_actions,
};

/// A game: which level, on which layout, and every action in order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    /// The level's id in its pack.
    pub level: String,
    /// The fingerprint of the layout and rules the game was played on
    /// ([`layout_fingerprint`]); `None` in records that do not name one.
    pub layout: Option<u64>,
    /// The actions, bonus actions and passes included.
    pub actions: Vec<Action>,
}

/// A fingerprint of everything about `level` and `rules` that play depends
/// on — size, walls, start squares, goal cells, the flag's cell, crates,
/// who moves first and every rule option — and of nothing else (not its
/// id, name or notes). FNV-1a over a canonical text, so that it is the same
/// on every machine and in every version that keeps that text.
#[must_use]
pub fn layout_fingerprint(level: &Level, rules: Rules) -> u64 {
    let mut text = format!("{}x{}\n{}", level.width, level.height, super::format::map_text(level));
    for player in Player::BOTH {
        let start = level.starts[player].map(|c| c.to_string()).unwrap_or_default();
        let goals: Vec<String> = level.goal_cells(player).iter().map(|c| c.to_string()).collect();
        text.push_str(&format!("p{} {start} {}\n", player.number(), goals.join(",")));
    }
    let flag = level.flag_cell().map(|c| c.to_string()).unwrap_or_default();
    let crates: Vec<String> = level.crates.iter().map(|(cell, stage)| format!("{cell}:{stage}")).collect();
    text.push_str(&format!("flag {flag}\ncrates {}\nfirst {}\n", crates.join(","), level.first.number()));
    for option in RuleOption::ALL {
        match option {
            RuleOption::Jump => text.push_str(&format!("jump {}\n", rules.jump.name())),
            _ => text.push_str(&format!("{} {}\n", option.key(), rules.number(option))),
        }
    }
    text.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
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
    /// The fingerprint is not 16 hex digits.
    #[error("`{0}` is not a layout fingerprint (16 hex digits after `@`)")]
    BadFingerprint(String),
    /// The level was edited since the game was played.
    #[error(
        "the game was played on another layout of level `{level}` (fingerprint {recorded:016x}; the level's is now {now:016x}): it was edited since, so the game cannot be replayed on it"
    )]
    LayoutChanged {
        /// The level.
        level: String,
        /// The record's fingerprint.
        recorded: u64,
        /// The level's now.
        now: u64,
    },
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
        GameRecord { level: level.into(), layout: None, actions: Vec::new() }
    }

    /// The start of a game on `level` under `rules`, its layout named.
    #[must_use]
    pub fn on(level: &Level, rules: Rules) -> GameRecord {
        GameRecord {
            level: level.id.clone(),
            layout: Some(layout_fingerprint(level, rules)),
            actions: Vec::new(),
        }
    }

    /// Whether the record may be replayed on `level` under `rules`: its
    /// fingerprint, if it has one, must be the level's.
    pub fn check_layout(&self, level: &Level, rules: Rules) -> Result<(), RecordError> {
        let Some(recorded) = self.layout else { return Ok(()) };
        let now = layout_fingerprint(level, rules);
        if recorded == now {
            Ok(())
        } else {
            Err(RecordError::LayoutChanged { level: self.level.clone(), recorded, now })
        }
    }

    /// The level's starting position in `pack`.
    pub fn start(&self, pack: &Pack) -> Result<GameState, RecordError> {
        let level = pack.level(&self.level).ok_or_else(|| RecordError::UnknownLevel(self.level.clone()))?;
        self.check_layout(level, pack.rules)?;
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
        write!(f, "{}", self.level)?;
        if let Some(layout) = self.layout {
            write!(f, "@{layout:016x}")?;
        }
        f.write_str(":")?;
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
        let (level, layout) = match level.trim().split_once('@') {
            Some((level, hex)) => {
                let valid = hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit());
                let layout = u64::from_str_radix(hex, 16).ok().filter(|_| valid);
                (level, Some(layout.ok_or_else(|| RecordError::BadFingerprint(hex.to_owned()))?))
            }
            None => (level.trim(), None),
        };
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
        Ok(GameRecord { level: level.to_owned(), layout, actions })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_names_the_layout_and_rules_and_nothing_else() {
        let pack = Pack::bundled_flawed();
        let tiny = pack.level("tiny").unwrap();
        let fingerprint = layout_fingerprint(tiny, pack.rules);
        // Pinned: records written by earlier versions must keep replaying.
        assert_eq!(format!("{fingerprint:016x}"), "598e2b8f42940afe");
        let mut renamed = tiny.clone();
        renamed.id = "other".into();
        renamed.name = "Another name".into();
        renamed.notes = Some("notes".into());
        assert_eq!(layout_fingerprint(&renamed, pack.rules), fingerprint);
        let mut moved = tiny.clone();
        moved.first = moved.first.other();
        assert_ne!(layout_fingerprint(&moved, pack.rules), fingerprint);
        let more = Rules { crate_placements: 7, ..pack.rules };
        assert_ne!(layout_fingerprint(tiny, more), fingerprint);

        let record = GameRecord { actions: vec!["c2".parse().unwrap()], ..GameRecord::on(tiny, pack.rules) };
        let text = record.to_string();
        assert_eq!(text, format!("tiny@{fingerprint:016x}: c2"));
        assert_eq!(text.parse::<GameRecord>().unwrap(), record);
        assert!(matches!("tiny@12: c2".parse::<GameRecord>(), Err(RecordError::BadFingerprint(_))));
    }

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
