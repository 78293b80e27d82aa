/** `plugboard bench <plugin> <function>`: N sequential calls through one running plugin. */
import { describeFailure } from '../../../shared/failures';
import { percentile } from '../../../shared/stats';
import { EXIT_FAILED, EXIT_OK, jsonLine, parse, parseJsonObject, parsePositiveInt } from '../io';
import { openTarget, type CliEnv } from '../session';

export async function benchCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      args: { type: 'string' },
      n: { type: 'string', short: 'n' },
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
      'no-sandbox': { type: 'boolean' },
    },
    { min: 2, max: 2, names: '<plugin> and <function>' },
  );
  const [pluginArg, fn] = positionals as [string, string];
  const args = parseJsonObject(values.args, '--args');
  const n = parsePositiveInt(values.n, '-n') ?? 1000;
  const opened = await openTarget(pluginArg, {
    dataDir: values['data-dir'],
    out: env.out,
    json: false,
    ...(values['no-sandbox'] ? { sandbox: false } : {}),
  });
  if (!opened.ok) {
    env.out.stderr(`${describeFailure(opened)}\n`);
    return EXIT_FAILED;
  }
  const { quiet } = opened;
  try {
    const warmup = Math.min(50, Math.max(5, Math.floor(n / 10)));
    const samples: number[] = [];
    for (let i = 0; i < warmup + n; i++) {
      const t0 = process.hrtime.bigint();
      const outcome = await opened.call(fn, args, {}).done;
      const us = Number(process.hrtime.bigint() - t0) / 1000;
      if (!outcome.ok) {
        env.out.stderr(`call ${i + 1} failed: ${describeFailure(outcome)}\n`);
        return EXIT_FAILED;
      }
      if (i >= warmup) samples.push(us);
    }
    const total = samples.reduce((a, b) => a + b, 0);
    const result = {
      n,
      p50_us: Math.round(percentile(samples, 50)),
      p95_us: Math.round(percentile(samples, 95)),
      p99_us: Math.round(percentile(samples, 99)),
      calls_per_s: Math.round((n / total) * 1e6 * 10) / 10,
    };
    if (values.json) jsonLine(env.out, result);
    else {
      env.out.stdout(
        `${opened.id} ${fn}: ${n} calls\n  p50 ${fmt(result.p50_us)}  p95 ${fmt(result.p95_us)}  p99 ${fmt(result.p99_us)}\n  ${result.calls_per_s} calls/s\n`,
      );
    }
    return EXIT_OK;
  } finally {
    quiet.dispose();
    await opened.shutdown();
  }
}

function fmt(us: number): string {
  return us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us} µs`;
}
