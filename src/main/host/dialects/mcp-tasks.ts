/**
 * Calls of MCP tools whose `execution.taskSupport` is `required` (MCP tasks, SEP-1686): the call
 * returns a task at once, the client polls `tasks/get` at the server's `pollInterval`, each new
 * `statusMessage` is streamed, and a completed task's result comes from `tasks/result`.
 *
 * These are the tasks of the 2025-11-25 revision. The SDK's v2 client keeps their wire schemas
 * but no runtime for them, so the loop is Plugboard's: each request goes through the client with
 * the SDK's schema of its result (`tools/call` with `task` in its params, `tasks/get`,
 * `tasks/result`, `tasks/cancel`). It looks at a cancel at once, sends `tasks/cancel` so the
 * server's work stops too, and keeps a failed task's status message.
 */
import { specTypeSchemas, type Client } from '@modelcontextprotocol/client';
import type { CancelToken } from '../../../shared/cancel';
import { failure, type Failure } from '../../../shared/failures';
import type { CallSink } from './types';

export interface TaskCall {
  name: string;
  args: Record<string, unknown>;
  progressToken: string;
  cancel: CancelToken;
  /** Deadline of each request of the loop; the supervisor's timers bound the whole call. */
  requestTimeoutMs: number;
}

const MIN_POLL_MS = 50;
const MAX_POLL_MS = 5000;

/** The final `tools/call` result of the task, or the failure that ended it. */
export async function callAsTask(
  client: Client,
  call: TaskCall,
  sink: CallSink,
): Promise<{ ok: true; result: unknown } | Failure> {
  const abort = new AbortController();
  const offCancel = call.cancel.onCancel(() => abort.abort());
  if (call.cancel.isCancelled) abort.abort();
  const opts = { timeout: call.requestTimeoutMs, signal: abort.signal };
  let taskId: string | undefined;
  try {
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: call.name, arguments: call.args, task: {}, _meta: { progressToken: call.progressToken } },
      },
      specTypeSchemas.CreateTaskResult,
      opts,
    );
    taskId = created.task.taskId;
    sink.activity();
    let said: string | undefined;
    for (;;) {
      const task = await client.request(
        { method: 'tasks/get', params: { taskId } },
        specTypeSchemas.GetTaskResult,
        opts,
      );
      sink.activity();
      if (task.statusMessage && task.statusMessage !== said) {
        said = task.statusMessage;
        // One line per status, so the card reads as a log of the task.
        sink.stream(`${said}\n`);
      }
      if (task.status === 'completed' || task.status === 'input_required') {
        // input_required: tasks/result delivers what the server queued and waits for the end.
        const result = await client.request(
          { method: 'tasks/result', params: { taskId } },
          specTypeSchemas.CallToolResult,
          opts,
        );
        return { ok: true, result };
      }
      if (task.status === 'failed')
        return failure('plugin_error', `the task failed${task.statusMessage ? `: ${task.statusMessage}` : ''}`, {
          data: task,
        });
      if (task.status === 'cancelled')
        return failure(
          'cancelled',
          `the server cancelled the task${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
        );
      const wait = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, task.pollInterval ?? 1000));
      await sleep(wait, abort.signal);
    }
  } catch (e) {
    if (call.cancel.isCancelled) {
      // Stop the server's work too; the answer does not matter any more.
      if (taskId)
        client
          .request({ method: 'tasks/cancel', params: { taskId } }, specTypeSchemas.CancelTaskResult, {
            timeout: call.requestTimeoutMs,
          })
          .catch(() => {});
      return failure('cancelled', 'call cancelled');
    }
    return failure('plugin_error', `task ${taskId ?? '(not created)'}: ${(e as Error).message}`);
  } finally {
    offCancel();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const done = (): void => {
      clearTimeout(t);
      signal.removeEventListener('abort', stop);
    };
    const stop = (): void => {
      done();
      reject(new Error('aborted'));
    };
    const t = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}
