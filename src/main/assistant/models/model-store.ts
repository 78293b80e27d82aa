/**
 * The models a person connected: their names, providers, servers and model ids in
 * `<data>/models.json` (written atomically under a lock, as the plugin state is), and their API
 * keys in the secret store the plugins' secrets use (the OS key store in the app), under an id no
 * plugin can have (`model:<name>`). A key never enters models.json, a log, the audit log or an
 * error message.
 */
import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_ASSISTANT_SETTINGS,
  PROVIDER_KINDS,
  type AssistantSettings,
  type ModelConfig,
  type ModelsView,
} from '../../../shared/assistant';
import { failure, type Done, type Outcome } from '../../../shared/failures';
import { Disposable, Emitter } from '../../../shared/lifecycle';
import { readJson, withFileLock, writeJsonAtomic } from '../../fs';
import type { SecretStore } from '../../plugins';

const FILE_NAME = 'models.json';
const KEY = 'apiKey';

const ModelsFile = z.object({
  version: z.literal(1),
  models: z.array(
    z.object({
      name: z.string().min(1),
      provider: z.enum(PROVIDER_KINDS),
      baseURL: z.string().nullable(),
      model: z.string().min(1),
    }),
  ),
  defaultModel: z.string().nullable(),
  // Bounds are checked where a change comes in (the contract); the file keeps what was saved.
  assistant: z
    .object({ maxSteps: z.number(), maxTools: z.number(), maxToolTokens: z.number(), instructionsTokens: z.number() })
    .partial()
    .optional(),
});
type ModelsFile = z.infer<typeof ModelsFile>;

const EMPTY: ModelsFile = { version: 1, models: [], defaultModel: null };

/** The secret-store id of a model's key: `:` cannot appear in a plugin id. */
function secretId(name: string): string {
  return `model:${name}`;
}

export interface SaveModel extends ModelConfig {
  /** The name it had, when it is renamed. */
  previousName?: string;
  /** undefined keeps the stored key; null removes it. */
  apiKey?: string | null;
  makeDefault?: boolean;
}

export class ModelStore extends Disposable {
  private readonly file: string;
  private readonly _onDidChange = this._register(new Emitter<{ reason: string }>());
  readonly onDidChange = this._onDidChange.event;

  constructor(
    dataDir: string,
    private readonly secrets: SecretStore,
  ) {
    super();
    this.file = path.join(dataDir, FILE_NAME);
  }

  private read(): ModelsFile {
    const parsed = ModelsFile.safeParse(readJson<unknown>(this.file, EMPTY));
    // A file this version cannot read is left alone (the next save says why), never overwritten blind.
    return parsed.success ? parsed.data : EMPTY;
  }

  list(): ModelConfig[] {
    return this.read().models;
  }

  get(name: string): ModelConfig | undefined {
    return this.read().models.find((m) => m.name === name);
  }

  get defaultName(): string | null {
    const f = this.read();
    return f.defaultModel !== null && f.models.some((m) => m.name === f.defaultModel)
      ? f.defaultModel
      : (f.models[0]?.name ?? null);
  }

  /** The model to use: the one named, else the default; undefined when there is none. */
  resolve(name: string | null | undefined): ModelConfig | undefined {
    return (name ? this.get(name) : undefined) ?? (this.defaultName ? this.get(this.defaultName) : undefined);
  }

  async view(): Promise<ModelsView> {
    const defaultModel = this.defaultName;
    const models = await Promise.all(
      this.list().map(async (m) => ({
        ...m,
        hasKey: (await this.apiKey(m.name)) !== undefined,
        isDefault: m.name === defaultModel,
      })),
    );
    return { models, defaultModel, keyStore: this.secrets.description };
  }

  /** The assistant's settings: the person's, else the defaults. */
  settings(): AssistantSettings {
    return { ...DEFAULT_ASSISTANT_SETTINGS, ...this.read().assistant };
  }

