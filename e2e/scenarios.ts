/**
 * What a newcomer does, as steps on a Page, written once and run against the web UI (served by
 * `plugboard serve`) and the Electron window alike. Everything is found the way a person (or a
 * screen reader) finds it: by role and accessible name.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { STRESS_RESTART_DELAYS_MS } from './support/serve';

/** Long enough for the stress plugin to come back after any of its restart delays. */
export const STRESS_BACK_MS = Math.max(...STRESS_RESTART_DELAYS_MS) + 15_000;

export function panel(page: Page): Locator {
  return page.getByRole('region', { name: 'Plugins' });
}

export function pluginRow(page: Page, id: string): Locator {
  return panel(page).locator(`[data-plugin-id="${id}"]`);
}

export function health(page: Page, id: string): Locator {
  return pluginRow(page, id).getByRole('status');
}

export async function expand(page: Page, id: string): Promise<void> {
  const toggle = pluginRow(page, id).locator('button[aria-expanded]').first();
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

/** The `/` palette's options (other lists on the page, such as a tool's policy, have options too). */
/**
 * Waits until no CSS transition on the page is still running (before a screenshot). Endless
 * animations (a spinner, a pulsing health dot) never finish, so only transitions count.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
  );
}

export function palette(page: Page): Locator {
  return page.getByRole('listbox', { name: 'Tools and commands' });
}

export function composer(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Message' });
}

export async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** The last plugin message of the conversation. */
export function lastPluginMessage(page: Page): Locator {
  return page.locator('article[data-role="plugin"]').last();
}

export function stopButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Stop' });
}

/**
 * Starts noting, in the page, whether the Stop button shows up: call it before sending, and a
 * turn too quick for the test process to catch on screen is still seen to have run.
 */
export async function watchStop(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __stopSeen: boolean };
    w.__stopSeen = false;
    const seen = (): boolean => document.querySelector('button[aria-label="Stop"]') !== null;
    const observer = new MutationObserver(() => {
      if (!seen()) return;
      w.__stopSeen = true;
      observer.disconnect();
    });
    observer.observe(document.body, { subtree: true, childList: true });
  });
}

export async function stopWasSeen(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { __stopSeen: boolean }).__stopSeen);
}

/**
 * Starts recording, in the page, each state of the last plugin message while a turn runs: the
 * numbers on their own lines, and whether Stop was showing. What was on screen, in order, however
 * the test process itself gets scheduled.
 */
