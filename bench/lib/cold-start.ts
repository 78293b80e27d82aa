/**
 * How long `plugboard --help` takes from spawn to exit, against `node -e ''` (a Node process that
 * does nothing) measured in the same rounds: the built CLI must start within 3× of bare Node.
 * `npx plugboard --help` is shown too, for what a person types; npm's own start-up is in it, so
 * it has no target.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { median } from '../../src/shared/stats';
import type { Report } from './report';

function timed(cmd: string, args: string[], cwd: string): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/** npx spends seconds finding the command (npm loads the whole node_modules tree): a few runs tell it. */
const NPX_ROUNDS = 5;

export function cliColdStart(report: Report, root: string, rounds: number): void {
  report.section(
    `CLI cold start: spawn to exit, median of ${rounds} interleaved rounds (npx: of the first ${NPX_ROUNDS})`,
  );
  const bin = path.join(root, 'bin', 'plugboard.mjs');
  // A first call builds the CLI if a source changed since the last build: off the clock.
  const first = spawnSync(process.execPath, [bin, '--help'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (first.stderr) process.stdout.write(first.stderr);
  const runs = { node: [] as number[], cli: [] as number[], npx: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    runs.node.push(timed(process.execPath, ['-e', ''], root));
    runs.cli.push(timed(process.execPath, [bin, '--help'], root));
    if (i < NPX_ROUNDS) runs.npx.push(timed('npx', ['--no-install', 'plugboard', '--help'], root));
  }
  const floor = { name: "node -e ''", value: median(runs.node) };
  report.add({ name: "node -e '' (the floor)", value: floor.value, unit: 'ms' });
  report.add({
    name: 'plugboard --help (node bin/plugboard.mjs)',
    value: median(runs.cli),
    unit: 'ms',
    baseline: floor,
    target: { maxRatio: 3, text: '≤ 3× node' },
  });
  report.add({
    name: 'npx plugboard --help (npm start-up included)',
    value: median(runs.npx),
    unit: 'ms',
    baseline: floor,
  });
}
