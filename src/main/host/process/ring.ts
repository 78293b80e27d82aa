/**
 * A bounded ring of text lines: the last N stderr lines of a plugin. Splits chunks into lines,
 * truncates monster lines, and never holds more than `maxLines` lines of `maxLineChars` each, so a
 * plugin that floods stderr costs a fixed amount of memory.
 */
const NPM_NOTICE = /^npm notice\b/;

export class LineRing {
  private readonly lines: string[] = [];
  private head = 0;
  private partial = '';
  /** The rest of an over-long line is being skipped, up to its end. */
  private discarding = false;

  constructor(
    private readonly maxLines = 500,
    private readonly maxLineChars = 2000,
    /** Applied to each whole line before it is kept or returned (secrets hidden, redact.ts). */
    private readonly transform: (line: string) => string = (l) => l,
  ) {}

  /** Feed raw text; returns the complete lines it contained (already truncated). */
  write(text: string): string[] {
    if (this.discarding) {
      const nl = text.indexOf('\n');
      if (nl === -1) return [];
      text = text.slice(nl + 1);
      this.discarding = false;
    }
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    if (this.partial.length > this.maxLineChars) {
      // A line with no end in sight: keep its head as a line of its own, drop the rest up to its
      // end, so one endless line cannot push the real lines out of the ring.
      parts.push(this.partial);
      this.partial = '';
      this.discarding = true;
    }
    const out: string[] = [];
    for (const raw of parts) {
      const line = this.clip(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
      this.push(line);
      out.push(line);
    }
    return out;
  }

  /** Flush a final unterminated line (at process exit). */
  flush(): string[] {
    this.discarding = false;
    if (this.partial === '') return [];
    const line = this.clip(this.partial);
    this.partial = '';
    this.push(line);
    return [line];
  }

  /**
   * The last `n` lines, oldest first. npm's notices (a newer npm is out, and how to get it: five
   * lines `npx` writes after the real error) are left out: they would push the error out of a
   * failure's last lines. The plugin's log still has them.
   */
  tail(n = this.maxLines): string[] {
    const all = (
      this.lines.length < this.maxLines
        ? this.lines.slice()
        : [...this.lines.slice(this.head), ...this.lines.slice(0, this.head)]
    ).filter((l) => !NPM_NOTICE.test(l));
    return n >= all.length ? all : all.slice(all.length - n);
  }

  private clip(raw: string): string {
    const line = this.transform(raw);
    return line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)}… (truncated)` : line;
  }

  private push(line: string): void {
    if (this.lines.length < this.maxLines) {
      this.lines.push(line);
      return;
    }
    this.lines[this.head] = line;
    this.head = (this.head + 1) % this.maxLines;
  }
}

/**
 * Lets at most `perSecond` events through in any one-second window and counts the rest, so a
 * flooding plugin cannot flood the UI. `take()` says whether to emit, and how many were held back
 * in the window that just ended.
 */
export class RateGate {
  private windowStart = 0;
  private inWindow = 0;
  private suppressed = 0;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(): { pass: boolean; suppressedBefore: number } {
    const t = this.now();
    let suppressedBefore = 0;
    if (t - this.windowStart >= 1000) {
      this.windowStart = t;
      this.inWindow = 0;
      suppressedBefore = this.suppressed;
      this.suppressed = 0;
    }
    if (this.inWindow < this.perSecond) {
      this.inWindow++;
      return { pass: true, suppressedBefore };
    }
    this.suppressed++;
    return { pass: false, suppressedBefore };
  }
}
