/**
 * The assistant in the web UI, end to end: a real `plugboard serve` with real plugins, in Debian's
 * Chromium, and the scripted model server as a process of its own (test/model-server). No
 * language model can run on these machines: the server plays one, over the real OpenAI-compatible
 * streaming wire, from steps queued over its control endpoint. Also measures, as figures to read
 * (not pass marks), the delay from a model's token leaving the server to its text on screen, and
 * the time to open a conversation of 1,000 messages with tool cards; and takes screenshots of the
 * assistant's views in both themes (PLUGBOARD_SHOTS_DIR, else e2e/screenshots/).
 */
import { expect, test, type Page } from '@playwright/test';
import { spawnModelServer, type ModelServerProcess } from '../test/model-server/process';
import * as m from './assistant-figures';
import * as a from './assistant-scenarios';
import { composer, openApp } from './scenarios';
import { saveFigures } from './support/figures';
import { seedLongConversation } from './support/seed';
import { startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

const figures: Record<string, number> = {};
let served: Served;
let model: ModelServerProcess;
let page: Page;
/** The scripted server listens where LM Studio would (1234), so the app finds it running. */
let discoverable = false;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  try {
    model = await spawnModelServer({ port: 1234 });
    discoverable = true;
  } catch {
    // Port 1234 is taken on this machine: the server runs elsewhere and is not found by probing.
    model = await spawnModelServer();
  }
  served = await startServe({ prepare: seedLongConversation });
  page = await browser.newPage();
  await page.goto(served.url);
  await openApp(page);
});

test.afterAll(async () => {
  await page?.close();
  await Promise.all([served?.stop(), model?.stop()]);
  saveFigures('assistant', figures);
});

const shoot = (name: string, fn: () => Promise<void>): Promise<void> => shootBothThemes(page, name, fn);

