/**
 * The sandbox tests run only where bubblewrap works. Elsewhere they are skipped, never passed:
 * the reason is in the name of the skipped suite and printed once.
 */
import { describe } from 'vitest';
import { sandboxSupport } from '../../src/main/host/process/sandbox-probe';

export const support = sandboxSupport();

if (!support.available) console.warn(`sandbox tests skipped: ${support.reason}`);

/** A describe that is skipped, with the probe's reason in its name, where the sandbox does not work. */
export function describeSandboxed(name: string, fn: () => void): void {
  describe.skipIf(!support.available)(support.available ? name : `${name} (skipped: ${support.reason})`, fn);
}

/** The bwrap of this machine; only called inside describeSandboxed. */
export function bwrapPath(): string {
  if (!support.available) throw new Error(support.reason);
  return support.bwrap;
}
