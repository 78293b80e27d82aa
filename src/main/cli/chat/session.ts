/**
 * A `plugboard chat` run on the back end: the conversation it talks in (continued or new, with
 * the model it names), one turn or a session of turns, approval prompts answered on the
 * terminal, and Ctrl-C: the first stops the running turn (chat.cancel), a second quits. Every
 * step goes through the Backend's commands and events, as the app's renderer does.
 */
import type { ApprovalDecision } from '../../../shared/assistant';
import type { Conversation } from '../../../shared/contract';
import { failure, isFailure, type Failure } from '../../../shared/failures';
import { Disposable } from '../../../shared/lifecycle';
import type { Backend } from '../../service';
import { EXIT_FAILED, EXIT_OK } from '../io';
import type { CliEnv } from '../session';
import type { ChatPrinter } from './printers';
import { answerPrompt, questionText, readAnswer } from './questions';
import type { Terminal } from './terminal';
import { runTurn, type TurnResult } from './turn';
import { usageLine, type AskedCall, type AskedQuestion } from './turn-lines';
import { escapeTerminal } from '../../../shared/terminal-text';
import { callNotes } from '../../../shared/call-notes';

export type ApproveMode = 'ask' | 'all' | 'none';

export interface ChatOptions {
  backend: Backend;
  printer: ChatPrinter;
  /** Present when stdin is a terminal. */
  terminal: Terminal | null;
  approve: ApproveMode;
  json: boolean;
  env: CliEnv;
}

export const NO_MODEL =
  'no model is configured: add one with `plugboard models add NAME --provider openai-compatible --base-url http://127.0.0.1:11434/v1 --model llama3.2` (Ollama; `plugboard models --help` for OpenAI and Anthropic)';

/** The approval prompt's keys and the four answers they give, named as on the app's card. */
const KEYS = { o: 'once', c: 'conversation', a: 'always', d: 'deny' } as const satisfies Record<
  string,
  ApprovalDecision
>;
const LABELS: Record<ApprovalDecision, string> = {
  once: 'Allow once',
  conversation: 'Allow for this conversation',
  always: 'Always allow',
  deny: 'Deny',
};
const PROMPT_KEYS = Object.entries(KEYS)
  .map(([k, d]) => `${k}: ${LABELS[d]}`)
  .join('   ');

export class ChatSession extends Disposable {
  private conversationId = '';
  /** The turn running now: what Ctrl-C stops. */
  private running: string | null = null;
  private interrupts = 0;
  /** The turn Ctrl-C stopped: it ends as cancelled even where the back end left no note (stopped between steps). */
  private stopped: string | null = null;
  private readonly quit = new AbortController();
  /** Approval prompts, one at a time (the back end asks one at a time per conversation too). */
  private prompts: Promise<void> = Promise.resolve();

  constructor(private readonly o: ChatOptions) {
    super();
    // SIGTERM asks the command to end, not the turn: it quits at once (the close stops everything).
    this._register(o.env.onInterrupt((signal) => (signal === 'SIGTERM' ? this.quit.abort() : this.interrupt())));
  }

  get quitting(): boolean {
    return this.quit.signal.aborted;
  }

  /** The conversation to talk in, with its model; a failure when there is no model to answer. */
  async open(conversation: string | undefined, model: string | undefined): Promise<Failure | null> {
    const { backend } = this.o;
    const view = await backend.request('models.list', {});
    if (isFailure(view)) return view;
    const { models } = view;
    if (models.length === 0) return failure('no_model', NO_MODEL);
    if (model !== undefined && !models.some((m) => m.name === model)) {
      return failure(
        'no_model',
        `no model is named "${model}" (configured: ${models.map((m) => m.name).join(', ')}); see \`plugboard models list\``,
      );
    }
    let conv: Conversation | null = null;
    if (conversation !== undefined) {
      const got = await backend.request('chat.get', { id: conversation });
      if (isFailure(got)) return got;
      if (!got) {
        const info = await backend.request('app.info', {});
        return failure('not_found', `no conversation ${conversation} in ${isFailure(info) ? '?' : info.dataDir}`);
      }
      conv = got;
    }
    if (!conv) {
      const made = await backend.request('chat.create', {});
      if (isFailure(made)) return made;
      conv = made;
    }
    this.conversationId = conv.id;
    if (model !== undefined && conv.model !== model) {
      const r = await backend.request('chat.setModel', { conversationId: conv.id, model });
      if (!r.ok) return r;
    }
    return null;
  }

  /**
   * Starts the plugins whose tools are known only once they run (MCP servers announce theirs),
   * so that the model is offered the same tools as in the app, which starts them at launch.
   */
  async startToolServers(): Promise<void> {
    const { backend, printer } = this.o;
    const views = await backend.request('plugins.list', {});
    if (isFailure(views)) {
      printer.note(
        `warning: the plugins could not be listed, so no server was started (${views.code}: ${views.message})\n`,
      );
      return;
    }
    const silent = views.filter(
      (v) =>
        v.enabled && v.exposed && v.persistent && v.error === null && v.toolCount === 0 && v.needsSettings.length === 0,
    );
    await Promise.all(
      silent.map(async (v) => {
        const r = await backend.request('plugins.start', { id: v.id });
        if (!r.ok)
          printer.note(`warning: ${v.id} did not start, so its tools are not offered (${r.code}: ${r.message})\n`);
      }),
    );
  }

  /** One turn; the exit status. */
  async once(text: string): Promise<number> {
    const ok = this.report(await this.turn(text));
    this.farewell();
    return ok ? EXIT_OK : EXIT_FAILED;
  }

