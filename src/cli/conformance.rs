//! `pushcrate conformance`: a versioned, self-describing suite that another
//! implementation of the rules can run against its own engine.
//!
//! The suite is JSON: packs covering every rule option and board sizes 5 to
//! 11; positions reached by recorded action lines, each with its sorted
//! legal actions, actions that must be refused, and perft counts; and game
//! lines that reach every rare rule, each with the state expected at its
//! end. Everything is generated from seeds by the engine itself, so the
//! suite and the engine cannot drift. `docs/conformance.md` explains it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, bail};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use super::{EXIT_OK, err};
use crate::files::write_folder;
use crate::level::render::level_from_diagram;
use crate::level::{Level, Pack};
use crate::rules::{
    Action, ActionKind, GameState, IllegalAction, JumpRule, Outcome, Player, RuleOption, Stage, WinKind,
    perft,
};

/// The layout version of the suite's files.
pub const SUITE_VERSION: u32 = 2;

/// What `conformance` was asked.
#[derive(Debug, clap::Args)]
pub struct ConformanceArgs {
    /// The folder to write the suite into: created, or replaced whole when
    /// it is empty or holds an earlier suite (a folder holding other files
    /// is refused). The suite is written beside it first, so that an
    /// interrupted run leaves the old folder as it was.
    #[arg(long)]
    pub out: PathBuf,
}

/// One pack of the suite: a name, its rules, and levels drawn in the legend.
struct SuitePack {
    name: &'static str,
    about: &'static str,
    rules: &'static [(RuleOption, i64)],
    jump: JumpRule,
    levels: Vec<Level>,
}

fn drawn(id: &str, diagram: &str) -> Level {
    // The diagrams below are fixed and valid; a mistake in one is a bug
    // that the suite's own test catches at once.
    level_from_diagram(id, diagram).unwrap_or_else(|e| Level::new(format!("{id}-{e}"), 5, 5))
}

