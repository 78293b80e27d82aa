/**
 * The audit log: one JSON line per install, upgrade, uninstall, enable, disable, expose,
 * unexpose, grant, revoke and configure, refused or failed ones included. Append-only.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export type AuditAction =
  | 'install'
  | 'upgrade'
  | 'uninstall'
  | 'enable'
  | 'disable'
  | 'expose'
  | 'unexpose'
  | 'grant'
  | 'revoke'
  | 'configure';

export interface AuditEntry {
  at: string;
  action: AuditAction;
  plugin: string;
  ok: boolean;
  /** What changed, or why it was refused. */
  detail: string;
  tool?: string;
  capabilities?: string[];
  source?: string;
}

export class AuditLog {
  constructor(private readonly file: string) {}

  append(entry: Omit<AuditEntry, 'at'>): void {
    mkdirSync(path.dirname(this.file), { recursive: true });
    appendFileSync(this.file, `${JSON.stringify({ at: new Date().toISOString(), ...entry })}\n`);
  }
}
