#!/usr/bin/env node
// After `npm install`: build the plugin SDK, which the bundled plugins import as JavaScript, and
// the `plugboard` command (scripts/build-cli.mjs), so its first call starts at full speed.
// Electron's own binary is fetched on first use (`npm start`), not here, so installing works
// where that download is not reachable.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('sdk/node/tsconfig.json')) process.exit(0);
const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'sdk/node/tsconfig.json'], {
  stdio: 'inherit',
});
if (r.status !== 0) {
  console.error(
    'plugboard: building sdk/node failed; the bundled plugins will not start until `npm run build:sdk` succeeds',
  );
  process.exit(r.status ?? 1);
}
// A failed CLI build (build-cli.mjs prints why) leaves the install usable: the command tries
// the build again on its first call, and runs the sources through tsx if it still fails.
spawnSync(process.execPath, ['scripts/build-cli.mjs'], { stdio: 'inherit' });
