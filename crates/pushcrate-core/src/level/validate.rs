//! Checking a pack: every problem at once, each tied to a [`Field`].

use std::collections::HashMap;

use super::pack::{Level, Pack};
use super::problem::{Code, Field, Problem};
use crate::rules::{Cell, Piece, Player, Route, Rules, SetupProblem};

impl Pack {
    /// Every problem of the pack, errors and warnings, in pack order.
    #[must_use]
    pub fn problems(&self) -> Vec<Problem> {
        pack_problems(self)
    }
}

/// Limits on text, so that hostile files cannot make the tools crawl.
pub(crate) const MAX_ID_LEN: usize = 64;
/// The longest a pack's or a level's name, or an author, may be, in characters.
pub const MAX_NAME_LEN: usize = 200;
pub(crate) const MAX_NOTES_LEN: usize = 10_000;
pub(crate) const MAX_TAGS: usize = 32;
pub(crate) const MAX_TAG_LEN: usize = 64;

/// The file key of a player's start square.
pub(crate) const fn start_key(player: Player) -> &'static str {
    match player {
        Player::One => "p1.start",
        Player::Two => "p2.start",
    }
}

/// The file key of a player's goal set.
pub(crate) const fn goals_key(player: Player) -> &'static str {
    match player {
        Player::One => "p1.goals",
        Player::Two => "p2.goals",
    }
}

pub(super) fn pack_problems(pack: &Pack) -> Vec<Problem> {
    let mut out = Vec::new();
    if pack.levels.is_empty() {
        out.push(Problem::new(Code::NoLevels, Field::Pack, "the pack has no level"));
    }
    if pack.name.chars().count() > MAX_NAME_LEN {
        out.push(Problem::new(
            Code::ValueTooLong,
            Field::PackKey("name"),
            format!("the pack's name is longer than {MAX_NAME_LEN} characters"),
        ));
    }
    for (option, message) in pack.rules.problems() {
        out.push(Problem::new(Code::RuleRange, Field::Rule(option), message));
    }
    let mut first_with_id: HashMap<&str, usize> = HashMap::new();
    // The first level of each shared id, with how many use it after it.
    let mut shared: HashMap<usize, usize> = HashMap::new();
    for (i, level) in pack.levels.iter().enumerate() {
        if let Some(&first) = first_with_id.get(level.id.as_str()) {
            out.push(Problem::new(
                Code::DuplicateId,
                Field::LevelKey(i, "id"),
                format!("level id `{}` is already used by level {}", level.id, first + 1),
            ));
            *shared.entry(first).or_default() += 1;
        } else {
            first_with_id.insert(&level.id, i);
        }
        level_problems(i, level, &mut out);
    }
    // Both sides of a clash are named: the level renamed last may be
    // either, and neither is valid while they share an id.
    let mut shared: Vec<(usize, usize)> = shared.into_iter().collect();
    shared.sort_unstable();
    for (first, more) in shared {
        let id = &pack.levels[first].id;
        let others = if more == 1 { "another level".to_owned() } else { format!("{more} other levels") };
        out.push(Problem::new(
            Code::DuplicateId,
            Field::LevelKey(first, "id"),
            format!("level id `{id}` is also used by {others}"),
        ));
    }
    out
}

fn too_long(out: &mut Vec<Problem>, i: usize, key: &'static str, text: &str, max: usize) {
    if text.chars().count() > max {
        out.push(Problem::new(
            Code::ValueTooLong,
            Field::LevelKey(i, key),
            format!("`{key}` is longer than {max} characters"),
        ));
    }
}

/// Whether `id` is a valid level id.
#[must_use]
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn level_problems(i: usize, level: &Level, out: &mut Vec<Problem>) {
    if !is_valid_id(&level.id) {
        out.push(Problem::new(
            Code::BadId,
            Field::LevelKey(i, "id"),
            format!(
                "level id `{}` must be 1 to {MAX_ID_LEN} letters, digits, `-` or `_`",
                level.id.escape_debug()
            ),
        ));
    }
    too_long(out, i, "name", &level.name, MAX_NAME_LEN);
    too_long(out, i, "author", level.author.as_deref().unwrap_or(""), MAX_NAME_LEN);
    too_long(out, i, "notes", level.notes.as_deref().unwrap_or(""), MAX_NOTES_LEN);
    if level.tags.len() > MAX_TAGS || level.tags.iter().any(|t| t.chars().count() > MAX_TAG_LEN) {
        out.push(Problem::new(
            Code::ValueTooLong,
            Field::LevelKey(i, "tags"),
            format!("a level has at most {MAX_TAGS} tags of at most {MAX_TAG_LEN} characters"),
        ));
    }
    let missing: Vec<Player> = Player::BOTH.into_iter().filter(|&p| level.starts[p].is_none()).collect();
    for &p in &missing {
        out.push(Problem::new(
            Code::MissingStart,
            Field::LevelKey(i, start_key(p)),
            format!("{p} has no start square"),
        ));
    }
    // A missing start square is stood in for by another cell so that the
    // rest of the level is still checked; problems of the stand-in are dropped.
    let mut stand_in = level.clone();
    let fallback = level.starts.one.or(level.starts.two).or_else(|| level.flag_cell());
    for &p in &missing {
        stand_in.starts[p] = fallback;
    }
    let Some(setup) = stand_in.setup(Rules::DEFAULT) else {
        return;
    };
    for problem in setup.problems() {
        let concerns_missing = |p: Player| missing.contains(&p);
        let keep = match &problem {
            SetupProblem::SharedStart(_) => missing.is_empty(),
            SetupProblem::CrateOnStart(p, _) | SetupProblem::FlagOnStart(p, _) => !concerns_missing(*p),
            SetupProblem::OffBoard { piece: Piece::Start(p), .. }
            | SetupProblem::OnWall { piece: Piece::Start(p), .. } => !concerns_missing(*p),
            SetupProblem::RouteCutByCrates(route) => {
                missing.is_empty() || !matches!(route, Route::StartToFlag(p) if concerns_missing(*p))
            }
            // Kept when it cuts a route other than a stand-in start's.
            SetupProblem::RouteWalledOff { routes, .. } => {
                missing.is_empty()
                    || routes
                        .iter()
                        .any(|route| !matches!(route, Route::StartToFlag(p) if concerns_missing(*p)))
            }
            SetupProblem::RuleOutOfRange(..) => false,
            _ => true,
        };
        if keep {
            out.push(setup_problem(i, level, problem));
        }
    }
}

