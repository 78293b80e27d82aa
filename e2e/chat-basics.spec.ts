/**
 * The chat basics (issue 21, item 4), end to end against a real `plugboard serve` in Chromium,
 * with the scripted model server (test/model-server) playing the model: no language model runs on
 * these machines. Copy a message, regenerate an answer (the earlier one kept and reachable, and not
 * sent to the model again), edit a sent message and send it again, and the keyboard back in the
 * composer after "Allow once" and after renaming a conversation. Screenshots:
 * e2e/screenshots/chat-basics-*.png, both themes, and at 720 px wide.
 */
import { expect, test, type Page } from '@playwright/test';
import { spawnModelServer, type ModelServerProcess } from '../test/model-server/process';
import * as a from './assistant-scenarios';
import { composer, openApp } from './scenarios';
import { startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

let served: Served;
let model: ModelServerProcess;
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  model = await spawnModelServer();
  served = await startServe();
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  await page.goto(served.url);
  await openApp(page);
  await a.connectInSettings(page, model, 'Scripted');
});

test.afterAll(async () => {
  await page?.context().close();
  await Promise.all([served?.stop(), model?.stop()]);
});

function userMessages(p: Page) {
  return p.locator('article[data-role="user"]');
}

/** What the model was sent in its last request, as text. */
async function lastSent(): Promise<string> {
  const calls = await model.modelCalls();
  return JSON.stringify(calls[calls.length - 1]?.body ?? {});
}