test('without a model, a plain message gets the Connect-a-model card; a suggested tool opens its form', async () => {
  await a.newConversation(page);
  await a.ask(page, 'count to five please');
  const card = page.locator('article[data-card="connect-model"]');
  await expect(card).toContainText('No model is connected yet');
  await expect(card.getByRole('button', { name: 'Add a model…' })).toBeVisible();
  const suggestion = card
    .getByRole('region', { name: 'Suggested tools' })
    .getByRole('button', { name: /count/ })
    .first();
  await expect(suggestion).toBeVisible();
  const found = card.getByRole('region', { name: 'Model servers on this computer' });
  if (discoverable) await expect(found).toContainText('LM Studio');
  else await expect(found).toContainText('No model server found');
  await expect(a.modelPicker(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Connect a model' })).toBeVisible();
  await shoot('connect-model', async () => {
    await expect(card).toBeVisible();
  });
  await suggestion.click();
  const form = page.getByRole('dialog', { name: /count/ });
  await expect(form.getByRole('button', { name: 'Run' })).toBeVisible();
  await expect(form.getByRole('spinbutton').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
});

test('a server found running connects with one click, and Settings removes it again', async () => {
  test.skip(
    !discoverable,
    'port 1234 (where LM Studio listens) is taken on this machine, so the scripted server cannot be found by probing',
  );
  const card = page.locator('article[data-card="connect-model"]').last();
  await card.getByRole('button', { name: 'Connect scripted-model on LM Studio' }).click();
  await expect(card).toContainText('LM Studio scripted-model is connected now');
  await expect(a.modelPicker(page)).toHaveAccessibleName('Model: Default (LM Studio scripted-model)');
  const dialog = await a.openSettings(page);
  await dialog.getByRole('button', { name: 'Remove LM Studio scripted-model' }).click();
  await dialog.getByRole('button', { name: 'Confirm removing LM Studio scripted-model' }).click();
  await expect(dialog).toContainText('No model yet');
  await a.closeSettings(page);
});

test('connects the scripted model in Settings; Test connection says the latency, or the precise error', async () => {
  await a.testShowsTheError(page);
  await a.connectInSettings(page, model, 'Scripted');
  const dialog = await a.openSettings(page);
  await dialog.getByRole('button', { name: 'Test Scripted' }).click();
  await expect(dialog.locator('[data-model="Scripted"]')).toContainText(/Connected in \d+ ms, 1 model/);
  await shoot('settings-models', async () => {
    await expect(dialog.locator('[data-model="Scripted"]')).toBeVisible();
  });
  await a.closeSettings(page);
  // The shortcut opens it too; editing shows the saved fields and tests with them.
  await composer(page).press('Control+,');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Edit Scripted' }).click();
  const form = dialog.getByRole('form', { name: 'Edit Scripted' });
  await expect(form.getByLabel('Model', { exact: true })).toHaveValue('scripted-model');
  await expect(form.getByLabel('API key')).toHaveValue('');
  await form.getByRole('button', { name: 'Test connection' }).click();
  await expect(form.locator('[data-test-result="ok"]')).toHaveText(/^Connected in \d+ ms, 1 model$/);
  await shoot('settings-model-form', async () => {
    await expect(form).toBeVisible();
  });
  await form.getByRole('button', { name: 'Cancel' }).click();
  // A second model under the same name is refused, and the form says why.
  await dialog.getByRole('button', { name: 'Add a model' }).click();
  const add = dialog.getByRole('form', { name: 'Add a model' });
  await add.getByLabel('Name', { exact: true }).fill('Scripted');
  await add.getByLabel('Model', { exact: true }).fill('other-model');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(add.getByRole('alert')).toContainText('"Scripted"');
  await add.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog.locator('[data-model]')).toHaveCount(1);
  await a.closeSettings(page);
});

test('asks, answers the approval card, watches the output stream into the card and the answer after it, and finds it all after a reload', async () => {
  // Paced (the plugin's lines and the model's chunks) so that even a busy machine shows each in parts.
  await a.script(
    model,
    { type: 'reply', toolCalls: [{ name: 'stress__count', arguments: { n: 5, delay_ms: 250 } }] },
    { type: 'reply', text: ['The plugin ', 'counted ', 'to five, ', 'one line ', 'each.'], chunkDelayMs: 200 },
  );
  await a.newConversation(page);
  await a.ask(page, 'Count to five, slowly');
  const card = a.approvalCard(page);
  await expect(card).toBeVisible();
  await expect(card).toHaveAccessibleName('Allow Stress to run count?');
  // Exactly the four answers, and the card has the focus so the keyboard is there at once.
  await expect(card.getByRole('button')).toHaveText([
    'Allow once',
    'Allow for this conversation',
    'Always allow',
    'Deny',
  ]);
  await expect(card).toBeFocused();
  await expect(card.getByLabel(/^n/)).toHaveValue('5');
  // Enter does not approve (too easy by accident): Tab reaches the fields and the buttons.
  await page.keyboard.press('Tab');
  await expect(card.getByLabel(/^n/)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card).toBeVisible();
  // Stop is there while the prompt waits: the turn runs.
  await expect(a.stopButton(page)).toBeVisible();
  await shoot('approval-card', async () => {
    await expect(card).toBeVisible();
  });
  await a.recordTexts(page, '__cardStates', 'article[data-call-id] [data-call-output]', '[data-call-phase="running"]');
  await a.recordTexts(
    page,
    '__answerStates',
    'article[data-role="assistant"] [data-answer]',
    'article[data-role="assistant"][data-status="streaming"]',
  );
  await card.getByRole('button', { name: 'Allow once' }).click();
  const answer = a.lastAnswer(page);
  await expect(answer).toContainText('The plugin counted to five, one line each.', { timeout: 15_000 });
  await expect(a.stopButton(page)).toBeHidden();
  // The output streamed into the card: numbers were on screen while it ran, before all five.
  const cardStates = await a.recorded(page, '__cardStates');
  const counts = cardStates
    .filter((s) => s.live)
    .map((s) => s.text.split('\n').filter((l) => /^\d+$/.test(l.trim())).length);
  expect(counts.some((n) => n > 0 && n < 5)).toBe(true);
  // And the answer streamed after it: part of it was on screen while it was being written.
  const answerStates = await a.recorded(page, '__answerStates');
  expect(answerStates.some((s) => s.live && s.text.startsWith('The plugin') && !s.text.includes('each.'))).toBe(true);
  const done = a.lastCard(page);
  await expect(done).toContainText('you allowed it once');
  await expect(done.locator('[data-call-phase="done"]')).toBeVisible();
  await expect(answer).toContainText('Scripted');
  await expect(answer).toContainText(/\d+ in · \d+ out/);
  // The model was offered the tool, and got its output back.
  const calls = await model.modelCalls();
  expect(JSON.stringify(calls.at(-2)?.body)).toContain('stress__count');
  expect(JSON.stringify(calls.at(-1)?.body)).toMatch(/counted to 5/);
  await shoot('tool-call-turn', async () => {
    await expect(answer).toBeVisible();
  });
  await page.reload();
  await openApp(page);
  await expect(page.locator('article[data-role="user"]').last()).toContainText('Count to five, slowly');
  await expect(a.lastCard(page)).toContainText('you allowed it once');
  await expect(a.lastCard(page)).toContainText('Stress');
  await expect(a.lastAnswer(page)).toContainText('The plugin counted to five, one line each.');
  // The card opens to show its output, kept with it.
  await a
    .lastCard(page)
    .getByRole('button', { name: /Stress/ })
    .click();
  await expect(a.lastCard(page).locator('[data-call-output]')).toContainText('counted to 5');
  await shoot('tool-call-expanded', async () => {
    await expect(a.lastCard(page).locator('[data-call-output]')).toBeVisible();
  });
});

test('a reload while a prompt waits shows the prompt again', async () => {
  await a.script(
    model,
    { type: 'reply', toolCalls: [{ name: 'stress__count', arguments: { n: 2 } }] },
    { type: 'reply', text: ['Denied, fine.'] },
  );
  await a.newConversation(page);
  await a.ask(page, 'Count to two');
  await expect(a.approvalCard(page)).toBeVisible();
  await page.reload();
  await openApp(page);
  const card = a.approvalCard(page);
  await expect(card).toBeVisible();
  await expect(card.getByRole('button', { name: 'Allow once' })).toBeVisible();
  await card.getByRole('button', { name: 'Deny' }).click();
  await expect(a.lastCard(page)).toContainText('you denied it');
  await expect(a.lastAnswer(page)).toContainText('Denied, fine.');
});

test('arguments edited on the approval card are checked again by the server, which says what is wrong', async () => {
  await a.script(
    model,
    { type: 'reply', toolCalls: [{ name: 'mcp_dynamic__add_tool', arguments: { name: 'typo' } }] },
    { type: 'reply', text: ['Added it.'] },
  );
  await a.newConversation(page);
  await a.ask(page, 'Add a tool');
  const card = a.approvalCard(page);
  const name = card.getByLabel(/^name/);
  await expect(name).toHaveValue('typo');
  // The form cannot know the tool's name pattern: the server refuses, and the card says why.
  await name.fill('Not A Name!');
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(card.getByRole('alert')).toContainText(/arguments\.name/);
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await name.fill('fixed');
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(a.lastCard(page)).toContainText('name: "fixed"');
  await expect(a.lastAnswer(page)).toContainText('Added it.');
  await a
    .lastCard(page)
    .getByRole('button', { name: /MCP dynamic/ })
    .click();
  await expect(a.lastCard(page).locator('[data-call-output]')).toContainText('added fixed');
});

test('the composer’s picker switches the conversation’s model, and the choice is kept', async () => {
  await expect(a.modelPicker(page)).toHaveAccessibleName('Model: Default (Scripted)');
  await a.modelPicker(page).click();
  const menu = page.getByRole('menu', { name: 'Choose the model' });
  await expect(menu.getByRole('menuitemradio')).toHaveText([/^Default \(Scripted\)/, /^Scripted/]);
  await expect(menu.getByRole('menuitemradio', { name: /^Default/ })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  await expect(a.modelPicker(page)).toHaveAccessibleName('Model: Scripted');
  await expect(a.modelPicker(page)).toBeFocused();
  await page.reload();
  await openApp(page);
  await expect(a.modelPicker(page)).toHaveAccessibleName('Model: Scripted');
  await a.modelPicker(page).click();
  await page.getByRole('menuitem', { name: 'Manage models…' }).click();
  await expect(a.settingsDialog(page)).toBeVisible();
  await a.closeSettings(page);
});

test('a tool switched off in the Tools tab is refused to the model; a tool set to Allow runs without asking', async () => {
  await a.setExposed(page, 'stress', 'count', false);
  const policy = await a.setPolicy(page, 'tuned', 'echo', /^Allow/);
  await expect(policy.locator('option')).toHaveText(['Allow', 'Ask (default)', 'Deny']);
  await a.script(
    model,
    {
      type: 'reply',
      toolCalls: [
        { name: 'stress__count', arguments: { n: 3 } },
        { name: 'tuned__echo', arguments: {} },
      ],
    },
    { type: 'reply', text: ['Counting is switched off.'] },
  );
  await a.newConversation(page);
  await a.ask(page, 'Count to three, then echo');
  await expect(a.lastAnswer(page)).toContainText('Counting is switched off.', { timeout: 15_000 });
  const refused = page.locator('article[data-call-id]').filter({ hasText: 'count' });
  await expect(refused.locator('[data-failure-code="tool_not_exposed"]')).toBeVisible();
  const echoed = page.locator('article[data-call-id]').filter({ hasText: 'echo' });
  await expect(echoed).toContainText('allowed by policy');
  await expect(page.locator('[data-approval-card]')).toHaveCount(0);
  // What the model was told: a refusal, never a call.
  expect(JSON.stringify((await model.modelCalls()).at(-1)?.body)).toMatch(/tool_not_exposed/);
  await a.setExposed(page, 'stress', 'count', true);
  await a.setPolicy(page, 'tuned', 'echo', /\(default\)/);
});

test('Stop works while the model thinks, and mid-answer; the answer says Stopped', async () => {
  await a.script(model, { type: 'hang' });
  await a.newConversation(page);
  await a.ask(page, 'Think hard');
  await expect(page.locator('[data-thinking]')).toBeVisible();
  await a.stopButton(page).click();
  await expect(a.lastAnswer(page)).toContainText('Stopped.');
  await expect(a.stopButton(page)).toBeHidden();
  await expect(page.locator('[data-thinking]')).toHaveCount(0);

  await a.script(model, { type: 'reply', text: ['Once ', 'upon ', 'a time'], stallAfterChunks: 2 });
  await a.ask(page, 'Tell me a story');
  await expect(a.lastAnswer(page)).toContainText('Once upon');
  await a.stopButton(page).click();
  await expect(a.lastAnswer(page)).toContainText('Stopped.');
  await expect(a.lastAnswer(page)).toContainText('Once upon');
  await expect(a.lastAnswer(page)).not.toContainText('a time');
  await expect(a.stopButton(page)).toBeHidden();
  await expect.poll(async () => (await model.modelCalls()).at(-1)?.outcome).toBe('client-closed');
});

test('a failure says what happened and how long to wait, and Retry runs the turn again', async () => {
  await a.script(
    model,
    { type: 'error', error: 'rate-limited', retryAfter: 2 },
    { type: 'reply', text: ['Now it works.'] },
  );
  await a.newConversation(page);
  await a.ask(page, 'What time is it?');
  const failed = a.lastAnswer(page);
  await expect(failed.locator('[data-failure-code="rate_limited"]')).toContainText(/429/);
  await expect(failed.locator('[data-retry-wait]')).toContainText('The provider asked to wait 2 s');
  const retry = failed.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeEnabled();
  await retry.click();
  await expect(a.lastAnswer(page)).toContainText('Now it works.');
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(page.locator('article[data-role="user"]')).toHaveCount(1);
});

test('measures a model token from the server to the screen', async () => {
  Object.assign(figures, await m.tokenToScreen(page, model));
});

test('measures opening a conversation of 1,000 messages with tool cards', async () => {
  Object.assign(figures, await m.openLongConversation(page));
});
