/**
 * What importing another app's MCP config would do: each server with its command (as it is:
 * control and hidden characters marked), its environment variable and header names (values reach
 * the screen only for variables that change what runs, LD_PRELOAD, NODE_OPTIONS, PATH…, which
 * are flagged), a box to choose it and, for each name, whether it is kept as a secret (in the
 * secret store) or as plain configuration; the folders and files it is given, each a grant; and
 * whether it gets the network, which no config can say and which an installed package does not
 * need to start.
 */
import type { JSX } from 'react';
import type { ImportResultView, ImportServerView } from '../../../../shared/imports';
import { Icon } from '../../components/Icon';
import type { ServerAccess } from '../../stores/install';
import {
  toggleImportCopy,
  toggleImportNet,
  toggleImportSecret,
  toggleImportServer,
} from '../../stores/install-choices';
import { PathGrants } from './PathGrants';
import { VisibleText } from '../../components/VisibleText';

function Names({
  label,
  names,
  secret,
}: {
  label: string;
  names: Array<{ name: string; reason?: string }>;
  secret: string[];
}): JSX.Element | null {
  if (names.length === 0) return null;
  return (
    <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
      <span className="text-fg-subtle">{label}</span>
      {names.map((n) => (
        <label key={n.name} className="inline-flex cursor-pointer items-center gap-1" title={n.reason ?? ''}>
          <input
            type="checkbox"
            checked={secret.includes(n.name)}
            onChange={() => toggleImportSecret(n.name)}
            className="h-3 w-3 accent-[var(--accent)]"
            aria-label={`Keep ${n.name} secret`}
          />
          <code className="font-mono text-fg">{n.name}</code>
          {secret.includes(n.name) && <span className="text-fg-subtle">secret</span>}
        </label>
      ))}
    </div>
  );
}

/** A server run from a folder of the person's: copied into Plugboard where that is offered, or why not. */
function CopyChoice({
  s,
  copy,
  chosen,
}: {
  s: ImportServerView;
  copy: NonNullable<ImportServerView['copy']>;
  chosen: boolean;
}): JSX.Element {
  if (!copy.offered)
    return (
      <p className="text-xs text-fg-muted" data-copy-offer="no">
        Runs from <code className="font-mono break-all">{copy.folder}</code>, shown to it read-only; it cannot be copied
        into Plugboard: {copy.why}.
      </p>
    );
  return (
    <label className="flex cursor-pointer items-start gap-2 text-xs" data-copy-offer="yes">
      <input
        type="checkbox"
        checked={chosen}
        onChange={() => toggleImportCopy(s.key)}
        aria-label={`Copy ${s.name} into Plugboard`}
        className="mt-0.5 h-3.5 w-3.5 accent-[var(--accent)]"
      />
      <span>
        Copy it into Plugboard{' '}
        <span className="text-[11px] text-fg-subtle">
          — runs from its own copy of <code className="font-mono break-all">{copy.folder}</code>: none of your folders
          is shown to it, and what you change there later does not change it. Unticked, it runs from that folder, shown
          read-only.
        </span>
      </span>
    </label>
  );
}

