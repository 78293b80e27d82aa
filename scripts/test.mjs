#!/usr/bin/env node
// `npm test`: typecheck, lint, then every test suite, stopping at the first that fails.
// Suites that cannot run on this machine say so themselves and count as skipped, never passed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const steps = [
  ['build the plugin SDK (bundled plugins import it)', 'npm', ['run', '--silent', 'build:sdk']],
  // Before the suites that run bin/plugboard.mjs, so their many parallel calls find it built.
  ['build the CLI', 'npm', ['run', '--silent', 'build:cli']],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
  ['electron security scan (Electronegativity)', 'node', ['scripts/electronegativity.mjs']],
  ['unit and integration tests', 'npx', ['vitest', 'run']],
  ['python sdk tests', 'python3', ['-m', 'unittest', 'discover', '-s', 'sdk/python/tests', '-t', 'sdk/python']],
  ['build the app (main, preload, renderer)', 'npx', ['electron-vite', 'build']],
  ['end-to-end tests (web UI in Chromium; Electron where it can run)', 'npx', ['playwright', 'test']],
];

if (!existsSync(process.env.PLUGBOARD_CHROMIUM ?? '/usr/bin/chromium')) {
  console.error(
    'npm test needs Chromium for the end-to-end tests: apt-get install -y chromium (or set PLUGBOARD_CHROMIUM)',
  );
  process.exit(1);
}

const only = process.argv.slice(2);
for (const [name, cmd, args] of steps) {
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
  const started = Date.now();
  process.stdout.write(`\n▶ ${name}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    process.stdout.write(`\n✖ ${name} failed (${secs} s)\n`);
    process.exit(r.status ?? 1);
  }
  process.stdout.write(`✔ ${name} (${secs} s)\n`);
}
