/**
 * The last log lines of each plugin (stderr, its protocol log messages, the host's diagnostics
 * about it), bounded per plugin, for the panel's log view. Passthrough text never reaches here:
 * the host does not log what a user types to a plugin.
 */
import type { LogEvent } from '../../shared/plugin';

const PER_PLUGIN = 1000;

export class LogBook {
  private readonly rings = new Map<string, LogEvent[]>();

  add(e: LogEvent): void {
    let ring = this.rings.get(e.pluginId);
    if (!ring) this.rings.set(e.pluginId, (ring = []));
    ring.push(e);
    if (ring.length > PER_PLUGIN) ring.splice(0, ring.length - PER_PLUGIN);
  }

  of(pluginId: string): LogEvent[] {
    return [...(this.rings.get(pluginId) ?? [])];
  }
}