  async configure(change: Partial<AssistantSettings>): Promise<Done> {
    const r = await this.update((f) => {
      f.assistant = { ...f.assistant, ...change };
      return null;
    });
    if (!r.ok) return r;
    this._onDidChange.fire({ reason: 'assistant settings' });
    return {
      ok: true,
      detail: `saved: ${Object.entries(change)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    };
  }

  async apiKey(name: string): Promise<string | undefined> {
    const v = (await this.secrets.get(secretId(name)))[KEY];
    return v === undefined || v === '' ? undefined : v;
  }

  async save(input: SaveModel): Promise<Done> {
    const problem = checkConfig(input);
    if (problem) return failure('invalid_input', problem);
    const config: ModelConfig = {
      name: input.name.trim(),
      provider: input.provider,
      baseURL: input.baseURL?.trim() || null,
      model: input.model.trim(),
    };
    const from = input.previousName ?? config.name;
    const r = await this.update((f) => {
      // Adding (no previous name) or renaming onto a name in use would replace another model.
      const taken = f.models.some((m) => m.name === config.name);
      if (taken && (input.previousName === undefined || from !== config.name))
        return `a model named "${config.name}" exists already: choose another name, or edit that one`;
      const i = f.models.findIndex((m) => m.name === from);
      if (i >= 0) f.models[i] = config;
      else f.models.push(config);
      if (input.makeDefault || f.defaultModel === from) f.defaultModel = config.name;
      return null;
    });
    if (!r.ok) return r;
    // The key moves with a rename; a new one replaces it.
    const key = input.apiKey === undefined ? await this.apiKey(from) : input.apiKey;
    if (from !== config.name) await this.secrets.removeAll(secretId(from));
    if (key) await this.secrets.set(secretId(config.name), KEY, key);
    else if (input.apiKey === null) await this.secrets.removeAll(secretId(config.name));
    this._onDidChange.fire({ reason: `saved ${config.name}` });
    return { ok: true, detail: `saved ${config.name}${key ? ` (its key in ${this.secrets.description})` : ''}` };
  }

  async remove(name: string): Promise<Done> {
    const r = await this.update((f) => {
      if (!f.models.some((m) => m.name === name)) return `no model is named "${name}"`;
      f.models = f.models.filter((m) => m.name !== name);
      if (f.defaultModel === name) f.defaultModel = f.models[0]?.name ?? null;
      return null;
    });
    if (!r.ok) return r;
    await this.secrets.removeAll(secretId(name));
    this._onDidChange.fire({ reason: `removed ${name}` });
    return { ok: true, detail: `removed ${name}` };
  }

  async setDefault(name: string): Promise<Done> {
    const r = await this.update((f) => {
      if (!f.models.some((m) => m.name === name)) return `no model is named "${name}"`;
      f.defaultModel = name;
      return null;
    });
    if (!r.ok) return r;
    this._onDidChange.fire({ reason: `default ${name}` });
    return { ok: true, detail: `${name} is the default model` };
  }

  /** Read-modify-write under the file's lock; `change` answers why it refuses, or null. */
  private async update(change: (f: ModelsFile) => string | null): Promise<Outcome> {
    return withFileLock(this.file, () => {
      const current = ModelsFile.safeParse(readJson<unknown>(this.file, EMPTY));
      if (!current.success)
        return failure(
          'invalid_input',
          `${this.file} is not a models file this Plugboard reads: fix it or move it aside`,
        );
      const f = structuredClone(current.data);
      const why = change(f);
      if (why) return failure(why.startsWith('no model') ? 'not_found' : 'invalid_input', why);
      writeJsonAtomic(this.file, f, 0o600);
      return { ok: true };
    });
  }
}

/** What is wrong with a model's settings, or null. */
export function checkConfig(c: Pick<ModelConfig, 'provider' | 'baseURL' | 'model'> & { name?: string }): string | null {
  if (c.name !== undefined && !c.name.trim()) return 'the model needs a name';
  if (!c.model.trim()) return 'the model id is missing (for example llama3.2, gpt-4.1-mini or claude-sonnet-4-5)';
  if (c.provider === 'openai-compatible' && !c.baseURL?.trim())
    return 'an OpenAI-compatible server needs its base URL (for example http://127.0.0.1:11434/v1)';
  if (c.baseURL?.trim()) {
    let url: URL;
    try {
      url = new URL(c.baseURL.trim());
    } catch {
      return `the base URL "${c.baseURL}" is not a URL`;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return `the base URL must start with http:// or https:// (got ${url.protocol})`;
  }
  return null;
}
