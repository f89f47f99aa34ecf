//! ASCII diagrams in the legend of docs/rules.md.

use std::fmt::Write as _;

use crate::rules::{Bitboard, Cell, GameState, Player};

/// Draws a position: `#` wall, `.` floor, `1`/`2` players, `F` the lying
/// flag, `i c r s` crates by stage, and `*` on empty cells of `marks`
/// (the sole-path cells, say). Files are lettered below, ranks numbered on
/// the left.
#[must_use]
pub fn diagram(state: &GameState, marks: Bitboard) -> String {
    let mut out = String::new();
    for rank in (0..state.height()).rev() {
        let _ = write!(out, "{:>2} ", rank + 1);
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

/// A level drawn in the legend of docs/rules.md: rows top rank first, cells
/// separated by optional spaces. `#` wall, `.` floor, `1`/`2` start squares,
/// `F` the flag, `i c r s` crates by stage. Goals take their default; the
/// flag the centre when no `F` is drawn.
///
/// ```
/// use pushcrate::level::render::level_from_diagram;
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
pub fn level_from_diagram(id: &str, text: &str) -> Result<crate::level::Level, String> {
    let rows: Vec<Vec<char>> = text
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let height = u8::try_from(rows.len()).map_err(|_| "too many rows".to_owned())?;
    let width = u8::try_from(rows.first().map_or(0, Vec::len)).map_err(|_| "row too long".to_owned())?;
    let mut level = crate::level::Level::new(id, width, height);
    level.starts = crate::rules::ByPlayer::new(None, None);
    for (r, row) in rows.iter().enumerate() {
        if row.len() != width as usize {
            return Err(format!("row {} has {} cells, not {width}", r + 1, row.len()));
        }
        let rank = height - 1 - r as u8;
        for (file, &ch) in row.iter().enumerate() {
            let cell = Cell::try_new(file as u8, rank).ok_or("board larger than 11 × 11")?;
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
                        .ok_or_else(|| format!("`{other}` is not in the legend"))?;
                    level.crates.insert(cell, stage);
                }
            }
        }
    }
    Ok(level)
}
