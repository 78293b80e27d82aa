/**
 * `plugboard mcp`: one app's MCP server on this process's stdin and stdout. Stdout carries the
 * protocol and nothing else: from `guardStdout` on, whatever else in the process writes to
 * stdout (a console.log, a note of a library) goes to stderr instead, and only the transport
 * holds the real stdout. The session ends when the app closes stdin (it quit, or disconnected)
 * or the process is asked to stop; the caller then stops every plugin it started.
 */
import type { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { IDisposable } from '../../shared/lifecycle';
import type { McpHub } from './hub';

export interface GuardedStdout {
  /** The real stdout, for the protocol alone. */
  protocol: Writable;
  /** Gives stdout back. */
  restore(): void;
}

/** Turns every other write to stdout into a write to stderr, and hands back the real stdout. */
export function guardStdout(): GuardedStdout {
  const stdout = process.stdout;
  const realWrite = stdout.write;
  const protocol = {
    write: (chunk: string | Uint8Array): boolean => realWrite.call(stdout, chunk),
    once: (event: string, fn: () => void) => stdout.once(event, fn),
    on: (event: string, fn: () => void) => stdout.on(event, fn),
  } as unknown as Writable;
  stdout.write = ((...args: Parameters<typeof stdout.write>) => process.stderr.write(...args)) as typeof stdout.write;
  return { protocol, restore: () => void (stdout.write = realWrite) };
}

/**
 * Serves one app on stdio until it goes away or `onStop` fires; resolves then, with the server
 * closed (calls still running are cancelled with it).
 */
export async function serveStdio(
  hub: McpHub,
  protocol: Writable,
  onStop: (fn: () => void) => IDisposable,
): Promise<void> {
  const server = hub.createServer('stdio');
  const transport = new StdioServerTransport(process.stdin, protocol);
  let stop: () => void = () => {};
  const ended = new Promise<void>((resolve) => (stop = resolve));
  const sub = onStop(stop);
  // The SDK's transport does not notice the end of stdin: the app closing it is how it leaves.
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  const closed = server.onclose;
  server.onclose = () => {
    closed?.();
    stop();
  };
  await server.connect(transport);
  await ended;
  sub.dispose();
  process.stdin.off('end', stop);
  process.stdin.off('close', stop);
  await server.close();
  process.stdin.pause();
}
