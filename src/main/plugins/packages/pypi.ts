/**
 * Installing a PyPI package the way `uvx pkg` or `pipx run pkg` would fetch it (or an MCPB
 * bundle's own dependencies), once, into a virtual environment in the plugin's own folder,
 * `.plugboard/venv`: with uv where it is installed (`uv venv`, `uv pip compile --generate-hashes`,
 * `uv pip sync`), else with the Python's own `venv` and pip (`pip install --report`). Either way
 * `.plugboard/requirements.lock` pins every package at its version with its sha256 from PyPI.
 *
 * The server then runs with the interpreter the environment was made from, by its real path
 * (a pyenv shim is asked once which Python it means), through `.plugboard/run.py`, which adds the
 * environment's site-packages and runs the program or script as the environment's own python
 * would. The environment's `bin/python` is a link to that interpreter, and a link inside the
 * plugin folder is not followed out of it by the sandbox; the interpreter named in the command is.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../fs';
import { pypiName, type PackageRequest } from './detect';
import type { Installed, StepRunner } from './install-types';
import { findTool, stepPath, type FoundTool } from './tools';

const VENV = 'venv';
const LOCK = 'requirements.lock';
const RUNNER = 'run.py';

/** The launcher written beside the environment (see the comment at the top). */
const RUN_PY = `# Written by Plugboard when it installed this plugin's Python packages.
# Runs a program of the virtual environment beside this file (--bin NAME) or a script
# (--script PATH) with the interpreter running this file, as the environment's own python would.
import os, runpy, site, sys

here = os.path.dirname(os.path.abspath(__file__))
venv = os.path.join(here, "venv")
for lib in ("lib", "Lib"):
    root = os.path.join(venv, lib)
    if not os.path.isdir(root):
        continue
    if lib == "Lib":
        site.addsitedir(os.path.join(root, "site-packages"))
        continue
    for name in sorted(os.listdir(root)):
        site.addsitedir(os.path.join(root, name, "site-packages"))
kind, target = sys.argv[1], sys.argv[2]
if kind == "--bin":
    target = os.path.join(venv, "Scripts" if os.name == "nt" else "bin", target)
sys.argv = [target] + sys.argv[3:]
runpy.run_path(target, run_name="__main__")
`;

interface Python {
  tool: FoundTool;
  /** The real interpreter behind a shim, as it says itself. */
  executable: string;
  version: string;
}

/** Asks a Python (Plugboard's own, found on its PATH: never one a plugin chose) where it really is. */
function askPython(tool: FoundTool, env: NodeJS.ProcessEnv): Python | string {
  const r = spawnSync(
    tool.file,
    ['-I', '-c', 'import json,sys;print(json.dumps([sys.executable,"%d.%d"%sys.version_info[:2]]))'],
    { cwd: '/', env: { PATH: env.PATH ?? '', HOME: env.HOME ?? '' }, timeout: 10_000, encoding: 'utf8' },
  );
  try {
    const [executable, version] = JSON.parse((r.stdout ?? '').trim().split('\n').pop() ?? '') as [string, string];
    if (!path.isAbsolute(executable)) throw new Error('no path');
    const [major, minor] = version.split('.').map(Number) as [number, number];
    if (major < 3 || (major === 3 && minor < 8)) return `${tool.file} is Python ${version}; 3.8 or later is needed`;
    return { tool: { file: executable, real: executable }, executable, version };
  } catch {
    return `${tool.file} did not say where it is (${(r.stderr ?? r.error?.message ?? '').trim().split('\n').pop() ?? 'no answer'})`;
  }
}

async function findPython(req: PackageRequest, env: NodeJS.ProcessEnv): Promise<Python | string> {
  const names = req.python ? [/^\d/.test(req.python) ? `python${req.python}` : req.python] : ['python3', 'python'];
  for (const name of names) {
    const t = path.isAbsolute(name) ? { file: name, real: name } : await findTool(name, env);
    if (t) return askPython(t, env);
  }
  return `${names.join(' or ')} was not found on PATH (${env.PATH ?? ''}) or the login shell's: install Python to install ${req.spec || 'this bundle'}`;
}

/** PEP 503: names compare lower-case with runs of `-`, `_` and `.` as one `-`. */
function normal(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

interface Pinned {
  name: string;
  version: string;
  hash: string | null;
}

/** `name==version --hash=sha256:…` lines, as uv writes them and as pip's report is turned into. */
function readLock(text: string): Pinned[] {
  const out: Pinned[] = [];
  for (const entry of text.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
    const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;]+)/.exec(entry);
    if (!m) continue;
    const hash = /--hash=(sha256:[0-9a-f]+)/.exec(entry)?.[1] ?? null;
    out.push({ name: m[1] as string, version: m[2] as string, hash });
  }
  return out;
}

/** pip's installation report (`pip install --report`) as a hash-pinned lock. */
function lockFromReport(file: string): Pinned[] {
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    install?: Array<{
      metadata?: { name?: string; version?: string };
      download_info?: { archive_info?: { hash?: string; hashes?: Record<string, string> } };
    }>;
  };
  return (report.install ?? []).flatMap((i) => {
    const name = i.metadata?.name;
    const version = i.metadata?.version;
    if (!name || !version) return [];
    const a = i.download_info?.archive_info;
    const sha = a?.hashes?.sha256 ?? (a?.hash?.startsWith('sha256=') ? a.hash.slice(7) : undefined);
    return [{ name, version, hash: sha ? `sha256:${sha}` : null }];
  });
}

