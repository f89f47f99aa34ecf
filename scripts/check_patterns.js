#!/usr/bin/env node
// Checks every regular expression of a JSON Schema (`pattern` keywords)
// with recheck, a ReDoS checker: a pattern that could backtrack
// super-linearly in a client's validator fails the check. The verdict
// comes from the pattern's shape (recheck's automaton analysis), not from a
// timer.
//
// Usage: node scripts/check_patterns.js SCHEMA.json   (recheck from npm on
// NODE_PATH, as scripts/validate_external.sh installs it)
"use strict";
const fs = require("fs");
const { checkSync } = require("recheck");

const schema = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const patterns = [];
(function walk(node, path) {
  if (Array.isArray(node)) {
    node.forEach((item, i) => walk(item, `${path}/${i}`));
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "pattern" && typeof value === "string") {
        patterns.push([`${path}/pattern`, value]);
      } else {
        walk(value, `${path}/${key}`);
      }
    }
  }
})(schema, "#");

let failed = 0;
for (const [where, source] of patterns) {
  // JSON Schema patterns are ECMA-262 regular expressions with Unicode on.
  const result = checkSync(source, "u");
  if (result.status !== "safe") {
    failed += 1;
    const why = result.status === "vulnerable" ? `${result.complexity.type} backtracking` : result.status;
    console.log(`${where}: ${JSON.stringify(source)} is not safe from ReDoS (${why})`);
  }
}
console.log(`patterns: ${patterns.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
