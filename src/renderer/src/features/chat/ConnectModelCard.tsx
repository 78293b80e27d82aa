/**
 * The note a plain message gets while no model is connected, with what to do about it: the model
 * servers found running on this computer (one click connects one), the provider form (Settings →
 * Models), and the tools that match what was typed, each opening its form as the palette does.
 * So the app is useful before any model is connected.
 */
import { useEffect, useState, type JSX } from 'react';
import type { DiscoveredServer } from '../../../../shared/assistant';
import type { ChatMessage, PaletteEntry } from '../../../../shared/contract';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { invokeTool } from '../../stores/chat/actions';
import { discoverModels, saveModel, useModels } from '../../stores/models';
import { ensurePalette, findTool, hasParameters, usePalette } from '../../stores/palette';
import { openSettings, openToolForm } from '../../stores/ui';
import { Markdown } from './LazyMarkdown';

function ServerRow({ server }: { server: DiscoveredServer }): JSX.Element {
  const [state, setState] = useState<{ busy: string | null; error: string | null }>({ busy: null, error: null });
  const connect = async (model: string): Promise<void> => {
    setState({ busy: model, error: null });
    const r = await saveModel({
      name: `${server.title} ${model}`,
      provider: 'openai-compatible',
      baseURL: server.baseURL,
      model,
      makeDefault: true,
    });
    setState({ busy: null, error: r.ok ? null : r.message });
  };
  return (
    <li className="rounded-md border border-line bg-bg px-2.5 py-2">
      <div className="flex items-baseline gap-2 text-xs">
        <span className="font-semibold text-fg">{server.title}</span>
        <span className="truncate font-mono text-[11px] text-fg-subtle">{server.baseURL}</span>
      </div>
      {server.models.length === 0 ? (
        <p className="mt-1 text-xs text-fg-muted">
          It runs, but lists no model yet: download one with its own tools first.
        </p>
      ) : (
        <div className="mt-1.5 flex flex-wrap gap-1.5">
          {server.models.slice(0, 8).map((model) => (
            <Button
              key={model}
              size="sm"
              variant="secondary"
              disabled={state.busy !== null}
              aria-label={`Connect ${model} on ${server.title}`}
              onClick={() => void connect(model)}
            >
              {state.busy === model ? <Spinner size={11} /> : <Icon name="plug" size={12} />}
              Connect <span className="font-mono">{model}</span>
            </Button>
          ))}
        </div>
      )}
      {state.error && (
        <p role="alert" className="mt-1 text-xs text-bad">
          {state.error}
        </p>
      )}
    </li>
  );
}

function Found(): JSX.Element {
  const discovered = useModels((s) => s.discovered);
  const discovering = useModels((s) => s.discovering);
  useEffect(() => {
    if (discovered === null) void discoverModels();
  }, [discovered]);
  return (
    <section aria-label="Model servers on this computer" className="space-y-1.5">
      <div className="flex items-center gap-2">
        <h3 className="flex-1 text-xs font-semibold text-fg">Running on this computer</h3>
        <Button size="sm" variant="ghost" icon="restart" disabled={discovering} onClick={() => void discoverModels()}>
          Look again
        </Button>
      </div>
      {discovered === null || (discovering && discovered.length === 0) ? (
        <p className="flex items-center gap-2 text-xs text-fg-subtle">
          <Spinner /> Looking for Ollama, LM Studio and llama.cpp…
        </p>
      ) : discovered.length === 0 ? (
        <p className="text-xs text-fg-muted">
          No model server found (Ollama on port 11434, LM Studio on 1234, llama.cpp on 8080). Start one, or add a model
          with its address or an API key.
        </p>
      ) : (
        <ul className="space-y-1.5">
          {discovered.map((s) => (
            <ServerRow key={s.baseURL} server={s} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Suggestions({ tools }: { tools: Array<{ plugin: string; tool: string }> }): JSX.Element | null {
  const entries = usePalette((s) => s.entries);
  useEffect(() => void ensurePalette(), []);
  const found = tools.map((t) => findTool(entries, t.plugin, t.tool)).filter((e): e is PaletteEntry => e !== undefined);
  if (tools.length === 0) return null;
  const open = (e: PaletteEntry): void => {
    if (hasParameters(e)) openToolForm(e);
    else void invokeTool(e, {});
  };
  return (
    <section aria-label="Suggested tools" className="space-y-1.5">
      <h3 className="text-xs font-semibold text-fg">Or run a tool yourself</h3>
      <div className="flex flex-wrap gap-1.5">
        {found.map((e) => (
          <Button
            key={`${e.plugin}:${e.name}`}
            size="sm"
            variant="secondary"
            title={e.description}
            onClick={() => open(e)}
          >
            <Icon name="box" size={12} />
            <span>{e.pluginName}</span>
            <span className="font-mono text-fg-muted">{e.name}</span>
            {hasParameters(e) && <span className="text-fg-subtle">…</span>}
          </Button>
        ))}
      </div>
    </section>
  );
}

export function ConnectModelCard({ m }: { m: ChatMessage }): JSX.Element {
  const connected = useModels((s) => s.view?.defaultModel ?? null);
  const suggestions = m.card?.type === 'connect-model' ? m.card.suggestions : [];
  return (
    <article
      className="rounded-lg border border-line bg-subtle"
      aria-label="Connect a model"
      data-message-id={m.id}
      data-role="system"
      data-card="connect-model"
    >
      <header className="flex items-center gap-2 border-b border-line px-3.5 py-2.5">
        <span
          className="grid h-6 w-6 shrink-0 place-items-center rounded-md bg-accent-soft text-accent"
          aria-hidden="true"
        >
          <Icon name="sparkle" size={14} />
        </span>
        <h2 className="flex-1 text-[13px] font-semibold text-fg">Connect a model</h2>
        <Button
          size="sm"
          variant={connected ? 'secondary' : 'primary'}
          icon="settings"
          onClick={() => openSettings({ section: 'models', addModel: true })}
        >
          Add a model…
        </Button>
      </header>
      <div className="space-y-3 px-3.5 py-3">
        <div className="text-[12.5px] text-fg-muted">
          <Markdown text={m.text} />
        </div>
        {connected ? (
          <p className="flex items-center gap-1.5 text-xs text-ok" role="status">
            <Icon name="check" size={12} />
            <span>{connected} is connected now: send your message again to ask it.</span>
          </p>
        ) : (
          <Found />
        )}
        <Suggestions tools={suggestions} />
      </div>
    </article>
  );
}
