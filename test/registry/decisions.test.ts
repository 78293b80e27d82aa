/**
 * The user's decisions about plugins (exposure, enablement, grants, settings): applied at once
 * to running plugins, enforced by the host where it can, persisted across a restart of the
 * process, and kept when two writers change them at the same moment.
 */
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrich } from '../../src/main/assistant/enrichment';
import { autoApprovedTools, exposedDeclarations, exposedUserCommands } from '../../src/main/assistant/tools';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { expectFailure } from '../helpers/calls';
import { cleanupFixtures, FIXTURES, fixturePlugin, REPO, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';

let data: string;
let registry: PluginRegistry;

beforeAll(async () => {
  data = path.join(tmpDir('decisions'), 'data');
  registry = await PluginRegistry.open({
    dataDir: data,
    bundledDir: path.join(REPO, 'plugins'),
    env: { PLUGBOARD_TEST_RUN: String(process.pid) },
  });
  // The rterm fixture imports the shared fixture lib relatively: install a self-contained copy.
  const rterm = path.join(tmpDir('rterm-copy'), 'rterm-echo');
  cpSync(path.join(FIXTURES, 'rterm-echo'), rterm, { recursive: true });
  cpSync(path.join(FIXTURES, 'lib', 'rterm.mjs'), path.join(rterm, 'plugin.mjs'));
  for (const [dir, grant] of [
    [path.join(FIXTURES, 'gassist-python'), 'requested'],
    [rterm, 'requested'],
    [path.join(FIXTURES, 'mcpb-echo'), 'none'],
  ] as const) {
    const r = await registry.installer.install(dir, { grant });
    expect(r.ok).toBe(true);
  }
  const enricher = fixturePlugin({
    script: 'jsonrpc',
    id: 'enricher',
    manifest: {
      prompt_enrichment: true,
      functions: [
        { name: 'enrich_prompt', parameters: { type: 'object', properties: { prompt: { type: 'string' } } } },
        { name: 'echo' },
      ],
      user_commands: [{ name: 'echo', description: 'Echo back', share_with_model: true }],
      auto_approved_tools: ['echo'],
      system_instructions: 'Use echo to repeat things.',
    },
  });
  // fixture plugins import the shared lib relatively: install a self-contained copy
  writeFileSync(path.join(enricher, 'plugin.mjs'), readFileSync(path.join(FIXTURES, 'lib', 'jsonrpc.mjs')));
  expect((await registry.installer.install(enricher)).ok).toBe(true);
});

afterAll(async () => {
  await registry.shutdown();
  registry.dispose();
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
});

describe('exposure and enablement', () => {
  it('refuses an unexposed tool with tool_not_exposed before any process starts, and applies at once', async () => {
    await registry.decisions.setExposed('gassist-python', 'say_hello', false);
    const f = expectFailure(await registry.call('gassist-python', 'say_hello', {}).done);
    expect(f).toEqual(
      expect.objectContaining({ code: 'tool_not_exposed', message: 'gassist-python:say_hello is switched off' }),
    );
    expect(registry.host.healthOf('gassist-python')?.pid).toBeNull();
    await registry.decisions.setExposed('gassist-python', 'say_hello', true);
    expect((await registry.call('gassist-python', 'say_hello', { name: 'again' }).done).ok).toBe(true);
  });

  it('counts exposed tools per plugin, and unexposes a whole plugin', async () => {
    await registry.decisions.setExposed('rterm-echo', 'upper', false);
    const tools = registry.tools('rterm-echo');
    expect(tools.filter((t) => t.exposed).length).toBe(tools.length - 1);
    await registry.decisions.setExposed('rterm-echo', undefined, false);
    expect(expectFailure(await registry.call('rterm-echo', 'echo', { text: 'x' }).done).code).toBe('tool_not_exposed');
    await registry.decisions.setExposed('rterm-echo', undefined, true);
    await registry.decisions.setExposed('rterm-echo', 'upper', true);
  });

  it('never starts a disabled plugin', async () => {
    await registry.decisions.setEnabled('gassist-python', false);
    expect(registry.host.healthOf('gassist-python')?.state).toBe('disabled');
    const f = expectFailure(await registry.call('gassist-python', 'say_hello', {}).done);
    expect(f.message).toMatch(/is disabled/);
    await registry.decisions.setEnabled('gassist-python', true);
    expect((await registry.call('gassist-python', 'say_hello', {}).done).ok).toBe(true);
  });
});

describe('capability grants', () => {
  it('gives the conversation only with conversation.read', async () => {
    const ctx = [{ role: 'user', content: 'secret plans' }];
    const seen = async () => {
      const o = await registry.call('gassist-python', 'echo_context', {}, { context: ctx }).done;
      return o.ok ? (o.value.data as { context: unknown }).context : o;
    };
    expect(await seen()).toEqual(ctx);
    await registry.decisions.revoke('gassist-python', ['conversation.read']);
    expect(await seen()).toEqual([]);
    await registry.decisions.grant('gassist-python', ['conversation.read']);
  });

  it('keeps a passthrough session only with passthrough', async () => {
    await registry.decisions.revoke('gassist-python', ['passthrough']);
    const first = await registry.call('gassist-python', 'start_conversation', {}).done;
    expect(first).toEqual({ ok: true, value: expect.objectContaining({ keepSession: true }) });
    expect(registry.host.passthroughSessions().some((s) => s.pluginId === 'gassist-python')).toBe(false);
    await registry.decisions.grant('gassist-python', ['passthrough']);
    await registry.call('gassist-python', 'start_conversation', {}).done;
    expect(registry.host.passthroughSessions().some((s) => s.pluginId === 'gassist-python')).toBe(true);
    registry.host.endPassthrough('gassist-python');
  });

  it('refuses an rterm handshake that asks for more than was granted (capability_not_allowed)', async () => {
    expect((await registry.call('rterm-echo', 'echo', { text: 'ok' }).done).ok).toBe(true);
    await registry.decisions.revoke('rterm-echo', ['fs.read']);
    const f = expectFailure(await registry.call('rterm-echo', 'echo', { text: 'x' }).done);
    expect(f.code).toBe('capability_not_allowed');
    expect(f.message).toMatch(/requests capability "fs\.read", which is not allowed for it \(allowed: none\)/);
    await registry.decisions.grant('rterm-echo', ['fs.read']);
    expect((await registry.call('rterm-echo', 'echo', { text: 'ok' }).done).ok).toBe(true);
  });

  it('withholds sensitive settings without secrets, and keeps them out of the settings file', async () => {
    await registry.decisions.configure('mcpb-echo', { greeting: 'Ahoy', token: 'hunter2' });
    const state = readFileSync(path.join(data, 'state.json'), 'utf8');
    expect(state).toContain('Ahoy');
    expect(state).not.toContain('hunter2');
    expect(statSync(path.join(data, 'secrets.json')).mode & 0o777).toBe(0o600);
    const without = await registry.call('mcpb-echo', 'whoami', {}).done;
    expect(without.ok && without.value.data).toEqual(expect.objectContaining({ greeting: 'Ahoy', hasToken: false }));
    await registry.decisions.grant('mcpb-echo', ['secrets']);
    const withIt = await registry.call('mcpb-echo', 'whoami', {}).done;
    expect(withIt.ok && withIt.value.data).toEqual(expect.objectContaining({ hasToken: true }));
  });

  it('refuses to grant what a plugin does not request', async () => {
    const r = await registry.decisions.grant('gassist-python', ['net']);
    expect(r).toEqual({
      ok: false,
      code: 'invalid_input',
      message: 'gassist-python does not request net (it requests: conversation.read, passthrough)',
    });
  });
});

describe('settings', () => {
  it('checks values against their type, naming the setting', async () => {
    expect(await registry.decisions.configure('files', { roots: ['/no/such/dir'] })).toEqual({
      ok: false,
      code: 'invalid_input',
      message: 'roots: /no/such/dir does not exist',
    });
    expect(await registry.decisions.configure('files', { colour: 'red' })).toEqual({
      ok: false,
      code: 'invalid_input',
      message: expect.stringMatching(/files has no setting "colour" \(it has: roots/),
    });
    expect((await registry.decisions.configure('files', { roots: [data] })).ok).toBe(true);
  });

  it('names a missing required setting before launch', async () => {
    await registry.decisions.configure('files', { roots: null });
    const f = expectFailure(await registry.call('files', 'list', { path: '/' }).done);
    expect(f.code).toBe('settings_missing');
    expect(f.message).toMatch(/required settings are not set: roots \(Shared folders\)/);
  });
});

describe('what the assistant gets from the registry', () => {
  it('declares exposed tools with their schemas, and nothing of unexposed ones', async () => {
    await registry.decisions.setExposed('rterm-echo', 'upper', false);
    const decl = exposedDeclarations(registry);
    const names = decl.map((d) => d.qualifiedName);
    expect(names).toContain('rterm_echo__echo');
    expect(names).not.toContain('rterm_echo__upper');
    expect(decl.find((d) => d.qualifiedName === 'rterm_echo__echo')?.parameters).toEqual(
      expect.objectContaining({ required: ['text'] }),
    );
    // a user command is not a model tool
    expect(names).not.toContain('enricher__echo');
    await registry.decisions.setExposed('rterm-echo', 'upper', true);
  });

  it('lists user commands, auto-approved tools and system instructions', () => {
    expect(exposedUserCommands(registry)).toContainEqual({
      plugin: 'enricher',
      name: 'echo',
      description: 'Echo back',
      shareWithModel: true,
    });
    // An installed plugin's own auto_approved_tools is its claim, shown as a hint: the person is
    // still asked (issue 18); a bundled plugin's read-only tools run unasked.
    expect(autoApprovedTools(registry)).not.toContain('enricher__echo');
    expect(registry.decisions.toolPolicy('enricher', 'echo').policy).toBe('ask');
    expect(autoApprovedTools(registry)).toContain('hello__say_hello');
    expect(registry.instructions('enricher')).toBe('Use echo to repeat things.');
  });

  it('runs the prompt through the enrichers, and does not offer the enricher function as a tool', async () => {
    const r = await enrich(registry, 'plan my day', new AbortController().signal);
    expect(r.prompt).toBe('plan my day [with context from enricher]');
    expect(r.steps).toEqual([
      { plugin: 'enricher', ok: true, note: 'added context', added: '[with context from enricher]' },
    ]);
    expect(exposedDeclarations(registry).map((d) => d.qualifiedName)).not.toContain('enricher__enrich_prompt');
  });
});

describe('persistence', () => {
  it('survives a restart of the process', async () => {
    await registry.decisions.setExposed('gassist-python', 'count_slowly', false);
    await registry.decisions.setEnabled('enricher', false);
    const again = await PluginRegistry.open({ dataDir: data, bundledDir: path.join(REPO, 'plugins') });
    try {
      expect(again.isExposed('gassist-python', 'count_slowly')).toBe(false);
      expect(again.isEnabled('enricher')).toBe(false);
      expect(again.decisions.pluginState('mcpb-echo').grants).toEqual(['secrets']);
      expect(await again.settings.launchValues('mcpb-echo', again.record('mcpb-echo')?.spec?.settings ?? [])).toEqual({
        greeting: 'Ahoy',
        token: 'hunter2',
      });
    } finally {
      await again.shutdown();
      again.dispose();
    }
    await registry.decisions.setEnabled('enricher', true);
  });

  it('keeps both changes when two processes write at once', async () => {
    const cli = (args: string[]) =>
      new Promise<number>((resolve) => {
        const c = spawn(
          process.execPath,
          [path.join(REPO, 'bin', 'plugboard.mjs'), 'plugins', ...args, '--data-dir', data],
          { stdio: 'ignore' },
        );
        c.on('close', (code) => resolve(code ?? -1));
      });
    const codes = await Promise.all([
      cli(['unexpose', 'rterm-echo:upper']),
      cli(['unexpose', 'gassist-python:say_hello']),
      cli(['config', 'mcpb-echo', 'greeting=Howdy']),
      cli(['disable', 'hello']),
      cli(['revoke', 'terminal', 'passthrough']),
    ]);
    expect(codes).toEqual([0, 0, 0, 0, 0]);
    const state = JSON.parse(readFileSync(path.join(data, 'state.json'), 'utf8'));
    expect(state.plugins['rterm-echo'].tools.upper).toBe(false);
    expect(state.plugins['gassist-python'].tools.say_hello).toBe(false);
    expect(state.plugins['mcpb-echo'].settings.greeting).toBe('Howdy');
    expect(state.plugins.hello.enabled).toBe(false);
    expect(state.plugins.terminal.grants).toEqual(['process.spawn']);
    // and this process sees them without a restart
    expect(registry.isExposed('rterm-echo', 'upper')).toBe(false);
    expect(registry.isEnabled('hello')).toBe(false);
  });
});
