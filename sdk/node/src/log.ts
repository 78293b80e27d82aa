/**
 * Logging goes to stderr, always: stdout carries protocol frames and nothing else.
 */

export type LogLevel = 'debug' | 'info' | 'warning' | 'warn' | 'error';

export function writeLog(source: string, message: string, level: LogLevel = 'info'): void {
  const tag = level === 'warn' ? 'WARNING' : level.toUpperCase();
  try {
    process.stderr.write(`[${source}] ${tag}: ${message}\n`);
  } catch {
    // stderr closed: nowhere left to say it.
  }
}
