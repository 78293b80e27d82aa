/**
 * Reading other apps' JSON config files, comments and trailing commas allowed (VS Code writes
 * them), with the line and column of every value so that a refusal can point at the field.
 * jsonc-parser is VS Code's own parser for these files.
 */
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

export interface Located {
  line: number;
  column: number;
}

/** A parsed document: its value and where each path of it sits in the text. */
export interface JsoncDoc {
  value: unknown;
  at(path: Array<string | number>): Located;
}

export type JsoncResult = { ok: true; doc: JsoncDoc } | { ok: false; at: Located; message: string };

export function position(text: string, offset: number): Located {
  let line = 1;
  let lastBreak = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lastBreak = i;
    }
  }
  return { line, column: offset - lastBreak };
}

export function parseJsonc(text: string): JsoncResult {
  const errors: ParseError[] = [];
  // A byte-order mark is common in files written by Windows editors.
  const body = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const root = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  const first = errors[0];
  if (first)
    return {
      ok: false,
      at: position(body, first.offset),
      message: `not valid JSON (${describe(printParseErrorCode(first.error))})`,
    };
  if (!root) return { ok: false, at: { line: 1, column: 1 }, message: 'the file is empty' };
  return {
    ok: true,
    doc: {
      value: nodeValue(root),
      at: (path) => {
        // The nearest node that exists: a missing field is reported where its object is.
        for (let n = path.length; n >= 0; n--) {
          const node = findNodeAtLocation(root, path.slice(0, n));
          if (node) return position(body, (node.parent?.type === 'property' ? node.parent : node).offset);
        }
        return { line: 1, column: 1 };
      },
    },
  };
}

function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const prop of node.children ?? []) {
        const [key, value] = prop.children ?? [];
        if (key && value) out[String(key.value)] = nodeValue(value);
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

function describe(code: string): string {
  return code
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/^invalid symbol$/, 'an unexpected character');
}
