/**
 * The reaper: a small process that outlives the host only to kill the host's unsandboxed plugins
 * when the host dies, however it dies (SIGKILL, a crash in native code, the OOM killer), which no
 * exit hook inside the host can do.
 *
 * Why a reaper and not PR_SET_PDEATHSIG (Node cannot call prctl itself; `setpriv --pdeathsig`
 * from util-linux could set it for the plugin): the parent-death signal reaches only the direct
 * child, so a plugin's own children (a Python plugin's `sleep`, a shell it started) would live
 * on under PID 1; it needs util-linux, which not every system has; and it does not exist on
 * macOS. The reaper kills whole process groups, needs nothing but the runtime the host already
 * runs on, and learns of the host's death the way every POSIX system and Windows tell it: the
 * host's end of a pipe closes when the host's process ends, and the reaper reads end-of-file.
 * Sandboxed plugins do not need it: bwrap's --die-with-parent does the same inside the kernel.
 *
 * The host tells the reaper each group it starts (`+ <pgid> <start time>`) and each group that is
 * empty again (`- <pgid>`). At end-of-file the reaper kills each group it still holds, after
 * checking on /proc that the group's leader is the process that was recorded (same start time),
 * so a pid the system gave to another program meanwhile is never signalled; where the leader is
 * gone but its children remain, it kills those that started after the leader. If the reaper
 * itself is killed, the pid registry (pid-registry.ts) stops the leftovers at the next start.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The reaper's program, run by the host's own runtime (`node -e`, or Electron as Node). Plain
 * JavaScript in a string: it must run on its own, outside the host's bundle.
 */
const REAPER_SOURCE = `
const fs = require('fs');
const groups = new Map();
let buf = '';
const stat = (pid) => {
  try {
    const t = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
    const f = t.slice(t.lastIndexOf(')') + 2).split(' ');
    return { state: f[0], pgrp: Number(f[2]), start: Number(f[19]) };
  } catch (e) { return null; }
};
const kill = (pid) => { try { process.kill(pid, 'SIGKILL'); } catch (e) {} };
const reap = () => {
  const proc = fs.existsSync('/proc/self/stat');
  for (const [pgid, start] of groups) {
    if (!proc) { kill(-pgid); continue; }
    const leader = stat(pgid);
    if (leader && leader.state !== 'Z') {
      if (start === '' || leader.start === Number(start)) kill(-pgid);
      continue;
    }
    for (const e of fs.readdirSync('/proc')) {
      if (!/^[0-9]+$/.test(e)) continue;
      const s = stat(e);
      if (s && s.pgrp === pgid && s.state !== 'Z' && (start === '' || s.start >= Number(start))) kill(Number(e));
    }
  }
  process.exit(0);
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const [op, pgid, start] = buf.slice(0, i).split(' ');
    buf = buf.slice(i + 1);
    if (op === '+') groups.set(Number(pgid), start || '');
    else if (op === '-') groups.delete(Number(pgid));
  }
});
process.stdin.on('end', reap);
process.stdin.on('error', reap);
`;

let reaper: ChildProcess | null = null;
/** Set once starting the reaper failed: the pid registry is then the only safety net. */
let unavailable: string | null = null;

/** Whether the reaper runs, and its pid (for tests and the README's claims). */
export function reaperState(): { running: boolean; pid: number | null; reason: string | null } {
  return {
    running: reaper !== null && reaper.exitCode === null && reaper.signalCode === null,
    pid: reaper?.pid ?? null,
    reason: unavailable,
  };
}

function ensureReaper(): ChildProcess | null {
  if (reaper || unavailable) return reaper;
  try {
    const child = spawn(process.execPath, ['-e', REAPER_SOURCE], {
      // Its own session: a Ctrl-C in the terminal reaches the host, not the one meant to outlive it.
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      // At /, so it never keeps a folder (a mount, a test's scratch folder) busy.
      cwd: '/',
      // ELECTRON_RUN_AS_NODE makes the app's Electron binary run the script as Node; Node ignores it.
      env: { ELECTRON_RUN_AS_NODE: '1' },
      windowsHide: true,
    });
    child.on('error', (e) => {
      unavailable = `the reaper could not start: ${e.message}`;
      reaper = null;
    });
    child.stdin?.on('error', () => {});
    // The host must be free to exit while the reaper waits: neither it nor its pipe holds the loop.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    reaper = child;
  } catch (e) {
    unavailable = `the reaper could not start: ${(e as Error).message}`;
  }
  return reaper;
}

/** The reaper kills this group if the host dies before it says the group is empty. */
export function reapWithHost(pgid: number, start: string | null): void {
  if (process.platform === 'win32') return; // no process groups: Windows wants a job object (README)
  ensureReaper()?.stdin?.write(`+ ${pgid} ${start ?? ''}\n`);
}

/** The group is empty: nothing left for the reaper to do about it. */
export function releaseFromReaper(pgid: number): void {
  if (reaper) reaper.stdin?.write(`- ${pgid}\n`);
}
