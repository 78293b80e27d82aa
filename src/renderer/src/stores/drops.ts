/**
 * A drop is routed by what it holds, not by where it lands: a plugin package (a folder, a .zip,
 * .mcpb or .dxt) or another app's MCP config is installed, anything else is attached to the
 * message being written, wherever on the window it was dropped. A .json dropped on the composer
 * is attached unless its name is an MCP config's (claude_desktop_config.json, mcp.json…); dropped
 * elsewhere it is read as a config, whose preview says so when it is not one. Several packages in
 * one drop are installed one after another: each preview opens once the one before is installed,
 * cancelled or refused.
 */
import { filesToComposer } from './chat/attachments';
import { dropToInstall, phase, useInstall, type DroppedItem } from './install';

const PACKAGE = /\.(zip|mcpb|dxt)$/i;
const JSON_FILE = /\.json$/i;
const CONFIG_NAME = /(claude_desktop_config|mcp)[^/]*\.json$/i;

/** The items of a drop, read during the drop event itself (the entry API tells folders apart only then). */
export function droppedItems(dt: DataTransfer): DroppedItem[] {
  const out: DroppedItem[] = [];
  for (const item of Array.from(dt.items)) {
    if (item.kind !== 'file') continue;
    const file = item.getAsFile();
    if (!file) continue;
    out.push({ file, isDirectory: item.webkitGetAsEntry()?.isDirectory ?? false });
  }
  if (out.length === 0) for (const file of Array.from(dt.files)) out.push({ file, isDirectory: false });
  return out;
}

export function dropKind(item: DroppedItem, onComposer: boolean): 'install' | 'attach' {
  const name = item.file.name;
  if (item.isDirectory || PACKAGE.test(name)) return 'install';
  if (JSON_FILE.test(name)) return onComposer && !CONFIG_NAME.test(name) ? 'attach' : 'install';
  return 'attach';
}

const queued: DroppedItem[] = [];

/** Starts the next queued install when no install dialog is open. */
function next(): void {
  const step = phase().step;
  if (step !== 'idle' && step !== 'choose') return;
  const item = queued.shift();
  if (item) void dropToInstall([item]);
}

useInstall.subscribe((s, prev) => {
  if (s.phase.step === 'idle' && prev.phase.step !== 'idle') next();
});

/**
 * Routes a drop: its packages to the install queue, and answers the files to attach (the
 * composer adds them itself when the drop was on it; elsewhere they are sent to it).
 */
export function routeDrop(items: readonly DroppedItem[], onComposer: boolean): File[] {
  const attach: File[] = [];
  for (const item of items) {
    if (dropKind(item, onComposer) === 'install') queued.push(item);
    else attach.push(item.file);
  }
  next();
  if (!onComposer && attach.length > 0) filesToComposer(attach);
  return attach;
}

/** How many dropped packages wait for the install being previewed. */
export function waitingInstalls(): number {
  return queued.length;
}