/// The suite's packs: boards of every size and shape, own goal sets, and
/// the bundled levels, with the rule options each pack varies.
///
/// Its length: the packs are data, written out one after another.
fn suite_packs() -> Vec<SuitePack> {
    let mut sizes = vec![
        drawn("tiny-5x5", ". . 2 . .\n. . . . .\n. . F . .\n. . . . .\n. . 1 . ."),
        drawn(
            "wide-8x6",
            ". . . 2 . . . .\n. # . . . . # .\n. . . F . . . .\n. . i . . c . .\n. # . . . . # .\n. . . . 1 . . .",
        ),
        drawn(
            "tall-6x8",
            ". . 2 . . .\n. . . . . .\n# # . # . #\n. . . r . .\n. . F . . .\n# . # . # #\n. . . . . .\n. . 1 . . .",
        ),
        drawn(
            "walls-7x7",
            ". . . 2 . . .\n. # . . . # .\n. . s . . . .\n. . . F . . .\n. . . . c . .\n. # . . . # .\n. . . 1 . . .",
        ),
    ];
    // No `F`: the flag starts on the default centre of an even board, e5.
    sizes.push(drawn(
        "even-10x10",
        ". . . . . 2 . . . .\n. # . . . . . . # .\n. . . . . . . . . .\n. . # . . . . # . .\n. . . . . . i . . .\n. . . c . . . . . .\n. . # . . . . # . .\n. . . . . . . . . .\n. # . . . . . . # .\n. . . . 1 . . . . .",
    ));
    let mut goals = drawn(
        "own-goals-7x7",
        ". . . 2 . . .\n. . . . . . .\n. . . . . . .\n. . . F . . .\n. . . . . . .\n. . . . . . .\n. . . 1 . . .",
    );
    goals.goals[Player::One] = Some(["a4", "g4"].iter().filter_map(|c| c.parse().ok()).collect());
    goals.goals[Player::Two] = Some(["d1"].iter().filter_map(|c| c.parse().ok()).collect());
    goals.first = Player::Two;
    sizes.push(goals);
    // Levels of both bundled packs, sizes 5 to 11, walls and crates.
    let packs = Pack::bundled_both();
    let bundled: Vec<Level> = ["open", "crates", "courtyard", "arena", "maze", "tiny", "fortress"]
        .iter()
        .filter_map(|id| packs.iter().find_map(|p| p.level(id)).cloned())
        .collect();
    let duel = || {
        vec![
            drawn("duel-5x5", ". . 2 . .\n. i . c .\n. . F . .\n. r . s .\n. . 1 . ."),
            drawn(
                "corridor-5x7",
                ". . 2 . .\n. # . # .\n. # . # .\n. . F . .\n. # . # .\n. # . # .\n. . 1 . .",
            ),
        ]
    };
    vec![
        SuitePack {
            name: "standard",
            about: "The default rules on the bundled levels: sizes 5 to 11, walls, crates of every stage.",
            rules: &[],
            jump: JumpRule::Diagonal,
            levels: bundled,
        },
        SuitePack {
            name: "sizes",
            about: "Odd and even sizes, non-square boards, a painted goal set, player 2 first.",
            rules: &[],
            jump: JumpRule::Diagonal,
            levels: sizes,
        },
        SuitePack {
            name: "straight-jumps",
            about: "jump = straight.",
            rules: &[],
            jump: JumpRule::Straight,
            levels: duel(),
        },
        SuitePack {
            name: "no-jumps",
            about: "jump = none.",
            rules: &[],
            jump: JumpRule::None,
            levels: duel(),
        },
        SuitePack {
            name: "quick-crates",
            about: "One destroyed crate wins; two placements each; no flag bonus.",
            rules: &[
                (RuleOption::CratesToWin, 1),
                (RuleOption::CratePlacements, 2),
                (RuleOption::FlagBonusActions, 0),
            ],
            jump: JumpRule::Diagonal,
            levels: duel(),
        },
        SuitePack {
            name: "long-turns",
            about: "Four bonus actions for the flag, ten placements, eight crates to win.",
            rules: &[
                (RuleOption::FlagBonusActions, 4),
                (RuleOption::CratePlacements, 10),
                (RuleOption::CratesToWin, 8),
            ],
            jump: JumpRule::Diagonal,
            levels: duel(),
        },
        SuitePack {
            name: "scenarios",
            about: "Hand-drawn levels whose lines reach the rules a client most often misreads (docs/conformance.md, \"Scenarios\").",
            rules: &[],
            jump: JumpRule::Diagonal,
            levels: vec![
                drawn("steal-5x5", ". . . . .\n. 2 . . .\n. . F . .\n. 1 . . .\n. . . . ."),
                drawn("goal-rank-5x5", ". . 2 . .\n. . . . .\n. . F . .\n. . . . .\n. . 1 . ."),
                drawn("slide-home-5x5", ". . 2 . .\n. . . F .\n. . . . .\n. . 1 i .\n. . . . ."),
                drawn("flag-jump-5x5", ". . . . .\n. . F . .\n. . 2 . .\n. . 1 . .\n. . . . ."),
                drawn("wall-jump-5x5", ". F . . .\n. . # . .\n. . 2 . .\n. . 1 . .\n. . . . ."),
                // Initial crates cut player 1's routes (W001): the path rule
                // alone would let a crate onto its start square once it
                // leaves; rule 7 never does.
                drawn("cut-start-5x5", ". . 2 . .\n. . . . .\n. . F . .\ni i i i i\n. . 1 . ."),
            ],
        },
        SuitePack {
            name: "boxed-in",
            about: "No jumps and one placement each: a carrier that shuts itself in must pass during its bonus actions.",
            rules: &[(RuleOption::CratePlacements, 1)],
            jump: JumpRule::None,
            levels: vec![drawn("pocket-5x5", "# . . . .\n1 # . . .\n. . . . .\n. . . . .\nF 2 . . .")],
        },
        SuitePack {
            name: "draw-counters",
            about: "Draws may be offered once 4 actions have been played, and again 4 actions after a declined offer.",
            rules: &[(RuleOption::DrawOfferAfter, 4), (RuleOption::DrawReofferGap, 4)],
            jump: JumpRule::Diagonal,
            levels: vec![drawn("tiny-5x5", ". . 2 . .\n. . . . .\n. . F . .\n. . . . .\n. . 1 . .")],
        },
        SuitePack {
            name: "early-draws",
            about: "Draws may be offered from the first action, and offered again at once after a refusal.",
            rules: &[(RuleOption::DrawOfferAfter, 0), (RuleOption::DrawReofferGap, 0)],
            jump: JumpRule::Diagonal,
            levels: duel(),
        },
    ]
}

