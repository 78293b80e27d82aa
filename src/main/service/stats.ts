/**
 * CPU and memory of every running plugin, for the panel (polled while it is open): the plugin's
 * own process tree, without the sandbox's wrapper (host/process/tree-stats.ts), with the round
 * trip of its last answered idle ping.
 */
import type { ProcessStats } from '../../shared/contract';
import { treeStats, type PluginRegistry } from '../plugins';

export async function processStats(registry: PluginRegistry): Promise<Record<string, ProcessStats>> {
  const pids = registry.host.pids();
  if (pids.size === 0) return {};
  // A process that exited between the list and the read is left out: the next poll catches up.
  const usage = await treeStats([...pids.keys()]);
  const out: Record<string, ProcessStats> = {};
  for (const [pid, id] of pids) {
    const u = usage.get(pid);
    const limitUsage = registry.host.limitsOf(id)?.usage;
    if (u)
      out[id] = {
        pid,
        pluginPid: u.pluginPid,
        processes: u.processes,
        cpuPercent: u.cpuPercent,
        memoryBytes: u.memoryBytes,
        pingRttMs: registry.host.healthOf(id)?.pingRttMs ?? null,
        ...(limitUsage ? { limitUsage } : {}),
      };
  }
  return out;
}
