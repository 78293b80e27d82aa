/**
 * Which package a command runs through a package runner, read from the command as people write
 * it: `npx -y pkg[@version] args…`, `npx -p pkg cmd args…`, `bunx pkg`, `pnpm dlx pkg`, `yarn dlx`,
 * `uvx pkg[==version] args…`, `uvx --from pkg cmd args…`, `uv tool run …`, `pipx run [--spec pkg]
 * cmd …`, and an MCPB bundle of `server.type` `uv` or `python` whose dependencies are not bundled
 * (`uv run [--directory D] script.py`, `python3 script.py` beside a pyproject.toml or
 * requirements.txt). Such a server is installed once, into the plugin's own folder, and then
 * started from there (install.ts); this file only reads what is asked for.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PluginSpec } from '../../../shared/plugin';

export type Ecosystem = 'npm' | 'pypi';

export interface PackageRequest {
  ecosystem: Ecosystem;
  /** The runner as written: `npx`, `pnpm dlx`, `uvx`, `pipx run`, `uv run` (a bundle's project). */
  runner: string;
  /**
   * What is installed, as the runner was given it: `@scope/pkg@1.2.3`, `mcp-server-git==0.6.2`,
   * `pkg[extra]>=1`. Empty for a bundle's own project (its dependencies are installed).
   */
  spec: string;
  /** The package's name, without version or extras (`@scope/pkg`, `mcp-server-git`). */
  name: string;
  /** Extra packages the runner adds (`uvx --with dep`). */
  with: string[];
  /** What to run once installed: a program of the package (`bin`), or a script of the bundle. */
  run: { bin: string | null } | { script: string };
  /** The server's own arguments, as written (placeholders kept). */
  args: string[];
  /** The Python the runner was told to use (`--python 3.12`), if any. */
  python?: string;
}

/** Options that take a value, so the value is not taken for the package. */
const NPM_VALUE_OPTIONS = new Set(['-p', '--package', '-c', '--call', '--registry', '--cache', '--userconfig', '-w']);
const PY_VALUE_OPTIONS = new Set([
  '--from',
  '--with',
  '--python',
  '-p',
  '--index',
  '--index-url',
  '--default-index',
  '--extra-index-url',
  '--directory',
  '--project',
  '--with-requirements',
  '--with-editable',
  '--spec',
  '--env-file',
  '--constraints',
  '--overrides',
]);

function baseName(file: string): string {
  return path
    .basename(file)
    .replace(/\.(cmd|exe|bat|ps1)$/i, '')
    .toLowerCase();
}

interface Parsed {
  /** Option values by name (all of them, in order). */
  options: Map<string, string[]>;
  /** Index of the first operand in `args`, or -1. */
  operand: number;
}

/** Reads options up to the first operand (`--` ends them). */
function parseOptions(args: string[], takesValue: ReadonlySet<string>): Parsed {
  const options = new Map<string, string[]>();
  const add = (k: string, v: string): void => void options.set(k, [...(options.get(k) ?? []), v]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') return { options, operand: i + 1 < args.length ? i + 1 : -1 };
    if (!a.startsWith('-') || a === '-') return { options, operand: i };
    const eq = a.indexOf('=');
    if (eq > 0) add(a.slice(0, eq), a.slice(eq + 1));
    else if (takesValue.has(a)) add(a, args[++i] ?? '');
    else add(a, '');
  }
  return { options, operand: -1 };
}

/** `@scope/pkg@^1.2` → `@scope/pkg`; `pkg@latest` → `pkg`. */
export function npmName(spec: string): string {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return at > 0 ? spec.slice(0, at) : spec;
}

/** `mcp-server-git==0.6.2` → `mcp-server-git`; `pkg[cli]>=1` → `pkg`; `pkg@1.0` (uvx) → `pkg`. */
export function pypiName(spec: string): string {
  return (/^[A-Za-z0-9][A-Za-z0-9._-]*/.exec(spec.trim())?.[0] ?? spec).replace(/[-_.]+$/, '');
}

/** uvx accepts `pkg@1.2.3` and `pkg@latest`; pip wants `pkg==1.2.3` and `pkg`. */
export function pipRequirement(spec: string): string {
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?)@(.+)$/.exec(spec.trim());
  if (!m) return spec.trim();
  return m[2] === 'latest' ? (m[1] as string) : `${m[1]}==${m[2]}`;
}

function npmRequest(runner: string, args: string[]): PackageRequest | null {
  const { options, operand } = parseOptions(args, NPM_VALUE_OPTIONS);
  const packages = [...(options.get('--package') ?? []), ...(options.get('-p') ?? [])];
  if (options.has('-c') || options.has('--call')) return null;
  if (packages.length > 1) return null;
  if (packages.length === 1) {
    // `npx -p pkg cmd args…`: the program is named, the package given apart.
    if (operand < 0) return null;
    const spec = packages[0] as string;
    return {
      ecosystem: 'npm',
      runner,
      spec,
      name: npmName(spec),
      with: [],
      run: { bin: args[operand] as string },
      args: args.slice(operand + 1),
    };
  }
  if (operand < 0) return null;
  const spec = args[operand] as string;
  // A path or a URL is not a registry package.
  if (/^(\.|\/|~|[a-z]+:)/i.test(spec) && !spec.startsWith('npm:')) return null;
  return {
    ecosystem: 'npm',
    runner,
    spec,
    name: npmName(spec),
    with: [],
    run: { bin: null },
    args: args.slice(operand + 1),
  };
}