impl SuitePack {
    fn pack(&self) -> anyhow::Result<Pack> {
        let mut pack = Pack::new(format!("Conformance: {}", self.name));
        pack.description = Some(self.about.to_owned());
        for &(option, value) in self.rules {
            pack.rules.set_number(option, value)?;
        }
        pack.rules.jump = self.jump;
        pack.levels.clone_from(&self.levels);
        Ok(pack)
    }
}

/// The state of a game as the suite records it.
#[must_use]
pub fn state_json(state: &GameState) -> Value {
    let outcome = match state.outcome() {
        None => Value::Null,
        Some(Outcome::Draw) => json!("draw"),
        Some(Outcome::Win { winner, by }) => json!({
            "winner": winner.number(),
            "by": match by { WinKind::Flag => "flag", WinKind::Crates => "crates" },
        }),
    };
    let players: Vec<Value> = Player::BOTH
        .iter()
        .map(|&p| {
            json!({
                "cell": state.position(p).to_string(),
                "start": state.start(p).to_string(),
                "destroyed": state.destroyed(p),
                "placements_left": state.placements_left(p),
            })
        })
        .collect();
    let mut crates: Vec<String> = Vec::new();
    for stage in Stage::ALL {
        for cell in state.crates(stage).iter() {
            crates.push(if stage == Stage::Intact { cell.to_string() } else { format!("{cell}:{stage}") });
        }
    }
    crates.sort();
    // A finished game has no player to move and no bonus action left
    // (docs/conformance.md, "Finished games").
    let over = state.is_over();
    json!({
        "to_move": if over { Value::Null } else { json!(state.turn().number()) },
        "actions_played": state.actions_played(),
        "bonus_actions": if over { 0 } else { state.bonus_actions() },
        "over": state.is_over(),
        "outcome": outcome,
        "players": players,
        "flag": { "cell": state.flag().to_string(), "carrier": state.carrier().map(Player::number) },
        "crates": crates,
    })
}

/// A line of play: actions, and draw offers (`draw:accepted`,
/// `draw:declined`), which are not actions.
#[derive(Clone, Debug, Default)]
struct Line(Vec<String>);

impl Line {
    fn text(&self) -> String {
        self.0.join(" ")
    }
}

fn legal_sorted(state: &GameState) -> Vec<String> {
    state.legal_actions().sorted().iter().map(ToString::to_string).collect()
}

/// The pushes from `state` that the path rule refuses as slides.
fn refused_slides(state: &GameState) -> Vec<(Action, IllegalAction)> {
    let mover = state.position(state.turn());
    let mut out = Vec::new();
    for cell in state.all_crates().iter() {
        let close = mover.rank().abs_diff(cell.rank()) + mover.file().abs_diff(cell.file()) == 1;
        if !close {
            continue;
        }
        let action = Action::Move(cell);
        if let Err(why @ (IllegalAction::SlideCutsRoute { .. } | IllegalAction::SlideOntoStart(..))) =
            state.check(action)
        {
            out.push((action, why));
        }
    }
    out
}

fn position_entry(pack: &str, level: &str, line: &Line, state: &GameState, depth: u32) -> Value {
    let counts: Vec<u64> = (1..=depth).map(|d| perft(state, d)).collect();
    let refused: Vec<Value> = refused_slides(state)
        .into_iter()
        .map(|(a, why)| json!({ "action": a.to_string(), "why": why.to_string() }))
        .collect();
    json!({
        "pack": pack,
        "level": level,
        "line": line.text(),
        "to_move": state.turn().number(),
        "legal": legal_sorted(state),
        "refused": refused,
        "perft": counts,
        "state": state_json(state),
        "may_offer_draw": state.can_offer_draw().is_ok(),
    })
}

