/**
 * Running a command whose answer is a Done: failures become a toast with the server's
 * message (they are expected values), transport errors likewise; the caller gets a boolean.
 */
import type { Done } from '../../../shared/contract';
import { errorText, toastError, toastInfo } from './toasts';

export async function runOp(call: () => Promise<Done>, what: string, announce?: string): Promise<boolean> {
  try {
    const r = await call();
    if (!r.ok) {
      toastError(`${what}: ${r.message}`);
      return false;
    }
    if (announce) toastInfo(announce);
    return true;
  } catch (e) {
    toastError(`${what}: ${errorText(e)}`);
    return false;
  }
}
