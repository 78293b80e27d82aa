/**
 * A newly installed agent plugin is in the model menu without a reload (issue 21, item 7), end to
 * end against a real `plugboard serve` in Chromium: the person, with no model connected (the
 * composer offers "Connect a model"), installs the example agent plugin (examples/ollama-agent)
 * from the Install dialog, and in the same page the composer's model menu appears with it, and it
 * is picked. Switching it off takes it out again, live too. Screenshots of the menu in both themes
 * and at 720 px: e2e/screenshots/agent-menu-*.png.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import * as a from './assistant-scenarios';
import * as s from './scenarios';
import { REPO, startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

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
});

function menu(p: Page) {
  return p.getByRole('menu', { name: 'Choose the model' });
}

const AGENT = /^agent:ollama-agent/;

test('an agent plugin installed from the Install dialog is in the model menu at once, and chosen there', async () => {
  await a.newConversation(page);
  // No model yet: the composer offers to connect one, and there is no menu to choose from.
  await expect(page.getByRole('button', { name: 'Connect a model' })).toBeVisible();
  await expect(a.modelPicker(page)).toHaveCount(0);

  await s.panel(page).getByRole('button', { name: 'Install plugin…' }).click();
  const picker = page.getByRole('dialog', { name: 'Install a plugin' });
  await picker.getByLabel('Plugin folder').setInputFiles(path.join(REPO, 'examples', 'ollama-agent'));
  const dialog = page.getByRole('dialog', { name: /Install ollama-agent/ });
  const trial = dialog.locator('[data-install-trial]');
  await expect(trial).toHaveAttribute('data-install-trial', /ok|failed|skipped/, { timeout: 30_000 });
  // No model server runs here: however its trial went, the person installs it.
  const install = dialog.getByRole('button', { name: /^Install( anyway)?$/ });
  await install.click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(s.pluginRow(page, 'ollama-agent')).toBeVisible();

  // Same page, no reload: the menu lists it.
  await a.modelPicker(page).click();
  const item = menu(page).getByRole('menuitemradio', { name: AGENT });
  await expect(item).toBeVisible();
  await shootBothThemes(page, 'agent-menu', async () => {
    if (!(await menu(page).isVisible())) await a.modelPicker(page).click();
    await expect(item).toBeVisible();
  });
  await page.setViewportSize({ width: 720, height: 800 });
  try {
    await shootBothThemes(page, 'agent-menu-720', async () => {
      if (!(await menu(page).isVisible())) await a.modelPicker(page).click();
      await expect(item).toBeVisible();
    });
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  if (!(await menu(page).isVisible())) await a.modelPicker(page).click();
  await item.click();
  await expect(a.modelPicker(page)).toHaveAccessibleName('Model: agent:ollama-agent');
});

test('switching the agent plugin off takes it out of the menu, without a reload', async () => {
  await s.openApp(page);
  const toggle = s.pluginRow(page, 'ollama-agent').getByRole('switch', { name: 'Enable ollama-agent' });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await a.newConversation(page);
  // It was the only model: the composer is back to offering to connect one.
  await expect(a.modelPicker(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Connect a model' })).toBeVisible();
});
