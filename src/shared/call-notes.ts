/**
 * An approval asked outside the app's window says what the app's card says above its buttons:
 * the terminal's prompt (`plugboard chat`) and the form another app shows for `plugboard mcp`
 * (mcp-server/approval.ts). Pure.
 */
import type { ToolCallInfo } from './assistant';
import { hintWords } from './tool-hints';
import { revealed } from './visible-text';

/** The call the notes are about: whose tool, and what its card shows besides its arguments. */
export interface NotedCall {
  plugin: string;
  tool: string;
  hints?: ToolCallInfo['hints'];
  change?: ToolCallInfo['change'];
  carried?: ToolCallInfo['carried'];
}

/**
 * What the app's card shows above the buttons, as lines before the terminal's prompt: the source
 * of text carried from another plugin's result (why it asks), the tool's changed definition as a
 * diff, and what the plugin says of the tool (a hint, never a grant).
 */
export function callNotes(call: NotedCall): string[] {
  const out: string[] = [];
  if (call.carried)
    out.push(
      `  held: its arguments carry ${call.carried.chars} characters of what ${call.carried.pluginName} (${call.carried.plugin}:${call.carried.tool}) returned: "${revealed(call.carried.excerpt)}"`,
    );
  if (call.change) {
    out.push(
      call.change.kind === 'new'
        ? `  ${call.tool} is a new tool of ${call.plugin}; its definition:`
        : `  the definition of ${call.tool} changed since you approved it${call.change.since ? ` (${call.change.since.slice(0, 10)})` : ''}:`,
    );
    for (const l of call.change.lines) out.push(`    ${l.op} ${revealed(l.text)}`);
  }
  const hints = hintWords(call.hints);
  if (hints.length) out.push(`  ${call.plugin} says ${hints.join(', ')} (a hint from the plugin, not a promise)`);
  return out;
}
