/**
 * Updates that never surprise (issue 17, item 6), on a real registry and real plugin processes:
 * a plugin installed from a folder, updated from the newer package at the same place (what
 * changes in its tools shown as a diff, settings, grants and exposure kept), rolled back and
 * forward; one pinned to an npm package installed and updated from an npm registry on loopback
 * publishing made-up packages (test/helpers/npm-registry.ts), which the person's .npmrc names;
 * one installed from the catalog updated from the catalog; checking changes nothing; and the real
 * npm registry asked for a real package's latest version.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/main/plugins/catalog';
import { latestVersion } from '../../src/main/plugins/install/package-versions';
import { Updates } from '../../src/main/plugins/install/updates';
import { readRecord } from '../../src/main/plugins/packages/record';
import { loadRecord } from '../../src/main/plugins/registry/discovery';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { openApp, type TestApp } from '../helpers/app';
import { startMcpHttp } from '../helpers/mcp-http';
import { registryDoc, startMcpRegistry } from '../helpers/mcp-registry';
import { startNpmRegistry } from '../helpers/npm-registry';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { snapshot } from '../helpers/snapshot';
import { writeVersionsPlugin, type VersionTool } from '../helpers/versions-plugin';

type Tool = VersionTool;

const V1: Tool[] = [
  {
    name: 'echo',
    description: 'Echo the text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  { name: 'old_tool', description: 'Gone in 2.0', inputSchema: { type: 'object', properties: {} } },
];
const V2: Tool[] = [
  {
    name: 'echo',
    description: 'Echo the text, louder if asked',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string' }, loud: { type: 'boolean' } },
      required: ['text'],
    },
  },
  { name: 'new_tool', description: 'New in 2.0', inputSchema: { type: 'object', properties: {} } },
];

/** Version `version` of the `versions` plugin, asking for a folder and with a setting to keep. */
function writeVersion(dir: string, version: string, tools: Tool[]): void {
  writeVersionsPlugin(dir, version, tools, {
    capabilities: ['fs.read'],
    settings: { greeting: { type: 'string', description: 'kept across updates' } },
  });
}

let app: TestApp;
let root: string;
let updates: Updates;

beforeAll(async () => {
  root = tmpDir('updates');
  app = await openApp(path.join(root, 'data'));
  updates = new Updates(app.registry);
});
afterAll(async () => {
  updates.dispose();
  await app.close();
  cleanupFixtures();
});

