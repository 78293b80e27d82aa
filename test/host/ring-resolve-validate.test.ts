/**
 * Small host parts with sharp edges: the stderr ring under an endless line, `node` standing in
 * for itself inside Electron, and schemas that share an `$id`.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineRing } from '../../src/main/host/process/ring';
import { resolveCommand } from '../../src/main/host/process/resolve';
import { schemaProblem, validateArguments } from '../../src/main/host/validate';
import { tmpDir } from '../helpers/plugins';

describe('stderr ring', () => {
  it('keeps the head of an endless line and drops the rest of it, not the lines around it', () => {
    const ring = new LineRing(3, 10);
    ring.write('before\n');
    ring.write('x'.repeat(25));
    ring.write('y'.repeat(25));
    ring.write('z'.repeat(5) + '\nafter\n');
    expect(ring.tail()).toEqual(['before', `${'x'.repeat(10)}… (truncated)`, 'after']);
  });
});

describe('command resolution', () => {
  function pluginDir(): string {
    const dir = tmpDir('resolve');
    mkdirSync(path.join(dir, 'server'));
    writeFileSync(path.join(dir, 'server', 'index.js'), '');
    return dir;
  }

  it('runs a `node` command with the app’s own runtime inside Electron when PATH has no node', () => {
    const dir = pluginDir();
    const fakeElectron = path.join(tmpDir('bin'), 'electron');
    writeFileSync(fakeElectron, '');
    chmodSync(fakeElectron, 0o755);
    const r = resolveCommand({
      command: ['node', 'server/index.js'],
      dir,
      cwd: dir,
      pathEnv: '/nonexistent',
      execPath: fakeElectron,
      isElectron: true,
    });
    expect(r).toMatchObject({
      ok: true,
      file: fakeElectron,
      args: [path.join(dir, 'server', 'index.js')],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
  });

  it('names the command, and that no node was found, outside Electron', () => {
    const dir = pluginDir();
    const r = resolveCommand({ command: ['node', 'server/index.js'], dir, cwd: dir, pathEnv: '/nonexistent' });
    expect(r).toMatchObject({
      ok: false,
      code: 'launch_failed',
      message: 'no node was found on PATH to run node server/index.js',
    });
  });
});

describe('argument schemas', () => {
  const schema = (): Record<string, unknown> => ({
    $id: 'https://example.com/tool.json',
    type: 'object',
    properties: { n: { $ref: '#/definitions/count' } },
    required: ['n'],
    definitions: { count: { type: 'integer', minimum: 1 } },
  });

  it('compiles schemas that share an $id (two plugins, or a reload) and checks each', () => {
    const a = schema();
    const b = schema();
    expect(schemaProblem(a)).toBeUndefined();
    expect(schemaProblem(b)).toBeUndefined();
    expect(validateArguments('t', b, { n: 2 })).toBeUndefined();
    expect(validateArguments('t', b, { n: 0 })).toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringMatching(/arguments\.n must be >= 1/),
    });
    expect(validateArguments('t', a, {})).toMatchObject({ message: expect.stringMatching(/arguments\.n is required/) });
  });
});
