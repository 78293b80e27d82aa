/**
 * What an update changes in a plugin's tools, as a line diff of each changed description and
 * input schema, and the version an update kept for a rollback: shown by the install preview, the
 * update review and the plugin's detail. Types only (re-exported by updates.ts).
 */
import type { ToolSpec } from './plugin';

/** One line of a diff: kept (` `), added (`+`) or removed (`-`). */
export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
}

export interface ToolChangeView {
  name: string;
  /** The description's lines, when it changed. */
  description?: DiffLine[];
  /** The input schema (pretty JSON, keys sorted), when it changed. */
  schema?: DiffLine[];
}

export interface ToolChangesView {
  /**
   * Whether both tool lists are known. The installed version's are known once it has run or when
   * its manifest declares them; the new version's when its trial launch shook hands or its
   * manifest declares them. When not, `note` says which side is missing.
   */
  known: boolean;
  note?: string;
  added: Array<Pick<ToolSpec, 'name' | 'description'>>;
  removed: Array<Pick<ToolSpec, 'name' | 'description'>>;
  changed: ToolChangeView[];
  unchanged: number;
}

/** The version kept by the last update, which a rollback puts back. */
export interface PreviousVersionView {
  version: string;
  /** When it was replaced (ISO time). */
  replacedAt: string;
}
