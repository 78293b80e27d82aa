/**
 * What an installed plugin is pinned to, so that it never changes by itself and "check for
 * updates" knows what to ask about. The install record in state.json (`plugins.<id>.installed`)
 * carries it:
 *
 *   installed.package  { ecosystem: 'npm' | 'pypi' | 'oci', name, version }
 *       the registry package the plugin runs, at the exact version installed. Written by the
 *       catalog and by updates; read by the updater. Where it is absent, the package is read from
 *       the command the plugin runs (`npx -y pkg@1.2.3`, `uvx pkg==1.2.3`, `docker run … img:1.2`).
 *       A command that names no version (`npx -y pkg`) is pinned by its install all the same: the
 *       package was installed into the plugin's folder at the version the registry named then
 *       (packages/record.ts), and that version is its pin. An image without a tag, or a command
 *       whose package was not installed, is not pinned (it is reported, never updated).
 *   installed.catalog  { url, name, version, kind }
 *       the catalog entry it was installed from: the registry's URL, the server's name and
 *       version there, and which of its packages (`npm`, `pypi`, `oci`, `remote`) was chosen.
 */
import type { PluginSpec } from '../../../shared/plugin';
import { readRecord, writtenCommand } from '../packages/record';

export type Ecosystem = 'npm' | 'pypi' | 'oci';

export interface PinnedPackage {
  ecosystem: Ecosystem;
  name: string;
  version: string;
  /**
   * The command's word that names the package, where it does not name this version (`pkg` of
   * `npx -y pkg`, pinned by the folder's install): the word an update replaces.
   */
  written?: string;
}

export interface CatalogOrigin {
  url: string;
  name: string;
  version: string;
  kind: 'npm' | 'pypi' | 'oci' | 'remote';
}

/** An installed plugin's record in state.json: when, from where, which version, and what it is pinned to. */
export interface InstallRecord {
  at: string;
  source: string;
  version: string;
  package?: PinnedPackage;
  catalog?: CatalogOrigin;
}

/** A package named in a command, pinned (`version`) or not (null), and which word of the command names it. */
export interface CommandPackage {
  ecosystem: Ecosystem;
  name: string;
  version: string | null;
  word: number;
}

const NPX = /^(npx|bunx)(\.cmd|\.exe)?$/;
const UVX = /^(uvx|pipx)(\.exe)?$/;
/** docker run flags that take no value (the others take the next word, unless written `--flag=value`). */
const DOCKER_BOOLEAN = new Set([
  '-i',
  '-t',
  '-it',
  '-ti',
  '-d',
  '--rm',
  '--init',
  '--interactive',
  '--tty',
  '--privileged',
  '--read-only',
  '--detach',
]);

/** The package a launcher command runs: `npx -y pkg@1.2.3`, `uvx pkg==1.2.3`, `docker run -i --rm image:1.2`. */
export function commandPackage(command: readonly string[]): CommandPackage | null {
  const head = (command[0] ?? '').split(/[\\/]/).pop() ?? '';
  if (NPX.test(head)) return npmWord(command, 1);
  if (UVX.test(head)) return pypiWord(command, head.startsWith('pipx') && command[1] === 'run' ? 2 : 1);
  if (head === 'uv' && command[1] === 'tool' && command[2] === 'run') return pypiWord(command, 3);
  if ((head === 'docker' || head === 'podman') && command[1] === 'run') return ociWord(command, 2);
  return null;
}

function firstOperand(command: readonly string[], from: number, takesValue: (flag: string) => boolean): number {
  for (let i = from; i < command.length; i++) {
    const w = command[i] as string;
    if (!w.startsWith('-')) return i;
    if (!w.includes('=') && takesValue(w)) i++;
  }
  return -1;
}

function npmWord(command: readonly string[], from: number): CommandPackage | null {
  const i = firstOperand(command, from, (f) => f === '-p' || f === '--package');
  if (i < 0) return null;
  const w = command[i] as string;
  const at = w.lastIndexOf('@');
  if (at <= 0) return { ecosystem: 'npm', name: w, version: null, word: i };
  return { ecosystem: 'npm', name: w.slice(0, at), version: exact(w.slice(at + 1)), word: i };
}

function pypiWord(command: readonly string[], from: number): CommandPackage | null {
  const fromFlag = command.indexOf('--from');
  const i =
    fromFlag >= from && fromFlag + 1 < command.length
      ? fromFlag + 1
      : firstOperand(command, from, (f) => ['--with', '--python', '-p', '--index', '--index-url'].includes(f));
  if (i < 0) return null;
  const w = command[i] as string;
  const m = /^([A-Za-z0-9._-]+)(?:\[[^\]]*\])?(?:==|@)(.+)$/.exec(w);
  if (!m) return { ecosystem: 'pypi', name: w.replace(/\[.*\]$/, ''), version: null, word: i };
  return { ecosystem: 'pypi', name: m[1] as string, version: exact(m[2] as string), word: i };
}

function ociWord(command: readonly string[], from: number): CommandPackage | null {
  const i = firstOperand(command, from, (f) => !DOCKER_BOOLEAN.has(f));
  if (i < 0) return null;
  const w = command[i] as string;
  if (w.includes('@sha256:'))
    return { ecosystem: 'oci', name: w.slice(0, w.indexOf('@')), version: w.slice(w.indexOf('@') + 1), word: i };
  const colon = w.lastIndexOf(':');
  if (colon <= w.lastIndexOf('/')) return { ecosystem: 'oci', name: w, version: null, word: i };
  return { ecosystem: 'oci', name: w.slice(0, colon), version: exact(w.slice(colon + 1)), word: i };
}

/** A version that names one release: not a range, a tag such as `latest`, or empty. */
function exact(v: string): string | null {
  return /^v?\d+(\.\d+)*([-+.][0-9A-Za-z.+-]+)?$/.test(v) ? v : null;
}

/** The word of a command that runs `pkg` at `version`, written the way its launcher takes it. */
export function pinnedWord(pkg: Pick<CommandPackage, 'ecosystem' | 'name'>, version: string): string {
  if (pkg.ecosystem === 'npm') return `${pkg.name}@${version}`;
  if (pkg.ecosystem === 'pypi') return `${pkg.name}==${version}`;
  return version.startsWith('sha256:') ? `${pkg.name}@${version}` : `${pkg.name}:${version}`;
}

/**
 * What a plugin is pinned to: its install record's package, else the one its command names as its
 * manifest writes it (a package installed into the plugin's folder runs from there instead, but
 * the manifest's `npx -y pkg@1.2.3` still says which package and version that is).
 */
export function pinnedPackage(
  spec: PluginSpec,
  record: InstallRecord | undefined,
): PinnedPackage | CommandPackage | null {
  if (record?.package) return record.package;
  if (spec.remote) return null;
  const installed = readRecord(spec.dir);
  const command = writtenCommand(spec, installed);
  const named = commandPackage(command);
  if (!named || named.version || named.ecosystem === 'oci') return named;
  if (installed?.ecosystem !== named.ecosystem || installed.name !== named.name) return named;
  return {
    ecosystem: named.ecosystem,
    name: named.name,
    version: installed.version_installed,
    written: command[named.word] as string,
  };
}
