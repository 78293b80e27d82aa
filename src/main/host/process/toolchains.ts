/**
 * The real program behind a version manager's shim, found by reading files only: nothing is run.
 * A shim (pyenv, asdf, mise, volta) is a small script or binary in the person's home that picks a
 * version at each start from version files and its own state, then runs the real interpreter. In
 * the sandbox the shim cannot work (its machinery lives in the home folder, which is not shown),
 * and asking it on the host would run a program outside any sandbox. So each manager's own rules
 * for choosing a version are followed here, from the files each one documents:
 *
 * - pyenv: `$PYENV_VERSION`, else `.python-version` from the project folder up, else
 *   `$PYENV_ROOT/version`; the program is `$PYENV_ROOT/versions/<v>/bin/<name>`.
 * - asdf: `$ASDF_<TOOL>_VERSION`, else `.tool-versions` from the project folder up, then in the
 *   home; the shim names its tool in `# asdf-plugin: <tool> <version>` lines; the program is
 *   `<data>/installs/<tool>/<v>/bin/<name>`.
 * - mise: `mise.toml`, `.mise.toml`, `.tool-versions` from the project folder up, then
 *   `~/.config/mise/config.toml`; the program is `<data>/installs/<tool>/<v>/bin/<name>`, a
 *   fuzzy version (`20`) meaning the newest installed that matches.
 * - volta: `"volta": {"node": …}` in the project's package.json, else the default in
 *   `<volta>/tools/user/platform.json`; the program is `<volta>/tools/image/node/<v>/bin/<name>`.
 * - nvm has no shims: a `~/.nvm/versions/node/<v>/bin/node` on PATH is the real program; where no
 *   node is on PATH at all, nvm's `default` alias names the version (`nvmDefault`).
 *
 * The project folder is the plugin's own folder: its version files only choose among versions the
 * person installed, so a plugin cannot bring a program of its own this way.
 */
import path from 'node:path';
import { findUp, installed, pickVersion, readText, realOr, toolVersionsEntry } from './toolchain-files';

export { compareVersions, pickVersion } from './toolchain-files';

export interface ToolchainContext {
  home: string;
  /** Plugboard's own environment (PYENV_ROOT, VOLTA_HOME, …): never the plugin's. */
  env: Record<string, string | undefined>;
  /** Where version files are looked for first: the plugin's folder. */
  projectDir: string;
}

export type ShimTool = 'pyenv' | 'asdf' | 'mise' | 'volta';

/**
 * A shim, and the program it would run; `system` when the version chosen is the system's (the
 * next program of that name on PATH after the shims); or why it cannot be told.
 */
export type ShimResolution =
  { tool: ShimTool; file: string } | { tool: ShimTool; system: true } | { tool: ShimTool; problem: string };

function pyenv(shim: string, name: string, ctx: ToolchainContext): ShimResolution {
  const text = readText(shim) ?? '';
  const root = /export PYENV_ROOT="([^"]+)"/.exec(text)?.[1] ?? ctx.env.PYENV_ROOT ?? path.dirname(path.dirname(shim));
  let wanted: string[] | null = null;
  let from = '';
  if (ctx.env.PYENV_VERSION) [wanted, from] = [ctx.env.PYENV_VERSION.split(':'), 'PYENV_VERSION'];
  const local = wanted ? null : findUp(ctx.projectDir, ['.python-version']);
  if (local) [wanted, from] = [(readText(local) ?? '').split(/\s+/).filter(Boolean), local];
  if (!wanted) {
    const global = path.join(root, 'version');
    [wanted, from] = [(readText(global) ?? 'system').split(/\s+/).filter(Boolean), global];
  }
  const versions = path.join(root, 'versions');
  for (const w of wanted) {
    if (w === 'system') return { tool: 'pyenv', system: true };
    const f = installed(versions, [w], name);
    if (f) return { tool: 'pyenv', file: f };
  }
  return {
    tool: 'pyenv',
    problem: `pyenv's version ${wanted.join(', ')} (from ${from}) has no ${name} in ${versions}`,
  };
}

function asdf(shim: string, name: string, ctx: ToolchainContext): ShimResolution {
  const text = readText(shim) ?? '';
  const data = ctx.env.ASDF_DATA_DIR ?? path.dirname(path.dirname(shim));
  // `# asdf-plugin: nodejs 20.11.0`: which tool (and versions) provide this shim.
  const plugins = new Map<string, string[]>();
  for (const m of text.matchAll(/^# asdf-plugin: (\S+) (\S+)/gm)) {
    const [tool, version] = [m[1] as string, m[2] as string];
    plugins.set(tool, [...(plugins.get(tool) ?? []), version]);
  }
  if (plugins.size === 0) return { tool: 'asdf', problem: `the asdf shim ${shim} names no tool` };
  const file = ctx.env.ASDF_DEFAULT_TOOL_VERSIONS_FILENAME ?? '.tool-versions';
  for (const [tool, provides] of plugins) {
    const fromEnv = ctx.env[`ASDF_${tool.toUpperCase().replace(/-/g, '_')}_VERSION`];
    const wanted =
      (fromEnv ? [fromEnv] : null) ??
      toolVersionsEntry(findUp(ctx.projectDir, [file]), tool) ??
      toolVersionsEntry(path.join(ctx.home, file), tool);
    if (!wanted) continue;
    if (wanted.includes('system')) return { tool: 'asdf', system: true };
    const f = installed(
      path.join(data, 'installs', tool),
      wanted.filter((w) => provides.includes(w) || pickVersion(provides, w)),
      name,
    );
    if (f) return { tool: 'asdf', file: f };
  }
  return { tool: 'asdf', problem: `no version of ${[...plugins.keys()].join(', ')} is set for ${name} in ${file}` };
}

/**
 * The `[tools]` table of a mise.toml: `node = "20"`, `node = ["20", "18"]`,
 * `node = { version = "20" }`. Read by hand because only these three forms of one table matter
 * here, and a full TOML parser for them would be a dependency for a dozen lines.
 */
export function miseTools(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let inTools = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').trim();
    if (line.startsWith('[')) {
      inTools = line === '[tools]';
      continue;
    }
    const m = inTools ? /^"?([\w:@/.-]+)"?\s*=\s*(.+)$/.exec(line) : null;
    if (!m) continue;
    const value = m[2] as string;
    const inner = /version\s*=\s*"([^"]+)"/.exec(value)?.[1];
    const versions = inner ? [inner] : [...value.matchAll(/"([^"]+)"|'([^']+)'/g)].map((x) => (x[1] ?? x[2]) as string);
    if (versions.length > 0) out.set(m[1] as string, versions);
  }
  return out;
}

