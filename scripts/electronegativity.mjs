#!/usr/bin/env node
// Runs Electronegativity (Doyensec's Electron security scanner) over the Electron code and
// fails on any finding that is not waived, with a reason, in electronegativity-waivers.json.
// A waiver names the check and the file; a waiver that no longer matches anything also fails,
// so the file never carries stale excuses.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const mod = require('@doyensec/electronegativity/dist/runner.js');
const run = mod.default ?? mod;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const waivers = JSON.parse(readFileSync(path.join(root, 'electronegativity-waivers.json'), 'utf8'));

const seen = new Set();
const unwaived = [];
let scanned = 0;
// All of src at once: global checks (CSP, navigation limits, permission handler) need to see
// main and preload together. The renderer is scanned too: it must not reach for Electron APIs.
for (const dir of ['src']) {
  const result = await run(
    {
      input: path.join(root, dir),
      isRelative: true,
      electronVersionOverride: '45.0.0',
      severitySet: 'informational',
      confidenceSet: 'tentative',
    },
    false,
  );
  scanned++;
  for (const issue of result.issues) {
    const file = path.posix.join(dir, issue.file.split(path.sep).join('/'));
    const w = waivers.find((x) => x.check === issue.id && (x.file === file || x.file === '*'));
    if (w) {
      if (!w.reason || w.reason.trim().length < 20)
        unwaived.push(`${issue.id} in ${file}: its waiver needs a real reason`);
      seen.add(waivers.indexOf(w));
      continue;
    }
    unwaived.push(
      `${issue.id} (${issue.severity.name ?? issue.severity}) ${file}:${issue.location.line}:${issue.location.column} — ${issue.description ?? ''}`,
    );
  }
}
const stale = waivers
  .filter((_, i) => !seen.has(i))
  .map((w) => `waiver for ${w.check} in ${w.file} matches nothing: remove it`);
const problems = [...unwaived, ...stale];
if (problems.length > 0) {
  console.error(`Electronegativity: ${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `Electronegativity: no unwaived findings in ${scanned} folders (${seen.size} waived, each with its reason in electronegativity-waivers.json)`,
);
