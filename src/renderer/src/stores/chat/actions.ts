/**
 * What the user does in chat. `send` is the one entry for typed text: the server decides whether
 * it is an inline `/plugin:tool` call, passthrough input, or text for a model (a later issue), so
 * a model that calls tools will add messages through the same `chat.turn` events, not new paths.
 */
import type { ChatMessage, Conversation, PaletteEntry } from '../../../../shared/contract';
import { getApi } from '../../api';
import { filesBack, filesResent, inputsOf, type AttachmentDraft } from './attachments';
import { runOp } from '../ops';
import { usePalette } from '../palette';
import { takeTypedPrompt } from '../palette-prompts';
import { errorText, toastError } from '../toasts';
import { only, runningTurns, withoutConversation, withSnapshot } from './running';
import { convOf, patchConv, sortList, useChat } from './state';
import { loadList, reconcile } from './sync';

const ACTIVE_KEY = 'plugboard.activeConversation';
let localSeq = 0;

function remember(id: string | null): void {
  try {
    if (id) localStorage.setItem(ACTIVE_KEY, id);
    else localStorage.removeItem(ACTIVE_KEY);
  } catch {
    // Only a convenience for the next launch.
  }
}

function adopt(c: Conversation): void {
  useChat.setState((s) => ({
    list: sortList([
      ...s.list.filter((x) => x.id !== c.id),
      { id: c.id, title: c.title, updatedAt: c.updatedAt, messageCount: c.messageCount },
    ]),
    messages: { ...s.messages, ...Object.fromEntries(c.messages.map((m) => [m.id, m])) },
    convs: {
      ...s.convs,
      [c.id]: {
        ids: c.messages.map((m) => m.id),
        loaded: true,
        loadError: null,
        passthrough: c.passthrough,
        model: c.model,
      },
    },
    running: withSnapshot(s.running, c.id, c.runningTurns),
  }));
}

export function selectConversation(id: string | null): void {
  useChat.setState({ activeId: id });
  remember(id);
  if (id && !convOf(useChat.getState(), id).loaded) void reconcile(id);
}

/** Opens the conversation `delta` places down the list (up when negative), within its ends. */
export function stepConversation(delta: number): void {
  const { list, activeId } = useChat.getState();
  if (list.length === 0) return;
  const i = list.findIndex((c) => c.id === activeId);
  const next = list[Math.min(list.length - 1, Math.max(0, (i < 0 ? 0 : i) + delta))];
  if (next) selectConversation(next.id);
}

/** Opens the conversation open last time (or the most recent one). */
function openRemembered(): void {
  const { list } = useChat.getState();
  let last: string | null = null;
  try {
    last = localStorage.getItem(ACTIVE_KEY);
  } catch {
    last = null;
  }
  const pick = list.find((c) => c.id === last) ?? list[0];
  selectConversation(pick?.id ?? null);
}

/** First load: the list, then the conversation to open. */
export async function startChat(): Promise<void> {
  await loadList();
  openRemembered();
}

/**
 * After a reconnect: events were missed, so nothing that was streaming can be trusted. Other
 * conversations are forgotten (refetched when opened), the open one is refetched now, and its
 * snapshot says which of its turns still run. If the first load never got the list
 * (it gave up waiting for a slow first connection), the conversation to open is chosen now.
 */
export async function resyncChat(): Promise<void> {
  const s = useChat.getState();
  const unchosen = s.activeId === null && s.listError !== null;
  const active = s.activeId ? s.convs[s.activeId] : undefined;
  const keep = new Set(active?.ids ?? []);
  const messages = { ...s.messages };
  for (const [id, m] of Object.entries(messages)) if (m?.status === 'streaming' && !keep.has(id)) delete messages[id];
  // Frames were missed too: only the open conversation's turns are kept, until its snapshot says
  // which still run; the others show as running again when they are opened.
  useChat.setState({
    messages,
    convs: s.activeId && active ? { [s.activeId]: active } : {},
    running: only(s.running, (c) => c === s.activeId),
  });
  await loadList();
  const id = useChat.getState().activeId;
  if (id) await reconcile(id, true);
  else if (unchosen) openRemembered();
}

export async function createConversation(title?: string): Promise<string | null> {
  try {
    const c = await getApi().invoke('chat.create', title ? { title } : {});
    adopt(c);
    selectConversation(c.id);
    return c.id;
  } catch (e) {
    toastError(`New conversation: ${errorText(e)}`);
    return null;
  }
}

export async function renameConversation(id: string, title: string): Promise<void> {
  const before = useChat.getState().list;
  useChat.setState({ list: before.map((c) => (c.id === id ? { ...c, title } : c)) });
  if (!(await runOp(() => getApi().invoke('chat.rename', { id, title }), 'Rename conversation')))
    useChat.setState({ list: before });
}

