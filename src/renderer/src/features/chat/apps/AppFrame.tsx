/**
 * An MCP App in its tool card: the server's page in a frame on the frame origin (never this
 * page's), sandboxed to an opaque origin of its own (`allow-scripts allow-forms`, no
 * `allow-same-origin`, no popups, no top navigation), its `allow` attribute from the permissions
 * its resource asked for. The App is told the tool's input and, once it is there, the result, or
 * that the call was stopped (app-host.ts). It asks the person before a link opens or a message
 * goes to the conversation; its tool calls are decided by the main process (approval cards in the
 * conversation). After a reload it is rendered again from the stored result. Where it cannot be
 * shown, the card's text stays, with why.
 */
import { buildAllowAttribute } from '@modelcontextprotocol/ext-apps/app-bridge';
import { useEffect, useRef, useState, type JSX } from 'react';
import type { AppFrameView, AppToolResult } from '../../../../../shared/apps';
import type { ChatMessage } from '../../../../../shared/contract';
import { Spinner } from '../../../components/Spinner';
import { callAppTool, isDesktop, openAgreedLink, openApp, sendAgreedMessage, webLink } from '../../../stores/apps';
import { useChat } from '../../../stores/chat/state';
import { useUi } from '../../../stores/ui';
import { AppConsent, type ConsentAsk } from './AppConsent';
import { AppHost } from './app-host';
import { hostContext, MAX_APP_HEIGHT, themeContext } from './host-context';

type Load = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; view: AppFrameView };

/** What a failed call's card tells its App: the tool's own error result, else that it was stopped. */
function endOf(
  m: Pick<ChatMessage, 'status' | 'failure' | 'app' | 'text'>,
): { result: AppToolResult } | { cancelled: string } | null {
  if (m.app?.result) return { result: m.app.result };
  if (m.status === 'streaming') return null;
  const data = m.failure?.details?.data as AppToolResult | undefined;
  if (m.failure?.code === 'plugin_error' && data && Array.isArray(data.content)) return { result: data };
  if (m.status === 'done') return { result: { content: [{ type: 'text', text: m.text }] } };
  return { cancelled: m.failure?.message ?? 'the call was stopped' };
}

export function AppFrame({
  m,
  pluginName,
  onShown,
}: {
  m: ChatMessage;
  pluginName: string;
  /** The App is on screen (true), or could not be shown (false). */
  onShown?: (shown: boolean) => void;
}): JSX.Element {
  const conversationId = useChat((s) => s.activeId);
  const theme = useUi((s) => s.resolvedTheme);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [height, setHeight] = useState(120);
  const [shown, setShown] = useState(false);
  const [ask, setAsk] = useState<ConsentAsk | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const host = useRef<AppHost | null>(null);

  // The page, staged on the frame origin for this card.
  useEffect(() => {
    if (!conversationId) return;
    let live = true;
    setLoad({ state: 'loading' });
    void openApp(conversationId, m.id).then((r) => {
      if (!live) return;
      setLoad(r.ok ? { state: 'ready', view: r.app } : { state: 'failed', message: r.message });
      if (!r.ok) onShown?.(false);
    });
    return () => {
      live = false;
    };
  }, [conversationId, m.id]);

  // The bridge, connected before the frame is given its page.
  const view = load.state === 'ready' ? load.view : null;
  useEffect(() => {
    const el = frame.current;
    if (!view || !el || !conversationId) return;
    // One question at a time: a second request while one waits is refused.
    let waiting = false;
    const consent = (kind: ConsentAsk['kind'], text: string): Promise<boolean> => {
      if (waiting) return Promise.resolve(false);
      waiting = true;
      return new Promise<boolean>((resolve) =>
        setAsk({
          kind,
          text,
          answer: (yes) => {
            waiting = false;
            setAsk(null);
            resolve(yes);
          },
        }),
      ).then(async (yes) => yes && (kind === 'link' ? openAgreedLink(text) : sendAgreedMessage(text)));
    };
    const h = new AppHost(el, view, hostContext(view, useUi.getState().resolvedTheme, isDesktop()), {
      callTool: (name, args) => callAppTool(conversationId, m.id, name, args),
      openLink: (url) => (webLink(url) ? consent('link', url) : Promise.resolve(false)),
      message: (text) => consent('message', text),
      size: (hgt) => setHeight(Math.max(40, Math.min(Math.ceil(hgt), MAX_APP_HEIGHT))),
      initialized: () => {
        setShown(true);
        onShown?.(true);
      },
      log: (level, data) => console.debug(`[App ${view.tool.name}] ${level}:`, data),
    });
    host.current = h;
    void h.start().catch((e: unknown) => setLoad({ state: 'failed', message: (e as Error).message }));
    return () => {
      host.current = null;
      h.dispose();
      setShown(false);
      setAsk(null);
    };
  }, [view, conversationId, m.id]);

  // The input at once; the result (or the stop) when it comes.
  const args = m.args;
  useEffect(() => {
    host.current?.input(args ?? {});
  }, [view, args]);
  const { status, failure, app, text } = m;
  useEffect(() => {
    const end = endOf({ status, failure, app, text });
    if (!end) return;
    if ('result' in end) host.current?.result(end.result);
    else host.current?.cancelled(end.cancelled);
  }, [view, status, failure, app, text]);

  useEffect(() => {
    host.current?.context(themeContext(theme));
  }, [theme]);

  if (load.state === 'failed')
    return (
      <p className="text-xs text-fg-muted" data-app-state="failed">
        The App of this tool could not be shown: {load.message}
      </p>
    );
  const border = view?.prefersBorder === false ? 'border-transparent' : 'border-line';
  return (
    <div className="space-y-2" data-app-state={shown ? 'shown' : 'loading'}>
      <div className={`relative overflow-hidden rounded-md border ${border} bg-bg`}>
        {!shown && (
          <p className="absolute inset-0 flex items-center justify-center gap-2 text-xs text-fg-subtle">
            <Spinner size={12} /> Loading the App…
          </p>
        )}
        {view && (
          <iframe
            ref={frame}
            title={`${pluginName} App: ${view.tool.title ?? view.tool.name}`}
            sandbox="allow-scripts allow-forms"
            allow={buildAllowAttribute(view.permissions)}
            referrerPolicy="no-referrer"
            data-app-frame={m.id}
            className={`block w-full transition-opacity ${shown ? 'opacity-100' : 'opacity-0'}`}
            style={{ height }}
          />
        )}
        {!view && <div style={{ height }} />}
      </div>
      {view && view.refused.length > 0 && (
        <p className="text-[11px] text-fg-subtle" data-app-refused>
          It asked to reach addresses it may not:{' '}
          {view.refused.map((r, i) => (
            <span key={r.source} title={r.why}>
              {i > 0 && ', '}
              <code className="font-mono">{r.source}</code>
            </span>
          ))}
          .
        </p>
      )}
      {ask && <AppConsent ask={ask} appName={`${pluginName}’s App`} />}
    </div>
  );
}
