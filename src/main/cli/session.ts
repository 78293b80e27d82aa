/**
 * Opens the plugin a command names, and wires the host's health and log events to the output
 * (JSON lines with --json; warnings on stderr otherwise).
 */
import type { Failure } from '../../shared/failures';
import { DisposableStore, type IDisposable } from '../../shared/lifecycle';
import type { SettingValue } from '../plugins';
import { jsonLine, type Out } from './io';
import { dataDirOf, openCallTarget, type CallTarget } from './target';

export interface CliEnv {
  out: Out;
  /** Runs `fn` on Ctrl-C (SIGINT) / SIGTERM while the returned disposable lives. */
  onInterrupt(fn: (signal: 'SIGINT' | 'SIGTERM') => void): IDisposable;
}

export interface OpenOptions {
  dataDir: string | undefined;
  out: Out;
  json: boolean;
  settings?: Record<string, SettingValue>;
  /** false: a plugin named by its path runs outside the sandbox (`--no-sandbox`). */
  sandbox?: boolean;
}

export type Opened =
  | (CallTarget & {
      ok: true;
      /** Stops printing health and log events (before the final shutdown, so the result is the last line). */
      quiet: IDisposable;
    })
  | Failure;

export async function openTarget(arg: string, opts: OpenOptions): Promise<Opened> {
  const target = await openCallTarget(arg, dataDirOf(opts.dataDir), {
    ...(opts.settings ? { settings: opts.settings } : {}),
    ...(opts.sandbox === false ? { sandbox: false } : {}),
  });
  if ('code' in target) return target;
  const subs = new DisposableStore();
  for (const w of target.warnings) {
    if (opts.json)
      jsonLine(opts.out, {
        type: 'log',
        pluginId: target.id,
        source: 'host',
        level: 'warn',
        message: `manifest: ${w}`,
      });
    else opts.out.stderr(`warning: ${w}\n`);
  }
  if (opts.json) {
    subs.add(
      target.onDidChangeHealth((h) =>
        jsonLine(opts.out, {
          type: 'health',
          pluginId: h.pluginId,
          state: h.state,
          reason: h.reason,
          pingRttMs: h.pingRttMs,
          restarts: h.restarts,
          pid: h.pid,
        }),
      ),
    );
    subs.add(
      target.onDidLog((l) =>
        jsonLine(opts.out, { type: 'log', pluginId: l.pluginId, source: l.source, level: l.level, message: l.message }),
      ),
    );
  } else {
    subs.add(
      target.onDidLog((l) => {
        if (l.source === 'host' && (l.level === 'warn' || l.level === 'error'))
          opts.out.stderr(`[${l.pluginId}] ${l.message}\n`);
      }),
    );
  }
  return { ...target, ok: true, quiet: subs };
}
