#!/usr/bin/env python3
"""Side-by-side verdicts of two balance-check runs of the same pack.

    pushcrate selfplay PACK --all --evaluation hand --format json > before.json
    pushcrate selfplay PACK --all --format json > after.json
    python3 scripts/verdict_table.py before.json after.json [CPU_BEFORE CPU_AFTER]

Prints a Markdown table: each level's verdict under both runs, each
pairing's first-player score with its games, and whether the verdict
changed. The CPU seconds of the two runs, when given, close the table.
"""
import json
import sys


def verdict(level):
    text = level["verdict"]
    if level.get("favoured"):
        text += f", player {level['favoured']}"
    if level.get("pairings_disagree"):
        text += " (disagree)"
    if level.get("near_edge"):
        text += " (near an edge)"
    if level.get("refereed"):
        text += " (refereed)"
    return text


def pairings(level):
    parts = []
    for run in level.get("runs", []):
        agent = run["agents"][0].split(" ")[0]
        score = run["first_player_score"]
        parts.append(f"{agent} {100 * score['rate']:.1f}% ({run['games']})")
    return ", ".join(parts) or "no game"


def games(level):
    return sum(run["games"] for run in level.get("runs", []))


def main():
    before, after = (json.load(open(path)) for path in sys.argv[1:3])
    after_levels = {level["level"]: level for level in after["levels"]}
    print("| level | before: verdict | before: pairings | after: verdict | after: pairings | changed |")
    print("|---|---|---|---|---|---|")
    totals = [0, 0]
    for old in before["levels"]:
        new = after_levels[old["level"]]
        totals[0] += games(old)
        totals[1] += games(new)
        changed = (old["verdict"], old.get("favoured")) != (new["verdict"], new.get("favoured"))
        print(
            f"| `{old['level']}` | {verdict(old)} | {pairings(old)} | {verdict(new)} | {pairings(new)} |"
            f" {'**yes**' if changed else 'no'} |"
        )
    cpu = ""
    if len(sys.argv) == 5:
        a, b = float(sys.argv[3]), float(sys.argv[4])
        cpu = f"; CPU {a:.0f} s before, {b:.0f} s after ({b / a:.2f}×)"
    print(f"\nGames: {totals[0]} before, {totals[1]} after{cpu}.")


if __name__ == "__main__":
    main()
