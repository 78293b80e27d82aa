/**
 * Starts main.ts as a child process and drives it over its control endpoint: for tests whose
 * model client lives in another process than the test (Playwright's `plugboard serve`, CLI runs).
 * Every wait has a deadline; stop() escalates from SIGTERM to SIGKILL.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { RecordedRequest } from './requests';
import type { ScriptInput } from './steps';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const MAIN = path.join(HERE, 'main.ts');

export interface SpawnOptions {
  /** A JSON script file: {steps, fallback?}. */
  scriptFile?: string;
  apiKey?: string;
  models?: string[];
  /** The port to listen on (127.0.0.1); default a free one. */
  port?: number;
  /** How long the process may take to print its URL. Default 20 s (tsx compiles on start). */
  startTimeoutMs?: number;
}

const recordSchema = z.looseObject({
  seq: z.number(),
  method: z.string(),
  path: z.string(),
  query: z.record(z.string(), z.string()),
  headers: z.record(z.string(), z.string()),
  // Absent for a request without a JSON body (a GET): JSON leaves undefined out.
  body: z.unknown().optional(),
  rawBody: z.string(),
  api: z.enum(['openai', 'anthropic', 'ollama', 'unknown']),
  isModelCall: z.boolean(),
  outcome: z.enum(['pending', 'answered', 'client-closed', 'cut']),
  receivedAt: z.number(),
  answeredAt: z.number().optional(),
  chunksSentAt: z.array(z.number()),
});

/** Talks to a running server's control endpoint, wherever it runs. */
export class ModelServerClient {
  constructor(readonly url: string) {}

  get baseURL(): string {
    return `${this.url}/v1`;
  }

  private async call(method: 'GET' | 'POST', route: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.url}${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const json: unknown = await res.json();
    if (!res.ok) throw new Error(`model server ${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  /** Queues steps (and a fallback); returns how many steps are queued now. */
  async script(input: ScriptInput): Promise<number> {
    return z.object({ queued: z.number() }).parse(await this.call('POST', '/__script', input)).queued;
  }

  async requests(): Promise<RecordedRequest[]> {
    const { requests } = z.object({ requests: z.array(recordSchema) }).parse(await this.call('GET', '/__requests'));
    return requests.map((r) => ({ ...r, body: r.body }));
  }

  async modelCalls(): Promise<RecordedRequest[]> {
    return (await this.requests()).filter((r) => r.isModelCall);
  }

  async reset(): Promise<void> {
    await this.call('POST', '/__reset');
  }
}

export interface ModelServerProcess extends ModelServerClient {
  readonly pid: number;
  /** SIGTERM, then SIGKILL after 3 s; resolves when the process is gone. */
  stop(): Promise<void>;
}

function firstLine(child: ChildProcessByStdio<Writable, Readable, Readable>, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => finish(new Error(`model server printed no URL within ${timeoutMs} ms; stderr: ${err}`)),
      timeoutMs,
    );
    const onOut = (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) finish(undefined, out.slice(0, nl).trim());
    };
    const onErr = (d: Buffer) => (err += d.toString());
    const onExit = (code: number | null) =>
      finish(new Error(`model server exited (${code}) before printing its URL; stderr: ${err}`));
    function finish(e: Error | undefined, line?: string) {
      clearTimeout(timer);
      child.stdout.off('data', onOut);
      child.off('exit', onExit);
      if (e) reject(e);
      else resolve(line!);
    }
    child.stdout.on('data', onOut);
    child.stderr.on('data', onErr);
    child.on('exit', onExit);
  });
}

export async function spawnModelServer(options: SpawnOptions = {}): Promise<ModelServerProcess> {
  const args = ['--import', 'tsx', MAIN, '--exit-with-stdin'];
  if (options.scriptFile !== undefined) args.push('--script', options.scriptFile);
  if (options.apiKey !== undefined) args.push('--api-key', options.apiKey);
  if (options.models !== undefined) args.push('--models', options.models.join(','));
  if (options.port !== undefined) args.push('--port', String(options.port));
  const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
  let url: string;
  try {
    url = await firstLine(child, options.startTimeoutMs ?? 20_000);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  const exited = new Promise<void>((resolve) =>
    child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
  );
  const client = new ModelServerClient(url);
  return Object.assign(client, {
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  });
}
