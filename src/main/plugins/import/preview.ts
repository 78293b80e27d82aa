/**
 * What a person is shown before importing a server from another app's config: a plugin id, the
 * command, the environment variable NAMES (a value only for a variable that changes what runs,
 * LD_PRELOAD, NODE_OPTIONS, PATH…, flagged) with the ones that look like secrets flagged, and for remote servers the url and header names. Also the translation of the
 * placeholders those apps know (`${input:id}`, `${env:NAME}`, `${userHome}`, `${workspaceFolder}`)
 * into Plugboard's own (`${user_config.KEY}`, `${HOME}`).
 */
import path from 'node:path';
import { RESERVED_IDS, toId } from '../manifests';
import type { ImportedInput, ImportedServer, SourceApp } from './formats';
import type { ImportServerView } from '../../../shared/imports';
import { guessSecret, secretByValue } from './secrets';
import { findPaths } from '../grants/paths';
import { copyOffer, scriptFolders } from './folders';
import { changesWhatRuns } from '../../../shared/run-env';

// The shapes the screen gets (src/shared/imports.ts) are the preview's own.
export type ServerPreview = ImportServerView;
export type EnvPreview = ImportServerView['env'][number];

export const APP_NAMES: Record<SourceApp, string> = {
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  'claude-code': 'Claude Code',
  vscode: 'VS Code',
  'cherry-studio': 'Cherry Studio',
  '5ire': '5ire',
  'mcp-config': 'an MCP config file',
  'mcp-registry': 'the MCP registry',
};

/** Placeholders of other apps in one value, translated; what could not be is named. */
export interface Translated {
  text: string;
  /** Settings the value needs: `${input:id}` and `${env:NAME}` become `${user_config.KEY}`. */
  asks: Array<{ key: string; description: string; password: boolean; env?: string }>;
  unknown: string[];
}

export function translate(text: string, file: string, inputs: ImportedInput[]): Translated {
  const asks: Translated['asks'] = [];
  const unknown: string[] = [];
  const workspace = path.basename(path.dirname(file)) === '.vscode' ? path.dirname(path.dirname(file)) : null;
  const out = text.replace(/\$\{([^}]+)\}/g, (all, name: string) => {
    if (name === 'userHome') return '${HOME}';
    if (name === 'pathSeparator' || name === '/') return all;
    if ((name === 'workspaceFolder' || name === 'workspaceRoot') && workspace) return workspace;
    const input = /^input:(.+)$/.exec(name);
    if (input) {
      const def = inputs.find((i) => i.id === input[1]);
      const key = settingKey(input[1] as string);
      asks.push({
        key,
        description: def?.description ?? `asked by VS Code as ${input[1]}`,
        password: def?.password ?? false,
      });
      return `\${user_config.${key}}`;
    }
    const env = /^env:(.+)$/.exec(name);
    if (env) {
      const key = settingKey(env[1] as string);
      asks.push({
        key,
        description: `read by the other app from the environment variable ${env[1]}`,
        password: false,
        env: env[1] as string,
      });
      return `\${user_config.${key}}`;
    }
    unknown.push(all);
    return all;
  });
  return { text: out, asks, unknown };
}

/** A setting key from an input id or variable name: letters, digits and underscores. */
export function settingKey(name: string): string {
  return name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^(\d)/, '_$1');
}

