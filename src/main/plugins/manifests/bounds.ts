/**
 * Limits on what a manifest may declare, checked on the normalized spec whatever the format. A
 * manifest is shown in every plugin list and sent to the UI and to models: a 40 MB description
 * once made every `plugins.list` 42 MB and the server grow to 900 MiB. The limits sit far above
 * what manifests use (the 24 bundled and fixture plugins here: descriptions of at most 177
 * characters, at most 9 tools, tool descriptions of at most 231 characters), and each refusal
 * names the field, its size and the limit. Also here: the warning for a secret put in the command
 * line, which is a fact of the manifest too.
 */
import type { PluginSpec } from '../../../shared/plugin';

/** A manifest file larger than this is not read at all. */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

export const FIELD_LIMITS = {
  name: 200,
  version: 64,
  description: 10_000,
  systemInstructions: 20_000,
  tools: 1000,
  toolName: 128,
  toolDescription: 10_000,
  /** A tool's argument schema, as JSON. */
  toolSchema: 64 * 1024,
  settings: 200,
  settingText: 2000,
  commandWords: 256,
  commandWord: 4096,
  userCommands: 200,
} as const;

const count = (n: number): string => n.toLocaleString('en-US');

/** The refusal for a manifest file that is too large, or null. */
export function manifestTooLarge(bytes: number): string | null {
  return bytes > MAX_MANIFEST_BYTES
    ? `the manifest is ${count(bytes)} bytes; at most ${count(MAX_MANIFEST_BYTES)} are read`
    : null;
}

/** Every field over its limit, one message each, naming the field as the manifest's reader does. */
export function oversizedFields(spec: PluginSpec): string[] {
  const out: string[] = [];
  const text = (where: string, value: string | undefined, max: number): void => {
    if (value !== undefined && value.length > max)
      out.push(`${where}: ${count(value.length)} characters; at most ${count(max)}`);
  };
  const many = (where: string, n: number, max: number): boolean => {
    if (n <= max) return false;
    out.push(`${where}: ${count(n)} entries; at most ${count(max)}`);
    return true;
  };
  const L = FIELD_LIMITS;
  text('name', spec.name, L.name);
  text('version', spec.version, L.version);
  text('description', spec.description, L.description);
  text('system instructions', spec.systemInstructions, L.systemInstructions);
  if (!many('command', spec.command.length, L.commandWords))
    spec.command.forEach((w, i) => text(`command[${i}]`, w, L.commandWord));
  if (!many('tools', spec.tools.length, L.tools)) {
    spec.tools.forEach((t, i) => {
      text(`tools[${i}].name`, t.name, L.toolName);
      text(`tools[${i}] (${t.name.slice(0, 40)}).description`, t.description, L.toolDescription);
      const schema = JSON.stringify(t.parameters ?? {}).length;
      if (schema > L.toolSchema)
        out.push(
          `tools[${i}] (${t.name.slice(0, 40)}).parameters: ${count(schema)} characters of JSON Schema; at most ${count(L.toolSchema)}`,
        );
    });
  }
  if (!many('settings', spec.settings.length, L.settings)) {
    for (const s of spec.settings) {
      text(`settings.${s.key.slice(0, 40)} (key)`, s.key, L.toolName);
      text(`settings.${s.key.slice(0, 40)}.title`, s.title, L.settingText);
      text(`settings.${s.key.slice(0, 40)}.description`, s.description, L.settingText);
    }
  }
  if (!many('user commands', spec.userCommands.length, L.userCommands)) {
    for (const c of spec.userCommands)
      text(`user command ${c.name.slice(0, 40)}.description`, c.description, L.settingText);
  }
  return out;
}

/**
 * A sensitive setting passed on the command line (`--api-key ${user_config.token}`): every user of
 * the machine reads a process's arguments (`ps`), and Plugboard can hide the value only in what it
 * shows itself. Said at install and by `plugboard check`, so the plugin's author can move it to
 * the environment.
 */
export function secretsInCommand(spec: PluginSpec): string[] {
  const sensitive = new Set(spec.settings.filter((s) => s.sensitive).map((s) => s.key));
  const used = new Set<string>();
  for (const word of spec.command) {
    for (const m of word.matchAll(/\$\{user_config\.([^}]+)\}/g))
      if (sensitive.has(m[1] as string)) used.add(m[1] as string);
  }
  return [...used].map(
    (k) =>
      `the secret setting ${k} is passed in the command line: other users of this computer can read it (ps); a plugin should read it from its environment`,
  );
}
