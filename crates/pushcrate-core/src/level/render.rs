//! ASCII diagrams in the legend of docs/rules.md.

use std::fmt::Write as _;

use crate::rules::{Bitboard, Cell, GameState, Player};

/// Draws a position: `#` wall, `.` floor, `1`/`2` players, `F` the lying
/// flag, `i c r s` crates by stage, and `*` on empty cells of `marks`
/// (the sole-path cells, say). Files are lettered below, ranks numbered on
/// the left.
#[must_use]
pub fn diagram(state: &GameState, marks: Bitboard) -> String {
    // Writing into a `String` cannot fail.
    let mut out = String::new();
    for rank in (0..state.height()).rev() {
        write!(out, "{:>2} ", rank + 1).ok();
        for file in 0..state.width() {
            let cell = Cell::new(file, rank);
            let ch = if state.position(Player::One) == cell {
                '1'
            } else if state.position(Player::Two) == cell {
                '2'
            } else if let Some(stage) = state.crate_at(cell) {
                stage.symbol()
            } else if !state.floor().has(cell) {
                '#'
            } else if state.lying_flag() == Some(cell) {
                'F'
            } else if marks.has(cell) {
                '*'
            } else {
                '.'
            };
            out.push(ch);
            if file + 1 < state.width() {
                out.push(' ');
            }
        }
        out.push('\n');
    }
    out.push_str("   ");
    for file in 0..state.width() {
        out.push((b'a' + file) as char);
        if file + 1 < state.width() {
            out.push(' ');
        }
    }
    out.push('\n');
    out
}

/// A cell set written compactly: `a1 b1 c1`.
#[must_use]
pub fn cell_list(cells: Bitboard) -> String {
    let names: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    names.join(" ")
}

/// Why a diagram is not a level.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum DiagramError {
    /// More than 11 rows or files, or too many to count.
    #[error("the board is larger than 11 × 11")]
    TooLarge,
    /// A row of another width than the first.
    #[error("row {row} has {cells} cells, not {width}")]
    Ragged {
        /// The row, from 1 at the top.
        row: usize,
        /// Its cells.
        cells: usize,
        /// The first row's.
        width: u8,
    },
    /// A character the legend does not have.
    #[error("`{0}` is not in the legend")]
    NotInLegend(char),
}

/// A level drawn in the legend of docs/rules.md: rows top rank first, cells
/// separated by optional spaces. `#` wall, `.` floor, `1`/`2` start squares,
/// `F` the flag, `i c r s` crates by stage. Goals take their default; the
/// flag the centre when no `F` is drawn.
///
/// ```
/// use pushcrate_core::level::render::level_from_diagram;
/// let level = level_from_diagram("tiny", "
///     . . 2 . .
///     . # . # .
///     . . F i .
///     . # . # .
///     . . 1 . .
/// ").unwrap();
/// assert_eq!(level.width, 5);
/// assert!(level.start_state(Default::default()).is_ok());
/// ```
pub fn level_from_diagram(id: &str, text: &str) -> Result<crate::level::Level, DiagramError> {
    let rows: Vec<Vec<char>> = text
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let height = u8::try_from(rows.len()).map_err(|_| DiagramError::TooLarge)?;
    let width = u8::try_from(rows.first().map_or(0, Vec::len)).map_err(|_| DiagramError::TooLarge)?;
    let mut level = crate::level::Level::new(id, width, height);
    level.starts = crate::rules::ByPlayer::new(None, None);
    for (r, row) in rows.iter().enumerate() {
        if row.len() != width as usize {
            return Err(DiagramError::Ragged { row: r + 1, cells: row.len(), width });
        }
        let rank = height - 1 - r as u8;
        for (file, &ch) in row.iter().enumerate() {
            let cell = Cell::try_new(file as u8, rank).ok_or(DiagramError::TooLarge)?;
            match ch {
                '#' => level.walls.insert(cell),
                '.' => {}
                '1' => level.starts.one = Some(cell),
                '2' => level.starts.two = Some(cell),
                'F' => level.flag = Some(cell),
                other => {
                    let stage = crate::rules::Stage::ALL
                        .into_iter()
                        .find(|s| s.symbol() == other)
                        .ok_or(DiagramError::NotInLegend(other))?;
                    level.crates.insert(cell, stage);
                }
            }
        }
    }
    Ok(level)
}
