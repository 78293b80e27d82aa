/**
 * Output that is one markdown code fence as a whole (the terminal plugin wraps what a command
 * prints in ````text … ````) reads as code once markdown renders it. Shown as plain text (while
 * it streams, or when it is too long for markdown) the fence lines would show as they are; this
 * finds the outer fence, so the plain view can show what is inside it, in a code font.
 *
 * Only the outer fence is taken off: inside it, a shorter run of backticks is output like any
 * other, exactly as markdown reads it. Finding it looks at the first line and the end only, so
 * it costs the same for 2 MB as for 2 KB.
 */

export interface Unfenced {
  /** The text inside the fence, or the whole text when it is not fenced. */
  body: string;
  fenced: boolean;
  /** Characters taken off the front of the text (the opening fence line), 0 when not fenced. */
  cut: number;
}

const OPENER = /^(`{3,}|~{3,})[^`\n]*\n/;

export function unfence(text: string): Unfenced {
  const open = OPENER.exec(text.slice(0, 200));
  if (!open) return { body: text, fenced: false, cut: 0 };
  const mark = open[1] as string;
  const cut = open[0].length;
  const body = text.slice(cut);
  // A closing fence: the same character, at least as many, alone on the last line.
  const tail = body.slice(-200);
  const end = (mark[0] === '`' ? /(^|\n)(`{3,})[ \t]*\n?$/ : /(^|\n)(~{3,})[ \t]*\n?$/).exec(tail);
  const atLineStart = end !== null && (end[1] === '\n' || tail.length === body.length);
  if (!end || !atLineStart || (end[2] ?? '').length < mark.length) return { body, fenced: true, cut };
  // Keep the newline that ended the last line of output: `…last\n````\n` leaves `…last\n`.
  return { body: body.slice(0, body.length - end[0].length + end[1].length), fenced: true, cut };
}
