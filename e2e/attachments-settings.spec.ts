/**
 * A daily driver (issue 12), items 9 and 10, end to end against a real `plugboard serve` in
 * Chromium with the scripted model server (no language model can run here): files attached in
 * the composer (picked, dropped, refused past a cap, uploaded first when large) reach the model as
 * a text block and an image part and are still there after a reload; and Settings as the one
 * place for approvals, shortcuts, the data folder and the sandbox, navigable by keyboard, usable
 * at 1280×800 and narrow. Screenshots in both themes (PLUGBOARD_SHOTS_DIR, else e2e/screenshots/).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { spawnModelServer, type ModelServerProcess } from '../test/model-server/process';
import { text } from '../test/model-server/steps';
import * as a from './assistant-scenarios';
import { composer, newConversation, openApp, pluginRow } from './scenarios';
import { gradientPng } from './support/png';
import { cli, startServe, weatherZip, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

const PNG = gradientPng(240, 150);
const NOTES = '# Groceries\n- oat milk\n- lemons\n';

let served: Served;
let model: ModelServerProcess;
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  model = await spawnModelServer();
  served = await startServe({
    prepare: (dataDir) =>
      cli(
        [
          'models',
          'add',
          'Scripted',
          '--provider',
          'openai-compatible',
          '--base-url',
          model.baseURL,
          '--model',
          'scripted-model',
          '--default',
        ],
        dataDir,
      ),
  });
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  await page.goto(served.url);
  await openApp(page);
});

test.afterAll(async () => {
  await page?.context().close();
  await Promise.all([served?.stop(), model?.stop()]);
});

const picker = (): Locator => page.getByTestId('attach-input');
const chips = (): Locator => page.getByRole('list', { name: 'Files to send' });
const lastUser = (): Locator => page.locator('article[data-role="user"]').last();

test('a text file and an image, picked, go to the model and stay with the message after a reload', async () => {
  await newConversation(page);
  await expect(page.getByRole('button', { name: 'Attach files' })).toBeVisible();
  await picker().setInputFiles([
    { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from(NOTES) },
    { name: 'gradient.png', mimeType: 'image/png', buffer: PNG },
  ]);
  await expect(chips()).toContainText('notes.md');
  await expect(chips()).toContainText('gradient.png');
  await composer(page).fill('What do these say?');
  await shootBothThemes(page, 'composer-attachments', async () => {
    await expect(chips().getByRole('button', { name: 'Remove notes.md' })).toBeVisible();
  });
  await a.script(model, text('A grocery list and a gradient.'));
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(a.lastAnswer(page)).toContainText('A grocery list and a gradient.');
  await expect(chips()).toHaveCount(0);

  const calls = await model.modelCalls();
  const body = calls.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
  expect(body.messages.find((m) => m.role === 'user')?.content).toEqual([
    { type: 'text', text: 'What do these say?' },
    { type: 'text', text: `<attached-file name="notes.md">\n${NOTES}\n</attached-file>` },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
  ]);

  const check = async (): Promise<void> => {
    await expect(lastUser().getByRole('img', { name: 'gradient.png' })).toBeVisible();
    await expect(lastUser()).toContainText('notes.md');
    await expect(lastUser()).toContainText('What do these say?');
  };
  await check();
  await shootBothThemes(page, 'message-attachments', check);
  await page.reload();
  await openApp(page);
  await check();
});

test('a message with files is edited: one removed, one added; the model reads the edit, the earlier version keeps its own', async () => {
  const mine = lastUser();
  await mine.hover();
  await mine.getByRole('button', { name: 'Edit' }).click();
  const again = page.getByRole('list', { name: 'Files to send again' });
  await expect(again).toContainText('notes.md');
  await expect(again).toContainText('gradient.png');
  await again.getByRole('button', { name: 'Remove gradient.png' }).click();
  await expect(again).not.toContainText('gradient.png');
  await page
    .getByLabel('Files to attach to the edited message')
    .setInputFiles([{ name: 'more.md', mimeType: 'text/markdown', buffer: Buffer.from('- bread\n') }]);
  await expect(again).toContainText('more.md');
  const box = page.getByRole('textbox', { name: 'Edit your message' });
  await box.fill('And with bread?');
  await shootBothThemes(page, 'edit-message-files', async () => {
    await expect(again.getByRole('button', { name: 'Remove more.md' })).toBeVisible();
  });
  await a.script(model, text('Bread too.'));
  await box.press('Enter');
  await expect(a.lastAnswer(page)).toContainText('Bread too.');

  const calls = await model.modelCalls();
  const body = calls.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
  expect(body.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
    [
      { type: 'text', text: 'And with bread?' },
      { type: 'text', text: `<attached-file name="notes.md">\n${NOTES}\n</attached-file>` },
      { type: 'text', text: '<attached-file name="more.md">\n- bread\n\n</attached-file>' },
    ],
  ]);
  await expect(lastUser()).toContainText('And with bread?');
  await expect(lastUser()).toContainText('more.md');
  await expect(lastUser().getByRole('img', { name: 'gradient.png' })).toHaveCount(0);
  const earlier = page.locator('[data-earlier-version]').first();
  await expect(earlier).toContainText('Your earlier message: “What do these say?”');
  await earlier.getByRole('button', { expanded: false }).click();
  await expect(earlier.getByRole('img', { name: 'gradient.png' })).toBeVisible();
});

test('a drop on the composer attaches (not installs); a chip is removed; past a cap the file is named with the cap', async () => {
  await newConversation(page);
  const box = composer(page).locator('xpath=..');
  const dt = await page.evaluateHandle(() => {
    const d = new DataTransfer();
    d.items.add(new File(['dropped text'], 'dropped.txt', { type: 'text/plain' }));
    return d;
  });
  await box.dispatchEvent('dragenter', { dataTransfer: dt });
  await expect(box).toContainText('Drop to attach to your message');
  await box.dispatchEvent('drop', { dataTransfer: dt });
  await expect(chips()).toContainText('dropped.txt');
  await expect(page.getByRole('dialog')).toHaveCount(0); // no install preview
  await chips().getByRole('button', { name: 'Remove dropped.txt' }).click();
  await expect(chips()).toHaveCount(0);

  await picker().setInputFiles([
    { name: 'huge.log', mimeType: 'text/plain', buffer: Buffer.alloc(300 * 1024, 'a') },
    { name: 'tool.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0, 1, 2, 3]) },
  ]);
  const alert = page.getByRole('alert').filter({ hasText: 'huge.log' });
  await expect(alert).toContainText('huge.log is 300 KiB: text files are capped at 256 KiB (images at 5 MiB)');
  await expect(alert).toContainText('tool.bin is neither text (UTF-8) nor an image');
  await expect(chips()).toHaveCount(0);
});

/** Drops files on `target` as a browser delivers them, from bytes. */
async function dropOn(target: Locator, files: Array<{ name: string; type: string; bytes: Buffer }>): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    (list) => {
      const dt = new DataTransfer();
      for (const f of list) {
        const bin = atob(f.b64);
        const arr = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) arr[i] = bin.charCodeAt(i);
        dt.items.add(new File([arr], f.name, { type: f.type }));
      }
      return dt;
    },
    files.map((f) => ({ name: f.name, type: f.type, b64: f.bytes.toString('base64') })),
  );
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

