#!/usr/bin/env python3
"""The quarter-cost target's eight cells for one agent: A against 0.1's
deep head to head on `open`, `arena`, `crates` and `gates`, each seed, with
each decision timed in the same games (docs/ai.md, "A decision's cost in
the same games").

    python3 scripts/target_table.py PUSHCRATE AGENT [SEED ...]

    python3 scripts/target_table.py target/release/pushcrate \\
        alphabeta:10:8000:null:narrow:weights=41_-56_94_200_661_71_159_265_833_100 1 2

Runs `selfplay PACK --level L --agents AGENT,alphabeta:6:150000:hand
--head-to-head --threads 1 --seed S --time-decisions --format json`, two
levels at a time (seeds 1 and 2 unless given), and prints a Markdown row a
seed: A's score with its interval and games, "beats" where the sequential
test decided so ("not settled" where it reached its cap of games
undecided), and A's time a decision as a share of 0.1's deep's. The
last line counts the cells that meet the target's figures: a score of 55%
or more with the interval above 50%, at a quarter of the time or less.
"""
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

REFERENCE = "alphabeta:6:150000:hand"
LEVELS = [("@default", "open"), ("@flawed", "arena"), ("@flawed", "crates"), ("@default", "gates")]


def run(binary, agent, pack, level, seed):
    command = [
        binary, "selfplay", pack, "--level", level, "--agents", f"{agent},{REFERENCE}",
        "--head-to-head", "--threads", "1", "--seed", str(seed), "--time-decisions", "--format", "json",
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    return json.loads(done.stdout)["levels"][0]


def cell(level):
    score = level["agent_a_score"]
    share = level["time_a_decision"]["a_share_of_b"]
    rate, low, high = (100 * score[k] for k in ("rate", "low", "high"))
    beats = "beats: " if level["verdict"] == "beats" else ""
    # The test's cap reached without a decision: docs/ai.md's "not settled".
    cap = ", not settled" if level["verdict"] == "uncertain" else ""
    cost = "—" if share is None else f"{share:.2f}"
    text = f"{beats}{rate:.1f}% [{low:.1f}–{high:.1f}], {level['games']}{cap}; {cost}"
    meets = rate >= 55 and low > 50 and share is not None and share <= 0.25
    return text.replace("100.0]", "100]"), meets


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, agent = sys.argv[1], sys.argv[2]
    seeds = [int(s) for s in sys.argv[3:]] or [1, 2]
    jobs = [(pack, level, seed) for seed in seeds for pack, level in LEVELS]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: run(binary, agent, *job), jobs))
    met = 0
    print("| seed | " + " | ".join(f"`{level}`" for _, level in LEVELS) + " |")
    print("|---" * (len(LEVELS) + 1) + "|")
    for i, seed in enumerate(seeds):
        cells = [cell(level) for level in results[i * len(LEVELS):(i + 1) * len(LEVELS)]]
        met += sum(meets for _, meets in cells)
        print(f"| {seed} | " + " | ".join(text for text, _ in cells) + " |")
    print(f"\n{met} of {len(jobs)} cells meet the target's figures (>= 55%, interval above 50%, <= 0.25 of the time).")


if __name__ == "__main__":
    main()