async function recordNumbers(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __numbers: { numbers: number[]; stop: boolean }[] };
    w.__numbers = [];
    new MutationObserver(() => {
      const articles = document.querySelectorAll<HTMLElement>('article[data-role="plugin"]');
      const last = articles[articles.length - 1];
      if (!last) return;
      const numbers = last.innerText
        .split('\n')
        .filter((l) => /^\d+$/.test(l.trim()))
        .map(Number);
      const stop = document.querySelector('button[aria-label="Stop"]') !== null;
      const prev = w.__numbers[w.__numbers.length - 1];
      if (prev && prev.stop === stop && prev.numbers.join() === numbers.join()) return;
      w.__numbers.push({ numbers, stop });
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

export async function newConversation(page: Page): Promise<void> {
  // The conversation is made by the server, then opened: what is sent before it is open would go
  // to the one before. Waited for by the open conversation's id changing.
  const chat = page.getByRole('main', { name: 'Chat' });
  const before = (await chat.getAttribute('data-conversation')) ?? '';
  await page
    .getByRole('button', { name: /new conversation/i })
    .first()
    .click();
  await expect(chat).not.toHaveAttribute('data-conversation', before);
  await expect(chat).not.toHaveAttribute('data-conversation', '');
  await expect(composer(page)).toBeEditable();
}

export async function openApp(page: Page): Promise<void> {
  await expect(composer(page)).toBeEditable({ timeout: 20_000 });
  if (!(await panel(page).isVisible()))
    await page
      .getByRole('button', { name: /plugins/i })
      .first()
      .click();
  await expect(panel(page)).toBeVisible();
}

export async function bundledPluginsReady(page: Page): Promise<void> {
  for (const id of ['hello', 'terminal', 'todo'])
    await expect(health(page, id)).toHaveText('ready', { timeout: 20_000 });
  // files needs a folder first: it waits, stopped, and says so
  await expect(health(page, 'files')).toHaveText('stopped');
  await expect(pluginRow(page, 'files')).toContainText('Needs settings: roots');
}

export async function helloStreams(page: Page): Promise<void> {
  await newConversation(page);
  await recordNumbers(page);
  await send(page, '/hello:count to=6 delay_ms=250');
  const msg = lastPluginMessage(page);
  await expect(msg).toContainText('Counted to 6', { timeout: 15_000 });
  await expect(stopButton(page)).toBeHidden();
  const states = await page.evaluate(
    () => (window as unknown as { __numbers: { numbers: number[]; stop: boolean }[] }).__numbers,
  );
  // Every state showed 1, 2, … in order, each one the same or further than the one before.
  let shown = 0;
  for (const { numbers } of states) {
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(numbers.length).toBeGreaterThanOrEqual(shown);
    shown = numbers.length;
  }
  expect(shown).toBe(6);
  // It streamed: some numbers were on screen while the turn still ran (Stop showing), before all.
  expect(states.some((st) => st.stop && st.numbers.length > 0 && st.numbers.length < 6)).toBe(true);
}

export async function passthroughConversation(page: Page): Promise<void> {
  await newConversation(page);
  await send(page, '/hello:start_conversation topic=tea');
  const banner = page.getByText('Talking to');
  await expect(banner).toContainText('Hello');
  await send(page, 'Earl Grey, please');
  await expect(lastPluginMessage(page)).toContainText('Earl Grey, please');
  await page.getByRole('button', { name: 'Exit passthrough' }).click();
  await expect(page.getByRole('button', { name: 'Exit passthrough' })).toBeHidden();
  await send(page, 'back to normal');
  await expect(page.locator('article[data-role="system"]').last()).toContainText('No model is connected');
}

export async function toolSwitchedOff(page: Page): Promise<void> {
  await expand(page, 'hello');
  const toggle = page.getByRole('switch', { name: 'Expose hello:say_hello' });
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(pluginRow(page, 'hello')).toContainText('2/3 tools');
  await newConversation(page);
  await send(page, '/hello:say_hello name=Ada');
  const msg = lastPluginMessage(page);
  await expect(msg).toContainText('tool_not_exposed');
  await expect(msg).toContainText('hello:say_hello is switched off');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
}

/** Drops a file on the window as a browser would deliver it, from bytes. */
export async function dropFile(page: Page, name: string, bytes: Buffer): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ name, b64 }) => {
      const bin = atob(b64);
      const arr = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) arr[i] = bin.charCodeAt(i);
      const dt = new DataTransfer();
      dt.items.add(new File([arr], name, { type: 'application/zip' }));
      return dt;
    },
    { name, b64: bytes.toString('base64') },
  );
  const target = page.locator('body');
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

