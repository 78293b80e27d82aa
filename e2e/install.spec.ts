/**
 * Installing without dragging, and settings where they are needed (issue 12, items 4 and 5), end
 * to end against a real `plugboard serve` in Chromium: the Install plugin… button reached with
 * Tab, the picker, the preview's trial of the plugin (a real launch and handshake on the server),
 * the toast clear of Send, a folder packed by the page and uploaded, a plugin that fails its
 * trial, the shortcut, and a save of settings that brings a failed plugin back with no reload.
 * Screenshots of the preview in both themes go to e2e/screenshots/ (support/shots.ts).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type FileChooser, type Locator, type Page } from '@playwright/test';
import * as s from './scenarios';
import { claudeConfig, REPO, startServe, weatherZip, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

const FIXTURES = path.join(REPO, 'test', 'fixtures');
let served: Served;
let page: Page;
let scratch: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  served = await startServe();
  scratch = mkdtempSync(path.join(os.tmpdir(), 'plugboard-e2e-install-'));
  page = await browser.newPage();
  await page.goto(served.url);
  await s.openApp(page);
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Presses Tab until `target` has the focus (at most `max` times): it is reachable by keyboard. */
async function tabTo(target: Locator, max = 40): Promise<void> {
  await page.locator('body').focus();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`not reached with ${max} presses of Tab`);
}

/**
 * Presses Enter on the focused choice and resolves with the file chooser it opens. Playwright
 * intercepts choosers only once its subscription to them has reached the browser, a round trip
 * that runs beside the key press: on a busy machine the chooser can open first, and headless
 * Chromium then dismisses it at once, which the input tells with a `cancel` event. That is
 * waited for too, and the press repeated, so the test waits for one of two events, never for time.
 */
async function enterForChooser(input: Locator): Promise<FileChooser> {
  type Counted = { choosersDismissed: number };
  const chooser = page.waitForEvent('filechooser');
  await input.evaluate((el) => {
    const w = window as unknown as Counted;
    w.choosersDismissed = 0;
    el.addEventListener('cancel', () => w.choosersDismissed++);
  });
  for (let pressed = 1; ; pressed++) {
    await page.keyboard.press('Enter');
    const dismissed = page
      .waitForFunction((n) => (window as unknown as Counted).choosersDismissed >= n, pressed)
      .then(() => null);
    const first = await Promise.race([chooser, dismissed]);
    if (!first) continue;
    // The wait for a dismissal ends too: nothing keeps polling the page.
    await page.evaluate(() => ((window as unknown as Counted).choosersDismissed = Infinity));
    await dismissed;
    return first;
  }
}

/** A plugin folder to choose in the picker: the G-Assist fixture with one tool and `manifest` laid over. */
function gassistFolder(id: string, manifest: Record<string, unknown>): string {
  const dir = path.join(scratch, id);
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(FIXTURES, 'lib', 'gassist.mjs'), path.join(dir, 'plugin.mjs'));
  const base = {
    id,
    version: '1.0.0',
    protocol: 'gassist-v2',
    command: ['node', 'plugin.mjs'],
    functions: [{ name: 'echo', description: 'Echo' }],
  };
  writeFileSync(path.join(dir, 'plugboard.json'), JSON.stringify({ ...base, ...manifest }));
  return dir;
}

