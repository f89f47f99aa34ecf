//! Self-play: games between two agents in colour-swapped pairs, their
//! statistics, and the records of stalled games.
//!
//! Game `2k` gives agent A player 1 and game `2k + 1` gives it player 2,
//! both seeded from the pair's seed, so a pair differs only in colours. Each
//! game's seed depends on the run's seed and the game's index alone, and
//! results are gathered in index order: a run gives the same report whatever
//! the number of threads.

mod balance;
mod decisions;
mod game;
mod runs;
mod sequential;
mod skill;
mod stats;

pub use balance::{
    BalanceCheck, BalanceVerdict, HAND_PAIRINGS, HAND_REFEREE, Plan, REFEREE, REFEREED, SETTLE_BUDGET,
    SETTLE_DEPTH, STALL_FINDINGS, STRONG, STRONG_PAIRINGS, Tick, check_balance, meets_decided, settle,
    strong,
};
pub use decisions::{Decisions, Event};
pub(crate) use game::pool;
pub use game::{
    Config, GameResult, MAX_ACTIONS, SEQUENTIAL_CAP, Thinking, on_worker_start, play_game, record, run,
};
pub use runs::{balance_run, greedy_balance, head_to_head, resume_sequential, run_sequential};
pub use sequential::{BAND, Decision, Design, Edge, Leaning, Pentanomial, Question, Sequential};
pub use skill::{TRACE, TRACE_GAMES, TracePoint, skill_trace};
pub use stats::{ForcedWin, Lengths, Rate, Report, ReportVerdict};
