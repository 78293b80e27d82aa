/**
 * The assistant's second part in the web UI, end to end: a model's questions answered on their
 * cards, a plugin's prompt enricher noted under the message it enriched, tokens per answer and per
 * conversation (marked "≈" when estimated), and Settings → Assistant. A real `plugboard serve`
 * with real plugins (the enricher is the JSON-RPC fixture of test/fixtures/lib/jsonrpc.mjs) in
 * Debian's Chromium; no language model can run on these machines, so the scripted model server
 * (test/model-server) plays one over the real OpenAI-compatible streaming wire.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { spawnModelServer, type ModelServerProcess } from '../test/model-server/process';
import * as a from './assistant-scenarios';
import { lastPluginMessage, openApp, send } from './scenarios';
import { cli, REPO, startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

let served: Served;
let model: ModelServerProcess;
let page: Page;

test.describe.configure({ mode: 'serial' });

/**
 * A JSON-RPC plugin whose `enrich_prompt` appends "[with context from enricher]" to each message,
 * and whose `echo` is a user command it keeps from models.
 */
function installEnricher(dataDir: string): void {
  const dir = path.join(path.dirname(dataDir), 'enricher');
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(REPO, 'test', 'fixtures', 'lib', 'jsonrpc.mjs'), path.join(dir, 'plugin.mjs'));
  const manifest = {
    id: 'enricher',
    name: 'Enricher',
    version: '1.0.0',
    protocol: 'jsonrpc',
    command: ['node', 'plugin.mjs'],
    prompt_enrichment: true,
    functions: [
      {
        name: 'enrich_prompt',
        description: 'Adds context to a message',
        parameters: { type: 'object', properties: { prompt: { type: 'string' } } },
      },
      {
        name: 'echo',
        description: 'Says it back',
        parameters: { type: 'object', properties: { text: { type: 'string' } } },
      },
    ],
    // A command for the person only: neither it nor its result may reach a model.
    user_commands: [{ name: 'echo', description: 'Says it back', share_with_model: false }],
  };
  writeFileSync(path.join(dir, 'plugboard.json'), JSON.stringify(manifest));
  cli(['plugins', 'install', dir], dataDir);
}

