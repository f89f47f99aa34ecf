#!/usr/bin/env python3
"""Tune the evaluation's weights by games: SPSA on head-to-head score.

    pushcrate generate --count 6 --style open --seed 9101 --out g1.toml
    … (corridors 9102, rooms 9103, maze 9104; join the levels in one pack)
    python3 scripts/spsa.py PUSHCRATE train.toml [--steps 400] [--games 8]
        [--depth 4] [--nodes 40000] [--start 41_-56_…] > spsa.log

`--start` defaults to the shipped weights (crates/pushcrate-core/src/ai/fitted.toml).

Each step plays the weights moved one way (A) against the same weights
moved the other way (B), `--games` games a level in colour-swapped pairs
on every level of the pack, and steps towards the side that scored
better (simultaneous perturbation stochastic approximation, the usual
schedules a_k = a / (k + 1 + A)^0.602 and c_k = c / (k + 1)^0.101). A
weight moves in units of its size, at least 60. Each step prints one
JSON line; the last line's `mean` is the mean weights of the last
quarter of the steps, which is the result (docs/ai.md, "Tuned by games
instead of a loss"). The same arguments give the same log.
"""
import argparse
import json
import pathlib
import random
import subprocess
import tomllib

FITTED = pathlib.Path(__file__).resolve().parent.parent / "crates/pushcrate-core/src/ai/fitted.toml"


def shipped():
    """The shipped weights, in the file's (the features') order."""
    return "_".join(str(w) for w in tomllib.loads(FITTED.read_text())["weights"].values())


def agent(depth, nodes, weights):
    return f"alphabeta:{depth}:{nodes}:weights=" + "_".join(str(w) for w in weights)


def score_of_a(report):
    """Agent A's score over every level that played games."""
    points = games = 0.0
    for level in report["levels"]:
        for run in level["runs"][:1]:
            points += run["agent_a_score"]["rate"] * run["games"]
            games += run["games"]
    return points / games, int(games)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pushcrate")
    parser.add_argument("pack")
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=40000)
    parser.add_argument("--start", default=None)
    parser.add_argument("--a", type=float, default=1.0)
    parser.add_argument("--c", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=20261205)
    args = parser.parse_args()

    start = [int(w) for w in (args.start or shipped()).split("_")]
    unit = [max(abs(w), 60) for w in start]
    stability = args.steps // 13
    rng = random.Random(args.seed)
    x = [0.0] * len(start)
    history = []

    def weights(offset):
        return [round(w + o * u) for w, o, u in zip(start, offset, unit)]

    for k in range(args.steps):
        a_k = args.a / (k + 1 + stability) ** 0.602
        c_k = args.c / (k + 1) ** 0.101
        sign = [rng.choice((-1, 1)) for _ in start]
        plus = weights([o + c_k * s for o, s in zip(x, sign)])
        minus = weights([o - c_k * s for o, s in zip(x, sign)])
        played = subprocess.run(
            [args.pushcrate, "selfplay", args.pack, "--all",
             "--agents", agent(args.depth, args.nodes, plus) + "," + agent(args.depth, args.nodes, minus),
             "--games", str(args.games), "--opening", "2", "--seed", str(5000 + k),
             "--format", "json"],
            capture_output=True, text=True, check=True)
        score, games = score_of_a(json.loads(played.stdout))
        gradient = (2 * score - 1) / (2 * c_k)
        x = [o + a_k * gradient * s for o, s in zip(x, sign)]
        history.append(weights(x))
        line = {"step": k, "score": round(score, 4), "games": games, "weights": history[-1]}
        if k == args.steps - 1:
            tail = history[-max(1, args.steps // 4):]
            line["mean"] = "_".join(str(round(sum(c) / len(c))) for c in zip(*tail))
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
