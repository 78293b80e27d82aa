/**
 * The assistant's agents, plans and prompts in the web UI, end to end (issue 9): the bundled
 * example agent plugin (examples/ollama-agent) chosen as the conversation's model in the
 * composer's picker, a plan run with `/plan` through the bundled example planner
 * (examples/model-planner) with its checklist ticking through, an MCP server's prompts in the `/`
 * palette, the palette's marks on tools whose plugin cannot simply run, and the Tools tab's token
 * costs. A real `plugboard serve` with real plugin processes in Debian's Chromium. No language
 * model can run on these machines: the scripted model server (test/model-server) plays the one
 * behind both examples, as their OpenAI-compatible server, over the real streaming wire.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { spawnModelServer, type ModelServerProcess } from '../test/model-server/process';
import * as a from './assistant-scenarios';
import { composer, expand, health, openApp, palette, pluginRow } from './scenarios';
import { cli, fixturePlugin, REPO, startServe, type Served } from './support/serve';
import { shootBothThemes } from './support/shots';

let served: Served;
let model: ModelServerProcess;
let page: Page;

test.describe.configure({ mode: 'serial' });

const PLAN = JSON.stringify({
  tasks: [
    { id: 't1', description: 'List the facts', dependencies: [] },
    { id: 't2', description: 'Write the summary', dependencies: ['t1'] },
  ],
  explanation: 'Facts first, then the summary.',
});

/** A G-Assist plugin that needs a setting nobody has given yet. */
function unconfiguredPlugin(dataDir: string): string {
  return fixturePlugin(path.dirname(dataDir), {
    id: 'keyed',
    name: 'Keyed',
    persistent: true,
    functions: [
      { name: 'echo', description: 'Answer, once a token is set', parameters: { type: 'object', properties: {} } },
    ],
    settings: { token: { type: 'string', title: 'Token', required: true } },
  });
}

test.beforeAll(async ({ browser }) => {
  model = await spawnModelServer();
  served = await startServe({
    prepare: (dataDir) => {
      cli(['plugins', 'install', path.join(REPO, 'examples', 'ollama-agent')], dataDir);
      cli(
        ['plugins', 'config', 'ollama-agent', `AGENT_BASE_URL=${model.baseURL}`, 'AGENT_MODEL=scripted-model'],
        dataDir,
      );
      cli(['plugins', 'install', path.join(REPO, 'examples', 'model-planner')], dataDir);
      cli(['plugins', 'config', 'model-planner', `base_url=${model.baseURL}`, 'model=scripted-model'], dataDir);
      cli(['plugins', 'install', path.join(REPO, 'test', 'fixtures', 'mcp-prompts')], dataDir);
      cli(['plugins', 'install', unconfiguredPlugin(dataDir)], dataDir);
    },
  });
  page = await browser.newPage();
  await page.goto(served.url);
  await openApp(page);
});

test.afterAll(async () => {
  await page?.close();
  await served?.stop();
  await model?.stop();
});

const shoot = (name: string, fn: () => Promise<void>): Promise<void> => shootBothThemes(page, name, fn);

test('the example agent plugin, chosen in the picker, answers: its model’s tool call gets the approval card, its answer streams', async () => {
  await a.script(
    model,
    { type: 'reply', toolCalls: [{ name: 'tuned__echo', arguments: {} }] },
    { type: 'reply', text: ['The echo ', 'came back ', 'empty, ', 'as it should.'], chunkDelayMs: 150 },
  );
  await a.newConversation(page);
  await a.modelPicker(page).click();
  const menu = page.getByRole('menu', { name: 'Choose the model' });
  await menu.getByRole('menuitemradio', { name: /^agent:ollama-agent/ }).click();
  await expect(a.modelPicker(page)).toHaveAccessibleName('Model: agent:ollama-agent');
  await a.recordTexts(
    page,
    '__agentAnswer',
    'article[data-role="assistant"] [data-answer]',
    'article[data-role="assistant"][data-status="streaming"]',
  );
  await a.ask(page, 'Echo nothing for me');
  const card = a.approvalCard(page);
  await expect(card).toHaveAccessibleName('Allow Tuned to run echo?', { timeout: 30_000 });
  await card.getByRole('button', { name: 'Allow once' }).click();
  const answer = a.lastAnswer(page);
  await expect(answer).toContainText('The echo came back empty, as it should.', { timeout: 30_000 });
  await expect(answer).toHaveAttribute('data-status', 'done');
  await expect(answer).toHaveAccessibleName('Answer from agent:ollama-agent');
  await expect(a.lastCard(page)).toContainText('you allowed it once');
  // It streamed: part of the answer was on screen before the rest.
  const states = await a.recorded(page, '__agentAnswer');
  expect(states.some((s) => s.live && s.text.startsWith('The echo') && !s.text.includes('as it should'))).toBe(true);
  // The agent's model was offered the tools (the echo, the prompt server's tool), never a prompt.
  const calls = await model.modelCalls();
  const offered = JSON.stringify(calls.at(-2)?.body);
  expect(offered).toContain('tuned__echo');
  expect(offered).toContain('mcp_prompts__note');
  expect(offered).not.toContain('release_notes');
  await shoot('agent-model-turn', async () => {
    await expect(answer).toBeVisible();
  });
});

