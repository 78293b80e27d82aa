/**
 * `plugboard chat [MESSAGE]`: the app's assistant in a terminal or a script. It opens the same
 * back end as the app on the data directory (registry, conversation store, models), talks in a
 * new or a continued conversation, and stops every plugin it started before it exits, Ctrl-C
 * included. The AI SDK comes in with the back end, loaded after the arguments are checked.
 */
import { FailureError } from '../../../shared/failures';
import { EXIT_FAILED, parse, UsageError } from '../io';
import { JsonPrinter, TextPrinter } from '../chat/printers';
import type { ApproveMode } from '../chat/session';
import { Terminal } from '../chat/terminal';
import type { CliEnv } from '../session';

export async function chatCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      model: { type: 'string' },
      conversation: { type: 'string' },
      approve: { type: 'string' },
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
    },
    { min: 0, max: 1, names: 'MESSAGE' },
  );
  const message = positionals[0];
  const terminal = Terminal.available() ? new Terminal() : null;
  const approve = approveMode(values.approve, terminal !== null);
  if (message === undefined && !terminal)
    throw new UsageError(
      'missing MESSAGE: without one, plugboard chat holds a session, which needs a terminal (stdin is not one)',
    );
  if (message !== undefined && !message.trim()) throw new UsageError('MESSAGE is empty');
  for (const flag of ['model', 'conversation'] as const)
    if (values[flag] !== undefined && !values[flag].trim()) throw new UsageError(`--${flag} is empty`);
  const json = values.json === true;
  const printer = json
    ? new JsonPrinter(env.out)
    : new TextPrinter(env.out, process.stdout.isTTY === true && process.stderr.isTTY === true, terminal !== null);

  // The back end (the registry, the store, the AI SDK) loads once the arguments are known good.
  const [{ openBackend }, { ChatSession }] = await Promise.all([import('../backend'), import('../chat/session')]);
  // 'ipc': the CLI calls the back end in its own process, as the app's IPC binding does.
  let app;
  try {
    app = await openBackend({ dataDir: values['data-dir'], autostart: false, transport: 'ipc' });
  } catch (e) {
    // Another Plugboard holds the conversations, say: the same last line as any other error.
    if (!(e instanceof FailureError)) throw e;
    printer.line({ type: 'error', code: e.failure.code, message: e.failure.message });
    return EXIT_FAILED;
  }
  const chat = new ChatSession({ backend: app.backend, printer, terminal, approve, json, env });
  try {
    const refused = await chat.open(values.conversation, values.model);
    if (refused) {
      printer.line({ type: 'error', code: refused.code, message: refused.message });
      return EXIT_FAILED;
    }
    await chat.startToolServers();
    if (chat.quitting) return EXIT_FAILED;
    if (message !== undefined) return await chat.once(message);
    return await chat.session(terminal as Terminal);
  } finally {
    chat.dispose();
    await app.close();
  }
}

/** --approve, or its default: ask where a person can answer, none where nobody can. */
function approveMode(flag: string | undefined, hasTerminal: boolean): ApproveMode {
  if (flag === undefined) return hasTerminal ? 'ask' : 'none';
  if (flag !== 'ask' && flag !== 'all' && flag !== 'none')
    throw new UsageError(`--approve must be ask, all or none, got "${flag}"`);
  if (flag === 'ask' && !hasTerminal)
    throw new UsageError(
      '--approve ask needs a terminal to answer on, and stdin is not one: use --approve all or --approve none',
    );
  return flag;
}
