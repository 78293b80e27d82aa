// `@path` mentions in a message become attached excerpts of those files, for the model to read
// (the prompt enricher of this plugin: plugboard.json `prompt_enrichment`). Only files inside the
// shared folders are attached; a mention that names nothing there is left as it was typed, since
// `@` is also how people write handles and e-mail addresses.
import { stat } from 'node:fs/promises';
import { resolveInside } from './roots.mjs';
import { fence, formatSize, languageOf, readStart } from './text.mjs';

/** At most this many files per message, and this much of each. */
export const MAX_MENTIONS = 5;
export const EXCERPT_BYTES = 16 * 1024;

/**
 * The paths mentioned: `@notes/todo.md`, or `@"My Notes/plan.md"` for a path with spaces. A
 * mention starts a word (so `ann@example.com` is not one); trailing punctuation that ends a
 * sentence is not part of the path.
 */
export function mentionedPaths(text) {
  const found = [];
  for (const m of text.matchAll(/(?<=^|[\s(])@(?:"([^"\n]+)"|([^\s"'`]+))/g)) {
    const p = m[1] ?? m[2].replace(/[.,;:!?)]+$/, '');
    if (p && !found.includes(p)) found.push(p);
  }
  return found;
}

/** The message with an excerpt of each mentioned file appended, and a note of what was attached. */
export async function attachMentions(prompt, roots) {
  const paths = mentionedPaths(prompt).slice(0, MAX_MENTIONS);
  const parts = [];
  const attached = [];
  for (const p of paths) {
    const excerpt = await excerptOf(p, roots);
    if (!excerpt) continue;
    parts.push(excerpt.text);
    attached.push(`${p} (${excerpt.about})`);
  }
  if (parts.length === 0) return { prompt };
  return { prompt: `${prompt}\n\n${parts.join('\n\n')}`, note: `attached ${attached.join(', ')}` };
}

async function excerptOf(p, roots) {
  let real;
  try {
    ({ real } = await resolveInside(p, roots));
  } catch {
    return null; // outside the shared folders, or not a path at all
  }
  const st = await stat(real).catch(() => null);
  if (!st?.isFile()) return null;
  const start = await readStart(real, st.size, EXCERPT_BYTES);
  if (!start) return null;
  const about = start.cut ? `first ${formatSize(start.length)} of ${formatSize(st.size)}` : formatSize(st.size);
  return { about, text: `Attached file ${real} (${about}):\n${fence(start.text, languageOf(real))}` };
}
