/**
 * Where a plugin lives and keeps its state, from the variables Plugboard sets (PLUGBOARD_*),
 * with fallbacks for a plugin started some other way (`plugboard call <folder>`, a test, by hand).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLog } from './log.js';

export interface PluginEnvironment {
  /** PLUGBOARD_PLUGIN_ID, else the folder's name. */
  id: string;
  /** PLUGBOARD_PLUGIN_DIR, else the folder given. */
  pluginDir: string;
  /** PLUGBOARD_DATA_DIR, else `<plugin dir>/.data`; created if missing. */
  dataDir: string;
  /** PLUGBOARD_NODE_MODULES: the app's node_modules, for native modules such as node-pty. */
  nodeModules: string | undefined;
}

/**
 * @param here the plugin's folder, or its entry module's `import.meta.url`
 */
export function pluginEnvironment(here: string, env: NodeJS.ProcessEnv = process.env): PluginEnvironment {
  const fallbackDir = here.startsWith('file:') ? path.dirname(fileURLToPath(here)) : path.resolve(here);
  const pluginDir = env.PLUGBOARD_PLUGIN_DIR || fallbackDir;
  const id = env.PLUGBOARD_PLUGIN_ID || path.basename(pluginDir);
  let dataDir = env.PLUGBOARD_DATA_DIR;
  if (!dataDir) {
    dataDir = path.join(pluginDir, '.data');
    writeLog(id, `PLUGBOARD_DATA_DIR is not set; keeping this plugin's data in ${dataDir}`, 'warning');
  }
  mkdirSync(dataDir, { recursive: true });
  return { id, pluginDir, dataDir, nodeModules: env.PLUGBOARD_NODE_MODULES || undefined };
}