test('a drop is routed by what it holds: a plugin on the composer installs, a text file on the chat attaches; two plugins install one after the other', async () => {
  await newConversation(page);
  const zip = readFileSync(weatherZip(mkdtempSync(path.join(os.tmpdir(), 'plugboard-e2e-drops-'))));
  const box = composer(page).locator('xpath=..');
  await dropOn(box, [{ name: 'weather.zip', type: 'application/zip', bytes: zip }]);
  const first = page.getByRole('dialog', { name: /^Install / });
  await expect(first).toContainText('weather', { timeout: 20_000 });
  await expect(chips()).toHaveCount(0);
  await first.getByRole('button', { name: 'Cancel' }).first().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await dropOn(page.getByRole('main', { name: 'Chat' }), [
    { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('dropped on the chat') },
  ]);
  await expect(chips()).toContainText('notes.txt');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await chips().getByRole('button', { name: 'Remove notes.txt' }).click();

  // Over the window, the overlay says both what installs and what attaches.
  const held = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['x'], 'weather.zip', { type: 'application/zip' }));
    return dt;
  });
  await page.locator('body').dispatchEvent('dragenter', { dataTransfer: held });
  await expect(page.getByText('Drop to install, or to attach')).toBeVisible();
  await shootBothThemes(page, 'drop-overlay', async () => {
    await expect(page.getByText('Drop to install, or to attach')).toBeVisible();
  });
  await page.locator('body').dispatchEvent('dragleave', { dataTransfer: held });
  await expect(page.getByText('Drop to install, or to attach')).toBeHidden();

  await dropOn(page.locator('body'), [
    { name: 'weather.zip', type: 'application/zip', bytes: zip },
    { name: 'forecast.zip', type: 'application/zip', bytes: zip },
  ]);
  // Both are the G-Assist fixture, named by their files: weather, then forecast.
  const preview = page.getByRole('dialog', { name: 'Install gassist-python' });
  await expect(preview.locator('code').first()).toHaveText('weather', { timeout: 20_000 });
  await preview.getByRole('button', { name: 'Install', exact: true }).click();
  // Once the first is in, the second's preview opens by itself.
  await expect(preview.locator('code').first()).toHaveText('forecast', { timeout: 20_000 });
  await preview.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0, { timeout: 20_000 });
  await expect(pluginRow(page, 'weather')).toBeVisible();
  await expect(pluginRow(page, 'forecast')).toBeVisible();
});

