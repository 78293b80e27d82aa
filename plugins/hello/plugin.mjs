// Hello: the plugin to try first. A greeting, a streamed count, and a passthrough conversation.
import { readFileSync } from 'node:fs';
import { createPlugin, ErrorCode, PluginError } from '../../sdk/node/dist/index.js';
import { Conversation } from './conversation.mjs';

// The manifest is the one place the functions are described.
const manifest = JSON.parse(readFileSync(new URL('./plugboard.json', import.meta.url), 'utf8'));
const describe = (name) => ({ description: manifest.functions.find((f) => f.name === name)?.description ?? '' });

const plugin = createPlugin({ name: manifest.id, version: manifest.version, description: manifest.description });

// Resolves after `ms`, or at once when the call is stopped. The abort listener goes when the
// timer fires: one left behind per number made Node warn (MaxListenersExceededWarning) on stderr.
const sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => (clearTimeout(timer), resolve());
    const timer = setTimeout(() => (signal.removeEventListener('abort', onAbort), resolve()), ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

plugin.command(
  'say_hello',
  ({ name }) => {
    const who = typeof name === 'string' && name.trim() ? name.trim() : 'World';
    return `Hello, **${who}**! 👋\n\nI’m the Hello plugin. Ask me to *count to 5*, or to *start a conversation*.`;
  },
  describe('say_hello'),
);

plugin.command(
  'count',
  async ({ to, delay_ms }, ctx) => {
    if (!Number.isInteger(to) || to < 1 || to > 100) {
      throw new PluginError(
        `"to" must be a whole number from 1 to 100 (got ${JSON.stringify(to)})`,
        ErrorCode.InvalidParams,
      );
    }
    const delay = Number.isInteger(delay_ms) ? Math.min(Math.max(delay_ms, 0), 2000) : 100;
    for (let i = 1; i <= to; i++) {
      if (ctx.signal.aborted) return `Stopped at ${i - 1}.`;
      ctx.stream(`${i}\n`);
      if (i < to && delay > 0) await sleep(delay, ctx.signal);
    }
    return `Counted to ${to}. 🎉`;
  },
  describe('count'),
);

// One conversation at a time: Plugboard holds one passthrough session per plugin.
let conversation = null;

plugin.command(
  'start_conversation',
  ({ topic }, ctx) => {
    conversation = new Conversation(topic);
    ctx.keepSession(true);
    return conversation.welcome();
  },
  describe('start_conversation'),
);

plugin.onInput((text, ctx) => {
  conversation ??= new Conversation();
  const { text: reply, done } = conversation.reply(text);
  if (done) conversation = null;
  ctx.keepSession(!done);
  return reply;
});

await plugin.run();
