// node-pty, loaded on first use so that a plugin without it still starts, shakes hands and says
// clearly what is missing. Plugins run with plain `node` from their own folder: the import finds
// node-pty in a checkout; an installed app points PLUGBOARD_NODE_MODULES at its own copy.
import { createRequire } from 'node:module';
import path from 'node:path';
import { PluginError } from '../../sdk/node/dist/index.js';

let loaded = null;

export async function loadPty() {
  if (loaded) return loaded;
  const tried = [];
  try {
    const mod = await import('node-pty');
    loaded = typeof mod.spawn === 'function' ? mod : mod.default;
    return loaded;
  } catch (e) {
    tried.push(`import('node-pty'): ${e.message}`);
  }
  const nodeModules = process.env.PLUGBOARD_NODE_MODULES;
  if (nodeModules) {
    try {
      loaded = createRequire(import.meta.url)(path.join(nodeModules, 'node-pty'));
      return loaded;
    } catch (e) {
      tried.push(`${path.join(nodeModules, 'node-pty')}: ${e.message}`);
    }
  } else {
    tried.push('PLUGBOARD_NODE_MODULES is not set, so the app’s copy could not be tried');
  }
  throw new PluginError(`The terminal needs node-pty, which could not be loaded:\n- ${tried.join('\n- ')}`);
}
