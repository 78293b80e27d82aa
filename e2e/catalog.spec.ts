/**
 * The catalog and updates (issue 17, items 6 and 7), end to end against a real `plugboard serve`
 * in Chromium, with an MCP registry on loopback that speaks the `v0` API
 * (test/helpers/mcp-registry.ts) and an npm registry on loopback publishing the weather entry's
 * made-up package (test/helpers/npm-registry.ts), which the person's .npmrc names: Browse
 * catalog, a search, an entry installed through the import preview (its package really fetched
 * and pinned), set up and called; Check for updates on it and on a plugin installed from a folder
 * whose newer version now sits there, its review with what changes in its tools, the update, and
 * Roll back in its detail. Screenshots in both themes go to e2e/screenshots/ (catalog-*,
 * update-review-*).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registryDoc, startMcpRegistry, type TestRegistry } from '../test/helpers/mcp-registry';
import { startNpmRegistry, type TestNpmRegistry } from '../test/helpers/npm-registry';
import { writeVersionsPlugin } from '../test/helpers/versions-plugin';
import * as s from './scenarios';
import { cli, startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

let served: Served;
let page: Page;
let reg: TestRegistry;
let npm: TestNpmRegistry;
let scratch: string;
let source: string;

test.describe.configure({ mode: 'serial' });

const text = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

test.beforeAll(async ({ browser }) => {
  reg = await startMcpRegistry([
    registryDoc('weather.json'),
    registryDoc('notes-remote.json'),
    registryDoc('playwright.json'),
  ]);
  npm = await startNpmRegistry({ '@plugboard-tests/weather-mcp': ['1.2.0'] });
  scratch = mkdtempSync(path.join(os.tmpdir(), 'plugboard-e2e-catalog-'));
  source = path.join(scratch, 'versions');
  writeVersionsPlugin(source, '1.0.0', [
    { name: 'echo', description: 'Echo the text', inputSchema: text },
    { name: 'shout', description: 'Shout the text', inputSchema: text },
  ]);
  served = await startServe({
    // The person's npm settings name the loopback registry: installing the entry fetches from it.
    env: npm.configure(path.join(scratch, 'person')),
    prepare: (dataDir) => {
      writeFileSync(path.join(dataDir, 'catalog.json'), JSON.stringify({ url: reg.url }));
      cli(['plugins', 'install', source], dataDir);
    },
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(served.url);
  await s.openApp(page);
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  await reg?.close();
  await npm?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('Browse catalog: search, see what an entry offers, install it through the import preview', async () => {
  await s.panel(page).getByRole('button', { name: 'Browse catalog' }).click();
  const dialog = page.getByRole('dialog', { name: 'Browse the catalog' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Catalog entries' }).getByRole('listitem')).toHaveCount(3);
  await dialog.getByRole('searchbox', { name: 'Search the catalog' }).fill('weather');
  const entries = dialog.getByRole('list', { name: 'Catalog entries' }).getByRole('listitem');
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText('Weather');
  await expect(entries.first()).toContainText('io.github.plugboard-tests/weather');
  await expect(dialog).toContainText(reg.url);
  await dialog.getByRole('searchbox', { name: 'Search the catalog' }).fill('');
  await expect(entries).toHaveCount(3);
  await shootBothThemes(page, 'catalog', async () => {
    await expect(entries).toHaveCount(3);
  });

  await dialog.getByRole('button', { name: 'Install Weather' }).click();
  const preview = page.getByRole('dialog', { name: /from the catalog/ });
  await expect(preview).toBeVisible();
  await expect(preview).toContainText('npx -y @plugboard-tests/weather-mcp@1.2.0');
  await expect(preview.getByRole('checkbox', { name: 'Install Weather (npm)' })).toBeChecked();
  await expect(preview.getByRole('checkbox', { name: 'Install Weather (PyPI)' })).not.toBeChecked();
  await expect(
    preview.locator('[data-server="npm"]').getByRole('checkbox', { name: 'Keep WEATHER_API_KEY secret' }),
  ).toBeChecked();
  await shootBothThemes(page, 'catalog-install', async () => {
    await expect(preview).toBeVisible();
  });
  // The entry's npm package, made up for the test, is fetched from the registry the person's
  // .npmrc names and installed into the plugin's folder, pinned.
  await preview.getByRole('button', { name: 'Install 1 server' }).click();
  await expect(page.getByText('Installed Weather (npm)')).toBeVisible({ timeout: 60_000 });
  expect(npm.asked).toContain('@plugboard-tests/weather-mcp/-/weather-mcp-1.2.0.tgz');
  const row = s.pluginRow(page, 'weather-npm');
  await expect(row).toBeVisible();
  await expect(row).toContainText('Needs settings');
  // Its settings ask for the city and the key; set, it starts from its folder and answers.
  await s.expand(page, 'weather-npm');
  await row.getByRole('tab', { name: /settings/i }).click();
  const form = row.getByRole('form');
  await form.getByLabel(/city/i).fill('Oslo');
  await form.getByLabel(/WEATHER_API_KEY/).fill('wk-0123456789');
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect(row).not.toContainText('Needs settings');
  await s.send(page, '/weather-npm:about');
  const answer = s.lastPluginMessage(page);
  await expect(answer).toContainText('@plugboard-tests/weather-mcp', { timeout: 30_000 });
  await expect(answer).toContainText('Oslo');
});

test('Check for updates: review what changes in the tools, update, and roll back', async () => {
  // It ran (persistent, started with the server): its tools are known.
  await expect(s.health(page, 'versions')).toHaveText('ready', { timeout: 20_000 });
  writeVersionsPlugin(source, '1.1.0', [
    {
      name: 'echo',
      description: 'Echo the text, or shout it',
      inputSchema: { ...text, properties: { ...text.properties, loud: { type: 'boolean' } } },
    },
    { name: 'count', description: 'Count the words', inputSchema: text },
  ]);
  await s.panel(page).getByRole('button', { name: 'Check for updates' }).click();
  const dialog = page.getByRole('dialog', { name: 'Updates' });
  await expect(dialog.locator('[data-update="versions"]')).toContainText('1.0.0 → 1.1.0', { timeout: 20_000 });
  await expect(dialog.locator('[data-update="weather-npm"]')).toContainText('1.2.0');
  await shootBothThemes(page, 'updates', async () => {
    await expect(dialog.getByRole('status')).toHaveText('1 update available.');
  });
  await dialog.getByRole('button', { name: 'Review the update of Versions' }).click();
  const review = page.getByRole('dialog', { name: 'Update Versions to 1.1.0' });
  await expect(review).toBeVisible({ timeout: 30_000 });
  await expect(review).toContainText('1 added, 1 removed, 1 changed, 0 the same.');
  await expect(review.getByLabel('Description of echo, before and after')).toContainText('Echo the text, or shout it');
  await expect(review.getByLabel('Input schema of echo, before and after')).toContainText('"loud"');
  await shootBothThemes(page, 'update-review', async () => {
    await expect(review).toBeVisible();
  });
  await review.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Updated Versions to 1.1.0; 1.0.0 is kept for Roll back')).toBeVisible({
    timeout: 30_000,
  });
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();

  // It was running: the new version runs in its place.
  await expect(s.health(page, 'versions')).toHaveText('ready', { timeout: 20_000 });
  await s.expand(page, 'versions');
  const rollback = s.pluginRow(page, 'versions').getByRole('button', { name: 'Roll versions back to 1.0.0' });
  await expect(rollback).toBeVisible();
  await shootBothThemes(page, 'update-rollback', async () => {
    await expect(rollback).toBeVisible();
  });
  await rollback.click();
  await expect(page.getByText('Rolled Versions back to 1.0.0')).toBeVisible({ timeout: 30_000 });
  await expect(s.health(page, 'versions')).toHaveText('ready', { timeout: 20_000 });
  await expect(
    s.pluginRow(page, 'versions').getByRole('button', { name: 'Roll versions back to 1.1.0' }),
  ).toBeVisible();
});
