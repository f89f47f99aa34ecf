#!/usr/bin/env python3
"""Validates pack files against docs/pack.schema.json with an independent
validator (Python's tomllib and jsonschema), as client authors would.

Usage: validate_packs.py FILE...   (.toml or .json)
"""
import json
import pathlib
import sys
import tomllib

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parent.parent
schema = json.loads((ROOT / "docs" / "pack.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
# Readers ignore a level's `derived` table, and so does the schema; what
# export writes there must still follow its documented layout.
derived_validator = jsonschema.Draft202012Validator(
    {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/Derived"}
)



def load(path):
    """A pack as a client sees it: JSON as it is, TOML as Python's tomllib
    reads it (TOML 1.0; a date or time is a `datetime`, which the schema's
    `string` refuses, as `pushcrate check` does)."""
    if path.suffix == ".json":
        return json.loads(path.read_text())
    return tomllib.loads(path.read_text())


failed = 0
for name in sys.argv[1:]:
    path = pathlib.Path(name)
    data = load(path)
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.path))
    for level in data.get("level", []):
        if isinstance(level, dict) and "derived" in level:
            errors += list(derived_validator.iter_errors(level["derived"]))
    for error in errors:
        print(f"{path}: {'/'.join(map(str, error.path))}: {error.message}")
    failed += bool(errors)
    print(f"{path}: {'INVALID' if errors else 'valid'} ({len(data.get('level', []))} levels)")

# Packs the schema must refuse (as `pushcrate check` does), and packs it
# must accept.
for path in sorted((ROOT / "tests" / "data" / "schema-reject").iterdir()):
    data = load(path)
    if not list(validator.iter_errors(data)):
        print(f"{path}: the schema accepted a pack it must refuse")
        failed += 1
for path in sorted((ROOT / "tests" / "data" / "schema-accept").iterdir()):
    data = load(path)
    if list(validator.iter_errors(data)):
        print(f"{path}: the schema refused a pack it must accept")
        failed += 1

# Packs in TOML 1.1 syntax, or with a date where text belongs: tomllib
# refuses them, or the schema refuses what it reads, as `pushcrate check`
# refuses them (tests/format.rs).
for path in sorted((ROOT / "tests" / "data" / "toml-1.0").iterdir()):
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError:
        continue
    if not list(validator.iter_errors(data)):
        print(f"{path}: tomllib and the schema accepted a pack `pushcrate check` refuses")
        failed += 1

# A pack the schema must refuse, so that a schema accepting anything fails.
broken = tomllib.loads('format = 1\nname = "x"\n[[level]]\nid = "bad id"\nname = ""\nsize = "12x9"\ncolour = 3\n')
if not list(validator.iter_errors(broken)):
    print("the schema accepted a broken pack")
    failed += 1

print(f"{len(sys.argv) - 1 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
