#!/usr/bin/env python3
"""The balance estimate's accuracy against the balance check.

Usage: scripts/estimate_accuracy.py ANALYZE.json SELFPLAY.json...

ANALYZE.json is `pushcrate analyze PACK --format json` (each level's
`estimate`), SELFPLAY.json `pushcrate selfplay PACK --all --format json`
(each level's check) of the same pack. For every level the check settled
(balanced, unbalanced or decided), prints the estimate against the check's
first-player score -- the score of its last pairing (deep's, or the
referee's), or 100%/0% where the solver decided -- and the side each names:
player 1 ahead above 60%, player 2 ahead below 40%, balanced between.
"""
import json
import sys


def side(score):
    if score > 0.6:
        return "1"
    if score < 0.4:
        return "2"
    return "balanced"


def check_side(check):
    if check["verdict"] == "balanced":
        return "balanced"
    return str(check["favoured"]) if check["favoured"] else None


def check_score(check):
    forced = check["forced_win"]
    if forced:
        return 1.0 if forced["player"] == 1 else 0.0
    played = [run for run in check["runs"] if run["games"] > 0]
    return played[-1]["first_player_score"]["rate"] if played else None


def main():
    analysis = json.load(open(sys.argv[1], encoding="utf-8"))
    checks = [c for path in sys.argv[2:] for c in json.load(open(path, encoding="utf-8"))["levels"]]
    estimates = {
        level["level"]: level["estimate"]["first_player"]
        for pack in analysis["packs"]
        for level in pack["report"]["levels"]
        if level.get("estimate")
    }
    errors, same, settled, uncertain, every = [], 0, 0, 0, []
    for check in checks:
        estimate = estimates.get(check["level"])
        truth = check_side(check)
        score = check_score(check)
        if estimate is None or score is None:
            continue
        every.append(abs(estimate - score) * 100)
        if truth is None:
            uncertain += 1
            continue
        settled += 1
        errors.append(abs(estimate - score) * 100)
        same += side(estimate) == truth
    errors.sort()
    mean = sum(errors) / len(errors)
    print(f"levels settled by the check: {settled} ({uncertain} uncertain, left out)")
    print(f"mean absolute error: {mean:.1f} points (median {errors[len(errors) // 2]:.1f}, 90th percentile {errors[int(len(errors) * 0.9)]:.1f})")
    print(f"same side: {same} of {settled} ({100 * same / settled:.1f}%)")
    print(f"every level, uncertain ones too, against the last pairing's score: {len(every)} levels, mean absolute error {sum(every) / len(every):.1f} points")


if __name__ == "__main__":
    main()