/// The rare events that the suite's games must reach.
const EVENTS: &[&str] = &[
    "pass",
    "steal",
    "steal-on-own-start",
    "refused-slide",
    "break-intact",
    "break-cracked",
    "break-rubble",
    "destroy-splinters",
    "flag-pickup",
    "win-by-flag",
    "win-by-crates",
];

/// Which events `action`, played from `before` to `after`, shows.
fn events(before: &GameState, action: Action, after: &GameState) -> Vec<&'static str> {
    let mut found = Vec::new();
    let mover = before.turn();
    match before.check(action) {
        Ok(ActionKind::Pass) => found.push("pass"),
        Ok(ActionKind::Steal) => {
            found.push("steal");
            let victim = mover.other();
            if before.position(victim) == before.start(victim) {
                found.push("steal-on-own-start");
            }
        }
        Ok(ActionKind::Break) => {
            if let Action::Move(cell) = action {
                found.push(match before.crate_at(cell) {
                    Some(Stage::Intact) => "break-intact",
                    Some(Stage::Cracked) => "break-cracked",
                    Some(Stage::Rubble) => "break-rubble",
                    _ => "destroy-splinters",
                });
            }
        }
        _ => {}
    }
    if before.carrier() != Some(mover) && after.carrier() == Some(mover) {
        found.push("flag-pickup");
    }
    match after.outcome() {
        Some(Outcome::Win { by: WinKind::Flag, .. }) => found.push("win-by-flag"),
        Some(Outcome::Win { by: WinKind::Crates, .. }) => found.push("win-by-crates"),
        _ => {}
    }
    found
}

/// Random games (a steal or a break taken whenever one is legal, to reach
/// them sooner) until every event is found; each event keeps the first
/// line that reaches it.
fn find_events(packs: &[(String, Pack)]) -> BTreeMap<&'static str, (String, String, Line, GameState)> {
    let mut found: BTreeMap<&'static str, (String, String, Line, GameState)> = BTreeMap::new();
    let mut rng = ChaCha8Rng::seed_from_u64(20_261_201);
    'games: for game in 0..20_000u32 {
        if found.len() == EVENTS.len() {
            break;
        }
        let (pack_name, pack) = &packs[game as usize % packs.len()];
        let level = &pack.levels[(game as usize / packs.len()) % pack.levels.len()];
        let Ok(mut state) = level.start_state(pack.rules) else { continue };
        let mut line = Line::default();
        for _ in 0..200 {
            if state.is_over() {
                continue 'games;
            }
            if !found.contains_key("refused-slide") && !refused_slides(&state).is_empty() {
                found.insert("refused-slide", (pack_name.clone(), level.id.clone(), line.clone(), state));
            }
            let actions = state.legal_actions();
            let eager: Vec<Action> = actions
                .iter()
                .copied()
                .filter(|&a| matches!(state.check(a), Ok(ActionKind::Steal | ActionKind::Break)))
                .collect();
            let action = if !eager.is_empty() && rng.random_range(0..3) > 0 {
                eager[rng.random_range(0..eager.len())]
            } else {
                actions[rng.random_range(0..actions.len())]
            };
            let before = state;
            if state.play(action).is_err() {
                continue 'games;
            }
            line.0.push(action.to_string());
            for event in events(&before, action, &state) {
                found
                    .entry(event)
                    .or_insert_with(|| (pack_name.clone(), level.id.clone(), line.clone(), state));
            }
        }
    }
    found
}

/// A game of the suite: the line, and what must hold after it — the
/// state, the sorted legal actions, and whether the player to move may
/// offer a draw.
fn game_entry(event: &str, pack: &str, level: &str, line: &str, state: &GameState) -> Value {
    let mut entry = json!({
        "event": event,
        "pack": pack,
        "level": level,
        "line": line,
        "expected": state_json(state),
        "legal": legal_sorted(state),
        "may_offer_draw": state.can_offer_draw().is_ok(),
    });
    let refused = refused_slides(state);
    if !refused.is_empty() {
        entry["refused"] = refused
            .into_iter()
            .map(|(a, why)| json!({ "action": a.to_string(), "why": why.to_string() }))
            .collect();
    }
    entry
}

