// Terminal output on its way to a chat: line endings made plain, chunks batched, a bounded tail.
import os from 'node:os';

/**
 * A pty ends lines with \r\n; a chat wants \n. Nothing else is changed. A chunk that ends in
 * \r keeps it back until the next chunk shows whether a \n follows.
 */
export class Newlines {
  constructor() {
    this.held = '';
  }

  push(chunk) {
    let text = this.held + chunk;
    this.held = '';
    if (text.endsWith('\r')) {
      this.held = '\r';
      text = text.slice(0, -1);
    }
    return text.replace(/\r\n/g, '\n');
  }

  flush() {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}

/** How many characters at the end of `text` could be the start of `marker`. */
export function partialSuffix(text, marker) {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(marker.slice(0, n))) return n;
  }
  return 0;
}

/** The last `maxChars` characters of everything pushed. */
export class Tail {
  constructor(maxChars) {
    this.maxChars = maxChars;
    this.text = '';
    this.total = 0;
  }

  push(text) {
    this.total += text.length;
    this.text += text;
    // Trim in large steps, not on every chunk.
    if (this.text.length > this.maxChars * 2) this.text = this.text.slice(-this.maxChars);
  }

  get value() {
    return this.text.length > this.maxChars ? this.text.slice(-this.maxChars) : this.text;
  }

  get truncated() {
    return this.total > this.maxChars;
  }
}

/**
 * Batches small pty chunks into fewer stream messages (every `delayMs`, or at `maxChars`), and
 * wraps the whole in a code fence so that it reads as terminal output in a markdown chat. The
 * fence is four backticks, so that output containing ``` does not end it.
 */
export class FencedStream {
  constructor(emit, { delayMs = 40, maxChars = 16 * 1024 } = {}) {
    this.emit = emit;
    this.delayMs = delayMs;
    this.maxChars = maxChars;
    this.buffer = '';
    this.timer = null;
    this.opened = false;
    this.endsWithNewline = true;
    this.lastEmitAt = Date.now();
  }

  push(text) {
    if (!text) return;
    this.buffer += text;
    if (this.buffer.length >= this.maxChars) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.buffer) return;
    const text = (this.opened ? '' : '````text\n') + this.buffer;
    this.opened = true;
    this.endsWithNewline = text.endsWith('\n');
    this.buffer = '';
    this.send(text);
  }

  /** Flushes and closes the fence, if anything was shown. */
  end() {
    this.flush();
    if (this.opened) this.send(`${this.endsWithNewline ? '' : '\n'}\`\`\`\`\n`);
    this.opened = false;
  }

  /**
   * An empty chunk when nothing was sent for a while: the host's inactivity timer is there to
   * catch a hung plugin, and a command that is merely quiet (a long build) must not look like one.
   */
  keepAlive(idleMs) {
    if (Date.now() - this.lastEmitAt >= idleMs) this.send('');
  }

  send(text) {
    this.lastEmitAt = Date.now();
    this.emit(text);
  }
}

/** `SIGTERM` for 15, or null. */
export function signalName(n) {
  if (!n) return null;
  return Object.entries(os.constants.signals).find(([, v]) => v === n)?.[0] ?? `signal ${n}`;
}
