#!/usr/bin/env python3
"""The balance estimate's accuracy against the balance check.

Usage: scripts/estimate_accuracy.py ANALYZE.json SELFPLAY.json...

ANALYZE.json is `pushcrate analyze PACK... --format json` (each level's
`estimate`), each SELFPLAY.json `pushcrate selfplay PACK --all --format
json` (each level's check) of one of those packs. For every level the check
settled (balanced, unbalanced or decided), compares the estimate with the
check's first-player score -- the score of its last pairing (deep's, or the
referee's), or 100%/0% where the solver decided -- and the side each names:
player 1 ahead above 60%, player 2 ahead below 40%, balanced between.

Prints a Markdown table, a row per SELFPLAY.json and one for them all, then
what the generator's estimate bounds (`generate::ESTIMATE_BOUNDS`, 10% and
90%) would have dropped of the levels the check settled.
"""
import json
import sys

BOUNDS = (0.1, 0.9)


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


def compare(checks, estimates):
    """(estimate, check score, check side or None) for each level with both."""
    rows = []
    for check in checks:
        estimate = estimates.get(check["level"])
        score = check_score(check)
        if estimate is not None and score is not None:
            rows.append((estimate, score, check_side(check)))
    return rows


def row(name, rows):
    settled = [r for r in rows if r[2] is not None]
    errors = [abs(e - s) * 100 for e, s, _ in settled]
    every = [abs(e - s) * 100 for e, s, _ in rows]
    same = sum(side(e) == truth for e, _, truth in settled)
    mean = sum(errors) / len(errors) if errors else float("nan")
    return (
        f"| {name} | {len(settled)} | {len(rows) - len(settled)} | {mean:.1f} points | "
        f"{same} of {len(settled)} ({100 * same / max(1, len(settled)):.0f}%) | "
        f"{sum(every) / max(1, len(every)):.1f} points |"
    )


def main():
    analysis = json.load(open(sys.argv[1], encoding="utf-8"))
    estimates = {
        level["level"]: level["estimate"]["first_player"]
        for pack in analysis["packs"]
        for level in pack["report"]["levels"]
        if level.get("estimate")
    }
    print("| checks | settled by the check | uncertain | mean error, settled | same side | mean error, every level |")
    print("|---|---|---|---|---|---|")
    everything = []
    for path in sys.argv[2:]:
        rows = compare(json.load(open(path, encoding="utf-8"))["levels"], estimates)
        everything += rows
        print(row(path, rows))
    print(row(f"**all {len(everything)}**", everything))
    print(row("knowing nothing (50% for every level)", [(0.5, s, truth) for _, s, truth in everything]))
    settled = [r for r in everything if r[2] is not None]
    outside = lambda e: not BOUNDS[0] <= e <= BOUNDS[1]  # noqa: E731
    unbalanced = [r for r in settled if r[2] != "balanced"]
    balanced = [r for r in settled if r[2] == "balanced"]
    print()
    print(
        f"estimate outside {BOUNDS[0]:.0%}-{BOUNDS[1]:.0%}: {sum(outside(r[0]) for r in unbalanced)} of the "
        f"{len(unbalanced)} levels the check called unbalanced or decided, "
        f"{sum(outside(r[0]) for r in balanced)} of the {len(balanced)} it called balanced"
    )


if __name__ == "__main__":
    main()
