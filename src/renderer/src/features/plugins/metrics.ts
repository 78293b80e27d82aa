/**
 * The figures a plugin row shows, from its health and the last stats poll. Pure, so it is tested
 * without a page. Figures describe a running process: while a plugin restarts, is stopped, failed
 * or disabled, the last poll still holds the dead process's pid, CPU, memory and ping, and showing
 * them would say it runs (issue 12). A poll of another pid than the one health reports is stale too.
 * The pid, CPU and memory are the plugin's own processes, not the sandbox's wrapper (issue 21); the
 * ping is left out while a call runs, since pings stop then and the last one is from before it.
 */
import type { ProcessStats } from '../../../../shared/contract';
import type { HealthEvent } from '../../../../shared/plugin';
import { formatBytes, formatMs, formatPercent } from '../../lib/format';

const RUNNING: ReadonlySet<HealthEvent['state']> = new Set(['starting', 'ready', 'busy', 'unresponsive']);
const PINGED: ReadonlySet<HealthEvent['state']> = new Set(['ready']);

export function rowFigures(health: HealthEvent, stats: ProcessStats | undefined): Array<[string, string]> {
  const running = RUNNING.has(health.state);
  const fresh = running && stats !== undefined && (health.pid === null || stats.pid === health.pid) ? stats : undefined;
  const pid = running ? (fresh?.pluginPid ?? health.pid) : null;
  const parts: Array<[string, string]> = [];
  // Health events carry the ping only when the state changes; the stats poll has the latest.
  const ping = PINGED.has(health.state) ? (fresh?.pingRttMs ?? health.pingRttMs) : null;
  if (ping !== null) parts.push(['ping', formatMs(ping)]);
  if (pid !== null) parts.push(['pid', String(pid)]);
  if (fresh) {
    parts.push(['cpu', formatPercent(fresh.cpuPercent)]);
    parts.push(['mem', formatBytes(fresh.memoryBytes)]);
    if (fresh.processes > 1) parts.push(['procs', String(fresh.processes)]);
  }
  // Restarts matter while it runs, or when it has been restarting; "0" on a stopped plugin is noise.
  if (pid !== null || health.restarts > 0) parts.push(['restarts', String(health.restarts)]);
  return parts;
}
