/**
 * Paths a server is given become grants the person sees, and a failure for want of a grant names
 * it. And the person's registry settings reach the install step, filtered to what says where and
 * how to fetch.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failure } from '../../src/shared/failures';
import { explainFailure } from '../../src/main/plugins/grants/missing';
import { findPaths } from '../../src/main/plugins/grants/paths';
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
      { home },
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
  it('keeps where and how to fetch (registry, scoped registries, tokens, CA, proxy) and drops the rest', () => {
    const dir = tmpDir('person-config');
    const ca = path.join(dir, 'corp-ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
    writeFileSync(
      path.join(dir, '.npmrc'),
      [
        'registry=https://npm.corp.example/',
        '@corp:registry=https://npm.corp.example/scoped/',
        '//npm.corp.example/:_authToken=${NPM_TOKEN}',
        `cafile=${ca}`,
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
      { HOME: dir, NPM_TOKEN: 'npm_abc123', HTTPS_PROXY: 'http://proxy:3128', PATH: '/usr/bin' },
      dir,
    );
    expect(cfg.files.find((f) => f.rel === '.npmrc')?.text).toBe(
      [
        'registry=https://npm.corp.example/',
        '@corp:registry=https://npm.corp.example/scoped/',
        '//npm.corp.example/:_authToken=npm_abc123',
        `cafile=${ca}`,
        '',
      ].join('\n'),
    );
    expect(cfg.files.find((f) => f.rel === '.config/pip/pip.conf')?.text).toBe(
      `[global]\nindex-url=https://pypi.corp.example/simple\ncert=${ca}\n`,
    );
    expect(cfg.env).toEqual({ HTTPS_PROXY: 'http://proxy:3128' });
    expect(cfg.readOnly).toEqual([ca]);
  });
});