function mise(shim: string, name: string, ctx: ToolchainContext): ShimResolution {
  const data = ctx.env.MISE_DATA_DIR ?? path.dirname(path.dirname(shim));
  const configDir =
    ctx.env.MISE_CONFIG_DIR ?? path.join(ctx.env.XDG_CONFIG_HOME ?? path.join(ctx.home, '.config'), 'mise');
  const files: string[] = [];
  for (let d = path.resolve(ctx.projectDir); ; d = path.dirname(d)) {
    for (const n of ['mise.toml', '.mise.toml', '.tool-versions']) files.push(path.join(d, n));
    if (path.dirname(d) === d) break;
  }
  files.push(path.join(configDir, 'config.toml'), path.join(ctx.home, '.tool-versions'));
  const tools = new Map<string, string[]>();
  for (const f of files) {
    const text = readText(f);
    if (text === null) continue;
    const found = f.endsWith('.tool-versions')
      ? new Map(
          text
            .split('\n')
            .map((l) => l.replace(/#.*/, '').trim().split(/\s+/))
            .filter((p) => p.length > 1)
            .map((p) => [p[0] as string, p.slice(1)]),
        )
      : miseTools(text);
    // The nearest file wins for a tool it names.
    for (const [tool, versions] of found) if (!tools.has(tool)) tools.set(tool, versions);
  }
  for (const [tool, versions] of tools) {
    // `core:node`, `asdf:…` and `npm:…` backends keep their installs under the tool's last name.
    const dir = path.join(data, 'installs', tool.replace(/^core:/, '').replace(/[:/]/g, '-'));
    const f = installed(dir, versions, name);
    if (f) return { tool: 'mise', file: f };
  }
  return { tool: 'mise', problem: `no tool set in mise's configuration provides ${name}` };
}

function volta(name: string, ctx: ToolchainContext, voltaHome: string): ShimResolution {
  let wanted: string | null = null;
  const pkg = findUp(ctx.projectDir, ['package.json']);
  try {
    const v = (JSON.parse(readText(pkg ?? '') ?? '{}') as { volta?: { node?: unknown } }).volta?.node;
    if (typeof v === 'string') wanted = v;
  } catch {
    // not JSON: no pin there
  }
  if (!wanted) {
    try {
      const platform = JSON.parse(readText(path.join(voltaHome, 'tools', 'user', 'platform.json')) ?? '{}') as {
        node?: { runtime?: unknown };
      };
      if (typeof platform.node?.runtime === 'string') wanted = platform.node.runtime;
    } catch {
      // unreadable: no default
    }
  }
  if (!wanted) return { tool: 'volta', problem: 'volta has no default Node (volta install node)' };
  const f = installed(path.join(voltaHome, 'tools', 'image', 'node'), [wanted], name);
  return f ? { tool: 'volta', file: f } : { tool: 'volta', problem: `volta's Node ${wanted} has no ${name}` };
}

/** The program a shim stands for; null when `file` is no shim this knows. */
export function resolveShim(file: string, ctx: ToolchainContext): ShimResolution | null {
  const name = path.basename(file);
  const dir = path.dirname(file);
  const real = realOr(file);
  if (path.basename(real) === 'volta-shim')
    return volta(name, ctx, ctx.env.VOLTA_HOME ?? path.dirname(path.dirname(real)));
  if (path.basename(real) === 'mise' && path.basename(dir) === 'shims') return mise(file, name, ctx);
  if (path.basename(dir) !== 'shims') return null;
  const text = readText(file, 16 * 1024) ?? '';
  if (/\bpyenv\b/.test(text) && /exec\b/.test(text)) return pyenv(file, name, ctx);
  if (/# asdf-plugin:/.test(text)) return asdf(file, name, ctx);
  if (/\bmise\b/.test(text)) return mise(file, name, ctx);
  return null;
}

/** Where nvm keeps a version when its `default` alias names one: for a PATH without any node. */
export function nvmDefault(name: string, ctx: ToolchainContext): string | null {
  const dir = ctx.env.NVM_DIR ?? path.join(ctx.home, '.nvm');
  let alias = readText(path.join(dir, 'alias', 'default'))?.trim();
  // One level of alias indirection (`default` -> `lts/iron` -> `v20.11.1`), as nvm resolves it.
  const next = alias && readText(path.join(dir, 'alias', alias))?.trim();
  if (next) alias = next;
  if (!alias) return null;
  return installed(path.join(dir, 'versions', 'node'), [alias.startsWith('v') ? alias : `v${alias}`, alias], name);
}
