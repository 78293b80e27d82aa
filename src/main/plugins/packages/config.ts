/**
 * What of the person's own package configuration the install step gets: the registry, its
 * credentials, the certificate authority and the proxy from `~/.npmrc`, `pip.conf` and `uv.toml`,
 * where native modules find Node's headers and a Python to build with (npm's `nodedir` and
 * `python`: without them node-gyp downloads the headers, which fails where only the registry is
 * reachable, and a server with a native module could not be installed where `npx -y` works), and
 * the certificate, proxy and build variables of Plugboard's environment. The step runs with a home
 * of its own (the sandbox shows it nothing of the person's home), so these are copied into that
 * home, and the certificate files they name are shown to it read-only.
 *
 * `.npmrc` and `pip.conf` are filtered to the keys that say where and how to fetch, line by line
 * (their formats are `key = value` lines; a parser would only be needed to change them, and the
 * lines are copied unchanged): a `cache=` or `prefix=` pointing into the person's home would make
 * the step fail, and nothing else in them concerns fetching. `uv.toml` is copied whole (its cache
 * and Python settings are overridden by the step's environment, which uv reads first).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface StepConfig {
  /** Files to write into the step's home: path relative to it, and content. */
  files: Array<{ rel: string; text: string }>;
  /**
   * The same files without credentials (registry tokens, passwords, client keys): what the home
   * holds while packages' own install scripts run, which need none and must not read them.
   */
  withoutCredentials: Array<{ rel: string; text: string }>;
  /** Variables for the step's environment. */
  env: Record<string, string>;
  /** Certificate files and folders the configuration names: shown read-only. */
  readOnly: string[];
  /** What was taken, in words, for the install's log. */
  notes: string[];
}

/** Certificates and proxies: what a network-using program needs of Plugboard's environment. */
const NETWORK_VARIABLES = [
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'PIP_CERT',
  'UV_NATIVE_TLS',
  'HTTPS_PROXY',
  'HTTP_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'https_proxy',
  'http_proxy',
  'no_proxy',
  'all_proxy',
];
/** Where native modules are built from: npm's settings, as npm reads them from the environment. */
const BUILD_VARIABLES = ['npm_config_nodedir', 'NPM_CONFIG_NODEDIR', 'npm_config_python', 'NPM_CONFIG_PYTHON'];
const PATH_VARIABLES = new Set([
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'PIP_CERT',
]);

/** `.npmrc` keys about where and how packages are fetched. */
const NPM_KEYS =
  /^(registry|@[^:\s]+:registry|\/\/[^\s]*:(_authToken|_auth|username|_password|email|certfile|keyfile|always-auth)|cafile|ca|ca\[\]|strict-ssl|proxy|https-proxy|http-proxy|noproxy|no-proxy|replace-registry-host|always-auth|_auth|_authToken|fetch-retries|fetch-retry-factor|fetch-retry-mintimeout|fetch-retry-maxtimeout|fetch-timeout|maxsockets|local-address|nodedir|python)$/;
const NPM_PATH_KEYS = /(^cafile$|:certfile$|:keyfile$|^python$)/;

/**
 * What of a `nodedir` the step is shown: its headers only (`include/node`, all node-gyp reads
 * there), never the folder itself, which could be a home folder the install scripts would read.
 */
function nodeHeaders(nodedir: string): string {
  return path.join(nodedir, 'include', 'node');
}

/** pip's keys about where and how packages are fetched. */
const PIP_KEYS =
  /^(index-url|extra-index-url|trusted-host|cert|client-cert|proxy|timeout|retries|default-timeout|find-links|no-index|only-binary|prefer-binary)$/;
const PIP_PATH_KEYS = /^(cert|client-cert)$/;

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function expandHome(p: string, home: string): string {
  return p.replace(/^~(?=$|\/)/, home);
}

/** `${VAR}` in an npmrc value, as npm expands it, from Plugboard's environment. */
function expandEnv(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{([^}]+)\}/g, (all, name: string) => env[name] ?? all);
}

/**
 * The npm registry a person's configuration names (`npm_config_registry`, else `registry=` in
 * their .npmrc, as npm reads it), or null for npm's own. The update check asks the registry the
 * install step installs from.
 */