test('/plan runs through the example planner: the checklist ticks as each task is allowed and done', async () => {
  await a.script(
    model,
    { type: 'reply', text: [PLAN] },
    { type: 'reply', text: ['Fact A. ', 'Fact B.'] },
    { type: 'reply', text: ['In short: ', 'A and B.'] },
  );
  await a.newConversation(page);
  await a.ask(page, '/plan summarise the facts');
  const plan = page.locator('[data-plan]').last();
  const task = (id: string) => plan.locator(`[data-task-id="${id}"]`);
  // Each task asks first (execute_task's policy is ask): the checklist waits with it.
  await expect(a.approvalCard(page)).toBeVisible({ timeout: 30_000 });
  await expect(plan).toContainText('Facts first, then the summary.');
  await expect(plan.locator('[data-plan-progress]')).toHaveText('0 of 2 done');
  await expect(task('t1')).toHaveAccessibleName('List the facts: waits for you');
  await expect(task('t2')).toHaveAttribute('data-task-status', 'pending');
  await expect(task('t2')).toHaveAccessibleName('Write the summary: to do');
  await shoot('plan-checklist-running', async () => {
    await expect(plan).toBeVisible();
  });
  await a.approvalCard(page).getByRole('button', { name: 'Allow once' }).click();
  await expect(task('t1')).toHaveAttribute('data-task-status', 'done', { timeout: 30_000 });
  await expect(plan.locator('[data-plan-progress]')).toHaveText('1 of 2 done');
  await a.approvalCard(page).getByRole('button', { name: 'Allow once' }).click();
  await expect(task('t2')).toHaveAttribute('data-task-status', 'done', { timeout: 30_000 });
  await expect(plan.locator('[data-plan-progress]')).toHaveText('2 of 2 done');
  await expect(task('t1')).toHaveAccessibleName('List the facts: done');
  // Each task ran as a card, which opens to show the work it streamed.
  const first = page.locator('article[data-call-id]').filter({ hasText: 'List the facts' });
  await first.getByRole('button', { name: /^Model planner execute_task/ }).click();
  await expect(first.locator('[data-call-output]')).toContainText('Fact A. Fact B.');
  await shoot('plan-checklist-done', async () => {
    await expect(plan).toBeVisible();
  });
});

