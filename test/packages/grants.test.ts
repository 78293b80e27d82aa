/**
 * Paths a server is given become grants the person sees, and a failure for want of a grant names
 * it. And the person's registry settings reach the install step, filtered to what says where and
 * how to fetch.
 */
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failure } from '../../src/shared/failures';
import { explainFailure } from '../../src/main/plugins/grants/missing';
import { findPaths } from '../../src/main/plugins/grants/paths';
import { scriptFolders } from '../../src/main/plugins/import/folders';
import { personConfig } from '../../src/main/plugins/packages/config';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

afterAll(cleanupFixtures);

describe('paths named in a command and its environment', () => {
  const root = tmpDir('paths');
  const home = path.join(root, 'home');
  const docs = path.join(home, 'Documents');
  const repo = path.join(root, 'repo');
  const kube = path.join(home, 'kube', 'config');
  mkdirSync(docs, { recursive: true });
  mkdirSync(repo, { recursive: true });
  mkdirSync(path.dirname(kube), { recursive: true });
  writeFileSync(kube, 'apiVersion: v1\n');

  it('offers folders read-write, a written file as its folder, a configuration read-only, each with where it was found', () => {
    const found = findPaths(
      ['npx', '-y', '@modelcontextprotocol/server-filesystem', '~/Documents', repo],
      { MEMORY_FILE_PATH: path.join(root, 'memory.json'), KUBECONFIG: kube, LOG_LEVEL: 'debug' },
      { home, runAs: null },
    );
    expect(found).toEqual([
      { path: docs, kind: 'folder', write: true, from: 'argument 1', exists: true },
      { path: repo, kind: 'folder', write: true, from: 'argument 2', exists: true },
      {
        path: root,
        kind: 'folder',
        write: true,
        from: 'environment MEMORY_FILE_PATH',
        named: path.join(root, 'memory.json'),
        exists: true,
      },
      { path: kube, kind: 'file', write: false, from: 'environment KUBECONFIG', exists: true },
    ]);
  });

  it('reads --flag value and --flag=value; never offers the interpreter’s script, the plugin’s folder, the data directory, /proc or a system configuration', () => {
    const data = path.join(root, 'data');
    expect(
      findPaths(['uvx', 'mcp-server-git', '--repository', repo], {}, { home }).map((g) => [g.path, g.from]),
    ).toEqual([[repo, '--repository']]);
    expect(
      findPaths(['node', '/opt/srv/index.js', `--root=${docs}`], {}, { home }).map((g) => [g.path, g.from]),
    ).toEqual([[docs, '--root']]);
    expect(
      findPaths(
        ['node', '${__dirname}/server.js', path.join(data, 'x'), '/proc/self', path.join(root, 'plugin', 'a')],
        { SSL_CONFIG: '/etc/ssl/openssl.cnf' },
        { home, dataRoot: data, pluginDir: path.join(root, 'plugin') },
      ),
    ).toEqual([]);
  });

  it('a package-run server’s file argument is its data (a grant of its folder), a system program it is pointed at needs none', () => {
    const db = path.join(repo, 'test.db');
    writeFileSync(db, '');
    const command = ['uvx', 'mcp-server-sqlite', '--db-path', db];
    // Not the server's own folder, as `node /abs/server.js` would make it (the study's sqlite).
    expect(scriptFolders(command, home)).toEqual([]);
    expect(findPaths(command, {}, { home, runAs: null })).toEqual([
      { path: repo, kind: 'folder', write: true, from: '--db-path', named: db, exists: true },
    ]);
    // @playwright/mcp given Debian's Chromium: /usr/bin is every plugin's, read-only, already.
    const browser = ['npx', '@playwright/mcp@0.0.41', '--executable-path', '/usr/bin/chromium', '--headless'];
    expect(scriptFolders(browser, home)).toEqual([]);
    expect(findPaths(browser, {}, { home })).toEqual([]);
    // A server run from a folder of the person's still runs from it.
    const script = path.join(repo, 'build', 'index.js');
    mkdirSync(path.dirname(script), { recursive: true });
    writeFileSync(script, '');
    writeFileSync(path.join(repo, 'package.json'), '{}');
    expect(scriptFolders(['node', script, '--db-path', db], home)).toEqual([repo]);
  });

  it('says when the user plugins run as (nobody, under root) cannot write a folder offered read-write', () => {
    const mine = path.join(root, 'mine');
    const shared = path.join(root, 'shared');
    mkdirSync(mine, { mode: 0o755 });
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const me = statSync(mine);
    // Another user than the folders' owner: writes only where others may.
    const nobody = { uid: me.uid + 4242, gid: me.gid + 4242, user: 'nobody' };
    const notes = findPaths(['npx', 'srv', mine, shared], {}, { home, runAs: nobody }).map((g) => [g.path, g.note]);
    expect(notes[0]?.[0]).toBe(mine);
    expect(notes[0]?.[1]).toMatch(
      /plugins run as nobody here \(Plugboard runs as root\), and nobody cannot write this folder \(owner uid \d+, mode 0755\)/,
    );
    expect(notes[1]).toEqual([shared, undefined]);
    // Its owner writes it; and where plugins run as the person, nothing is said.
    expect(findPaths(['npx', 'srv', mine], {}, { home, runAs: { ...nobody, uid: me.uid } })[0]?.note).toBeUndefined();
    expect(findPaths(['npx', 'srv', mine], {}, { home, runAs: null })[0]?.note).toBeUndefined();
  });

  it('offers a written file directly in the home folder alone, never the whole home for it', () => {
    writeFileSync(path.join(home, '.bashrc'), '');
    const found = findPaths(['npx', 'srv'], { LOG_FILE: path.join(home, '.bashrc') }, { home, runAs: null });
    expect(found).toEqual([
      { path: path.join(home, '.bashrc'), kind: 'file', write: true, from: 'environment LOG_FILE', exists: true },
    ]);
  });

  it('says when a path is the whole home folder or does not exist yet', () => {
    const found = findPaths(['npx', 'srv', home, path.join(root, 'not-yet')], {}, { home });
    expect(found.map((g) => [g.path, g.note])).toEqual([
      [home, 'your whole home folder'],
      [path.join(root, 'not-yet'), `${path.join(root, 'not-yet')} does not exist yet`],
    ]);
  });
});

