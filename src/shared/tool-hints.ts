/**
 * What a plugin says of a tool (its MCP annotations), in words for the approval card, the Tools
 * tab and the terminal's prompt. Hints, never grants: a plugin that says its tool only reads is
 * still asked about unless it is bundled or the person allowed it (plugins/registry/decisions.ts).
 */
import type { ToolAnnotations } from './plugin';

export function hintWords(h: ToolAnnotations | undefined): string[] {
  if (!h) return [];
  return [
    h.readOnlyHint === true ? 'it only reads' : '',
    h.destructiveHint === true && h.readOnlyHint !== true ? 'it may delete or overwrite things' : '',
    h.openWorldHint === true ? 'it reaches the world outside' : '',
    h.idempotentHint === true ? 'calling it again changes nothing more' : '',
  ].filter(Boolean);
}