fn piece_field(i: usize, piece: Piece, cell: Cell) -> Field {
    match piece {
        Piece::Start(p) => Field::LevelKey(i, start_key(p)),
        Piece::Goal(p) => Field::LevelCell(i, goals_key(p), cell),
        Piece::Flag => Field::LevelKey(i, "flag"),
        Piece::Crate => Field::LevelCell(i, "crates", cell),
    }
}

/// A rules-level problem as a pack problem of level `i`.
fn setup_problem(i: usize, level: &Level, problem: SetupProblem) -> Problem {
    let message = problem.to_string();
    match problem {
        SetupProblem::SizeOutOfRange { .. } => Problem::new(Code::Size, Field::LevelKey(i, "size"), message),
        SetupProblem::OffBoard { piece, cell } => {
            Problem::new(Code::OffBoard, piece_field(i, piece, cell), message).with_cells([cell])
        }
        SetupProblem::OnWall { piece: Piece::Flag, cell } if level.flag.is_none() => {
            // A flag the file never placed stands on the map's centre.
            let message = format!("{message} (the flag's default place, the centre)");
            Problem::new(Code::OnWall, Field::LevelCell(i, "map", cell), message).with_cells([cell])
        }
        SetupProblem::OnWall { piece, cell } => {
            Problem::new(Code::OnWall, piece_field(i, piece, cell), message).with_cells([cell])
        }
        SetupProblem::SharedStart(cell) => {
            Problem::new(Code::SharedStart, Field::LevelKey(i, "p2.start"), message).with_cells([cell])
        }
        SetupProblem::CrateOnStart(_, cell) => {
            Problem::new(Code::CrateOnStart, Field::LevelCell(i, "crates", cell), message).with_cells([cell])
        }
        SetupProblem::CrateOnFlag(cell) => {
            Problem::new(Code::CrateOnFlag, Field::LevelCell(i, "crates", cell), message).with_cells([cell])
        }
        SetupProblem::CratesOverlap(cell) => {
            Problem::new(Code::DuplicateCell, Field::LevelCell(i, "crates", cell), message).with_cells([cell])
        }
        SetupProblem::EmptyGoals(p) if level.goals[p].is_none() => {
            // The default goal set is the start square's rank: point there.
            Problem::new(
                Code::EmptyGoals,
                Field::LevelKey(i, start_key(p)),
                format!("{message} (by default, the floor cells of its start square's rank)"),
            )
        }
        SetupProblem::EmptyGoals(p) => {
            Problem::new(Code::EmptyGoals, Field::LevelKey(i, goals_key(p)), message)
        }
        SetupProblem::FlagOnStart(_, cell) => {
            Problem::new(Code::FlagOnStart, Field::LevelKey(i, "flag"), message).with_cells([cell])
        }
        SetupProblem::RuleOutOfRange(option, _) => {
            Problem::new(Code::RuleRange, Field::Rule(option), message)
        }
        SetupProblem::RouteWalledOff { region, .. } => {
            // The walls that cut are in the map: the problem points there.
            Problem::new(Code::RouteWalledOff, Field::LevelKey(i, "map"), message).with_cells(region)
        }
        SetupProblem::RouteCutByCrates(_) => {
            Problem::new(Code::RouteCutByCrates, Field::LevelKey(i, "crates"), message)
        }
        SetupProblem::Missing(Piece::Start(p)) => {
            Problem::new(Code::MissingStart, Field::LevelKey(i, start_key(p)), message)
        }
        SetupProblem::Missing(_) => Problem::new(Code::OffBoard, Field::LevelKey(i, "flag"), message),
    }
}