  /** A turn per line until Ctrl-D, "exit", or a Ctrl-C at the prompt. */
  async session(terminal: Terminal): Promise<number> {
    this.o.printer.note('Plugboard chat: each line is a turn. Ctrl-C stops a turn; Ctrl-D or "exit" ends.\n');
    for (;;) {
      const read = await terminal.readLine('> ', this.quit.signal);
      if (read.kind !== 'line') break;
      const text = read.text.trim();
      if (!text) continue;
      if (text === 'exit' || text === 'quit') break;
      this.report(await this.turn(text));
      if (this.quitting) break;
    }
    this.farewell();
    return this.quitting ? EXIT_FAILED : EXIT_OK;
  }

  private async turn(text: string): Promise<TurnResult> {
    this.interrupts = 0;
    const over = new AbortController();
    let turnId: string | null = null;
    try {
      const r = await runTurn({
        backend: this.o.backend,
        conversationId: this.conversationId,
        text,
        flag: this.o.approve === 'ask' ? undefined : this.o.approve,
        // Nobody to ask: the back end tells the model at once that the user is not available.
        unattended: this.o.terminal === null,
        sink: {
          line: (l, meta) => this.o.printer.line(l, meta),
          ask: (call) => this.ask(call, over.signal),
          question: (q) => this.question(q, over.signal),
        },
        started: (id) => (this.running = turnId = id),
        quit: this.quit.signal,
      });
      // Stopped while its calls ran (or a question waited): the model had no last word to mark.
      if (r.ok && turnId !== null && this.stopped === turnId)
        return { ...failure('cancelled', 'stopped by the user (Ctrl-C)'), usage: r.usage };
      return r;
    } finally {
      this.running = null;
      over.abort();
      // A prompt still up is taken down before the terminal is used again.
      await this.prompts;
    }
  }

  /** Prints the turn's end; whether it was done. */
  private report(r: TurnResult): boolean {
    const { printer } = this.o;
    // A turn stopped before the model said anything has no counts: no usage line.
    const usage = usageLine(r.usage);
    if (usage) printer.line(...usage);
    if (r.ok) printer.line({ type: 'done', text: r.text, conversation: this.conversationId });
    else printer.line({ type: 'error', code: r.code, message: r.message });
    return r.ok;
  }

  /** For people: the conversation's id, to continue it later (a JSON `done` line carries it). */
  private farewell(): void {
    if (!this.o.json && this.conversationId)
      this.o.printer.note(
        `conversation ${this.conversationId} (continue it: plugboard chat --conversation ${this.conversationId})\n`,
      );
  }

  private ask(call: AskedCall, over: AbortSignal): void {
    const { terminal, printer, backend } = this.o;
    this.prompts = this.prompts.then(async () => {
      // Only `--approve ask` leaves calls to ask about, and it needs a terminal.
      if (!terminal || over.aborted) return;
      // Nothing written: a line of the answer on the same screen is ended first.
      printer.note('');
      for (const line of callNotes(call)) terminal.write(`${escapeTerminal(line)}\n`);
      // The model's arguments, escaped: they must not act on the terminal the answer is typed in.
      const question = `allow ${call.plugin}:${call.tool} ${escapeTerminal(JSON.stringify(call.args))}?   ${PROMPT_KEYS} › `;
      const key = await terminal.readKey(question, Object.keys(KEYS) as Array<keyof typeof KEYS>, over);
      if (key === null || key === 'interrupt') {
        terminal.write('\n');
        if (key === 'interrupt') this.interrupt();
        return;
      }
      const decision = KEYS[key];
      terminal.write(`${LABELS[decision]}\n`);
      const r = await backend.request('chat.approve', { callId: call.callId, decision });
      if (!r.ok) printer.note(`${r.code}: ${r.message}\n`);
    });
  }

  /** The model's question, asked on the terminal until an answer fits; Ctrl-C or Ctrl-D stops the turn. */
  private question(q: AskedQuestion, over: AbortSignal): void {
    const { terminal, printer, backend } = this.o;
    this.prompts = this.prompts.then(async () => {
      // Without a terminal the back end has answered already (the user is not available).
      if (!terminal || over.aborted) return;
      printer.note('');
      if (q.question.form) {
        // An MCP server's form has fields a terminal line cannot hold: it is declined, and said so.
        terminal.write(
          escapeTerminal(
            `? ${q.question.from ?? 'a plugin'} asks: ${q.question.question}\n  (a form: it is answered in the app; declined here)\n`,
          ),
        );
        const r = await backend.request('chat.answer', { callId: q.callId, refuse: 'decline' });
        if (!r.ok) printer.note(`${r.code}: ${r.message}\n`);
        return;
      }
      terminal.write(escapeTerminal(questionText(q.question)));
      const until = AbortSignal.any([over, this.quit.signal]);
      for (;;) {
        const read = await terminal.readLine(answerPrompt(q.question), until);
        if (read.kind !== 'line') {
          if (!until.aborted) this.interrupt();
          return;
        }
        const answer = readAnswer(q.question, read.text);
        if (!answer.ok) {
          terminal.write(`${answer.message}\n`);
          continue;
        }
        const r = await backend.request('chat.answer', { callId: q.callId, answer: answer.answer });
        if (r.ok) return;
        terminal.write(`${r.code}: ${r.message}\n`);
        // The question is gone (its turn ended); anything else, the person may answer again.
        if (r.code === 'invalid_state') return;
      }
    });
  }

  /** Ctrl-C: stop the running turn; a second one, or one with no turn running, quits. */
  private interrupt(): void {
    const turnId = this.running;
    if (turnId === null || ++this.interrupts > 1) {
      this.quit.abort();
      return;
    }
    this.stopped = turnId;
    this.o.printer.note('stopping the turn… (Ctrl-C again to quit)\n');
    void this.o.backend.request('chat.cancel', { turnId });
  }
}
