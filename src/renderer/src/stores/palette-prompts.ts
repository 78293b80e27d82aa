/**
 * MCP prompts in the palette: listed from the running MCP plugins (prompt-entries.ts maps them);
 * choosing one fills the composer with the prompt's text (`prompts.get`), and the person decides
 * whether to send it.
 */
import type { PaletteEntry, PluginView } from '../../../shared/contract';
import { getApi } from '../api';
import { hasParameters } from './palette-entry';
import { usePlugins } from './plugins';
import { promptArgs, promptEntry, promptSources, typedPrompt } from './prompt-entries';
import { errorText, toastError } from './toasts';
import { fillComposer } from './composer-fill';
import { openToolForm } from './ui';

/** Every prompt of the running MCP plugins; a server that fails to list them adds none (the palette still opens). */
export async function loadPromptEntries(): Promise<PaletteEntry[]> {
  const { order, byId } = usePlugins.getState();
  const sources = promptSources(order.map((id) => byId[id]).filter((p): p is PluginView => p !== undefined));
  const lists = await Promise.all(
    sources.map(async (p) => {
      try {
        const r = await getApi().invoke('plugins.prompts', { id: p.id });
        return r.ok ? r.prompts.map((x) => promptEntry(p, x)) : [];
      } catch {
        return [];
      }
    }),
  );
  return lists.flat();
}

/** Fills the composer with the prompt's text; a failure is a toast that names the prompt. */
export async function fillFromPrompt(entry: PaletteEntry, args: Record<string, unknown>): Promise<boolean> {
  const label = `${entry.pluginName} · ${entry.name}`;
  try {
    const r = await getApi().invoke('prompts.get', { id: entry.plugin, name: entry.name, args: promptArgs(args) });
    if (!r.ok) {
      toastError(`${label}: ${r.message}`);
      return false;
    }
    fillComposer(r.prompt.text);
    return true;
  } catch (e) {
    toastError(`${label}: ${errorText(e)}`);
    return false;
  }
}

/**
 * Text typed as `/plugin:prompt` (a name Tab completed): its form opens, or a prompt without
 * arguments fills the composer. True when the text was a prompt's, and so is not to be sent.
 */
export function takeTypedPrompt(text: string, entries: readonly PaletteEntry[]): boolean {
  const prompt = typedPrompt(text, entries);
  if (!prompt) return false;
  if (hasParameters(prompt)) openToolForm(prompt);
  else void fillFromPrompt(prompt, {});
  return true;
}