test('an MCP prompt in the palette: its argument asked in a form, its text put in the composer, nothing sent', async () => {
  await a.newConversation(page);
  const before = await page.locator('article[data-role="user"]').count();
  await composer(page).fill('/release');
  const option = palette(page).getByRole('option', { name: /mcp-prompts:release_notes/ });
  await expect(option).toBeVisible();
  await expect(option).toHaveAttribute('data-entry-kind', 'prompt');
  await expect(option).toContainText('prompt');
  await shoot('palette-prompt', async () => {
    await expect(option).toBeVisible();
  });
  await composer(page).press('Enter');
  const form = page.getByRole('dialog', { name: /release_notes/ });
  await form.getByLabel(/^version/).fill('2.1');
  await shoot('palette-prompt-form', async () => {
    await expect(form).toBeVisible();
  });
  await form.getByRole('button', { name: 'Fill in' }).click();
  await expect(form).toBeHidden();
  await expect(composer(page)).toHaveValue(
    'Write the release notes of version 2.1.\n\nFixed the import; faster start.',
  );
  await expect(composer(page)).toBeFocused();
  expect(await page.locator('article[data-role="user"]').count()).toBe(before);
  // A prompt without arguments fills the composer at once.
  await composer(page).fill('/standup');
  await expect(palette(page).getByRole('option', { name: /mcp-prompts:standup/ })).toBeVisible();
  await composer(page).press('Enter');
  await expect(composer(page)).toHaveValue('Summarise my standup: yesterday, today, blockers.');
  // Tab completes a prompt's name like a tool's; Enter then opens its form, and sends nothing.
  await composer(page).fill('/release');
  await expect(palette(page).getByRole('option', { name: /mcp-prompts:release_notes/ })).toBeVisible();
  await composer(page).press('Tab');
  await expect(composer(page)).toHaveValue('/mcp-prompts:release_notes ');
  await composer(page).press('Enter');
  await expect(form).toBeVisible();
  await form.getByLabel(/^version/).fill('3.0');
  await form.getByLabel(/^audience/).fill('admins');
  await form.getByLabel(/^audience/).press('Control+Enter');
  await expect(composer(page)).toHaveValue(
    'Write the release notes of version 3.0 for admins.\n\nFixed the import; faster start.',
  );
  expect(await page.locator('article[data-role="user"]').count()).toBe(before);
  await composer(page).fill('');
});

test('the palette marks tools whose plugin needs settings or was stopped, in words a screen reader reads', async () => {
  await composer(page).fill('/keyed');
  const keyed = palette(page).getByRole('option', { name: /keyed:echo/ });
  await expect(keyed).toHaveAccessibleDescription('needs settings (token)');
  await expect(keyed.locator('[data-entry-status]')).toHaveText('settings');
  await expect(keyed).toHaveAccessibleName(/^\/keyed:echo Answer, once a token is set Keyed$/);
  await composer(page).fill('');
  // Stop the stress plugin from its panel: its tools say so.
  await expand(page, 'stress');
  await pluginRow(page, 'stress').getByRole('button', { name: 'Shut down stress', exact: true }).click();
  await expect(health(page, 'stress')).toContainText(/stopped/i);
  await composer(page).fill('/stress:count');
  const count = palette(page).getByRole('option', { name: /stress:count/ });
  await expect(count).toHaveAccessibleDescription('plugin stopped');
  await shoot('palette-status', async () => {
    await expect(count).toBeVisible();
  });
  await composer(page).fill('');
  // A running plugin's tools carry no mark.
  await pluginRow(page, 'stress').getByRole('button', { name: 'Start stress', exact: true }).click();
  await expect(health(page, 'stress')).toContainText(/ready/i);
  await composer(page).fill('/stress:count');
  await expect(palette(page).getByRole('option', { name: /stress:count/ })).toHaveAccessibleDescription('');
  await composer(page).fill('');
});

test('the Tools tab shows what each tool’s declaration costs and the exposed total, which follows the switches', async () => {
  const row = await a.toolsTab(page, 'stress');
  const total = row.locator('[data-tools-cost]');
  const digits = (t: string): number => Number(t.replace(/[^\d]/g, ''));
  const shown = async (): Promise<number> => digits(await total.innerText());
  await expect(total).toHaveText(/^Exposed tools add ~[\d,]+ tokens to every request$/);
  // Every tool is exposed: the total is the sum of the costs beside the switches.
  const each = (await row.locator('[data-tool-cost]').allInnerTexts()).map(digits);
  expect(each.length).toBeGreaterThan(3);
  for (const n of each) expect(n).toBeGreaterThan(0);
  const sum = each.reduce((x, y) => x + y, 0);
  expect(await shown()).toBe(sum);
  const blast = digits(await row.locator('[data-tool-cost="blast"]').innerText());
  await a.setExposed(page, 'stress', 'blast', false);
  await expect.poll(shown).toBe(sum - blast);
  await shoot('tools-tab-costs', async () => {
    await expect(total).toBeVisible();
  });
  await a.setExposed(page, 'stress', 'blast', true);
  await expect.poll(shown).toBe(sum);
});
