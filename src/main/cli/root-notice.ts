/**
 * The line `serve`, `chat`, `call`, `check` and `mcp` print on stderr at start when Plugboard runs as
 * root: what that means for plugins here (host/process/root.ts words it), so nobody runs plugins
 * as root without being told.
 */
import { rootNotice, runningAsRoot, sandboxSupport } from '../plugins';
import type { Out } from './io';

export function sayIfRoot(argv: readonly string[], out: Out): void {
  if (!runningAsRoot()) return;
  const support = sandboxSupport();
  // `--no-sandbox` runs a plugin named by its path unsandboxed.
  const sandboxed = support.available && !argv.includes('--no-sandbox');
  const notice = rootNotice(sandboxed, support.available ? support.root : null);
  if (notice) out.stderr(`plugboard: ${notice}\n`);
}
