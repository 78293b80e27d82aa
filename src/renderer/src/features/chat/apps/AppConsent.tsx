/**
 * The question under an App's frame before it opens a link or speaks in the conversation: what
 * exactly (the link's site set apart from the rest of its address, the message's whole text), and
 * two answers. Nothing happens until the person answers; the App learns only yes or no.
 */
import { useEffect, useRef, type JSX } from 'react';
import { Button } from '../../../components/Button';
import { Icon } from '../../../components/Icon';
import { webLink } from '../../../stores/apps';

export interface ConsentAsk {
  kind: 'link' | 'message';
  /** The link, or the message's text. */
  text: string;
  answer(yes: boolean): void;
}

export function AppConsent({ ask, appName }: { ask: ConsentAsk; appName: string }): JSX.Element {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), [ask]);
  const link = ask.kind === 'link' ? webLink(ask.text) : null;
  const title = link ? `${appName} wants to open a page on ${link.host}` : `${appName} wants to send a message`;
  return (
    <div
      ref={box}
      tabIndex={-1}
      role="group"
      aria-label={title}
      data-app-consent={ask.kind}
      className="rounded-lg border border-accent/60 bg-bg px-3 py-2.5 shadow-[0_0_0_3px_var(--accent-soft)] outline-none"
    >
      <p className="flex items-center gap-2 text-[13px] font-semibold text-fg">
        <Icon name={link ? 'globe' : 'chat'} size={14} className="text-accent" />
        {link ? (
          <span>
            {appName} wants to open a page on <strong className="font-semibold">{link.host}</strong>
          </span>
        ) : (
          <span>{appName} wants to send this message to the conversation, as yours</span>
        )}
      </p>
      <p
        className="mt-1.5 max-h-40 overflow-auto rounded-md border border-line bg-subtle px-2.5 py-1.5 font-mono text-[11.5px] break-all whitespace-pre-wrap text-fg-muted"
        data-consent-text
      >
        {ask.text}
      </p>
      <div className="mt-2.5 flex gap-2">
        <Button variant="primary" size="sm" onClick={() => ask.answer(true)}>
          {link ? 'Open the page' : 'Send it'}
        </Button>
        <Button size="sm" onClick={() => ask.answer(false)}>
          {link ? 'Don’t open' : 'Don’t send'}
        </Button>
      </div>
    </div>
  );
}
