/**
 * Signing in to a remote MCP server from the plugin panel, in the web UI end to end: a real
 * `plugboard serve` with a remote plugin that points at a real MCP server behind a real OAuth
 * authorization server (test/fixtures/oauth: the SDK's v2 server with bearer auth, oidc-provider),
 * in Debian's Chromium. The panel's Sign in opens the authorization page in a new tab, where
 * Chromium signs in and consents on the server's own forms; back in the app the plugin is signed
 * in, its tool is called, and Sign out forgets the tokens. Its own server: a signed-out remote
 * plugin's failure would show in the other specs' panels.
 */
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFixture, type Running } from '../test/helpers/oauth';
import { expand, health, openApp, panel, pluginRow, send } from './scenarios';
import * as a from './assistant-scenarios';
import { cli, startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

let served: Served;
let as: Running;
let mcp: Running;
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  as = await startFixture('auth-server.mjs', ['--access-ttl', '600']);
  mcp = await startFixture('mcp-server.mjs', ['--issuer', as.url]);
  served = await startServe({
    prepare: (dataDir) => {
      const src = path.join(path.dirname(dataDir), 'signed-src');
      mkdirSync(src, { recursive: true });
      writeFileSync(
        path.join(src, 'plugboard.json'),
        JSON.stringify({
          id: 'signed',
          name: 'Signed-in server',
          version: '1.0.0',
          protocol: 'mcp',
          url: mcp.url,
          capabilities: ['net'],
        }),
      );
      cli(['plugins', 'install', src], dataDir);
    },
  });
  page = await browser.newPage();
  await page.goto(served.url);
  await openApp(page);
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  mcp?.proc.kill('SIGKILL');
  as?.proc.kill('SIGKILL');
});

const shoot = (name: string, fn: () => Promise<void>): Promise<void> => shootBothThemes(page, name, fn);

test('a remote server is signed into from the panel, called, and signed out of; its tokens stay in the secret store', async () => {
  await a.newConversation(page);
  // Not signed in: the call's card says so, naming the way in.
  await send(page, '/signed:echo text="before signing in"');
  const refused = page.locator('article[data-role="plugin"]').last();
  await expect(refused).toContainText('needs you to sign in first', { timeout: 20_000 });
  await expect(refused).toContainText('plugboard plugins signin signed');
  await expect(refused.getByRole('button', { name: 'Sign in to Signed-in server' })).toBeVisible();
  await shoot('sign-in-needed-card', async () => {
    await expect(refused).toBeVisible();
  });

  // Waiting for a sign-in is a step for the person, not a failure of the server: amber, in words.
  await expect(health(page, 'signed')).toHaveText('needs sign-in', { timeout: 20_000 });
  await expand(page, 'signed');
  const section = panel(page).getByRole('region', { name: 'Sign-in for signed' });
  await expect(section).toContainText('Not signed in');
  await shoot('sign-in-panel', async () => {
    await section.scrollIntoViewIfNeeded();
    await expect(section).toBeVisible();
  });

  // Sign in: the authorization page opens in a new tab, where the person signs in and allows.
  const popup = page.waitForEvent('popup');
  await section.getByRole('button', { name: 'Sign in to signed' }).click();
  const tab = await popup;
  await expect(tab.getByRole('heading', { name: 'Sign in to the test authorization server' })).toBeVisible({
    timeout: 20_000,
  });
  await tab.getByLabel('Account').fill('grace');
  await tab.getByRole('button', { name: 'Continue' }).click();
  await expect(tab.getByRole('heading', { name: /^Allow Plugboard\?$/ })).toBeVisible();
  await tab.getByRole('button', { name: 'Allow' }).click();
  await expect(tab.getByRole('heading', { name: 'Signed in' })).toBeVisible({ timeout: 20_000 });
  await tab.close();

  await expect(section).toContainText(`Signed in at ${new URL(as.url).host}`, { timeout: 20_000 });
  await expect(health(page, 'signed')).toHaveText('ready', { timeout: 20_000 });
  await shoot('sign-in-signed-in', async () => {
    await section.scrollIntoViewIfNeeded();
    await expect(section.getByRole('button', { name: 'Sign out of signed' })).toBeVisible();
  });

  // Called, with the person's token.
  await send(page, '/signed:whoami');
  await expect(page.locator('article[data-role="plugin"]').last()).toContainText('"sub":"grace"', { timeout: 20_000 });

  // Nothing of the tokens outside the secret store: not in state.json, the audit log or anything else.
  const record = JSON.parse(readFileSync(path.join(served.dataDir, 'secrets.json'), 'utf8'))['oauth:signed'].record;
  const tokens = JSON.parse(record).tokens as { access_token: string; refresh_token: string };
  expect(tokens.access_token.length).toBeGreaterThan(20);
  for (const file of filesOf(served.dataDir).filter((f) => path.basename(f) !== 'secrets.json')) {
    const text = readFileSync(file, 'latin1');
    expect(text.includes(tokens.access_token), `${file} holds the access token`).toBe(false);
    expect(text.includes(tokens.refresh_token), `${file} holds the refresh token`).toBe(false);
  }

  // Signed out: forgotten, and the next call is refused again.
  await section.getByRole('button', { name: 'Sign out of signed' }).click();
  await expect(section).toContainText('Not signed in', { timeout: 20_000 });
  await expect(pluginRow(page, 'signed')).toBeVisible();
  expect(
    JSON.parse(readFileSync(path.join(served.dataDir, 'secrets.json'), 'utf8'))['oauth:signed']?.record ?? '',
  ).not.toContain(tokens.refresh_token);
});

/** Every file of a folder and its subfolders (sockets, such as the approvals inbox's, hold no text). */
function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    const s = statSync(p);
    return s.isDirectory() ? filesOf(p) : s.isFile() ? [p] : [];
  });
}
