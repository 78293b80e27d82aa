/**
 * Results as results, and speed (issue 12, items 6 and 12), end to end against a real `plugboard
 * serve` in Chromium: a command's exit code, structured results (MCP structuredContent) as a
 * table and a tree, highlighted code loaded on first use, no raw fence in long output; the
 * figures of a 2 MB stream and of the first paint. Screenshots of each view in both themes go to
 * e2e/screenshots/results-*.png.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { coldPaint, initialScriptKiB, scriptChunks, stream2Mb } from './results-figures';
import * as s from './scenarios';
import { saveFigures } from './support/figures';
import { cli, REPO, startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

const figures: Record<string, number> = {};
let served: Served;
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  served = await startServe({
    prepare: (dataDir) => cli(['plugins', 'install', path.join(REPO, 'test', 'fixtures', 'mcp-structured')], dataDir),
  });
  page = await browser.newPage();
  await page.goto(served.url);
  await s.openApp(page);
  await expect(s.health(page, 'terminal')).toHaveText('ready', { timeout: 20_000 });
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  saveFigures('results', figures);
});

function done(msg: ReturnType<typeof s.lastPluginMessage>): Promise<void> {
  return expect(msg.locator('[data-message-status]')).toHaveText('done', { timeout: 30_000 });
}

/** Whether the page has fetched the highlighter's chunk. */
function highlighterLoaded(): Promise<boolean> {
  return page.evaluate(() =>
    performance.getEntriesByType('resource').some((e) => /\/highlight-[^/]*\.js$/.test(e.name)),
  );
}

test('figures: first paint, the initial script, and long tasks while 2 MB stream in', async ({ browser }) => {
  Object.assign(figures, await coldPaint(browser, served.url));
  figures.initialScriptKiB = initialScriptKiB();
  figures.scriptChunks = scriptChunks();
  Object.assign(figures, await stream2Mb(page, browser));
  // Streamed and finished, the 2 MB show as output (a screenful of it: issue 21), not as a markdown fence.
  await expect(s.lastPluginMessage(page).getByRole('region', { name: 'Output' })).toContainText('300000');
});

test('a command that exits 3 says "exit 3" as a warning, and the call itself is done', async () => {
  await s.newConversation(page);
  await s.send(page, '/terminal:run command="echo partial; exit 3"');
  const msg = s.lastPluginMessage(page);
  await done(msg);
  await expect(msg.locator('[data-exit-code]')).toHaveText('exit 3');
  await expect(msg).toHaveAttribute('aria-label', 'Terminal run: done, exit 3');
  await expect(msg).toContainText('partial');
  // Not a host failure: no failure box, no failure code.
  await expect(msg.getByText(/plugin_error|failed/)).toHaveCount(0);
  // The result behind the text, on request: the exit code among its fields.
  await msg.getByRole('button', { name: 'Result' }).click();
  await expect(msg.locator('[data-result-tree]')).toContainText('exit_code: 3');
  await shootBothThemes(page, 'results-exit', async () => {
    await expect(msg.locator('[data-exit-code]')).toBeVisible();
  });
  // A command that succeeds says so quietly.
  await s.send(page, '/terminal:run command="true"');
  const ok = s.lastPluginMessage(page);
  await done(ok);
  await expect(ok.locator('[data-exit-code]')).toHaveText('exit 0');
});

test('rows from an MCP server (structuredContent) are a table, with the raw JSON a click away', async () => {
  await s.newConversation(page);
  await s.send(page, '/mcp-structured:processes');
  const msg = s.lastPluginMessage(page);
  await done(msg);
  const table = msg.getByRole('table', { name: 'processes' });
  await expect(table.getByRole('columnheader')).toHaveText(['pid', 'name', 'cpu', 'state']);
  await expect(table.getByRole('row', { name: /postgres/ })).toContainText('12.5');
  await shootBothThemes(page, 'results-table', async () => {
    await expect(table).toBeVisible();
  });
  await msg.getByRole('button', { name: 'Raw' }).click();
  await expect(msg.getByRole('button', { name: 'Raw' })).toHaveAttribute('aria-pressed', 'true');
  await expect(table).toHaveCount(0);
  await expect(msg.locator('pre')).toContainText('"name": "postgres"');
});

test('a nested result is a tree that opens and closes from the keyboard, its rows a table', async () => {
  await s.newConversation(page);
  await s.send(page, '/mcp-structured:report');
  const msg = s.lastPluginMessage(page);
  await done(msg);
  const tree = msg.locator('[data-result-tree]');
  await expect(tree).toContainText('uptime_s: 86400');
  await expect(tree.getByRole('table', { name: 'disks' })).toContainText('/data');
  await shootBothThemes(page, 'results-tree', async () => {
    await expect(tree).toBeVisible();
  });
  const host = tree.locator('summary', { hasText: 'host:' });
  await host.focus();
  await page.keyboard.press('Enter');
  await expect(tree).not.toContainText('uptime_s');
  await expect(host).toContainText('{ 3 keys }');
  await page.keyboard.press('Space');
  await expect(tree).toContainText('uptime_s: 86400');
});

test('a code block is highlighted, with the highlighter fetched when the first block shows', async () => {
  // Plain output in a fence (the terminal's) needs no colours, and fetches nothing.
  expect(await highlighterLoaded()).toBe(false);
  await s.newConversation(page);
  await s.send(page, '/mcp-structured:snippet');
  const msg = s.lastPluginMessage(page);
  await done(msg);
  const code = msg.locator('code[data-highlighted]');
  await expect(code.locator('.hljs-keyword').first()).toHaveText('export');
  await expect(code.locator('.hljs-comment')).toHaveText('// adds two numbers');
  await expect(code).toHaveText(/return a \+ b;/);
  // Inline code stays inline.
  await expect(msg.locator('p code')).toHaveText('add(1, 2)');
  expect(await highlighterLoaded()).toBe(true);
  await shootBothThemes(page, 'results-code', async () => {
    await expect(code).toBeVisible();
  });
});

test('output too long for markdown shows as plain output, without the fence around it', async () => {
  await s.newConversation(page);
  await s.send(page, '/terminal:run command="seq 1 20000"');
  const msg = s.lastPluginMessage(page);
  await done(msg);
  await expect(msg).toContainText('is shown as plain text');
  // A screenful of it, at its end (issue 21: long output does not take over).
  const plain = msg.getByRole('region', { name: 'Output' });
  await expect(plain.locator('[data-row="19998"]')).toHaveText('19999');
  await expect(plain.locator('[data-row="19999"]')).toHaveText('20000');
  await expect(msg).not.toContainText('```');
  await shootBothThemes(page, 'results-long', async () => {
    await expect(plain).toBeVisible();
  });
});