export function previewServers(
  file: string,
  servers: ImportedServer[],
  inputs: ImportedInput[],
  installed: (id: string) => boolean = () => false,
): ServerPreview[] {
  const taken = new Set<string>();
  return servers.map((s) => {
    // An id an installed plugin has is never taken over: the server gets the next free one.
    const base = toId(s.name);
    let id = base;
    for (let n = 2; taken.has(id) || installed(id) || RESERVED_IDS.has(id); n++) id = `${base.slice(0, 60)}-${n}`;
    taken.add(id);
    const warnings: string[] = [];
    const env: EnvPreview[] = Object.entries(s.env).map(([name, value]) => {
      const t = translate(value, file, inputs);
      if (t.asks.length > 0) {
        const password = t.asks.some((a) => a.password);
        const g = guessSecret(name, undefined);
        return {
          name,
          secret: password || g.secret,
          ...(password ? { reason: 'VS Code asks for it as a password' } : g.reason ? { reason: g.reason } : {}),
          source: 'asked',
        };
      }
      // What changes what runs is shown with its value (a secret's stays hidden): it decides the
      // command. Its name alone does not make it a secret (GIT_CONFIG_KEY_0 names a setting).
      const why = changesWhatRuns(name);
      const g = why ? secretByValue(value) : guessSecret(name, value);
      return {
        name,
        secret: g.secret,
        ...(g.reason ? { reason: g.reason } : {}),
        source: 'value',
        ...(why && !g.secret ? { runs: { value, why } } : {}),
      };
    });
    for (const [i, a] of s.args.entries()) {
      const g = secretByValue(a.replace(/^--?[\w-]+=/, ''));
      if (g.secret)
        warnings.push(
          `args[${i}] looks like a secret (${g.reason}): arguments show in the process list; prefer an environment variable`,
        );
    }
    for (const v of [...s.args, ...Object.values(s.env)]) {
      for (const u of translate(v, file, inputs).unknown)
        warnings.push(`${u} is a placeholder Plugboard does not know; edit it after the import`);
    }
    for (const f of s.ignored)
      warnings.push(`"${f}" is not imported; set what it provides as settings after the import`);
    const p: ServerPreview = {
      key: s.key,
      name: s.name,
      id,
      transport: s.transport,
      args: s.args,
      env,
      headers: Object.entries(s.headers).map(([name, value]) => {
        const g = /^(authorization|x-api-key|api-key|cookie)$/i.test(name)
          ? { secret: true, reason: `${name} carries credentials` }
          : guessSecret(name, value);
        return { name, secret: g.secret, ...(g.reason ? { reason: g.reason } : {}) };
      }),
      disabled: s.disabled,
      runnable: s.transport === 'stdio' || s.transport === 'http',
      warnings,
      paths: s.command ? importedPaths(s, file, inputs) : [],
      line: s.at.line,
    };
    if (id !== base && installed(base)) p.idTaken = base;
    const copy = s.command ? copyOffer(commandWords(s, file, inputs)) : null;
    if (copy) p.copy = copy;
    if (s.description) p.description = s.description;
    if (s.command) p.command = s.command;
    if (s.url) p.url = s.url;
    if (s.transport === 'sse') {
      p.problem = `this server speaks the older HTTP+SSE transport at ${s.url}, which Plugboard does not (it reaches remote servers over Streamable HTTP); a stdio bridge such as "npx -y mcp-remote ${s.url}" can stand in for it`;
    } else if (s.transport === 'in-memory') {
      p.problem = 'a server built into Cherry Studio: it exists only inside that app';
    }
    return p;
  });
}

/** The paths a server's command and environment name, placeholders translated as the import writes them. */
function commandWords(s: ImportedServer, file: string, inputs: ImportedInput[]): string[] {
  return [s.command as string, ...s.args].map((w) => translate(w, file, inputs).text);
}

function importedPaths(s: ImportedServer, file: string, inputs: ImportedInput[]): ServerPreview['paths'] {
  const words = commandWords(s, file, inputs);
  const env = Object.fromEntries(Object.entries(s.env).map(([k, v]) => [k, translate(v, file, inputs).text]));
  // The server's own files (`node /abs/server.js`) are its folder setting (folders.ts), not a grant.
  const own = scriptFolders(words);
  return findPaths(words, env).filter((g) => !own.some((f) => g.path === f || g.path.startsWith(`${f}/`)));
}

/** A config file read whole. */
export interface ImportedConfig {
  ok: true;
  file: string;
  app: SourceApp;
  /** The app's name, for the screen. */
  appName: string;
  previews: ServerPreview[];
  /** The servers with their values: for writing a plugin, not for showing. */
  servers: ImportedServer[];
  inputs: ImportedInput[];
}
