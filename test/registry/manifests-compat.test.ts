/**
 * Manifests as their real authors write them: G-Assist manifests without `name` (NVIDIA's own
 * emulator example) or with functions in NVIDIA's `schema` form, and Mehrhof's bare
 * `executable.path`, joined to the plugin folder rather than looked up on PATH.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/main/plugins/manifests';
import { planLaunch } from '../../src/main/host/process/launch';
import { withoutVersion } from '../../src/main/plugins/install/stage';
import { collect } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { FIXTURES, tmpDir } from '../helpers/plugins';

const host = useTestHost();

function gassist(manifest: Record<string, unknown>): ReturnType<typeof loadManifest> {
  const dir = tmpDir('g');
  writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({
      manifestVersion: 1,
      executable: 'plugin.py',
      persistent: false,
      protocol_version: '2.0',
      ...manifest,
    }),
  );
  return loadManifest(dir);
}

describe('G-Assist manifests', () => {
  it('reads a manifest without a name, named by its folder as NVIDIA does, and runs it', async () => {
    const r = loadManifest(path.join(FIXTURES, 'gassist-noname'));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.spec).toEqual(expect.objectContaining({ id: 'gassist-noname', name: 'gassist-noname', version: '0.0.0' }));
    expect(r.spec.tools.map((t) => [t.name, t.tags])).toEqual([['echo', ['echo', 'example']]]);
    const sup = await host.addSpec(r.spec);
    expect((await collect(sup, 'echo', { text: 'no name needed' })).outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ data: 'no name needed' }),
    });
  });

  it('reads functions from the `schema` form and runs them', async () => {
    const r = loadManifest(path.join(FIXTURES, 'gassist-schema'));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.spec.tools).toEqual([
      {
        name: 'echo',
        description: 'Say the text back',
        parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
      {
        name: 'count',
        description: 'Stream a count from 1 to n',
        parameters: { type: 'object', properties: { n: { type: 'integer' } } },
        tags: ['count'],
      },
    ]);
    const sup = await host.addSpec(r.spec);
    const c = await collect(sup, 'count', { n: 2 });
    expect(c.chunks).toEqual(['1\n', '2\n']);
  });

  it('knows every shape of `schema` NVIDIA’s parser knows, and names what is wrong in it', () => {
    const single = gassist({
      schema: {
        name: 'one',
        description: 'the only function',
        properties: {},
        parameters: { properties: { x: { type: 'string' } } },
      },
    });
    expect(single.ok && single.spec.tools.map((t) => [t.name, t.parameters])).toEqual([
      ['one', { type: 'object', properties: { x: { type: 'string' } } }],
    ]);
    const byName = gassist({
      schema: {
        alpha: { description: 'A' },
        beta: { description: 'B', parameters: { type: 'object', properties: {} } },
        notes: 'not a function',
      },
    });
    expect(byName.ok && byName.spec.tools.map((t) => t.name)).toEqual(['alpha', 'beta']);
    const oneOf = gassist({
      schema: { oneOf: [{ name: 'a' }, { description: 'nameless: skipped, as NVIDIA does' }, { name: 'b' }] },
    });
    expect(oneOf.ok && oneOf.spec.tools.map((t) => t.name)).toEqual(['a', 'b']);
    const both = gassist({ schema: { anyOf: [{ name: 'a' }] }, functions: [{ name: 'z' }] });
    expect(both.ok && [both.spec.tools.map((t) => t.name), both.warnings]).toEqual([
      ['a'],
      ['both "schema" and "functions" are given; "schema" is used, as NVIDIA\'s parser does'],
    ]);
    const bad = gassist({
      schema: { anyOf: [{ name: 'a' }, { name: 'b', parameters: { type: 'array' } }, { name: 'a' }] },
    });
    expect(!bad.ok && bad.errors).toEqual([
      'schema.anyOf[1].parameters.type: expected "object"',
      'schema.anyOf[2].name: "a" is declared twice',
    ]);
  });

  it('runs the executable from the plugin folder, as NVIDIA’s engine does, and names Windows-only ones', () => {
    const dir = tmpDir('g-exe');
    writeFileSync(
      path.join(dir, 'manifest.json'),
      JSON.stringify({
        manifestVersion: 1,
        executable: 'weather-plugin',
        persistent: true,
        protocol_version: '2.0',
        functions: [],
      }),
    );
    writeFileSync(path.join(dir, 'weather-plugin'), '#!/bin/sh\n');
    chmodSync(path.join(dir, 'weather-plugin'), 0o755);
    const r = loadManifest(dir);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const plan = planLaunch({ spec: r.spec, parentEnv: { PATH: '/usr/bin:/bin', HOME: '/home/ada' } });
    expect(plan.ok && plan.file).toBe(path.join(dir, 'weather-plugin'));
    writeFileSync(
      path.join(dir, 'manifest.json'),
      JSON.stringify({ manifestVersion: 1, executable: 'launch.bat', persistent: true, protocol_version: '2.0' }),
    );
    writeFileSync(path.join(dir, 'launch.bat'), '@echo off\r\nnode "%~dp0plugin.js"\r\n');
    const bat = loadManifest(dir);
    if (!bat.ok) throw new Error(bat.errors.join('\n'));
    const refused = planLaunch({
      spec: bat.spec,
      parentEnv: { PATH: '/usr/bin:/bin', HOME: '/home/ada' },
      platform: 'linux',
    });
    expect(!refused.ok && refused.message).toBe('"./launch.bat" is a Windows batch file, which cannot run on linux');
  });

  it('still refuses a manifest without protocol_version, as NVIDIA’s parser does', () => {
    const r = gassist({ protocol_version: undefined, functions: [] });
    expect(!r.ok && r.errors[0]).toMatch(/^protocol_version: missing/);
  });
});

describe('Mehrhof executable.path', () => {
  it('joins a bare name to the plugin folder instead of looking it up on PATH', async () => {
    const dir = path.join(FIXTURES, 'mehrhof-bare-path');
    const r = loadManifest(dir);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.spec.command).toEqual(['./link-provider']);
    const plan = planLaunch({ spec: r.spec, parentEnv: { PATH: '/usr/bin:/bin', HOME: '/home/ada' } });
    expect(plan.ok && plan.file).toBe(path.join(dir, 'link-provider'));
    const sup = await host.addSpec(r.spec);
    const c = await collect(sup, 'provider.match', { input: 'fx:PROJ-1' });
    expect(c.outcome).toEqual({ ok: true, value: expect.objectContaining({ success: true }) });
  });
});

describe('version suffixes of wrapped archives', () => {
  it('are stripped from a folder name, and nothing else is', () => {
    const cases: Array<[string, string]> = [
      ['weather-1.2.0', 'weather'],
      ['hello-world-v2.1.0-beta.1', 'hello-world'],
      ['tool_v3', 'tool'],
      ['G-Assist-main', 'G-Assist-main'],
      ['mcp-server-2', 'mcp-server-2'],
      ['plugin-1.0.0+build.7', 'plugin'],
      ['1.0.0', '1.0.0'],
      ['weather', 'weather'],
    ];
    expect(cases.map(([name]) => [name, withoutVersion(name)])).toEqual(cases);
  });
});