test('a / command with a file is refused, saying why, and the file stays in the composer', async () => {
  await newConversation(page);
  await picker().setInputFiles([{ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('alpha') }]);
  await composer(page).fill('/hello:count to=2');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(lastUser()).toContainText('Not sent: a / command runs a tool with what you type and takes no files');
  await expect(chips()).toContainText('a.txt');
  // Retry sends the files again (taking them from the composer); refused again, they come back once.
  await lastUser().getByRole('button', { name: 'Retry' }).click();
  await expect(lastUser()).toContainText('Not sent: a / command');
  await expect(chips().getByRole('listitem')).toHaveCount(1);
  await chips().getByRole('button', { name: 'Remove a.txt' }).click();
});

test('a large image goes through the upload, and is kept', async () => {
  await newConversation(page);
  // A PNG header and 3 MiB after it: too large to go inline over the WebSocket.
  const big = Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]);
  await picker().setInputFiles([{ name: 'big.png', mimeType: 'image/png', buffer: big }]);
  await expect(chips()).toContainText('big.png');
  await a.script(model, text('Large.'));
  const uploaded = page.waitForResponse((r) => r.url().endsWith('/upload') && r.status() === 200);
  await composer(page).fill('and this?');
  await page.getByRole('button', { name: 'Send' }).click();
  await uploaded;
  await expect(a.lastAnswer(page)).toContainText('Large.');
  const calls = await model.modelCalls();
  expect(JSON.stringify(calls.at(-1)!.body)).toContain(
    `data:image/png;base64,${big.subarray(0, 30).toString('base64').slice(0, 36)}`,
  );
  await page.reload();
  await openApp(page);
  await expect(lastUser().locator('li[data-kind="image"]')).toHaveCount(1);
  await expect(lastUser()).toContainText('and this?');
});

