/**
 * A decision and its audit line are written together or not at all. A full disk once let a
 * disable change state.json and then crash writing audit.log. A filesystem cannot be filled here
 * for one file only (the tests share the disk, and mounting a tmpfs needs privileges not every
 * machine gives), so the one write is made to fail with the system's ENOSPC: the state file's
 * temporary file, or a write to the audit log (kept open for appending). Everything else is real files.
 */
import type * as NodeFs from 'node:fs';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';

const full = vi.hoisted(() => ({ state: false, audit: false }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const enospc = (what: string): Error =>
    Object.assign(new Error(`ENOSPC: no space left on device, write '${what}'`), { code: 'ENOSPC' });
  const auditFds = new Set<number>();
  const openSync = ((file: string, ...rest: unknown[]) => {
    if (full.state && /state\.json\..*\.tmp$/.test(String(file))) throw enospc(String(file));
    const fd = (fs.openSync as (...a: unknown[]) => number)(file, ...rest);
    if (String(file).endsWith('audit.log')) auditFds.add(fd);
    return fd;
  }) as typeof fs.openSync;
  const writeSync = ((fd: number, ...rest: unknown[]) => {
    if (full.audit && auditFds.has(fd)) throw enospc('audit.log');
    return (fs.writeSync as (...a: unknown[]) => number)(fd, ...rest);
  }) as typeof fs.writeSync;
  return { ...fs, openSync, writeSync, default: { ...fs, openSync, writeSync } };
});

let data: string;
let registry: PluginRegistry;
const read = (f: string): string => readFileSync(path.join(data, f), 'utf8');

beforeAll(async () => {
  data = path.join(tmpDir('decision-writes'), 'data');
  registry = await PluginRegistry.open({ dataDir: data, bundledDir: path.join(FIXTURES, 'orphans') });
  // A first decision, so both files exist.
  expect((await registry.decisions.setExposed('napper', 'nap', false)).ok).toBe(true);
});

afterAll(async () => {
  full.state = full.audit = false;
  await registry.shutdown();
  registry.dispose();
  cleanupFixtures();
});

describe('a decision on a full disk', () => {
  it('fails at the state write: nothing changes, and the audit log says it failed, not that it was done', async () => {
    const state = read('state.json');
    const audit = read('audit.log');
    full.state = true;
    const r = await registry.decisions.setEnabled('napper', false);
    full.state = false;
    expect(r).toEqual(
      expect.objectContaining({
        ok: false,
        code: 'io_error',
        message: expect.stringMatching(
          /^could not save "disabled": ENOSPC: no space left on device.*Nothing was changed/,
        ),
      }),
    );
    expect(read('state.json')).toBe(state);
    expect(registry.isEnabled('napper')).toBe(true);
    const added = read('audit.log')
      .slice(audit.length)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(added).toEqual([expect.objectContaining({ action: 'disable', ok: false })]);
  });

  it('fails at the audit write: the state is not written either', async () => {
    const state = read('state.json');
    const audit = read('audit.log');
    full.audit = true;
    const d = await registry.decisions.setEnabled('napper', false);
    full.audit = false;
    expect(d).toEqual(expect.objectContaining({ ok: false, code: 'io_error' }));
    expect(read('state.json')).toBe(state);
    expect(read('audit.log')).toBe(audit);
    expect(registry.isEnabled('napper')).toBe(true);
  });

  it('a setting, too: refused with io_error, nothing written, no line saying it was set', async () => {
    const state = read('state.json');
    const audit = read('audit.log');
    full.state = true;
    const r = await registry.decisions.configure('napper', {});
    full.state = false;
    expect(r).toEqual(
      expect.objectContaining({
        ok: false,
        code: 'io_error',
        message: expect.stringMatching(/^could not save the settings of napper: ENOSPC/),
      }),
    );
    expect(read('state.json')).toBe(state);
    const added = read('audit.log')
      .slice(audit.length)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(added).toEqual([expect.objectContaining({ action: 'configure', ok: false })]);
  });

  it('goes through once there is room again, with one audit line', async () => {
    const audit = read('audit.log');
    expect((await registry.decisions.setEnabled('napper', false)).ok).toBe(true);
    expect(registry.isEnabled('napper')).toBe(false);
    const added = read('audit.log').slice(audit.length).trim().split('\n');
    expect(added.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ action: 'disable', ok: true, detail: 'disabled' }),
    ]);
  });
});
