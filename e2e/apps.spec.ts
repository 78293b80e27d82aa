/**
 * MCP Apps in the web UI, end to end: the official example App servers from the npm registry
 * (test/helpers/app-servers.ts), installed into a real `plugboard serve` and sandboxed, render in
 * their tool cards in Debian's Chromium; an App's own tool call goes through an approval card and
 * updates the App; the App is back after a reload; links and messages wait for the person; and a
 * hostile App (test/fixtures/mcp-app-hostile) cannot reach the page, its storage, its server or
 * its top frame. Its own server: these plugins' tools would change what other specs offer.
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { spawnModelServer, type ModelServerProcess } from '../test/model-server/process';
import { appServerPlugin } from '../test/helpers/app-servers';
import { composer, openApp, palette, pluginRow, send } from './scenarios';
import * as a from './assistant-scenarios';
import { newConversation, toolsTab } from './assistant-scenarios';
import { cli, REPO, startServe, type Served } from './support/serve';
import { saveFigures } from './support/figures';
import { schemaProblem } from '../src/main/host/validate';
import { shootBothThemes } from './support/shots';

/** The icons fixture as a plugin folder (no icon server: its data: icons only). */
function iconsPlugin(): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'plugboard-icons-')), 'mcp-icons');
  mkdirSync(dir);
  cpSync(path.join(REPO, 'test', 'fixtures', 'mcp-icons', 'server.mjs'), path.join(dir, 'server.mjs'));
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify({
      id: 'mcp-icons',
      name: 'Icons',
      version: '1.0.0',
      protocol: 'mcp',
      command: ['node', 'server.mjs'],
      // It imports the MCP SDK from Plugboard's own node_modules.
      app_modules: true,
      persistent: true,
    }),
  );
  return dir;
}

let served: Served;
let page: Page;
let model: ModelServerProcess;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(600_000);
  model = await spawnModelServer();
  const vanilla = appServerPlugin('basic-vanillajs');
  const budget = appServerPlugin('budget-allocator');
  served = await startServe({
    prepare: (dataDir) => {
      cli(['plugins', 'install', vanilla], dataDir);
      cli(['plugins', 'install', budget], dataDir);
      cli(['plugins', 'install', path.join(REPO, 'test', 'fixtures', 'mcp-app-hostile')], dataDir);
      cli(['plugins', 'install', iconsPlugin()], dataDir);
    },
  });
  page = await browser.newPage();
  await page.addInitScript(MEASURE);
  await page.goto(served.url);
  await openApp(page);
  await a.connectInSettings(page, model, 'Scripted');
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  await model?.stop();
});

/**
 * Measuring, in every frame, from before any script of its own: the page notes when each tool
 * result with an App arrives over its WebSocket (a `chat.turn` end event); an App frame notes
 * when its `#server-time` (the basic App's) first paints a time, after the next animation frame.
 * Both on the same clock (performance.timeOrigin + now), as the frames are on one machine.
 */
const MEASURE = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  if (window.top === window) {
    window.__appResults = {};
    const Real = window.WebSocket;
    window.WebSocket = class extends Real {
      constructor(...a) {
        super(...a);
        this.addEventListener('message', (e) => {
          try {
            const m = JSON.parse(e.data);
            const p = m.kind === 'event' && m.name === 'chat.turn' ? m.payload : null;
            if (p && p.type === 'end' && p.message.app && p.message.app.result) window.__appResults[p.message.id] ??= now();
          } catch {}
        });
      }
    };
    return;
  }
  const seen = () => {
    const el = document.getElementById('server-time');
    if (!el || window.__painted || !/\\d{4}-/.test(el.textContent || '')) return;
    window.__paintedText = el.textContent;
    requestAnimationFrame(() => requestAnimationFrame(() => (window.__painted = now())));
  };
  new MutationObserver(seen).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

const shoot = (name: string, fn: () => Promise<void>): Promise<void> => shootBothThemes(page, name, fn);

/** The App frame of the last card that has one. */
function lastApp(): FrameLocator {
  return page.locator('iframe[data-app-frame]').last().contentFrame();
}

