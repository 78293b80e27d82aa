/**
 * A package registry on loopback for the package install tests: it speaks the npm registry's API
 * (package documents and tarballs) and PyPI's simple index (PEP 691 JSON) and files, and answers
 * from a cache on disk, fetching from the real registries (registry.npmjs.org, pypi.org and
 * files.pythonhosted.org) only what the cache lacks. Tests point the install step at it through
 * the person's own configuration (an .npmrc `registry=` and a pip.conf `index-url`), which is
 * what the install step is meant to honour, so every test also proves that.
 *
 * The cache lives outside the checkout, in `$PLUGBOARD_TEST_PACKAGE_CACHE` or
 * `~/.cache/plugboard-test-packages`, so clean clones on one machine share it: the first run
 * fetches the packages the tests use (a few minutes on a slow line), later runs need no network.
 * Tarballs and files never change once published; package documents and index pages are kept a
 * day, then fetched again (an old copy is used when the registry cannot be reached).
 *
 * The packages are real: nothing here is made up. Only where they come from is local.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const NPM = 'https://registry.npmjs.org';
const PYPI = 'https://pypi.org';
const FILES = 'https://files.pythonhosted.org';
const DOCUMENT_TTL_MS = 24 * 60 * 60 * 1000;
const PEP691 = 'application/vnd.pypi.simple.v1+json';

export function packageCacheDir(): string {
  return process.env.PLUGBOARD_TEST_PACKAGE_CACHE ?? path.join(os.homedir(), '.cache', 'plugboard-test-packages');
}

export interface PackageRegistry {
  /** `http://127.0.0.1:PORT/npm/` */
  npm: string;
  /** `http://127.0.0.1:PORT/pypi/simple/` */
  pypi: string;
  /** Requests answered from the cache, and fetched from the real registries. */
  stats: { hits: number; fetched: number; requests: string[] };
  /** Writes an .npmrc and a pip.conf (and uv.toml) naming this registry; answers the variables that point at them. */
  configure(dir: string): Record<string, string>;
  close(): Promise<void>;
}

interface Cached {
  status: number;
  type: string;
  body: Buffer;
}

function keyOf(url: string, accept: string): string {
  return createHash('sha256').update(`${url}\n${accept}`).digest('hex');
}

function readCache(file: string, ttl: number | null): { cached: Cached; fresh: boolean } | null {
  try {
    const meta = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as { status: number; type: string };
    const body = readFileSync(file);
    const age = Date.now() - statSync(file).mtimeMs;
    return { cached: { ...meta, body }, fresh: ttl === null || age < ttl };
  } catch {
    return null;
  }
}

function writeCache(file: string, c: Cached): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(tmp, c.body);
  writeFileSync(`${tmp}.json`, JSON.stringify({ status: c.status, type: c.type }));
  renameSync(`${tmp}.json`, `${file}.json`);
  renameSync(tmp, file);
}

export async function startPackageRegistry(cacheDir = packageCacheDir()): Promise<PackageRegistry> {
  const stats = { hits: 0, fetched: 0, requests: [] as string[] };
  let base = '';

  /** The upstream answer for a URL, from the cache when it has it (documents: when fresh). */
  const upstream = async (url: string, accept: string, document: boolean): Promise<Cached> => {
    const file = path.join(cacheDir, keyOf(url, accept).slice(0, 2), keyOf(url, accept));
    const hit = readCache(file, document ? DOCUMENT_TTL_MS : null);
    if (hit?.fresh) {
      stats.hits++;
      return hit.cached;
    }
    try {
      const r = await fetch(url, { headers: accept ? { accept } : {} });
      const c: Cached = {
        status: r.status,
        type: r.headers.get('content-type') ?? 'application/octet-stream',
        body: Buffer.from(await r.arrayBuffer()),
      };
      stats.fetched++;
      if (r.status === 200) writeCache(file, c);
      return c;
    } catch (e) {
      if (hit) return hit.cached;
      throw e;
    }
  };

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    stats.requests.push(url);
    const accept = String(req.headers.accept ?? '');
    const send = (c: Cached, body: Buffer = c.body): void => {
      res.writeHead(c.status, { 'content-type': c.type, 'content-length': body.length });
      res.end(body);
    };
    void (async () => {
      if (url.startsWith('/npm/')) {
        const rest = url.slice('/npm/'.length);
        if (rest.includes('/-/')) return send(await upstream(`${NPM}/${rest}`, '', false));
        // A package document: its tarball addresses are made this registry's.
        const c = await upstream(
          `${NPM}/${rest}`,
          accept.includes('install-v1') ? 'application/vnd.npm.install-v1+json' : 'application/json',
          true,
        );
        const text = c.body.toString('utf8').split(`${NPM}/`).join(`${base}/npm/`);
        return send(c, Buffer.from(text));
      }
      if (url.startsWith('/pypi/simple/')) {
        const rest = url.slice('/pypi/simple/'.length);
        const c = await upstream(`${PYPI}/simple/${rest}`, PEP691, true);
        const text = c.body.toString('utf8').split(`${FILES}/`).join(`${base}/pypi/files/`);
        return send({ ...c, type: c.status === 200 ? PEP691 : c.type }, Buffer.from(text));
      }
      if (url.startsWith('/pypi/files/')) {
        return send(await upstream(`${FILES}/${url.slice('/pypi/files/'.length)}`, '', false));
      }
      res.writeHead(404).end();
    })().catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`registry cache: ${(e as Error).message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    npm: `${base}/npm/`,
    pypi: `${base}/pypi/simple/`,
    stats,
    configure(dir) {
      mkdirSync(dir, { recursive: true });
      const npmrc = path.join(dir, '.npmrc');
      const pip = path.join(dir, 'pip.conf');
      const uv = path.join(dir, 'uv.toml');
      writeFileSync(npmrc, `registry=${base}/npm/\nfetch-retries=1\n`);
      writeFileSync(pip, `[global]\nindex-url = ${base}/pypi/simple/\n`);
      writeFileSync(uv, `index-url = "${base}/pypi/simple/"\n`);
      return { NPM_CONFIG_USERCONFIG: npmrc, PIP_CONFIG_FILE: pip, UV_CONFIG_FILE: uv };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
