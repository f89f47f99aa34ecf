//! Saving a pack over the text it was read from: comments, blank lines and
//! key order survive, and only values whose meaning changed are rewritten
//! (`toml_edit`).

use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, Value};

use super::Pack;
use super::format::write_pack;

/// The text of `pack`, written over `original`. Keys whose values still
/// mean the same keep their text and comments; changed values are replaced
/// in place; new keys and levels are added, removed ones dropped. When
/// `original` is not TOML, the canonical text of [`write_pack`] is returned.
#[must_use]
pub fn update_pack_text(original: &str, pack: &Pack) -> String {
    let canonical = write_pack(pack);
    let (Ok(mut doc), Ok(new)) = (original.parse::<DocumentMut>(), canonical.parse::<DocumentMut>()) else {
        return canonical;
    };
    merge_table(doc.as_table_mut(), new.as_table(), &["level"]);
    let new_levels = new.get("level").and_then(Item::as_array_of_tables);
    match new_levels {
        None => {
            doc.remove("level");
        }
        Some(new_levels) => {
            let old_levels = doc.get("level").and_then(Item::as_array_of_tables).cloned().unwrap_or_default();
            doc.insert("level", Item::ArrayOfTables(merge_levels(&old_levels, new_levels)));
        }
    }
    // Tables print in position order: the rules first, then the levels in
    // the pack's order, wherever merged or new tables came from.
    if let Some(rules) = doc.get_mut("rules").and_then(Item::as_table_mut) {
        rules.set_position(Some(1));
    }
    if let Some(levels) = doc.get_mut("level").and_then(Item::as_array_of_tables_mut) {
        for (i, table) in levels.iter_mut().enumerate() {
            table.set_position(Some(2 + i as isize));
        }
    }
    let text = doc.to_string();
    // A merge can only be trusted when it reads back as the same pack.
    match super::format::parse_pack(&text).pack {
        Some(reread) if &reread == pack => text,
        _ => canonical,
    }
}

fn level_id(table: &Table) -> Option<&str> {
    table.get("id").and_then(Item::as_str)
}

fn merge_levels(old: &ArrayOfTables, new: &ArrayOfTables) -> ArrayOfTables {
    let new_ids: Vec<Option<&str>> = new.iter().map(level_id).collect();
    let mut used = vec![false; old.len()];
    let mut out = ArrayOfTables::new();
    for (i, new_table) in new.iter().enumerate() {
        // The same id first; else the table at the same place, if no new
        // level claims its id (a renamed level keeps its comments).
        let by_id = old.iter().enumerate().position(|(j, t)| !used[j] && level_id(t) == new_ids[i]);
        let by_place =
            (i < old.len() && !used[i] && !new_ids.contains(&old.get(i).and_then(level_id))).then_some(i);
        match by_id.or(by_place) {
            Some(j) => {
                used[j] = true;
                let mut table = old.get(j).cloned().unwrap_or_default();
                merge_table(&mut table, new_table, &[]);
                out.push(table);
            }
            None => out.push(new_table.clone()),
        }
    }
    out
}

/// Makes `old` mean what `new` means, keeping what already does.
fn merge_table(old: &mut Table, new: &Table, skip: &[&str]) {
    let stale: Vec<String> = old
        .iter()
        .map(|(k, _)| k.to_owned())
        .filter(|k| !skip.contains(&k.as_str()) && !new.contains_key(k))
        .collect();
    for key in stale {
        old.remove(&key);
    }
    for (key, new_item) in new.iter() {
        if skip.contains(&key) {
            continue;
        }
        match (old.get_mut(key), new_item) {
            (Some(Item::Table(old_table)), Item::Table(new_table)) => merge_table(old_table, new_table, &[]),
            (Some(Item::Value(old_value)), Item::Value(new_value)) => {
                if !same_meaning(key, old_value, new_value) {
                    let decor = old_value.decor().clone();
                    *old_value = new_value.clone();
                    *old_value.decor_mut() = decor;
                }
            }
            (Some(slot), _) => *slot = new_item.clone(),
            (None, _) => {
                old.insert(key, new_item.clone());
            }
        }
    }
}

/// Whether two values mean the same to the reader: maps compare row by
/// row whatever their indentation; cell lists compare as sets.
fn same_meaning(key: &str, old: &Value, new: &Value) -> bool {
    match (old, new) {
        (Value::String(a), Value::String(b)) if key == "map" => rows(a.value()) == rows(b.value()),
        (Value::Array(a), Value::Array(b)) if matches!(key, "crates" | "goals") => sorted(a) == sorted(b),
        (Value::InlineTable(a), Value::InlineTable(b)) => {
            a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| same_meaning(k, v, w)))
        }
        (Value::String(a), Value::String(b)) => a.value() == b.value(),
        (Value::Integer(a), Value::Integer(b)) => a.value() == b.value(),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b.iter()).all(|(v, w)| same_meaning(key, v, w))
        }
        _ => false,
    }
}

fn rows(map: &str) -> Vec<&str> {
    map.lines().map(str::trim).filter(|r| !r.is_empty()).collect()
}

fn sorted(array: &toml_edit::Array) -> Vec<String> {
    let mut items: Vec<String> = array.iter().map(|v| v.as_str().unwrap_or_default().to_owned()).collect();
    items.sort();
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::format::parse_pack;
    use crate::level::{DEFAULT_PACK_TOML, Level};
    use crate::rules::{Cell, Stage};

    #[test]
    fn an_unchanged_pack_keeps_its_text_exactly() {
        let pack = parse_pack(DEFAULT_PACK_TOML).pack.unwrap();
        assert_eq!(update_pack_text(DEFAULT_PACK_TOML, &pack), DEFAULT_PACK_TOML);
    }

    #[test]
    fn edits_keep_comments_and_order() {
        let mut pack = parse_pack(DEFAULT_PACK_TOML).pack.unwrap();
        pack.levels[1].name = "Columns".into();
        pack.levels[2].crates.insert(Cell::new(0, 0), Stage::Rubble);
        pack.levels.remove(3);
        pack.levels.push(Level::new("fresh", 7, 7));
        pack.rules.crates_to_win = 3;
        let text = update_pack_text(DEFAULT_PACK_TOML, &pack);
        assert!(text.starts_with("# Push Crate Studio — the bundled default pack."));
        assert!(text.contains("name = \"Columns\""));
        assert!(text.contains("crates_to_win = 3"));
        assert!(text.contains("a1:rubble"));
        assert!(!text.contains("id = \"gates\""));
        assert_eq!(parse_pack(&text).pack.unwrap(), pack);
        let open = text.find("id = \"open\"").unwrap();
        let pillars = text.find("id = \"pillars\"").unwrap();
        assert!(open < pillars, "level order is the pack's");
        assert!(text.find("[rules]").unwrap() < text.find("[[level]]").unwrap(), "rules before levels");
        let fresh = text.find("id = \"fresh\"").unwrap();
        assert!(fresh > text.find("id = \"fortress\"").unwrap(), "a new level comes last");
    }

    #[test]
    fn unreadable_originals_fall_back_to_canonical_text() {
        let pack = parse_pack(DEFAULT_PACK_TOML).pack.unwrap();
        assert_eq!(update_pack_text("not [toml", &pack), write_pack(&pack));
    }
}
