/**
 * Catching up with another process on the same data folder: the app, `plugboard plugins` or
 * another `plugboard mcp` may install, upgrade, remove, enable or disable plugins while this one
 * runs. The decisions file is re-read on its own (state.ts); the plugin folders and what the host
 * runs are not, so a long-running process (an MCP server another app keeps open) calls this when
 * it sees the data folder change. A plugin whose manifest did not change keeps its record and its
 * running process; a new or changed one is bound afresh, a removed one stopped and forgotten, and
 * the host follows each plugin's enablement as the decisions file says it now.
 */
import type { PluginHost } from '../../host';
import type { PluginBindings } from './bindings';
import { discover, type PluginRecord } from './discovery';
import type { RecordBook } from './records';

export interface DiskSyncDeps {
  bundledDir: string | undefined;
  installedDir: string;
  records: RecordBook;
  host: PluginHost;
  bindings: PluginBindings;
  isEnabled(id: string): boolean;
}

/** Brings records and host in line with the disk; answers the ids that changed (added, changed or removed). */
export async function syncWithDisk(deps: DiskSyncDeps): Promise<string[]> {
  const before = new Map(deps.records.list().map((r) => [r.id, r]));
  const found = discover(deps.bundledDir, deps.installedDir).map((r) => {
    const old = before.get(r.id);
    // Unchanged: the same record object, so caches keyed on it stay valid and nothing restarts.
    return old && sameRecord(old, r) ? old : r;
  });
  const changed: string[] = [];
  for (const id of deps.records.replaceAll(found)) {
    await deps.host.remove(id);
    changed.push(id);
  }
  for (const r of found) {
    if (before.get(r.id) === r) continue;
    changed.push(r.id);
    if (r.spec) await deps.bindings.bind(r.spec);
    else await deps.host.remove(r.id);
  }
  for (const id of changed) deps.records.changed(id, before.has(id) ? 'changed on disk' : 'installed elsewhere');
  for (const r of found) if (r.spec && deps.host.has(r.id)) await deps.host.setEnabled(r.id, deps.isEnabled(r.id));
  return changed;
}

function sameRecord(a: PluginRecord, b: PluginRecord): boolean {
  return (
    a.dir === b.dir &&
    a.source === b.source &&
    a.error === b.error &&
    JSON.stringify(a.spec ?? null) === JSON.stringify(b.spec ?? null)
  );
}