test('copy an answer and a message of yours', async () => {
  await a.newConversation(page);
  await a.script(model, { type: 'reply', text: ['Tea is ', 'brewed.'] });
  await a.ask(page, 'Is the tea ready?');
  const answer = a.lastAnswer(page);
  await expect(answer).toContainText('Tea is brewed.');
  await answer.hover();
  await answer.getByRole('button', { name: 'Copy' }).click();
  await expect(answer.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Tea is brewed.');
  const mine = userMessages(page).last();
  await mine.hover();
  await mine.getByRole('button', { name: 'Copy' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Is the tea ready?');
});

test('regenerate: a new answer, the earlier one kept and shown on request, and not sent to the model', async () => {
  await a.script(model, { type: 'reply', text: ['Not yet: ', 'two more minutes.'] });
  const first = a.lastAnswer(page);
  await first.hover();
  await first.getByRole('button', { name: 'Regenerate' }).click();
  await expect(a.lastAnswer(page)).toContainText('Not yet: two more minutes.');
  // The model read the question, not the answer it replaces.
  const sent = await lastSent();
  expect(sent).toContain('Is the tea ready?');
  expect(sent).not.toContain('Tea is brewed.');
  const earlier = page.locator('[data-earlier-version]').last();
  await expect(earlier).toContainText('Earlier answer from Scripted');
  await expect(earlier).not.toContainText('Tea is brewed.');
  await earlier.getByRole('button', { name: /Earlier answer/ }).click();
  await expect(earlier).toContainText('Tea is brewed.');
  // Only the latest answer offers Regenerate.
  await expect(page.getByRole('button', { name: 'Regenerate' })).toHaveCount(1);
  await shootBothThemes(page, 'chat-basics-regenerated', async () => {
    await expect(earlier).toContainText('Tea is brewed.');
  });
  await earlier.getByRole('button', { name: /Earlier answer/ }).click();
  // A reload keeps both.
  await page.reload();
  await expect(composer(page)).toBeEditable({ timeout: 20_000 });
  await expect(a.lastAnswer(page)).toContainText('two more minutes');
  await expect(page.locator('[data-earlier-version]')).toHaveCount(1);
});

test('edit a sent message and send it again: what followed it is kept as an earlier version', async () => {
  await a.script(model, { type: 'reply', text: ['Green tea takes ', 'three minutes.'] });
  const mine = userMessages(page).last();
  await mine.hover();
  await mine.getByRole('button', { name: 'Edit' }).click();
  const box = page.getByRole('textbox', { name: 'Edit your message' });
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('Is the tea ready?');
  await box.fill('How long for green tea?');
  await shootBothThemes(page, 'chat-basics-editing', async () => {
    await expect(box).toBeVisible();
  });
  await box.press('Enter');
  await expect(a.lastAnswer(page)).toContainText('Green tea takes three minutes.');
  await expect(userMessages(page).last()).toContainText('How long for green tea?');
  await expect(composer(page)).toBeFocused();
  const sent = await lastSent();
  expect(sent).toContain('How long for green tea?');
  expect(sent).not.toContain('Is the tea ready?');
  expect(sent).not.toContain('two more minutes');
  // The question, both its answers: each one an earlier version, reachable.
  const earlier = page.locator('[data-earlier-version]');
  await expect(earlier).toHaveCount(3);
  await expect(earlier.first()).toContainText('Your earlier message: “Is the tea ready?”');
  await shootBothThemes(page, 'chat-basics-edited', async () => {
    await expect(earlier.first()).toBeVisible();
  });
  await page.setViewportSize({ width: 720, height: 800 });
  await shootBothThemes(page, 'chat-basics-edited-720', async () => {
    await expect(earlier.first()).toBeVisible();
  });
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('after "Allow once" the keyboard is back in the composer', async () => {
  await a.newConversation(page);
  await a.script(
    model,
    { type: 'reply', toolCalls: [{ name: 'stress__count', arguments: { n: 2 } }] },
    { type: 'reply', text: ['Counted.'] },
  );
  await a.ask(page, 'count to two');
  const card = a.approvalCard(page);
  await expect(card).toBeVisible({ timeout: 20_000 });
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(a.lastAnswer(page)).toContainText('Counted.');
  await expect(composer(page)).toBeFocused();
});

test('after renaming a conversation from the keyboard, the keyboard is back in the composer', async () => {
  const nav = page.getByRole('navigation', { name: 'Conversations' });
  const item = nav.locator('[data-conversation-button][aria-current="page"]');
  await item.focus();
  await page.keyboard.press('F2');
  const title = nav.getByRole('textbox', { name: 'Conversation title' });
  await title.fill('Greeting Ada');
  await title.press('Enter');
  await expect(nav.getByRole('button', { name: /^Greeting Ada/ })).toBeVisible();
  await expect(composer(page)).toBeFocused();
});

test('failed model requests add no tokens to the meter', async () => {
  await a.newConversation(page);
  for (let i = 0; i < 2; i++) {
    await a.script(model, { type: 'error', error: 'server-error' });
    await a.ask(page, `Try number ${i}`);
    await expect(a.lastAnswer(page)).toHaveAttribute('data-status', 'error', { timeout: 20_000 });
  }
  await expect(page.locator('[data-conversation-tokens]')).toHaveCount(0);
  await a.script(model, { type: 'reply', text: 'Fine now.', usage: { input: 120, output: 3 } });
  await a.ask(page, 'And now?');
  await expect(a.lastAnswer(page)).toContainText('Fine now.');
  await expect(page.locator('[data-conversation-tokens]')).toHaveText('123 tokens');
});

test('a mistyped tool name suggests the closest tools; a switched-off tool offers "Switch it on"', async () => {
  await a.newConversation(page);
  await a.ask(page, '/hello:sya_hello name=Ada');
  await expect(page.getByRole('alert').filter({ hasText: 'Not sent' })).toContainText('did you mean /hello:say_hello');
  await a.setExposed(page, 'hello', 'say_hello', false);
  await a.newConversation(page);
  await a.ask(page, '/hello:say_hello name=Ada');
  const msg = page.locator('article[data-role="plugin"]').last();
  await expect(msg).toContainText('tool_not_exposed');
  await shootBothThemes(page, 'chat-basics-switched-off', async () => {
    await expect(msg.getByRole('button', { name: 'Switch it on' })).toBeVisible();
  });
  await msg.getByRole('button', { name: 'Switch it on' }).click();
  const toggle = (await a.toolsTab(page, 'hello')).getByRole('switch', { name: 'Expose hello:say_hello' });
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await a.ask(page, '/hello:say_hello name=Ada');
  await expect(page.locator('article[data-role="plugin"]').last()).toContainText('Ada', { timeout: 15_000 });
});