test.beforeAll(async ({ browser }) => {
  model = await spawnModelServer();
  served = await startServe({ prepare: installEnricher });
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

test('a plugin’s enricher adds to what the model reads; the note under the message says who and what', async () => {
  // No token counts from the server: the app estimates them, and says so.
  await a.script(model, { type: 'reply', text: ['Noted, ', 'with context.'], noUsage: true });
  await a.newConversation(page);
  await a.ask(page, 'Plan my week');
  await expect(a.lastAnswer(page)).toContainText('Noted, with context.', { timeout: 15_000 });
  const mine = page.locator('article[data-role="user"]').last();
  // The bubble keeps what was typed; the model read the enriched text.
  await expect(mine).toContainText('Plan my week');
  await expect(mine).not.toContainText('with context from');
  expect(JSON.stringify((await model.modelCalls()).at(-1)?.body)).toContain(
    'Plan my week [with context from enricher]',
  );
  const note = mine.locator('[data-enrichment]');
  const toggle = note.getByRole('button', { name: /^Enricher added to what the model read/ });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(note.locator('[data-enricher="enricher"]')).toContainText('added context');
  await expect(note.locator('[data-enricher="enricher"] pre')).toHaveText('[with context from enricher]');
  // Tokens: per answer and for the conversation, both estimates.
  await expect(a.lastAnswer(page).locator('[data-usage]')).toHaveText(/^≈[\d,]+ in · ≈[\d,]+ out tokens$/);
  await expect(page.locator('[data-conversation-tokens]')).toHaveText(/^≈[\d,]+ tokens$/);
  // What the request carried, folded under the answer: the tools offered, ask_user among them.
  await a
    .lastAnswer(page)
    .getByRole('button', { name: /^\d+ tools offered$/ })
    .click();
  const details = a.lastAnswer(page).locator('[data-request-body]');
  await expect(details).toContainText('ask_user');
  await expect(details).toContainText(/about [\d,]+ tokens/);
  await shoot('enrichment-note', async () => {
    await expect(note.locator('pre')).toBeVisible();
  });
});

test('a command its plugin keeps from models says so, and the model never reads it or its result', async () => {
  await a.newConversation(page);
  await send(page, '/enricher:echo text=PIN-4411');
  await expect(lastPluginMessage(page)).toContainText('PIN-4411', { timeout: 15_000 });
  await expect(lastPluginMessage(page).locator('[data-unshared]')).toHaveText('not shared with models');
  await expect(page.locator('article[data-role="user"]').last()).toContainText('not shared with models');
  await a.script(model, { type: 'reply', text: ['Nothing to see.'] });
  await a.ask(page, 'What did I run?');
  await expect(a.lastAnswer(page)).toContainText('Nothing to see.', { timeout: 15_000 });
  const sent = JSON.stringify((await model.modelCalls()).at(-1)?.body);
  expect(sent).toContain('What did I run?');
  expect(sent).not.toContain('PIN-4411');
});

test('the model asks: a choice answers with one click, several with Send answer, words with Enter; the model gets each answer, and a reload keeps them', async () => {
  await a.script(
    model,
    {
      type: 'reply',
      toolCalls: [
        { name: 'ask_user', arguments: { question: 'Which city is the trip to?', choices: ['Oslo', 'Paris', 'Rome'] } },
      ],
    },
    {
      type: 'reply',
      toolCalls: [
        {
          name: 'ask_user',
          arguments: { question: 'What should the forecast cover?', choices: ['Rain', 'Wind', 'Sun'], multiple: true },
        },
      ],
    },
    { type: 'reply', toolCalls: [{ name: 'ask_user', arguments: { question: 'When do you leave?' } }] },
    { type: 'reply', text: ['Oslo, rain and wind, ', 'leaving tomorrow morning.'] },
  );
  await a.newConversation(page);
  await a.ask(page, 'Check the weather for my trip');
  const card = page.locator('[data-question-card="waiting"]');
  await expect(card).toContainText('Which city is the trip to?', { timeout: 15_000 });
  // The card has the focus, so the keyboard is there at once; the turn waits (Stop is there).
  await expect(card.getByRole('group', { name: 'Which city is the trip to?' })).toBeFocused();
  await expect(card.getByRole('group', { name: 'Choices' }).getByRole('button')).toHaveText(['Oslo', 'Paris', 'Rome']);
  await expect(a.stopButton(page)).toBeVisible();
  await shoot('question-card', async () => {
    await expect(card).toBeVisible();
  });
  await card.getByRole('button', { name: 'Oslo' }).click();

  await expect(card).toContainText('What should the forecast cover?', { timeout: 15_000 });
  const send = card.getByRole('button', { name: 'Send answer' });
  await expect(send).toBeDisabled();
  await card.getByRole('button', { name: 'Rain' }).click();
  await card.getByRole('button', { name: 'Wind' }).click();
  await expect(card.getByRole('button', { name: 'Wind' })).toHaveAttribute('aria-pressed', 'true');
  await send.click();

  await expect(card).toContainText('When do you leave?', { timeout: 15_000 });
  const words = card.getByRole('textbox', { name: 'Your answer' });
  await expect(words).toBeFocused();
  await words.fill('Tomorrow morning');
  await words.press('Enter');

  await expect(a.lastAnswer(page)).toContainText('leaving tomorrow morning.', { timeout: 15_000 });
  await expect(page.locator('[data-question-card="waiting"]')).toHaveCount(0);
  // Each answer went back to the model as the question's result.
  const bodies = (await model.modelCalls()).slice(-3).map((c) => JSON.stringify(c.body));
  expect(bodies[0]).toContain('Oslo');
  expect(bodies[1]).toContain('Rain, Wind');
  expect(bodies[2]).toContain('Tomorrow morning');
  const answered = page.locator('[data-question-card="done"]');
  await page.reload();
  await openApp(page);
  await expect(answered).toHaveCount(3);
  await expect(answered.locator('[data-answer-given]')).toHaveText([
    'You answered: Oslo',
    'You answered: Rain, Wind',
    'You answered: Tomorrow morning',
  ]);
  await shoot('question-answered', async () => {
    await expect(a.lastAnswer(page)).toBeVisible();
  });
});

test('Stop while a question waits ends the turn, and the card says it was not answered', async () => {
  await a.script(model, { type: 'reply', toolCalls: [{ name: 'ask_user', arguments: { question: 'Which file?' } }] });
  await a.newConversation(page);
  await a.ask(page, 'Open the file');
  await expect(page.locator('[data-question-card="waiting"]')).toContainText('Which file?', { timeout: 15_000 });
  await a.stopButton(page).click();
  await expect(page.locator('[data-question-card="cancelled"]')).toContainText('Stopped before you answered.');
  await expect(page.getByRole('textbox', { name: 'Your answer' })).toHaveCount(0);
  await expect(a.stopButton(page)).toBeHidden();
});

test('Settings → Assistant shows the step cap and the budgets, refuses what is out of range, keeps what is saved, and the next request follows it', async () => {
  let dialog = await a.openSettings(page);
  // Models first: each row says what its answers took, over every conversation.
  await expect(dialog.locator('[data-model="Scripted"] [data-model-usage]')).toHaveText(
    /^≈[\d,]+ tokens \([\d,]+ in · [\d,]+ out\)$/,
  );
  await dialog
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('button', { name: 'Assistant' })
    .click();
  const form = dialog.getByRole('form', { name: 'Assistant settings' });
  const steps = form.getByLabel('Steps per turn');
  await expect(steps).toHaveValue('8');
  await expect(form.getByLabel('Tools offered at most')).toHaveValue('40');
  await expect(form.getByLabel('Tool declarations, tokens at most')).toHaveValue('16000');
  await expect(form.getByLabel('Plugins’ instructions, tokens at most')).toHaveValue('4000');
  await steps.fill('0');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(steps).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toContainText('A whole number from 1 to 50.');
  await steps.fill('12');
  await form.getByLabel('Tools offered at most').fill('4');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.locator('[data-saved="ok"]')).toContainText('Saved');
  await shoot('settings-assistant', async () => {
    await expect(form).toBeVisible();
  });
  await a.closeSettings(page);
  // The next request carries at most 4 of the exposed tools (and find_tools for the rest).
  await a.script(model, { type: 'reply', text: ['Fine.'] });
  await a.newConversation(page);
  await a.ask(page, 'Count to three');
  await expect(a.lastAnswer(page)).toContainText('Fine.', { timeout: 15_000 });
  await a
    .lastAnswer(page)
    .getByRole('button', { name: /^[1-4] of \d+ tools offered$/ })
    .click();
  await expect(a.lastAnswer(page).locator('[data-request-body]')).toContainText('find_tools');
  // After a reload the form reads them from the server again.
  await page.reload();
  await openApp(page);
  dialog = await a.openSettings(page);
  await dialog
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('button', { name: 'Assistant' })
    .click();
  await expect(steps).toHaveValue('12');
  await expect(form.getByLabel('Tools offered at most')).toHaveValue('4');
  await form.getByRole('button', { name: 'Use the defaults' }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.locator('[data-saved="ok"]')).toContainText('Saved');
  await expect(steps).toHaveValue('8');
  await a.closeSettings(page);
});
