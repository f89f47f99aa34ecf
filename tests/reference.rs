//! A second engine of the rules, written from docs/rules.md, docs/format.md
//! and docs/conformance.md alone: it imports nothing of `pushcrate`, reads
//! the suite's JSON packs through their resolved values (`derived.resolved`)
//! and keeps no default table of its own. It is plain on purpose — a grid of
//! cells and breadth-first searches — so that it shares no shortcut with the
//! bitboard engine it checks.
//!
//! Each [`Misreading`] switches on one way a client author could misread the
//! rules. `tests/conformance.rs` runs the suite against this engine as it is
//! (it must pass) and once per misreading (the suite must catch each one).

use std::collections::{BTreeSet, VecDeque};
use std::path::Path;

use serde_json::{Value, json};

/// One deliberate misreading of the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Misreading {
    /// A steal is allowed while the mover stands on the victim's start square.
    StealFromVictimsStart,
    /// `draw_offer_after` is ignored: offers are allowed from the first action.
    IgnoreDrawOfferAfter,
    /// `draw_reoffer_gap` is ignored: a declined player may offer again at once.
    IgnoreDrawReofferGap,
    /// "Once 50 actions have been played" read as "after more than 50".
    DrawOfferAfterIsStrict,
    /// No draw offer during bonus actions.
    NoDrawOfferDuringBonus,
    /// Picking up the flag on one's own goal cell does not win.
    PickupOnGoalNoWin,
    /// A carrier whose slide puts it on its goal cell does not win.
    SlideHomeNoWin,
    /// A jump onto the lying flag does not pick it up.
    JumpNoPickup,
    /// The lying flag blocks a jump's landing.
    FlagBlocksJump,
    /// A diagonal jump only past a crate or the board's edge, not past a wall.
    NoDiagonalPastWall,
    /// The default goal set is the start square alone.
    DefaultGoalIsStart,
    /// A crate may go onto an empty start square when the path rule allows it.
    CrateOnStartByPathRule,
    /// A pass during bonus actions does not use one.
    PassKeepsBonus,
    /// A finished game still names the player who would move, and its bonus.
    FinishedGameKeepsMover,
}

impl Misreading {
    /// Every misreading the suite must catch.
    pub const ALL: [Misreading; 14] = [
        Misreading::StealFromVictimsStart,
        Misreading::IgnoreDrawOfferAfter,
        Misreading::IgnoreDrawReofferGap,
        Misreading::DrawOfferAfterIsStrict,
        Misreading::NoDrawOfferDuringBonus,
        Misreading::PickupOnGoalNoWin,
        Misreading::SlideHomeNoWin,
        Misreading::JumpNoPickup,
        Misreading::FlagBlocksJump,
        Misreading::NoDiagonalPastWall,
        Misreading::DefaultGoalIsStart,
        Misreading::CrateOnStartByPathRule,
        Misreading::PassKeepsBonus,
        Misreading::FinishedGameKeepsMover,
    ];
}

const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const STAGES: [&str; 4] = ["intact", "cracked", "rubble", "splinters"];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Jump {
    Diagonal,
    Straight,
    None,
}

/// A level with every value resolved.
struct Level {
    w: i32,
    h: i32,
    walls: Vec<bool>,
    starts: [usize; 2],
    goals: [Vec<bool>; 2],
    flag: usize,
    crates: Vec<Option<u8>>,
    first: usize,
    crates_to_win: u32,
    placements: u32,
    bonus: u32,
    draw_after: u32,
    draw_gap: u32,
    jump: Jump,
}

impl Level {
    fn cell(&self, name: &str) -> usize {
        let file = i32::from(name.as_bytes()[0] - b'a');
        let rank: i32 = name[1..].parse::<i32>().unwrap() - 1;
        (rank * self.w + file) as usize
    }

    fn name(&self, cell: usize) -> String {
        let (file, rank) = (cell as i32 % self.w, cell as i32 / self.w);
        format!("{}{}", char::from(b'a' + file as u8), rank + 1)
    }

