//! Repair: a level whose fix is known gets that fix, as the balance check
//! confirms it, with no new warning and, when asked, its symmetry kept.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pushcrate::ai::Agent;
use pushcrate::level::render::level_from_diagram;
use pushcrate::repair::{Edit, Options, repair};
use pushcrate::rules::{Player, Rules, Symmetry};
use pushcrate::sim::Plan;

use crate::support::c;

/// Courtyard opened beside the flag (the repair `repair` itself proposes
/// for it, balanced under the default check: docs/analysis.md), with the
/// first player's start one step nearer the flag (its default goal rank
/// moving with it): the known fix is to move that start square back.
fn too_close() -> pushcrate::level::Level {
    level_from_diagram(
        "too-close",
        "
        . . . 2 . . .
        . # . . . # .
        . . . . . . .
        . . . F . . .
        . . . . . . .
        . # . 1 . # .
        . . . . . . .",
    )
    .unwrap()
}

const CONFIRM: [[Agent; 2]; 1] = [[Agent::EXPERT, Agent::EXPERT]];

fn options(keep_symmetry: bool) -> Options<'static> {
    Options {
        max_edits: 1,
        keep_symmetry,
        screen: 6,
        quick_games: 12,
        beam: 1,
        confirm: 3,
        plan: Plan::only(&CONFIRM),
        cap: 60,
        every_size: false,
        seed: 3,
        threads: 0,
    }
}

#[test]
fn a_start_one_step_too_close_is_moved_back() {
    let level = too_close();
    let found = repair(
        &level.playable(Rules::default()).unwrap(),
        &options(false),
        &|_| {},
        &Arc::new(AtomicBool::new(false)),
    );
    assert!(found.before.rate > 0.6, "the level favours player 1: {:?}", found.before);
    assert!(!found.proposals.is_empty(), "{found:?}");
    let back = Edit::MoveStart(Player::One, c("d2"), c("d1"));
    let fix = found.proposals.iter().find(|p| p.edits == [back]).expect("the start moved back is proposed");
    assert!(fix.check.is_some(), "the proposal was checked in full");
    assert!(
        (fix.score().rate - 0.5).abs() < (found.before.rate - 0.5).abs(),
        "the fix brings the score nearer 50%: {} against {:?}",
        fix.verdict(found.before),
        found.before
    );
    for proposal in &found.proposals {
        // No proposal brings an error or a warning the level did not have.
        let before = warnings(&level);
        let after = warnings(proposal.playable.level());
        assert!(after.iter().all(|code| before.contains(code)), "{:?} brings {after:?}", proposal.edits);
        // No proposal is listed that is no nearer 50% than the level as it is.
        assert!(
            proposal.is_balanced() || (proposal.score().rate - 0.5).abs() < (found.before.rate - 0.5).abs(),
            "{} is no better than the level: {:?}",
            proposal.verdict(found.before),
            found.before
        );
    }
}

#[test]
fn with_symmetry_kept_every_edit_comes_with_its_mirror_image() {
    let level = too_close();
    let found = repair(
        &level.playable(Rules::default()).unwrap(),
        &options(true),
        &|_| {},
        &Arc::new(AtomicBool::new(false)),
    );
    assert!(!found.proposals.is_empty());
    let mirror =
        |cell: pushcrate::rules::Cell| c(&format!("{}{}", (b'g' - (cell.file())) as char, cell.rank() + 1));
    for proposal in &found.proposals {
        let symmetry = pushcrate::analysis::Symmetries::of(proposal.playable.level());
        assert!(symmetry.has(Symmetry::MirrorFiles), "{:?} breaks the left-to-right mirror", proposal.edits);
        for edit in &proposal.edits {
            if let Edit::Wall(cell, _) = edit {
                assert!(
                    proposal.edits.iter().any(|e| pushcrate::repair::edit_cells(e) == [mirror(*cell)]),
                    "{edit:?} has no mirror image in {:?}",
                    proposal.edits
                );
            }
        }
    }
}

fn warnings(level: &pushcrate::level::Level) -> Vec<String> {
    let report = pushcrate::analysis::analyze_level(
        level,
        Rules::default(),
        &pushcrate::analysis::AnalysisOptions::default(),
    );
    report
        .findings
        .iter()
        .filter(|f| f.severity <= pushcrate::analysis::Severity::Warning)
        .map(|f| f.code.as_str().to_owned())
        .collect()
}

/// The search grows edits one at a time and stops at the fewest that the
/// check confirms as balanced; asked to, it goes on to `max_edits`, and
/// the fewest-edit proposals are the same either way.
///
/// The check here is random play, which scores every valid layout near
/// even: what is under test is the search's order, not its agents.
#[test]
fn the_search_stops_at_the_fewest_edits_that_balance() {
    const EVEN: [[Agent; 2]; 1] = [[Agent::Random, Agent::Random]];
    let playable = too_close().playable(Rules::default()).unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    let fewest = Options { max_edits: 2, plan: Plan::only(&EVEN), ..options(false) };
    let found = repair(&playable, &fewest, &|_| {}, &cancel);
    assert!(
        found.proposals.iter().any(|p| p.steps == 1 && p.is_balanced()),
        "a single edit balances the level: {:?}",
        found.proposals.iter().map(|p| (p.steps, p.verdict(found.before))).collect::<Vec<_>>()
    );
    assert!(
        found.proposals.iter().all(|p| p.steps == 1),
        "no larger fix is checked once one edit balances it"
    );
    assert_eq!(found.stopped_at, Some(1));
    let every = repair(&playable, &Options { every_size: true, ..fewest }, &|_| {}, &cancel);
    assert!(every.proposals.iter().any(|p| p.steps == 2), "asked to, the search goes on to two edits");
    assert!(every.games > found.games);
    assert_eq!(every.stopped_at, None);
    let one_edit = |r: &pushcrate::repair::Repair| {
        r.proposals.iter().filter(|p| p.steps == 1).map(|p| p.edits.clone()).collect::<Vec<_>>()
    };
    assert_eq!(one_edit(&found), one_edit(&every));
}
