/**
 * The `plugboard` command: call, check and bench plugins with the same host and supervisor as
 * the app, and chat with the same assistant. Exit status: 0 done, 1 failed, 2 usage error.
 *
 * A command's module (and with it the plugin host, the registry, the server) is imported only
 * when that command runs: help, usage errors and small commands start without loading the rest.
 * The built CLI keeps each command in its own chunk for the same reason (scripts/build-cli.mjs).
 */
import { FailureError } from '../../shared/failures';
import { toDisposable } from '../../shared/lifecycle';
import { benchHelp, callHelp, chatHelp, checkHelp, mcpHelp, modelsHelp, pluginsHelp, serveHelp } from './help';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError, escapedOut, processOut, type Out } from './io';
import type { CliEnv } from './session';

type Run = (argv: string[], env: CliEnv) => Promise<number>;

interface Command {
  summary: string;
  help: string;
  load(): Promise<Run>;
}

const COMMANDS: Record<string, Command> = {
  call: {
    summary: 'call one function of a plugin and stream its output',
    help: callHelp,
    load: async () => (await import('./commands/call')).callCommand,
  },
  check: {
    summary: 'check a plugin before publishing it',
    help: checkHelp,
    load: async () => (await import('./commands/check')).checkCommand,
  },
  bench: {
    summary: 'measure call latency through one running plugin',
    help: benchHelp,
    load: async () => (await import('./commands/bench')).benchCommand,
  },
  plugins: {
    summary: 'list, install, expose, grant and configure plugins',
    help: pluginsHelp,
    load: async () => (await import('./commands/plugins')).pluginsCommand,
  },
  serve: {
    summary: 'serve the UI and its API to a browser',
    help: serveHelp,
    load: async () => (await import('./commands/serve')).serveCommand,
  },
  mcp: {
    summary: 'serve the plugins to other apps (Claude Desktop, Cursor, VS Code) over MCP',
    help: mcpHelp,
    load: async () => (await import('./commands/mcp')).mcpCommand,
  },
  chat: {
    summary: 'talk to the assistant: a model that calls plugin tools',
    help: chatHelp,
    load: async () => (await import('./commands/chat')).chatCommand,
  },
  models: {
    summary: 'add, list, test and remove the models the assistant uses',
    help: modelsHelp,
    load: async () => (await import('./commands/models')).modelsCommand,
  },
};

export function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `Usage: plugboard <command> [options]

Runs, checks and measures plugins of every protocol Plugboard speaks: G-Assist V2, JSON-RPC
(Mehrhof, planner/executor), rterm.plugin.v1 and MCP, and talks to the assistant that calls them.

Commands:
${lines.join('\n')}

Every command writes control, bidi and invisible characters escaped (\\e, \\r, \\x9b, \\u{202e}…),
so what a plugin or a model wrote cannot act on the terminal; --raw writes them as they are.

Run "plugboard <command> --help" for a command's options.`;
}

export async function main(argv: string[], given: Out = processOut): Promise<number> {
  // What plugins and models write reaches the terminal escaped, unless --raw (any command) asks
  // for it as it is (io.ts escapedOut).
  const raw = argv.includes('--raw');
  const out = raw ? given : escapedOut(given);
  const [name, ...rest] = raw ? argv.filter((a) => a !== '--raw') : argv;
  if (!name || name === '-h' || name === '--help' || name === 'help') {
    out.stdout(`${mainHelp()}\n`);
    return name ? EXIT_OK : EXIT_USAGE;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    out.stderr(`plugboard: unknown command "${name}"\n\n${mainHelp()}\n`);
    return EXIT_USAGE;
  }
  if (rest.includes('-h') || rest.includes('--help')) {
    out.stdout(`${cmd.help}\n`);
    return EXIT_OK;
  }
  const env: CliEnv = {
    out,
    onInterrupt(fn) {
      const onInt = (): void => fn('SIGINT');
      const onTerm = (): void => fn('SIGTERM');
      process.on('SIGINT', onInt);
      process.on('SIGTERM', onTerm);
      return toDisposable(() => {
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
      });
    },
  };
  const run = await cmd.load();
  try {
    return await run(rest, env);
  } catch (e) {
    if (e instanceof UsageError) {
      out.stderr(`plugboard ${name}: ${e.message}\n\n${cmd.help}\n`);
      return EXIT_USAGE;
    }
    // An expected failure at start-up (another Plugboard holds the data directory, a damaged
    // state file): one line that says what to do, no stack.
    if (e instanceof FailureError) {
      out.stderr(`plugboard ${name}: ${e.message}\n`);
      return EXIT_FAILED;
    }
    throw e;
  }
}
