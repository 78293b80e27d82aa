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