function Server({
  s,
  chosen,
  secret,
  access,
  result,
}: {
  s: ImportServerView;
  chosen: boolean;
  secret: string[];
  access: ServerAccess | undefined;
  result: ImportResultView | undefined;
}): JSX.Element {
  const line = s.command ? [s.command, ...s.args].join(' ') : (s.url ?? '');
  return (
    <li className="rounded-md border border-line px-3 py-2" data-server={s.key}>
      <label className={`flex items-start gap-2 ${s.runnable ? 'cursor-pointer' : 'opacity-70'}`}>
        <input
          type="checkbox"
          disabled={!s.runnable}
          checked={chosen}
          onChange={() => toggleImportServer(s.key)}
          className="mt-0.5 h-3.5 w-3.5 accent-[var(--accent)]"
          aria-label={`Install ${s.name}`}
        />
        <span className="min-w-0 flex-1">
          <span className="font-medium text-fg">{s.name}</span>{' '}
          <code className="font-mono text-[11px] text-fg-subtle">{s.id}</code>
          {s.line > 0 && <span className="text-[11px] text-fg-subtle"> · line {s.line}</span>}
          {s.disabled && <span className="text-[11px] text-warn"> · switched off there</span>}
          <code className="mt-0.5 block font-mono text-[11px] break-all text-fg-muted" title={line}>
            <VisibleText text={line} />
          </code>
        </span>
      </label>
      <Names label="env" names={s.env} secret={secret} />
      <Names label="headers" names={s.headers} secret={secret} />
      {s.env
        .filter((e) => e.runs)
        .map((e) => (
          <p key={e.name} className="mt-1 flex gap-1.5 text-xs text-fg" data-env-runs={e.name}>
            <Icon name="alert" size={13} className="mt-0.5 shrink-0 text-warn" />
            <span className="min-w-0 break-all">
              <code className="font-mono">
                {e.name}=<VisibleText text={e.runs?.value ?? ''} />
              </code>{' '}
              changes what runs: {e.runs?.why}
            </span>
          </p>
        ))}
      {s.idTaken && (
        <p className="mt-1 text-xs text-fg-muted">
          <code className="font-mono">{s.idTaken}</code> is taken by an installed plugin: this one installs as{' '}
          <code className="font-mono">{s.id}</code>, and nothing is replaced.
        </p>
      )}
      {s.runnable && access && (
        <div className="mt-1.5 space-y-1.5 pl-5">
          <PathGrants folders={access.folders} server={s.key} />
          {s.copy && <CopyChoice s={s} copy={s.copy} chosen={access.copy} />}
          {s.transport === 'stdio' && (
            <label className="flex cursor-pointer items-start gap-2 text-xs">
              <input
                type="checkbox"
                checked={access.net}
                onChange={() => toggleImportNet(s.key)}
                aria-label={`Grant ${s.name} the network`}
                className="mt-0.5 h-3.5 w-3.5 accent-[var(--accent)]"
              />
              <span>
                Use the network{' '}
                <span className="text-[11px] text-fg-subtle">
                  — not requested: its package is installed once and starts without it; grant it if the server itself
                  calls other services
                </span>
              </span>
            </label>
          )}
        </div>
      )}
      {s.problem && <p className="mt-1 text-xs text-fg-muted">{s.problem}</p>}
      {s.warnings.map((w, i) => (
        <p key={i} className="mt-1 flex gap-1.5 text-xs text-fg">
          <Icon name="alert" size={13} className="mt-0.5 shrink-0 text-warn" />
          {w}
        </p>
      ))}
      {result && (
        <p role={result.ok ? undefined : 'alert'} className={`mt-1 text-xs ${result.ok ? 'text-ok' : 'text-bad'}`}>
          {result.ok ? result.detail : result.message}
        </p>
      )}
    </li>
  );
}

export function ImportPreview(props: {
  servers: ImportServerView[];
  chosen: string[];
  secret: string[];
  access: Record<string, ServerAccess>;
  results: ImportResultView[];
  error: string | null;
}): JSX.Element {
  return (
    <div className="text-[13px]">
      {props.error && (
        <div role="alert" className="mb-3 flex gap-2 rounded-md border border-bad/30 bg-bad-soft px-3 py-2 text-fg">
          <Icon name="alert" className="mt-0.5 shrink-0 text-bad" />
          <p className="min-w-0 break-words whitespace-pre-wrap">{props.error}</p>
        </div>
      )}
      <p className="mb-2 text-xs text-fg-muted">
        Each server you choose becomes a plugin; a package its command fetches (npx, uvx…) is installed once, pinned,
        into its folder. Names marked secret go to the secret store; their values are never shown.
      </p>
      <ul className="space-y-2">
        {props.servers.map((s) => (
          <Server
            key={s.key}
            s={s}
            chosen={props.chosen.includes(s.key)}
            secret={props.secret}
            access={props.access[s.key]}
            result={props.results.find((r) => r.key === s.key)}
          />
        ))}
      </ul>
    </div>
  );
}
