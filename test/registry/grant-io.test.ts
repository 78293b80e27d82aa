/**
 * A grant on a full disk (issue 18, a low item): `plugins.grant` once answered with a bare
 * ENOSPC thrown from preparing the plugin to run with its new grant. It now answers with an
 * io_error that says what was saved and what could not be written. The disk cannot be filled for
 * one folder here (tests share it; a tmpfs needs privileges), so the one call that makes the
 * plugin's data folder fails with the system's ENOSPC; everything else is real.
 */
import type * as NodeFs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, REPO, tmpDir } from '../helpers/plugins';

const full = vi.hoisted(() => ({ on: false }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const mkdirSync = ((p: string, ...rest: unknown[]) => {
    if (full.on && String(p).includes(`${path.sep}plugin-data${path.sep}`))
      throw Object.assign(new Error(`ENOSPC: no space left on device, mkdir '${String(p)}'`), { code: 'ENOSPC' });
    return (fs.mkdirSync as (...a: unknown[]) => unknown)(p, ...rest);
  }) as typeof fs.mkdirSync;
  return { ...fs, mkdirSync, default: { ...fs, mkdirSync } };
});

let registry: PluginRegistry;
let data: string;

beforeAll(async () => {
  data = path.join(tmpDir('grant-io'), 'data');
  registry = await PluginRegistry.open({ dataDir: data, bundledDir: path.join(REPO, 'plugins') });
  expect((await registry.decisions.revoke('files', ['fs.read'])).ok).toBe(true);
});

afterAll(async () => {
  full.on = false;
  await registry.shutdown();
  registry.dispose();
  cleanupFixtures();
});

it('says what was saved and what could not be written, as an io_error', async () => {
  full.on = true;
  const r = await registry.decisions.grant('files', ['fs.read']);
  full.on = false;
  expect(r).toEqual({
    ok: false,
    code: 'io_error',
    message: expect.stringMatching(
      /^granted fs\.read \(saved\), but files could not be prepared to run with it: ENOSPC: no space left on device, mkdir '.*plugin-data.files'\. Free some disk space, then restart files$/,
    ),
  });
  // The decision itself stands.
  expect(registry.granted('files', 'fs.read')).toBe(true);
});
