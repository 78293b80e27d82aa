/**
 * What another user on the machine, a hostile package or a killed install can do to the data
 * directory, each shown by the attack: a zip whose entries ask for setuid and world-writable
 * modes, a folder with such files, a data directory left open (0755, files 0644) by an older
 * Plugboard, and the leftovers of installs, upgrades and removals that were killed. Real files,
 * real zips, real processes (a live one owns a staging folder that must be kept).
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bootId, startTimeOf } from '../../src/main/fs';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { folderItems, writeZip } from '../helpers/zips';

afterAll(() => cleanupFixtures());

const modeOf = (p: string): string => (statSync(p).mode & 0o7777).toString(8);

async function openAt(data: string): Promise<PluginRegistry> {
  return PluginRegistry.open({ dataDir: data });
}

describe('installed code is nobody else’s to change', () => {
  it('masks zip entry modes: a 04777 entry is installed 0755, a 0666 one 0644', async () => {
    const src = tmpDir('modes-src');
    const items = folderItems(path.join(FIXTURES, 'gassist-python'));
    items.push({ name: 'libs/setuid-tool', data: '#!/bin/sh\necho root\n', mode: 0o104777 });
    items.push({ name: 'libs/open.txt', data: 'anyone may write me', mode: 0o100666 });
    const zip = await writeZip(path.join(src, 'hostile-modes.zip'), items);
    const data = path.join(tmpDir('modes'), 'data');
    const registry = await openAt(data);
    try {
      const r = await registry.installer.install(zip);
      expect(r.ok).toBe(true);
      const dir = path.join(data, 'plugins', 'hostile-modes');
      expect(modeOf(path.join(dir, 'libs', 'setuid-tool'))).toBe('755');
      expect(modeOf(path.join(dir, 'libs', 'open.txt'))).toBe('644');
    } finally {
      registry.dispose();
    }
  });

  it('masks the modes of a copied folder the same way', async () => {
    const src = path.join(tmpDir('modes-folder'), 'open-plugin');
    mkdirSync(src);
    for (const f of ['manifest.json', 'plugin.py'])
      writeFileSync(path.join(src, f), readFileSync(path.join(FIXTURES, 'gassist-python', f)));
    writeFileSync(path.join(src, 'tool.sh'), '#!/bin/sh\n');
    chmodSync(path.join(src, 'tool.sh'), 0o4777);
    chmodSync(path.join(src, 'plugin.py'), 0o666);
    const data = path.join(tmpDir('modes-folder'), 'data');
    const registry = await openAt(data);
    try {
      expect((await registry.installer.install(src)).ok).toBe(true);
      expect(modeOf(path.join(data, 'plugins', 'open-plugin', 'tool.sh'))).toBe('755');
      expect(modeOf(path.join(data, 'plugins', 'open-plugin', 'plugin.py'))).toBe('644');
    } finally {
      registry.dispose();
    }
  });
});

describe('the data directory is its owner’s alone', () => {
  it('is made 0700, and its state, secrets and audit files 0600', async () => {
    const data = path.join(tmpDir('private'), 'data');
    const registry = await openAt(data);
    try {
      expect((await registry.installer.install(path.join(FIXTURES, 'mcpb-echo'))).ok).toBe(true);
      expect((await registry.decisions.configure('mcpb-echo', { token: 'hunter22' })).ok).toBe(true);
      expect(modeOf(data)).toBe('700');
      for (const f of ['state.json', 'secrets.json', 'audit.log'])
        expect([f, modeOf(path.join(data, f))]).toEqual([f, '600']);
    } finally {
      registry.dispose();
    }
  });

  it('tightens one an older Plugboard left open (0755, files 0644), and says so', async () => {
    const data = path.join(tmpDir('opened'), 'data');
    mkdirSync(data, { mode: 0o755 });
    chmodSync(data, 0o755);
    for (const f of ['state.json', 'audit.log', 'conversations.sqlite']) {
      writeFileSync(path.join(data, f), f === 'state.json' ? '{"version":1,"plugins":{}}' : '');
      chmodSync(path.join(data, f), 0o644);
    }
    const registry = await openAt(data);
    try {
      expect(modeOf(data)).toBe('700');
      for (const f of ['state.json', 'audit.log', 'conversations.sqlite'])
        expect([f, modeOf(path.join(data, f))]).toEqual([f, '600']);
      expect(registry.startupNotes).toEqual(
        expect.arrayContaining([
          `${data} was readable by others (mode 755); made 700`,
          `${path.join(data, 'state.json')} was readable by others (mode 644); made 600`,
        ]),
      );
    } finally {
      registry.dispose();
    }
    // Inside a private directory a loose file was never open to anyone: tightened without a note.
    chmodSync(path.join(data, 'conversations.sqlite'), 0o644);
    const again = await openAt(data);
    again.dispose();
    expect(modeOf(path.join(data, 'conversations.sqlite'))).toBe('600');
    expect(again.startupNotes).toEqual([]);
  });
});

/** A staging folder as a killed install leaves it: an owner file naming the process that made it. */
function leftover(
  data: string,
  name: string,
  owner: object,
  files: Record<string, string> = { 'unpacked/big.bin': 'x'.repeat(1024) },
): string {
  const dir = path.join(data, '.staging', name);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  writeFileSync(path.join(dir, '.owner.json'), JSON.stringify(owner));
  return dir;
}

/** The identity of a process that ran and has exited. */
async function deadOwner(): Promise<object> {
  const p = spawn('sleep', ['30']);
  await expect.poll(() => startTimeOf(p.pid as number)).toBeTruthy();
  const id = { pid: p.pid, start: startTimeOf(p.pid as number), boot: bootId() };
  p.kill('SIGKILL');
  await new Promise((r) => p.on('exit', r));
  return id;
}

describe('a start after killed installs', () => {
  it('removes their staging folders, keeps one a live process owns, and puts back a plugin an upgrade had moved aside', async () => {
    const data = path.join(tmpDir('staging'), 'data');
    const dead = await deadOwner();
    const killedInstall = leftover(data, 'install-aaaaaa', dead);
    const killedRemoval = leftover(data, 'removing-bbbbbb', dead);
    const killedUpgrade = leftover(data, 'previous-cccccc', dead, { 'weather/manifest.json': '{}' });
    const live = leftover(data, 'install-dddddd', {
      pid: process.pid,
      start: startTimeOf(process.pid),
      boot: bootId(),
    });
    // Made by an older Plugboard (no owner file): kept while recent, removed once an hour old.
    const oldUnowned = path.join(data, '.staging', 'install-eeeeee');
    const newUnowned = path.join(data, '.staging', 'install-ffffff');
    for (const d of [oldUnowned, newUnowned]) mkdirSync(d, { recursive: true });
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(oldUnowned, twoHoursAgo, twoHoursAgo);

    const registry = await openAt(data);
    try {
      expect(readdirSync(path.join(data, '.staging')).sort()).toEqual(['install-dddddd', 'install-ffffff']);
      for (const d of [killedInstall, killedRemoval, killedUpgrade, oldUnowned]) expect(existsSync(d)).toBe(false);
      expect(existsSync(live)).toBe(true);
      expect(readFileSync(path.join(data, 'plugins', 'weather', 'manifest.json'), 'utf8')).toBe('{}');
      expect(registry.startupNotes).toEqual(
        expect.arrayContaining([
          'put weather back: an upgrade was stopped halfway, and its previous version is installed again',
          `removed ${killedInstall}, left by an install or removal that was stopped`,
        ]),
      );
    } finally {
      registry.dispose();
    }
  });
});
