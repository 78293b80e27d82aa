/**
 * Settings → Assistant as a form: what each setting means, its draft as typed, and the change to
 * send (only the settings that changed), or what is wrong with each field. Pure, for the tests.
 */
import { ASSISTANT_SETTING_LIMITS, type AssistantSettings } from '../../../../shared/assistant';

export type SettingKey = keyof AssistantSettings;
export type AssistantDraft = Record<SettingKey, string>;

export const SETTINGS: Array<{ key: SettingKey; label: string; hint: string }> = [
  {
    key: 'maxSteps',
    label: 'Steps per turn',
    hint: 'Rounds of tool calls a model may take in one answer before it stops and says so.',
  },
  {
    key: 'maxTools',
    label: 'Tools offered at most',
    hint: 'Above this, a request carries the most relevant tools and find_tools to search the rest.',
  },
  {
    key: 'maxToolTokens',
    label: 'Tool declarations, tokens at most',
    hint: 'The same choice when the tools’ names, descriptions and schemas would take more than this.',
  },
  {
    key: 'instructionsTokens',
    label: 'Plugins’ instructions, tokens at most',
    hint: 'System instructions of the plugins offered, in plugin order, up to this much; 0 leaves them out.',
  },
];

export function draftOf(s: AssistantSettings): AssistantDraft {
  return {
    maxSteps: String(s.maxSteps),
    maxTools: String(s.maxTools),
    maxToolTokens: String(s.maxToolTokens),
    instructionsTokens: String(s.instructionsTokens),
  };
}

export function rangeText(key: SettingKey): string {
  const { min, max } = ASSISTANT_SETTING_LIMITS[key];
  return `${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
}

export type Checked =
  { ok: true; change: Partial<AssistantSettings> } | { ok: false; errors: Partial<Record<SettingKey, string>> };

/** The settings that differ from `saved`, each a whole number within its range. */
export function checkAssistantDraft(d: AssistantDraft, saved: AssistantSettings): Checked {
  const change: Partial<AssistantSettings> = {};
  const errors: Partial<Record<SettingKey, string>> = {};
  for (const { key } of SETTINGS) {
    const text = d[key].trim().replace(/[,_\s]/g, '');
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    const { min, max } = ASSISTANT_SETTING_LIMITS[key];
    if (!Number.isSafeInteger(n) || n < min || n > max) errors[key] = `A whole number from ${rangeText(key)}.`;
    else if (n !== saved[key]) change[key] = n;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, change };
}
