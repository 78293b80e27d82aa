// @ts-check
/**
 * better-sqlite3 for Electron's main process in a checkout (`npm start`). npm builds the module
 * for Node, which the CLI, `plugboard serve` and the tests need; Electron needs a build for its
 * own ABI. Rebuilding node_modules in place would break the Node side, so a copy of the module's
 * sources is built with @electron/rebuild in a folder of its own, once per Electron and
 * better-sqlite3 version, and the app is given its path (PLUGBOARD_SQLITE_BINDING, read by
 * src/main/assistant/store/native.ts). The packaged app does not use this: electron-builder
 * rebuilds its copy of node_modules for Electron (npmRebuild in electron-builder.yml).
 *
 * Not run on the machines this project is built on: they cannot download Electron, nor the
 * Electron headers @electron/rebuild compiles against. There it stops at the headers' download.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** @param {string} file @returns {string} */
function versionOf(file) {
  return /** @type {{ version: string }} */ (JSON.parse(readFileSync(file, 'utf8'))).version;
}

/**
 * Builds (or finds, when built before) better-sqlite3 for the Electron in `root`/node_modules.
 * @param {string} root the repository
 * @returns {Promise<string>} the path of the Electron build's .node file
 */
export async function electronSqlite(root) {
  const electronVersion = versionOf(path.join(root, 'node_modules', 'electron', 'package.json'));
  const source = path.join(root, 'node_modules', 'better-sqlite3');
  const version = versionOf(path.join(source, 'package.json'));
  const stage = path.join(
    root,
    'node_modules',
    '.cache',
    'plugboard-electron-sqlite',
    `electron-${electronVersion}-better-sqlite3-${version}`,
  );
  const binary = path.join(stage, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(binary)) return binary;

  console.log(`Building better-sqlite3 ${version} for Electron ${electronVersion} (first run; a few minutes)…`);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(path.join(stage, 'node_modules'), { recursive: true });
  // The sources only: the Node build in build/ is what the copy must not end up with.
  const built = path.join(source, 'build');
  cpSync(source, path.join(stage, 'node_modules', 'better-sqlite3'), {
    recursive: true,
    filter: (f) => f !== built && !f.startsWith(built + path.sep),
  });
  writeFileSync(
    path.join(stage, 'package.json'),
    JSON.stringify({ name: 'plugboard-electron-sqlite', private: true, dependencies: { 'better-sqlite3': version } }),
  );
  // Under `npm start`, npm passes its config on as npm_config_* variables; a nodedir there (this
  // project's machines set one for Node's headers) would make node-gyp build against Node's
  // headers instead of Electron's, and Electron would refuse the result.
  delete process.env.npm_config_nodedir;
  delete process.env.NPM_CONFIG_NODEDIR;
  const { rebuild } = await import('@electron/rebuild');
  await rebuild({ buildPath: stage, electronVersion, onlyModules: ['better-sqlite3'], force: true });
  if (!existsSync(binary)) throw new Error(`the rebuild finished without ${binary}`);
  return binary;
}
