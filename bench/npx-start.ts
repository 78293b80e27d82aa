/**
 * What installing a server's package once buys at start (issue 17): a real MCP server people run
 * with `npx -y @modelcontextprotocol/server-memory`, installed by Plugboard into its own folder,
 * then started and handshaken (`initialize`, `tools/list`) three ways, interleaved:
 *
 *   by hand      `node <entry>` of that same installed package, no sandbox, no supervisor: the floor
 *   Plugboard    the installed plugin started by the host from its folder, sandboxed as it runs
 *                (target: at most 1.5× by hand)
 *   npx -y       what the person's config did before: `npx -y …` with an empty npm cache, which
 *                downloads the package at every start on a machine that has not run it yet, and
 *                with a warm cache, where npx still asks the registry what the latest version is
 *
 * The registry is the loopback cache of the real npm registry (test/helpers/package-registry.ts,
 * reached through an .npmrc as a person's would be): downloads cost no internet latency here, so
 * npx's figures are a lower bound of what a person waits (a cold `npx -y` on a real line takes
 * 10–20 s). The installed start is the baseline of both npx figures: their ratio is the saving.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PluginRegistry } from '../src/main/plugins/registry/registry';
import { median } from '../src/shared/stats';
import { startPackageRegistry } from '../test/helpers/package-registry';
import type { Report } from './lib/report';

const PACKAGE = '@modelcontextprotocol/server-memory';
const ID = 'memory';

/**
 * Starts a server by hand and times spawn → `initialize` and `tools/list` answered. Its own small
 * client rather than bench/lib/raw-client.ts: a launcher that fails (npx finding no package) must
 * end the figure with its stderr, not leave it waiting.
 */
function byHand(command: string, args: string[], env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  // The environment the host gives plugins, not the runner's (tsx's NODE_OPTIONS would slow Node).
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LANG: 'C.UTF-8', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => void (stderr = (stderr + d.toString('utf8')).slice(-4000)));
  const send = (msg: unknown): void => void child.stdin.write(`${JSON.stringify(msg)}\n`);
  return new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`)));
    child.once('error', reject);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = JSON.parse(line) as { id?: number };
      if (m.id === 1) {
        send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      } else if (m.id === 2) {
        const ms = performance.now() - t0;
        child.removeAllListeners('exit');
        child.once('exit', () => {
          clearTimeout(kill);
          resolve(ms);
        });
        child.stdin.end();
        // npx runs the server as its child: a server that outlives stdin goes with its group.
        const kill = setTimeout(() => process.kill(-(child.pid ?? 0), 'SIGKILL'), 3000);
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    });
  });
}

export async function npxStartBench(report: Report, quick: boolean): Promise<void> {
  const rounds = quick ? 5 : 11;
  /** A cold npx start takes seconds: fewer of them. */
  const coldRounds = quick ? 2 : 4;
  report.section(
    `Server start: ${PACKAGE}, spawn to initialize + tools/list answered, median of ${rounds} interleaved rounds (npx -y with an empty cache: ${coldRounds})`,
  );
  const root = mkdtempSync(path.join(os.tmpdir(), 'plugboard-bench-npx-'));
  const packages = await startPackageRegistry();
  const personEnv = packages.configure(path.join(root, 'person'));
  const registry = await PluginRegistry.open({
    dataDir: path.join(root, 'data'),
    parentEnv: { ...process.env, ...personEnv },
  });
  try {
    const source = path.join(root, 'memory-server');
    mkdirSync(source);
    writeFileSync(
      path.join(source, 'plugboard.json'),
      JSON.stringify({ id: ID, name: 'Memory', protocol: 'mcp', command: ['npx', '-y', PACKAGE] }),
    );
    const installed = await registry.installer.install(source, { grant: 'requested' });
    if (!installed.ok) throw new Error(`installing ${PACKAGE}: ${installed.message}`);
    await registry.stop(ID);
    const spec = registry.list().find((r) => r.id === ID)?.spec;
    // The installed command names the plugin's folder as `${__dirname}` (the manifest's placeholder).
    const [node, ...entry] = (spec?.command ?? []).map((a) => a.replaceAll('${__dirname}', spec?.dir ?? ''));
    if (!spec || node === undefined || !entry[0]?.includes(`${path.sep}.plugboard${path.sep}`))
      throw new Error(`${ID} does not run from its installed folder: ${spec?.command.join(' ')}`);

    const warmCache = path.join(root, 'npm-cache-warm');
    const npx = (cache: string): Promise<number> =>
      byHand('npx', ['-y', PACKAGE], { ...personEnv, npm_config_cache: cache, npm_config_update_notifier: 'false' });
    await npx(warmCache); // fills the warm cache, off the clock
    const runs = { hand: [] as number[], host: [] as number[], warm: [] as number[], cold: [] as number[] };
    for (let i = 0; i < rounds; i++) {
      runs.hand.push(await byHand(node, entry, {}));
      const t0 = performance.now();
      const started = await registry.start(ID);
      runs.host.push(performance.now() - t0);
      if (!started.ok) throw new Error(`starting ${ID}: ${started.message}`);
      await registry.stop(ID);
      runs.warm.push(await npx(warmCache));
      if (i < coldRounds) {
        const cold = path.join(root, `npm-cache-cold-${i}`);
        runs.cold.push(await npx(cold));
        rmSync(cold, { recursive: true, force: true });
      }
    }
    const hand = { name: 'by hand', value: median(runs.hand) };
    const host = { name: 'installed', value: median(runs.host) };
    report.add({ name: 'node <entry> by hand (the floor)', value: hand.value, unit: 'ms' });
    report.add({
      name: `installed, started by Plugboard (${registry.sandboxSupport.available ? 'sandboxed' : 'no sandbox here'})`,
      value: host.value,
      unit: 'ms',
      baseline: hand,
      target: { maxRatio: 1.5, text: '≤ 1.5× by hand' },
    });
    report.add({ name: 'npx -y, npm cache warm', value: median(runs.warm), unit: 'ms', baseline: host });
    report.add({
      name: 'npx -y, downloading at start (empty cache)',
      value: median(runs.cold),
      unit: 'ms',
      baseline: host,
    });
  } finally {
    await registry.shutdown();
    registry.dispose();
    await packages.close();
    rmSync(root, { recursive: true, force: true });
  }
}
