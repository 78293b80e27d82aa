/**
 * Layout (issue 21, item 5) and help in the app (item 8), end to end against a real `plugboard
 * serve` in Chromium: at 720 px the plugin panel lies over the chat instead of squeezing it, the
 * composer's buttons do not overlap; two conversations renamed alike stay distinguishable;
 * Settings keeps its height from section to section; its icon is not a second sun; capability
 * texts show their code marks as code. The Help page says what Plugboard is, how to add a model,
 * install a plugin, read the panel, and what each failure code means. Screenshots:
 * e2e/screenshots/layout-*.png and help-*.png, both themes, at 720 px and at 1280 px.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { FAILURE_CODES, FAILURE_MEANINGS } from '../src/shared/failures';
import * as s from './scenarios';
import { cli, fixturePlugin, startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

let served: Served;
let page: Page;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  served = await startServe({
    // A plugin that asks for the conversation: that capability's text names protocol fields as code.
    prepare: (dataDir) =>
      cli(
        [
          'plugins',
          'install',
          fixturePlugin(path.join(dataDir, '..'), {
            id: 'reader',
            name: 'Reader',
            description: 'Reads the conversation, for the capability texts',
            persistent: false,
            capabilities: ['conversation.read'],
            functions: [{ name: 'read', description: 'Read', parameters: { type: 'object', properties: {} } }],
          }),
        ],
        dataDir,
      ),
  });
  page = await browser.newPage();
  await page.goto(served.url);
  await s.openApp(page);
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
});

function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test('at 720 px the plugin panel lies over the chat, which keeps its width; Send and the model button do not overlap', async () => {
  await page.setViewportSize({ width: 720, height: 800 });
  try {
    await expect(s.panel(page)).toBeVisible();
    const composerBox = await s.composer(page).boundingBox();
    // The chat keeps the width the sidebar leaves it (720 − 240), not 60 px.
    expect(composerBox?.width ?? 0).toBeGreaterThan(400);
    const panelBox = await s.panel(page).boundingBox();
    expect((panelBox?.x ?? 0) + (panelBox?.width ?? 0)).toBeLessThanOrEqual(720);
    await shootBothThemes(page, 'layout-720-panel', async () => {
      await expect(s.panel(page)).toBeVisible();
    });
    await s.panel(page).getByRole('button', { name: 'Close panel' }).click();
    const send = await page.getByRole('button', { name: 'Send' }).boundingBox();
    const modelButton = page.getByRole('button', { name: /^(Model: |Connect a model)/ });
    const modelBox = await modelButton.boundingBox();
    expect(send && modelBox && !overlap(send, modelBox)).toBe(true);
    await shootBothThemes(page, 'layout-720-chat', async () => {
      await expect(s.composer(page)).toBeVisible();
    });
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
    await s.openApp(page);
  }
});

test('two conversations renamed alike stay distinguishable', async () => {
  const nav = page.getByRole('navigation', { name: 'Conversations' });
  for (let i = 0; i < 2; i++) {
    await s.newConversation(page);
    await s.send(page, '/hello:say_hello name=Ada');
    await expect(s.lastPluginMessage(page)).toContainText('Ada', { timeout: 15_000 });
    const item = nav.locator('[data-conversation-button][aria-current="page"]');
    await item.focus();
    await page.keyboard.press('F2');
    const title = nav.getByRole('textbox', { name: 'Conversation title' });
    await title.fill('Notes');
    await title.press('Enter');
  }
  await expect(nav.getByRole('button', { name: /^Notes \(2\)/ })).toBeVisible();
  await expect(nav.getByRole('button', { name: /^Notes(?! \()/ })).toBeVisible();
});

test('Settings keeps its height from section to section, and its icon is not a second sun', async () => {
  const settings = page.getByRole('button', { name: /^Settings/ });
  const theme = page.getByRole('button', { name: /^Theme:/ });
  await page.emulateMedia({ colorScheme: 'light' });
  const d = (b: typeof settings) => b.locator('path').getAttribute('d');
  expect(await d(settings)).not.toBe(await d(theme));
  await settings.click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const sections = dialog.getByRole('navigation', { name: 'Settings sections' }).getByRole('button');
  const heights = new Set<number>();
  for (let i = 0; i < (await sections.count()); i++) {
    await sections.nth(i).click();
    heights.add(Math.round((await dialog.boundingBox())?.height ?? 0));
  }
  expect([...heights]).toHaveLength(1);
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await shootBothThemes(page, 'layout-toolbar', async () => {
    await expect(settings).toBeVisible();
  });
});

test('capability texts show their code marks as code', async () => {
  await s.expand(page, 'reader');
  const row = s.pluginRow(page, 'reader');
  await row.getByRole('tab', { name: 'Permissions' }).click();
  const list = row.locator('li', { hasText: 'conversation.read' });
  await expect(list.locator('code', { hasText: /^context$/ })).toBeVisible();
  expect(await list.innerText()).not.toContain('`');
  await shootBothThemes(page, 'layout-permissions', async () => {
    await expect(list).toBeVisible();
  });
});

test('the Help page says what Plugboard is, how to start, and what every failure code means', async () => {
  await s.composer(page).click();
  await page.keyboard.press('F1');
  const help = page.getByRole('dialog', { name: 'Help' });
  await expect(help).toBeVisible();
  for (const heading of [
    'What Plugboard is',
    'Add a model',
    'Install a plugin',
    'Read the plugin panel',
    'What a failure code means',
    'Keyboard shortcuts',
  ])
    await expect(help.getByRole('heading', { name: heading })).toBeVisible();
  await expect(help.getByRole('region', { name: 'Add a model' })).toContainText('Settings');
  const codes = help.getByRole('definition');
  await expect(codes).toHaveCount(FAILURE_CODES.length);
  await expect(help.locator('dt', { hasText: /^crashed$/ }).locator('+ dd')).toHaveText(FAILURE_MEANINGS.crashed);
  // A topic button brings its section into view.
  await help
    .getByRole('navigation', { name: 'Help topics' })
    .getByRole('button', { name: 'Read the plugin panel' })
    .click();
  await expect(help.getByRole('heading', { name: 'Read the plugin panel' })).toBeInViewport();
  await shootBothThemes(page, 'help', async () => {
    await expect(help).toBeVisible();
  });
  await page.setViewportSize({ width: 720, height: 800 });
  await shootBothThemes(page, 'help-720', async () => {
    await expect(help).toBeVisible();
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  // The toolbar's button opens it too.
  await page.getByRole('button', { name: 'Help and keyboard shortcuts' }).click();
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');
});