export async function deleteConversation(id: string): Promise<void> {
  if (!(await runOp(() => getApi().invoke('chat.delete', { id }), 'Delete conversation'))) return;
  const s = useChat.getState();
  const index = s.list.findIndex((c) => c.id === id);
  const list = s.list.filter((c) => c.id !== id);
  const convs = { ...s.convs };
  delete convs[id];
  // The server stops its turns without an `end` event: they end here, with their messages.
  const running = withoutConversation(s.running, id);
  const messages = { ...s.messages };
  for (const m of s.convs[id]?.ids ?? []) delete messages[m];
  useChat.setState({ list, convs, running, messages });
  if (s.activeId === id) selectConversation((list[index] ?? list[index - 1])?.id ?? null);
}

async function ensureConversation(): Promise<string | null> {
  return useChat.getState().activeId ?? (await createConversation());
}

/** Files of messages not yet accepted, by local id: Retry sends them again. */
const unsentFiles = new Map<string, readonly AttachmentDraft[]>();

export async function sendText(text: string, files: readonly AttachmentDraft[] = []): Promise<boolean> {
  const conversationId = await ensureConversation();
  if (!conversationId) return false;
  const passthrough = convOf(useChat.getState(), conversationId).passthrough !== null;
  // An MCP prompt's name typed (or Tab-completed) is not a call: it fills the composer instead
  // (in passthrough everything typed is the plugin's).
  if (!passthrough && takeTypedPrompt(text, usePalette.getState().entries)) return true;
  const id = `local-${Date.now()}-${localSeq++}`;
  const attachments = files.map((f) => ({
    id: `${id}-${f.key}`,
    name: f.name,
    kind: f.kind,
    mime: f.mime,
    size: f.size,
  }));
  const message: ChatMessage = {
    id,
    role: 'user',
    createdAt: Date.now(),
    text,
    ...(passthrough ? { passthrough: true } : {}),
    ...(files.length > 0 ? { attachments } : {}),
  };
  useChat.setState((s) => ({
    messages: { ...s.messages, [id]: message },
    local: { ...s.local, [id]: { conversationId, state: 'sending' } },
  }));
  patchConv(conversationId, (c) => ({ ids: [...c.ids, id] }));
  let error: string | null = null;
  try {
    const taken = await inputsOf(files);
    if (!taken.ok) error = taken.message;
    // A turn it starts is already known: the server sends the turn's `start` before this answer.
    const r = taken.ok
      ? await getApi().invoke('chat.send', {
          conversationId,
          text,
          ...(files.length > 0 ? { attachments: taken.inputs } : {}),
        })
      : null;
    if (r && !r.ok) error = r.message;
  } catch (e) {
    error = errorText(e);
  }
  if (error !== null && files.length > 0) {
    unsentFiles.set(id, files);
    filesBack(files);
  }
  // The server sends its copy of the message (and any answer) as events; `chat.updated` fetches
  // the conversation if its count says something was missed (see turns.ts).
  useChat.setState((s) =>
    s.local[id]
      ? {
          local: {
            ...s.local,
            [id]: { conversationId, state: error === null ? 'sent' : 'failed', ...(error === null ? {} : { error }) },
          },
        }
      : {},
  );
  return error === null;
}

export async function invokeTool(
  entry: Pick<PaletteEntry, 'plugin' | 'name' | 'pluginName'>,
  args: Record<string, unknown>,
): Promise<boolean> {
  const conversationId = await ensureConversation();
  if (!conversationId) return false;
  try {
    const r = await getApi().invoke('chat.invoke', { conversationId, plugin: entry.plugin, tool: entry.name, args });
    if (!r.ok) {
      toastError(`${entry.pluginName} · ${entry.name}: ${r.message}`);
      return false;
    }
    return true;
  } catch (e) {
    toastError(`${entry.pluginName} · ${entry.name}: ${errorText(e)}`);
    return false;
  }
}

/** Stops what runs in the open conversation (normally one turn); each turn's `end` event ends it. */
export async function cancelRunning(): Promise<void> {
  const { activeId, running } = useChat.getState();
  if (!activeId) return;
  await Promise.all(
    runningTurns(running, activeId).map((turnId) => runOp(() => getApi().invoke('chat.cancel', { turnId }), 'Stop')),
  );
}

export async function exitPassthrough(): Promise<void> {
  const id = useChat.getState().activeId;
  if (!id) return;
  if (await runOp(() => getApi().invoke('chat.exitPassthrough', { conversationId: id }), 'Exit passthrough'))
    patchConv(id, () => ({ passthrough: null }));
}

/** Sends a refused message again: the failed copy goes, a new attempt takes its place. */
export async function retrySend(localId: string): Promise<void> {
  const s = useChat.getState();
  const m = s.messages[localId];
  const l = s.local[localId];
  if (!m || !l || l.state !== 'failed') return;
  const messages = { ...s.messages };
  const local = { ...s.local };
  delete messages[localId];
  delete local[localId];
  useChat.setState({ messages, local });
  patchConv(l.conversationId, (c) => ({ ids: c.ids.filter((i) => i !== localId) }));
  if (s.activeId !== l.conversationId) selectConversation(l.conversationId);
  const files = unsentFiles.get(localId) ?? [];
  unsentFiles.delete(localId);
  filesResent(files);
  await sendText(m.text, files);
}
