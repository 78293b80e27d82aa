/**
 * The approval channel between Plugboard processes on one data folder: a local socket (a Unix
 * domain socket, a named pipe on Windows) that the app listens on while it is open (inbox.ts),
 * and that an MCP server connects to when a call needs the person's approval (ask.ts). One JSON
 * object per line each way:
 *
 *   asker → app   {"type":"ask","request":{id, plugin, tool, args, client, at}}
 *   asker → app   {"type":"withdraw","id","reason"}     the asking app answered first, or gave up
 *   app → asker   {"type":"answer","id","decision":"once"|"deny"}
 *
 * Why a socket rather than files the app watches: the asker is the one arbiter of its call (the
 * first answer it gets, from its own client's form or from the app, decides, and it tells the
 * other side to drop its card), a socket that nobody listens on says at once that no app is open
 * (a file would need a liveness check), and nothing is left on disk after a crash. Only the
 * folder's owner can connect: the socket lives in the data folder (mode 0700), or, when that path
 * is too long for a socket, in a folder of the temp folder that only the owner can enter.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ExternalApprovalView, ExternalDecision } from '../../../shared/external-approvals';

/** A line longer than this (a call's arguments, mostly) ends the connection. */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

/** The longest socket path every platform takes (Linux allows 107 bytes, macOS 103). */
const MAX_SOCKET_PATH = 100;

/** Where the app of `dataDir` listens; the same for every process that names that folder. */
export function channelPath(dataDir: string, platform: NodeJS.Platform = process.platform): string {
  const root = path.resolve(dataDir);
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 16);
  if (platform === 'win32') return `\\\\.\\pipe\\plugboard-approvals-${hash}`;
  const inside = path.join(root, 'approvals.sock');
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH) return inside;
  const dir = path.join(os.tmpdir(), `plugboard-${process.getuid?.() ?? 'user'}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return path.join(dir, `approvals-${hash}.sock`);
}

const Request = z.object({
  id: z.string().min(1).max(200),
  plugin: z.string().min(1).max(200),
  tool: z.string().min(1).max(200),
  args: z.record(z.string(), z.unknown()),
  client: z.string().max(500),
  at: z.number(),
});

const ToApp = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ask'), request: Request }),
  z.object({ type: z.literal('withdraw'), id: z.string(), reason: z.string().max(2000) }),
]);
export type ToApp = { type: 'ask'; request: ExternalApprovalView } | { type: 'withdraw'; id: string; reason: string };

const FromApp = z.object({ type: z.literal('answer'), id: z.string(), decision: z.enum(['once', 'deny']) });
export type FromApp = { type: 'answer'; id: string; decision: ExternalDecision };

export const parseToApp = (line: string): ToApp | undefined => parse(ToApp, line) as ToApp | undefined;
export const parseFromApp = (line: string): FromApp | undefined => parse(FromApp, line);

function parse<T>(schema: z.ZodType<T>, line: string): T | undefined {
  try {
    const r = schema.safeParse(JSON.parse(line));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

export const line = (message: ToApp | FromApp): string => `${JSON.stringify(message)}\n`;

/** Cuts a stream into lines; a line past the cap is an error (the connection is dropped). */
export class Lines {
  private rest = '';

  push(chunk: string): string[] {
    const parts = (this.rest + chunk).split('\n');
    this.rest = parts.pop() ?? '';
    if (this.rest.length > MAX_LINE_CHARS) throw new Error(`a message over ${MAX_LINE_CHARS} characters`);
    return parts.filter((l) => l.trim() !== '');
  }
}
