/**
 * Limits and running as root, in the web UI (issue 18 items 2 and 3): a real `plugboard serve` in
 * Debian's Chromium. A running plugin's Permissions tab shows each limit, where its value comes
 * from and what its sandbox uses now; a changed limit is the person's ("yours") until put back.
 * Settings → Sandbox says how limits are held here and, when Plugboard runs as root, what that
 * means. Screenshots of each, light and dark, go to e2e/screenshots/ (support/shots.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { sandboxSupport } from '../src/main/host/process/sandbox-probe';
import * as a from './assistant-scenarios';
import { expand, health, openApp, pluginRow } from './scenarios';
import { startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

const support = sandboxSupport();
const asRoot = process.getuid?.() === 0;

let served: Served;
let page: Page;

test.describe.configure({ mode: 'serial' });
test.skip(
  !support.available,
  `plugins run unsandboxed here, so no limits hold: ${support.available ? '' : support.reason}`,
);

test.beforeAll(async ({ browser }) => {
  served = await startServe();
  page = await browser.newPage();
  await page.goto(served.url);
  await openApp(page);
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
});

const shoot = (name: string, fn: () => Promise<void>): Promise<void> => shootBothThemes(page, name, fn);

test('a running plugin’s limits, what it uses of them, and a limit of yours', async () => {
  await expect(health(page, 'stress')).toHaveText('ready', { timeout: 30_000 });
  await expand(page, 'stress');
  const row = pluginRow(page, 'stress');
  await row.getByRole('tab', { name: 'Permissions' }).click();
  const limits = row.getByRole('table', { name: 'Limits of stress' });
  await expect(limits.getByRole('row', { name: /^Memory/ })).toContainText('(default)');
  // Its sandbox's use, measured while it runs.
  await expect(limits.getByRole('meter', { name: 'memory in use' })).toBeVisible({ timeout: 15_000 });
  await expect(limits.getByRole('meter', { name: 'process in use' })).toHaveAttribute('aria-valuenow', /^[1-9]/);

  await row.getByRole('button', { name: 'Change the limits of stress' }).click();
  await row.getByRole('textbox', { name: 'memory limit of stress' }).fill('1G');
  await row.getByRole('button', { name: 'Save limits' }).click();
  await expect(limits.getByRole('row', { name: /^Memory/ })).toContainText('1 GiB (yours)');
  await expect(health(page, 'stress')).toHaveText('ready', { timeout: 30_000 });
  await shoot('sandbox-limits', async () => {
    await row.getByRole('region', { name: 'Limits' }).scrollIntoViewIfNeeded();
    await expect(limits.getByRole('meter', { name: 'memory in use' })).toBeVisible({ timeout: 15_000 });
  });

  await row.getByRole('button', { name: 'Back to defaults' }).click();
  await expect(limits.getByRole('row', { name: /^Memory/ })).toContainText('(default)');
});

test('Settings → Sandbox says how limits are held, and what running as root means', async () => {
  const dialog = await a.openSettings(page);
  await dialog.getByRole('navigation', { name: 'Settings sections' }).getByRole('button', { name: 'Sandbox' }).click();
  const section = dialog.getByRole('region', { name: 'Sandbox' });
  await expect(section).toContainText('Each plugin is held to its limits');
  const note = section.getByRole('note', { name: 'Running as root' });
  if (asRoot) await expect(note).toContainText(/runs in its sandbox as the unprivileged user|setpriv/);
  else await expect(note).toHaveCount(0);
  await shoot('sandbox-settings', async () => {
    await expect(section).toBeVisible();
  });
  await a.closeSettings(page);
});
