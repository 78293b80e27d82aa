/**
 * Writes the plugin folder of one imported server: a `plugboard.json` with protocol `mcp` and the
 * command as the other app ran it. Environment variables the person keeps secret become settings
 * marked `sensitive` that reach the server as that variable; their values are handed back, never
 * written, so the registry can put them in the secret store. The others stay plain `env`.
 */
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { failure, type Failure } from '../../../shared/failures';
import { isInside } from '../../fs';
import { describeManifestErrors, loadManifest } from '../manifests';
import { copyOffer, scriptFolders } from './folders';
import { APP_NAMES, settingKey, translate, type ImportedConfig, type Translated } from './preview';

export interface WriteOptions {
  /**
   * Names of the environment variables to keep as secrets. Default: the ones the preview flags.
   * Variables whose value the other app asks for at start (`${input:…}`) are settings either way.
   */
  secret?: string[];
  /** The plugin id, when the person changes the suggested one. */
  id?: string;
  /**
   * Copy the server's own folder into the plugin (`server/`) and run it from there, where the
   * preview offers it (folders.ts copyOffer), instead of showing the person's folder to it.
   */
  copy?: boolean;
}

/** Where a copied server's folder goes in its plugin. */
const COPIED = 'server';

export interface WrittenPlugin {
  ok: true;
  dir: string;
  manifestPath: string;
  id: string;
  /** Values of the secret settings, by setting key: for the secret store, not for any file. */
  secrets: Record<string, string>;
  /**
   * The server folders, set as the plugin's settings at install: importing the server is the
   * person's choice of them (a folder that is only a default is not shown in the sandbox).
   */
  folders: Record<string, string>;
}

interface SettingOut {
  type: 'string' | 'directory';
  title: string;
  description: string;
  required: boolean;
  sensitive: boolean;
  env?: string;
  default?: string;
}

