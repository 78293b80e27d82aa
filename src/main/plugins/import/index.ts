/**
 * Importing MCP servers people already have in other apps' configs (Claude Desktop, Cursor,
 * Claude Code, VS Code, Cherry Studio, 5ire): read the file, preview each server, write a plugin
 * folder for the ones chosen. Installing that folder is the registry's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { failure, type Failure } from '../../../shared/failures';
import { readServers } from './formats';
import { parseJsonc } from './jsonc';
import { APP_NAMES, previewServers, type ImportedConfig } from './preview';

export type { EnvPreview, ServerPreview } from './preview';
export type { ImportedInput, ImportedServer, SourceApp } from './formats';
export { APP_NAMES, previewServers } from './preview';
export { writeImportedPlugin, type WriteOptions, type WrittenPlugin } from './write';

export type { ImportedConfig } from './preview';

/** Reads a config file; a malformed one is refused with the line, column and field at fault. */
export function readMcpConfig(
  file: string,
  text?: string,
  installed: (id: string) => boolean = () => false,
): ImportedConfig | Failure {
  let body: string;
  try {
    body = text ?? readFileSync(file, 'utf8');
  } catch (e) {
    return failure('io_error', `could not read ${file}: ${(e as Error).message}`);
  }
  const name = path.basename(file);
  const parsed = parseJsonc(body);
  if (!parsed.ok) {
    return failure('invalid_input', `${name} line ${parsed.at.line}, column ${parsed.at.column}: ${parsed.message}`, {
      data: { file, ...parsed.at },
    });
  }
  const r = readServers(file, parsed.doc);
  if (!r.ok) {
    return failure('invalid_input', `${name} line ${r.at.line}: ${r.field}: ${r.message}`, {
      data: { file, ...r.at, field: r.field },
    });
  }
  return {
    ok: true,
    file,
    app: r.app,
    appName: APP_NAMES[r.app],
    previews: previewServers(file, r.servers, r.inputs, installed),
    servers: r.servers,
    inputs: r.inputs,
  };
}
export { chooseServers, installImported, type ImportChoice, type ImportedOne } from './install';
