/**
 * The plugins the registry knows, by id, bundled and installed, each with its manifest or the
 * error that kept it from loading; and the one event that says something about a plugin changed
 * (installed, upgraded, removed, a decision, its tools), for the UI to refetch.
 */
import { Disposable, Emitter } from '../../../shared/lifecycle';
import type { PluginRecord } from './discovery';

export interface PluginChange {
  id: string;
  reason: string;
}

export class RecordBook extends Disposable {
  private records = new Map<string, PluginRecord>();
  private readonly _onDidChange = this._register(new Emitter<PluginChange>());
  readonly onDidChange = this._onDidChange.event;

  list(): PluginRecord[] {
    return [...this.records.values()];
  }

  get(id: string): PluginRecord | undefined {
    return this.records.get(id);
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  /** Replaces every record (a reload); returns the ids that are gone. */
  replaceAll(found: PluginRecord[]): string[] {
    const next = new Map(found.map((r) => [r.id, r]));
    const gone = [...this.records.keys()].filter((id) => !next.has(id));
    this.records = next;
    return gone;
  }

  set(rec: PluginRecord, reason: string): void {
    this.records.set(rec.id, rec);
    this.changed(rec.id, reason);
  }

  delete(id: string, reason: string): void {
    this.records.delete(id);
    this.changed(id, reason);
  }

  changed(id: string, reason: string): void {
    this._onDidChange.fire({ id, reason });
  }
}
