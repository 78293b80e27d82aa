/**
 * Launchers that fetch what they run on first use: `npx -y pkg`, `bunx`, `pnpm dlx`, `yarn dlx`,
 * `uvx`, `uv run`, `pipx run`, `docker run`/`podman run`. Such a server answers `initialize` only
 * once the download is done, far past the usual handshake deadline, and the person waiting should
 * be told why. Measured here (2 shared cores), `npx -y @modelcontextprotocol/server-everything`:
 * 55 s to `initialize` with an empty npm cache, 12-18 s with a warm one (npx still asks the
 * registry), 4 s for the same server run with node directly; `uvx mcp-server-time`: 11 s warm.
 */
import path from 'node:path';

export interface FirstRunLauncher {
  /** The launcher as people call it: `npx`, `pnpm dlx`, `docker run`… */
  launcher: string;
  /** The package or image it fetches, when it can be told from the arguments. */
  target: string | null;
  /** What the panel shows while the plugin starts. */
  note: string;
  /** Handshake deadline that leaves time for the first run's download. */
  handshakeMs: number;
}

/** Package managers fetch in well under two minutes on a slow line; the cold npx run above took 55 s. */
export const PACKAGE_FIRST_RUN_MS = 120_000;
/** Images are larger than packages: a pull of a few hundred MB. */
export const IMAGE_FIRST_RUN_MS = 300_000;

/** Options that take a value, per launcher family, so the value is not taken for the package. */
const VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  node: new Set(['-p', '--package', '-c', '--call', '--registry', '--cache', '--userconfig', '-w', '--workspace']),
  python: new Set([
    '--from',
    '--with',
    '--python',
    '-p',
    '--index',
    '--index-url',
    '--extra-index-url',
    '--directory',
    '--project',
    '--with-requirements',
    '--spec',
    '--env-file',
  ]),
  docker: new Set([
    '-e',
    '--env',
    '--env-file',
    '-v',
    '--volume',
    '--mount',
    '--name',
    '-p',
    '--publish',
    '-w',
    '--workdir',
    '--network',
    '--net',
    '--entrypoint',
    '-u',
    '--user',
    '-l',
    '--label',
    '--platform',
    '--pull',
    '-m',
    '--memory',
    '--cpus',
    '--add-host',
    '--device',
    '--cap-add',
    '--cap-drop',
    '--security-opt',
    '--tmpfs',
    '--ulimit',
    '--hostname',
    '-h',
    '--runtime',
    '--ipc',
    '--pid',
    '--shm-size',
    '--restart',
    '--log-driver',
    '--log-opt',
    '--stop-signal',
    '--stop-timeout',
    '--health-cmd',
    '--gpus',
    '--group-add',
    '--dns',
  ]),
};

/** The first argument that is not an option (or an option's value), or null. */
function firstOperand(args: string[], family: keyof typeof VALUE_OPTIONS): string | null {
  const takesValue = VALUE_OPTIONS[family] as ReadonlySet<string>;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') return args[i + 1] ?? null;
    if (a.startsWith('-')) {
      if (!a.includes('=') && takesValue.has(a)) i++;
      continue;
    }
    return a;
  }
  return null;
}

/** The value of `--package`/`-p` (npx) or `--from` (uvx), which names what is fetched. */
function optionValue(args: string[], names: string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    for (const n of names) {
      if (a === n) return args[i + 1] ?? null;
      if (a.startsWith(`${n}=`)) return a.slice(n.length + 1);
    }
  }
  return null;
}

function baseName(file: string): string {
  return path
    .basename(file)
    .replace(/\.(cmd|exe|bat|ps1)$/i, '')
    .toLowerCase();
}

function make(launcher: string, target: string | null, verb: string, handshakeMs: number): FirstRunLauncher {
  const what = target ?? 'its package';
  return { launcher, target, note: `${verb} ${what} with ${launcher} on first run`, handshakeMs };
}

/**
 * The first-run launcher a command starts with, or null. `command` is the command as written or
 * as resolved (an absolute `/usr/bin/npx` is recognised by its name).
 */
export function firstRunLauncher(command: readonly string[]): FirstRunLauncher | null {
  const [head, ...args] = command;
  if (!head) return null;
  const name = baseName(head);
  switch (name) {
    case 'npx':
    case 'bunx':
    case 'pnpx':
      return make(
        name,
        optionValue(args, ['--package', '-p']) ?? firstOperand(args, 'node'),
        'installing',
        PACKAGE_FIRST_RUN_MS,
      );
    case 'pnpm':
    case 'yarn':
    case 'bun': {
      const sub = args[0];
      if (sub !== 'dlx' && !(name === 'bun' && sub === 'x')) return null;
      return make(`${name} ${sub}`, firstOperand(args.slice(1), 'node'), 'installing', PACKAGE_FIRST_RUN_MS);
    }
    case 'uvx':
      return make(
        'uvx',
        optionValue(args, ['--from']) ?? firstOperand(args, 'python'),
        'installing',
        PACKAGE_FIRST_RUN_MS,
      );
    case 'uv': {
      if (args[0] === 'run') return make('uv run', null, 'preparing the Python environment of', PACKAGE_FIRST_RUN_MS);
      if (args[0] === 'tool' && args[1] === 'run') {
        const rest = args.slice(2);
        return make(
          'uv tool run',
          optionValue(rest, ['--from']) ?? firstOperand(rest, 'python'),
          'installing',
          PACKAGE_FIRST_RUN_MS,
        );
      }
      return null;
    }
    case 'pipx':
      if (args[0] !== 'run') return null;
      return make(
        'pipx run',
        optionValue(args.slice(1), ['--spec']) ?? firstOperand(args.slice(1), 'python'),
        'installing',
        PACKAGE_FIRST_RUN_MS,
      );
    case 'docker':
    case 'podman':
      if (args[0] !== 'run') return null;
      return make(`${name} run`, firstOperand(args.slice(1), 'docker'), 'pulling', IMAGE_FIRST_RUN_MS);
    default:
      return null;
  }
}
