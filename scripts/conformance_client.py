#!/usr/bin/env python3
"""Checks a rules engine against the Push Crate conformance suite.

This is what a client author runs against their own implementation: write
an `Engine` with the four methods below for your engine, and every position
and game of the suite is checked. The engine given here drives the
`pushcrate` binary itself, which is how CI keeps the suite and the engine
from drifting apart.

Usage: conformance_client.py SUITE_DIR [PUSHCRATE_BINARY]
"""
import json
import pathlib
import subprocess
import sys


class PushcrateEngine:
    """An engine adapter. Replace these four methods with calls into your
    own engine; each takes a pack file, a level id and a line of play from
    the level's start (actions, and `draw:accepted` / `draw:declined`)."""

    def __init__(self, binary):
        self.binary = binary

    def _run(self, *args):
        done = subprocess.run([self.binary, *args], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def legal_actions(self, pack, level, line):
        """The legal actions after `line`, in any order."""
        out = self._run("moves", str(pack), "--level", level, "--actions", line, "--format", "json")
        return [a["action"] for a in json.loads(out)["actions"]]

    def perft(self, pack, level, line, depth):
        """The number of action sequences of length `depth` after `line`."""
        return int(self._run("perft", str(pack), "--level", level, "--actions", line, "--depth", str(depth)))

    def state(self, pack, level, line):
        """The state after `line`, in the suite's layout (manifest.json, `state`)."""
        value = json.loads(self._run("show", str(pack), "--level", level, "--actions", line, "--format", "json"))
        return {key: value[key] for key in SUITE_STATE_KEYS}


SUITE_STATE_KEYS = ["to_move", "actions_played", "bonus_actions", "over", "outcome", "players", "flag", "crates"]


def main():
    suite = pathlib.Path(sys.argv[1])
    engine = PushcrateEngine(sys.argv[2] if len(sys.argv) > 2 else "pushcrate")
    manifest = json.loads((suite / "manifest.json").read_text())
    if manifest["suite"] != "pushcrate-conformance" or manifest["version"] != 1:
        sys.exit(f"{suite}: not a version 1 conformance suite")
    packs = {p["name"]: suite / p["file"] for p in manifest["packs"]}
    passed = failed = 0

    def expect(what, got, want):
        nonlocal passed, failed
        if got == want:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {what}\n  expected {want}\n  got      {got}")

    for p in json.loads((suite / "positions.json").read_text())["positions"]:
        pack, level, line = packs[p["pack"]], p["level"], p["line"]
        where = f"{p['pack']}/{level} after [{line}]"
        legal = sorted(engine.legal_actions(pack, level, line))
        expect(f"{where}: legal actions", legal, sorted(p["legal"]))
        for refused in p["refused"]:
            expect(f"{where}: {refused['action']} is refused ({refused['why']})", refused["action"] in legal, False)
        for depth, count in enumerate(p["perft"], start=1):
            expect(f"{where}: perft {depth}", engine.perft(pack, level, line, depth), count)
        expect(f"{where}: state", engine.state(pack, level, line), p["state"])

    for g in json.loads((suite / "games.json").read_text())["games"]:
        pack, level, line = packs[g["pack"]], g["level"], g["line"]
        expect(f"game {g['event']} ({g['pack']}/{level})", engine.state(pack, level, line), g["expected"])
        for refused in g.get("refused", []):
            legal = engine.legal_actions(pack, level, line)
            expect(f"game {g['event']}: {refused['action']} is refused", refused["action"] in legal, False)

    print(f"conformance: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
