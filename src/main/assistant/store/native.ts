/**
 * better-sqlite3 is a native module, and a native module is built for one runtime's ABI: the one
 * npm built at install is for Node (the CLI, `plugboard serve`, the tests), while Electron's main
 * process needs a build for Electron's ABI. The two live side by side:
 *  - under Node, better-sqlite3 loads its own build from node_modules;
 *  - under `npm start` (Electron in a checkout), scripts/electron-sqlite.mjs builds a copy for
 *    Electron in a separate folder and passes its path in PLUGBOARD_SQLITE_BINDING, given to
 *    better-sqlite3 as `nativeBinding`;
 *  - in the packaged app, electron-builder rebuilds node_modules for Electron (npmRebuild) and
 *    unpacks the module from the asar, so the default lookup finds the Electron build.
 * Verified here: the Node build, and loading a build from a separate path through `nativeBinding`.
 * Not verified here (no Electron binary can be downloaded): the Electron build and its loading.
 */
import Database from 'better-sqlite3';

export interface Runtime {
  versions: Partial<Record<string, string>>;
  env: Partial<Record<string, string>>;
}

/** better-sqlite3's options for the runtime this process is (Node, or Electron's main process). */
export function nativeOptions(rt: Runtime = { versions: process.versions, env: process.env }): Database.Options {
  const binding = rt.env.PLUGBOARD_SQLITE_BINDING;
  return rt.versions.electron && binding ? { nativeBinding: binding } : {};
}

/** Opens a connection, saying what to do when the native module cannot be loaded here. */
export function connect(file: string, options: Database.Options = {}): Database.Database {
  try {
    return new Database(file, { ...nativeOptions(), ...options });
  } catch (e) {
    const m = (e as Error).message;
    if ((e as { code?: unknown }).code !== 'ERR_DLOPEN_FAILED' && !/NODE_MODULE_VERSION/.test(m)) throw e;
    const runtime = process.versions.electron ? `Electron ${process.versions.electron}` : `Node ${process.version}`;
    throw new Error(
      `better-sqlite3's native module cannot be loaded by this ${runtime}: it was built for another runtime or machine, or is damaged (${m.split('\n')[0]}). ` +
        (process.versions.electron
          ? 'Start the app with `npm start`, which builds it for Electron, or set PLUGBOARD_SQLITE_BINDING to an Electron build.'
          : 'Run `npm rebuild better-sqlite3` (packaging rebuilds it for Electron in place).'),
    );
  }
}
