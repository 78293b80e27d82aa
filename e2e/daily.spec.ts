/**
 * A daily driver (issue 12), end to end against a real `plugboard serve` in Chromium: stopping a
 * call, health history, the palette's ranking, conversation titles, search, export, rename and
 * delete from the keyboard, the live region, and focus. Screenshots of each changed view, in both
 * themes, go to /work/notes/screenshots/daily-*.png (PLUGBOARD_SHOTS overrides the folder).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import * as s from './scenarios';
import { startServe, type Served } from './support/serve';

const SHOTS = process.env.PLUGBOARD_SHOTS ?? '/work/notes/screenshots';
let served: Served;
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  served = await startServe();
  page = await browser.newPage({ acceptDownloads: true });
  await page.goto(served.url);
  await s.openApp(page);
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
});

async function shot(name: string, scheme: 'dark' | 'light'): Promise<void> {
  // Colours change with a transition after the scheme switches: wait until they have settled
  // (transitions only: a spinner's animation never finishes).
  await page.waitForFunction(
    () => !document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === 'running'),
  );
  await page.screenshot({ path: path.join(SHOTS, `daily-${name}-${scheme}.png`) });
}

function sidebar(p: Page) {
  return p.getByRole('navigation', { name: 'Conversations' });
}

test('a stopped call is a neutral Stopped; a plugin restarted to stop it says so and lists it, not counting it as a restart', async () => {
  await expect(s.health(page, 'stress')).toHaveText(/ready|stopped/, { timeout: s.STRESS_BACK_MS });
  const before = await s.restarts(page, 'stress');
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await s.newConversation(page);
    await s.send(page, '/stress:ticks n=2000 interval_ms=50');
    const msg = s.lastPluginMessage(page);
    await expect(msg).toContainText('tick 3', { timeout: 15_000 });
    await s.stopButton(page).click();
    await expect(msg.locator('[data-message-status]')).toHaveText('stopped');
    // What it produced stays; no red failure box, no stderr.
    await expect(msg).toContainText('tick 3');
    await expect(msg.locator('[data-stopped-note]')).toContainText(
      'Stress cannot cancel a call it has started, so Plugboard restarted it.',
    );
    await expect(msg.getByText(/stderr/i)).toHaveCount(0);
    await expect(s.health(page, 'stress')).toHaveText('ready', { timeout: s.STRESS_BACK_MS });
    await s.expand(page, 'stress');
    const recent = s.pluginRow(page, 'stress').getByRole('region', { name: 'Recent health events' });
    await expect(recent).toContainText('restarting');
    await expect(recent).toContainText('ticks was stopped, and the plugin cannot cancel a call it started');
    await shot('stopped', scheme);
  }
  // A person's stop is no failure of the plugin: the restart count, which tells one that keeps dying, stays.
  expect(await s.restarts(page, 'stress')).toBe(before);
});

test('a stopped hello count shows what it counted, neutral, and no stderr warning of leaked listeners', async () => {
  await s.newConversation(page);
  await s.send(page, '/hello:count to=100 delay_ms=100');
  const msg = s.lastPluginMessage(page);
  await expect(msg).toContainText('3', { timeout: 15_000 });
  await s.stopButton(page).click();
  await expect(msg.locator('[data-message-status]')).toHaveText('stopped');
  // Hello speaks G-Assist, which has no cancel: it is restarted, and the card says so.
  await expect(msg.locator('[data-stopped-note]')).toHaveText(
    'Stopped. Hello cannot cancel a call it has started, so Plugboard restarted it.',
  );
  await expect(msg).toContainText('3');
  await expect(msg.getByText(/MaxListeners|stderr/)).toHaveCount(0);
});

test('the palette offers only hello for /hello, and exact names first', async () => {
  await s.newConversation(page);
  await s.composer(page).fill('/hello');
  const options = s.palette(page).getByRole('option');
  await expect(options.first()).toHaveText(/^\/hello:/);
  const names = await options.allTextContents();
  expect(names.length).toBeGreaterThan(0);
  expect(names.every((n) => n.startsWith('/hello:'))).toBe(true);
  await page.keyboard.press('Escape');
  await s.composer(page).fill('');
});

test('titles say what a conversation is about; search finds words in titles and messages', async () => {
  for (let i = 0; i < 2; i++) {
    await s.newConversation(page);
    await s.send(page, '/hello:say_hello name=Lovelace');
    await expect(s.lastPluginMessage(page)).toContainText('Hello, Lovelace', { timeout: 15_000 });
  }
  const nav = sidebar(page);
  await expect(nav.getByRole('button', { name: /^Hello: say hello — Lovelace \(2\)/ })).toBeVisible();
  await expect(nav.getByRole('button', { name: /^Hello: say hello — Lovelace just now/ })).toBeVisible();

  const field = nav.getByRole('searchbox', { name: 'Search conversations' });
  // A word only the plugin's answer has ("count to 5"), not any title.
  await field.fill('count to');
  const results = nav.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('button', { name: /Lovelace \(2\)/ })).toBeVisible();
  await expect(results.locator('mark').first()).toHaveText(/count/i);
  // Each hit shows its own conversation's words.
  await expect(results.getByRole('button', { name: /Lovelace \(2\)/ })).toContainText('Ask me to count to 5');
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await shot('search', scheme);
  }
  // Down from the field goes into the results; Escape in the field brings the list back.
  await field.press('ArrowDown');
  await expect(results.getByRole('button').first()).toBeFocused();
  await field.focus();
  await field.press('Escape');
  await expect(results).toBeHidden();
  await expect(field).toHaveValue('');
});

test('export, rename and delete from the keyboard', async () => {
  const nav = sidebar(page);
  const item = nav.getByRole('button', { name: /^Hello: say hello — Lovelace \(2\)/ });
  await item.click();
  await item.focus();
  await page.keyboard.press('e');
  const dialog = page.getByRole('dialog', { name: 'Export conversation' });
  await expect(dialog).toBeVisible();
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await shot('export', scheme);
  }
  // Markdown has the focus: Enter saves it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toBe('hello-say-hello-lovelace-2.md');
  const md = readFileSync((await download.path()) as string, 'utf8');
  expect(md).toMatch(/^# Hello: say hello — Lovelace \(2\)\n/);
  expect(md).toContain('### You');
  expect(md).toContain('Hello, **Lovelace**!');

  await item.focus();
  await page.keyboard.press('F2');
  const title = nav.getByRole('textbox', { name: 'Conversation title' });
  await title.fill('Greeting Ada');
  await title.press('Enter');
  const renamed = nav.getByRole('button', { name: /^Greeting Ada/ });
  await expect(renamed).toBeVisible();

  await renamed.focus();
  await page.keyboard.press('Delete');
  const confirm = page.getByRole('dialog', { name: 'Delete conversation?' });
  await expect(confirm).toBeVisible();
  // Cancel has the focus (deleting is the deliberate choice): Tab to Delete, then Enter.
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(renamed).toHaveCount(0);
});

test('the conversation list is one Tab stop with arrows inside', async () => {
  const nav = sidebar(page);
  const items = nav.locator('[data-conversation-button]');
  expect(await items.count()).toBeGreaterThan(2);
  await expect(nav.locator('[data-conversation-button][tabindex="0"]')).toHaveCount(1);
  const stop = nav.locator('[data-conversation-button][tabindex="0"]');
  await stop.focus();
  await page.keyboard.press('Home');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(items.last()).toBeFocused();
  // Tab leaves the list in one step.
  await page.keyboard.press('Tab');
  const inList = await page.evaluate(() => document.activeElement?.hasAttribute('data-conversation-button') ?? false);
  expect(inList).toBe(false);
});

test('a finished result is announced politely; opening the plugin panel moves focus into it', async () => {
  await s.newConversation(page);
  await s.send(page, '/hello:count to=2 delay_ms=200');
  const region = page.locator('[data-live-announcer]');
  await expect(region).toHaveAttribute('aria-live', 'polite');
  await expect(region).toContainText('Hello count finished.', { timeout: 15_000 });
  await expect(region).toContainText('Counted to 2');

  await s.panel(page).getByRole('button', { name: 'Close panel' }).click();
  await expect(s.panel(page)).toBeHidden();
  await page.getByRole('button', { name: 'Plugins', exact: true }).click();
  await expect(s.panel(page).getByRole('searchbox', { name: 'Filter plugins' })).toBeFocused();
});

test('passthrough: / goes to the plugin without the palette, the kept-session line shows once, and a reload keeps the banner', async () => {
  await s.newConversation(page);
  await s.send(page, '/hello:start_conversation topic=tea');
  await expect(page.getByText('Talking to')).toContainText('what you type, / too, goes straight to it');
  await s.composer(page).fill('/summary');
  await expect(page.getByRole('listbox', { name: 'Tools and commands' })).toBeHidden();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(s.lastPluginMessage(page)).toContainText('/summary', { timeout: 15_000 });
  await s.send(page, 'Earl Grey, please');
  await expect(s.lastPluginMessage(page)).toContainText('Earl Grey, please', { timeout: 15_000 });
  await expect(page.getByText('kept the session open')).toHaveCount(1);
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await shot('passthrough', scheme);
  }
  await page.reload();
  await expect(s.composer(page)).toBeEditable({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Exit passthrough' })).toBeVisible();
  await page.getByRole('button', { name: 'Exit passthrough' }).click();
  await expect(page.getByRole('button', { name: 'Exit passthrough' })).toBeHidden();
});

test('screenshots: the palette ranking and the conversation list', async () => {
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await s.composer(page).fill('/hello');
    await expect(page.getByRole('option').first()).toBeVisible();
    await shot('palette', scheme);
    await page.keyboard.press('Escape');
    await s.composer(page).fill('');
  }
});
