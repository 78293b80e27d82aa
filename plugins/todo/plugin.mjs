// Todo: a plan that the user and the assistant both read and update, kept on disk so it
// survives restarts and can be edited by hand.
import { readFileSync } from 'node:fs';
import { createPlugin, ErrorCode, pluginEnvironment, PluginError } from '../../sdk/node/dist/index.js';
import { renderPlan, withPlan } from './render.mjs';
import { STATUSES, TodoStore } from './store.mjs';

const manifest = JSON.parse(readFileSync(new URL('./plugboard.json', import.meta.url), 'utf8'));
const describe = (name) => ({ description: manifest.functions.find((f) => f.name === name)?.description ?? '' });

const store = new TodoStore(pluginEnvironment(import.meta.url).dataDir);
const plugin = createPlugin({ name: manifest.id, version: manifest.version, description: manifest.description });
const MAX_TITLE = 500;

function cleanTitle(title) {
  if (typeof title !== 'string' || title.trim() === '')
    throw new PluginError('"title" must be a non-empty string', ErrorCode.InvalidParams);
  const text = title.trim().replace(/\s*\n\s*/g, ' ');
  if (text.length > MAX_TITLE)
    throw new PluginError(`"title" is longer than ${MAX_TITLE} characters`, ErrorCode.InvalidParams);
  return text;
}

function find(plan, id) {
  const item = plan.items.find((i) => i.id === id);
  if (item) return item;
  const ids = plan.items.map((i) => `#${i.id}`).join(', ') || 'none: the plan is empty';
  throw new PluginError(`There is no step #${id}. Steps: ${ids}.`, ErrorCode.InvalidParams);
}

const show = async () => renderPlan(await store.read());

plugin.command('list', show, describe('list'));

// The `todo` user command: the user asks to see the plan without going through the model.
plugin.command('todo', show, { description: 'Show the plan (user command)' });

plugin.command(
  'add',
  ({ title }) =>
    store.update((plan) => {
      const now = new Date().toISOString();
      const item = { id: plan.next_id++, title: cleanTitle(title), status: 'todo', created_at: now, updated_at: now };
      plan.items.push(item);
      return withPlan(`Added #${item.id}.`, plan);
    }),
  describe('add'),
);

plugin.command(
  'update',
  ({ id, status, title }) =>
    store.update((plan) => {
      if (!STATUSES.includes(status))
        throw new PluginError(`"status" must be one of ${STATUSES.join(', ')}`, ErrorCode.InvalidParams);
      const item = find(plan, id);
      const changes = [];
      if (item.status !== status) changes.push(`${item.status} → ${status}`);
      item.status = status;
      if (title !== undefined) {
        const renamed = cleanTitle(title);
        if (renamed !== item.title) changes.push('renamed');
        item.title = renamed;
      }
      item.updated_at = new Date().toISOString();
      return withPlan(
        changes.length ? `Updated #${item.id} (${changes.join(', ')}).` : `#${item.id} was already ${status}.`,
        plan,
      );
    }),
  describe('update'),
);

plugin.command(
  'remove',
  ({ id }) =>
    store.update((plan) => {
      const item = find(plan, id);
      plan.items = plan.items.filter((i) => i !== item);
      return withPlan(`Removed #${item.id} (${item.title}).`, plan);
    }),
  describe('remove'),
);

plugin.command(
  'clear_done',
  () =>
    store.update((plan) => {
      const before = plan.items.length;
      plan.items = plan.items.filter((i) => i.status !== 'done');
      const n = before - plan.items.length;
      return withPlan(
        n === 0 ? 'No finished steps to clear.' : `Cleared ${n} finished step${n === 1 ? '' : 's'}.`,
        plan,
      );
    }),
  describe('clear_done'),
);

await plugin.run();
