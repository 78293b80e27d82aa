#!/usr/bin/env node
// The `plugboard` command in a checkout: runs the TypeScript sources through tsx, so the CLI is
// always the code you are looking at. The packaged app bundles the same entry.
import { register } from 'tsx/esm/api';

register();
// Output piped into `head` and the like: a closed pipe ends the command quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}
const { main } = await import('../src/main/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
