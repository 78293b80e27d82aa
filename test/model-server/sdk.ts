/**
 * Small helpers for the tests that drive the real AI SDK against the scripted server: reading a
 * whole fullStream (keeping what iterating it threw, if it threw) and one JSON-Schema tool.
 */
import { jsonSchema, type JSONSchema7, type TextStreamPart, type ToolSet } from 'ai';

export type Part = TextStreamPart<ToolSet>;

export interface Drained {
  parts: Part[];
  /** What iterating the stream threw, if it threw. */
  thrown: unknown;
}

export async function drain(stream: AsyncIterable<Part>, onPart?: (p: Part) => void): Promise<Drained> {
  const parts: Part[] = [];
  try {
    for await (const p of stream) {
      parts.push(p);
      onPart?.(p);
    }
    return { parts, thrown: undefined };
  } catch (e) {
    return { parts, thrown: e };
  }
}

export function ofType<K extends Part['type']>(parts: Part[], type: K): Extract<Part, { type: K }>[] {
  return parts.filter((p): p is Extract<Part, { type: K }> => p.type === type);
}

export function textOf(parts: Part[]): string[] {
  return ofType(parts, 'text-delta').map((p) => p.text);
}

/** The JSON Schema a plugin tool would declare: one required string argument. */
export const PATH_SCHEMA: JSONSchema7 = {
  type: 'object',
  properties: { path: { type: 'string', description: 'File to read' } },
  required: ['path'],
  additionalProperties: false,
};

export const pathInput = jsonSchema<{ path: string }>(PATH_SCHEMA);
