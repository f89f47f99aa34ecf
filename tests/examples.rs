//! The worked examples of docs/rules.md section 14, each a test, and the edge
//! cases of each rule.

use pushcrate::rules::{ActionKind, IllegalAction, JumpRule, Outcome, Route, Rules, Stage, WinKind};

use crate::support::*;

/// 5 × 5, player 1 on b3 with the crate of `stage` on c3; the flag and
/// goals sit in corners where no route is affected.
fn push_board(stage: char, d3: char) -> String {
    format!(
        "F . . . 2
         . . . . .
         . 1 {stage} {d3} .
         . . . . .
         . . . . ."
    )
}

#[test]
fn example_1_slide() {
    let mut s = state(&push_board('i', '.'), "a1", "e1");
    assert_eq!(s.play(a("c3")), Ok(ActionKind::Slide));
    assert_eq!(s.crate_at(c("d3")), Some(Stage::Intact));
    assert_eq!(s.crate_at(c("c3")), None);
    assert_eq!(s.position(P1), c("c3"));
}

#[test]
fn example_2_break_against_a_wall() {
    let mut s = state(&push_board('i', '#'), "a1", "e1");
    assert_eq!(s.play(a("c3")), Ok(ActionKind::Break));
    assert_eq!(s.crate_at(c("c3")), Some(Stage::Cracked));
    assert_eq!(s.position(P1), c("b3"));
}

#[test]
fn example_3_rubble_never_slides() {
    let mut s = state(&push_board('r', '.'), "a1", "e1");
    assert_eq!(s.play(a("c3")), Ok(ActionKind::Break));
    assert_eq!(s.crate_at(c("c3")), Some(Stage::Splinters));
    assert_eq!(s.crate_at(c("d3")), None);
    assert_eq!(s.position(P1), c("b3"));
}

#[test]
fn example_4_destroy() {
    let mut s = state(&push_board('s', '.'), "a1", "e1");
    assert_eq!(s.play(a("c3")), Ok(ActionKind::Break));
    assert_eq!(s.crate_at(c("c3")), None);
    assert!(!s.all_crates().has(c("c3")));
    assert_eq!(s.destroyed(P1), 1);
    assert_eq!(s.position(P1), c("b3"));
}

#[test]
fn example_5_only_the_front_crate() {
    let mut s = state(&push_board('i', 'i'), "a1", "e1");
    assert_eq!(s.play(a("c3")), Ok(ActionKind::Break));
    assert_eq!(s.crate_at(c("c3")), Some(Stage::Cracked));
    assert_eq!(s.crate_at(c("d3")), Some(Stage::Intact));
}

#[test]
fn example_6_jump() {
    let open = "F . . . .
                . . . . .
                . 1 2 . .
                . . . . .
                . . . . .";
    let s = state(open, "a1", "e1");
    assert_eq!(s.check(a("d3")), Ok(ActionKind::Jump));
    assert!(s.check(a("c4")).is_err(), "no diagonal jump while d3 is free");

    let walled = "F . . . .
                  . . . . .
                  . 1 2 # .
                  . . . . .
                  . . . . .";
    let s = state(walled, "a1", "e1");
    assert_eq!(s.check(a("c4")), Ok(ActionKind::Jump));
    assert_eq!(s.check(a("c2")), Ok(ActionKind::Jump));
    assert!(s.check(a("d3")).is_err(), "the straight landing is a wall");

    let straight = Rules { jump: JumpRule::Straight, ..Rules::default() };
    let s = state_with(walled, "a1", "e1", straight);
    assert_eq!(s.check(a("c4")), Err(IllegalAction::DiagonalJumpsDisabled));
    let none = Rules { jump: JumpRule::None, ..Rules::default() };
    let s = state_with(open, "a1", "e1", none);
    assert_eq!(s.check(a("d3")), Err(IllegalAction::JumpsDisabled));
}

#[test]
fn example_7_flag_bonus() {
    let mut s = state(
        ". . . . 2
         . . . . .
         . 1 F . .
         . . . . .
         . . . . .",
        "a1",
        "e1",
    );
    play(&mut s, "c3");
    assert_eq!(s.carrier(), Some(P1));
    assert_eq!(s.turn(), P1);
    assert_eq!(s.bonus_actions(), 2);
    play(&mut s, "c4");
    assert_eq!(s.turn(), P1);
    assert_eq!(s.flag(), c("c4"), "the carrier's cell is the flag's cell");
    play(&mut s, "c3");
    assert_eq!(s.turn(), P2);
    assert_eq!(s.actions_played(), 3, "bonus actions count as actions");
}