describe('a plugin installed from a folder', () => {
  it('is updated from the newer package at the same place, with what changes in its tools, and rolled back', async () => {
    const src = path.join(root, 'src', 'versions');
    writeVersion(src, '1.0.0', V1);
    const { registry, backend } = app;
    expect((await registry.installer.install(src)).ok).toBe(true);
    // The person's decisions, which an update keeps.
    await registry.decisions.configure('versions', { greeting: 'hi' });
    await registry.decisions.setExposed('versions', 'echo', false);
    await registry.decisions.setExposed('versions', 'echo', true);
    // It ran: its tools are known (and a tool's policy can be set).
    expect((await registry.call('versions', 'echo', { text: 'a' }).done).ok).toBe(true);
    expect((await registry.decisions.setToolPolicy('versions', 'echo', 'allow')).ok).toBe(true);

    expect((await backend.invoke('updates.check', { id: 'versions' })).ok && true).toBe(true);
    const same = await backend.invoke('updates.check', { id: 'versions' });
    expect(same.ok && same.updates).toEqual([
      {
        id: 'versions',
        name: 'Versions',
        current: '1.0.0',
        latest: '1.0.0',
        status: 'current',
        origin: 'source',
        from: src,
      },
    ]);

    writeVersion(src, '2.0.0', V2);
    const data = path.join(root, 'data');
    // What the person's decisions and the plugins are; the conversation store and the pid
    // registry change on their own.
    const mine = (rel: string): boolean => !/^(audit\.log|conversations\.|plugin-data|processes)/.test(rel);
    const before = snapshot(data, (rel) => !mine(rel));
    const check = await backend.invoke('updates.check', {});
    expect(check.ok && check.updates.find((u) => u.id === 'versions')).toEqual(
      expect.objectContaining({ current: '1.0.0', latest: '2.0.0', status: 'available', origin: 'source' }),
    );
    const p = await backend.invoke('updates.preview', { id: 'versions' });
    if (!p.ok) throw new Error(p.message);
    await backend.invoke('updates.cancel', { token: p.token });
    // Checking and previewing changed nothing.
    expect(snapshot(data, (rel) => !mine(rel))).toEqual(before);
    expect((await registry.call('versions', 'old_tool', {}).done).ok).toBe(true);

    const q = await backend.invoke('updates.preview', { id: 'versions' });
    if (!q.ok) throw new Error(q.message);
    expect(q.preview).toEqual(
      expect.objectContaining({ id: 'versions', from: '1.0.0', to: '2.0.0', origin: 'source' }),
    );
    expect(q.preview.trial).toEqual(expect.objectContaining({ status: expect.stringMatching(/^(ok|skipped)$/) }));
    const c = q.preview.changes;
    expect(c.added).toEqual([{ name: 'new_tool', description: 'New in 2.0' }]);
    expect(c.removed).toEqual([{ name: 'old_tool', description: 'Gone in 2.0' }]);
    expect(c.changed.map((t) => t.name)).toEqual(['echo']);
    expect(c.changed[0]?.description).toEqual([
      { op: '-', text: 'Echo the text' },
      { op: '+', text: 'Echo the text, louder if asked' },
    ]);
    expect(c.changed[0]?.schema?.filter((l) => l.op !== ' ')).toEqual([
      { op: '+', text: '    "loud": {' },
      { op: '+', text: '      "type": "boolean"' },
      { op: '+', text: '    },' },
    ]);

    const done = await backend.invoke('updates.commit', { token: q.token });
    expect(done).toEqual(expect.objectContaining({ ok: true, id: 'versions', version: '2.0.0' }));
    expect(done.ok && done.detail).toMatch(/1\.0\.0 is kept for a rollback/);
    expect(await registry.call('versions', 'new_tool', {}).done).toEqual(
      expect.objectContaining({ ok: true, value: expect.objectContaining({ data: 'new_tool from 2.0.0 {}' }) }),
    );
    expect((await registry.call('versions', 'old_tool', {}).done).ok).toBe(false);
    expect(registry.decisions.pluginState('versions')).toEqual(
      expect.objectContaining({ grants: ['fs.read'], settings: { greeting: 'hi' }, policies: { echo: 'allow' } }),
    );
    const detail = await backend.invoke('plugins.detail', { id: 'versions' });
    expect(detail?.version).toBe('2.0.0');
    expect(detail?.previous).toEqual({ version: '1.0.0', replacedAt: expect.any(String) });

    // One step back, and forward again: each rollback keeps the version it replaced.
    expect(await backend.invoke('plugins.rollback', { id: 'versions' })).toEqual({
      ok: true,
      detail: 'rolled versions back from 2.0.0 to 1.0.0; 2.0.0 is kept, so rolling back again returns to it',
    });
    expect(await registry.call('versions', 'old_tool', {}).done).toEqual(
      expect.objectContaining({ ok: true, value: expect.objectContaining({ data: 'old_tool from 1.0.0 {}' }) }),
    );
    expect(registry.state.plugin('versions')?.installed?.version).toBe('1.0.0');
    expect((await backend.invoke('plugins.detail', { id: 'versions' }))?.previous?.version).toBe('2.0.0');
    expect((await backend.invoke('plugins.rollback', { id: 'versions' })).ok).toBe(true);
    expect((await backend.invoke('plugins.detail', { id: 'versions' }))?.version).toBe('2.0.0');
    expect(registry.decisions.pluginState('versions').settings).toEqual({ greeting: 'hi' });
    const audit = readFileSync(path.join(data, 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string; plugin: string });
    expect(audit.filter((a) => a.plugin === 'versions').map((a) => a.action)).toEqual(
      expect.arrayContaining(['install', 'upgrade', 'rollback', 'rollback']),
    );

    // Uninstalling takes the kept version too.
    expect(existsSync(path.join(data, 'previous', 'versions', 'plugin'))).toBe(true);
    expect((await registry.installer.uninstall('versions')).ok).toBe(true);
    expect(existsSync(path.join(data, 'previous', 'versions'))).toBe(false);
  });

  it('installing a newer package over it shows what changes in its tools before the person confirms', async () => {
    const src = path.join(root, 'src2', 'versions');
    writeVersion(src, '1.0.0', V1);
    expect((await app.registry.installer.install(src)).ok).toBe(true);
    expect((await app.registry.call('versions', 'echo', { text: 'a' }).done).ok).toBe(true);
    const newer = path.join(root, 'newer', 'versions');
    writeVersion(newer, '2.0.0', V2);
    const p = await app.backend.invoke('install.preview', { source: { kind: 'path', path: newer } });
    if (!p.ok) throw new Error(p.message);
    expect(p.preview.replaces).toEqual({ version: '1.0.0' });
    expect(p.preview.changes).toEqual(
      expect.objectContaining({ known: true, added: [{ name: 'new_tool', description: 'New in 2.0' }] }),
    );
    expect(JSON.stringify(p.preview)).not.toContain('"announced"');
    await app.backend.invoke('install.cancel', { token: p.token });
    // The CLI's `update --from`: the same, staged, with a rollback.
    const u = await updates.preview('versions', { source: newer });
    if (!u.ok) throw new Error(u.message);
    expect(u.preview).toEqual(expect.objectContaining({ from: '1.0.0', to: '2.0.0', origin: 'source' }));
    expect((await updates.commit(u.token)).ok).toBe(true);
    expect(app.registry.state.plugin('versions')?.installed?.source).toBe(newer);
    expect(await app.backend.invoke('plugins.rollback', { id: 'versions' })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    expect((await app.registry.installer.uninstall('versions')).ok).toBe(true);
  });

  it('installs a plugin beside one of its manifest’s id under another id, which its updates and a restart keep', async () => {
    // The study: Anthropic's .mcpb named "filesystem" beside an imported filesystem server.
    const first = path.join(root, 'beside-a', 'versions');
    writeVersion(first, '1.0.0', V1);
    expect((await app.registry.installer.install(first)).ok).toBe(true);
    const other = path.join(root, 'beside-b', 'versions');
    writeVersion(other, '1.0.0', V1);
    const beside = await app.registry.installer.install(other, { id: 'versions-2' });
    expect(beside.ok, JSON.stringify(beside)).toBe(true);
    const ids = () => app.registry.list().map((r) => r.id);
    expect(ids()).toEqual(expect.arrayContaining(['versions', 'versions-2']));
    expect((await app.registry.call('versions-2', 'echo', { text: 'b' }).done).ok).toBe(true);
    // An update from a newer folder of it (its manifest still says "versions") goes over versions-2.
    const newer = path.join(root, 'beside-newer', 'versions');
    writeVersion(newer, '2.0.0', V2);
    const u = await updates.preview('versions-2', { source: newer });
    if (!u.ok) throw new Error(u.message);
    expect((await updates.commit(u.token)).ok).toBe(true);
    expect(app.registry.record('versions-2')?.spec?.version).toBe('2.0.0');
    expect(app.registry.record('versions')?.spec?.version).toBe('1.0.0');
    // Read again from the data directory, as at the next start: still two plugins, each its own.
    const again = loadRecord(app.registry.paths.plugin('versions-2'), 'installed');
    expect([again.id, again.spec?.version]).toEqual(['versions-2', '2.0.0']);
    expect((await app.registry.installer.uninstall('versions-2')).ok).toBe(true);
    expect((await app.registry.installer.uninstall('versions')).ok).toBe(true);
  });

  it('refuses a rollback when no update has kept a version', async () => {
    const src = path.join(root, 'src3', 'versions');
    writeVersion(src, '1.0.0', V1);
    expect((await app.registry.installer.install(src)).ok).toBe(true);
    expect(await app.backend.invoke('plugins.rollback', { id: 'versions' })).toEqual({
      ok: false,
      code: 'invalid_state',
      message: 'versions has no previous version to roll back to (one is kept by an update)',
    });
    expect(await app.backend.invoke('plugins.rollback', { id: 'hello' })).toEqual(
      expect.objectContaining({ ok: false, code: 'not_found' }),
    );
    expect((await app.registry.installer.uninstall('versions')).ok).toBe(true);
  });
});

describe('a plugin pinned to an npm package', () => {
  it('is updated to the version the registry names latest, and rolled back to its pin', async () => {
    const notesPkg = '@plugboard-tests/notes-mcp';
    const npm = await startNpmRegistry({ [notesPkg]: ['1.0.0', '1.1.0'], 'plain-mcp': ['3.0.0'] });
    // The person's .npmrc names the registry, so the install step fetches from it; the update
    // check is pointed at the same one.
    const person = npm.configure(path.join(root, 'npm-person'));
    // Unsandboxed by choice: a package is installed once the person agrees (at the install and
    // the update, not at the preview), so an update's preview is not tried.
    const registry = await PluginRegistry.open({
      dataDir: path.join(root, 'npm-data'),
      sandbox: false,
      parentEnv: { ...process.env, ...person },
      env: { PLUGBOARD_TEST_RUN: String(process.pid) },
    });
    const up = new Updates(registry, { npm: npm.url, pypi: 'http://127.0.0.1:9' });
    const notesDir = path.join(root, 'npm-data', 'plugins', 'notes');
    const manifestOf = (): { version: string; command: string[] } =>
      JSON.parse(readFileSync(path.join(notesDir, 'plugboard.json'), 'utf8'));
    const pinOf = (dir: string) => {
      const r = readRecord(dir);
      return r && { version: r.version_installed, integrity: r.integrity };
    };
    const published = (name: string, version: string) => ({
      version,
      integrity: npm.published(name, version)?.integrity,
    });
    const about = async () => {
      const r = await registry.call('notes', 'about', {}).done;
      if (!r.ok) throw new Error(r.message);
      return r.value.data;
    };
    try {
      const src = path.join(root, 'npm-src', 'notes');
      mkdirSync(src, { recursive: true });
      const manifest = {
        id: 'notes',
        name: 'Notes',
        version: '1.0.0',
        protocol: 'mcp',
        command: ['npx', '-y', `${notesPkg}@1.0.0`, '--stdio'],
      };
      writeFileSync(path.join(src, 'plugboard.json'), JSON.stringify(manifest));
      const plain = path.join(root, 'npm-src', 'plain');
      mkdirSync(plain, { recursive: true });
      writeFileSync(
        path.join(plain, 'plugboard.json'),
        JSON.stringify({ ...manifest, id: 'plain', command: ['npx', '-y', 'plain-mcp'] }),
      );
      const oci = path.join(root, 'npm-src', 'boxed');
      mkdirSync(oci, { recursive: true });
      writeFileSync(
        path.join(oci, 'plugboard.json'),
        JSON.stringify({
          ...manifest,
          id: 'boxed',
          command: ['docker', 'run', '-i', '--rm', '-e', 'KEY', 'acme/boxed:1.0.0'],
        }),
      );
      for (const dir of [src, plain, oci]) {
        const installed = await registry.installer.install(dir);
        expect(installed.ok, JSON.stringify(installed)).toBe(true);
      }
      // Each npm package was installed into its plugin's folder from the registry, at the version
      // its command names (the newest where it names none), with the integrity it was published with.
      expect(pinOf(notesDir)).toEqual(published(notesPkg, '1.0.0'));
      expect(pinOf(path.join(root, 'npm-data', 'plugins', 'plain'))).toEqual(published('plain-mcp', '3.0.0'));
      expect(await about()).toEqual(
        expect.objectContaining({ package: notesPkg, version: '1.0.0', args: ['--stdio'] }),
      );

      const asked = npm.asked.length;
      const check = await up.check();
      if (!check.ok) throw new Error(check.message);
      const by = Object.fromEntries(check.value.map((u) => [u.id, u]));
      expect(by.notes).toEqual(
        expect.objectContaining({
          current: '1.0.0',
          latest: '1.1.0',
          status: 'available',
          origin: 'npm',
          from: `npm ${notesPkg}`,
        }),
      );
      // plain's manifest names no version: its install pinned it at the version installed then.
      expect(by.plain).toEqual(
        expect.objectContaining({ current: '3.0.0', latest: '3.0.0', status: 'current', from: 'npm plain-mcp' }),
      );
      expect(by.boxed).toEqual(
        expect.objectContaining({
          status: 'unknown',
          message: expect.stringMatching(/cannot ask an image registry for the tags of acme\/boxed/),
        }),
      );
      // Checking asked the registry for the pinned packages' documents, and for nothing else.
      expect(npm.asked.slice(asked).sort()).toEqual([notesPkg, 'plain-mcp'].sort());

      const p = await up.preview('notes');
      if (!p.ok) throw new Error(p.message);
      expect(p.preview).toEqual(expect.objectContaining({ from: '1.0.0', to: '1.1.0', origin: 'npm' }));
      // The command as it will run once installed: npx found on PATH, the new pin (installed when
      // the person confirms, from the plugin's folder then).
      expect(p.preview.command[0]).toMatch(/npx$/);
      expect(p.preview.command.slice(1)).toEqual(['-y', `${notesPkg}@1.1.0`, '--stdio']);
      expect(p.preview.trial.status).toBe('skipped');
      expect(p.preview.changes).toEqual(expect.objectContaining({ known: false }));
      // Previewing installed nothing.
      expect(pinOf(notesDir)).toEqual(published(notesPkg, '1.0.0'));
      expect((await up.commit(p.token)).ok).toBe(true);
      const m = manifestOf();
      expect([m.version, m.command]).toEqual(['1.1.0', ['npx', '-y', `${notesPkg}@1.1.0`, '--stdio']]);
      expect(pinOf(notesDir)).toEqual(published(notesPkg, '1.1.0'));
      expect(registry.state.plugin('notes')?.installed?.package).toEqual({
        ecosystem: 'npm',
        name: notesPkg,
        version: '1.1.0',
      });
      expect(await about()).toEqual(expect.objectContaining({ version: '1.1.0', args: ['--stdio'] }));
      const again = await up.check('notes');
      expect(again.ok && again.value[0]?.status).toBe('current');

      expect((await registry.installer.rollback('notes')).ok).toBe(true);
      expect(manifestOf().command).toEqual(['npx', '-y', `${notesPkg}@1.0.0`, '--stdio']);
      expect(pinOf(notesDir)).toEqual(published(notesPkg, '1.0.0'));
      expect(registry.state.plugin('notes')?.installed?.version).toBe('1.0.0');
      expect(registry.state.plugin('notes')?.installed?.package).toBeUndefined();
      expect(await about()).toEqual(expect.objectContaining({ version: '1.0.0' }));
      const later = await up.check('notes');
      expect(later.ok && later.value[0]).toEqual(expect.objectContaining({ current: '1.0.0', status: 'available' }));

      // A newer plain-mcp is offered to plain, and the update writes the version it pins.
      npm.publish('plain-mcp', '3.1.0');
      const plainDir = path.join(root, 'npm-data', 'plugins', 'plain');
      const news = await up.check('plain');
      expect(news.ok && news.value[0]).toEqual(
        expect.objectContaining({ current: '3.0.0', latest: '3.1.0', status: 'available' }),
      );
      const pp = await up.preview('plain');
      if (!pp.ok) throw new Error(pp.message);
      expect(pp.preview.command.slice(1)).toEqual(['-y', 'plain-mcp@3.1.0']);
      expect((await up.commit(pp.token)).ok).toBe(true);
      expect(JSON.parse(readFileSync(path.join(plainDir, 'plugboard.json'), 'utf8')).command).toEqual([
        'npx',
        '-y',
        'plain-mcp@3.1.0',
      ]);
      expect(pinOf(plainDir)).toEqual(published('plain-mcp', '3.1.0'));
    } finally {
      up.dispose();
      await registry.shutdown();
      registry.dispose();
      await npm.close();
    }
  }, 180_000);

  it('asks the real npm registry for a real package’s latest version, as npm itself answers', async (ctx) => {
    let npmSays: string;
    try {
      npmSays = execFileSync('npm', ['view', '@playwright/mcp', 'dist-tags.latest'], {
        encoding: 'utf8',
        timeout: 60_000,
      }).trim();
    } catch (e) {
      return ctx.skip(`the npm registry cannot be reached: ${(e as Error).message.split('\n')[0]}`);
    }
    expect(await latestVersion({ ecosystem: 'npm', name: '@playwright/mcp' })).toEqual({ ok: true, value: npmSays });
  }, 90_000);
});

describe('a plugin installed from the catalog', () => {
  it('is updated from the same registry entry, keeping its secret', async () => {
    const token = 'nt-0a1b2c3d4e5f';
    const server = await startMcpHttp(['--token', token]);
    const base = server.url.replace(/\/mcp$/, '');
    const doc = registryDoc('notes-remote.json');
    const remote = (doc.remotes as Array<Record<string, unknown>>)[0] as Record<string, unknown>;
    const reg = await startMcpRegistry([
      { ...doc, version: '2.0.0', remotes: [{ ...remote, variables: { base: { default: base } } }] },
    ]);
    const catalog = new Catalog(app.registry, { PLUGBOARD_CATALOG_URL: reg.url });
    const up = new Updates(app.registry);
    try {
      const p = await catalog.preview('io.github.plugboard-tests/notes');
      if (!p.ok) throw new Error(p.message);
      const r = await catalog.install(p.value, { only: ['remote'], secret: ['Authorization'] });
      const id = r.ok && r.results[0]?.outcome.ok ? r.results[0].outcome.id : '';
      expect((await app.registry.decisions.configure(id, { token })).ok).toBe(true);
      expect((await app.registry.call(id, 'echo', { text: 'v2.0.0' }).done).ok).toBe(true);

      reg.publish({
        ...doc,
        version: '2.1.0',
        description: 'Notes, now with search',
        remotes: [{ ...remote, variables: { base: { default: base } } }],
      });
      const check = await up.check(id);
      expect(check.ok && check.value[0]).toEqual(
        expect.objectContaining({ current: '2.0.0', latest: '2.1.0', status: 'available', origin: 'catalog' }),
      );
      const u = await up.preview(id);
      if (!u.ok) throw new Error(u.message);
      expect(u.preview).toEqual(expect.objectContaining({ from: '2.0.0', to: '2.1.0', origin: 'catalog' }));
      expect((await up.commit(u.token)).ok).toBe(true);
      expect(app.registry.state.plugin(id)?.installed?.catalog?.version).toBe('2.1.0');
      // The token stayed in the secret store, and the updated plugin still reaches its server.
      expect(await app.registry.secrets.get(id)).toEqual({ token });
      expect((await app.registry.call(id, 'echo', { text: 'v2.1.0' }).done).ok).toBe(true);
    } finally {
      up.dispose();
      server.proc.kill();
      await reg.close();
    }
  });
});
