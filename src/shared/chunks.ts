/**
 * How a stream chunk or a result reads as text, the same in the CLI and the UI. Chunks stay
 * lossless in events; this only decides what a person sees.
 */
export function chunkText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data === null || data === undefined) return '';
  if (typeof data === 'object' && !Array.isArray(data)) {
    const d = data as Record<string, unknown>;
    // Mehrhof stream events: {type: "text", data: "..."}.
    if (d.type === 'text' && typeof d.data === 'string') return d.data;
    if (d.type === 'thinking' && typeof d.data === 'string') return d.data;
    if (d.type === 'complete' && (d.data === null || d.data === undefined)) return '';
    if (typeof d.message === 'string') return d.message;
    if (typeof d.progress === 'number')
      return typeof d.total === 'number' ? `[${d.progress}/${d.total}]` : `[${d.progress}]`;
  }
  return JSON.stringify(data);
}

/** A result as text: strings as they are, anything else as indented JSON. */
export function resultText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data === null || data === undefined) return '';
  return JSON.stringify(data, null, 2);
}