test('the basic App (vanilla JS) renders in its tool card, and its own tool call goes through an approval card', async () => {
  await newConversation(page);
  await send(page, '/app-basic-vanillajs:get-time');
  const card = page.locator('article[data-role="plugin"]').last();
  await expect(card.locator('[data-app-state="shown"]')).toBeVisible({ timeout: 30_000 });
  const app = lastApp();
  const time = app.locator('#server-time');
  await expect(time).not.toHaveText('Loading...');
  const first = await time.textContent();
  await shoot('app-basic-vanillajs', async () => {
    await expect(card).toBeVisible();
  });
  await app.getByRole('button', { name: 'Get Server Time' }).click();
  const approval = page.locator('[data-approval-card]').last();
  await expect(approval).toContainText('App asked to call this tool');
  await shoot('app-call-approval', async () => {
    await expect(approval).toBeVisible();
  });
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await expect(time).not.toHaveText(first ?? '');
});

test('a link opens only once the person agrees, and a message goes to the conversation only once they agree', async () => {
  const app = lastApp();
  const card = page
    .locator('article[data-role="plugin"]')
    .filter({ has: page.locator('iframe[data-app-frame]') })
    .last();
  await app.getByRole('button', { name: 'Open Link' }).click();
  const link = card.locator('[data-app-consent="link"]');
  await expect(link).toContainText('wants to open a page on modelcontextprotocol.io');
  await expect(link.locator('[data-consent-text]')).toHaveText('https://modelcontextprotocol.io/');
  await shoot('app-link-consent', async () => {
    await expect(link).toBeVisible();
  });
  const popups: string[] = [];
  page.context().on('page', (p) => popups.push(p.url()));
  await link.getByRole('button', { name: 'Don’t open' }).click();
  await expect(link).toHaveCount(0);
  expect(popups).toEqual([]);

  await app.locator('#message-text').fill('Hello from the App');
  await app.getByRole('button', { name: 'Send Message' }).click();
  const message = card.locator('[data-app-consent="message"]');
  await expect(message.locator('[data-consent-text]')).toHaveText('Hello from the App');
  // As the person's message, it goes to the conversation's model, which answers.
  await a.script(model, { type: 'reply', text: ['Noted.'] });
  const before = await page.locator('article[aria-label="You"]').count();
  await message.getByRole('button', { name: 'Send it' }).click();
  await expect(page.locator('article[aria-label="You"]').last()).toContainText('Hello from the App');
  expect(await page.locator('article[aria-label="You"]').count()).toBe(before + 1);
  await expect(a.lastAnswer(page)).toContainText('Noted.');
  expect(JSON.stringify((await model.modelCalls()).at(-1)?.body)).toContain('Hello from the App');
});

test('the App is back after a reload, rendered again from the stored result', async () => {
  // What the call returned (the card's text), not what the App asked for since (its own calls).
  const card = page.locator('article[data-role="plugin"]').filter({ has: page.locator('iframe[data-app-frame]') });
  // With the App on screen, the text is one click away.
  await card.last().locator('[data-app-text]').click();
  const time = /\d{4}-\d\d-\d\dT[\d:.]+Z/.exec(await card.last().innerText())?.[0];
  expect(time).toBeTruthy();
  await page.reload();
  await openApp(page);
  const app = lastApp();
  await expect(page.locator('[data-app-state="shown"]').last()).toBeVisible({ timeout: 30_000 });
  // The App shows what the call returned then, not a new call's answer.
  await expect(app.locator('#server-time')).toHaveText(time as string);
});

test('a second official App (the budget allocator) renders in its card', async () => {
  await newConversation(page);
  await send(page, '/app-budget-allocator:get-budget-data');
  const card = page.locator('article[data-role="plugin"]').last();
  await expect(card.locator('[data-app-state="shown"]')).toBeVisible({ timeout: 30_000 });
  const app = lastApp();
  await expect(app.locator('body')).toContainText(/Budget|Marketing|Engineering/i, { timeout: 15_000 });
  await shoot('app-budget-allocator', async () => {
    await expect(card).toBeVisible();
  });
});

