/**
 * An npm registry on loopback that publishes made-up packages, for the tests that install a
 * catalog entry's or a manifest's npm package for real and update it: each package is the
 * dependency-free MCP server of test/fixtures/npm-packages/server.js, packed as npm packs a
 * package (a gzipped tarball of `package/…`) under the name and version a test publishes. It
 * speaks the registry's API as npm and Plugboard use it:
 *   - `GET /<name>` (`/@scope%2fname`): the package document, with its `dist-tags` and each
 *     version's manifest and `dist` (`tarball`, `integrity` sha512, `shasum` sha1);
 *   - `GET /<name>/-/<name>-<version>.tgz`: the tarball.
 * Tests reach it as a person's npm does, through an .npmrc naming it (`configure`), which is what
 * Plugboard's install step must honour; the update check is pointed at the same registry.
 * Versions can be published while a test runs (the newest published is `latest`).
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { create as createTar } from 'tar';
import { FIXTURES } from './plugins';

const SERVER_SOURCE = path.join(FIXTURES, 'npm-packages', 'server.js');
/** The line of the server that names its package, rewritten when it is packed. */
const PACKAGE_LINE = /^const PACKAGE = .*;$/m;
/** The date npm gives every file it packs, so that a version always packs to the same bytes. */
const PACKED_AT = new Date('1985-10-26T08:15:00Z');

export interface PackedVersion {
  /** The version's package.json, as in its tarball. */
  manifest: {
    name: string;
    version: string;
    description: string;
    license: string;
    bin: Record<string, string>;
    scripts?: Record<string, string>;
  };
  tarball: Buffer;
  /** `sha512-<base64>`, as npm records it in a package-lock.json. */
  integrity: string;
  /** The tarball's sha1, in hex. */
  shasum: string;
}

/** `@plugboard-tests/weather-mcp` → `weather-mcp`. */
function unscoped(name: string): string {
  return name.replace(/^@[^/]+\//, '');
}

/** The made-up server packed as `name@version`: what `npm pack` of it would make. */
export function packMadeUpServer(name: string, version: string, scripts?: Record<string, string>): PackedVersion {
  const source = readFileSync(SERVER_SOURCE, 'utf8');
  if (!PACKAGE_LINE.test(source)) throw new Error(`${SERVER_SOURCE} has no "const PACKAGE = …;" line to write`);
  const bin = unscoped(name);
  const manifest = {
    name,
    version,
    description: `A made-up MCP server for Plugboard's tests (${name})`,
    license: 'MIT',
    bin: { [bin]: 'server.js' },
    ...(scripts ? { scripts } : {}),
  };
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'plugboard-npm-pack-'));
  try {
    const dir = path.join(scratch, 'package');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const server = path.join(dir, 'server.js');
    writeFileSync(server, source.replace(PACKAGE_LINE, `const PACKAGE = ${JSON.stringify({ name, version })};`));
    chmodSync(server, 0o755);
    const file = path.join(scratch, `${bin}-${version}.tgz`);
    createTar({ gzip: true, portable: true, mtime: PACKED_AT, cwd: scratch, file, sync: true }, [
      'package/package.json',
      'package/server.js',
    ]);
    const tarball = readFileSync(file);
    return {
      manifest,
      tarball,
      integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
      shasum: createHash('sha1').update(tarball).digest('hex'),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export interface TestNpmRegistry {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  url: string;
  /**
   * Every path asked for, decoded, without the leading slash: a package document
   * (`@plugboard-tests/notes-mcp`) or a tarball (`@plugboard-tests/notes-mcp/-/notes-mcp-1.0.0.tgz`).
   */
  asked: string[];
  /** Publishes the made-up server as `name@version` (with lifecycle `scripts`); it becomes the package's `latest`. */
  publish(name: string, version: string, scripts?: Record<string, string>): PackedVersion;
  /** A published version, as served. */
  published(name: string, version: string): PackedVersion | undefined;
  /**
   * Writes a person's .npmrc naming this registry into `dir` (made readable by all, as a
   * person's folder is); answers the variable that points npm, and Plugboard, at it.
   */
  configure(dir: string): { NPM_CONFIG_USERCONFIG: string };
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A registry publishing the made-up server under each name, at each of its versions (the last is `latest`). */
export async function startNpmRegistry(packages: Record<string, string[]>): Promise<TestNpmRegistry> {
  const published = new Map<string, Array<{ version: string; at: string; packed: PackedVersion }>>();
  const asked: string[] = [];
  let url = '';

  const publish = (name: string, version: string, scripts?: Record<string, string>): PackedVersion => {
    const packed = packMadeUpServer(name, version, scripts);
    const versions = (published.get(name) ?? []).filter((v) => v.version !== version);
    versions.push({ version, at: new Date().toISOString(), packed });
    published.set(name, versions);
    return packed;
  };
  for (const [name, versions] of Object.entries(packages)) for (const v of versions) publish(name, v);

  const tarballUrl = (name: string, version: string): string => `${url}/${name}/-/${unscoped(name)}-${version}.tgz`;
  const document = (name: string): unknown => {
    const versions = published.get(name) ?? [];
    const latest = versions.at(-1);
    return {
      _id: name,
      name,
      'dist-tags': latest ? { latest: latest.version } : {},
      versions: Object.fromEntries(
        versions.map((v) => [
          v.version,
          {
            ...v.packed.manifest,
            _id: `${name}@${v.version}`,
            dist: { tarball: tarballUrl(name, v.version), integrity: v.packed.integrity, shasum: v.packed.shasum },
          },
        ]),
      ),
      time: {
        created: versions[0]?.at,
        modified: latest?.at,
        ...Object.fromEntries(versions.map((v) => [v.version, v.at])),
      },
    };
  };

  const server = createServer((req, res) => {
    const asPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).slice(1);
    asked.push(asPath);
    if (req.method !== 'GET') return sendJson(res, 405, { error: 'method not allowed' });
    const cut = asPath.indexOf('/-/');
    if (cut < 0) {
      return published.has(asPath) ? sendJson(res, 200, document(asPath)) : sendJson(res, 404, { error: 'Not found' });
    }
    const name = asPath.slice(0, cut);
    const file = asPath.slice(cut + 3);
    const v = published.get(name)?.find((x) => file === `${unscoped(name)}-${x.version}.tgz`);
    if (!v) return sendJson(res, 404, { error: 'Not found' });
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': v.packed.tarball.length });
    res.end(v.packed.tarball);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    asked,
    publish,
    published: (name, version) => published.get(name)?.find((v) => v.version === version)?.packed,
    configure(dir) {
      mkdirSync(dir, { recursive: true, mode: 0o755 });
      chmodSync(dir, 0o755);
      const npmrc = path.join(dir, '.npmrc');
      writeFileSync(npmrc, `registry=${url}/\nfetch-retries=0\n`, { mode: 0o644 });
      return { NPM_CONFIG_USERCONFIG: npmrc };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
