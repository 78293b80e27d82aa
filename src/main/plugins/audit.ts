/**
 * The audit log: one JSON line per install, upgrade, uninstall, enable, disable, expose,
 * unexpose, grant, revoke and configure, refused or failed ones included, and per call a model or
 * another app (through MCP) made, with who allowed it. Append-only.
 */
import { closeSync, mkdirSync, openSync, statSync, truncateSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { FolderGrant } from '../../shared/capabilities';
import type { Done, Failure } from '../../shared/failures';

export type AuditAction =
  | 'install'
  | 'upgrade'
  /** The version an upgrade replaced, put back (install/previous.ts). */
  | 'rollback'
  | 'uninstall'
  | 'enable'
  | 'disable'
  | 'expose'
  | 'unexpose'
  | 'grant'
  | 'revoke'
  | 'configure'
  | 'tool-policy'
  | 'approval-default'
  | 'model-call'
  /** An MCP server's form answered or refused (field names only). */
  | 'elicitation'
  /** An MCP server's request for a model's reply, allowed or denied (sizes only). */
  | 'sampling'
  /** A sign-in to a remote MCP server (OAuth), by the issuer's name; never a token. */
  | 'sign-in'
  | 'sign-out'
  /** A tool's changed definition accepted by the person (its policy and exposure apply to it again). */
  | 'definition'
  /** An MCP App's page shown (its resource and the origins its policy allows). */
  | 'app-open'
  /** A tool call an MCP App asked for, and who decided (argument names only). */
  | 'app-call'
  /** Another app's call through Plugboard's MCP server (`plugboard mcp`, `/mcp`): who decided, and for which client. */
  | 'mcp-call';

export interface AuditEntry {
  at: string;
  action: AuditAction;
  plugin: string;
  ok: boolean;
  /** What changed, or why it was refused. */
  detail: string;
  tool?: string;
  capabilities?: string[];
  /** Folders and files granted or revoked by path. */
  folders?: FolderGrant[];
  source?: string;
  /** The app that made an `mcp-call`, by the name and version it gave (its MCP `clientInfo`), and how it came. */
  client?: string;
}

/** What an entry may add besides its action, plugin and outcome. */
export type AuditExtra = Pick<AuditEntry, 'tool' | 'capabilities' | 'folders' | 'source'>;

export class AuditLog {
  /**
   * The log, open for appending from the first entry until dispose: every model call is audited
   * on the path of its round trip, and one write to an open descriptor costs a tenth of opening,
   * writing and closing the file each time. O_APPEND: each line lands at the end, whoever else
   * appends (the CLI beside the app) or cut the file back (appendUndoable).
   */
  private fd: number | undefined;

  constructor(private readonly file: string) {}

  append(entry: Omit<AuditEntry, 'at'>): void {
    if (this.fd === undefined) {
      mkdirSync(path.dirname(this.file), { recursive: true });
      // 0600 when it is made: it names every plugin and setting changed (permissions.ts).
      this.fd = openSync(this.file, 'a', 0o600);
    }
    writeSync(this.fd, `${JSON.stringify({ at: new Date().toISOString(), ...entry })}\n`);
  }

  /** Closes the log; a later entry opens it again. */
  dispose(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /**
   * Appends an entry and returns how to take it back (the log cut back to its length before),
   * for a change that must not be audited unless it is made (StateStore.update's `alongside`).
   */
  appendUndoable(entry: Omit<AuditEntry, 'at'>): () => void {
    let size = 0;
    try {
      size = statSync(this.file).size;
    } catch {
      // not made yet: cut back to nothing
    }
    this.append(entry);
    return () => truncateSync(this.file, size);
  }

  /** Records a change that was made, and answers with it. */
  done(action: AuditAction, plugin: string, detail: string, extra: AuditExtra = {}): Done {
    this.append({ action, plugin, ok: true, detail, ...defined(extra) });
    return { ok: true, detail };
  }

  /** Records a refusal (its message, never a secret), and answers with the failure. */
  refused(action: AuditAction, plugin: string, why: Failure, extra: AuditExtra = {}): Failure {
    this.append({ action, plugin, ok: false, detail: why.message, ...defined(extra) });
    return why;
  }
}

function defined(extra: AuditExtra): AuditExtra {
  const out: AuditExtra = {};
  if (extra.tool) out.tool = extra.tool;
  if (extra.capabilities) out.capabilities = extra.capabilities;
  if (extra.source) out.source = path.resolve(extra.source);
  return out;
}
