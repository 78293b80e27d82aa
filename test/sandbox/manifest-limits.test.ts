/**
 * A plugin's manifest may lower its limits, never raise them (red team L07: `limits` of 64 GiB of
 * memory and /tmp and 100,000 processes were taken as they were, and the plugin then wrote 1.2
 * GiB to its /tmp). The install says what it asked for; the plugin is held to the defaults, and
 * only the person raises a limit.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultLimits } from '../../src/main/host/process/limits';
import { limitsView } from '../../src/main/plugins/registry/limits-view';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { describeFailure } from '../../src/shared/failures';
import { MiB } from '../../src/shared/limits';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';

let registry: PluginRegistry;
let warnings: string[] = [];

describeSandboxed('a manifest that raises its own limits', () => {
  beforeAll(async () => {
    const root = tmpDir('manifest-limits');
    const dir = path.join(root, 'greedy');
    cpSync(path.join(FIXTURES, 'hostile', 'node'), dir, { recursive: true });
    const file = path.join(dir, 'plugboard.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(
      file,
      JSON.stringify({ ...manifest, id: 'greedy', limits: { memory: '64G', tmp: '64G', processes: 100000 } }),
    );
    registry = await PluginRegistry.open({
      dataDir: path.join(root, 'data'),
      env: { PLUGBOARD_TEST_RUN: String(process.pid) },
    });
    const installed = await registry.installer.install(dir, { grant: [] });
    expect(installed.ok, JSON.stringify(installed)).toBe(true);
    warnings = installed.ok ? (installed.warnings ?? []) : [];
  });

  afterAll(async () => {
    await registry?.shutdown();
    registry?.dispose();
    expect(await leftovers()).toEqual([]);
    cleanupFixtures();
  });

  it('says at install what it asked for beyond the defaults', () => {
    expect(warnings.join('\n')).toMatch(
      /its limits ask for more than the defaults \(.*64 GiB.*\): it is held to the defaults/,
    );
  });

  it('is held to the default /tmp size: filling it stops there', async () => {
    const o = await registry.call('greedy', 'fill_file', { path: '/tmp/fill.bin', max_mib: 700 }).done;
    if (!o.ok) throw new Error(describeFailure(o));
    const r = o.value.data as { ok: boolean; code?: string; mib: number };
    expect(r.ok).toBe(false);
    expect(r.mib * MiB).toBeLessThanOrEqual(defaultLimits().tmpBytes);
  });

  it('shows the defaults as its limits, which the person may raise', () => {
    const spec = registry.record('greedy')?.spec;
    const view = limitsView(spec, registry.decisions.pluginState('greedy'), registry.sandboxSupport);
    const tmp = view.items.find((i) => i.name === 'tmpBytes');
    expect(tmp).toMatchObject({ value: defaultLimits().tmpBytes, source: 'default' });
  });
});
