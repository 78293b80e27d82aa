/**
 * `plugboard models add|list|test|remove` as a person runs them: the API key read from an
 * environment variable into the secret store and nowhere else, the default model, a test that
 * reaches the scripted model server (it plays the model: none can run here) or says why not,
 * refusals (exit 1) and usage errors (exit 2).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { ModelServer } from '../model-server/server';
import { pbIn } from './chat-helpers';

const KEY = 'sk-scripted-0123456789abcdef';
let data: string;
let server: ModelServer;
const pb = (args: string[], env?: Record<string, string>) => pbIn(data, args, env);

beforeAll(async () => {
  data = path.join(tmpDir('cli-models'), 'data');
  server = await ModelServer.start({ apiKey: KEY, models: ['scripted-model', 'other-model'] });
});
afterAll(async () => {
  await server.close();
  cleanupFixtures();
});

describe('plugboard models', () => {
  it('adds a model with its key read from an environment variable, kept in the secret store only', async () => {
    const add = await pb(
      [
        'models',
        'add',
        'Scripted',
        '--provider',
        'openai-compatible',
        '--base-url',
        server.baseURL,
        '--model',
        'scripted-model',
        '--api-key-env',
        'PB_TEST_KEY',
      ],
      { PB_TEST_KEY: KEY },
    );
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toMatch(/^saved Scripted \(its key in .*secrets\.json.*\); the default model\n$/);
    const secrets = path.join(data, 'secrets.json');
    expect(JSON.parse(readFileSync(secrets, 'utf8'))).toEqual({ 'model:Scripted': { apiKey: KEY } });
    expect(statSync(secrets).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(data, 'models.json'), 'utf8')).not.toContain(KEY);

    const second = await pb([
      'models',
      'add',
      'Claude',
      '--provider',
      'anthropic',
      '--model',
      'claude-sonnet-4-5',
      '--default',
    ]);
    expect(second.code, second.stderr).toBe(0);
    const list = await pb(['models', 'list', '--json']);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain(KEY);
    expect(list.lines).toEqual([
      {
        models: [
          {
            name: 'Scripted',
            provider: 'openai-compatible',
            baseURL: server.baseURL,
            model: 'scripted-model',
            hasKey: true,
            isDefault: false,
          },
          {
            name: 'Claude',
            provider: 'anthropic',
            baseURL: null,
            model: 'claude-sonnet-4-5',
            hasKey: false,
            isDefault: true,
          },
        ],
        defaultModel: 'Claude',
        keyStore: expect.stringContaining(secrets),
        // No agent plugin is installed here (test/cli/models-agents.test.ts lists them).
        agents: [],
      },
    ]);
    const text = await pb(['models', 'list']);
    expect(text.stdout).not.toContain(KEY);
    expect(text.stdout.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(/^ {2}NAME +PROVIDER +MODEL +BASE URL +KEY$/),
      expect.stringMatching(/^ {2}Scripted +openai-compatible +scripted-model +http:\/\/127\.0\.0\.1:\d+\/v1 +yes$/),
      expect.stringMatching(/^\* Claude +anthropic +claude-sonnet-4-5 +\(the provider’s\) +no$/),
    ]);
  });

  it('tests a model: the latency and the models its server lists, with the stored key', async () => {
    const r = await pb(['models', 'test', 'Scripted']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^Scripted answered in \d+ ms; its server lists 2 models \(scripted-model, other-model\)\n$/,
    );
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('says precisely why a test failed, and exits 1', async () => {
    const wrong = await pb(
      [
        'models',
        'add',
        'Wrong key',
        '--provider',
        'openai',
        '--base-url',
        server.baseURL,
        '--model',
        'scripted-model',
        '--api-key-env',
        'PB_TEST_KEY',
      ],
      { PB_TEST_KEY: 'sk-wrong-key-000000' },
    );
    expect(wrong.code).toBe(0);
    const refused = await pb(['models', 'test', 'Wrong key']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^model_refused: Wrong key \(http:\/\/127\.0\.0\.1:\d+\/v1\) refused the API key \(401\)/,
    );
    expect(refused.stderr).not.toContain('sk-wrong-key');
    const missing = await pb(
      [
        'models',
        'add',
        'Missing model',
        '--provider',
        'openai-compatible',
        '--base-url',
        server.baseURL,
        '--model',
        'gone',
        '--api-key-env',
        'PB_TEST_KEY',
      ],
      { PB_TEST_KEY: KEY },
    );
    expect(missing.code).toBe(0);
    const gone = await pb(['models', 'test', 'Missing model']);
    expect([gone.code, gone.stderr]).toEqual([
      1,
      expect.stringMatching(/has no model "gone" \(it has: scripted-model, other-model\)/),
    ]);
    const unknown = await pb(['models', 'test', 'Nobody']);
    expect([unknown.code, unknown.stderr]).toEqual([1, 'not_found: no model is named "Nobody"\n']);
  });

  it('refuses a name in use (exit 1)', async () => {
    const taken = await pb(['models', 'add', 'Scripted', '--provider', 'openai', '--model', 'x']);
    expect([taken.code, taken.stderr]).toEqual([
      1,
      expect.stringMatching(/^invalid_input: a model named "Scripted" exists already/),
    ]);
  });

  // One CLI run per case: each has the test's whole deadline, however busy the machine is.
  it.each<[string[], RegExp, Record<string, string>?]>([
    [['models', 'add', 'A', '--model', 'x'], /missing --provider \(openai-compatible, openai, anthropic\)/],
    [
      ['models', 'add', 'A', '--provider', 'ollama', '--model', 'x'],
      /--provider must be one of openai-compatible, openai, anthropic, got "ollama"/,
    ],
    // <server>: the scripted server's base URL, known once it runs.
    [
      [
        'models',
        'add',
        'A',
        '--provider',
        'openai-compatible',
        '--base-url',
        '<server>',
        '--api-key-env',
        'PB_TEST_KEY',
      ],
      /missing --model ID: the server lists 2 models, name one \(scripted-model, other-model\)/,
      { PB_TEST_KEY: KEY },
    ],
    [['models', 'add', 'A', '--provider', 'openai', '--model', ''], /--model is empty/],
    [
      ['models', 'add', 'A', '--provider', 'openai-compatible', '--model', 'x'],
      /an OpenAI-compatible server needs --base-url/,
    ],
    [
      ['models', 'add', 'A', '--provider', 'openai', '--model', 'x', '--base-url', 'ftp://host'],
      /the base URL must start with http:\/\/ or https:\/\//,
    ],
    [
      ['models', 'add', 'A', '--provider', 'openai', '--model', 'x', '--api-key-env', 'PB_NOT_SET_ANYWHERE'],
      /--api-key-env: the environment variable PB_NOT_SET_ANYWHERE is not set/,
    ],
    [
      ['models', 'add', 'A', '--provider', 'openai', '--model', 'x', '--api-key-env', 'PB_EMPTY'],
      /--api-key-env: the environment variable PB_EMPTY is empty/,
      { PB_EMPTY: '' },
    ],
    [['models', 'list', '--provider', 'openai'], /--provider is for models add, not models list/],
    [['models', 'remove'], /missing NAME: plugboard models remove NAME/],
    [['models', 'rename', 'A'], /unknown models command "rename"/],
    [['models', 'list', '--verbose'], /Unknown option '--verbose'/],
  ])('exits 2 on a bad flag, naming what was wrong: %s', async (args, message, env) => {
    const r = await pb(
      args.map((a) => (a === '<server>' ? server.baseURL : a)),
      env,
    );
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(message)]);
    // Nothing was added by a refused command.
    expect((await pb(['models', 'list', '--json'])).lines[0]?.models).not.toContainEqual(
      expect.objectContaining({ name: 'A' }),
    );
  });

  // Five CLI runs, one of them waiting for a refused connection: a longer deadline on a busy machine.
  it('without --model, takes the only model its server lists, and says so; an unreachable server is named', async () => {
    const single = await ModelServer.start({ models: ['only-model'] });
    try {
      const r = await pb(['models', 'add', 'Single', '--provider', 'openai-compatible', '--base-url', single.baseURL]);
      expect([r.code, r.stdout], r.stderr).toEqual([
        0,
        expect.stringContaining('(only-model, the only model its server lists)'),
      ]);
      expect((await pb(['models', 'list', '--json'])).lines[0]?.models).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'Single', model: 'only-model' })]),
      );
    } finally {
      await single.close();
    }
    // The same server, gone: nothing is added, and the error says to give --model.
    const gone = await pb(['models', 'add', 'Gone', '--provider', 'openai-compatible', '--base-url', single.baseURL]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^model_unreachable: .*give --model ID to add it anyway\)/);
    expect((await pb(['models', 'list', '--json'])).lines[0]?.models).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Gone' })]),
    );
    expect((await pb(['models', 'remove', 'Single'])).code).toBe(0);
  }, 90_000);

  it('removes a model with its key', async () => {
    const r = await pb(['models', 'remove', 'Scripted']);
    expect([r.code, r.stdout]).toEqual([0, 'removed Scripted\n']);
    expect(JSON.parse(readFileSync(path.join(data, 'secrets.json'), 'utf8'))).not.toHaveProperty(['model:Scripted']);
    expect((await pb(['models', 'list', '--json'])).lines[0]?.models).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ name: 'Scripted' })]),
    );
    const again = await pb(['models', 'remove', 'Scripted']);
    expect([again.code, again.stderr]).toEqual([1, 'not_found: no model is named "Scripted"\n']);
  });

  it('lists no model in a fresh data directory, and says how to add one', async () => {
    const fresh = path.join(tmpDir('cli-models-none'), 'data');
    const r = await pbIn(fresh, ['models', 'list']);
    expect([r.code, r.stdout]).toEqual([
      0,
      expect.stringMatching(/^No model is configured\. Add one: plugboard models add NAME --provider/),
    ]);
    expect(existsSync(path.join(fresh, 'models.json'))).toBe(false);
  });
});
