/**
 * The environment a plugin starts with: a short allow-list of the parent's, then what the manifest
 * and the user's settings set. Nothing else leaks, so an API key in the app's environment never
 * reaches a plugin that was not given it.
 */

const POSIX_ALLOW = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TERM', 'TMPDIR'];
const WINDOWS_ALLOW = [
  'APPDATA',
  'COMSPEC',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'WINDIR',
];

/** The parent variables a plugin may see, by name (case-insensitive on Windows). */
export function allowedParentEnv(
  parent: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (platform === 'win32') {
    for (const [k, v] of Object.entries(parent)) {
      if (v !== undefined && WINDOWS_ALLOW.includes(k.toUpperCase())) out[k] = v;
    }
    return out;
  }
  for (const [k, v] of Object.entries(parent)) {
    if (v === undefined) continue;
    if (POSIX_ALLOW.includes(k) || k.startsWith('LC_')) out[k] = v;
  }
  return out;
}

/**
 * What a plugin granted `net` (and a package's install step) needs of Plugboard's environment to
 * reach the network as the person's own programs do: the proxy, and the certificate authorities
 * of a network that inspects TLS. Nothing else of Plugboard's environment reaches a plugin.
 */
export const NETWORK_ENV = [
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'ALL_PROXY',
  'all_proxy',
  'NO_PROXY',
  'no_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
];

/** The variables of NETWORK_ENV that name certificate files or folders (shown read-only in the sandbox). */
const CA_PATHS = ['SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE'];

/** The network variables set in Plugboard's environment, and the certificate paths they name. */
export function networkEnv(parent: NodeJS.ProcessEnv): { env: Record<string, string>; caPaths: string[] } {
  const env: Record<string, string> = {};
  for (const k of NETWORK_ENV) {
    const v = parent[k];
    if (v !== undefined && v !== '') env[k] = v;
  }
  const caPaths = CA_PATHS.flatMap((k) => (env[k] && env[k].startsWith('/') ? [env[k]] : []));
  return { env, caPaths };
}

/** PATH lists joined in order, each folder once. */
export function joinPaths(lists: string[], platform: NodeJS.Platform = process.platform): string {
  const sep = platform === 'win32' ? ';' : ':';
  const seen = new Set<string>();
  const out: string[] = [];
  for (const dir of lists.flatMap((l) => l.split(sep))) {
    if (!dir || seen.has(dir)) continue;
    seen.add(dir);
    out.push(dir);
  }
  return out.join(sep);
}

export interface PluginEnvInput {
  parent: NodeJS.ProcessEnv;
  /** Granted `net`: the proxy and certificate variables of Plugboard's environment (NETWORK_ENV). */
  net?: boolean;
  /** From the manifest (Mehrhof defaults, MCPB mcp_config.env, plugboard.json env). */
  manifest: Record<string, string>;
  /** From the user's settings; wins over the manifest. */
  settings?: Record<string, string>;
  /** Set when the plugin runs with a Python interpreter. */
  python?: { libsDir: string };
  /** Variables the host itself provides (PLUGBOARD_*). */
  host?: Record<string, string>;
  platform?: NodeJS.Platform;
}

export function buildPluginEnv(input: PluginEnvInput): Record<string, string> {
  const platform = input.platform ?? process.platform;
  const env: Record<string, string> = {
    ...allowedParentEnv(input.parent, platform),
    ...(input.net ? networkEnv(input.parent).env : {}),
    ...input.manifest,
    ...(input.settings ?? {}),
    ...(input.host ?? {}),
  };
  if (input.python) {
    env.PYTHONUNBUFFERED = '1';
    const sep = platform === 'win32' ? ';' : ':';
    env.PYTHONPATH = env.PYTHONPATH ? `${input.python.libsDir}${sep}${env.PYTHONPATH}` : input.python.libsDir;
  }
  return env;
}

/** What of a plugin's spec its environment depends on. */
export interface PluginIdentity {
  id: string;
  dir: string;
  dialect: string;
}

/**
 * What a plugin finds in its environment, however it is run (installed, tried before an install,
 * or from a folder): who it is, its folder and its data folder. NVIDIA's plugins write their logs
 * under %PROGRAMDATA%, or the working folder without it, which is the plugin's own and read-only in
 * the sandbox: elsewhere than Windows, PROGRAMDATA is their data folder.
 */
export function pluginEnvironment(spec: PluginIdentity, dataDir: string, nodeModules?: string): Record<string, string> {
  const env: Record<string, string> = {
    PLUGBOARD_PLUGIN_ID: spec.id,
    PLUGBOARD_PLUGIN_DIR: spec.dir,
    PLUGBOARD_DATA_DIR: dataDir,
  };
  if (nodeModules) env.PLUGBOARD_NODE_MODULES = nodeModules;
  if (spec.dialect === 'gassist-v2' && process.platform !== 'win32') env.PROGRAMDATA = dataDir;
  return env;
}
