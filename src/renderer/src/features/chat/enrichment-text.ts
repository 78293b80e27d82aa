/**
 * The words of the note under a person's message that plugins enriched (prompt enrichment): who
 * added to what the model read, and how many enrichers were skipped. Pure, for the tests.
 */
import type { Enrichment } from '../../../../shared/assistant';

function list(names: string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** "Files added to what the model read; 1 enricher skipped". */
export function enrichmentSummary(steps: readonly Enrichment[], nameOf: (pluginId: string) => string): string {
  const used = [...new Set(steps.filter((s) => s.ok).map((s) => nameOf(s.plugin)))];
  const skipped = steps.filter((s) => !s.ok).length;
  const rewrote = steps.some((s) => s.ok && s.replaced !== undefined);
  const parts: string[] = [];
  if (used.length > 0) parts.push(`${list(used)} ${rewrote ? 'changed' : 'added to'} what the model read`);
  if (skipped > 0) parts.push(`${skipped} enricher${skipped === 1 ? '' : 's'} skipped`);
  const text = parts.join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
