/**
 * MCP Apps through the contract, over a real registry, a real `plugboard serve` (its frame
 * origin included) and real MCP servers in the sandbox: the official example App server
 * `@modelcontextprotocol/server-basic-vanillajs` from the npm registry, and our hostile App
 * (test/fixtures/mcp-app-hostile). What a person would check: the client says it shows Apps, a
 * tool's App and its result reach the card (and its text, for hosts without a frame), the page is
 * served on another origin with the policy its resource declared (Plugboard's own address taken
 * out), an App's tool calls are decided as a model's (an approval card, allowed, denied, or
 * settled with no card), and nothing of it exists for a plugin that does not speak MCP.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exposedDeclarations } from '../../src/main/assistant';
import type { BackendEvent } from '../../src/main/service/backend';
import type { ChatMessage } from '../../src/shared/contract';
import { appServerPlugin } from '../helpers/app-servers';
import { finalMessage, serveApp, type ServedApp } from '../helpers/app';
import { plugboard } from '../helpers/cli';
import { cleanupFixtures, FIXTURES, fixturePlugin } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';

let app: ServedApp;
const events: BackendEvent[] = [];
let conversationId: string;

beforeAll(async () => {
  const vanilla = appServerPlugin('basic-vanillajs');
  app = await serveApp('apps');
  app.backend.onDidEvent((e) => events.push(e));
  for (const dir of [
    vanilla,
    path.join(FIXTURES, 'mcp-app-hostile'),
    fixturePlugin({ script: 'gassist', id: 'plain' }),
  ]) {
    const r = await app.registry.installer.install(dir);
    expect(r.ok, JSON.stringify(r)).toBe(true);
  }
  for (const id of ['app-basic-vanillajs', 'mcp-app-hostile'])
    expect(await app.registry.start(id)).toMatchObject({ ok: true });
  conversationId = (await app.backend.invoke('chat.create', {})).id;
}, 300_000);

afterAll(async () => {
  await app?.close();
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
});

/** Calls a tool as the person does (the palette) and waits for its card's end. */
async function invoke(plugin: string, tool: string, args: Record<string, unknown> = {}): Promise<ChatMessage> {
  const r = await app.backend.invoke('chat.invoke', { conversationId, plugin, tool, args });
  if (!r.ok) throw new Error(r.message);
  return finalMessage(app.backend, r.turnId);
}

/** The next card an App's call shows, once it asks the person. */
function nextPendingCard(): Promise<ChatMessage> {
  return new Promise((resolve) => {
    const sub = app.backend.onDidEvent((e) => {
      if (e.name !== 'chat.turn' || e.payload.type !== 'start') return;
      const m = e.payload.message;
      if (m.call?.fromApp && m.call.approval.state === 'pending') {
        sub.dispose();
        resolve(m);
      }
    });
  });
}

