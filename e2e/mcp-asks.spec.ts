/**
 * What an MCP server asks of the person, in the web UI end to end: a form in the chat while its
 * tool runs (elicitation), filled, checked, sent or declined, and the server's own reply showing
 * what it received; and a sampling request's approval card, allowed, with the conversation's
 * model writing the reply. A real `plugboard serve` with our MCP server (test/fixtures/mcp-asks,
 * the official SDK's McpServer, installed and sandboxed) in Debian's Chromium; no language model
 * can run on these machines, so the scripted model server (test/model-server) plays one. Its own
 * server: this plugin's tools would change what the other specs' requests offer.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { spawnModelServer, type ModelServerProcess } from '../test/model-server/process';
import * as a from './assistant-scenarios';
import { openApp, send } from './scenarios';
import { cli, REPO, startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

let served: Served;
let model: ModelServerProcess;
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  model = await spawnModelServer();
  served = await startServe({
    prepare: (dataDir) => cli(['plugins', 'install', path.join(REPO, 'test', 'fixtures', 'mcp-asks')], dataDir),
  });
  page = await browser.newPage();
  await page.goto(served.url);
  await openApp(page);
  await a.connectInSettings(page, model, 'Scripted');
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  await model?.stop();
});

const shoot = (name: string, fn: () => Promise<void>): Promise<void> => shootBothThemes(page, name, fn);

test('an MCP server’s form shows in the chat while its tool runs; checked, sent, and the server gets the answer', async () => {
  await a.newConversation(page);
  await send(page, '/mcp-asks:book restaurant="Chez Marie"');
  const card = page.locator('[data-question-card="waiting"]');
  await expect(card).toContainText('Booking a table at Chez Marie: for whom, and how many?', { timeout: 15_000 });
  await expect(card).toContainText('MCP asks asks');
  const form = card.getByRole('form', { name: 'The form' });
  await expect(form.getByLabel('Name')).toBeVisible();
  await shoot('elicitation-form', async () => {
    await expect(card).toBeVisible();
  });
  // A required field left empty is caught on the card; nothing is sent.
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Name').fill('Ada');
  await form.getByLabel('Guests').fill('2');
  await form.getByRole('button', { name: 'Send' }).click();
  // The tool's result is the reply the server received.
  const result = page.locator('article[data-role="plugin"]').filter({ hasText: '"action":"accept"' });
  await expect(result).toContainText('"content":{"name":"Ada","guests":2}', { timeout: 15_000 });
  const answered = page.locator('[data-question-card="done"]');
  await expect(answered.locator('[data-answer-given]')).toContainText('name: Ada');
  await shoot('elicitation-answered', async () => {
    await expect(result).toBeVisible();
  });

  // Declined: the server hears decline, and the card says so.
  await send(page, '/mcp-asks:book restaurant=Elsewhere');
  await expect(card).toContainText('Booking a table at Elsewhere', { timeout: 15_000 });
  await card.getByRole('button', { name: 'Decline' }).click();
  await expect(page.locator('article[data-role="plugin"]').filter({ hasText: '"action":"decline"' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.locator('[data-question-card="cancelled"] [data-answer-refused]')).toHaveText('You declined.');
});

test('an MCP server’s sampling request asks first, showing what it sends; allowed, the conversation’s model writes the reply', async () => {
  await a.script(model, { type: 'reply', text: ['Cats nap most of the day.'] });
  await a.newConversation(page);
  await send(page, '/mcp-asks:summarize text="Cats sleep sixteen hours a day."');
  const card = page.locator('[data-sampling-card]');
  await expect(card).toContainText('Allow MCP asks to ask Scripted for a reply?', { timeout: 15_000 });
  await expect(card.getByRole('group', { name: 'System prompt' })).toHaveText(/You write one-line summaries\./);
  await expect(card.getByRole('group', { name: 'Message' })).toHaveText(
    /Summarize in one line: Cats sleep sixteen hours a day\./,
  );
  await expect(card.locator('[data-max-tokens]')).toHaveText('At most 60 tokens, written by Scripted.');
  await expect(card.getByRole('button')).toHaveText(['Allow once', 'Deny']);
  await shoot('sampling-approval', async () => {
    await expect(card).toBeVisible();
  });
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(
    page.locator('article[data-role="plugin"]').filter({ hasText: '"text":"Cats nap most of the day."' }),
  ).toBeVisible({ timeout: 15_000 });
  expect(JSON.stringify((await model.modelCalls()).at(-1)?.body)).toContain('You write one-line summaries.');
});
