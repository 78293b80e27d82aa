/**
 * A Plugboard in a child process, for the orphan tests, run as
 * `node --import tsx orphan-host.ts DATA_DIR sandbox|no-sandbox`: opens a registry on DATA_DIR
 * with test/fixtures/orphans as its bundled plugins, prints `notes <json>` (what opening tidied),
 * calls napper's `nap`, prints `napping` once the plugin says it is asleep, and waits to be killed.
 * Its plugins carry the test worker's PLUGBOARD_TEST_RUN mark (test/helpers/processes.ts).
 */
import path from 'node:path';
import { PluginRegistry } from '../../src/main/plugins';
import { FIXTURES } from '../helpers/plugins';

const [dataDir, sandbox] = process.argv.slice(2) as [string, string];

async function main(): Promise<void> {
  const registry = await PluginRegistry.open({
    dataDir,
    bundledDir: path.join(FIXTURES, 'orphans'),
    sandbox: sandbox === 'sandbox',
    env: { PLUGBOARD_TEST_RUN: process.env.ORPHAN_MARK ?? '' },
  });
  process.stdout.write(`notes ${JSON.stringify(registry.startupNotes)}\n`);
  registry.onDidLog((l) => {
    if (l.message.startsWith('napping')) process.stdout.write(`napping ${JSON.stringify(registry.sandboxSupport)}\n`);
  });
  const call = registry.call('napper', 'nap', {});
  void call.done.then((o) => process.stdout.write(`done ${JSON.stringify(o)}\n`));
  setInterval(() => {}, 1 << 30);
}

void main();
