#!/usr/bin/env node
// The `plugboard` command in a checkout: runs the CLI built into out/cli (scripts/build-cli.mjs),
// which starts in plain Node. A checkout must never run an old CLI silently, so every call first
// compares the build with the sources it was made from (a stat per file, about a millisecond);
// when one changed it rebuilds (a fraction of a second) and says so on stderr, and when the
// build cannot be made it runs the TypeScript sources through tsx instead, and says that.
// Stack traces name the built chunks; NODE_OPTIONS=--enable-source-maps maps them to src/.
import { pathToFileURL } from 'node:url';
import { buildCli, cliBuildState, describeBuildError, ROOT } from '../scripts/build-cli.mjs';

// Output piped into `head` and the like: a closed pipe ends the command quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

async function entry() {
  const state = cliBuildState();
  if (state.entry) return state.entry;
  process.stderr.write(`plugboard: ${state.stale}; building it\n`);
  try {
    return (await buildCli()).entry;
  } catch (e) {
    process.stderr.write(
      `plugboard: building the CLI failed (${describeBuildError(e)}); running the sources through tsx\n`,
    );
    const { register } = await import('tsx/esm/api');
    register();
    return `${ROOT}/src/main/cli/main.ts`;
  }
}

const file = await entry();
const { main } = await import(pathToFileURL(file).href);
process.exitCode = await main(process.argv.slice(2));
