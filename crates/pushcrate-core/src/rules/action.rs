//! Actions and their notation (docs/rules.md section 13).

use std::fmt;
use std::str::FromStr;

use super::types::Cell;

/// One action, as a player names it.
///
/// A step, a jump and a push are all written as one cell: where the mover
/// lands for a step or a jump, the crate's cell for a push. The position
/// tells them apart, so [`Action::Move`] covers all three; see
/// [`ActionKind`] for what an action does in a given position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Action {
    /// Step, jump or push, named by its cell: `e2`.
    Move(Cell),
    /// Place a new intact crate: `+c3`.
    Place(Cell),
    /// Take the flag from the adjacent carrier: `x`.
    Steal,
    /// Pass, when nothing else is legal: `pass`.
    Pass,
}

/// What a legal action does in its position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ActionKind {
    /// Move to an adjacent cell.
    Step,
    /// Move over the opponent.
    Jump,
    /// Push a crate one cell on; the mover takes its place.
    Slide,
    /// Push a crate that cannot move: it goes one stage on.
    Break,
    /// Place a crate.
    Place,
    /// Steal the flag.
    Steal,
    /// Pass.
    Pass,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(cell) => write!(f, "{cell}"),
            Action::Place(cell) => write!(f, "+{cell}"),
            Action::Steal => f.write_str("x"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

/// Text that is not an action in the notation of docs/rules.md section 13.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an action (expected a cell such as `e2`, a placement such as `+c3`, `x` or `pass`)")]
pub struct ParseActionError(pub String);

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let err = || ParseActionError(s.to_owned());
        match s {
            "x" => Ok(Action::Steal),
            "pass" => Ok(Action::Pass),
            _ => match s.strip_prefix('+') {
                Some(rest) => rest.parse().map(Action::Place).map_err(|_| err()),
                None => s.parse().map(Action::Move).map_err(|_| err()),
            },
        }
    }
}

/// Parses actions separated by white space.
pub fn parse_actions(text: &str) -> Result<Vec<Action>, ParseActionError> {
    text.split_whitespace().map(str::parse).collect()
}

/// Writes actions separated by single spaces.
#[must_use]
pub fn format_actions(actions: &[Action]) -> String {
    let mut out = String::new();
    for (i, action) in actions.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&action.to_string());
    }
    out
}

/// A list of actions on the stack: move generation never allocates.
#[derive(Clone, Copy)]
pub struct ActionList {
    actions: [Action; ActionList::CAPACITY],
    len: u8,
}

impl ActionList {
    /// More than any position can have: five moves, one placement per cell,
    /// a steal.
    pub const CAPACITY: usize = 128;

    /// An empty list.
    #[must_use]
    pub const fn new() -> ActionList {
        ActionList { actions: [Action::Pass; ActionList::CAPACITY], len: 0 }
    }

    /// Appends an action.
    #[inline]
    pub fn push(&mut self, action: Action) {
        debug_assert!((self.len as usize) < ActionList::CAPACITY);
        self.actions[self.len as usize] = action;
        self.len += 1;
    }

    /// Number of actions.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the list is empty.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The actions as a slice.
    #[must_use]
    pub fn as_slice(&self) -> &[Action] {
        &self.actions[..self.len as usize]
    }

    /// The actions as a mutable slice, for reordering.
    pub fn as_mut_slice(&mut self) -> &mut [Action] {
        &mut self.actions[..self.len as usize]
    }

    /// The actions, sorted: moves by cell, then placements, steal, pass.
    #[must_use]
    pub fn sorted(&self) -> Vec<Action> {
        let mut v = self.as_slice().to_vec();
        v.sort();
        v
    }

    /// Whether `action` is in the list.
    #[must_use]
    pub fn contains(&self, action: Action) -> bool {
        self.as_slice().contains(&action)
    }
}

impl Default for ActionList {
    fn default() -> ActionList {
        ActionList::new()
    }
}

impl std::ops::Deref for ActionList {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        self.as_slice()
    }
}

impl fmt::Debug for ActionList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for text in ["e2", "+c3", "x", "pass", "k11", "+a1"] {
            let action: Action = text.parse().unwrap();
            assert_eq!(action.to_string(), text);
        }
        for bad in ["", "+", "++c3", "X", "Pass", "e0", "+z9", "e2+"] {
            assert!(bad.parse::<Action>().is_err(), "{bad:?}");
        }
        assert_eq!(parse_actions(" e2  e8 +c3 ").unwrap().len(), 3);
        assert_eq!(format_actions(&parse_actions("e2 e8 +c3 x pass").unwrap()), "e2 e8 +c3 x pass");
    }
}