describe('an App tool', () => {
  it('is announced with its App, and the client told the server it shows Apps', async () => {
    const tools = app.registry.tools('app-basic-vanillajs');
    expect(tools.find((t) => t.name === 'get-time')?.ui).toEqual({ resourceUri: 'ui://get-time/mcp-app.html' });
    const caps = await invoke('mcp-app-hostile', 'client-capabilities');
    // Apps, beside the 2026 tasks extension the client also speaks.
    expect(JSON.parse(caps.text).extensions).toEqual({
      'io.modelcontextprotocol/tasks': {},
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
    });
  });

  it('ends in a card with the App and the result as the server gave it, and its text for a host without a frame', async () => {
    const m = await invoke('app-basic-vanillajs', 'get-time');
    expect(m.status).toBe('done');
    expect(m.app?.resourceUri).toBe('ui://get-time/mcp-app.html');
    const result = m.app?.result as { content: Array<{ text: string }>; structuredContent: { time: string } };
    expect(result.structuredContent.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The card's text is the result's text content (what a model and the CLI get), not its structured content.
    expect(m.text).toBe(result.content[0]?.text);
    expect(m.result).toBeUndefined();
    // Stored so: the App comes back after a reload from what the conversation kept.
    const kept = (await app.backend.invoke('chat.get', { id: conversationId }))?.messages.find((x) => x.id === m.id);
    expect(kept?.app).toEqual(m.app);
  });

  it('is framed from another origin, with the strict policy where the resource declares nothing', async () => {
    const m = await invoke('app-basic-vanillajs', 'get-time');
    const r = await app.backend.invoke('apps.open', { conversationId, messageId: m.id });
    if (!r.ok) throw new Error(r.message);
    const page = new URL(r.app.url);
    const own = new URL(app.server.url);
    expect(page.origin).not.toBe(own.origin);
    expect(page.hostname).toBe('127.0.0.1');
    const res = await fetch(r.app.url);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).not.toContain("'self'");
    expect(await res.text()).toContain('Get Server Time');
    // The frame origin serves App pages and nothing else: not the UI, not a guessed page.
    expect((await fetch(`${page.origin}/`)).status).toBe(404);
    expect((await fetch(`${page.origin}/app/${'0'.repeat(32)}`)).status).toBe(404);
    // The page itself may frame that origin only.
    const ui = await fetch(`${own.origin}/`);
    expect(ui.headers.get('content-security-policy')).toContain(`frame-src ${page.origin}`);
  });

  it('keeps the origins a resource declares, but never Plugboard’s own address', async () => {
    const m = await invoke('mcp-app-hostile', 'probe', { host: 'http://127.0.0.1:1', token: 'x' });
    const r = await app.backend.invoke('apps.open', { conversationId, messageId: m.id });
    if (!r.ok) throw new Error(r.message);
    expect(r.app.csp.connectDomains).toEqual(['https://api.example.com']);
    expect(r.app.refused.map((x) => x.source)).toEqual([
      'http://127.0.0.1:*',
      'ws://127.0.0.1:*',
      'http://localhost:*',
    ]);
    const csp = (await fetch(r.app.url)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain('connect-src https://api.example.com;');
    expect(csp).not.toContain('127.0.0.1');
    expect(csp).not.toContain('localhost');
  });
});

describe('an App’s tool calls', () => {
  let shown: ChatMessage;
  beforeAll(async () => {
    shown = await invoke('app-basic-vanillajs', 'get-time');
  });
  const call = (tool: string, args: Record<string, unknown> = {}, messageId = shown.id) =>
    app.backend.invoke('apps.call', { conversationId, messageId, tool, args });

  it('asks the person with an approval card where its policy asks, and runs once allowed', async () => {
    await app.registry.decisions.setToolPolicy('app-basic-vanillajs', 'get-time', 'ask');
    const card = nextPendingCard();
    const result = call('get-time');
    const m = await card;
    expect(m.call?.fromApp).toBe(shown.id);
    expect(m.tool).toBe('get-time');
    expect(await app.backend.invoke('chat.approve', { callId: m.call?.id as string, decision: 'once' })).toMatchObject({
      ok: true,
    });
    const r = await result;
    if (!r.ok) throw new Error(r.message);
    expect((r.result.structuredContent as { time: string }).time).toMatch(/^\d{4}-/);
  });

  it('is refused when the person denies it, and the App is told', async () => {
    const card = nextPendingCard();
    const result = call('get-time');
    const m = await card;
    await app.backend.invoke('chat.approve', { callId: m.call?.id as string, decision: 'deny' });
    expect(await result).toMatchObject({ ok: false, code: 'cancelled', message: 'the person denied this call' });
  });

  it('runs without a card where its policy allows it, and is audited as the App’s', async () => {
    await app.registry.decisions.setToolPolicy('app-basic-vanillajs', 'get-time', 'allow');
    const before = events.filter((e) => e.name === 'chat.turn' && e.payload.type === 'start').length;
    const r = await call('get-time');
    expect(r, JSON.stringify(r)).toMatchObject({ ok: true });
    expect(events.filter((e) => e.name === 'chat.turn' && e.payload.type === 'start').length).toBe(before);
    const { readFileSync } = await import('node:fs');
    const audit = readFileSync(app.registry.paths.audit, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit.at(-1)).toMatchObject({
      action: 'app-call',
      plugin: 'app-basic-vanillajs',
      tool: 'get-time',
      ok: true,
    });
  });

  it('reaches its own server only, and only tools its App may call, with arguments that fit', async () => {
    const hostile = await invoke('mcp-app-hostile', 'probe', { host: 'http://127.0.0.1:1', token: 'x' });
    // Another plugin's tool, by name: the App's server has none such.
    expect(await call('count', { n: 1 }, hostile.id)).toMatchObject({ ok: false, code: 'tool_not_exposed' });
    // A tool whose visibility is the model's only.
    expect(await call('secret', {}, hostile.id)).toMatchObject({
      ok: false,
      code: 'tool_not_exposed',
      message: 'mcp-app-hostile:secret is for the model only: its App may not call it',
    });
    expect(await call('probe', { host: 3 }, hostile.id)).toMatchObject({ ok: false, code: 'invalid_arguments' });
    // A message that shows no App cannot make calls.
    const plain = await invoke('plain', 'echo', { text: 'hi' });
    expect(plain.app).toBeUndefined();
    expect(await call('get-time', {}, plain.id)).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('reach a tool only the App may call, which no model and no palette is offered', async () => {
    const hostile = await invoke('mcp-app-hostile', 'probe', { host: 'http://127.0.0.1:1', token: 'x' });
    await app.registry.decisions.setToolPolicy('mcp-app-hostile', 'refresh', 'allow');
    const r = await call('refresh', {}, hostile.id);
    expect(r).toMatchObject({ ok: true, result: { structuredContent: { refreshed: true } } });
    const offered = exposedDeclarations(app.registry).map((d) => `${d.plugin}:${d.tool}`);
    expect(offered).toContain('mcp-app-hostile:probe');
    expect(offered).toContain('mcp-app-hostile:secret');
    expect(offered).not.toContain('mcp-app-hostile:refresh');
    const palette = await app.backend.invoke('palette.list', {});
    expect(palette.some((e) => e.plugin === 'mcp-app-hostile' && e.name === 'refresh')).toBe(false);
  });
});

describe('a plugin that does not speak MCP', () => {
  it('never has an App', async () => {
    const m = await invoke('plain', 'echo', { text: 'hi' });
    expect(m.app).toBeUndefined();
    expect(await app.backend.invoke('apps.open', { conversationId, messageId: m.id })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(app.registry.tools('plain').every((t) => t.ui === undefined)).toBe(true);
  });
});

describe('a host without a frame (the CLI)', () => {
  it('shows an App tool’s text content', async () => {
    const r = await plugboard(['call', appServerPlugin('basic-vanillajs'), 'get-time'], { timeoutMs: 120_000 });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    // The text the server gives hosts without Apps, not the structured content the App reads.
    expect(r.stdout.trim()).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/m);
    expect(r.stdout).not.toContain('"time"');
  });
});
