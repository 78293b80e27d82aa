// Ending everything a command started. A pty's shell leads its own session and process group
// (node-pty calls setsid), so Plugboard's kill of the plugin's group never reaches it: the
// plugin must end these processes itself, on timeout and on shutdown.
import { execFileSync, spawnSync } from 'node:child_process';

/** Every process below `pid`, found through `ps` (empty when ps is unavailable). */
export function descendants(pid) {
  let table;
  try {
    table = execFileSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid='], {
      encoding: 'utf8',
      timeout: 2000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return [];
  }
  const children = new Map();
  for (const line of table.split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (!child || parent === undefined) continue;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(child);
  }
  const out = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const c of children.get(queue.shift()) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/** SIGKILL to `pid`, its process group and all its descendants (taskkill /T on Windows). */
export function killTree(pid) {
  if (!pid) return;
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' });
    return;
  }
  // Found first: once the parents die, their children are re-parented and lost from view.
  const all = [pid, ...descendants(pid)];
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // not a group leader, or already gone
  }
  for (const p of all) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * SIGKILL to what is left of a process group whose leader has exited. Only the group: the
 * leader's pid may already belong to someone else, but a group id is not reused while any
 * member lives, so this reaches the command's leftovers and nothing else.
 */
export function killGroup(pgid) {
  if (!pgid || process.platform === 'win32') return;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // nothing left
  }
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}