    fn step(&self, cell: usize, (dx, dy): (i32, i32)) -> Option<usize> {
        let (x, y) = (cell as i32 % self.w + dx, cell as i32 / self.w + dy);
        (0..self.w).contains(&x).then_some(())?;
        (0..self.h).contains(&y).then_some(())?;
        Some((y * self.w + x) as usize)
    }

    /// Reads a level of a JSON pack: its map and crates, and everything else
    /// from `derived.resolved`.
    fn read(level: &Value, misreading: Option<Misreading>) -> Level {
        let r = &level["derived"]["resolved"];
        let (w, h) = (r["width"].as_i64().unwrap() as i32, r["height"].as_i64().unwrap() as i32);
        let n = (w * h) as usize;
        let mut out = Level {
            w,
            h,
            walls: vec![false; n],
            starts: [0, 0],
            goals: [vec![false; n], vec![false; n]],
            flag: 0,
            crates: vec![None; n],
            first: r["first"].as_u64().unwrap() as usize - 1,
            crates_to_win: r["rules"]["crates_to_win"].as_u64().unwrap() as u32,
            placements: r["rules"]["crate_placements"].as_u64().unwrap() as u32,
            bonus: r["rules"]["flag_bonus_actions"].as_u64().unwrap() as u32,
            draw_after: r["rules"]["draw_offer_after"].as_u64().unwrap() as u32,
            draw_gap: r["rules"]["draw_reoffer_gap"].as_u64().unwrap() as u32,
            jump: match r["rules"]["jump"].as_str().unwrap() {
                "diagonal" => Jump::Diagonal,
                "straight" => Jump::Straight,
                _ => Jump::None,
            },
        };
        // The map: one row per rank, top rank first; blank lines ignored.
        if let Some(map) = level["map"].as_str() {
            let rows: Vec<Vec<char>> = map
                .lines()
                .map(|row| row.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
                .filter(|row| !row.is_empty())
                .collect();
            for (i, row) in rows.iter().enumerate() {
                let rank = h - 1 - i as i32;
                for (file, &c) in row.iter().enumerate() {
                    out.walls[(rank * w + file as i32) as usize] = c == '#';
                }
            }
        }
        for entry in level["crates"].as_array().into_iter().flatten() {
            let text = entry.as_str().unwrap();
            let (at, stage) = text.split_once(':').unwrap_or((text, "intact"));
            let cell = out.cell(at);
            out.crates[cell] = Some(STAGES.iter().position(|s| *s == stage).unwrap() as u8);
        }
        out.flag = out.cell(r["flag"].as_str().unwrap());
        for p in 0..2 {
            let resolved = &r[format!("p{}", p + 1)];
            out.starts[p] = out.cell(resolved["start"].as_str().unwrap());
            let painted = level[format!("p{}", p + 1)].get("goals").is_some();
            if misreading == Some(Misreading::DefaultGoalIsStart) && !painted {
                out.goals[p][out.starts[p]] = true;
                continue;
            }
            for goal in resolved["goals"].as_array().unwrap() {
                let cell = out.cell(goal.as_str().unwrap());
                out.goals[p][cell] = true;
            }
        }
        out
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Act {
    Move(usize),
    Place(usize),
    Steal,
    Pass,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum End {
    Draw,
    Flag(usize),
    Crates(usize),
}

/// A position of a game.
#[derive(Clone)]
struct State<'a> {
    level: &'a Level,
    misreading: Option<Misreading>,
    pos: [usize; 2],
    crates: Vec<Option<u8>>,
    flag: usize,
    carrier: Option<usize>,
    to_move: usize,
    bonus: u32,
    played: u32,
    destroyed: [u32; 2],
    placements: [u32; 2],
    declined: [Option<u32>; 2],
    end: Option<End>,
}

impl<'a> State<'a> {
    fn start(level: &'a Level, misreading: Option<Misreading>) -> State<'a> {
        State {
            level,
            misreading,
            pos: level.starts,
            crates: level.crates.clone(),
            flag: level.flag,
            carrier: None,
            to_move: level.first,
            bonus: 0,
            played: 0,
            destroyed: [0, 0],
            placements: [level.placements; 2],
            declined: [None, None],
            end: None,
        }
    }

    fn misread(&self, m: Misreading) -> bool {
        self.misreading == Some(m)
    }

    fn flag_cell(&self) -> usize {
        self.carrier.map_or(self.flag, |p| self.pos[p])
    }

    fn lying_flag(&self, cell: usize) -> bool {
        self.carrier.is_none() && self.flag == cell
    }

    fn floor(&self, cell: usize) -> bool {
        !self.level.walls[cell]
    }

    fn blocked(&self, cell: usize) -> bool {
        self.level.walls[cell] || self.crates[cell].is_some()
    }

    fn reaches(&self, from: usize, to: &dyn Fn(usize) -> bool) -> Option<Vec<usize>> {
        if self.blocked(from) {
            return None;
        }
        let mut back = vec![usize::MAX; self.crates.len()];
        back[from] = from;
        let mut queue = VecDeque::from([from]);
        while let Some(cell) = queue.pop_front() {
            if to(cell) {
                let mut path = vec![cell];
                let mut at = cell;
                while at != from {
                    at = back[at];
                    path.push(at);
                }
                return Some(path);
            }
            for d in DIRS {
                if let Some(next) = self.level.step(cell, d)
                    && back[next] == usize::MAX
                    && !self.blocked(next)
                {
                    back[next] = cell;
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// Route `i` (player `i / 2`'s start to the flag, then the flag to its
    /// goals): a path, or `None` where it does not hold.
    fn route(&self, i: usize) -> Option<Vec<usize>> {
        let (p, flag) = (i / 2, self.flag_cell());
        if i.is_multiple_of(2) {
            self.reaches(self.level.starts[p], &|c| c == flag)
        } else {
            self.reaches(flag, &|c| self.level.goals[p][c])
        }
    }

    fn routes(&self) -> Vec<Option<Vec<usize>>> {
        (0..4).map(|i| self.route(i)).collect()
    }

    /// Whether every route that holds (`before`, this position's routes)
    /// still holds once `change` is made. A route whose path avoids every
    /// cell the change blocks, and whose ends stay, holds still.
    fn keeps_routes(
        &self,
        before: &[Option<Vec<usize>>],
        blocks: usize,
        change: impl FnOnce(&mut State),
    ) -> bool {
        let mut after = self.clone();
        change(&mut after);
        let ends_stay = after.flag_cell() == self.flag_cell();
        before.iter().enumerate().all(|(i, path)| match path {
            None => true,
            Some(path) if ends_stay && !path.contains(&blocks) => true,
            Some(_) => after.route(i).is_some(),
        })
    }

    fn is_start(&self, cell: usize) -> bool {
        self.level.starts.contains(&cell)
    }

    fn enterable(&self, cell: usize) -> bool {
        self.floor(cell)
            && self.crates[cell].is_none()
            && !(self.misread(Misreading::FlagBlocksJump) && self.lying_flag(cell))
    }

    /// A crate may be placed on `cell`, or slid there, as far as rule 7's
    /// start squares go.
    fn start_allows(&self, cell: usize) -> bool {
        !self.is_start(cell)
            || (self.misread(Misreading::CrateOnStartByPathRule) && !self.pos.contains(&cell))
    }

    fn slide(&self, from: usize, dir: (i32, i32)) -> Option<usize> {
        let stage = self.crates[from]?;
        let beyond = self.level.step(from, dir)?;
        let free = stage < 2
            && self.floor(beyond)
            && self.crates[beyond].is_none()
            && !self.pos.contains(&beyond)
            && !self.lying_flag(beyond);
        free.then_some(beyond)
    }

    fn legal(&self) -> Vec<Act> {
        if self.end.is_some() {
            return Vec::new();
        }
        let (me, them) = (self.to_move, 1 - self.to_move);
        let here = self.pos[me];
        let before = self.routes();
        let mut out = Vec::new();
        for d in DIRS {
            let Some(next) = self.level.step(here, d) else { continue };
            if !self.floor(next) {
                continue;
            }
            if next == self.pos[them] {
                if self.level.jump == Jump::None {
                    continue;
                }
                let beyond = self.level.step(next, d);
                match beyond {
                    Some(b) if self.enterable(b) => out.push(Act::Move(b)),
                    _ if self.level.jump == Jump::Diagonal => {
                        let by_wall = beyond.is_some_and(|b| self.level.walls[b]);
                        if by_wall && self.misread(Misreading::NoDiagonalPastWall) {
                            continue;
                        }
                        for side in [(d.1, d.0), (-d.1, -d.0)] {
                            if let Some(c) = self.level.step(next, side)
                                && self.enterable(c)
                            {
                                out.push(Act::Move(c));
                            }
                        }
                    }
                    _ => {}
                }
            } else if self.crates[next].is_some() {
                match self.slide(next, d) {
                    Some(b) => {
                        let ok = self.start_allows(b)
                            && self.keeps_routes(&before, b, |s| {
                                s.crates[b] = s.crates[next].take();
                                s.pos[me] = next;
                            });
                        if ok {
                            out.push(Act::Move(next));
                        }
                    }
                    None => out.push(Act::Move(next)),
                }
            } else {
                out.push(Act::Move(next));
            }
        }
        if self.placements[me] > 0 {
            for (cell, held) in self.crates.iter().enumerate() {
                let free = self.floor(cell)
                    && held.is_none()
                    && !self.pos.contains(&cell)
                    && !self.lying_flag(cell)
                    && self.start_allows(cell);
                if free && self.keeps_routes(&before, cell, |s| s.crates[cell] = Some(0)) {
                    out.push(Act::Place(cell));
                }
            }
        }
        let adjacent = DIRS.iter().any(|&d| self.level.step(here, d) == Some(self.pos[them]));
        let on_their_start =
            here == self.level.starts[them] && !self.misread(Misreading::StealFromVictimsStart);
        if self.carrier == Some(them)
            && adjacent
            && !on_their_start
            && self.crates[self.level.starts[them]].is_none()
        {
            out.push(Act::Steal);
        }
        if out.is_empty() {
            out.push(Act::Pass);
        }
        out
    }

    fn play(&mut self, act: Act) {
        let (me, them) = (self.to_move, 1 - self.to_move);
        let in_bonus = self.bonus > 0;
        if in_bonus && !(act == Act::Pass && self.misread(Misreading::PassKeepsBonus)) {
            self.bonus -= 1;
        }
        let mut picked = false;
        let mut slid = false;
        match act {
            Act::Move(cell) => {
                let from = self.pos[me];
                let dir = DIRS.iter().copied().find(|&d| self.level.step(from, d) == Some(cell));
                let landed = match (self.crates[cell], dir) {
                    (Some(stage), Some(d)) => {
                        if let Some(beyond) = self.slide(cell, d) {
                            self.crates[beyond] = self.crates[cell].take();
                            slid = true;
                            Some(cell)
                        } else {
                            if stage == 3 {
                                self.crates[cell] = None;
                                self.destroyed[me] += 1;
                            } else {
                                self.crates[cell] = Some(stage + 1);
                            }
                            None
                        }
                    }
                    _ => Some(cell),
                };
                if let Some(to) = landed {
                    let jumped = dir.is_none();
                    self.pos[me] = to;
                    if self.carrier.is_none()
                        && self.flag == to
                        && !(jumped && self.misread(Misreading::JumpNoPickup))
                    {
                        self.carrier = Some(me);
                        picked = true;
                    }
                    if self.carrier == Some(me) {
                        self.flag = to;
                    }
                }
            }
            Act::Place(cell) => {
                self.crates[cell] = Some(0);
                self.placements[me] -= 1;
            }
            Act::Steal => {
                self.flag = self.pos[them];
                self.carrier = None;
                self.pos[them] = self.level.starts[them];
            }
            Act::Pass => {}
        }
        self.played += 1;
        let home = self.carrier == Some(me) && self.level.goals[me][self.pos[me]];
        let home = home
            && !(picked && self.misread(Misreading::PickupOnGoalNoWin))
            && !(slid && self.misread(Misreading::SlideHomeNoWin));
        if home {
            self.end = Some(End::Flag(me));
        } else if self.destroyed[me] >= self.level.crates_to_win {
            self.end = Some(End::Crates(me));
        }
        if picked {
            self.bonus += self.level.bonus;
        }
        if self.bonus == 0 && self.end.is_none() {
            self.to_move = them;
        }
    }

    fn may_offer_draw(&self) -> bool {
        if self.end.is_some() {
            return false;
        }
        if self.bonus > 0 && self.misread(Misreading::NoDrawOfferDuringBonus) {
            return false;
        }
        let early = if self.misread(Misreading::DrawOfferAfterIsStrict) {
            self.played <= self.level.draw_after
        } else {
            self.played < self.level.draw_after
        };
        if early && !self.misread(Misreading::IgnoreDrawOfferAfter) {
            return false;
        }
        match self.declined[self.to_move] {
            Some(at) if !self.misread(Misreading::IgnoreDrawReofferGap) => {
                self.played >= at + self.level.draw_gap
            }
            _ => true,
        }
    }

    fn act_name(&self, act: Act) -> String {
        match act {
            Act::Move(c) => self.level.name(c),
            Act::Place(c) => format!("+{}", self.level.name(c)),
            Act::Steal => "x".to_owned(),
            Act::Pass => "pass".to_owned(),
        }
    }

    /// Plays a line of the suite: actions and draw offers.
    fn play_line(&mut self, line: &str) {
        for word in line.split_whitespace() {
            match word {
                "draw:accepted" => {
                    assert!(self.may_offer_draw(), "an offer in the line is refused");
                    self.end = Some(End::Draw);
                }
                "draw:declined" => {
                    assert!(self.may_offer_draw(), "an offer in the line is refused");
                    self.declined[self.to_move] = Some(self.played);
                }
                _ => {
                    let act = self.legal().into_iter().find(|&a| self.act_name(a) == word);
                    let act = act.unwrap_or_else(|| panic!("`{word}` of [{line}] is not legal here"));
                    self.play(act);
                }
            }
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let legal = self.legal();
        if depth == 1 {
            return legal.len() as u64;
        }
        legal
            .into_iter()
            .map(|a| {
                let mut next = self.clone();
                next.play(a);
                next.perft(depth - 1)
            })
            .sum()
    }

    /// The state in the suite's layout (docs/conformance.md).
    fn json(&self) -> Value {
        let over = self.end.is_some();
        let keep = self.misread(Misreading::FinishedGameKeepsMover);
        let outcome = match self.end {
            None => Value::Null,
            Some(End::Draw) => json!("draw"),
            Some(End::Flag(p)) => json!({ "winner": p + 1, "by": "flag" }),
            Some(End::Crates(p)) => json!({ "winner": p + 1, "by": "crates" }),
        };
        let mut crates: Vec<String> = (0..self.crates.len())
            .filter_map(|c| {
                self.crates[c].map(|s| match s {
                    0 => self.level.name(c),
                    _ => format!("{}:{}", self.level.name(c), STAGES[s as usize]),
                })
            })
            .collect();
        crates.sort();
        json!({
            "to_move": if over && !keep { Value::Null } else { json!(self.to_move + 1) },
            "actions_played": self.played,
            "bonus_actions": if over && !keep { 0 } else { self.bonus },
            "over": over,
            "outcome": outcome,
            "players": (0..2).map(|p| json!({
                "cell": self.level.name(self.pos[p]),
                "start": self.level.name(self.level.starts[p]),
                "destroyed": self.destroyed[p],
                "placements_left": self.placements[p],
            })).collect::<Vec<_>>(),
            "flag": { "cell": self.level.name(self.flag_cell()), "carrier": self.carrier.map(|p| p + 1) },
            "crates": crates,
        })
    }
}

/// What a run of the suite found.
#[derive(Debug, Default)]
pub struct Run {
    pub passed: usize,
    pub failed: Vec<String>,
}

impl Run {
    fn expect(&mut self, what: impl FnOnce() -> String, ok: bool) {
        if ok {
            self.passed += 1;
        } else {
            self.failed.push(what());
        }
    }
}

/// Runs the suite in `dir` against the reference engine, with one
/// misreading switched on or none; `perft` also checks every perft count.
pub fn run_suite(dir: &Path, misreading: Option<Misreading>, perft: bool) -> Run {
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
    };
    let manifest = read("manifest.json");
    let mut levels = std::collections::BTreeMap::new();
    for pack in manifest["packs"].as_array().unwrap() {
        let data = read(pack["file"].as_str().unwrap());
        for level in data["level"].as_array().unwrap() {
            let key = (pack["name"].as_str().unwrap().to_owned(), level["id"].as_str().unwrap().to_owned());
            levels.insert(key, Level::read(level, misreading));
        }
    }
    let mut run = Run::default();
    let check = |entry: &Value, want_state: &Value, run: &mut Run| {
        let s = |k: &str| entry[k].as_str().unwrap().to_owned();
        let level = &levels[&(s("pack"), s("level"))];
        let line = s("line");
        let where_ = format!("{}/{} after [{line}]", s("pack"), s("level"));
        let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut state = State::start(level, misreading);
            state.play_line(&line);
            state
        }));
        let Ok(state) = played else {
            run.failed.push(format!("{where_}: the line cannot be played"));
            return;
        };
        let legal: BTreeSet<String> = state.legal().into_iter().map(|a| state.act_name(a)).collect();
        if let Some(listed) = entry.get("legal").and_then(Value::as_array) {
            let listed: BTreeSet<String> = listed.iter().map(|a| a.as_str().unwrap().to_owned()).collect();
            run.expect(|| format!("{where_}: legal actions {legal:?}, not {listed:?}"), legal == listed);
        }
        for refused in entry.get("refused").and_then(Value::as_array).into_iter().flatten() {
            let action = refused["action"].as_str().unwrap();
            run.expect(|| format!("{where_}: {action} is legal"), !legal.contains(action));
        }
        if let Some(may) = entry.get("may_offer_draw").and_then(Value::as_bool) {
            run.expect(|| format!("{where_}: may offer a draw: {}", !may), state.may_offer_draw() == may);
        }
        if perft {
            for (depth, count) in
                entry.get("perft").and_then(Value::as_array).into_iter().flatten().enumerate()
            {
                let got = state.perft(depth as u32 + 1);
                run.expect(
                    || format!("{where_}: perft {} = {got}, not {count}", depth + 1),
                    Some(got) == count.as_u64(),
                );
            }
        }
        let got = state.json();
        run.expect(|| format!("{where_}: state {got}, not {want_state}"), &got == want_state);
    };
    for position in read("positions.json")["positions"].as_array().unwrap() {
        check(position, &position["state"], &mut run);
    }
    for game in read("games.json")["games"].as_array().unwrap() {
        check(game, &game["expected"], &mut run);
    }
    run
}

/// Perft of the reference engine after `line` on level `id` of a JSON pack
/// whose levels carry `derived.resolved` (as `export --with-analysis`
/// writes them).
pub fn perft_after(pack: &Value, id: &str, line: &str, depth: u32) -> u64 {
    let data = pack["level"].as_array().unwrap().iter().find(|l| l["id"] == id).unwrap();
    let level = Level::read(data, None);
    let mut state = State::start(&level, None);
    state.play_line(line);
    state.perft(depth)
}