#[test]
fn example_8_steal() {
    // Player 2 moves first here, takes the flag and spends its bonus.
    let mut level = level(
        ". . . . .
         . . . . .
         . 1 F 2 .
         . . . . .
         . . . . .",
        "a1",
        "e1",
    );
    level.first = P2;
    let mut s = level.start_state(Rules::default()).unwrap();
    play(&mut s, "c3 d3 c3");
    assert_eq!((s.turn(), s.carrier(), s.position(P2)), (P1, Some(P2), c("c3")));
    assert_eq!(s.play(a("x")), Ok(ActionKind::Steal));
    assert_eq!(s.position(P2), c("d3"), "the robbed player returns to its start");
    assert_eq!(s.carrier(), None);
    assert_eq!(s.flag(), c("c3"));
    assert_eq!(s.position(P1), c("b3"), "the stealer does not move");
    assert_eq!(s.turn(), P2);
}

/// The corridor of example 9: c2, c3 and c4 are the only way between
/// player 1's start and the flag.
const CORRIDOR: &str = "
    . . F . 2
    # # . # #
    # # . # #
    . i . . .
    . . 1 . .";

#[test]
fn example_9_path_rule() {
    let s = state(CORRIDOR, "a1 b1 c1 d1 e1", "a5 b5 c5 d5 e5");
    for cell in ["c2", "c3", "c4"] {
        assert!(
            matches!(s.check(a(&format!("+{cell}"))), Err(IllegalAction::PlaceCutsRoute { .. })),
            "placing on {cell} must be illegal"
        );
        assert!(s.sole_path_cells().has(c(cell)));
    }
    assert_eq!(s.check(a("+d2")), Ok(ActionKind::Place), "beside the corridor a second way remains");
    assert_eq!(s.check(a("+e2")), Ok(ActionKind::Place));

    // Sliding the crate on b2 east into c2 is illegal too, and does not
    // turn into a break.
    let mut s = s;
    play(&mut s, "b1 d5 a1 e5 a2 d5");
    assert_eq!(s.position(P1), c("a2"));
    assert_eq!(
        s.check(a("b2")),
        Err(IllegalAction::SlideCutsRoute { from: c("b2"), to: c("c2"), route: Route::StartToFlag(P1) })
    );
    assert!(!s.legal_actions().contains(a("b2")));
}

#[test]
fn example_10_goal_without_flag() {
    let mut s = state(
        "F . . . 2
         . . . . .
         . . . . .
         . 1 . . .
         . . . . .",
        "b1",
        "e1",
    );
    play(&mut s, "b1");
    assert_eq!(s.outcome(), None);
    assert_eq!(s.turn(), P2);
}

// ----- edge cases, rule by rule -----

#[test]
fn steps_never_enter_walls_crates_or_the_opponent() {
    let s = state(
        "F . . . .
         . . # . .
         . i 1 2 .
         . . . . .
         . . . . .",
        "a1",
        "e1",
    );
    assert_eq!(s.check(a("c4")), Err(IllegalAction::Wall(c("c4"))));
    assert_eq!(s.check(a("c2")), Ok(ActionKind::Step));
    assert_eq!(s.check(a("a3")).ok(), None, "two cells away is no step");
    assert_eq!(s.check(a("b3")), Ok(ActionKind::Slide), "a crate's cell is a push");
}

#[test]
fn a_jump_can_land_on_the_flag_and_win() {
    // Player 1's goal is d3, where the flag lies beyond player 2.
    let mut s = state(
        ". . . . .
         . . . . .
         . 1 2 F .
         . . . . .
         . . . . .",
        "d3",
        "e5",
    );
    play(&mut s, "d3");
    assert_eq!(s.outcome(), Some(Outcome::Win { winner: P1, by: WinKind::Flag }), "pickup on own goal wins");
    assert!(s.legal_actions().is_empty(), "a finished game has no legal actions");
    assert_eq!(s.check(a("pass")), Err(IllegalAction::GameOver));
}

#[test]
fn the_carrier_wins_on_its_goal() {
    let mut s = state(
        ". . . . .
         . . . . 2
         . . . . .
         . F . . .
         . 1 . . .",
        "a1 b1 c1",
        "a5",
    );
    play(&mut s, "b2 b1");
    assert_eq!(s.outcome(), Some(Outcome::Win { winner: P1, by: WinKind::Flag }));
}

#[test]
fn a_crate_win_counts_destroyed_crates() {
    let rules = Rules { crates_to_win: 1, ..Rules::default() };
    let mut s = state_with(&push_board('s', '.'), "a1", "e1", rules);
    play(&mut s, "c3");
    assert_eq!(s.outcome(), Some(Outcome::Win { winner: P1, by: WinKind::Crates }));
}

