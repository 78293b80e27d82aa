/**
 * A remark plugin: single line breaks inside a paragraph become real line breaks. Plugins write
 * line-oriented output ("1\n2\n3", log lines, key: value lists) and expect it to look the way it
 * streamed; strict markdown would join those lines into one. Code blocks are untouched (their
 * text is a `value`, not child text nodes).
 */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

function split(node: MdNode): MdNode[] {
  const parts = (node.value ?? '').split(/\r?\n/);
  const out: MdNode[] = [];
  parts.forEach((part, i) => {
    if (i > 0) out.push({ type: 'break' });
    if (part) out.push({ type: 'text', value: part });
  });
  return out;
}

function walk(node: MdNode): void {
  if (!node.children) return;
  const next: MdNode[] = [];
  for (const child of node.children) {
    if (child.type === 'text' && child.value?.includes('\n')) next.push(...split(child));
    else {
      walk(child);
      next.push(child);
    }
  }
  node.children = next;
}

export function remarkSoftBreaks(): (tree: MdNode) => void {
  return walk;
}
