/**
 * `plugboard plugins limits <id> [KEY=VALUE...] [--default]`: what a plugin may consume (its
 * processes, memory, CPU share, /tmp and data folder), where each value comes from (the default,
 * its manifest, or you); `KEY=VALUE` sets yours over the others (`memory=2G processes=256`),
 * `--default` drops yours. The panel's Permissions tab does the same through the same commands
 * (`plugins.detail`, `plugins.setLimits`), and shows what a running plugin uses of each (this
 * command starts no plugin); a running plugin restarts with new limits.
 */
import { isFailure } from '../../../shared/failures';
import type { LimitsView } from '../../../shared/views';
import type { Backend } from '../../service';
import { EXIT_OK, jsonLine, UsageError, type Out } from '../io';
import { refusal } from './plugins-install';

export async function limitsCommand(
  backend: Backend,
  id: string,
  pairs: string[],
  reset: boolean,
  json: boolean,
  out: Out,
): Promise<number> {
  if (reset && pairs.length > 0) throw new UsageError('--default drops your limits: give it no KEY=VALUE');
  if (reset || pairs.length > 0) {
    const r = await backend.request('plugins.setLimits', { id, limits: reset ? null : parseLimitPairs(pairs) });
    if (!r.ok) return refusal(out, json, r);
    if (!json) out.stdout(`${id}: ${r.detail}\n`);
  }
  const detail = await backend.request('plugins.detail', { id });
  if (isFailure(detail)) return refusal(out, json, detail);
  if (!detail) return refusal(out, json, { ok: false, code: 'not_found', message: `no plugin "${id}"` });
  if (json) {
    jsonLine(out, { id, ...detail.limits });
    return EXIT_OK;
  }
  printLimits(detail.limits, out);
  return EXIT_OK;
}

/** `memory=2G processes=256`: the typed names and values, checked by the back end. */
function parseLimitPairs(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const eq = p.indexOf('=');
    if (eq <= 0 || eq === p.length - 1) throw new UsageError(`"${p}" is not KEY=VALUE (memory=2G, processes=256…)`);
    out[p.slice(0, eq)] = p.slice(eq + 1);
  }
  return out;
}

function printLimits(view: LimitsView, out: Out): void {
  const width = Math.max(...view.items.map((i) => i.key.length));
  const from = { default: 'the default', manifest: 'its manifest', yours: 'yours' } as const;
  for (const item of view.items) {
    out.stdout(`${item.key.padEnd(width)}  ${item.shown}  (${from[item.source]})\n`);
  }
  out.stdout(
    view.enforcement === null
      ? 'not held: plugins run unsandboxed here, so no limit applies\n'
      : `how they are held: ${view.enforcement}\n`,
  );
}