/// Plays `line` (actions and draw offers) from the level's start.
fn play_line(pack: &Pack, level_id: &str, line: &str) -> anyhow::Result<GameState> {
    let level = pack.level(level_id).with_context(|| format!("no level `{level_id}`"))?;
    let mut state = *super::playable(level, pack.rules)?.start();
    for word in line.split_whitespace() {
        match word {
            "draw:accepted" => state.offer_draw(true)?,
            "draw:declined" => state.offer_draw(false)?,
            _ => {
                let action: Action = word.parse().map_err(|e| anyhow::anyhow!("`{word}`: {e}"))?;
                state.play(action).map_err(|e| anyhow::anyhow!("`{word}` of [{line}]: {e}"))?;
            }
        }
    }
    Ok(state)
}

/// A hand-written line that reaches a rule clients misread, and the claim
/// it makes, which the generator checks before writing it.
struct Scenario {
    event: &'static str,
    pack: &'static str,
    level: &'static str,
    line: &'static str,
    claim: &'static str,
    holds: fn(&GameState) -> bool,
}

fn cell(name: &str) -> Option<crate::rules::Cell> {
    name.parse().ok()
}

fn adjacent(a: crate::rules::Cell, b: crate::rules::Cell) -> bool {
    a.rank().abs_diff(b.rank()) + a.file().abs_diff(b.file()) == 1
}