/**
 * The official servers' tool schemas declare JSON Schema 2020-12 (zod 4 writes them so), and a
 * model's arguments are checked by the host's validator before any card: until that validator reads
 * 2020-12 (issue 17 item 4, the catalog branch), every model call of these tools is refused.
 */
const readsDraft2020 =
  schemaProblem({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' }) === undefined;

test('a model’s call of an App tool asks first, then shows the App in its card; the model reads the result’s text', async () => {
  test.skip(!readsDraft2020, 'the host cannot yet check JSON Schema 2020-12, which the official App servers declare');
  await a.script(
    model,
    { type: 'reply', toolCalls: [{ name: 'app_basic_vanillajs__get_time', arguments: {} }] },
    { type: 'reply', text: ['The server says {{last_tool_result}}.'] },
  );
  await newConversation(page);
  await a.ask(page, 'What time is it on the server?');
  const approval = a.approvalCard(page);
  await expect(approval).toHaveAccessibleName('Allow Get Time (Vanilla JS) to run get-time?');
  await approval.getByRole('button', { name: 'Allow once' }).click();
  const card = page.locator('article[data-call-id]').last();
  await expect(card.locator('[data-app-state="shown"]')).toBeVisible({ timeout: 30_000 });
  await expect(card.locator('iframe[data-app-frame]').contentFrame().locator('#server-time')).toHaveText(/^\d{4}-/);
  await expect(a.lastAnswer(page)).toContainText(/The server says \d{4}-\d\d-\d\dT/);
  await shoot('app-model-card', async () => {
    await expect(card).toBeVisible();
  });
  // The model got the text a host without Apps shows, not the App's structured content.
  const sent = JSON.stringify((await model.modelCalls()).at(-1)?.body);
  expect(sent).toMatch(/\d{4}-\d\d-\d\dT[\d:.]+Z/);
  expect(sent).not.toContain('structuredContent');
  expect(sent).not.toContain('\\"time\\"');
});

test('a hostile App reaches nothing of the page: its DOM, storage, cookies, server (even with its token), top frame or other plugins', async () => {
  const host = new URL(served.url).origin;
  const token = new URL(served.url).searchParams.get('token') ?? '';
  const title = await page.title();
  await newConversation(page);
  // Another App on the page, for the hostile one to try to reach.
  await send(page, '/app-basic-vanillajs:get-time');
  await expect(page.locator('[data-app-state="shown"]').last()).toBeVisible({ timeout: 30_000 });
  await send(page, `/mcp-app-hostile:probe host=${host} token=${token}`);
  const card = page.locator('article[data-role="plugin"]').last();
  await expect(card.locator('[data-app-state="shown"]')).toBeVisible({ timeout: 30_000 });
  const app = lastApp();
  await expect(app.locator('#done')).toBeVisible({ timeout: 30_000 });
  const probes = [
    'parent-dom',
    'top-dom',
    'parent-location',
    'parent-api',
    'sibling-frame',
    'cookies',
    'local-storage',
    'session-storage',
    'fetch-page',
    'fetch-upload',
    'websocket',
    'image-beacon',
    'top-navigation',
    'popup',
    'other-plugin-tool',
    'model-only-tool',
  ];
  for (const p of probes)
    await expect(app.locator(`[data-probe="${p}"]`), p).toHaveAttribute('data-outcome', 'blocked');
  await expect(app.locator('[data-outcome="REACHED"]')).toHaveCount(0);
  // The App's wish to connect to loopback was refused, and the card says so.
  await expect(card.locator('[data-app-refused]')).toContainText('http://127.0.0.1:*');
  await shoot('app-hostile', async () => {
    await expect(card).toBeVisible();
  });
  // The page is as it was: same address, same title, still connected.
  expect(new URL(page.url()).origin).toBe(host);
  expect(await page.title()).toBe(title);
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  // Sent to the page's own address, the frame does not load the UI: the page may frame the frame origin only.
  await app.getByRole('button', { name: 'Go to the page’s own address' }).click();
  const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().startsWith(host));
  if (frame) await expect(frame.locator('#root')).toHaveCount(0);
  await expect(page.locator('#root')).toHaveCount(1);
});

test('icons servers give show in the panel, the palette and the tool card; App tools are marked in the Tools tab', async () => {
  await newConversation(page);
  const row = pluginRow(page, 'mcp-icons');
  await expect(row.locator('img[data-server-icon]')).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/, {
    timeout: 30_000,
  });
  await composer(page).fill('/mcp-icons');
  const clock = palette(page).getByRole('option').filter({ hasText: 'clock' });
  await expect(clock.locator('img[data-server-icon]')).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  await shoot('icons-palette', async () => {
    await expect(palette(page)).toBeVisible();
  });
  await composer(page).fill('/mcp-icons:clock');
  await composer(page).press('Enter');
  const card = page.locator('article[data-role="plugin"]').last();
  await expect(card).toHaveAttribute('aria-label', 'Icons clock: done', { timeout: 15_000 });
  await expect(card.locator('img[data-server-icon]')).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  // Every picture on the page is a data: URI: no icon is ever fetched by the page.
  const sources = await page.locator('img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
  expect(sources.every((s) => s.startsWith('data:'))).toBe(true);
  const tools = await toolsTab(page, 'mcp-app-hostile');
  await expect(tools.locator('[data-tool-app="app-only"]')).toHaveText('app only');
  await expect(tools.locator('[data-tool-app="app"]')).toHaveCount(1);
  await shoot('icons-panel-tools', async () => {
    await expect(row).toBeVisible();
  });
});

test('figures: from a tool result to the App’s first paint, and an App’s tool call against a direct call', async () => {
  test.setTimeout(300_000);
  await newConversation(page);
  const paints: number[] = [];
  const hostPart: number[] = [];
  const pagePart: number[] = [];
  for (let i = 0; i < 10; i++) {
    await send(page, '/app-basic-vanillajs:get-time');
    const frameEl = page.locator('iframe[data-app-frame]').last();
    await expect(page.locator('[data-app-state="shown"]').last()).toBeVisible({ timeout: 30_000 });
    const id = (await frameEl.getAttribute('data-app-frame')) as string;
    const frame = await (await frameEl.elementHandle())?.contentFrame();
    if (!frame) throw new Error('no App frame');
    await expect.poll(() => frame.evaluate(() => (window as unknown as { __painted?: number }).__painted)).toBeTruthy();
    const painted = (await frame.evaluate(() => (window as unknown as { __painted: number }).__painted)) as number;
    const arrived = (await page.evaluate(
      (m) => (window as unknown as { __appResults: Record<string, number> }).__appResults[m],
      id,
    )) as number;
    paints.push(painted - arrived);
    // Where the time goes: the host's part (the result's arrival to the frame's navigation) and
    // the page's own (its navigation to its paint: loading, parsing and running the App).
    const navigated = await frame.evaluate(() => performance.timeOrigin);
    hostPart.push(navigated - arrived);
    pagePart.push(painted - navigated);
  }
  // An App's tool call (the App posts tools/call; the host decides, calls, answers) against the
  // person's direct call of the same tool (chat.invoke over the same WebSocket to its end event),
  // both allowed by policy, 20 each, alternating.
  const ws = `ws://${new URL(served.url).host}/ws?token=${new URL(served.url).searchParams.get('token')}`;
  const frameEl = await page.locator('iframe[data-app-frame]').last().elementHandle();
  const frame = await frameEl?.contentFrame();
  if (!frame) throw new Error('no App frame');
  /** One command over a WebSocket of the test's own (same origin, same token): its value. */
  const command = (name: string, input: unknown): Promise<unknown> =>
    page.evaluate(
      ({ ws, name, input }) =>
        new Promise<unknown>((resolve, reject) => {
          const s = new WebSocket(ws);
          s.onopen = () => s.send(JSON.stringify({ kind: 'invoke', id: 1, name, input }));
          s.onmessage = (e) => {
            const m = JSON.parse(e.data as string);
            if (m.kind !== 'result' || m.id !== 1) return;
            s.close();
            if (m.ok) resolve(m.value);
            else reject(new Error(m.error));
          };
        }),
      { ws, name, input },
    );
  expect(
    await command('plugins.setToolPolicy', { id: 'app-basic-vanillajs', tool: 'get-time', policy: 'allow' }),
  ).toMatchObject({
    ok: true,
  });
  // The direct calls go to a conversation not on screen, so no App frame loads while measuring.
  const conversationId = ((await command('chat.create', { title: 'direct calls' })) as { id: string }).id;
  const viaApp: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < 20; i++) {
    viaApp.push(
      await frame.evaluate(
        (n) =>
          new Promise<number>((resolve, reject) => {
            const id = 1_000_000 + n;
            const t0 = performance.now();
            const on = (e: MessageEvent): void => {
              const m = e.data as { id?: number; result?: unknown; error?: { message: string } };
              if (m?.id !== id) return;
              window.removeEventListener('message', on);
              if (m.error) reject(new Error(m.error.message));
              else resolve(performance.now() - t0);
            };
            window.addEventListener('message', on);
            parent.postMessage(
              { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get-time', arguments: {} } },
              '*',
            );
          }),
        i,
      ),
    );
    direct.push(
      await page.evaluate(
        ({ ws, conversationId }) =>
          new Promise<number>((resolve) => {
            const s = new WebSocket(ws);
            let t0 = 0;
            let turn = '';
            s.onopen = () => {
              t0 = performance.now();
              s.send(
                JSON.stringify({
                  kind: 'invoke',
                  id: 1,
                  name: 'chat.invoke',
                  input: { conversationId, plugin: 'app-basic-vanillajs', tool: 'get-time', args: {} },
                }),
              );
            };
            s.onmessage = (e) => {
              const m = JSON.parse(e.data as string);
              if (m.kind === 'result' && m.id === 1) turn = m.value.turnId;
              const p = m.kind === 'event' && m.name === 'chat.turn' ? m.payload : null;
              if (p && p.type === 'end' && p.message.role === 'plugin' && p.turnId === turn) {
                resolve(performance.now() - t0);
                s.close();
              }
            };
          }),
        { ws, conversationId },
      ),
    );
  }
  // The baseline: the same page, staged the same way, loaded into a bare frame sandboxed the same
  // way, with no bridge and no App protocol: its navigation to its load event.
  const messageId = (await page.locator('iframe[data-app-frame]').last().getAttribute('data-app-frame')) as string;
  const shownIn = await page.evaluate(() => localStorage.getItem('plugboard.activeConversation'));
  const bare: number[] = [];
  for (let i = 0; i < 10; i++) {
    const opened = (await command('apps.open', { conversationId: shownIn, messageId })) as {
      ok: boolean;
      app: { url: string };
    };
    expect(opened.ok).toBe(true);
    bare.push(
      await page.evaluate(async (url) => {
        const f = document.createElement('iframe');
        f.setAttribute('sandbox', 'allow-scripts allow-forms');
        f.style.cssText = 'position:fixed;left:-2000px;width:600px;height:400px';
        const t0 = performance.now();
        const loaded = new Promise((r) => (f.onload = r));
        f.src = url;
        document.body.append(f);
        await loaded;
        const t = performance.now() - t0;
        f.remove();
        return t;
      }, opened.app.url),
    );
  }
  const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const round = (x: number): number => Math.round(x * 10) / 10;
  saveFigures('apps', {
    appFirstPaintAfterResultP50Ms: round(p50(paints)),
    appFirstPaintAfterResultMaxMs: round(Math.max(...paints)),
    appFrameNavigationAfterResultP50Ms: round(p50(hostPart)),
    appPageLoadToPaintP50Ms: round(p50(pagePart)),
    bareFrameLoadOfTheSamePageP50Ms: round(p50(bare)),
    appToolCallP50Ms: round(p50(viaApp)),
    directToolCallP50Ms: round(p50(direct)),
    appToolCallOverDirectRatio: round(p50(viaApp) / p50(direct)),
  });
});
