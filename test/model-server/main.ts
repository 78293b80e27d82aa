/**
 * The scripted model server as a process of its own, for tests that drive Plugboard from outside
 * (Playwright, `plugboard chat`). See index.ts for why it exists.
 *
 *   node --import tsx test/model-server/main.ts [--script FILE] [--port N] [--api-key KEY]
 *        [--models a,b] [--exit-with-stdin]
 *
 * FILE is JSON: {steps: [...], fallback?: step} (steps.ts). Prints one line on stdout, the server's
 * URL (`http://127.0.0.1:PORT`; providers take `<URL>/v1`), then serves until SIGTERM or SIGINT,
 * or until stdin ends with --exit-with-stdin (so it dies with a parent that forgets it). More
 * steps can be queued, and the record read, over the control endpoint (control.ts).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ModelServer } from './server';
import { scriptSchema } from './steps';

function fatal(message: string): never {
  process.stderr.write(`model-server: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    script: { type: 'string' },
    port: { type: 'string' },
    'api-key': { type: 'string' },
    models: { type: 'string' },
    'exit-with-stdin': { type: 'boolean' },
  },
});

let script = scriptSchema.parse({});
if (values.script !== undefined) {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(values.script, 'utf8'));
  } catch (e) {
    fatal(`cannot read the script ${values.script}: ${(e as Error).message}`);
  }
  const parsed = scriptSchema.safeParse(json);
  if (!parsed.success) fatal(`the script ${values.script} is invalid: ${parsed.error.message}`);
  script = parsed.data;
}
const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fatal(`--port must be a port number, not ${values.port}`);

const server = await ModelServer.start({
  port,
  apiKey: values['api-key'],
  models: values.models?.split(',').filter(Boolean),
  fallback: script.fallback,
});
server.script(...script.steps);
process.stdout.write(`${server.url}\n`);

const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
if (values['exit-with-stdin'] === true) {
  process.stdin.on('end', stop);
  process.stdin.resume();
}