function pyRequest(runner: string, args: string[], fromOption: string): PackageRequest | null {
  const { options, operand } = parseOptions(args, PY_VALUE_OPTIONS);
  if (operand < 0) return null;
  const from = options.get(fromOption)?.[0];
  const program = args[operand] as string;
  const spec = from ?? program;
  if (/^(\.|\/|~|[a-z]+:\/\/|git\+)/i.test(spec)) return null;
  const python = options.get('--python')?.[0] ?? options.get('-p')?.[0];
  // `uvx pkg@1.0` names the program `pkg` at that version; with --from, the operand is the program.
  const bin = from ? program : pypiName(program);
  return {
    ecosystem: 'pypi',
    runner,
    spec: pipRequirement(spec),
    name: pypiName(spec),
    with: (options.get('--with') ?? []).flatMap((w) => w.split(',')).filter(Boolean),
    run: { bin },
    args: args.slice(operand + 1),
    ...(python ? { python } : {}),
  };
}

/** The package a command runs through a runner, or null (any other command). */
export function packageOfCommand(command: readonly string[]): PackageRequest | null {
  const [head, ...args] = command;
  if (!head) return null;
  const name = baseName(head);
  switch (name) {
    case 'npx':
    case 'bunx':
    case 'pnpx':
      return npmRequest(name, args);
    case 'pnpm':
    case 'yarn':
    case 'bun':
      if (args[0] === 'dlx' || (name === 'bun' && args[0] === 'x'))
        return npmRequest(`${name} ${args[0]}`, args.slice(1));
      return null;
    case 'uvx':
      return pyRequest('uvx', args, '--from');
    case 'uv':
      if (args[0] === 'tool' && args[1] === 'run') return pyRequest('uv tool run', args.slice(2), '--from');
      return null;
    case 'pipx':
      if (args[0] === 'run') return pyRequest('pipx run', args.slice(1), '--spec');
      return null;
    default:
      return null;
  }
}

/**
 * The bundle's own Python project, for an MCPB bundle of type `uv` or `python` that does not ship
 * its dependencies: `uv run [options] script.py args…` or `python3 script.py args…`, with a
 * pyproject.toml or requirements.txt in the bundle and no bundled `lib` folder on PYTHONPATH.
 */
export function bundleProject(spec: PluginSpec): PackageRequest | null {
  if (spec.manifestFormat !== 'mcpb') return null;
  const serverType = mcpbServerType(spec.manifestPath);
  if (serverType !== 'uv' && serverType !== 'python') return null;
  const dir = spec.dir;
  const hasDeps = existsSync(path.join(dir, 'requirements.txt')) || pyprojectHasDependencies(dir);
  if (!hasDeps) return null;
  const [head, ...args] = spec.command;
  if (!head) return null;
  let rest: string[];
  let python: string | undefined;
  if (baseName(head) === 'uv' && args[0] === 'run') {
    const { options, operand } = parseOptions(args.slice(1), PY_VALUE_OPTIONS);
    if (operand < 0) return null;
    python = options.get('--python')?.[0] ?? options.get('-p')?.[0];
    rest = args.slice(1 + operand);
  } else if (/^python[\d.]*$/.test(baseName(head))) {
    // A bundle that ships its libraries says so on PYTHONPATH; it needs nothing installed.
    if ('PYTHONPATH' in spec.env) return null;
    rest = args;
  } else return null;
  const script = rest[0];
  if (!script || script.startsWith('-')) return null;
  return {
    ecosystem: 'pypi',
    runner: serverType === 'uv' ? 'uv run' : 'python',
    spec: '',
    name: spec.id,
    with: [],
    run: { script },
    args: rest.slice(1),
    ...(python ? { python } : {}),
  };
}

function mcpbServerType(manifest: string): string | undefined {
  try {
    const json = JSON.parse(readFileSync(manifest, 'utf8')) as { server?: { type?: unknown } };
    return typeof json.server?.type === 'string' ? json.server.type : undefined;
  } catch {
    return undefined;
  }
}

function pyprojectHasDependencies(dir: string): boolean {
  try {
    const text = readFileSync(path.join(dir, 'pyproject.toml'), 'utf8');
    return /^\s*dependencies\s*=\s*\[\s*["']/m.test(text);
  } catch {
    return false;
  }
}

/** The runner's words for the preview: `npx -y @modelcontextprotocol/server-memory`. */
export function describeRequest(r: PackageRequest): string {
  if (r.spec === '') return `the Python dependencies of this bundle (${r.runner})`;
  return `${r.spec} from ${r.ecosystem === 'npm' ? 'the npm registry' : 'PyPI'} (${r.runner})`;
}
