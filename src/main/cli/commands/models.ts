/**
 * `plugboard models …`: the models the assistant answers with. Each subcommand is the contract's
 * command the app's Settings → Models sends (models.save, models.list, models.remove,
 * models.test), through the same back end with its input checked by the same schema. It never
 * opens the conversations: models.json is written under a file lock for sharing, so this works
 * while the app or `plugboard serve` holds the data directory, and it starts no plugin. `list`
 * shows the installed agent plugins too, which are models as well (`agent:<id>`).
 */
import { PROVIDER_KINDS, type AgentModelRow, type ModelsView } from '../../../shared/assistant';
import { parseInput } from '../../../shared/contract';
import { describeFailure, failure, isFailure, type Failure } from '../../../shared/failures';
import { checkConfig } from '../../assistant';
import type { Backend } from '../../service';
import { EXIT_FAILED, EXIT_OK, jsonLine, parse, UsageError, type Out } from '../io';
import type { CliEnv } from '../session';

const SUBCOMMANDS = ['add', 'list', 'remove', 'test'] as const;

export async function modelsCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      provider: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key-env': { type: 'string' },
      default: { type: 'boolean' },
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
    },
    { min: 1, max: 2, names: 'a command (add, list, remove, test)' },
  );
  const [sub, name] = positionals as [string, string | undefined];
  if (!(SUBCOMMANDS as readonly string[]).includes(sub)) throw new UsageError(`unknown models command "${sub}"`);
  const onlyFor = (flag: keyof typeof values, subs: readonly string[]): void => {
    if (values[flag] !== undefined && !subs.includes(sub))
      throw new UsageError(`--${flag} is for ${subs.map((s) => `models ${s}`).join(', ')}, not models ${sub}`);
  };
  for (const flag of ['provider', 'base-url', 'model', 'api-key-env', 'default'] as const) onlyFor(flag, ['add']);
  onlyFor('json', ['list']);
  if (sub === 'list' && name !== undefined) throw new UsageError(`unexpected argument "${name}"`);
  if (sub !== 'list' && name === undefined) throw new UsageError(`missing NAME: plugboard models ${sub} NAME`);

  // The back end loads once the arguments are known good.
  const { openForCommand } = await import('../backend');
  const app = await openForCommand(values['data-dir']);
  const { backend } = app;
  try {
    switch (sub) {
      case 'add':
        return await add(backend, env.out, name as string, values);
      case 'list': {
        const view = await backend.request('models.list', {});
        return isFailure(view) ? refused(env.out, view) : print(env.out, values.json === true, view);
      }
      case 'remove': {
        const r = await backend.request('models.remove', { name: name as string });
        return r.ok ? done(env.out, r.detail) : refused(env.out, r);
      }
      case 'test': {
        const r = await backend.request('models.test', { name: name as string });
        if (!r.ok) return refused(env.out, r);
        const some = r.models.length === 1 ? '1 model' : `${r.models.length} models`;
        return done(
          env.out,
          `${name} answered in ${r.latencyMs} ms; its server lists ${some}${r.models.length ? ` (${r.models.slice(0, 10).join(', ')}${r.models.length > 10 ? ', …' : ''})` : ''}`,
        );
      }
    }
  } finally {
    await app.close();
  }
  return EXIT_OK;
}

interface AddFlags {
  provider?: string | undefined;
  'base-url'?: string | undefined;
  model?: string | undefined;
  'api-key-env'?: string | undefined;
  default?: boolean | undefined;
}

