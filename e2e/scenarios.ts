/**
 * What a newcomer does, as steps on a Page, written once and run against the web UI (served by
 * `plugboard serve`) and the Electron window alike. Everything is found the way a person (or a
 * screen reader) finds it: by role and accessible name.
 */
import { expect, type Locator, type Page } from '@playwright/test';

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

export async function newConversation(page: Page): Promise<void> {
  await page.getByRole('button', { name: /new conversation/i }).first().click();
  await expect(composer(page)).toBeEditable();
}

export async function openApp(page: Page): Promise<void> {
  await expect(composer(page)).toBeEditable({ timeout: 20_000 });
  if (!(await panel(page).isVisible())) await page.getByRole('button', { name: /plugins/i }).first().click();
  await expect(panel(page)).toBeVisible();
}

export async function bundledPluginsReady(page: Page): Promise<void> {
  for (const id of ['hello', 'terminal', 'todo']) await expect(health(page, id)).toHaveText('ready', { timeout: 20_000 });
  // files needs a folder first: it waits, stopped, and says so
  await expect(health(page, 'files')).toHaveText('stopped');
  await expect(pluginRow(page, 'files')).toContainText('Needs settings: roots');
}

export async function helloStreams(page: Page): Promise<void> {
  await newConversation(page);
  await send(page, '/hello:count to=6 delay_ms=250');
  const msg = lastPluginMessage(page);
  await expect(msg).toContainText('1', { timeout: 10_000 });
  // Mid-stream: some numbers are on screen and the turn is still running.
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect(msg).not.toContainText('6');
  await expect(msg).toContainText('6', { timeout: 10_000 });
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
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

export async function refusedDrop(page: Page): Promise<void> {
  await dropFile(page, 'notes.zip', Buffer.from('PK this is no zip'));
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('is not a readable zip archive');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

export async function crashAndComeBack(page: Page): Promise<void> {
  await expect(health(page, 'stress')).toHaveText(/ready|stopped/, { timeout: 20_000 });
  await newConversation(page);
  await send(page, '/stress:crash_mid_stream after=2');
  const msg = lastPluginMessage(page);
  await expect(msg).toContainText('crashed', { timeout: 10_000 });
  await expect(msg).toContainText('chunk 1');
  await expect(msg).toContainText('fatal: something broke mid-stream');
  await expect(health(page, 'stress')).toHaveText(/crashed|restarting/);
  await expect(health(page, 'stress')).toHaveText('ready', { timeout: 10_000 });
}
