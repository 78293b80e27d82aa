/**
 * How long a G-Assist plugin may take to answer `initialize`. The protocol sets no deadline for
 * it, and NVIDIA's own mcp-stdio-example answers only once it has started `npx -y` of the server
 * it bridges to, a download on its first run (14 s here): at Plugboard's 5 s it could never start,
 * each try killing the download it had begun (the study of issue 17). So past the usual deadline
 * the plugin keeps waiting while it runs processes of its own (it is doing something: a download,
 * a server starting), up to a first run's allowance; a plugin that runs nothing but itself and
 * has not answered fails at the usual deadline, as before.
 */
import { failure, type Failure, type Result } from '../../../shared/failures';
import type { HandshakeInfo } from '../dialects/types';
import { PACKAGE_FIRST_RUN_MS } from '../process/launchers';
import { treeStats } from '../process/tree-stats';

/** How often a plugin still starting is looked at again. */
const LOOK_MS = 1000;

export interface Starting {
  /** Resolves with the failure once the plugin idles past `deadlineMs` without an answer. */
  idle: Promise<Failure>;
  /** The handshake ended (answered, failed or the plugin died): stop looking. */
  done(): void;
}

/** The deadline to give the handshake itself: a first run's allowance, for the dialects this applies to. */
export function patientDeadline(dialect: string, deadlineMs: number): number {
  return dialect === 'gassist-v2' ? Math.max(deadlineMs, PACKAGE_FIRST_RUN_MS) : deadlineMs;
}

export function watchStarting(pid: () => number | null, deadlineMs: number, onBusy: (n: number) => void): Starting {
  let over = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<Failure>((resolve) => {
    const look = async (): Promise<void> => {
      if (over) return;
      const p = pid();
      const processes = p === null ? 0 : ((await treeStats([p])).get(p)?.processes ?? 0);
      if (over) return;
      if (processes <= 1) {
        resolve(failure('handshake_failed', `no answer to initialize within ${deadlineMs} ms`));
        return;
      }
      onBusy(processes);
      timer = setTimeout(() => void look(), LOOK_MS);
    };
    timer = setTimeout(() => void look(), deadlineMs);
  });
  return {
    idle,
    done: () => {
      over = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** The handshake under its deadline, or, for a plugin still starting, under a first run's. */
export async function handshakeWhileStarting(
  session: { handshake(timeoutMs: number): Promise<Result<HandshakeInfo>> },
  spec: { dialect: string; remote?: unknown },
  deadlineMs: number,
  ctx: { pid(): number | null; died: Promise<Failure>; hooks: { diagnostic(level: 'info', message: string): void } },
): Promise<Result<HandshakeInfo> | Failure> {
  const patient = spec.remote ? deadlineMs : patientDeadline(spec.dialect, deadlineMs);
  if (patient <= deadlineMs) return Promise.race([session.handshake(deadlineMs), ctx.died]);
  let said = false;
  const starting = watchStarting(ctx.pid, deadlineMs, (n) => {
    if (!said) ctx.hooks.diagnostic('info', `still starting past ${deadlineMs} ms: it runs ${n} processes of its own`);
    said = true;
  });
  try {
    return await Promise.race([session.handshake(patient), ctx.died, starting.idle]);
  } finally {
    starting.done();
  }
}