const SCENARIOS: &[Scenario] = &[
    Scenario {
        event: "steal-in-legal-list",
        pack: "scenarios",
        level: "steal-5x5",
        line: "a2 b3 a3 c3 b3 +e1",
        claim: "player 1 may steal from the carrier beside it",
        holds: |s| s.legal_actions().contains(Action::Steal),
    },
    Scenario {
        event: "no-steal-from-victims-start",
        pack: "scenarios",
        level: "steal-5x5",
        line: "a2 b3 a3 c3 b3 +e1 a4 +d1 b4 +c1",
        claim: "player 1, on player 2's start square beside the carrier, may not steal",
        holds: |s| {
            let (me, them) = (s.turn(), s.turn().other());
            s.position(me) == s.start(them)
                && s.carrier() == Some(them)
                && adjacent(s.position(me), s.position(them))
                && !s.legal_actions().contains(Action::Steal)
        },
    },
    Scenario {
        event: "pickup-on-own-goal-wins",
        pack: "scenarios",
        level: "goal-rank-5x5",
        line: "b1 c4 c1 c3 d3 d2 +a5 d1 x c4 d1",
        claim: "the flag dropped by a steal on player 1's goal rank, picked up there, wins at once, away from the start square",
        holds: |s| {
            s.outcome() == Some(Outcome::Win { winner: Player::One, by: WinKind::Flag })
                && s.position(Player::One) != s.start(Player::One)
        },
    },
    Scenario {
        event: "carrier-slides-home",
        pack: "scenarios",
        level: "slide-home-5x5",
        line: "c3 b5 d3 a5 d4 d3 d2",
        claim: "a carrier whose slide puts it on its goal rank wins",
        holds: |s| {
            s.outcome() == Some(Outcome::Win { winner: Player::One, by: WinKind::Flag })
                && cell("d1").and_then(|c| s.crate_at(c)) == Some(Stage::Intact)
        },
    },
    Scenario {
        event: "jump-onto-lying-flag",
        pack: "scenarios",
        level: "flag-jump-5x5",
        line: "c4",
        claim: "a straight jump lands on the lying flag and picks it up",
        holds: |s| s.carrier() == Some(Player::One) && s.bonus_actions() == 2 && s.turn() == Player::One,
    },
    Scenario {
        event: "diagonal-jump-past-a-wall",
        pack: "scenarios",
        level: "wall-jump-5x5",
        line: "d3",
        claim: "with a wall beyond the opponent, the mover jumps beside it",
        holds: |s| Some(s.position(Player::One)) == cell("d3"),
    },
    Scenario {
        event: "no-crate-on-a-left-start-square",
        pack: "scenarios",
        level: "cut-start-5x5",
        line: "b1",
        claim: "player 2 may not place a crate on player 1's empty start square, though no route that holds runs through it",
        holds: |s| {
            let start = s.start(Player::One);
            s.position(Player::One) != start
                && s.turn() == Player::Two
                && !s.legal_actions().contains(Action::Place(start))
        },
    },
    Scenario {
        event: "pass-only-action",
        pack: "boxed-in",
        level: "pocket-5x5",
        line: "a3 c1 a2 b1 a1 +a2",
        claim: "the carrier, shut in with a bonus action left, has pass as its only action",
        holds: |s| s.legal_actions().as_slice() == [Action::Pass] && s.bonus_actions() == 1,
    },
    Scenario {
        event: "pass-during-bonus",
        pack: "boxed-in",
        level: "pocket-5x5",
        line: "a3 c1 a2 b1 a1 +a2 pass",
        claim: "a pass uses the last bonus action, and the turn goes to player 2",
        holds: |s| s.turn() == Player::Two && s.bonus_actions() == 0 && !s.is_over(),
    },
    Scenario {
        event: "draw-too-early",
        pack: "draw-counters",
        level: "tiny-5x5",
        line: "b1 b5 a1",
        claim: "3 of 4 actions played: no draw offer",
        holds: |s| s.can_offer_draw().is_err(),
    },
    Scenario {
        event: "draw-from-the-count",
        pack: "draw-counters",
        level: "tiny-5x5",
        line: "b1 b5 a1 a5",
        claim: "4 actions played: a draw may be offered",
        holds: |s| s.can_offer_draw().is_ok(),
    },
    Scenario {
        event: "draw-reoffer-too-soon",
        pack: "draw-counters",
        level: "tiny-5x5",
        line: "b1 b5 a1 a5 draw:declined b1 b5",
        claim: "2 actions after player 1's declined offer: player 1 may not offer again",
        holds: |s| s.turn() == Player::One && s.can_offer_draw().is_err(),
    },
    Scenario {
        event: "draw-offer-by-the-other-player",
        pack: "draw-counters",
        level: "tiny-5x5",
        line: "b1 b5 a1 a5 draw:declined b1",
        claim: "player 1's declined offer does not hold back player 2's",
        holds: |s| s.turn() == Player::Two && s.can_offer_draw().is_ok(),
    },
    Scenario {
        event: "draw-reoffer-after-the-gap",
        pack: "draw-counters",
        level: "tiny-5x5",
        line: "b1 b5 a1 a5 draw:declined b1 b5 a1 a5",
        claim: "4 actions after player 1's declined offer: player 1 may offer again",
        holds: |s| s.turn() == Player::One && s.can_offer_draw().is_ok(),
    },
    Scenario {
        event: "draw-during-bonus",
        pack: "draw-counters",
        level: "tiny-5x5",
        line: "b1 b5 c1 c5 c2 c4 c3",
        claim: "a draw may be offered during bonus actions",
        holds: |s| s.bonus_actions() == 2 && s.can_offer_draw().is_ok(),
    },
    Scenario {
        event: "draw-refused-after-the-game",
        pack: "scenarios",
        level: "slide-home-5x5",
        line: "c3 b5 d3 a5 d4 d3 d2",
        claim: "a finished game takes no draw offer",
        holds: |s| s.is_over() && s.can_offer_draw().is_err(),
    },
];

