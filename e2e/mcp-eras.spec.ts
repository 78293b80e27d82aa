/**
 * A server of the 2026-07-28 protocol revision in the web UI end to end: the v2 SDK's server
 * (test/fixtures/eras/v2-server.mjs, installed and run as a plugin over stdio) asks its questions
 * with "input required" results, and the person sees the same form card a 2025 server's
 * elicitation gets; a URL-mode question shows the page's domain and address, and the page opens
 * (in a new tab) only when the person clicks Open; a task of the 2026 tasks extension shows each
 * status on its card, and Stop cancels it on the server. A real `plugboard serve` in Debian's Chromium;
 * the page the server names is answered by the test (no network here).
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import * as a from './assistant-scenarios';
import { expand, health, openApp, panel, send } from './scenarios';
import { cli, REPO, startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

let served: Served;
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  served = await startServe({
    prepare: (dataDir) => {
      const src = path.join(path.dirname(dataDir), 'eras-src');
      mkdirSync(src, { recursive: true });
      cpSync(path.join(REPO, 'test', 'fixtures', 'eras', 'v2-server.mjs'), path.join(src, 'server.mjs'));
      writeFileSync(
        path.join(src, 'plugboard.json'),
        JSON.stringify({
          id: 'eras',
          name: 'Eras',
          version: '1.0.0',
          protocol: 'mcp',
          command: ['node', 'server.mjs'],
          // It imports the MCP SDK from Plugboard's own node_modules.
          app_modules: true,
          persistent: true,
          // The v2 server loads slowly on a busy machine: silence past the probe's share of the
          // handshake would read as a 2025 server.
          timeouts: { handshakeMs: 30_000 },
        }),
      );
      cli(['plugins', 'install', src], dataDir);
    },
  });
  const context = await browser.newContext();
  await context.route('https://accounts.example.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Connect</title><h1>Connect your account</h1>' }),
  );
  page = await context.newPage();
  await page.goto(served.url);
  await openApp(page);
});

test.afterAll(async () => {
  await page?.context().close();
  await served?.stop();
});

const shoot = (name: string, fn: () => Promise<void>): Promise<void> => shootBothThemes(page, name, fn);

test('a 2026 server’s input-required question shows the usual form card, and its answer reaches the server', async () => {
  await expect(health(page, 'eras')).toHaveText('ready', { timeout: 40_000 });
  await expand(page, 'eras');
  await panel(page).getByRole('tab', { name: 'Log' }).click();
  await expect(panel(page)).toContainText('MCP 2026-07-28, the modern era');

  await a.newConversation(page);
  await send(page, '/eras:ask');
  const card = page.locator('[data-question-card="waiting"]');
  await expect(card).toContainText('What is your name?', { timeout: 20_000 });
  await expect(card).toContainText('Eras asks');
  const form = card.getByRole('form', { name: 'The form' });
  await form.getByLabel('Name').fill('Ada');
  await shoot('input-required-form', async () => {
    await expect(card).toBeVisible();
  });
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(page.locator('article[data-role="plugin"]').filter({ hasText: 'hello Ada' })).toBeVisible({
    timeout: 20_000,
  });
});

test('a task of the 2026 tasks extension shows each status on its card, and Stop cancels it', async () => {
  await send(page, '/eras:research topic=forever');
  const card = page.locator('article[data-role="plugin"]').last();
  await expect(card).toContainText('step 3', { timeout: 20_000 });
  await shoot('task-progress', async () => {
    await expect(card).toBeVisible();
  });
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(card).toHaveAttribute('aria-label', 'Eras research: stopped', { timeout: 20_000 });
  await expect(card).toContainText('Stopped.');
});

test('a URL-mode question names the page’s domain, and opens it only when the person clicks Open', async () => {
  await send(page, '/eras:open_page');
  const card = page.locator('[data-question-card="waiting"]');
  await expect(card).toContainText('Connect your account at the example site', { timeout: 20_000 });
  await expect(card).toContainText('It wants to open a page on accounts.example.com');
  await expect(card.getByLabel("The page's address")).toHaveText('https://accounts.example.com/connect?session=42');
  await shoot('url-elicitation', async () => {
    await expect(card).toBeVisible();
  });
  const opened = page.waitForEvent('popup');
  await card.getByRole('button', { name: 'Open the page on accounts.example.com' }).click();
  const tab = await opened;
  await expect(tab).toHaveURL('https://accounts.example.com/connect?session=42');
  await tab.close();
  await expect(page.locator('article[data-role="plugin"]').filter({ hasText: 'page: accept' })).toBeVisible({
    timeout: 20_000,
  });

  // Declined: nothing opens, and the server hears it.
  await send(page, '/eras:open_page');
  await expect(card).toContainText('accounts.example.com', { timeout: 20_000 });
  await card.getByRole('button', { name: 'Decline' }).click();
  await expect(page.locator('article[data-role="plugin"]').filter({ hasText: 'page: decline' })).toBeVisible({
    timeout: 20_000,
  });
});
