/**
 * The assistant's own tools, offered to every model beside the plugins' tools:
 *   ask_user    a question to the person, answered in words or by picking choices on its card;
 *               the answer is the tool's result. Always allowed (asking is what approval is for),
 *               never audited as a plugin call, refused on Stop. Where nobody can answer
 *               (`plugboard chat` without a terminal) the result is at once that the user is
 *               not available, so the model goes on instead of waiting for ever.
 *   find_tools  a search over every exposed tool, offered when the budget left some out; what it
 *               finds is offered from the model's next step on.
 */
import { randomUUID } from 'node:crypto';
import { jsonSchema, tool, type JSONSchema7, type ToolSet } from 'ai';
import type { BuiltinTool, Question, ToolCallInfo } from '../../../shared/assistant';
import type { ChatMessage } from '../../../shared/contract';
import { failure } from '../../../shared/failures';
import { validateArguments } from '../../plugins';
import type { LiveMessages } from '../live-messages';
import type { StepCall } from './model-step';
import type { Offered } from './offered';
import type { Questions } from './questions';

const ASK_USER_SCHEMA = {
  type: 'object',
  properties: {
    question: { type: 'string', minLength: 1, maxLength: 2000, description: 'The question, in one or two sentences.' },
    choices: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 200 },
      maxItems: 12,
      description: 'Answers to pick from; leave out for an answer in words.',
    },
    multiple: { type: 'boolean', description: 'Several choices may be picked.' },
  },
  required: ['question'],
  additionalProperties: false,
} as const;

const FIND_TOOLS_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, maxLength: 500, description: 'What the tool should do, in a few words.' },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

const DESCRIPTIONS: Record<BuiltinTool, string> = {
  ask_user:
    'Ask the person a question and wait for the answer: when a required detail is missing or a choice is theirs to make. Ask instead of guessing.',
  find_tools:
    'Search the tools that are installed but not offered right now (there are too many to offer all). The tools found are offered from your next step on.',
};

const SCHEMAS: Record<BuiltinTool, Record<string, unknown>> = {
  ask_user: ASK_USER_SCHEMA,
  find_tools: FIND_TOOLS_SCHEMA,
};

/** ask_user's result where no person can answer: the model goes on rather than waits forever. */
export const UNATTENDED_ANSWER =
  'The user is not available to answer questions here (Plugboard runs without a person to ask). Do not wait for an answer: go on with what you can do without it, or say in your answer what you need from the user.';

/** How many tools find_tools reports at most. */
const FOUND_AT_MOST = 8;

export function isBuiltin(name: string): name is BuiltinTool {
  return name === 'ask_user' || name === 'find_tools';
}

/** The built-ins' declarations, for the request and the token estimate. */
export function builtinDeclarations(
  withFind: boolean,
): Array<{ qualifiedName: BuiltinTool; description: string; parameters: Record<string, unknown> }> {
  const names: BuiltinTool[] = withFind ? ['ask_user', 'find_tools'] : ['ask_user'];
  return names.map((n) => ({ qualifiedName: n, description: DESCRIPTIONS[n], parameters: SCHEMAS[n] }));
}

export function builtinTools(withFind: boolean): ToolSet {
  const out: ToolSet = {};
  for (const d of builtinDeclarations(withFind)) {
    out[d.qualifiedName] = tool({
      description: d.description,
      inputSchema: jsonSchema(d.parameters as JSONSchema7, {
        validate: (value) => {
          const bad = validateArguments(d.qualifiedName, d.parameters, value);
          return bad ? { success: false, error: new Error(bad.message) } : { success: true, value };
        },
      }),
    });
  }
  return out;
}

export interface BuiltinContext {
  messages: LiveMessages;
  questions: Questions;
  conversationId: string;
  turnId: string;
  /** Every exposed tool matching `query`, best first. */
  search(query: string, limit: number): Offered[];
  /** Tools found in this turn: offered from the next step on. */
  found: Set<string>;
  /** Nobody can answer (`plugboard chat` without a terminal): questions are answered that at once. */
  unattended?: boolean | undefined;
  /** Fields the card starts with (the step's details). */
  extra?: Partial<ChatMessage> | undefined;
}

export async function runBuiltin(ctx: BuiltinContext, call: StepCall & { toolName: BuiltinTool }): Promise<void> {
  const input = (call.input ?? {}) as { question?: string; choices?: string[]; multiple?: boolean; query?: string };
  const question: Question | undefined =
    call.toolName === 'ask_user' && !call.invalid && input.question
      ? {
          question: input.question,
          ...(input.choices?.length ? { choices: input.choices } : {}),
          ...(input.multiple ? { multiple: true } : {}),
        }
      : undefined;
  const info: ToolCallInfo = {
    id: call.toolCallId,
    name: call.toolName,
    builtin: call.toolName,
    approval: { state: 'allowed', by: 'policy' },
    ...(question ? { question } : {}),
  };
  const message: ChatMessage = {
    id: randomUUID(),
    role: 'plugin',
    createdAt: Date.now(),
    text: '',
    turnId: ctx.turnId,
    status: 'streaming',
    tool: call.toolName,
    args: isRecord(call.input) ? call.input : {},
    call: info,
    ...ctx.extra,
  };
  const card = ctx.messages.start(ctx.conversationId, message);
  if (call.invalid) {
    return ctx.messages.finish(card, {
      status: 'error',
      failure: failure(
        'invalid_arguments',
        `the model's arguments for ${call.toolName} were not valid: ${call.invalid.message}`,
      ),
    });
  }
  if (question) {
    const answer = ctx.unattended ? UNATTENDED_ANSWER : await ctx.questions.ask(call.toolCallId, ctx.turnId, question);
    if (answer === null)
      return ctx.messages.finish(card, {
        status: 'cancelled',
        failure: failure('cancelled', 'stopped before the question was answered'),
      });
    ctx.messages.append(card, answer);
    return ctx.messages.finish(card, { status: 'done' });
  }
  const hits = ctx.search(String(input.query ?? ''), FOUND_AT_MOST);
  for (const t of hits) ctx.found.add(t.qualifiedName);
  ctx.messages.append(
    card,
    hits.length === 0
      ? `No installed tool matches “${String(input.query)}”.`
      : `Found ${hits.length} tool${hits.length === 1 ? '' : 's'}, offered from the next step on:\n${hits.map((t) => `- ${t.qualifiedName}: ${t.description}`).join('\n')}`,
  );
  ctx.messages.finish(card, { status: 'done' });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
