/**
 * Settings → Approvals: what a model's call to a tool gets when the person chose nothing for that
 * tool (the plugin panel sets a tool's own policy, which always wins). Saved on choice; the
 * registry applies it to the next call (registry/decisions.ts).
 */
import { useEffect, useState, type JSX } from 'react';
import type { ApprovalDefault } from '../../../../shared/assistant';
import { Icon } from '../../components/Icon';
import { loadApprovalDefault, saveApprovalDefault, useSystemSettings } from '../../stores/system-settings';
import { SectionHead } from './SectionHead';

const CHOICES: Array<{ key: ApprovalDefault; label: string; note: string }> = [
  {
    key: 'read-only',
    label: 'Allow read-only tools, ask for the rest',
    note: 'Tools their plugin marks read-only or safe run at once; every other call waits for your answer. The default.',
  },
  {
    key: 'ask',
    label: 'Ask for every call',
    note: 'Every call a model makes waits for your answer, read-only ones too.',
  },
  {
    key: 'allow',
    label: 'Allow every call',
    note: 'Models run any tool without asking. Only for plugins you trust with everything they can do.',
  },
];

export function ApprovalsSection(): JSX.Element {
  const current = useSystemSettings((s) => s.approvalDefault);
  const loadError = useSystemSettings((s) => s.loadError);
  const [saved, setSaved] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => void loadApprovalDefault(), []);

  const choose = async (key: ApprovalDefault): Promise<void> => {
    if (key === current) return;
    const r = await saveApprovalDefault(key);
    setSaved(
      r.ok ? { ok: true, text: 'Saved: the next call a model makes follows it.' } : { ok: false, text: r.message },
    );
  };

  return (
    <section aria-label="Approvals" className="space-y-3">
      <SectionHead title="Approvals">
        What happens when a model wants to call a tool you set no policy for. A tool’s own policy (in the plugin panel:
        allow, ask or deny) always comes first.
      </SectionHead>
      {loadError && <p className="text-xs text-bad">Could not read the approval policy: {loadError}</p>}
      <div role="radiogroup" aria-label="Default approval policy" className="space-y-1.5">
        {CHOICES.map((c) => (
          <button
            key={c.key}
            type="button"
            role="radio"
            aria-checked={current === c.key}
            disabled={current === null}
            onClick={() => void choose(c.key)}
            className={`flex w-full items-start gap-2.5 rounded-lg border px-3 py-2 text-left transition-colors ${
              current === c.key ? 'border-accent bg-accent-soft' : 'border-line hover:bg-muted'
            }`}
          >
            <span
              className={`mt-0.5 flex h-3.5 w-3.5 shrink-0 items-center justify-center rounded-full border ${current === c.key ? 'border-accent bg-accent' : 'border-line-strong'}`}
            >
              {current === c.key && <span className="h-1.5 w-1.5 rounded-full bg-accent-fg" />}
            </span>
            <span className="min-w-0">
              <span className="block text-[13px] font-medium text-fg">{c.label}</span>
              <span className="block text-[11px] text-fg-muted">{c.note}</span>
            </span>
          </button>
        ))}
      </div>
      {saved && (
        <p className={`flex items-center gap-1.5 text-xs ${saved.ok ? 'text-ok' : 'text-bad'}`} role="status">
          <Icon name={saved.ok ? 'check' : 'alert'} size={12} />
          {saved.text}
        </p>
      )}
    </section>
  );
}
