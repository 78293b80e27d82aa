/**
 * The line `serve`, `chat`, `call`, `check` and `mcp` print on stderr at start when Plugboard runs as
 * root (at a terminal; always when plugins would run unsandboxed): what that means for plugins here (host/process/root.ts words it), so nobody runs plugins
 * as root without being told.
 */
import { rootNotice, runningAsRoot, sandboxSupport } from '../plugins';
import type { Out } from './io';

export function sayIfRoot(argv: readonly string[], out: Out): void {
  // `mcp --print-config` prints a snippet and runs nothing.
  if (!runningAsRoot() || argv.includes('--print-config')) return;
  const support = sandboxSupport();
  // `--no-sandbox` runs a plugin named by its path unsandboxed.
  const sandboxed = support.available && !argv.includes('--no-sandbox');
  // Unsandboxed as root is a danger, said always; sandboxed as nobody is information for a person
  // at a terminal, kept out of what scripts read from stderr (the failure is its first line there).
  if (sandboxed && !process.stderr.isTTY) return;
  const notice = rootNotice(sandboxed, support.available ? support.root : null);
  if (notice) out.stderr(`plugboard: ${notice}\n`);
}
