/**
 * Reading a version manager's files (toolchains.ts): text files of bounded size, version folders,
 * version files found from a project folder up, and the installed version a wanted one names.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

export function readText(p: string, max = 64 * 1024): string | null {
  try {
    const st = statSync(p);
    if (!st.isFile() || st.size > max) return null;
    return readFileSync(p, 'utf8');
  } catch {
    return null;
  }
}

export function isExecutable(p: string): boolean {
  try {
    const st = statSync(p);
    return st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

export function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

export function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() || e.isSymbolicLink())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** A file named `name`, looked for in `dir` and each folder above it. */
export function findUp(dir: string, names: string[]): string | null {
  let d = path.resolve(dir);
  for (;;) {
    for (const n of names) {
      const f = path.join(d, n);
      if (readText(f) !== null) return f;
    }
    const up = path.dirname(d);
    if (up === d) return null;
    d = up;
  }
}

/** Numeric-aware order of version names: 3.9 < 3.10, v20.1.0 < v20.11.0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.replace(/^v/, '').split(/[.-]/);
  const pb = b.replace(/^v/, '').split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    const nx = Number(x);
    const ny = Number(y);
    const c = Number.isFinite(nx) && Number.isFinite(ny) && x !== '' && y !== '' ? nx - ny : x.localeCompare(y);
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * The installed version a wanted one names: itself, else the newest whose name starts with it and
 * a dot (`20` → `20.11.1`, `3.12` → `3.12.1`); `latest` is the newest of all.
 */
export function pickVersion(installed: string[], wanted: string): string | null {
  const w = wanted.trim();
  if (!w) return null;
  if (installed.includes(w)) return w;
  const bare = w.replace(/^v/, '');
  const exact = installed.find((v) => v.replace(/^v/, '') === bare);
  if (exact) return exact;
  const pool = w === 'latest' ? installed : installed.filter((v) => v.replace(/^v/, '').startsWith(`${bare}.`));
  return [...pool].sort(compareVersions).pop() ?? null;
}

/** The versions a `.tool-versions` file gives a tool, in order of preference. */
export function toolVersionsEntry(file: string | null, tool: string): string[] | null {
  const text = file ? readText(file) : null;
  if (!text) return null;
  for (const raw of text.split('\n')) {
    const [name, ...versions] = raw.replace(/#.*/, '').trim().split(/\s+/);
    if (name === tool && versions.length > 0) return versions;
  }
  return null;
}

/** The program `name` of a tool's installed version, from `<installs>/<version>/bin`. */
export function installed(installs: string, wanted: string[], name: string): string | null {
  const versions = listDirs(installs);
  for (const w of wanted) {
    const v = pickVersion(versions, w);
    const f = v && path.join(installs, v, 'bin', name);
    if (f && isExecutable(f)) return f;
  }
  return null;
}
