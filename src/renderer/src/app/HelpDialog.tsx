/**
 * The Help page ("?", F1, or the toolbar's help button): what Plugboard is, how to add a model,
 * install a plugin, read the plugin panel, what each failure code means (shared/help.ts: the
 * README's "Help in the app" is the same text), then every keyboard shortcut, and what this build is.
 */
import type { JSX } from 'react';
import { FAILURE_CODES, FAILURE_MEANINGS } from '../../../shared/failures';
import { HELP_SECTIONS } from '../../../shared/help';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { Markdown } from '../features/chat/LazyMarkdown';
import { useAppInfo } from '../stores/app-info';
import { setHelpOpen, useUi } from '../stores/ui';
import { ShortcutTable } from './ShortcutTable';

/** The source wraps its lines at 100 characters; a paragraph reads as one. */
function unwrap(markdown: string): string {
  return markdown.replace(/([^\n])\n(?!\n|- )/g, '$1 ');
}

function jump(id: string): void {
  document.getElementById(`help-${id}`)?.scrollIntoView({ block: 'start' });
}

export function HelpDialog(): JSX.Element | null {
  const open = useUi((s) => s.helpOpen);
  const info = useAppInfo((s) => s.info);
  if (!open) return null;
  const close = (): void => setHelpOpen(false);
  const toc = [
    ...HELP_SECTIONS.map((s) => ({ id: s.id, title: s.title })),
    { id: 'keys', title: 'Keyboard shortcuts' },
  ];
  return (
    <Dialog
      title="Help"
      onClose={close}
      width="w-[720px]"
      height="h-[min(720px,calc(100vh-48px))]"
      footer={
        <Button data-autofocus onClick={close}>
          Close
        </Button>
      }
    >
      <nav aria-label="Help topics" className="mb-3 flex flex-wrap gap-1">
        {toc.map((t) => (
          <Button key={t.id} size="sm" variant="ghost" onClick={() => jump(t.id)}>
            {t.title}
          </Button>
        ))}
      </nav>
      <div className="space-y-4 text-[13px] leading-relaxed">
        {HELP_SECTIONS.map((s) => (
          <section key={s.id} id={`help-${s.id}`} aria-labelledby={`help-${s.id}-title`} className="scroll-mt-2">
            <h3 id={`help-${s.id}-title`} className="mb-1 text-[13px] font-semibold text-fg">
              {s.title}
            </h3>
            <Markdown text={unwrap(s.markdown)} />
            {s.id === 'failures' && (
              <dl
                className="mt-1.5 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-xs"
                aria-label="Failure codes"
              >
                {FAILURE_CODES.map((code) => (
                  <div key={code} className="contents">
                    <dt>
                      <code className="font-mono text-[11.5px] text-fg">{code}</code>
                    </dt>
                    <dd className="text-fg-muted">{FAILURE_MEANINGS[code]}</dd>
                  </div>
                ))}
              </dl>
            )}
          </section>
        ))}
        <section id="help-keys" aria-labelledby="help-keys-title" className="scroll-mt-2">
          <h3 id="help-keys-title" className="mb-1 text-[13px] font-semibold text-fg">
            Keyboard shortcuts
          </h3>
          <ShortcutTable label="Keyboard shortcuts" />
        </section>
      </div>
      {info && (
        <p className="mt-3 text-[11px] text-fg-subtle">
          Plugboard {info.version} · {info.platform} · {info.transport === 'ipc' ? 'desktop app' : 'web UI'} · data in{' '}
          <span className="font-mono">{info.dataDir}</span>
        </p>
      )}
    </Dialog>
  );
}
