/**
 * Process groups: each plugin runs in a group of its own, so a stop reaches its grandchildren too.
 * The groups this process started are remembered until they are empty, and if the host itself
 * exits without stopping its plugins (a crash, process.exit), an exit hook kills them: no orphans.
 */
import { spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function trackGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const g of liveGroups) killGroup(g, 'SIGKILL');
    });
  }
}

/** Forgets a group, so its id is never signalled once the system reuses it. */
export function untrackGroup(pid: number | undefined): void {
  if (pid !== undefined) liveGroups.delete(pid);
}

export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    // No process groups: taskkill /T walks the tree. There is no graceful SIGTERM equivalent.
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
    return;
  }
  try {
    // The group only: a plugin is always its group's leader (spawned detached), so when the group
    // is gone the same number may already name someone else's process, and must not be signalled.
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * Whether a live (non-zombie) process is in the group. On Linux this reads /proc, because a
 * signal-0 probe also succeeds for zombies that init has not reaped yet, which would report
 * long-dead children as still running. Asynchronous: it runs after every plugin exit (every call
 * of a one-shot plugin), and a synchronous walk of /proc would stall the main thread each time.
 */
export async function groupAlive(pid: number | undefined): Promise<boolean> {
  if (pid === undefined) return false;
  if (process.platform === 'linux') return liveMembersLinux(pid);
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function liveMembersLinux(pgid: number): Promise<boolean> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return false;
  }
  for (const e of entries) {
    if (e.charCodeAt(0) < 48 || e.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = await readFile(`/proc/${e}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name, which may itself contain spaces and parentheses.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] !== 'Z' && Number(rest[2]) === pgid) return true;
  }
  return false;
}
