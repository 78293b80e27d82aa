/**
 * Keeps process.stdout for protocol frames. A stray console.log (the plugin's or a library's)
 * would otherwise land in the middle of the frame stream and break it for good, so while the
 * guard is up every other write to process.stdout goes to stderr instead.
 *
 * Child processes spawned with `stdio: 'inherit'` still write to the real file descriptor 1:
 * give them pipes, or `['ignore', 'pipe', 'inherit']`.
 */

export interface StdoutGuard {
  /** Writes a frame to the real stdout. */
  write(bytes: Buffer, done?: (err?: Error | null) => void): boolean;
  restore(): void;
}

export function guardStdout(): StdoutGuard {
  const stdout = process.stdout;
  const original = stdout.write;
  const writeFrame = original as (
    this: NodeJS.WriteStream,
    bytes: Buffer,
    done?: (err?: Error | null) => void,
  ) => boolean;
  const toStderr = (...args: unknown[]): boolean =>
    (process.stderr.write as (...a: unknown[]) => boolean).apply(process.stderr, args);
  stdout.write = toStderr as typeof stdout.write;
  let restored = false;
  return {
    write: (bytes, done) => writeFrame.call(stdout, bytes, done),
    restore: () => {
      if (restored) return;
      restored = true;
      stdout.write = original;
    },
  };
}
