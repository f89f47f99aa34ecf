//! The options a level pack may set in its `[rules]` table.

use std::fmt;
use std::str::FromStr;

/// Which jumps over the opponent are allowed (docs/rules.md section 4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum JumpRule {
    /// Straight over the opponent, or beside it when the cell beyond is not
    /// enterable.
    #[default]
    Diagonal,
    /// Straight over the opponent only.
    Straight,
    /// No jumps.
    None,
}

impl JumpRule {
    /// All values, in the order they are documented.
    pub const ALL: [JumpRule; 3] = [JumpRule::Diagonal, JumpRule::Straight, JumpRule::None];

    /// The value used in files: `diagonal`, `straight`, `none`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            JumpRule::Diagonal => "diagonal",
            JumpRule::Straight => "straight",
            JumpRule::None => "none",
        }
    }
}

impl fmt::Display for JumpRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A jump rule's name that is none of `diagonal`, `straight` or `none`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("`{0}` is not a jump rule (expected `diagonal`, `straight` or `none`)")]
pub struct ParseJumpRuleError(pub String);

impl FromStr for JumpRule {
    type Err = ParseJumpRuleError;
    fn from_str(s: &str) -> Result<JumpRule, ParseJumpRuleError> {
        JumpRule::ALL.into_iter().find(|j| j.name() == s).ok_or_else(|| ParseJumpRuleError(s.to_owned()))
    }
}

/// A value a rule option cannot take.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RuleValueError {
    /// The option is not a number (`jump`).
    #[error("`{}` is not a number", .0.key())]
    NotANumber(RuleOption),
    /// The value lies outside the option's range.
    #[error("`{}` must be from {low} to {high}, not {value}", option.key())]
    OutOfRange {
        /// The option.
        option: RuleOption,
        /// The value given.
        value: i64,
        /// The least value allowed.
        low: i64,
        /// The greatest value allowed.
        high: i64,
    },
}

/// The rule options of docs/rules.md, with their defaults.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// Destroyed crates that win the game (default 5).
    pub crates_to_win: u8,
    /// Crates each player may place in a game (default 6).
    pub crate_placements: u8,
    /// Extra actions gained by picking up the flag (default 2).
    pub flag_bonus_actions: u8,
    /// Actions played in all before a draw may be offered (default 50).
    pub draw_offer_after: u16,
    /// Actions that must pass after a declined offer before the same player
    /// offers again (default 20).
    pub draw_reoffer_gap: u16,
    /// Which jumps are allowed (default diagonal).
    pub jump: JumpRule,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::DEFAULT
    }
}

/// The inclusive range of `crates_to_win`. Each numeric option's range is
/// defined here once: [`Rules::set_number`] refuses a value outside it, and
/// the pack format's JSON Schema states it (`level::format`).
pub const CRATES_TO_WIN_RANGE: (i64, i64) = (1, 50);
/// The inclusive range of `crate_placements`.
pub const CRATE_PLACEMENTS_RANGE: (i64, i64) = (0, 60);
/// The inclusive range of `flag_bonus_actions`.
pub const FLAG_BONUS_ACTIONS_RANGE: (i64, i64) = (0, 8);
/// The inclusive range of `draw_offer_after` and `draw_reoffer_gap`.
pub const DRAW_ACTIONS_RANGE: (i64, i64) = (0, 10_000);

/// One option, for error messages and the editor's rules panel.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RuleOption {
    /// `crates_to_win`.
    CratesToWin,
    /// `crate_placements`.
    CratePlacements,
    /// `flag_bonus_actions`.
    FlagBonusActions,
    /// `draw_offer_after`.
    DrawOfferAfter,
    /// `draw_reoffer_gap`.
    DrawReofferGap,
    /// `jump`.
    Jump,
}

impl RuleOption {
    /// Every option, in file order.
    pub const ALL: [RuleOption; 6] = [
        RuleOption::CratesToWin,
        RuleOption::CratePlacements,
        RuleOption::FlagBonusActions,
        RuleOption::DrawOfferAfter,
        RuleOption::DrawReofferGap,
        RuleOption::Jump,
    ];

    /// The key in the `[rules]` table.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            RuleOption::CratesToWin => "crates_to_win",
            RuleOption::CratePlacements => "crate_placements",
            RuleOption::FlagBonusActions => "flag_bonus_actions",
            RuleOption::DrawOfferAfter => "draw_offer_after",
            RuleOption::DrawReofferGap => "draw_reoffer_gap",
            RuleOption::Jump => "jump",
        }
    }

    /// The inclusive range of a numeric option; `None` for `jump`.
    #[must_use]
    pub const fn range(self) -> Option<(i64, i64)> {
        match self {
            RuleOption::CratesToWin => Some(CRATES_TO_WIN_RANGE),
            RuleOption::CratePlacements => Some(CRATE_PLACEMENTS_RANGE),
            RuleOption::FlagBonusActions => Some(FLAG_BONUS_ACTIONS_RANGE),
            RuleOption::DrawOfferAfter | RuleOption::DrawReofferGap => Some(DRAW_ACTIONS_RANGE),
            RuleOption::Jump => None,
        }
    }

    /// The option with this key.
    #[must_use]
    pub fn from_key(key: &str) -> Option<RuleOption> {
        RuleOption::ALL.into_iter().find(|o| o.key() == key)
    }
}

impl Rules {
    /// The rules of docs/rules.md with no option changed.
    pub const DEFAULT: Rules = Rules {
        crates_to_win: 5,
        crate_placements: 6,
        flag_bonus_actions: 2,
        draw_offer_after: 50,
        draw_reoffer_gap: 20,
        jump: JumpRule::Diagonal,
    };

    /// The numeric value of `option` (0 for `jump`).
    #[must_use]
    pub const fn number(&self, option: RuleOption) -> i64 {
        match option {
            RuleOption::CratesToWin => self.crates_to_win as i64,
            RuleOption::CratePlacements => self.crate_placements as i64,
            RuleOption::FlagBonusActions => self.flag_bonus_actions as i64,
            RuleOption::DrawOfferAfter => self.draw_offer_after as i64,
            RuleOption::DrawReofferGap => self.draw_reoffer_gap as i64,
            RuleOption::Jump => 0,
        }
    }

    /// Sets a numeric option. Values outside [`RuleOption::range`] are
    /// refused.
    pub fn set_number(&mut self, option: RuleOption, value: i64) -> Result<(), RuleValueError> {
        let Some((low, high)) = option.range() else {
            return Err(RuleValueError::NotANumber(option));
        };
        if !(low..=high).contains(&value) {
            return Err(RuleValueError::OutOfRange { option, value, low, high });
        }
        // In range, so the narrowing casts below cannot lose anything.
        match option {
            RuleOption::CratesToWin => self.crates_to_win = value as u8,
            RuleOption::CratePlacements => self.crate_placements = value as u8,
            RuleOption::FlagBonusActions => self.flag_bonus_actions = value as u8,
            RuleOption::DrawOfferAfter => self.draw_offer_after = value as u16,
            RuleOption::DrawReofferGap => self.draw_reoffer_gap = value as u16,
            RuleOption::Jump => {}
        }
        Ok(())
    }

    /// The options that lie outside their ranges, with a message each.
    #[must_use]
    pub fn problems(&self) -> Vec<(RuleOption, String)> {
        RuleOption::ALL
            .into_iter()
            .filter_map(|option| {
                let (lo, hi) = option.range()?;
                let value = self.number(option);
                (!(lo..=hi).contains(&value))
                    .then(|| (option, format!("`{}` must be from {lo} to {hi}, not {value}", option.key())))
            })
            .collect()
    }
}