export async function dropZipAndUseIt(page: Page, zip: Buffer): Promise<void> {
  await dropFile(page, 'weather.zip', zip);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('gassist-python');
  await expect(dialog).toContainText('gassist-v2');
  await expect(dialog).toContainText('say_hello');
  await expect(dialog).toContainText('Read the conversation');
  await dialog.getByRole('button', { name: 'Install' }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(pluginRow(page, 'weather')).toBeVisible();
  await newConversation(page);
  await send(page, '/weather:say_hello name=drop');
  await expect(lastPluginMessage(page)).toContainText('Hello, drop!');
}

/** Drops Claude Desktop's config naming two servers, installs both from the preview, uses each. */
export async function dropClaudeConfigAndUseBoth(page: Page, config: Buffer): Promise<void> {
  await dropFile(page, 'claude_desktop_config.json', config);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Import MCP servers from Claude Desktop');
  await expect(dialog.locator('[data-server="forecast"]')).toContainText('FORECAST_API_KEY');
  await expect(dialog.getByRole('checkbox', { name: 'Keep FORECAST_API_KEY secret' })).toBeChecked();
  await expect(dialog).not.toContainText('fk-9Lq2XmW7pR4vZ8nK3bB6cD1t');
  await expect(dialog.getByRole('checkbox', { name: 'Install journal' })).toBeChecked();
  // Each runs from a folder of the person's: forecast is copied into Plugboard, journal is not.
  await expect(dialog.getByRole('checkbox', { name: 'Copy journal into Plugboard' })).not.toBeChecked();
  await dialog.getByRole('checkbox', { name: 'Copy forecast into Plugboard' }).check();
  await dialog.getByRole('button', { name: 'Install 2 servers' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(pluginRow(page, 'forecast')).toBeVisible();
  await expect(pluginRow(page, 'journal')).toBeVisible();
  await newConversation(page);
  await send(page, '/forecast:greet name=Ada');
  await expect(lastPluginMessage(page)).toContainText('Sunny, Ada!');
  await send(page, '/journal:greet name=Bo');
  await expect(lastPluginMessage(page)).toContainText('Noted, Bo!');
}

export async function refusedDrop(page: Page): Promise<void> {
  await dropFile(page, 'notes.zip', Buffer.from('PK this is no zip'));
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('is not a readable zip archive');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

/** The plugin's automatic restarts, as its row shows them (not shown: none). */
export async function restarts(page: Page, id: string): Promise<number> {
  const value = pluginRow(page, id)
    .locator('dt', { hasText: /^restarts$/ })
    .locator('xpath=following-sibling::dd[1]');
  if ((await value.count()) === 0) return 0;
  return Number(await value.textContent());
}

/**
 * Crashes the stress plugin mid-stream and sees it come back. The crashed and restarting states
 * last a moment only; the restart counter going up and the state back at ready stay, and are
 * waited for long enough for any of its restart delays.
 */
export async function crashStress(page: Page): Promise<void> {
  await expect(health(page, 'stress')).toHaveText(/ready|stopped/, { timeout: STRESS_BACK_MS });
  const before = await restarts(page, 'stress');
  await send(page, '/stress:crash_mid_stream after=2');
  const msg = lastPluginMessage(page);
  await expect(msg).toContainText('crashed', { timeout: 10_000 });
  await expect(msg).toContainText('chunk 1');
  await expect(msg).toContainText('fatal: something broke mid-stream');
  await expect.poll(() => restarts(page, 'stress'), { timeout: STRESS_BACK_MS }).toBe(before + 1);
  await expect(health(page, 'stress')).toHaveText('ready', { timeout: STRESS_BACK_MS });
}

export async function crashAndComeBack(page: Page): Promise<void> {
  await newConversation(page);
  await crashStress(page);
}

/** Types a query after `/` and moves the palette's highlight onto a tool with the arrow keys. */
async function highlight(page: Page, query: string, command: string): Promise<void> {
  await composer(page).fill(query);
  await expect(palette(page).getByRole('option', { name: new RegExp(`^${command}`) })).toBeVisible();
  const names = await palette(page).getByRole('option').allTextContents();
  const at = names.findIndex((n) => n.startsWith(command));
  for (let i = 0; i < at; i++) await composer(page).press('ArrowDown');
  await expect(palette(page).getByRole('option', { selected: true })).toHaveText(new RegExp(`^${command}`));
}

/** Tab in the palette completes the highlighted name and runs nothing; Enter runs it. */
export async function paletteTabCompletes(page: Page): Promise<void> {
  await newConversation(page);
  const box = composer(page);
  await highlight(page, '/tuned', '/tuned:echo');
  await box.press('Tab');
  await expect(box).toHaveValue('/tuned:echo ');
  await expect(box).toBeFocused();
  await expect(page.getByRole('listbox', { name: 'Tools and commands' })).toBeHidden();
  // The palette is closed, so the next Tab leaves the box: no trap.
  await box.press('Tab');
  await expect(box).not.toBeFocused();
  // Nothing ran: the conversation is still empty.
  await expect(page.locator('article[data-message-id]')).toHaveCount(0);
  await highlight(page, '/tuned', '/tuned:echo');
  await box.press('Enter');
  await expect(lastPluginMessage(page)).toHaveAttribute('aria-label', 'Tuned echo: done', { timeout: 15_000 });
}

/** A failure offers what fixes it: Open settings for a missing setting, Enable for a disabled plugin. */
export async function failuresOfferTheFix(page: Page): Promise<void> {
  await newConversation(page);
  await send(page, '/files:list path=/');
  const failed = lastPluginMessage(page);
  await expect(failed.locator('[data-failure-code="settings_missing"]')).toBeVisible({ timeout: 15_000 });
  await failed.getByRole('button', { name: 'Open settings' }).click();
  await expect(panel(page).getByRole('tab', { name: /Settings/, selected: true })).toBeVisible();
  await expect(
    panel(page)
      .getByRole('form', { name: /Files settings/ })
      .locator('textarea, input')
      .first(),
  ).toBeFocused();

  const enable = pluginRow(page, 'tuned').getByRole('switch', { name: 'Enable tuned' });
  await enable.click();
  await expect(enable).toHaveAttribute('aria-checked', 'false');
  await send(page, '/tuned:echo');
  const refused = lastPluginMessage(page);
  await expect(refused.locator('[data-failure-code="disabled"]')).toBeVisible({ timeout: 15_000 });
  await refused.getByRole('button', { name: 'Enable Tuned' }).click();
  await expect(enable).toHaveAttribute('aria-checked', 'true');
  await expect(refused.getByRole('button', { name: 'Enable Tuned' })).toBeHidden();
}

/** An MCP server adds a tool while it runs: the palette and the panel show it (its three tools and the new one), no reload. */
export async function toolListChangesLive(page: Page): Promise<void> {
  await newConversation(page);
  const box = composer(page);
  await box.fill('/fresh');
  await expect(palette(page).getByRole('option', { name: /^\/mcp-dynamic:fresh/ })).toHaveCount(0);
  await box.fill('');
  await send(page, '/mcp-dynamic:add_tool name=fresh');
  await expect(lastPluginMessage(page)).toContainText('added fresh', { timeout: 15_000 });
  await box.fill('/fresh');
  await expect(palette(page).getByRole('option', { name: /^\/mcp-dynamic:fresh/ })).toBeVisible();
  await box.press('Enter');
  await expect(lastPluginMessage(page)).toContainText('I am fresh', { timeout: 15_000 });
  await expect(pluginRow(page, 'mcp-dynamic')).toContainText('4/4 tools');
  await send(page, '/mcp-dynamic:remove_tool name=fresh');
  await expect(lastPluginMessage(page)).toContainText('removed fresh', { timeout: 15_000 });
  await box.fill('/fresh');
  await expect(palette(page).getByRole('option', { name: /^\/mcp-dynamic:fresh/ })).toHaveCount(0);
  await box.fill('');
}

/** With the history focused, the scrolling keys move it. */
export async function keyboardScrollsHistory(page: Page): Promise<void> {
  // A history taller than the window: several answers (a long output is a screenful since issue 21).
  await newConversation(page);
  for (const to of [12, 14, 16, 18]) {
    await send(page, `/hello:count to=${to} delay_ms=0`);
    // The newest answer is the last in view (the list follows the end): done, with its own count.
    await expect(lastPluginMessage(page)).toContainText(`Counted to ${to}.`, { timeout: 30_000 });
  }
  const list = page.getByRole('region', { name: 'Messages' });
  await expect.poll(() => list.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(300);
  await list.focus();
  await expect(list).toBeFocused();
  const top = (): Promise<number> => list.evaluate((el) => Math.round(el.scrollTop));
  const fromBottom = (): Promise<number> =>
    list.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
  await page.keyboard.press('Home');
  await expect.poll(top).toBe(0);
  await page.keyboard.press('PageDown');
  await expect.poll(top).toBeGreaterThan(0);
  await page.keyboard.press('End');
  await expect.poll(fromBottom).toBeLessThanOrEqual(1);
  const end = await top();
  await page.keyboard.press('ArrowUp');
  await expect.poll(top).toBeLessThan(end);
  await page.keyboard.press('PageUp');
  await expect.poll(top).toBeLessThan(end - 100);
}

async function openSettings(page: Page, id: string): Promise<Locator> {
  await expand(page, id);
  await pluginRow(page, id)
    .getByRole('tab', { name: /settings/i })
    .click();
  return pluginRow(page, id).getByRole('form');
}

/**
 * Two windows on one plugin's settings: a value one saves is not undone when the other, whose
 * form was open all along, saves a different field.
 */
export async function settingsKeepOtherWindowsChanges(page: Page, other: Page): Promise<void> {
  const form = await openSettings(page, 'tuned');
  await expect(form.getByLabel('Level')).toHaveValue('1');
  const otherForm = await openSettings(other, 'tuned');
  await otherForm.getByLabel('Level').fill('7');
  await otherForm.getByRole('button', { name: 'Save settings' }).click();
  await expect(otherForm).toContainText('set level');
  await form.getByLabel('Greeting').fill('hi there');
  await form.getByRole('button', { name: 'Save settings' }).click();
  // Only the field edited here was sent.
  await expect(form.getByText(/^set /)).toHaveText('set greeting');
  // Both windows now show both changes.
  await expect(form.getByLabel('Level')).toHaveValue('7');
  await expect(form.getByLabel('Greeting')).toHaveValue('hi there');
  await other.reload();
  await openApp(other);
  const fresh = await openSettings(other, 'tuned');
  await expect(fresh.getByLabel('Level')).toHaveValue('7');
  await expect(fresh.getByLabel('Greeting')).toHaveValue('hi there');
}
