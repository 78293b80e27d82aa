/**
 * What the person does about a model's turn: answer an approval card or a question, run a failed
 * turn again, choose the conversation's model. Their results come back as `chat.turn` events like
 * any other turn's; only what the card itself shows (a refused answer) is returned.
 */
import type { ApprovalDecision } from '../../../../shared/assistant';
import type { FailureCode } from '../../../../shared/failures';
import { getApi } from '../../api';
import { runOp } from '../ops';
import { inputsOf, type AttachmentDraft } from './attachments';
import { errorText, toastError } from '../toasts';
import { patchConv, useChat } from './state';

export type Answered = { ok: true } | { ok: false; code: FailureCode | 'transport'; message: string };

/** A card's answer sent: a refusal comes back for the card to show, a lost connection too. */
async function answered(
  send: () => Promise<{ ok: true } | { ok: false; code: FailureCode; message: string }>,
): Promise<Answered> {
  try {
    const r = await send();
    return r.ok ? { ok: true } : { ok: false, code: r.code, message: r.message };
  } catch (e) {
    return { ok: false, code: 'transport', message: errorText(e) };
  }
}

/** The person's answer to an approval card; `args` when they edited the arguments. */
export function approveCall(
  callId: string,
  decision: ApprovalDecision,
  args?: Record<string, unknown>,
): Promise<Answered> {
  return answered(() => getApi().invoke('chat.approve', { callId, decision, ...(args ? { args } : {}) }));
}

/** The person's answer to a question: their words, the choices they picked, or a server's form filled. */
export function answerQuestion(callId: string, answer: string | string[] | Record<string, unknown>): Promise<Answered> {
  return answered(() => getApi().invoke('chat.answer', { callId, answer }));
}

/** A server's form refused: declined by the person. */
export function declineForm(callId: string): Promise<Answered> {
  return answered(() => getApi().invoke('chat.answer', { callId, refuse: 'decline' }));
}

/** Runs the conversation's last model turn again (after a failure or a Stop). */
export async function retryTurn(conversationId: string): Promise<boolean> {
  try {
    const r = await getApi().invoke('chat.retry', { conversationId });
    if (r.ok) return true;
    toastError(`Retry: ${r.message}`);
  } catch (e) {
    toastError(`Retry: ${errorText(e)}`);
  }
  return false;
}

/** Writes the model's last answer again; the answer so far stays as an earlier version. */
export async function regenerateAnswer(conversationId: string): Promise<boolean> {
  try {
    const r = await getApi().invoke('chat.regenerate', { conversationId });
    if (r.ok) return true;
    toastError(`Regenerate: ${r.message}`);
  } catch (e) {
    toastError(`Regenerate: ${errorText(e)}`);
  }
  return false;
}

/** Sends the person's message `messageId` again as `text`; it and what followed become an earlier version. */
export async function editMessage(
  conversationId: string,
  messageId: string,
  text: string,
  files: { keep: string[]; added: readonly AttachmentDraft[] },
): Promise<boolean> {
  try {
    const added = await inputsOf(files.added);
    if (!added.ok) {
      toastError(`Edit: ${added.message}`);
      return false;
    }
    const r = await getApi().invoke('chat.edit', {
      conversationId,
      messageId,
      text,
      keep: files.keep,
      ...(added.inputs.length > 0 ? { attachments: added.inputs } : {}),
    });
    if (r.ok) return true;
    toastError(`Edit: ${r.message}`);
  } catch (e) {
    toastError(`Edit: ${errorText(e)}`);
  }
  return false;
}

/** Sets the open conversation's model (null: the default). */
export async function setConversationModel(model: string | null): Promise<void> {
  const id = useChat.getState().activeId;
  if (!id) return;
  const before = useChat.getState().convs[id]?.model ?? null;
  patchConv(id, () => ({ model }));
  if (!(await runOp(() => getApi().invoke('chat.setModel', { conversationId: id, model }), 'Choose the model')))
    patchConv(id, () => ({ model: before }));
}
