/**
 * CLI plumbing shared by the commands: argument parsing with usage errors (exit 2), JSON-lines
 * output, and the exit codes every command uses.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { escapeJsonText, escapeTerminal } from '../../shared/terminal-text';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export class UsageError extends Error {}

export interface Out {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processOut: Out = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

/**
 * Everything written escaped for a terminal (shared/terminal-text.ts): what a plugin or a model
 * wrote, and every preview of what will run, shows its control, bidi and invisible characters as
 * escapes instead of acting on the terminal. `--raw` (main.ts) writes it as it is.
 */
export function escapedOut(out: Out): Out {
  return { stdout: (t) => out.stdout(escapeTerminal(t)), stderr: (t) => out.stderr(escapeTerminal(t)) };
}

/**
 * One JSON object per line. JSON.stringify escapes C0 controls but leaves C1, bidi and invisible
 * characters raw: they are written as \u escapes too, the same JSON value, safe on a screen.
 */
export function jsonLine(out: Out, value: unknown): void {
  out.stdout(`${escapeJsonText(JSON.stringify(value))}\n`);
}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parse<O extends Options>(
  argv: string[],
  options: O,
  positionals: { min: number; max: number; names: string },
) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const n = parsed.positionals.length;
  if (n < positionals.min) throw new UsageError(`missing ${positionals.names}`);
  if (n > positionals.max) throw new UsageError(`unexpected argument "${parsed.positionals[positionals.max]}"`);
  return parsed;
}

export function parseJsonObject(text: string | undefined, flag: string): Record<string, unknown> {
  if (text === undefined) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${flag} is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new UsageError(`${flag} must be a JSON object, like '{"name": "Ada"}'`);
  return v as Record<string, unknown>;
}

export function parsePositiveInt(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive integer, got "${text}"`);
  return n;
}