export async function installPypi(req: PackageRequest, step: StepRunner): Promise<Installed> {
  const py = await findPython(req, step.env);
  if (typeof py === 'string') return { ok: false, message: py };
  const uv = await findTool('uv', step.env);
  const venv = path.join(step.work, VENV);
  const venvPython = path.join(venv, 'bin', 'python');
  const tools = uv ? [py.tool, uv] : [py.tool];
  const env: Record<string, string> = {
    PATH: stepPath(tools),
    XDG_CONFIG_HOME: path.join(step.home, '.config'),
    PIP_CACHE_DIR: path.join(step.home, '.cache', 'pip'),
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    PIP_NO_INPUT: '1',
    UV_CACHE_DIR: path.join(step.home, '.cache', 'uv'),
    // Only the Python named here: uv never downloads one.
    UV_PYTHON_DOWNLOADS: 'never',
    UV_PYTHON_PREFERENCE: 'only-system',
  };
  const run = (file: string, args: string[]) => step.run(file, args, { cwd: step.work, tools, env });
  const made = uv
    ? await run(uv.file, ['venv', '--python', py.executable, venv])
    : await run(py.executable, ['-m', 'venv', venv]);
  if (!made.ok) return { ok: false, message: `could not make the Python environment${made.why}`, tail: made.tail };

  const wanted = path.join(step.work, 'requirements.in');
  if ('script' in req.run) {
    const deps = await bundleRequirements(step, run, venvPython, wanted);
    if (deps) return deps;
  } else {
    writeFileSync(wanted, `${[req.spec, ...req.with].join('\n')}\n`);
  }
  const lockFile = path.join(step.work, LOCK);
  let pinned: Pinned[];
  if (uv) {
    const c = await run(uv.file, [
      'pip',
      'compile',
      '--python',
      venvPython,
      '--generate-hashes',
      '--output-file',
      lockFile,
      wanted,
    ]);
    if (!c.ok)
      return {
        ok: false,
        message: `could not resolve ${req.spec || 'the bundle’s dependencies'}${c.why}`,
        tail: c.tail,
      };
    const s = await run(uv.file, ['pip', 'sync', '--python', venvPython, '--require-hashes', lockFile]);
    if (!s.ok) return { ok: false, message: `uv pip sync failed${s.why}`, tail: s.tail };
    pinned = readLock(readFileSync(lockFile, 'utf8'));
  } else {
    const report = path.join(step.home, 'report.json');
    const i = await run(venvPython, [
      '-m',
      'pip',
      'install',
      '--progress-bar',
      'off',
      '--report',
      report,
      '-r',
      wanted,
    ]);
    if (!i.ok)
      return {
        ok: false,
        message: `pip install ${req.spec || '(the bundle’s dependencies)'} failed${i.why}`,
        tail: i.tail,
      };
    try {
      pinned = lockFromReport(report);
    } catch (e) {
      return { ok: false, message: `pip's installation report does not read: ${(e as Error).message}` };
    }
    writeFileSync(
      lockFile,
      `# Pinned by Plugboard from pip's installation report; install with pip install --require-hashes -r\n${pinned
        .map((p) => `${p.name}==${p.version}${p.hash ? ` --hash=${p.hash}` : ''}`)
        .join('\n')}\n`,
    );
  }
  writeFileSync(path.join(step.work, RUNNER), RUN_PY);
  const runner = `\${__dirname}/.plugboard/${RUNNER}`;
  if ('script' in req.run) {
    const script = req.run.script.replace(/^\$\{__dirname\}\//, '');
    return {
      ok: true,
      version: '',
      integrity: null,
      launch: [
        py.executable,
        '-S',
        runner,
        '--script',
        path.isAbsolute(script) ? script : `\${__dirname}/${script}`,
        ...req.args,
      ],
      env: {},
      lock: `.plugboard/${LOCK}`,
      packages: pinned.length,
    };
  }
  const top = pinned.find((p) => normal(p.name) === normal(pypiName(req.spec)));
  if (!top) return { ok: false, message: `${req.name} is not among what was installed` };
  const bin = req.run.bin ?? pypiName(req.spec);
  const program = path.join(venv, 'bin', bin);
  if (!isInside(venv, program) || !existsSync(program))
    return { ok: false, message: `${req.name} ${top.version} has no program "${bin}"` };
  return {
    ok: true,
    version: top.version,
    integrity: top.hash,
    launch: [py.executable, '-S', runner, '--bin', bin, ...req.args],
    env: {},
    lock: `.plugboard/${LOCK}`,
    packages: pinned.length,
  };
}

/** A bundle's requirements.txt, or its pyproject.toml's dependencies (read by the Python itself). */
async function bundleRequirements(
  step: StepRunner,
  run: (file: string, args: string[]) => Promise<{ ok: boolean; why: string; tail: string[] }>,
  python: string,
  out: string,
): Promise<Installed | null> {
  const txt = path.join(step.pluginDir, 'requirements.txt');
  if (existsSync(txt)) {
    writeFileSync(out, `-r ${txt}\n`);
    return null;
  }
  mkdirSync(path.dirname(out), { recursive: true });
  const r = await run(python, [
    '-c',
    'import sys,tomllib;d=tomllib.load(open(sys.argv[1],"rb"));open(sys.argv[2],"w").write("\\n".join(d.get("project",{}).get("dependencies",[]))+"\\n")',
    path.join(step.pluginDir, 'pyproject.toml'),
    out,
  ]);
  return r.ok ? null : { ok: false, message: `could not read the bundle's pyproject.toml${r.why}`, tail: r.tail };
}
