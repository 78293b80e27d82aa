/**
 * What a person does with the assistant, as steps on a Page: connect a model in Settings, ask,
 * answer an approval card, watch a tool's output and the answer stream, stop a turn, retry a
 * failure. The model is the scripted model server (test/model-server), driven over its control
 * endpoint: no language model can run on these machines, so a script plays one, over the real
 * OpenAI-compatible wire. Everything on the page is found by role and accessible name.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { ModelServerClient } from '../test/model-server/process';
import type { Step } from '../test/model-server/steps';
import { composer, newConversation, panel, pluginRow, expand, send, stopButton } from './scenarios';

export function settingsDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Settings' });
}

export async function openSettings(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: /^Settings/ }).click();
  const dialog = settingsDialog(page);
  await expect(dialog).toBeVisible();
  return dialog;
}

export async function closeSettings(page: Page): Promise<void> {
  await settingsDialog(page).getByRole('button', { name: 'Close' }).last().click();
  await expect(settingsDialog(page)).toBeHidden();
}

export function approvalCard(page: Page): Locator {
  return page.locator('[data-approval-card]').last();
}

export function lastAnswer(page: Page): Locator {
  return page.locator('article[data-role="assistant"]').last();
}

export function lastCard(page: Page): Locator {
  return page.locator('article[data-role="plugin"][data-call-id]').last();
}

export function modelPicker(page: Page): Locator {
  return page.getByRole('button', { name: /^Model: / });
}

/** Queues what the model answers next (one step per model request). */
export async function script(model: ModelServerClient, ...steps: Step[]): Promise<void> {
  await model.script({ steps, replace: true });
}

/**
 * Starts recording, in the page, each text the element matching `selector` shows while its
 * phase attribute says it runs: what was on screen, in order, however the test process itself is
 * scheduled. Read back with `recorded`.
 */
export async function recordTexts(page: Page, name: string, selector: string, live: string): Promise<void> {
  await page.evaluate(
    ({ name, selector, live }) => {
      const w = window as unknown as Record<string, { text: string; live: boolean }[]>;
      const states: { text: string; live: boolean }[] = [];
      w[name] = states;
      new MutationObserver(() => {
        const all = document.querySelectorAll<HTMLElement>(selector);
        const el = all[all.length - 1];
        if (!el) return;
        const text = el.innerText;
        const isLive = document.querySelector(live) !== null;
        const prev = states[states.length - 1];
        if (!prev || prev.text !== text || prev.live !== isLive) states.push({ text, live: isLive });
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    },
    { name, selector, live },
  );
}

export async function recorded(page: Page, name: string): Promise<{ text: string; live: boolean }[]> {
  return page.evaluate((n) => (window as unknown as Record<string, { text: string; live: boolean }[]>)[n] ?? [], name);
}

/** Fills Settings → Models → Add a model, tests the connection and saves. */
export async function connectInSettings(page: Page, model: ModelServerClient, name: string): Promise<void> {
  const dialog = await openSettings(page);
  await dialog.getByRole('button', { name: 'Add a model' }).click();
  const form = dialog.getByRole('form', { name: 'Add a model' });
  await expect(form.getByLabel('Provider')).toHaveValue('openai-compatible');
  // The address starts at Ollama's, the usual local server.
  await expect(form.getByLabel('Base URL')).toHaveValue('http://127.0.0.1:11434/v1');
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Base URL').fill(model.baseURL);
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.locator('[data-test-result="ok"]')).toHaveText(/^Connected in \d+ ms, 1 model$/);
  // The server's models are offered: one click fills the field.
  await form
    .getByRole('group', { name: 'Models on this server' })
    .getByRole('button', { name: 'scripted-model' })
    .click();
  await expect(form.getByLabel('Model', { exact: true })).toHaveValue('scripted-model');
  await form.getByLabel('Use it by default in every conversation').check();
  await form.getByRole('button', { name: 'Save' }).click();
  const row = dialog.locator(`[data-model="${name}"]`);
  await expect(row).toContainText('Default');
  await expect(row).toContainText('scripted-model');
  await closeSettings(page);
  await expect(modelPicker(page)).toHaveAccessibleName(`Model: Default (${name})`);
}

/** A wrong address gets the precise error in the form, and nothing is saved. */
export async function testShowsTheError(page: Page): Promise<void> {
  const dialog = await openSettings(page);
  await dialog.getByRole('button', { name: 'Add a model' }).click();
  const form = dialog.getByRole('form', { name: 'Add a model' });
  await form.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.locator('[data-test-result="failed"]')).toContainText(/could not be reached|refused|ECONNREFUSED/i);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText(/Which model the server should run/)).toBeVisible();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await closeSettings(page);
}

/** The Tools tab: a tool switched off, and what a model's call to a tool gets. */
export async function toolsTab(page: Page, plugin: string): Promise<Locator> {
  await expand(page, plugin);
  const row = pluginRow(page, plugin);
  await row.getByRole('tab', { name: /^Tools/ }).click();
  return row;
}

export async function setExposed(page: Page, plugin: string, tool: string, exposed: boolean): Promise<void> {
  const row = await toolsTab(page, plugin);
  const toggle = row.getByRole('switch', { name: `Expose ${plugin}:${tool}` });
  if ((await toggle.getAttribute('aria-checked')) !== String(exposed)) await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', String(exposed));
}

export async function setPolicy(page: Page, plugin: string, tool: string, label: RegExp): Promise<Locator> {
  const row = await toolsTab(page, plugin);
  const select = row.getByRole('combobox', { name: `When a model calls ${plugin}:${tool}` });
  await select.selectOption({
    label: (await select.locator('option').allTextContents()).find((t) => label.test(t)) ?? '',
  });
  return select;
}

export async function ask(page: Page, text: string): Promise<void> {
  await expect(composer(page)).toBeEditable();
  await send(page, text);
}

export { newConversation, panel, stopButton };