export function writeImportedPlugin(
  config: ImportedConfig,
  key: string,
  dest: string,
  opts: WriteOptions = {},
): WrittenPlugin | Failure {
  const server = config.servers.find((s) => s.key === key);
  const preview = config.previews.find((p) => p.key === key);
  if (!server || !preview)
    return failure(
      'not_found',
      `${path.basename(config.file)} has no server "${key}" (it has: ${config.servers.map((s) => s.key).join(', ')})`,
    );
  if (!preview.runnable || !(server.command || server.url))
    return failure('invalid_input', `${preview.name} cannot be imported: ${preview.problem ?? 'it has no command'}`);
  const id = opts.id ?? preview.id;
  const secretNames = new Set(opts.secret ?? preview.env.filter((e) => e.secret).map((e) => e.name));
  const env: Record<string, string> = {};
  const settings: Record<string, SettingOut> = {};
  const secrets: Record<string, string> = {};
  const ask = (t: Translated, secret: boolean): void => {
    for (const a of t.asks) {
      settings[a.key] ??= {
        type: 'string',
        title: a.key,
        description: a.description,
        required: true,
        sensitive: secret || a.password,
      };
    }
  };

  const command: string[] = [];
  for (const word of server.command ? [server.command, ...server.args] : []) {
    const t = translate(word, config.file, config.inputs);
    ask(t, false);
    command.push(t.text);
  }
  for (const [name, value] of Object.entries(server.env)) {
    const t = translate(value, config.file, config.inputs);
    const secret = secretNames.has(name);
    if (t.asks.length === 1 && t.text === `\${user_config.${t.asks[0]?.key}}`) {
      // The whole value is asked for: the setting itself carries the variable.
      const a = t.asks[0] as Translated['asks'][number];
      settings[a.key] = {
        type: 'string',
        title: name,
        description: a.description,
        required: true,
        sensitive: secret || a.password,
        env: name,
      };
    } else if (secret && t.asks.length === 0) {
      const k = settingKey(name);
      settings[k] = {
        type: 'string',
        title: name,
        description: `kept in the secret store; imported from ${APP_NAMES[config.app]}`,
        required: true,
        sensitive: true,
        env: name,
      };
      secrets[k] = value;
    } else {
      ask(t, secret);
      env[name] = t.text;
    }
  }

  // A remote server's headers: a secret one (Authorization, say) becomes a sensitive setting that
  // the header names, so the token lives in the secret store and reaches only that server.
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(server.headers)) {
    const t = translate(value, config.file, config.inputs);
    const flagged = preview.headers.find((h) => h.name === name)?.secret ?? false;
    const secret = opts.secret ? opts.secret.includes(name) : flagged;
    if (secret && t.asks.length === 0) {
      const k = settingKey(name.toLowerCase());
      // `Bearer abc…`: the scheme stays in the header, the token goes to the secret store.
      const scheme = /^(Bearer|Basic|Token)\s+/i.exec(value);
      settings[k] = {
        type: 'string',
        title: name,
        description: `sent in the ${name} header; kept in the secret store; imported from ${APP_NAMES[config.app]}`,
        required: true,
        sensitive: true,
      };
      secrets[k] = scheme ? value.slice(scheme[0].length) : value;
      headers[name] = `${scheme ? scheme[0] : ''}\${user_config.${k}}`;
    } else {
      ask(t, secret);
      headers[name] = t.text;
    }
  }

  // The server's own files: copied into the plugin where asked (and offered), else shown
  // read-only in its sandbox (see folders.ts).
  const offer = opts.copy ? copyOffer(command) : null;
  if (opts.copy && !offer?.offered)
    return failure(
      'invalid_input',
      `${preview.name} cannot be copied into Plugboard: ${offer && !offer.offered ? offer.why : 'it runs nothing from a folder of yours'}`,
    );
  const copyFrom = offer?.folder;
  if (copyFrom !== undefined) {
    for (const [i, word] of command.entries()) command[i] = intoCopy(word, copyFrom);
    // A variable naming a file of the folder (a config beside the server) names it in the copy.
    for (const [name, value] of Object.entries(env)) env[name] = intoCopy(value, copyFrom);
  }
  const folders = copyFrom !== undefined ? [] : scriptFolders(command);
  const folderValues: Record<string, string> = {};
  for (const [i, folder] of folders.entries()) {
    const key = i === 0 ? 'server_folder' : `server_folder_${i + 1}`;
    folderValues[key] = folder;
    settings[key] = {
      type: 'directory',
      title: folders.length === 1 ? 'Server folder' : `Server folder ${i + 1}`,
      description: 'where the server’s own files are; it reads them here (read-only)',
      required: true,
      sensitive: false,
      default: folder,
    };
  }

  const manifest = {
    id,
    name: preview.name,
    version: server.version ?? '0.0.0',
    description: `Imported from ${APP_NAMES[config.app]} (${path.basename(config.file)})${preview.description ? `: ${preview.description}` : ''}`,
    protocol: 'mcp',
    ...(server.url ? { url: translate(server.url, config.file, config.inputs).text, headers } : { command }),
    ...(Object.keys(env).length > 0 ? { env } : {}),
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
    ...(folders.length > 0 ? { capabilities: ['fs.read'] } : {}),
  };
  try {
    mkdirSync(dest, { recursive: true });
    if (readdirSync(dest).length > 0)
      return failure('invalid_input', `${dest} is not empty: choose a new folder for the plugin`);
    // Software only: its history stays behind. What the copy may hold (links, size, entries) is
    // checked as any plugin folder's when it is installed.
    if (copyFrom !== undefined)
      cpSync(copyFrom, path.join(dest, COPIED), {
        recursive: true,
        verbatimSymlinks: true,
        filter: (src) => path.relative(copyFrom, src).split(path.sep)[0] !== '.git',
      });
    writeFileSync(path.join(dest, 'plugboard.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  } catch (e) {
    return failure('io_error', `could not write the plugin folder ${dest}: ${(e as Error).message}`);
  }
  // What was written must read back as a plugin; anything else is a bug here, said plainly.
  const check = loadManifest(dest);
  if (!check.ok) {
    rmSync(path.join(dest, 'plugboard.json'), { force: true });
    return failure(
      'invalid_input',
      `the imported server does not make a valid plugin: ${describeManifestErrors(check)}`,
    );
  }
  return { ok: true, dir: dest, manifestPath: check.spec.manifestPath, id, secrets, folders: folderValues };
}

/** A command word naming a file in `folder` (`/p/dist/index.js`, `--entry=/p/x.js`), as it is in the copy. */
function intoCopy(word: string, folder: string): string {
  const flag = /^--?[\w-]+=/.exec(word)?.[0] ?? '';
  const value = word.slice(flag.length);
  if (!path.isAbsolute(value) || !isInside(folder, value)) return word;
  return `${flag}\${__dirname}/${COPIED}/${path.relative(folder, value).split(path.sep).join('/')}`;
}
