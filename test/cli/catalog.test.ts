/**
 * `plugboard plugins registry|search|add|outdated|update|rollback` as a person runs them, against
 * an MCP registry on loopback speaking the `v0` API (test/helpers/mcp-registry.ts) and an npm
 * registry on loopback publishing the entry's made-up package (test/helpers/npm-registry.ts),
 * which the person's .npmrc names: the catalog searched, an entry previewed and installed pinned,
 * a newer version found, previewed, installed and rolled back, all on one data directory.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecord } from '../../src/main/plugins/packages/record';
import { plugboard } from '../helpers/cli';
import { registryDoc, startMcpRegistry, type TestRegistry } from '../helpers/mcp-registry';
import { startNpmRegistry, type TestNpmRegistry } from '../helpers/npm-registry';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

let reg: TestRegistry;
let npm: TestNpmRegistry;
let data: string;
let person: Record<string, string>;

beforeAll(async () => {
  reg = await startMcpRegistry([registryDoc('weather.json'), registryDoc('notes-remote.json')]);
  npm = await startNpmRegistry({ '@plugboard-tests/weather-mcp': ['1.2.0'] });
  const root = tmpDir('cli-catalog');
  data = path.join(root, 'data');
  person = npm.configure(path.join(root, 'person'));
});
afterAll(async () => {
  await reg.close();
  await npm.close();
  cleanupFixtures();
});

const run = (...args: string[]) =>
  plugboard(['plugins', ...args, '--data-dir', data], { timeoutMs: 120_000, env: person });

describe('the catalog from the command line', () => {
  it('sets the registry, searches it, previews and installs an entry pinned', async () => {
    const bad = await run('registry', 'ftp://x');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("refused: the registry's URL must start with https:// (or http://), not ftp:\n");
    const set = await run('registry', reg.url);
    expect([set.code, set.stdout]).toEqual([0, `the catalog reads ${reg.url}\n`]);
    expect((await run('registry')).stdout).toBe(`${reg.url}\n`);

    const found = await run('search', 'weather');
    expect(found.code).toBe(0);
    expect(found.stdout).toContain('○ Weather  io.github.plugboard-tests/weather 1.2.0\n');
    expect(found.stdout).toContain('    npm, pypi, oci, nuget (cannot install)\n');
    expect(found.stdout).toContain('    install: plugboard plugins add io.github.plugboard-tests/weather\n');
    const none = await run('search', 'zebra');
    expect(none.stdout).toBe(`nothing in ${reg.url} matches “zebra”\n`);

    const preview = await run('add', 'io.github.plugboard-tests/weather', '--preview');
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain(
      '    command: npx -y @plugboard-tests/weather-mcp@1.2.0 --units metric ${input:city}\n',
    );
    expect(preview.stdout).toContain('cannot be installed: a nuget package');
    expect(existsSync(path.join(data, 'plugins', 'weather-npm'))).toBe(false);
  }, 180_000);

  it('installs an entry pinned, finds the newer version, shows it, installs it, and rolls it back', async () => {
    const name = '@plugboard-tests/weather-mcp';
    const add = await run('add', 'io.github.plugboard-tests/weather@1.2.0', '--json');
    expect(add.code, JSON.stringify(add)).toBe(0);
    expect(add.lines.at(-1)).toEqual(
      expect.objectContaining({ type: 'installed', key: 'npm', ok: true, id: 'weather-npm' }),
    );
    // Fetched from the registry the person's .npmrc names.
    expect(npm.asked).toContain(`${name}/-/weather-mcp-1.2.0.tgz`);
    const again = await run('search', 'weather');
    expect(again.stdout).toContain('    installed as weather-npm 1.2.0\n');
    // What it runs: the manifest's pinned package, installed into its folder at that version with
    // the integrity the registry published.
    const plugin = path.join(data, 'plugins', 'weather-npm');
    const pinned = () => {
      const record = readRecord(plugin);
      const manifest = JSON.parse(readFileSync(path.join(plugin, 'plugboard.json'), 'utf8')) as { command: string[] };
      return [manifest.command[2], record?.version_installed, record?.integrity];
    };
    const published = (v: string) => [`${name}@${v}`, v, npm.published(name, v)?.integrity];
    expect(pinned()).toEqual(published('1.2.0'));
    // Set up as the person would, it starts from its folder and answers.
    expect((await run('config', 'weather-npm', 'city=Oslo', 'WEATHER_API_KEY=wk-0123456789')).code).toBe(0);
    const about = async () => {
      const r = await plugboard(['call', 'weather-npm', 'about', '--json', '--data-dir', data], {
        timeoutMs: 60_000,
        env: person,
      });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      return r.lines.find((l) => l.type === 'complete');
    };
    expect(await about()).toEqual(
      expect.objectContaining({
        data: {
          package: name,
          version: '1.2.0',
          args: ['--units', 'metric', 'Oslo'],
          variables: ['WEATHER_API_KEY', 'WEATHER_LOG_LEVEL'],
        },
      }),
    );

    // 1.3.0 is released: its package on npm, then its catalog entry.
    npm.publish(name, '1.3.0');
    const doc = registryDoc('weather.json');
    const packages = (doc.packages as Array<Record<string, unknown>>).map((p) => ({ ...p, version: '1.3.0' }));
    reg.publish({ ...doc, version: '1.3.0', packages });

    const out = await run('outdated');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(
      `↑ weather-npm  1.2.0 → 1.3.0  from the catalog entry io.github.plugboard-tests/weather (${reg.url})\n`,
    );
    expect(out.stdout).toContain('1 update: plugboard plugins update <id> (nothing changes until you do)');

    const look = await run('update', 'weather-npm', '--preview');
    expect(look.code, look.stderr).toBe(0);
    expect(look.stdout).toContain('Weather (npm) (weather-npm): 1.2.0 → 1.3.0\n');
    // The command as it will run: the new version's package, from the plugin's folder.
    expect(look.stdout).toContain(
      '  command: node ${__dirname}/.plugboard/npm/node_modules/@plugboard-tests/weather-mcp/server.js --units metric ${user_config.city}\n',
    );
    // And the version and hash it will run: the registry's for 1.3.0.
    expect(look.stdout).toContain(
      `  package: ${name}@1.3.0 pinned at 1.3.0 (${npm.published(name, '1.3.0')?.integrity})\n`,
    );
    // Previewing changed nothing.
    expect(pinned()).toEqual(published('1.2.0'));

    const up = await run('update', 'weather-npm');
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain('upgraded weather-npm 1.3.0');
    expect(up.stdout).toContain('plugboard plugins rollback weather-npm puts 1.2.0 back\n');
    expect(pinned()).toEqual(published('1.3.0'));
    expect(await about()).toEqual(
      expect.objectContaining({
        data: expect.objectContaining({ version: '1.3.0', args: ['--units', 'metric', 'Oslo'] }),
      }),
    );
    const now = await run('outdated', 'weather-npm', '--json');
    expect(now.lines[0]).toEqual([expect.objectContaining({ id: 'weather-npm', current: '1.3.0', status: 'current' })]);

    const back = await run('rollback', 'weather-npm');
    expect([back.code, back.stdout]).toEqual([
      0,
      'rolled weather-npm back from 1.3.0 to 1.2.0; 1.3.0 is kept, so rolling back again returns to it\n',
    ]);
    expect(pinned()).toEqual(published('1.2.0'));
    expect(await about()).toEqual(expect.objectContaining({ data: expect.objectContaining({ version: '1.2.0' }) }));
    expect((await run('rollback')).code).toBe(2);
  }, 300_000);
});
