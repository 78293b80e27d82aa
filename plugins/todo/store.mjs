// The plan on disk: <data dir>/todo.json, read fresh for every change (the user may edit it by
// hand) and replaced atomically (temp file + rename), one change at a time.
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PluginError } from '../../sdk/node/dist/index.js';

export const STATUSES = ['todo', 'doing', 'done'];

function emptyPlan() {
  return { version: 1, next_id: 1, items: [] };
}

/** Accepts a hand-edited file as far as it makes sense; drops what does not. */
function normalize(raw) {
  const plan = emptyPlan();
  const items = Array.isArray(raw?.items) ? raw.items : [];
  for (const item of items) {
    if (!Number.isInteger(item?.id) || typeof item.title !== 'string' || item.title.trim() === '') continue;
    plan.items.push({
      id: item.id,
      title: item.title.trim(),
      status: STATUSES.includes(item.status) ? item.status : 'todo',
      created_at: typeof item.created_at === 'string' ? item.created_at : null,
      updated_at: typeof item.updated_at === 'string' ? item.updated_at : null,
    });
  }
  const highest = Math.max(0, ...plan.items.map((i) => i.id));
  plan.next_id = Number.isInteger(raw?.next_id) && raw.next_id > highest ? raw.next_id : highest + 1;
  return plan;
}

export class TodoStore {
  constructor(dataDir) {
    this.file = path.join(dataDir, 'todo.json');
    this.queue = Promise.resolve();
  }

  async read() {
    let text;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (e) {
      if (e.code === 'ENOENT') return emptyPlan();
      throw e;
    }
    try {
      return normalize(JSON.parse(text));
    } catch (e) {
      // Never overwrite a file the user may be halfway through editing.
      throw new PluginError(
        `${this.file} is not valid JSON (${e.message}). Fix it or delete it to start an empty plan.`,
      );
    }
  }

  /** Runs `change(plan)` on the current plan and saves the result; changes never interleave. */
  update(change) {
    const run = this.queue.then(async () => {
      const plan = await this.read();
      const result = await change(plan);
      await this.write(plan);
      return result;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  async write(plan) {
    const temp = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(plan, null, 2)}\n`, { flag: 'wx' });
      await rename(temp, this.file);
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
  }
}