#[test]
fn breaking_never_picks_up_the_flag() {
    let mut s = state(
        ". . . . 2
         . . . . .
         . 1 i F .
         . . . . .
         . . . . .",
        "a1",
        "e1",
    );
    assert_eq!(s.play(a("c3")), Ok(ActionKind::Break), "the lying flag stops a slide");
    assert_eq!(s.carrier(), None);
    assert_eq!(s.position(P1), c("b3"));
}

#[test]
fn placements_run_out() {
    let rules = Rules { crate_placements: 1, ..Rules::default() };
    let mut s = state_with(&push_board('i', '.'), "a1", "e1", rules);
    play(&mut s, "+a2 e4");
    assert_eq!(s.placements_left(P1), 0);
    assert_eq!(s.check(a("+b2")), Err(IllegalAction::NoPlacementsLeft));
    assert!(s.legal_actions().iter().all(|x| !matches!(x, pushcrate::rules::Action::Place(_))));
}

#[test]
fn no_crate_on_a_player_the_flag_or_a_start_square() {
    let mut s = state(&push_board('i', '.'), "a1", "e1");
    assert!(matches!(s.check(a("+b3")), Err(IllegalAction::PlaceOccupied(..))));
    assert!(matches!(s.check(a("+a5")), Err(IllegalAction::PlaceOccupied(..))));
    assert!(matches!(s.check(a("+e5")), Err(IllegalAction::PlaceOccupied(..))));
    play(&mut s, "b2 d5");
    // Player 1 has left its start square b3; it still takes no crate.
    assert!(matches!(s.check(a("+b3")), Err(IllegalAction::PlaceOccupied(..))));
}

#[test]
fn steal_needs_a_carrier_next_to_the_mover() {
    let s = state(&push_board('i', '.'), "a1", "e1");
    assert_eq!(s.check(a("x")), Err(IllegalAction::OpponentNotCarrying));
}

#[test]
fn pass_only_when_nothing_else_is_legal() {
    let s = state(&push_board('i', '.'), "a1", "e1");
    assert_eq!(s.check(a("pass")), Err(IllegalAction::PassNotAllowed));
    // Player 1 is shut in: b1 is a wall, and the crate on a2 may not slide
    // to a3, the only way from player 2's start to the flag. It has no
    // placements, so it can only pass.
    let rules = Rules { crate_placements: 0, ..Rules::default() };
    let mut s = state_with(
        "F . . . .
         . # # # #
         . . . . 2
         i # # # #
         1 # . . .",
        "a1",
        "e5",
        rules,
    );
    assert_eq!(moves(&s), ["pass"]);
    assert_eq!(s.play(a("pass")), Ok(ActionKind::Pass));
    assert_eq!(s.turn(), P2);
    assert_eq!(s.actions_played(), 1);
}

#[test]
fn draw_offers_follow_their_counters() {
    let rules = Rules { draw_offer_after: 2, draw_reoffer_gap: 2, ..Rules::default() };
    let mut s = state_with(&push_board('i', '.'), "a1", "e1", rules);
    assert!(s.can_offer_draw().is_err());
    play(&mut s, "b2 d5");
    assert!(s.offer_draw(false).is_ok(), "declined");
    assert!(s.can_offer_draw().is_err(), "too soon to offer again");
    assert_eq!(s.actions_played(), 2, "an offer is not an action");
    play(&mut s, "b3 e5");
    assert!(s.offer_draw(true).is_ok());
    assert_eq!(s.outcome(), Some(Outcome::Draw));
    assert!(s.legal_actions().is_empty());
}

#[test]
fn illegal_play_leaves_the_state_unchanged() {
    let mut s = state(&push_board('i', '.'), "a1", "e1");
    let before = s;
    assert!(s.play(a("e1")).is_err());
    assert_eq!(s, before);
}

#[test]
fn a_robbed_player_on_its_start_keeps_the_flag_under_it() {
    let mut level = level(
        ". . . . .
         . . 1 . .
         . . . 2 F
         . . . . .
         . . . . .",
        "a1",
        "a5",
    );
    level.first = P2;
    let mut s = level.start_state(Rules::default()).unwrap();
    // Player 2 takes the flag and walks back onto its own start square d3.
    play(&mut s, "e3 e2 d2");
    play(&mut s, "c3 d3");
    assert_eq!((s.position(P2), s.carrier()), (c("d3"), Some(P2)));
    assert_eq!(s.turn(), P1);
    play(&mut s, "x");
    assert_eq!(s.position(P2), c("d3"), "already on its start square, it stays");
    assert_eq!((s.carrier(), s.lying_flag()), (None, Some(c("d3"))));
    // Player 2 steps off; the flag lies where it was, and player 1 takes it.
    play(&mut s, "d4 d3");
    assert_eq!(s.carrier(), Some(P1));
}
