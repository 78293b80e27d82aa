/**
 * Packages and grants in the install and import previews (issue 17, items 1 and 2), end to end
 * against a real `plugboard serve` in Chromium: a plugin folder whose command is `npx -y
 * @modelcontextprotocol/server-memory` shows its package being installed, line by line, then the
 * version it is pinned at, the folder its MEMORY_FILE_PATH names as a grant and the network as
 * not requested; once installed it answers from its folder, without the network. An MCP config's
 * servers show their paths as grants. A plugin that fails for want of the network gets a button
 * that grants it, and then works. Screenshots of each, in both themes, go to e2e/screenshots/.
 *
 * The npm package is the real one, through the loopback registry cache of
 * test/helpers/package-registry.ts, which the server reaches through the person's .npmrc.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startPackageRegistry, type PackageRegistry } from '../test/helpers/package-registry';
import * as s from './scenarios';
import { REPO, startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

const FIXTURES = path.join(REPO, 'test', 'fixtures');
let registry: PackageRegistry;
let served: Served;
let page: Page;
let scratch: string;
let service: http.Server;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'plugboard-e2e-packages-'));
  registry = await startPackageRegistry();
  served = await startServe({ env: registry.configure(path.join(scratch, 'person')) });
  service = http.createServer((_req, res) => res.end('all systems go'));
  await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
  page = await browser.newPage();
  await page.goto(served.url);
  await s.openApp(page);
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  await registry?.close();
  service?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('an npx server: its package installed in the preview, line by line, pinned; the file it writes offered as its folder', async () => {
  // A cold cache fetches the package from the npm registry first.
  test.setTimeout(600_000);
  const memory = path.join(scratch, 'memory');
  mkdirSync(memory);
  // Under root the sandbox runs plugins as nobody, who writes a granted folder only where its owner
  // lets others write: the person's folder here lets it.
  if (process.getuid?.() === 0) chmodSync(memory, 0o777);
  const dir = path.join(scratch, 'memory-server');
  mkdirSync(dir);
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify({
      id: 'memory',
      name: 'Memory',
      protocol: 'mcp',
      command: ['npx', '-y', '@modelcontextprotocol/server-memory'],
      env: { MEMORY_FILE_PATH: path.join(memory, 'memory.json') },
    }),
  );
  await page.keyboard.press('Control+i');
  await page.getByRole('dialog', { name: 'Install a plugin' }).getByLabel('Plugin folder').setInputFiles(dir);
  const reading = page.getByRole('dialog', { name: /Installing memory-server/ });
  const log = reading.getByRole('log', { name: 'Installing its package' });
  await expect(log).toContainText('installing @modelcontextprotocol/server-memory from the npm registry (npx)', {
    timeout: 60_000,
  });
  await expect(log).toContainText('npm http fetch GET', { timeout: 120_000 });
  await shootBothThemes(page, 'install-package-progress', async () => {
    await expect(log).toBeVisible();
  });

  const dialog = page.getByRole('dialog', { name: 'Install Memory' });
  await expect(dialog).toBeVisible({ timeout: 480_000 });
  const pkg = dialog.locator('[data-package="installed"]');
  await expect(pkg).toContainText(/pinned at \d+\.\d+/);
  await expect(pkg).toContainText(/sha512-/);
  // Tried from its folder, in the sandbox without the network: it started.
  await expect(dialog.locator('[data-install-trial]')).toHaveAttribute('data-install-trial', 'ok');
  await expect(dialog.locator('[data-install-trial]')).toContainText(/node \S+\/plugins\/memory\/\.plugboard\/npm\//);
  const grant = dialog.locator(`[data-grant-path="${memory}"]`);
  await expect(grant).toContainText(`for ${path.join(memory, 'memory.json')}, which it writes there`);
  // The manifest names it, so its author chose it: offered unticked, and the person ticks it.
  await expect(grant.getByRole('checkbox')).not.toBeChecked();
  await grant.getByRole('checkbox').check();
  await expect(grant.getByRole('checkbox')).toBeChecked();
  await expect(dialog.getByRole('region', { name: 'Capabilities it asks for' })).toContainText('not requested');
  await shootBothThemes(page, 'install-package-preview', async () => {
    await expect(pkg).toBeVisible();
  });
  await dialog.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(s.health(page, 'memory')).toHaveText('ready', { timeout: 60_000 });

  await s.newConversation(page);
  await s.send(
    page,
    '/memory:create_entities entities=[{"name":"Ada","entityType":"person","observations":["writes"]}]',
  );
  await expect(s.lastPluginMessage(page)).toHaveAttribute('aria-label', 'Memory create_entities: done', {
    timeout: 30_000,
  });
  // The memory is the person's file, written through the folder granted in the preview.
  expect(existsSync(path.join(memory, 'memory.json'))).toBe(true);
  expect(readFileSync(path.join(memory, 'memory.json'), 'utf8')).toContain('Ada');
});

test('an MCP config’s servers show the paths they are given as grants, and the network as the person’s to grant', async () => {
  const docs = path.join(scratch, 'Documents');
  mkdirSync(docs, { recursive: true });
  const file = path.join(scratch, 'claude_desktop_config.json');
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', docs] },
        time: { command: 'uvx', args: ['mcp-server-time', '--local-timezone', 'UTC'] },
        memory: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-memory'],
          env: { MEMORY_FILE_PATH: path.join(scratch, 'memory', 'memory.json') },
        },
      },
    }),
  );
  await page.keyboard.press('Control+i');
  await page.getByRole('dialog', { name: 'Install a plugin' }).getByLabel('Plugin file').setInputFiles(file);
  const dialog = page.getByRole('dialog', { name: 'Import MCP servers from Claude Desktop' });
  const fsServer = dialog.locator('[data-server="filesystem"]');
  await expect(fsServer.locator(`[data-grant-path="${docs}"]`)).toContainText('folder from argument 1');
  await expect(fsServer.getByRole('checkbox', { name: 'Grant filesystem the network' })).not.toBeChecked();
  // The memory server is installed already: the import offers it another id, and says so.
  await expect(dialog.locator('[data-server="memory"]')).toContainText('memory is taken by an installed plugin');
  await shootBothThemes(page, 'import-grants', async () => {
    await expect(fsServer).toBeVisible();
  });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a plugin that failed for want of the network gets a button that grants it, and then works', async () => {
  await page.keyboard.press('Control+i');
  const dir = path.join(scratch, 'gassist-fetch');
  cpSync(path.join(FIXTURES, 'gassist-fetch'), dir, { recursive: true });
  await page.getByRole('dialog', { name: 'Install a plugin' }).getByLabel('Plugin folder').setInputFiles(dir);
  const dialog = page.getByRole('dialog', { name: 'Install gassist-fetch' });
  await expect(dialog.locator('[data-install-trial]')).toHaveAttribute('data-install-trial', 'ok', {
    timeout: 30_000,
  });
  await dialog.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });

  const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}/status`;
  await s.newConversation(page);
  await s.send(page, `/gassist-fetch:fetch_status url=${url}`);
  const failed = s.lastPluginMessage(page);
  const button = failed.getByRole('button', { name: 'Grant the network' });
  await expect(button).toBeVisible({ timeout: 30_000 });
  await expect(failed).toContainText('was not granted the network and may need it');
  await shootBothThemes(page, 'failure-grant-network', async () => {
    await expect(button).toBeVisible();
  });
  await button.click();
  await expect(s.health(page, 'gassist-fetch')).toHaveText('ready', { timeout: 30_000 });
  await s.send(page, `/gassist-fetch:fetch_status url=${url}`);
  await expect(s.lastPluginMessage(page)).toContainText('200 all systems go', { timeout: 30_000 });

  // Its Permissions tab: the network granted though not requested, and a folder granted by path, then revoked.
  await s.expand(page, 'gassist-fetch');
  const row = s.pluginRow(page, 'gassist-fetch');
  await row.getByRole('tab', { name: /permissions/i }).click();
  await expect(row.getByRole('switch', { name: 'Grant net to gassist-fetch' })).toHaveAttribute('aria-checked', 'true');
  const shared = path.join(scratch, 'Shared');
  mkdirSync(shared);
  await row.getByLabel('A folder or file to grant').fill(shared);
  await row.getByRole('button', { name: 'Grant', exact: true }).click();
  const granted = row.getByRole('listitem').filter({ hasText: shared });
  await expect(granted).toContainText('read-only');
  await shootBothThemes(page, 'permissions-folder-grants', async () => {
    await granted.scrollIntoViewIfNeeded();
    await expect(granted).toBeVisible();
  });
  await granted.getByRole('button', { name: 'Revoke' }).click();
  await expect(row.getByText('None granted by path.')).toBeVisible();
});