/// The scenarios' games, each checked against its claim.
fn scenario_games(packs: &[(String, Pack)]) -> anyhow::Result<Vec<Value>> {
    let mut out = Vec::new();
    for scenario in SCENARIOS {
        let (_, pack) = packs
            .iter()
            .find(|(name, _)| name == scenario.pack)
            .with_context(|| format!("no suite pack `{}`", scenario.pack))?;
        let state = play_line(pack, scenario.level, scenario.line)
            .with_context(|| format!("scenario `{}`", scenario.event))?;
        if !(scenario.holds)(&state) {
            bail!(
                "scenario `{}`: {} does not hold after [{}]",
                scenario.event,
                scenario.claim,
                scenario.line
            );
        }
        let mut entry = game_entry(scenario.event, scenario.pack, scenario.level, scenario.line, &state);
        entry["claim"] = scenario.claim.into();
        out.push(entry);
    }
    Ok(out)
}

/// Draw offers, accepted and declined, on the pack that allows them early.
fn draw_games(pack_name: &str, pack: &Pack) -> anyhow::Result<Vec<Value>> {
    let level = pack.levels.first().context("the draw pack has a level")?;
    let mut out = Vec::new();
    for accepted in [true, false] {
        let mut state = *super::playable(level, pack.rules)?.start();
        let mut line = Line::default();
        let first = state.legal_actions().sorted()[0];
        state.play(first).map_err(|e| anyhow::anyhow!("{e}"))?;
        line.0.push(first.to_string());
        state.offer_draw(accepted).map_err(|e| anyhow::anyhow!("{e}"))?;
        line.0.push(if accepted { "draw:accepted" } else { "draw:declined" }.to_owned());
        if !accepted {
            let next = state.legal_actions().sorted()[0];
            state.play(next).map_err(|e| anyhow::anyhow!("{e}"))?;
            line.0.push(next.to_string());
        }
        let event = if accepted { "draw-accepted" } else { "draw-declined" };
        out.push(game_entry(event, pack_name, &level.id, &line.text(), &state));
    }
    Ok(out)
}

