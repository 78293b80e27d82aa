/**
 * CPU and memory of every running plugin process, for the panel (polled while it is open), with
 * the round trip of its last answered idle ping.
 */
import pidusage from 'pidusage';
import type { ProcessStats } from '../../shared/contract';
import type { PluginRegistry } from '../plugins';

export async function processStats(registry: PluginRegistry): Promise<Record<string, ProcessStats>> {
  const pids = registry.host.pids();
  if (pids.size === 0) return {};
  let usage: Record<string, { cpu: number; memory: number }>;
  try {
    usage = (await pidusage([...pids.keys()])) as Record<string, { cpu: number; memory: number }>;
  } catch {
    return {}; // a process exited between the list and the read: the next poll catches up
  }
  const out: Record<string, ProcessStats> = {};
  for (const [pid, id] of pids) {
    const u = usage[String(pid)];
    if (u)
      out[id] = {
        pid,
        cpuPercent: Math.round(u.cpu * 10) / 10,
        memoryBytes: u.memory,
        pingRttMs: registry.host.healthOf(id)?.pingRttMs ?? null,
      };
  }
  return out;
}
