/** Small readers for `unknown` values that came off the wire. */
import type { LogLevel } from '../../../shared/plugin';

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A short description of a value for an error message. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 120 ? `"${value.slice(0, 120)}…"` : `"${value}"`;
  if (typeof value === 'object') {
    const s = JSON.stringify(value);
    return s.length > 160 ? `${s.slice(0, 160)}…` : s;
  }
  return String(value);
}

const LOG_LEVELS: Record<string, LogLevel> = {
  debug: 'debug',
  trace: 'debug',
  info: 'info',
  notice: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
  fatal: 'error',
};

/**
 * A log level as a plugin names it (G-Assist `warning`, MCP's syslog levels `notice`…`emergency`,
 * Mehrhof's `warn`), as one of ours; anything unknown is `info`.
 */
export function logLevelOf(name: unknown): LogLevel {
  return LOG_LEVELS[String(name ?? 'info').toLowerCase()] ?? 'info';
}