export function personNpmRegistry(env: NodeJS.ProcessEnv, home: string): string | null {
  if (env.npm_config_registry) return env.npm_config_registry;
  const text = read(env.NPM_CONFIG_USERCONFIG ?? env.npm_config_userconfig ?? path.join(home, '.npmrc'));
  const m = text === null ? null : /^\s*registry\s*=\s*(\S+)\s*$/m.exec(text);
  return m ? expandEnv((m[1] as string).replace(/^["']|["']$/g, ''), env) : null;
}

/** Keeps the `key = value` lines whose key passes; section headers and comments of kept sections stay. */
function keepLines(
  text: string,
  keep: RegExp,
  onKept: (key: string, value: string) => string | null,
): { text: string; kept: number } {
  const out: string[] = [];
  let kept = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (/^\[.*\]$/.test(line)) {
      out.push(line);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    if (!keep.test(key)) continue;
    const value = onKept(key, line.slice(eq + 1).trim());
    if (value === null) continue;
    out.push(`${key}=${value}`);
    kept++;
  }
  return { text: `${out.join('\n')}\n`, kept };
}

/** `.npmrc` lines that carry a credential: tokens, passwords, client certificates' keys. */
const NPM_CREDENTIAL = /(^|:)(_authToken|_auth|_password|username|email|certfile|keyfile)\s*=/;

function withoutNpmCredentials(text: string): string {
  return `${text
    .split('\n')
    .filter((l) => l !== '' && !NPM_CREDENTIAL.test(l))
    .join('\n')}\n`;
}

export function personConfig(env: NodeJS.ProcessEnv, home: string): StepConfig {
  const cfg: StepConfig = { files: [], withoutCredentials: [], env: {}, readOnly: [], notes: [] };
  const shown = (p: string): void => {
    const abs = expandHome(p, home);
    if (path.isAbsolute(abs) && existsSync(abs) && !cfg.readOnly.includes(abs)) cfg.readOnly.push(abs);
  };
  for (const name of [...NETWORK_VARIABLES, ...BUILD_VARIABLES]) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    cfg.env[name] = v;
    if (PATH_VARIABLES.has(name) || /python$/i.test(name)) shown(v);
    else if (/nodedir$/i.test(name)) shown(nodeHeaders(v));
  }

  const npmrcFile = env.NPM_CONFIG_USERCONFIG ?? env.npm_config_userconfig ?? path.join(home, '.npmrc');
  const npmrc = read(npmrcFile);
  if (npmrc !== null) {
    const r = keepLines(npmrc, NPM_KEYS, (key, value) => {
      const v = expandEnv(value, env);
      const unquoted = v.replace(/^["']|["']$/g, '');
      if (NPM_PATH_KEYS.test(key)) shown(unquoted);
      else if (key === 'nodedir') shown(nodeHeaders(unquoted));
      return v;
    });
    if (r.kept > 0) {
      cfg.files.push({ rel: '.npmrc', text: r.text });
      cfg.withoutCredentials.push({ rel: '.npmrc', text: withoutNpmCredentials(r.text) });
      cfg.notes.push(`${r.kept} setting${r.kept === 1 ? '' : 's'} of ${npmrcFile}`);
    }
  }

  const xdg = env.XDG_CONFIG_HOME ?? path.join(home, '.config');
  const pipFiles = [env.PIP_CONFIG_FILE, path.join(home, '.pip', 'pip.conf'), path.join(xdg, 'pip', 'pip.conf')];
  const pipTexts: string[] = [];
  for (const f of pipFiles) {
    if (!f) continue;
    const text = read(f);
    if (text === null) continue;
    const r = keepLines(text, PIP_KEYS, (key, value) => {
      if (PIP_PATH_KEYS.test(key)) shown(value);
      // A local wheel folder would have to be shown too; only index URLs are kept.
      if (key === 'find-links' && !/^https?:\/\//.test(value)) return null;
      return value;
    });
    if (r.kept > 0) {
      pipTexts.push(r.text);
      cfg.notes.push(`${r.kept} setting${r.kept === 1 ? '' : 's'} of ${f}`);
    }
  }
  if (pipTexts.length > 0) cfg.files.push({ rel: '.config/pip/pip.conf', text: pipTexts.join('') });

  const uvFile = env.UV_CONFIG_FILE ?? path.join(xdg, 'uv', 'uv.toml');
  const uv = read(uvFile);
  if (uv !== null) {
    cfg.files.push({ rel: '.config/uv/uv.toml', text: uv });
    cfg.notes.push(uvFile);
  }
  return cfg;
}