function boxesOverlap(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The Installed toast and the Send button share no pixel. */
async function toastClearOfSend(toast: Locator): Promise<void> {
  const t = await toast.boundingBox();
  const send = await page.getByRole('button', { name: 'Send' }).boundingBox();
  expect(t && send).toBeTruthy();
  if (t && send)
    expect(boxesOverlap(t, send), `toast ${JSON.stringify(t)} covers Send ${JSON.stringify(send)}`).toBe(false);
}

test('keyboard only: Tab to Install plugin…, choose a zip, see the trial, install; the toast leaves Send free', async () => {
  const header = page.getByRole('banner');
  const button = header.getByRole('button', { name: 'Install plugin…' });
  await tabTo(button);
  await page.keyboard.press('Enter');
  const picker = page.getByRole('dialog', { name: 'Install a plugin' });
  await expect(picker).toBeVisible();
  const chooseFile = picker.getByRole('button', { name: /Choose a file/ });
  await expect(chooseFile).toBeFocused();
  // Enter on the choice opens the system's file picker, which Playwright answers.
  const chooser = await enterForChooser(picker.getByLabel('Plugin file'));
  expect(chooser.isMultiple()).toBe(false);
  await chooser.setFiles(weatherZip(scratch));

  const dialog = page.getByRole('dialog', { name: /Install gassist-python/ });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  const trial = dialog.locator('[data-install-trial]');
  await expect(trial).toHaveAttribute('data-install-trial', 'ok');
  await expect(trial.getByRole('status')).toContainText(
    /Started and answered its handshake in \d+ ms, offering \d+ tools?/,
  );
  // The command as it will run once installed, from the plugin's own folder in the data directory.
  await expect(trial).toContainText(/python3? \S+\/data\/plugins\/weather\/plugin\.py/);
  await expect(trial).not.toContainText('.staging');
  // Focus is on Install, in the dialog that now shows.
  const install = dialog.getByRole('button', { name: 'Install', exact: true });
  await expect(install).toBeFocused();
  await shootBothThemes(page, 'install-preview', async () => {
    await expect(trial).toBeVisible();
  });
  await install.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  const toast = page.getByText(/^Installed gassist-python/);
  await expect(toast).toBeVisible();
  await toastClearOfSend(toast.locator('xpath=..'));
  // Focus goes back to the button it all began from.
  await expect(button).toBeFocused();
  await expect(s.pluginRow(page, 'weather')).toBeVisible();
});

test('dismissing the system file picker leaves the install dialog open; Escape closes it', async () => {
  await page.keyboard.press('Control+i');
  const picker = page.getByRole('dialog', { name: 'Install a plugin' });
  await expect(picker).toBeVisible();
  // What Chromium does when its file picker is closed with nothing chosen: the input fires a
  // `cancel` that bubbles (seen in this browser). It once closed the whole dialog.
  await picker.getByLabel('Plugin file').dispatchEvent('cancel');
  // A frame later, whatever the event set off has rendered.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  await expect(picker.getByRole('button', { name: /Choose a file/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
});

test('the toast is clear of Send in a narrow window too', async () => {
  await page.setViewportSize({ width: 720, height: 800 });
  try {
    // The panel takes most of a narrow window: closed, the composer is as wide as it gets.
    await s.panel(page).getByRole('button', { name: 'Close panel' }).click();
    await page.keyboard.press('Control+i');
    const picker = page.getByRole('dialog', { name: 'Install a plugin' });
    await expect(picker).toBeVisible();
    await picker.getByLabel('Plugin file').setInputFiles(weatherZip(mkdtempSync(path.join(scratch, 'w-'))));
    // After the test above it is an update; run alone, an install.
    const dialog = page.getByRole('dialog', { name: /(Update|Install) gassist-python/ });
    await expect(dialog.locator('[data-install-trial="ok"]')).toBeVisible({ timeout: 20_000 });
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    const toast = page.getByText(/^Installed gassist-python/).last();
    await expect(toast).toBeVisible({ timeout: 20_000 });
    await toastClearOfSend(toast.locator('xpath=..'));
    await shootBothThemes(page, 'install-toast-narrow', async () => {
      await expect(toast).toBeVisible();
    });
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
    await s.openApp(page);
  }
});

test('a folder chosen in the web UI is packed, uploaded, tried and installed', async () => {
  const help = page.getByRole('button', { name: 'Keyboard shortcuts' });
  await help.click();
  const helpDialog = page.getByRole('dialog', { name: 'Help' });
  await expect(helpDialog).toContainText('Install a plugin from a file or folder');
  await page.keyboard.press('Escape');

  await s.panel(page).getByRole('button', { name: 'Install plugin…' }).click();
  const picker = page.getByRole('dialog', { name: 'Install a plugin' });
  await picker.getByLabel('Plugin folder').setInputFiles(path.join(FIXTURES, 'mcpb-echo'));
  const dialog = page.getByRole('dialog', { name: /Install MCPB echo/ });
  const trial = dialog.locator('[data-install-trial]');
  await expect(trial).toHaveAttribute('data-install-trial', 'ok', { timeout: 20_000 });
  await expect(trial.getByRole('status')).toContainText('offering 2 tools');
  await expect(trial).toContainText('--greeting Hello');
  // Who made it, and its own picture (the bundle's icon.png), as the bundle says.
  await expect(dialog.locator('[data-install-about]')).toHaveText('by Plugboard tests · MIT license');
  await expect(dialog.locator('img[data-server-icon]')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await shootBothThemes(page, 'install-preview-bundle', async () => {
    await expect(dialog.locator('img[data-server-icon]')).toBeVisible();
  });
  await dialog.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(s.pluginRow(page, 'mcpb-echo')).toBeVisible();
  await s.newConversation(page);
  await s.send(page, '/mcpb-echo:greet name=Ada');
  await expect(s.lastPluginMessage(page)).toContainText('Hello, Ada!', { timeout: 15_000 });
});

test('a plugin that fails its trial says how, before anything is installed', async () => {
  const dir = gassistFolder('quitter', { name: 'Quitter', env: { FIXTURE_MODE: 'exit-before-handshake' } });
  await page.keyboard.press('Control+i');
  await page.getByRole('dialog', { name: 'Install a plugin' }).getByLabel('Plugin folder').setInputFiles(dir);
  const dialog = page.getByRole('dialog', { name: /Install Quitter/ });
  const trial = dialog.locator('[data-install-trial]');
  await expect(trial).toHaveAttribute('data-install-trial', 'failed', { timeout: 20_000 });
  await expect(trial.getByRole('status')).toContainText('handshake_failed');
  await expect(trial.getByRole('status')).toContainText('exited during the handshake');
  // Not installed by a reflex Enter: Cancel has the focus, and the button says what it would do.
  await expect(dialog.locator('footer').getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Install anyway' })).toBeVisible();
  await shootBothThemes(page, 'install-preview-failed', async () => {
    await expect(trial).toBeVisible();
  });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(s.pluginRow(page, 'quitter')).toHaveCount(0);
  expect(readFileSync(path.join(dir, 'plugboard.json'), 'utf8')).toContain('quitter');
});

test('a version that fails its trial, over one that works, is said to replace a working plugin before Install anyway', async () => {
  const steady = gassistFolder('steady', { name: 'Steady' });
  await page.keyboard.press('Control+i');
  await page.getByRole('dialog', { name: 'Install a plugin' }).getByLabel('Plugin folder').setInputFiles(steady);
  const first = page.getByRole('dialog', { name: 'Install Steady' });
  await expect(first.locator('[data-install-trial]')).toHaveAttribute('data-install-trial', 'ok', { timeout: 20_000 });
  await first.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(first).toBeHidden({ timeout: 20_000 });
  await expect(s.health(page, 'steady')).toHaveText(/ready|stopped/, { timeout: 20_000 });

  const broken = gassistFolder('steady-2', {
    id: 'steady',
    name: 'Steady',
    version: '1.1.0',
    env: { FIXTURE_MODE: 'exit-before-handshake' },
  });
  await page.keyboard.press('Control+i');
  await page.getByRole('dialog', { name: 'Install a plugin' }).getByLabel('Plugin folder').setInputFiles(broken);
  const update = page.getByRole('dialog', { name: 'Update Steady' });
  await expect(update.locator('[data-install-trial]')).toHaveAttribute('data-install-trial', 'failed', {
    timeout: 20_000,
  });
  await expect(update.locator('[data-replaces-working]')).toHaveText(
    'Steady 1.0.0 is installed and works. This version failed its trial: installing it replaces the working one.',
  );
  await shootBothThemes(page, 'install-replaces-working', async () => {
    await expect(update.locator('[data-replaces-working]')).toBeVisible();
  });
  await page.keyboard.press('Escape');
  await expect(update).toBeHidden();
  // Nothing changed: the working version is still the one installed.
  await s.expand(page, 'steady');
  await expect(s.pluginRow(page, 'steady')).toContainText('1.0.0');
});

test('a plugin that needs a setting is not tried, and the preview asks for the setting', async () => {
  const dir = gassistFolder('keyed', {
    name: 'Keyed',
    settings: {
      api_url: { type: 'string', title: 'Service URL', description: 'Where the service answers', required: true },
    },
  });
  await page.keyboard.press('Control+i');
  await page.getByRole('dialog', { name: 'Install a plugin' }).getByLabel('Plugin folder').setInputFiles(dir);
  const dialog = page.getByRole('dialog', { name: /Install Keyed/ });
  const trial = dialog.locator('[data-install-trial]');
  await expect(trial).toHaveAttribute('data-install-trial', 'skipped', { timeout: 20_000 });
  await expect(trial.getByRole('status')).toContainText(
    'Not tried: required settings are not set: api_url (Service URL)',
  );
  // The preview's form asks for it (issue 21: installed configured, in one step).
  const form = dialog.getByRole('region', { name: 'Settings' });
  await expect(form.getByRole('textbox', { name: 'Service URL (required)' })).toBeVisible();
  await expect(form).toContainText('Where the service answers');
  await shootBothThemes(page, 'install-preview-needs-settings', async () => {
    await expect(trial).toBeVisible();
  });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('an MCP config chosen in the picker opens the import preview', async () => {
  const file = path.join(scratch, 'claude_desktop_config.json');
  writeFileSync(file, claudeConfig(scratch));
  await page.keyboard.press('Control+i');
  await page.getByRole('dialog', { name: 'Install a plugin' }).getByLabel('Plugin file').setInputFiles(file);
  const dialog = page.getByRole('dialog', { name: 'Import MCP servers from Claude Desktop' });
  const forecast = dialog.locator('[data-server="forecast"]');
  await expect(forecast).toBeVisible({ timeout: 20_000 });
  // It runs from a folder of the person's: copying it into Plugboard is offered, not chosen.
  await expect(forecast.locator('[data-copy-offer="yes"]')).toContainText(path.join(scratch, 'code', 'forecast'));
  await expect(forecast.getByRole('checkbox', { name: 'Copy forecast into Plugboard' })).not.toBeChecked();
  await shootBothThemes(page, 'import-copy-offer', async () => {
    await forecast.scrollIntoViewIfNeeded();
    await expect(forecast.locator('[data-copy-offer="yes"]')).toBeVisible();
  });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a valid save of the setting a failed plugin lacked starts it and clears the failure, live', async () => {
  await s.newConversation(page);
  await s.send(page, '/files:list path=/');
  const failed = s.lastPluginMessage(page);
  await expect(failed.locator('[data-failure-code="settings_missing"]')).toBeVisible({ timeout: 15_000 });
  await failed.getByRole('button', { name: 'Open settings' }).click();
  const row = s.pluginRow(page, 'files');
  await expect(s.health(page, 'files')).toHaveText('failed');
  await expect(row.locator('[data-failure-code="settings_missing"]')).toBeVisible();
  const form = s.panel(page).getByRole('form', { name: /Files settings/ });
  const roots = form.locator('textarea').first();
  await expect(roots).toBeFocused();
  await roots.fill(scratch);
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect(form).toContainText('starting it');
  await expect(s.health(page, 'files')).toHaveText('ready', { timeout: 15_000 });
  // The form's line follows what became of it: no "starting" left once it runs.
  await expect(form).toContainText('Files is running.');
  await expect(row.locator('[data-failure-code]')).toHaveCount(0);
  await expect(row).not.toContainText('Needs settings');
  await shootBothThemes(page, 'settings-saved-started', async () => {
    await expect(s.health(page, 'files')).toHaveText('ready');
  });
  // It works: without a path it lists the folder just shared.
  await s.send(page, '/files:list');
  await expect(s.lastPluginMessage(page)).toContainText(scratch, { timeout: 15_000 });
});
