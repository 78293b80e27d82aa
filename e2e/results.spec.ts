/**
 * Results as results, and speed (issue 12, items 6 and 12), end to end against a real `plugboard
 * serve` in Chromium: a command's exit code, structured results as a table and a tree, highlighted
 * code, no raw fence in long output; the figures of a 2 MB stream and of the first paint.
 * Screenshots of each view in both themes go to e2e/screenshots/results-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { coldPaint, initialScriptKiB, scriptChunks, stream2Mb } from './results-figures';
import * as s from './scenarios';
import { saveFigures } from './support/figures';
import { startServe, type Served } from './support/serve';

const figures: Record<string, number> = {};
let served: Served;
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  served = await startServe();
  page = await browser.newPage();
  await page.goto(served.url);
  await s.openApp(page);
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  saveFigures('results', figures);
});

test('figures: first paint, the initial script, and long tasks while 2 MB stream in', async ({ browser }) => {
  await expect(s.health(page, 'terminal')).toHaveText('ready', { timeout: 20_000 });
  Object.assign(figures, await coldPaint(browser, served.url));
  figures.initialScriptKiB = initialScriptKiB();
  figures.scriptChunks = scriptChunks();
  Object.assign(figures, await stream2Mb(page));
});