test('Settings: each section by keyboard, approvals kept, the data folder copied, the sandbox said', async () => {
  const dialog = await a.openSettings(page);
  const nav = dialog.getByRole('navigation', { name: 'Settings sections' });
  await nav.getByRole('button', { name: 'Models' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(nav.getByRole('button', { name: 'Assistant' })).toBeFocused();
  await expect(dialog.getByRole('region', { name: 'Assistant' })).toBeVisible();
  await page.keyboard.press('End');
  await expect(nav.getByRole('button', { name: 'Sandbox' })).toBeFocused();
  await expect(dialog.getByRole('region', { name: 'Sandbox' })).toBeVisible();
  await page.keyboard.press('Home');
  await expect(dialog.getByRole('region', { name: 'Models' })).toBeVisible();
  // One Tab stop: Tab from the current section leaves the list.
  await expect(nav.locator('button[tabindex="0"]')).toHaveCount(1);

  const sections: Array<[string, string, () => Promise<void>]> = [
    ['Models', 'models', async () => expect(dialog.locator('[data-model="Scripted"]')).toBeVisible()],
    [
      'Assistant',
      'assistant',
      async () => expect(dialog.getByRole('form', { name: 'Assistant settings' })).toBeVisible(),
    ],
    [
      'Approvals',
      'approvals',
      async () => expect(dialog.getByRole('radio', { name: /Allow read-only tools/ })).toBeVisible(),
    ],
    ['Appearance', 'appearance', async () => expect(dialog.getByRole('radiogroup', { name: 'Theme' })).toBeVisible()],
    [
      'Shortcuts',
      'shortcuts',
      async () => expect(dialog.getByRole('table', { name: 'Keyboard shortcuts' })).toContainText('Switch theme'),
    ],
    ['Data folder', 'data', async () => expect(dialog.getByTestId('data-dir')).toHaveText(served.dataDir)],
    [
      'Sandbox',
      'sandbox',
      async () => expect(dialog.getByRole('table', { name: 'Capabilities here' })).toContainText('net'),
    ],
  ];
  for (const [label, key, ready] of sections) {
    await nav.getByRole('button', { name: label }).click();
    await ready();
    await shootBothThemes(page, `settings-${key}`, ready);
  }

  await nav.getByRole('button', { name: 'Approvals' }).click();
  await dialog.getByRole('radio', { name: 'Ask for every call' }).click();
  await expect(dialog.getByRole('status')).toContainText('Saved');
  await a.closeSettings(page);
  await a.openSettings(page);
  await nav.getByRole('button', { name: 'Approvals' }).click();
  await expect(dialog.getByRole('radio', { name: 'Ask for every call' })).toHaveAttribute('aria-checked', 'true');
  await dialog.getByRole('radio', { name: /Allow read-only tools/ }).click();
  await expect(dialog.getByRole('radio', { name: /Allow read-only tools/ })).toHaveAttribute('aria-checked', 'true');

  await nav.getByRole('button', { name: 'Data folder' }).click();
  await expect(dialog.getByRole('button', { name: 'Open folder' })).toHaveCount(0); // the web UI cannot open the server's folders
  await dialog.getByRole('button', { name: 'Copy path' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(served.dataDir);

  await nav.getByRole('button', { name: 'Sandbox' }).click();
  await expect(dialog.locator('[data-sandboxed]')).toContainText(
    /Plugins run (sandboxed with bubblewrap|unsandboxed here)/,
  );
  await expect(dialog.locator('dl').last()).toContainText('Linuxthis computer');

  // At 1280×800 the dialog fits the window; narrow, the sections go on top and it still fits.
  for (const size of [
    { width: 1280, height: 800 },
    { width: 560, height: 720 },
  ]) {
    await page.setViewportSize(size);
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(size.width);
    expect(box.y + box.height).toBeLessThanOrEqual(size.height);
    await expect(dialog.getByRole('button', { name: 'Close' }).last()).toBeInViewport();
  }
  await shootBothThemes(page, 'settings-narrow', async () =>
    expect(dialog.getByRole('region', { name: 'Sandbox' })).toBeVisible(),
  );
  await page.setViewportSize({ width: 1280, height: 800 });
  await a.closeSettings(page);
});
