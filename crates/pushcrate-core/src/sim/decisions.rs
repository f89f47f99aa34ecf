//! Where the games of a balance check were decided: the cells where the
//! flag was picked up, stolen and carried home, where carriers were caught,
//! where the winners placed their crates and where crates broke. Drawn from
//! the check's own games by replaying them; a designer reads it as "why".

use crate::rules::{Action, ActionKind, Cell, GameState, Outcome, WinKind};

use super::GameResult;

/// What happened on a cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Event {
    /// The flag was picked up from the ground there.
    Pickup,
    /// A player stood there and stole the flag from the carrier beside it.
    Steal,
    /// A carrier was caught there: the flag dropped where it stood.
    Caught,
    /// The flag came home there: the winner's last cell in a flag win.
    Home,
    /// The eventual winner placed a crate there.
    WinnerCrate,
    /// A crate there was struck and went one stage on (or broke up).
    Break,
}

impl Event {
    /// Every event, in the order reports list them.
    pub const ALL: [Event; 6] =
        [Event::Pickup, Event::Steal, Event::Caught, Event::Home, Event::WinnerCrate, Event::Break];

    /// Its name in reports and JSON.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Event::Pickup => "pickup",
            Event::Steal => "steal",
            Event::Caught => "caught",
            Event::Home => "home",
            Event::WinnerCrate => "winner_crate",
            Event::Break => "break",
        }
    }

    /// What it counts, in words.
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            Event::Pickup => "the flag picked up",
            Event::Steal => "a steal made from",
            Event::Caught => "a carrier caught",
            Event::Home => "the flag brought home",
            Event::WinnerCrate => "a crate placed by the winner",
            Event::Break => "a crate struck",
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// Counts of each [`Event`] per cell over a check's games.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Decisions {
    /// Games replayed.
    pub games: u32,
    /// Games won by each player (by the flag or by crates).
    pub wins: [u32; 2],
    /// Games won by bringing the flag home.
    pub flag_wins: u32,
    counts: [Vec<u32>; 6],
}

impl Decisions {
    /// Replays `games`, each from `start`, and counts what happened where.
    /// A game whose actions do not replay (which the check never makes) is
    /// counted up to its first illegal action.
    #[must_use]
    pub fn of<'a>(start: &GameState, games: impl IntoIterator<Item = &'a GameResult>) -> Decisions {
        let mut out =
            Decisions { counts: std::array::from_fn(|_| vec![0; Cell::COUNT]), ..Decisions::default() };
        for game in games {
            out.games += 1;
            let winner = match game.outcome {
                Some(Outcome::Win { winner, by }) => {
                    out.wins[winner.index()] += 1;
                    if by == WinKind::Flag {
                        out.flag_wins += 1;
                    }
                    Some(winner)
                }
                _ => None,
            };
            let mut state = *start;
            for &action in &game.actions {
                let mover = state.turn();
                let carrier = state.carrier();
                let before = state;
                let Ok(kind) = state.play(action) else { break };
                match (kind, action) {
                    (ActionKind::Steal, _) => {
                        out.add(Event::Steal, before.position(mover));
                        out.add(Event::Caught, before.position(mover.other()));
                    }
                    (ActionKind::Break, Action::Move(cell)) => out.add(Event::Break, cell),
                    (ActionKind::Place, Action::Place(cell)) if winner == Some(mover) => {
                        out.add(Event::WinnerCrate, cell);
                    }
                    _ => {}
                }
                if carrier.is_none() && state.carrier() == Some(mover) {
                    out.add(Event::Pickup, state.position(mover));
                }
            }
            if let Some(Outcome::Win { winner, by: WinKind::Flag }) = state.outcome() {
                out.add(Event::Home, state.position(winner));
            }
        }
        out
    }

    fn add(&mut self, event: Event, cell: Cell) {
        self.counts[event.index()][cell.index()] += 1;
    }

    /// How many times `event` happened on `cell`.
    #[must_use]
    pub fn count(&self, event: Event, cell: Cell) -> u32 {
        self.counts[event.index()].get(cell.index()).copied().unwrap_or(0)
    }

    /// How many times `event` happened in all.
    #[must_use]
    pub fn total(&self, event: Event) -> u32 {
        self.counts[event.index()].iter().sum()
    }

    /// The cells where `event` happened, the most frequent first (ties in
    /// cell order), with their counts.
    #[must_use]
    pub fn top(&self, event: Event) -> Vec<(Cell, u32)> {
        let mut cells: Vec<(Cell, u32)> = self.counts[event.index()]
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .filter_map(|(i, n)| Cell::from_index(i).map(|c| (c, *n)))
            .collect();
        cells.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.index().cmp(&b.0.index())));
        cells
    }

    /// The most any cell has of `event` (for scaling an overlay).
    #[must_use]
    pub fn most(&self, event: Event) -> u32 {
        self.counts[event.index()].iter().copied().max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::format::parse_pack;
    use crate::rules::Player;

    fn tiny() -> GameState {
        let pack = parse_pack(crate::level::FLAWED_PACK_TOML).pack.unwrap();
        pack.level("tiny").unwrap().start_state(pack.rules).unwrap()
    }

    fn game(actions: &str, outcome: Option<Outcome>) -> GameResult {
        let actions = crate::rules::parse_actions(actions).unwrap();
        GameResult {
            index: 0,
            agent_for_one: 0,
            outcome,
            repeated: false,
            length: actions.len() as u32,
            actions,
            thinking: crate::sim::Thinking::default(),
        }
    }

    /// The solver's line on `tiny` (c2 d5 c3 c2 c1): player 1 picks the
    /// flag up on c3 and brings it home on c1.
    #[test]
    fn a_flag_win_is_picked_up_and_brought_home_where_it_was() {
        let start = tiny();
        let mut end = start;
        let line = crate::rules::parse_actions("c2 d5 c3 c2 c1").unwrap();
        for &a in &line {
            end.play(a).unwrap();
        }
        let outcome = end.outcome();
        assert!(matches!(outcome, Some(Outcome::Win { winner: Player::One, by: WinKind::Flag })));
        let games = [game("c2 d5 c3 c2 c1", outcome), game("c2 d5 c3 c2 c1", outcome)];
        let d = Decisions::of(&start, &games);
        assert_eq!((d.games, d.wins, d.flag_wins), (2, [2, 0], 2));
        let c = |s: &str| s.parse::<Cell>().unwrap();
        assert_eq!(d.top(Event::Pickup), [(c("c3"), 2)]);
        assert_eq!(d.top(Event::Home), [(c("c1"), 2)]);
        assert_eq!(d.total(Event::Steal) + d.total(Event::Break) + d.total(Event::WinnerCrate), 0);
    }
}
