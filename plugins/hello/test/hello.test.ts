/** The hello plugin as a real child process, through the raw protocol. */
import { afterEach, describe, expect, it } from 'vitest';
import { announcedTools, cleanup, readManifest, shownText, startPlugin } from '../../test-helpers.js';

afterEach(cleanup);

describe('hello', () => {
  it('announces exactly the tools its manifest declares, and a passthrough handler', async () => {
    const p = await startPlugin('hello');
    expect(await announcedTools(p)).toEqual(readManifest('hello').functions.map((f) => f.name));
    const init = (await p.response(p.request('initialize'))).result as {
      commands: Array<{ name: string; description: string }>;
    };
    expect(init.commands.map((c) => c.name)).toContain('on_input');
    for (const f of readManifest('hello').functions) {
      expect(init.commands.find((c) => c.name === f.name)?.description).toBe(f.description);
    }
  });

  it('greets by name, and the world by default', async () => {
    const p = await startPlugin('hello');
    expect((await p.call('say_hello', { name: '  Ada ' })).complete?.data).toMatch(/^Hello, \*\*Ada\*\*!/);
    expect((await p.call('say_hello')).complete?.data).toMatch(/^Hello, \*\*World\*\*!/);
  });

  it('counts one streamed line per number, then completes', async () => {
    const p = await startPlugin('hello');
    const turn = await p.call('count', { to: 5, delay_ms: 0 });
    expect(turn.streams).toEqual(['1\n', '2\n', '3\n', '4\n', '5\n']);
    expect(turn.complete).toMatchObject({
      success: true,
      data: expect.stringContaining('Counted to 5'),
      keep_session: false,
    });
  });

  it('paces the count by delay_ms', async () => {
    const p = await startPlugin('hello');
    const started = Date.now();
    const turn = await p.call('count', { to: 3, delay_ms: 150 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(turn.streams).toHaveLength(3);
  });

  it('counts with pauses without piling up listeners on the call’s abort signal', async () => {
    const p = await startPlugin('hello');
    const turn = await p.call('count', { to: 30, delay_ms: 1 });
    expect(turn.streams).toHaveLength(30);
    // Node warns on the 11th listener, long before the count ends; a second call makes sure the
    // plugin's stderr up to then has been read.
    await p.call('say_hello');
    expect(p.stderr).not.toMatch(/MaxListenersExceeded/);
  });

  it('refuses a count outside 1..100 with invalid params', async () => {
    const p = await startPlugin('hello');
    for (const to of [0, 101, 2.5, 'ten']) {
      const turn = await p.call('count', { to });
      expect(turn.error).toMatchObject({ code: -32602, message: expect.stringContaining('from 1 to 100') });
    }
  });

  it('holds a numbered conversation in passthrough, summarizes it, and leaves on bye', async () => {
    const p = await startPlugin('hello');
    const start = await p.call('start_conversation', { topic: 'GPUs' });
    expect(start.complete?.keep_session).toBe(true);
    expect(start.complete?.data).toMatch(/GPUs/);
    expect(start.complete?.data).toMatch(/`exit`, `quit` or `bye`/);

    const first = await p.input('hello there');
    expect(first.ack.result).toEqual({ acknowledged: true });
    expect(first.turn.complete).toMatchObject({
      keep_session: true,
      data: expect.stringMatching(/Turn 1\b[\s\S]*> hello there/),
    });
    const second = await p.input('how are you?');
    expect(second.turn.complete?.data).toMatch(/Turn 2\b[\s\S]*> how are you\?/);

    const summary = await p.input('summary');
    expect(summary.turn.complete?.keep_session).toBe(true);
    expect(shownText(summary.turn)).toMatch(/2 turns about GPUs[\s\S]*1\. hello there\n2\. how are you\?/);

    const bye = await p.input('Bye!');
    expect(bye.turn.complete).toMatchObject({ keep_session: false, data: expect.stringContaining('2 turns') });
  });

  it('understands exit and quit in any case', async () => {
    const p = await startPlugin('hello');
    for (const word of ['EXIT', ' quit ']) {
      await p.call('start_conversation');
      const { turn } = await p.input(word);
      expect(turn.complete?.keep_session).toBe(false);
    }
  });

  it('never logs what the user types in passthrough', async () => {
    const p = await startPlugin('hello');
    await p.call('start_conversation');
    await p.input('my-secret-api-key-123');
    await p.input('bye');
    await p.stop();
    expect(p.stderr).not.toContain('my-secret-api-key-123');
  });
});
