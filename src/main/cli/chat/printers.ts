/**
 * How `plugboard chat` writes a turn: with --json, each line as one object on stdout with exactly
 * its documented fields; for people, the model's text on stdout as it streams and the tool calls
 * as short lines on stderr (`→ hello:count {"to":3}`, who decided, `✓ hello:count 120 ms` or
 * `✗ hello:count code: message`), the model's questions and the tokens the turn took, so that
 * piping stdout keeps the answer alone.
 */
import { describeFailure, type Failure } from '../../../shared/failures';
import { jsonLine, type Out } from '../io';
import type { ChatLine, LineMeta } from './turn-lines';

export interface ChatPrinter {
  line(l: ChatLine, meta?: LineMeta): void;
  /** A message for the person (a warning, a prompt, the conversation's id): stderr in both modes. */
  note(text: string): void;
}

/** The JSON line of each kind, field by field, so nothing else ever reaches it. */
function exact(l: ChatLine): Record<string, unknown> {
  switch (l.type) {
    case 'text':
      return { type: l.type, delta: l.delta };
    case 'tool_call':
      return { type: l.type, id: l.id, plugin: l.plugin, tool: l.tool, arguments: l.arguments };
    case 'approval':
      return { type: l.type, id: l.id, decision: l.decision, by: l.by };
    case 'tool_stream':
      return { type: l.type, id: l.id, data: l.data };
    case 'tool_result':
      return l.success
        ? { type: l.type, id: l.id, success: true, output: l.output }
        : { type: l.type, id: l.id, success: false, code: l.code, message: l.message };
    case 'usage':
      return { type: l.type, input_tokens: l.input_tokens, output_tokens: l.output_tokens };
    case 'done':
      return { type: l.type, text: l.text, conversation: l.conversation };
    case 'error':
      return { type: l.type, code: l.code, message: l.message };
  }
}

export class JsonPrinter implements ChatPrinter {
  constructor(private readonly out: Out) {}

  line(l: ChatLine): void {
    jsonLine(this.out, exact(l));
  }

  note(text: string): void {
    this.out.stderr(text);
  }
}

const ARGS_SHOWN = 200;

export class TextPrinter implements ChatPrinter {
  /** stdout has text after its last newline. */
  private midLine = false;
  /** A tool line came after the last text: the next text starts on a line of its own. */
  private toolSinceText = false;
  private readonly names = new Map<string, string>();
  /** ask_user calls of this run: their question shows instead of the call. */
  private readonly questions = new Set<string>();

  /**
   * `sameScreen`: stdout and stderr are one terminal, so stderr lines must not cut a line of text.
   * `asks`: a person answers questions on the terminal (which shows them); else they are only noted.
   */
  constructor(
    private readonly out: Out,
    private readonly sameScreen: boolean,
    private readonly asks: boolean,
  ) {}

  line(l: ChatLine, meta?: LineMeta): void {
    switch (l.type) {
      case 'text':
        if (this.toolSinceText && this.midLine) this.stdout('\n');
        this.toolSinceText = false;
        return this.stdout(l.delta);
      case 'tool_call': {
        const name = l.tool ? `${l.plugin}:${l.tool}` : l.plugin;
        this.names.set(l.id, name);
        if (meta?.question) {
          this.questions.add(l.id);
          // On a terminal the prompt shows the question; elsewhere this line is all there is of it.
          return this.asks
            ? undefined
            : this.tool(
                `? ${meta.question.question}${meta.question.choices ? ` (${meta.question.choices.join(' / ')})` : ''}`,
              );
        }
        const args = JSON.stringify(l.arguments);
        return this.tool(`→ ${name} ${args.length > ARGS_SHOWN ? `${args.slice(0, ARGS_SHOWN)}…` : args}`);
      }
      case 'approval':
        // The assistant's own tools need no approval: nobody decided anything worth a line.
        if (meta?.builtin) return;
        if (l.by === 'policy') return this.tool(`  ${l.decision} by the tool's policy`);
        if (l.by === 'flag')
          return this.tool(`  ${l.decision} by --approve ${l.decision === 'allowed' ? 'all' : 'none'}`);
        // An answer typed at the prompt shows there already; one given earlier in the conversation does not.
        if (meta?.decision === 'conversation') return this.tool('  allowed for this conversation');
        return;
      case 'tool_result': {
        if (this.questions.has(l.id) && l.success) {
          return this.asks
            ? undefined
            : this.tool(
                '  not answered: nobody is at a terminal here, and the model was told the user is not available',
              );
        }
        const name = this.names.get(l.id) ?? l.id;
        const took = meta?.durationMs !== undefined ? ` ${meta.durationMs} ms` : '';
        return this.tool(l.success ? `✓ ${name}${took}` : `✗ ${name} ${l.code}: ${l.message}`);
      }
      case 'usage': {
        const count = (n: number | null): string => (n === null ? '?' : n.toLocaleString('en-US'));
        return this.note(
          `tokens: ${count(l.input_tokens)} in, ${count(l.output_tokens)} out${meta?.estimated ? ' (estimated: the server gave no counts)' : ''}\n`,
        );
      }
      case 'tool_stream':
        return;
      case 'done':
        return this.endLine();
      case 'error':
        this.endLine();
        return this.out.stderr(`${describeFailure({ ok: false, code: l.code, message: l.message } as Failure)}\n`);
    }
  }

  note(text: string): void {
    if (this.sameScreen) this.endLine();
    this.out.stderr(text);
  }

  private tool(text: string): void {
    this.toolSinceText = true;
    this.note(`${text}\n`);
  }

  private endLine(): void {
    if (this.midLine) this.stdout('\n');
  }

  private stdout(text: string): void {
    if (!text) return;
    this.out.stdout(text);
    this.midLine = !text.endsWith('\n');
  }
}
