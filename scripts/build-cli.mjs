#!/usr/bin/env node
// Builds the `plugboard` command (src/main/cli/main.ts) into out/cli with esbuild, so that a call
// starts in plain Node instead of compiling the TypeScript sources first (tsx took ~1.7 s of CPU
// for `plugboard --help`). `npm install` (postinstall), `npm run build` and `npm test` run it;
// bin/plugboard.mjs runs it again whenever a source changed since (see cliBuildState).
//
// Layout: out/cli/<build id>/main.js and its chunks, and out/cli/build.json naming the current
// build and every file it was made from, with the file's mtime. Each build writes a folder of its
// own and then replaces build.json in one rename, so a command starting while another rebuilds
// never loads half-written files.
//
// Every package stays external (imported from node_modules at run time, as under tsx): native or
// run-time-resolved files (sql.js finds its .wasm with require.resolve) keep working, and a new
// dependency needs no change here.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = 'src/main/cli/main.ts';
/** Read by the build besides the sources esbuild reports: a change to one changes the output. */
const CONFIG = ['scripts/build-cli.mjs', 'tsconfig.node.json', 'tsconfig.base.json'];
/** An old build folder is removed once it is neither current nor just replaced, and this old (a concurrent build may still be writing a newer one). */
const KEEP_MS = 60_000;

const outDir = (root) => path.join(root, 'out', 'cli');
const stateFile = (root) => path.join(outDir(root), 'build.json');

/**
 * The built CLI's entry file when it is up to date with every file it was built from, else why
 * not (`stale`). Runs on every `plugboard` call: one small JSON read and a stat per source file.
 */
export function cliBuildState(root = ROOT) {
  let state;
  try {
    state = JSON.parse(readFileSync(stateFile(root), 'utf8'));
  } catch {
    return { stale: 'the CLI is not built yet' };
  }
  for (const [file, mtimeMs] of Object.entries(state.inputs)) {
    let now;
    try {
      now = statSync(path.join(root, file)).mtimeMs;
    } catch {
      return { stale: `${file} is gone since the CLI was built` };
    }
    if (now !== mtimeMs) return { stale: `${file} changed since the CLI was built` };
  }
  return { entry: path.join(outDir(root), state.entry) };
}

/** Builds the CLI into a fresh folder under out/cli and makes it the current build. */
export async function buildCli(root = ROOT) {
  const { build } = await import('esbuild');
  const started = Date.now();
  const id = `${started.toString(36)}-${process.pid}`;
  const dir = path.join(outDir(root), id);
  mkdirSync(dir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: ENTRY },
    outdir: dir,
    bundle: true,
    // ESM with splitting: each command (imported on demand by main.ts) becomes its own chunk, so
    // `plugboard --help` loads main.js and nothing else.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    tsconfig: path.join(root, 'tsconfig.node.json'),
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = {};
  for (const file of [...Object.keys(result.metafile.inputs), ...CONFIG]) {
    const mtimeMs = statSync(path.join(root, file)).mtimeMs;
    // Edited while esbuild was reading it: the output may hold the old text, so the next call rebuilds.
    inputs[file] = mtimeMs >= started ? -1 : mtimeMs;
  }
  const previous = currentId(root);
  const tmp = `${stateFile(root)}.${id}`;
  writeFileSync(
    tmp,
    JSON.stringify({ entry: `${id}/main.js`, builtAt: new Date(started).toISOString(), inputs }, null, 1),
  );
  renameSync(tmp, stateFile(root));
  removeOldBuilds(root, [id, previous]);
  return {
    entry: path.join(dir, 'main.js'),
    files: Object.keys(result.metafile.outputs).length,
    ms: Date.now() - started,
  };
}

/** The folder of the build that build.json names, if any. */
function currentId(root) {
  try {
    return path.dirname(JSON.parse(readFileSync(stateFile(root), 'utf8')).entry);
  } catch {
    return undefined;
  }
}

/** Old build folders, and temp files of builds that died before their rename. */
function removeOldBuilds(root, keep) {
  for (const name of readdirSync(outDir(root))) {
    if (name === 'build.json' || keep.includes(name)) continue;
    const p = path.join(outDir(root), name);
    const mtimeMs = statSync(p, { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs !== undefined && Date.now() - mtimeMs > KEEP_MS) rmSync(p, { recursive: true, force: true });
  }
}

/** esbuild's first error, with its place, on one line. */
export function describeBuildError(e) {
  const first = e?.errors?.[0];
  if (!first) return e instanceof Error ? e.message : String(e);
  const at = first.location ? `${first.location.file}:${first.location.line}:${first.location.column}: ` : '';
  return `${at}${first.text}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const r = await buildCli();
    console.log(
      `plugboard: built the CLI into ${path.relative(ROOT, path.dirname(r.entry))} (${r.files} files, ${r.ms} ms)`,
    );
  } catch (e) {
    console.error(`plugboard: building the CLI failed: ${describeBuildError(e)}`);
    process.exit(1);
  }
}
