#!/usr/bin/env python3
"""Checks a rules engine against the Push Crate conformance suite.

This is what a client author runs against their own implementation: write
an engine with the five methods of `PushcrateEngine` for your engine, and
every position and game of the suite is checked. The engine given here
drives the `pushcrate` binary itself, which is how CI keeps the suite and
the engine from drifting apart.

The client reads each level of the suite's packs as a client would: the
walls from `map`, the crates from `crates`, and everything else from the
level's resolved values (`derived.resolved`: the board's size, who moves
first, the flag's cell, each player's start and goal cells, every rule
option). It keeps no default table of its own, and hands the level to the
engine's methods as a `Level`.

Usage: conformance_client.py SUITE_DIR [PUSHCRATE_BINARY]
"""
import json
import pathlib
import subprocess
import sys

SUITE_VERSION = 2


class Level:
    """A level of the suite, every value resolved (docs/format.md)."""

    def __init__(self, pack_file, data):
        resolved = data["derived"]["resolved"]
        self.pack_file = pack_file
        self.id = data["id"]
        self.width = resolved["width"]  # files: a, b, … from the left
        self.height = resolved["height"]  # ranks: 1, 2, … from the bottom
        # `map` lists the top rank first, so its last row is rank 1.
        rows = ["".join(row.split()) for row in data.get("map", "").splitlines()]
        rows = [row for row in rows if row]
        self.walls = {
            f"{chr(ord('a') + file)}{self.height - i}"
            for i, row in enumerate(rows)
            for file, char in enumerate(row)
            if char == "#"
        }
        self.crates = {}
        for entry in data.get("crates", []):
            cell, _, stage = entry.partition(":")
            self.crates[cell] = stage or "intact"
        self.first = resolved["first"]
        self.flag = resolved["flag"]
        self.starts = [resolved["p1"]["start"], resolved["p2"]["start"]]
        self.goals = [set(resolved["p1"]["goals"]), set(resolved["p2"]["goals"])]
        self.rules = dict(resolved["rules"])


class PushcrateEngine:
    """An engine adapter. Replace these five methods with calls into your
    own engine; each takes a `Level` and a line of play from the level's
    start (actions, and `draw:accepted` / `draw:declined`)."""

    def __init__(self, binary):
        self.binary = binary

    def _run(self, level, line, *args):
        command = [self.binary, *args, str(level.pack_file), "--level", level.id, "--actions", line]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()}")
        return done.stdout

    def legal_actions(self, level, line):
        """The legal actions after `line`, in any order."""
        out = self._run(level, line, "moves", "--format", "json")
        return [a["action"] for a in json.loads(out)["actions"]]

    def perft(self, level, line, depth):
        """The number of action sequences of length `depth` after `line`."""
        return int(self._run(level, line, "perft", "--depth", str(depth)))

    def state(self, level, line):
        """The state after `line`, in the suite's layout (manifest.json, `state`)."""
        value = json.loads(self._run(level, line, "show", "--format", "json"))
        return {key: value[key] for key in SUITE_STATE_KEYS}

    def may_offer_draw(self, level, line):
        """Whether the player to move after `line` may offer a draw."""
        return json.loads(self._run(level, line, "show", "--format", "json"))["may_offer_draw"]


SUITE_STATE_KEYS = ["to_move", "actions_played", "bonus_actions", "over", "outcome", "players", "flag", "crates"]


def as_sets(state):
    """A state with its crates in one order: they are a set, which the suite
    lists in code-point order and an engine in any (docs/conformance.md)."""
    return {**state, "crates": sorted(state["crates"])}


def main():
    suite = pathlib.Path(sys.argv[1])
    engine = PushcrateEngine(sys.argv[2] if len(sys.argv) > 2 else "pushcrate")
    manifest = json.loads((suite / "manifest.json").read_text())
    if manifest["suite"] != "pushcrate-conformance" or manifest["version"] != SUITE_VERSION:
        sys.exit(f"{suite}: not a version {SUITE_VERSION} conformance suite")
    levels = {}
    for pack in manifest["packs"]:
        data = json.loads((suite / pack["file"]).read_text())
        for level in data["level"]:
            levels[(pack["name"], level["id"])] = Level(suite / pack["file"], level)
    passed = failed = 0

    def expect(what, got, want):
        nonlocal passed, failed
        if got == want:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}\n  expected {want}\n  got      {got}")

    def check(entry, where, want_state):
        level, line = levels[(entry["pack"], entry["level"])], entry["line"]
        legal = sorted(engine.legal_actions(level, line))
        if "legal" in entry:
            expect(f"{where}: legal actions", legal, sorted(entry["legal"]))
        for refused in entry.get("refused", []):
            expect(f"{where}: {refused['action']} is refused ({refused['why']})", refused["action"] in legal, False)
        for depth, count in enumerate(entry.get("perft", []), start=1):
            expect(f"{where}: perft {depth}", engine.perft(level, line, depth), count)
        expect(f"{where}: may offer a draw", engine.may_offer_draw(level, line), entry["may_offer_draw"])
        expect(f"{where}: state", as_sets(engine.state(level, line)), as_sets(want_state))

    for p in json.loads((suite / "positions.json").read_text())["positions"]:
        check(p, f"{p['pack']}/{p['level']} after [{p['line']}]", p["state"])
    for g in json.loads((suite / "games.json").read_text())["games"]:
        check(g, f"game {g['event']} ({g['pack']}/{g['level']})", g["expected"])

    print(f"conformance: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
