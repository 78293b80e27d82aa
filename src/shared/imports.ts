/**
 * Importing MCP servers from another app's config file (Claude Desktop, Cursor, VS Code, Cherry
 * Studio, 5ire), as the screen sees it: each server with its command and the NAMES of its
 * environment variables and headers, the ones that look secret flagged; a value is shown only
 * for a variable that changes what runs (run-env.ts), which is flagged too.
 */
import type { Failure } from './failures';
import type { PathGrantView } from './views';

export interface ImportServerView {
  /** The server's key in the file: what `import.commit` names. */
  key: string;
  name: string;
  /** The plugin id it would get. */
  id: string;
  /** Set when the id its name makes is taken by an installed or bundled plugin: `id` is another. */
  idTaken?: string;
  description?: string;
  transport: 'stdio' | 'http' | 'sse' | 'in-memory';
  command?: string;
  args: string[];
  env: Array<{
    name: string;
    secret: boolean;
    reason?: string;
    source: 'value' | 'asked';
    /** A variable that changes what runs (LD_PRELOAD, NODE_OPTIONS, PATH…): its value, shown, and why. */
    runs?: { value: string; why: string };
  }>;
  url?: string;
  headers: Array<{ name: string; secret: boolean; reason?: string }>;
  /** Switched off in the app it comes from: not chosen to start with. */
  disabled: boolean;
  /** It can become a plugin here; when not, `problem` says why. */
  runnable: boolean;
  problem?: string;
  warnings: string[];
  /** Folders and files named in its arguments and environment, offered as grants. */
  paths: PathGrantView[];
  /**
   * A server run from the person's own folder (`node /abs/project/dist/index.js`): whether it can
   * be copied into Plugboard to run from there (`import.commit`'s `copy`), and why not.
   */
  copy?: { folder: string; offered: boolean; why?: string };
  /** Where it is in the file (0: not in a file, a catalog entry). */
  line: number;
}

export interface ImportPreviewView {
  /** The file's name, and the app it comes from in words. */
  file: string;
  appName: string;
  /** The format it was read as: claude-desktop, cursor, claude-code, vscode, cherry-studio, 5ire, mcp-config, mcp-registry. */
  app: string;
  servers: ImportServerView[];
}

/** What became of one chosen server. */
export type ImportResultView = { key: string; name: string } & ({ ok: true; id: string; detail: string } | Failure);
