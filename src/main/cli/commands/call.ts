/**
 * `plugboard call <plugin> <function>`: one call, streamed as it arrives, then the result. Each
 * `--input` is one passthrough turn, sent while the previous turn kept the session.
 */
import { chunkText, resultText } from '../../../shared/chunks';
import { describeFailure, failure, type Failure } from '../../../shared/failures';
import type { CallEvent } from '../../../shared/plugin';
import { EXIT_FAILED, EXIT_OK, jsonLine, parse, parseJsonObject, parsePositiveInt, type Out } from '../io';
import type { CallOutcome, SettingValue } from '../../plugins';
import { openTarget, type CliEnv } from '../session';
import { parsePairs } from './plugins';

export async function callCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      args: { type: 'string' },
      input: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      'timeout-ms': { type: 'string' },
      'data-dir': { type: 'string' },
      set: { type: 'string', multiple: true },
      'no-sandbox': { type: 'boolean' },
    },
    { min: 2, max: 2, names: '<plugin> and <function>' },
  );
  const [pluginArg, fn] = positionals as [string, string];
  const args = parseJsonObject(values.args, '--args');
  const inactivityMs = parsePositiveInt(values['timeout-ms'], '--timeout-ms');
  const inputs = values.input ?? [];
  const json = values.json === true;
  const out = env.out;

  const settings = parsePairs(values.set ?? []) as Record<string, SettingValue>;
  const opened = await openTarget(pluginArg, {
    dataDir: values['data-dir'],
    out,
    json,
    settings,
    ...(values['no-sandbox'] ? { sandbox: false } : {}),
  });
  if (!opened.ok) return reportFailure(out, json, opened);
  const { quiet } = opened;
  let sent = 0;
  // The hint to send the next turn is for the last turn only: the ones before have theirs queued.
  const printer = new Printer(out, json, () => sent === inputs.length);
  const stopSignals = env.onInterrupt(() => current?.cancel('interrupted (Ctrl-C)'));
  let current: { cancel(reason?: string): void } | null = null;
  try {
    const callOpts = {
      ...(inactivityMs ? { inactivityMs } : {}),
      onEvent: (e: CallEvent) => printer.event(e),
    };
    const first = opened.call(fn, args, callOpts);
    current = first;
    let outcome: CallOutcome = await first.done;
    for (let i = 0; i < inputs.length; i++) {
      if (!outcome.ok || !outcome.value.success) break;
      if (!outcome.value.keepSession) {
        outcome = failure(
          'cancelled',
          `the plugin ended the passthrough session before --input ${i + 1} of ${inputs.length} could be sent`,
        );
        printer.event({ type: 'error', callId: '', failure: outcome });
        break;
      }
      sent = i + 1;
      const turn = opened.input(inputs[i] as string, callOpts);
      current = turn;
      outcome = await turn.done;
    }
    quiet.dispose();
    opened.endPassthrough('the command finished');
    return outcome.ok && outcome.value.success ? EXIT_OK : EXIT_FAILED;
  } finally {
    quiet.dispose();
    stopSignals.dispose();
    await opened.shutdown();
  }
}

function reportFailure(out: Out, json: boolean, f: Failure): number {
  if (json)
    jsonLine(out, { type: 'error', code: f.code, message: f.message, ...(f.details ? { details: f.details } : {}) });
  else out.stderr(`${describeFailure(f)}\n`);
  return EXIT_FAILED;
}

/** Writes call events as they come: raw text for people, one object per line with --json. */
class Printer {
  private endsWithNewline = true;

  constructor(
    private readonly out: Out,
    private readonly json: boolean,
    /** Whether no --input turn is left to send (the session is then the person's to continue). */
    private readonly lastTurn: () => boolean,
  ) {}

  event(e: CallEvent): void {
    if (this.json) {
      if (e.type === 'stream') jsonLine(this.out, { type: 'stream', data: e.data });
      else if (e.type === 'complete')
        jsonLine(this.out, { type: 'complete', success: e.success, data: e.data, keep_session: e.keepSession });
      else
        jsonLine(this.out, {
          type: 'error',
          code: e.failure.code,
          message: e.failure.message,
          ...(e.failure.details ? { details: e.failure.details } : {}),
        });
      return;
    }
    if (e.type === 'stream') return this.text(chunkText(e.data));
    if (!this.endsWithNewline) this.text('\n');
    if (e.type === 'complete') {
      const body = resultText(e.data);
      if (body) this.text(body.endsWith('\n') ? body : `${body}\n`);
      if (!e.success) this.out.stderr('(the plugin reported success: false)\n');
      if (e.keepSession && this.lastTurn())
        this.out.stderr('(the plugin keeps the session: send the next turn with --input)\n');
      return;
    }
    this.out.stderr(`${describeFailure(e.failure)}\n`);
  }

  private text(t: string): void {
    if (!t) return;
    this.out.stdout(t);
    this.endsWithNewline = t.endsWith('\n');
  }
}
