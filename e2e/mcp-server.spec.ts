/**
 * Plugboard as an MCP server, end to end in Chromium against a real `plugboard serve`: Settings →
 * Other apps shows each app's config snippet (this checkout's command, absolute, and the data
 * folder) with Copy, and the HTTP endpoint with its header; and a call another app makes through
 * `plugboard mcp` on the same data folder (the MCP SDK's own client, which shows no forms) waits
 * as an approval card on the page until the person answers it there. Screenshots in both themes.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test, type Page } from '@playwright/test';
import * as a from './assistant-scenarios';
import { openApp } from './scenarios';
import { REPO, startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

let served: Served;
let page: Page;
let client: Client | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  served = await startServe();
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  await page.goto(served.url);
  await openApp(page);
});

test.afterAll(async () => {
  await client?.close();
  await page?.context().close();
  await served?.stop();
});

test('Settings → Other apps: each app’s snippet with Copy, and the HTTP endpoint', async () => {
  const dialog = await a.openSettings(page);
  await dialog
    .getByRole('navigation', { name: 'Settings sections' })
    .getByRole('button', { name: 'Other apps' })
    .click();
  const section = dialog.getByRole('region', { name: 'Use your plugins in other apps' });
  const snippet = section.getByTestId('mcp-snippet');
  const bin = path.join(REPO, 'bin', 'plugboard.mjs');
  await expect(snippet.locator('pre')).toContainText('"mcpServers"');
  await expect(snippet.locator('pre')).toContainText(JSON.stringify(bin));
  await expect(snippet.locator('pre')).toContainText(JSON.stringify(served.dataDir));
  await expect(section.getByTestId('mcp-http')).toContainText(`${new URL(served.url).origin}/mcp`);
  await expect(section.getByTestId('mcp-http')).toContainText(
    `Authorization: Bearer ${new URL(served.url).searchParams.get('token')}`,
  );
  await shootBothThemes(page, 'settings-other-apps', () => expect(snippet).toBeVisible());

  await section.getByRole('tab', { name: 'VS Code' }).click();
  await expect(snippet.locator('pre')).toContainText('"servers"');
  await expect(snippet.locator('pre')).toContainText('"type": "stdio"');
  await section.getByRole('button', { name: 'Copy for VS Code' }).click();
  await expect(section.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
    servers: { plugboard: { command: string; args: string[] } };
  };
  expect(copied.servers.plugboard.args).toEqual([bin, 'mcp', '--data-dir', served.dataDir]);
  await a.closeSettings(page);
});

test('another app’s call that asks waits as a card on the page, and runs once allowed there', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO, 'bin', 'plugboard.mjs'), 'mcp', '--data-dir', served.dataDir],
    env: { ...process.env } as Record<string, string>,
    stderr: 'ignore',
  });
  client = new Client({ name: 'Claude Desktop', version: '0.14.2' });
  await client.connect(transport);
  // todo:add asks under the default approvals; this client shows no forms, so the page is asked.
  const call = client.callTool({ name: 'todo__add', arguments: { title: 'oat milk' } }, undefined, {
    timeout: 60_000,
  });
  const card = page.locator('[data-external-approvals]');
  await expect(card).toBeVisible({ timeout: 20_000 });
  await expect(card).toContainText('Claude Desktop 0.14.2 wants to run Todo → add');
  await expect(card.getByRole('group', { name: 'Arguments' })).toContainText('"title": "oat milk"');
  await shootBothThemes(page, 'external-approval', () => expect(card).toBeVisible());
  await card.getByRole('button', { name: 'Allow once' }).click();
  const result = await call;
  expect(result.isError).toBeFalsy();
  expect(JSON.stringify(result.content)).toContain('oat milk');
  await expect(card).toHaveCount(0);
});
