/** The todo plugin as a real child process, its plan in a temp PLUGBOARD_DATA_DIR. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { announcedTools, cleanup, readManifest, startPlugin, tempDir, type PluginClient } from '../../test-helpers.js';

afterEach(cleanup);

async function start(dataDir = tempDir('todo-data')): Promise<{ p: PluginClient; dataDir: string }> {
  return { p: await startPlugin('todo', { dataDir }), dataDir };
}

async function ok(p: PluginClient, fn: string, args: Record<string, unknown> = {}): Promise<string> {
  const turn = await p.call(fn, args);
  if (!turn.complete) throw new Error(`${fn} failed: ${turn.error?.message}`);
  return String(turn.complete.data);
}

function onDisk(dataDir: string): { next_id: number; items: Array<{ id: number; title: string; status: string }> } {
  return JSON.parse(readFileSync(path.join(dataDir, 'todo.json'), 'utf8'));
}

describe('todo', () => {
  it('announces the declared tools, plus the todo user command', async () => {
    const { p } = await start();
    const m = readManifest('todo');
    expect(await announcedTools(p)).toEqual(expect.arrayContaining([...m.functions.map((f) => f.name), 'todo']));
    expect((await announcedTools(p)).sort()).toEqual(
      [...m.functions.map((f) => f.name), ...(m.user_commands ?? []).map((c) => c.name)].sort(),
    );
  });

  it('starts empty and says how to add a step', async () => {
    const { p } = await start();
    expect(await ok(p, 'list')).toMatch(/plan is empty.*`add`/);
  });

  it('adds steps, renders a markdown checklist and keeps it on disk', async () => {
    const { p, dataDir } = await start();
    await ok(p, 'add', { title: 'Read the issue' });
    const shown = await ok(p, 'add', { title: '  Write the fix  ' });
    expect(shown).toBe('Added #2.\n\n**Plan** · 0 of 2 done\n\n- [ ] #1 · Read the issue\n- [ ] #2 · Write the fix');
    expect(onDisk(dataDir).items.map((i) => [i.id, i.title, i.status])).toEqual([
      [1, 'Read the issue', 'todo'],
      [2, 'Write the fix', 'todo'],
    ]);
  });

  it('moves steps through doing and done, and renames them', async () => {
    const { p } = await start();
    await ok(p, 'add', { title: 'one' });
    await ok(p, 'add', { title: 'two' });
    await ok(p, 'update', { id: 1, status: 'done' });
    const shown = await ok(p, 'update', { id: 2, status: 'doing', title: 'two, better' });
    expect(shown).toMatch(/^Updated #2 \(todo → doing, renamed\)\./);
    expect(shown).toContain('**Plan** · 1 of 2 done, 1 in progress');
    expect(shown).toContain('- [x] #1 · ~~one~~');
    expect(shown).toContain('- [ ] #2 · **two, better** ← doing');
  });

  it('refuses an unknown step or status, naming what exists', async () => {
    const { p } = await start();
    await ok(p, 'add', { title: 'only' });
    expect((await p.call('update', { id: 7, status: 'done' })).error).toMatchObject({
      code: -32602,
      message: 'There is no step #7. Steps: #1.',
    });
    expect((await p.call('update', { id: 1, status: 'finished' })).error?.message).toMatch(/todo, doing, done/);
    expect((await p.call('add', { title: '   ' })).error?.code).toBe(-32602);
  });

  it('removes steps and clears finished ones, never reusing ids', async () => {
    const { p, dataDir } = await start();
    for (const t of ['a', 'b', 'c']) await ok(p, 'add', { title: t });
    await ok(p, 'update', { id: 1, status: 'done' });
    await ok(p, 'update', { id: 3, status: 'done' });
    expect(await ok(p, 'clear_done')).toMatch(/^Cleared 2 finished steps\./);
    expect(await ok(p, 'remove', { id: 2 })).toMatch(/^Removed #2 \(b\)\.[\s\S]*plan is empty/);
    expect(await ok(p, 'add', { title: 'd' })).toContain('#4 · d');
    expect(onDisk(dataDir).next_id).toBe(5);
  });

  it('shows the plan for the todo user command', async () => {
    const { p } = await start();
    await ok(p, 'add', { title: 'ship it' });
    expect(await ok(p, 'todo')).toContain('- [ ] #1 · ship it');
  });

  it('keeps the plan across restarts', async () => {
    const dataDir = tempDir('todo-data');
    const first = await start(dataDir);
    await ok(first.p, 'add', { title: 'survive a restart' });
    await first.p.stop();
    const second = await start(dataDir);
    expect(await ok(second.p, 'list')).toContain('#1 · survive a restart');
  });

  it('reads a plan edited by hand, and refuses to overwrite one that is not valid JSON', async () => {
    const { p, dataDir } = await start();
    const file = path.join(dataDir, 'todo.json');
    writeFileSync(file, JSON.stringify({ items: [{ id: 5, title: 'typed by the user', status: 'doing' }] }));
    expect(await ok(p, 'list')).toContain('#5 · **typed by the user** ← doing');
    expect(await ok(p, 'add', { title: 'next' })).toContain('#6 · next');

    writeFileSync(file, '{ "items": [ oops');
    expect((await p.call('add', { title: 'lost?' })).error?.message).toMatch(/todo\.json is not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{ "items": [ oops');
  });

  it('applies concurrent changes one at a time and leaves no temp files', async () => {
    const { p, dataDir } = await start();
    const ids = Array.from({ length: 20 }, (_, i) => p.execute('add', { title: `step ${i + 1}` }));
    const turns = await Promise.all(ids.map((id) => p.turn(id)));
    expect(turns.every((t) => t.complete?.success)).toBe(true);
    const items = onDisk(dataDir).items;
    expect(items.map((i) => i.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(items.map((i) => i.title)).size).toBe(20);
    expect(readdirSync(dataDir)).toEqual(['todo.json']);
  });
});