/// Whether `dir` holds a suite this command wrote, which a new one may
/// replace whole.
fn is_suite(dir: &std::path::Path) -> bool {
    std::fs::read_to_string(dir.join("manifest.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .is_some_and(|manifest| manifest["suite"] == "pushcrate-conformance")
}

pub(super) fn conformance_command(args: &ConformanceArgs) -> anyhow::Result<u8> {
    let dir = &args.out;
    // A signal stops the run at the next step; the folder is written in one
    // piece at the end, or not at all.
    let stop = super::stop_on_ctrl_c();
    let stopped = || {
        let stopped = stop.load(std::sync::atomic::Ordering::Relaxed);
        if stopped {
            err(&format!("interrupted: nothing was written; {} is as it was\n", crate::files::shown(dir)));
        }
        stopped
    };
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let json_file = |value: &Value| -> anyhow::Result<Vec<u8>> {
        Ok(format!("{}\n", serde_json::to_string_pretty(value)?).into_bytes())
    };
    let mut packs = Vec::new();
    for suite in suite_packs() {
        let pack = suite.pack()?;
        for level in &pack.levels {
            if let Err(e) = level.playable(pack.rules) {
                bail!("suite level `{}` of `{}` is not playable: {e}", level.id, suite.name);
            }
        }
        packs.push((suite.name.to_owned(), pack));
    }
    let mut pack_files = Vec::new();
    for (name, pack) in &packs {
        // Every level carries its resolved values under `derived`, so that
        // a client needs no default table of its own.
        let text =
            super::export::with_derived(pack, |level| super::export::resolved_only(level, pack.rules))?;
        let value: toml::Value = toml::from_str(&text)?;
        let file = format!("packs/{name}.json");
        files.push((file.clone(), json_file(&serde_json::to_value(&value)?)?));
        pack_files.push(json!({ "name": name, "file": file, "levels": pack.levels.len() }));
    }

    if stopped() {
        return Ok(super::EXIT_INTERRUPTED);
    }
    let positions = suite_positions(&packs);

    if stopped() {
        return Ok(super::EXIT_INTERRUPTED);
    }
    let games = suite_games(&packs, &stopped)?;
    let Some(games) = games else { return Ok(super::EXIT_INTERRUPTED) };

    files.push(("positions.json".to_owned(), json_file(&json!({ "positions": positions }))?));
    files.push(("games.json".to_owned(), json_file(&json!({ "games": games }))?));
    let manifest = manifest(pack_files, positions.len(), games.len());
    files.push(("manifest.json".to_owned(), json_file(&manifest)?));
    if stopped() {
        return Ok(super::EXIT_INTERRUPTED);
    }
    write_folder(dir, &files, "the conformance suite", is_suite)?;
    err(&format!(
        "wrote the conformance suite to {}: {} packs, {} positions, {} games\n",
        crate::files::shown(dir),
        packs.len(),
        positions.len(),
        games.len()
    ));
    Ok(EXIT_OK)
}

/// The suite's positions: each level's start, and three points of a
/// seeded random line through it.
fn suite_positions(packs: &[(String, Pack)]) -> Vec<Value> {
    let mut positions = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for (name, pack) in packs {
        for level in &pack.levels {
            let Ok(mut state) = level.start_state(pack.rules) else { continue };
            let small = u32::from(level.width) * u32::from(level.height) <= 49;
            let mut line = Line::default();
            positions.push(position_entry(name, &level.id, &line, &state, if small { 4 } else { 3 }));
            for stop in [6, 15, 30] {
                while line.0.len() < stop && !state.is_over() {
                    let actions = state.legal_actions();
                    let action = actions[rng.random_range(0..actions.len())];
                    state.play_unchecked(action);
                    line.0.push(action.to_string());
                }
                positions.push(position_entry(name, &level.id, &line, &state, 3));
                if state.is_over() {
                    break;
                }
            }
        }
    }
    positions
}

/// The suite's games: a game reaching each event, the draw offers and the
/// hand-written scenarios; `None` when `stopped` says the run was stopped.
fn suite_games(packs: &[(String, Pack)], stopped: &dyn Fn() -> bool) -> anyhow::Result<Option<Vec<Value>>> {
    let found = find_events(packs);
    let mut games = Vec::new();
    for event in EVENTS {
        let Some((pack, level, line, state)) = found.get(event) else {
            bail!("no game of the search reached `{event}`: the suite would be incomplete");
        };
        games.push(game_entry(event, pack, level, &line.text(), state));
    }
    if stopped() {
        return Ok(None);
    }
    let draw_pack = packs.iter().find(|(n, _)| n == "early-draws").context("the draw pack")?;
    games.extend(draw_games(&draw_pack.0, &draw_pack.1)?);
    games.extend(scenario_games(packs)?);
    Ok(Some(games))
}

/// The suite's manifest: what each file holds and how to read it.
fn manifest(pack_files: Vec<Value>, positions: usize, games: usize) -> Value {
    json!({
        "suite": "pushcrate-conformance",
        "version": SUITE_VERSION,
        "pack_format": crate::level::FORMAT_VERSION,
        "generator": format!("pushcrate {}", env!("CARGO_PKG_VERSION")),
        "rules": "docs/rules.md (sections as the engine's messages cite them)",
        "notation": "actions as in docs/rules.md section 13; `draw:accepted` and `draw:declined` are draw offers made by the player to move before its action, not actions",
        "packs": pack_files,
        "positions": { "file": "positions.json", "count": positions, "fields": "pack, level, line (played from the level's start), to_move, legal (sorted), refused (pushes the path rule refuses, with the reason), perft (counts at depth 1..n), state, may_offer_draw (whether the player to move may offer a draw now)" },
        "games": { "file": "games.json", "count": games, "fields": "event, pack, level, line, expected (the state after the line), legal (the sorted legal actions after it), may_offer_draw, refused (pushes the path rule refuses, where there are any), claim (for hand-written scenarios: what the line shows)" },
        "state": "to_move (null once the game is over), actions_played, bonus_actions (0 once the game is over), over, outcome (null, \"draw\" or {winner, by: flag|crates}), players [1, 2] {cell, start, destroyed, placements_left}, flag {cell, carrier}, crates (sorted, \"c3\" or \"c3:cracked\")",
        "levels": "every level of a pack carries derived.resolved: width, height, first, flag, p1 and p2 {start, goals}, and every rule option, the defaults applied",
    })
}