describe('a failure for want of a grant', () => {
  const facts = {
    id: 'weather',
    sandboxed: true,
    net: false,
    offered: [{ path: '/srv/notes', kind: 'folder' as const, write: true, from: 'argument 1', exists: true }],
    folders: [],
  };

  it('names the network when the plugin lacks it and says so in its own words', () => {
    const f = explainFailure(
      failure('plugin_error', 'Failed to fetch the forecast', { stderrTail: ['urllib3: NameResolutionError'] }),
      facts,
    );
    expect(f.details?.missingGrant).toEqual({ kind: 'net' });
    expect(f.message).toContain('plugboard plugins grant weather net');
    // Granted the network, the same words are the plugin's own problem.
    expect(
      explainFailure(failure('plugin_error', 'connect ECONNREFUSED 127.0.0.1:9'), { ...facts, net: true }),
    ).toEqual(failure('plugin_error', 'connect ECONNREFUSED 127.0.0.1:9'));
  });

  it('names a folder it is given but was not granted, or granted read-only where it writes', () => {
    const missing = explainFailure(failure('crashed', 'Error accessing directory /srv/notes: ENOENT'), facts);
    expect(missing.details?.missingGrant).toEqual({ kind: 'folder', path: '/srv/notes', write: true });
    const readOnly = explainFailure(failure('plugin_error', "EROFS: read-only file system, open '/srv/notes/a.md'"), {
      ...facts,
      folders: [{ path: '/srv/notes', write: false }],
    });
    expect(readOnly.details?.missingGrant).toEqual({ kind: 'folder', path: '/srv/notes', write: true });
  });

  it('says nothing where plugins run unsandboxed (nothing is withheld there)', () => {
    const f = failure('plugin_error', 'getaddrinfo ENOTFOUND api.example.com');
    expect(explainFailure(f, { ...facts, sandboxed: false })).toBe(f);
  });
});

describe('the person’s registry settings, for the install step', () => {
  it('keeps where and how to fetch (registry, scoped registries, tokens, CA, proxy) and to build (nodedir), and drops the rest', () => {
    const dir = tmpDir('person-config');
    const ca = path.join(dir, 'corp-ca.pem');
    const headers = path.join(dir, 'include', 'node');
    mkdirSync(headers, { recursive: true });
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
    writeFileSync(
      path.join(dir, '.npmrc'),
      [
        'registry=https://npm.corp.example/',
        '@corp:registry=https://npm.corp.example/scoped/',
        '//npm.corp.example/:_authToken=${NPM_TOKEN}',
        `cafile=${ca}`,
        `nodedir=${dir}`,
        `cache=${dir}/.npm-cache`,
        'prefix=/home/ada/.npm-global',
        '# a comment',
      ].join('\n'),
    );
    mkdirSync(path.join(dir, '.config', 'pip'), { recursive: true });
    writeFileSync(
      path.join(dir, '.config', 'pip', 'pip.conf'),
      `[global]\nindex-url = https://pypi.corp.example/simple\ncert = ${ca}\nfind-links = /opt/wheels\nuser = true\n`,
    );
    const cfg = personConfig(
      {
        HOME: dir,
        NPM_TOKEN: 'npm_abc123',
        HTTPS_PROXY: 'http://proxy:3128',
        PATH: '/usr/bin',
        npm_config_nodedir: dir,
      },
      dir,
    );
    expect(cfg.files.find((f) => f.rel === '.npmrc')?.text).toBe(
      [
        'registry=https://npm.corp.example/',
        '@corp:registry=https://npm.corp.example/scoped/',
        '//npm.corp.example/:_authToken=npm_abc123',
        `cafile=${ca}`,
        // Where native modules find Node's headers: without it node-gyp downloads them (the study's sqlite3).
        `nodedir=${dir}`,
        '',
      ].join('\n'),
    );
    expect(cfg.files.find((f) => f.rel === '.config/pip/pip.conf')?.text).toBe(
      `[global]\nindex-url=https://pypi.corp.example/simple\ncert=${ca}\n`,
    );
    expect(cfg.env).toEqual({ HTTPS_PROXY: 'http://proxy:3128', npm_config_nodedir: dir });
    // The nodedir's headers only, never the folder it names (a home folder, maybe).
    expect(cfg.readOnly).toEqual([headers, ca]);
  });
});
