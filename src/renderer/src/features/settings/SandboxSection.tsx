/**
 * Settings → Sandbox: whether plugins run sandboxed on this computer (the host's probe: bubblewrap
 * on Linux), why not where they do not, what running as root means, how plugins' limits are held,
 * what each capability's grant means here, and how each platform is sandboxed. Read from the main
 * process, so it says what the code enforces.
 */
import { useEffect, type JSX } from 'react';
import { CodeMarks } from '../../components/CodeMarks';
import { Icon } from '../../components/Icon';
import { loadSandboxStatus, useSystemSettings } from '../../stores/system-settings';
import { SectionHead } from './SectionHead';

const PLATFORM_NAMES: Record<string, string> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' };

export function SandboxSection(): JSX.Element {
  const s = useSystemSettings((x) => x.sandbox);
  const loadError = useSystemSettings((x) => x.loadError);
  useEffect(() => void loadSandboxStatus(), []);
  return (
    <section aria-label="Sandbox" className="space-y-3">
      <SectionHead title="Sandbox">What keeps a plugin to what you granted it, on this computer.</SectionHead>
      {loadError && <p className="text-xs text-bad">Could not read the sandbox status: {loadError}</p>}
      {s && (
        <>
          <div
            role="status"
            data-sandboxed={s.available}
            className={`flex items-start gap-2 rounded-lg border px-3 py-2 ${s.available ? 'border-ok/40 bg-ok/5' : 'border-warn/40 bg-warn-soft'}`}
          >
            <Icon
              name={s.available ? 'shield' : 'alert'}
              size={16}
              className={`mt-0.5 shrink-0 ${s.available ? 'text-ok' : 'text-warn'}`}
            />
            <div className="min-w-0 text-xs">
              {s.available && s.tool ? (
                <p className="text-fg">
                  <span className="font-medium">Plugins run sandboxed</span> with {s.tool.name}
                  {s.tool.version ? ` ${s.tool.version}` : ''} (<span className="font-mono">{s.tool.path}</span>).
                </p>
              ) : (
                <>
                  <p className="font-medium text-fg">Plugins run unsandboxed here</p>
                  <p className="break-words text-fg-muted">Why: {s.reason}</p>
                </>
              )}
            </div>
          </div>
          {s.root && (
            <div
              role="note"
              aria-label="Running as root"
              className="flex items-start gap-2 rounded-lg border border-warn/40 bg-warn-soft px-3 py-2"
            >
              <Icon name="alert" size={16} className="mt-0.5 shrink-0 text-warn" />
              <div className="min-w-0 text-xs">
                <p className="font-medium text-fg">Running as root</p>
                <p className="break-words text-fg-muted">{s.root}</p>
              </div>
            </div>
          )}
          {s.limits && <p className="text-xs text-fg-muted">{s.limits}</p>}
          <table className="w-full text-xs" aria-label="Capabilities here">
            <thead>
              <tr className="border-b border-line text-left text-fg-muted">
                <th className="py-1 pr-3 font-medium">Capability</th>
                <th className="py-1 pr-3 font-medium">Enforced</th>
                <th className="py-1 font-medium">What that means here</th>
              </tr>
            </thead>
            <tbody>
              {s.capabilities.map((c) => (
                <tr key={c.name} className="border-b border-line align-top last:border-0">
                  <td className="py-1.5 pr-3">
                    <span className="block text-fg">{c.title}</span>
                    <span className="font-mono text-[11px] text-fg-subtle">{c.name}</span>
                  </td>
                  <td className={`py-1.5 pr-3 font-medium whitespace-nowrap ${c.enforced ? 'text-ok' : 'text-warn'}`}>
                    {c.enforced ? 'Yes' : 'No'}
                  </td>
                  <td className="py-1.5 text-fg-muted">
                    <CodeMarks text={c.note} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div>
            <h4 className="mb-1 text-xs font-semibold text-fg">By platform</h4>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-xs">
              {s.platforms.map((p) => (
                <div key={p.platform} className={`contents ${p.platform === s.platform ? 'text-fg' : 'text-fg-muted'}`}>
                  <dt className="font-medium">
                    {PLATFORM_NAMES[p.platform] ?? p.platform}
                    {p.platform === s.platform && (
                      <span className="block text-[11px] font-normal text-fg-subtle">this computer</span>
                    )}
                  </dt>
                  <dd>{p.how}</dd>
                </div>
              ))}
            </dl>
          </div>
        </>
      )}
    </section>
  );
}