async function add(backend: Backend, out: Out, name: string, flags: AddFlags): Promise<number> {
  const provider = flags.provider;
  if (provider === undefined) throw new UsageError(`missing --provider (${PROVIDER_KINDS.join(', ')})`);
  if (!(PROVIDER_KINDS as readonly string[]).includes(provider))
    throw new UsageError(`--provider must be one of ${PROVIDER_KINDS.join(', ')}, got "${provider}"`);
  const kind = provider as (typeof PROVIDER_KINDS)[number];
  const baseURL = flags['base-url'] ?? null;
  // The store says the same, but a bad flag is a usage error (exit 2), not a refusal.
  const problem = checkConfig({ name, provider: kind, baseURL, model: flags.model ?? '?' });
  if (problem)
    throw new UsageError(
      problem
        .replace(/^an OpenAI-compatible server needs its base URL/, 'an OpenAI-compatible server needs --base-url')
        .replace(/^the model id is missing/, '--model is empty'),
    );
  const apiKey = flags['api-key-env'] !== undefined ? keyFromEnv(flags['api-key-env']) : undefined;
  let model = flags.model;
  if (model === undefined) {
    const found = await onlyModel(backend, kind, baseURL, apiKey);
    if (!found.ok) return refused(out, found);
    model = found.model;
  }
  const input = parseInput('models.save', {
    name,
    provider,
    baseURL,
    model,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(flags.default ? { makeDefault: true } : {}),
  });
  if (!input.ok) throw new UsageError(input.message);
  const r = await backend.request('models.save', input.value);
  if (!r.ok) return refused(out, r);
  const view = await backend.request('models.list', {});
  const isDefault = !isFailure(view) && view.defaultModel === input.value.name;
  return done(
    out,
    `${r.detail}${flags.model === undefined ? ` (${model}, the only model its server lists)` : ''}${isDefault ? '; the default model' : ''}`,
  );
}

/**
 * Without --model: the model the server lists, when it lists exactly one (a local server with
 * one model loaded, typically). Several are named so the person can pick; none, or an
 * unreachable server, is a refusal that says to give --model.
 */
async function onlyModel(
  backend: Backend,
  provider: (typeof PROVIDER_KINDS)[number],
  baseURL: string | null,
  apiKey: string | undefined,
): Promise<{ ok: true; model: string } | Failure> {
  const r = await backend.request('models.test', { provider, baseURL, ...(apiKey !== undefined ? { apiKey } : {}) });
  if (!r.ok)
    return {
      ...r,
      message: `${r.message} (without --model, the model is asked of the server; give --model ID to add it anyway)`,
    };
  if (r.models.length === 1) return { ok: true, model: r.models[0] as string };
  if (r.models.length === 0)
    return failure('invalid_input', 'missing --model ID: the server lists no model to pick from');
  const shown = r.models.slice(0, 20).join(', ');
  throw new UsageError(
    `missing --model ID: the server lists ${r.models.length} models, name one (${shown}${r.models.length > 20 ? ', …' : ''})`,
  );
}

/** The key, read once from the variable named; it is never printed, and a missing one is named. */
function keyFromEnv(variable: string): string {
  const value = process.env[variable];
  if (value === undefined) throw new UsageError(`--api-key-env: the environment variable ${variable} is not set`);
  if (value.trim() === '') throw new UsageError(`--api-key-env: the environment variable ${variable} is empty`);
  return value.trim();
}

function table(out: Out, head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  for (const r of [head, ...rows])
    out.stdout(`${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ')}\n`);
}

function print(out: Out, json: boolean, listed: ModelsView & { agents: AgentModelRow[] }): number {
  // The configured models; the agent plugins, which models.list counts among them, are listed apart.
  const { agents, ...all } = listed;
  const view: ModelsView = { ...all, models: all.models.filter((m) => m.provider !== 'agent-plugin') };
  if (json) {
    jsonLine(out, { ...view, agents });
    return EXIT_OK;
  }
  if (view.models.length === 0) {
    out.stdout(
      'No model is configured. Add one: plugboard models add NAME --provider openai-compatible --base-url http://127.0.0.1:11434/v1 --model llama3.2\n',
    );
  } else {
    const rows = view.models.map((m) => [
      `${m.isDefault ? '*' : ' '} ${m.name}`,
      m.provider,
      m.model,
      m.baseURL ?? '(the provider’s)',
      m.hasKey ? 'yes' : 'no',
    ]);
    table(out, ['  NAME', 'PROVIDER', 'MODEL', 'BASE URL', 'KEY'], rows);
    out.stdout(`(* the default; keys are kept in ${view.keyStore})\n`);
  }
  if (agents.length > 0) {
    out.stdout('\nAgent plugins, models too (plugboard chat --model NAME):\n');
    table(
      out,
      ['  NAME', 'KIND', 'PLUGIN', 'AVAILABLE'],
      agents.map((a) => [`  ${a.name}`, a.kind, a.title, a.available ? 'yes' : `no: ${a.reason ?? ''}`]),
    );
  }
  return EXIT_OK;
}

function done(out: Out, line: string): number {
  out.stdout(`${line}\n`);
  return EXIT_OK;
}

function refused(out: Out, f: Failure): number {
  out.stderr(`${describeFailure(f)}\n`);
  return EXIT_FAILED;
}
