/**
 * The composer: a textarea ("Message"), Send, and Stop while a turn runs. Enter sends, Shift+Enter
 * is a new line. A `/` at the start opens the tool palette, where Enter picks the highlighted tool
 * and Tab completes its name; text with arguments (`/plugin:tool key=value`) is sent as typed
 * for the server to parse. Everything typed goes through one `sendText`: the server decides
 * whether it is a tool call, passthrough input or a message for the conversation's model, which
 * the picker at the bottom left shows and switches. Files dropped on it or picked with the
 * paperclip go with the next message (composer-files.ts).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type JSX, type KeyboardEvent } from 'react';
import type { PaletteEntry } from '../../../../shared/contract';
import { Button } from '../../components/Button';
import { Kbd } from '../../components/Kbd';
import { cancelRunning, invokeTool, sendText } from '../../stores/chat/actions';
import { hasRunningTurn } from '../../stores/chat/running';
import { convOf, useChat } from '../../stores/chat/state';
import { hasParameters, inlineCommand, loadPalette, searchPalette, usePalette } from '../../stores/palette';
import { useComposerFill } from '../../stores/composer-fill';
import { fillFromPrompt } from '../../stores/palette-prompts';
import { useUi } from '../../stores/ui';
import { PassthroughBanner } from '../passthrough/PassthroughBanner';
import { AttachButton } from './AttachButton';
import { DraftChips } from './AttachmentChips';
import { useComposerFiles } from './composer-files';
import { ConversationTokens } from './ConversationTokens';
import { ModelPicker } from './ModelPicker';
import { optionId, Palette, PALETTE_ID } from './Palette';
import { ToolFormDialog } from './ToolFormDialog';

/** Whether a textarea can grow with its text by CSS alone. */
const SIZES_ITSELF = typeof CSS !== 'undefined' && CSS.supports('field-sizing', 'content');

/** The palette query: the text after a leading `/`, while it is one word. */
function paletteQuery(text: string): string | null {
  return text.startsWith('/') && !/\s/.test(text) ? text.slice(1) : null;
}

export function Composer(): JSX.Element {
  const activeId = useChat((s) => s.activeId);
  const passthrough = useChat((s) => (s.activeId ? convOf(s, s.activeId).passthrough : null));
  const running = useChat((s) => s.activeId !== null && hasRunningTurn(s.running, s.activeId));
  const focusTick = useUi((s) => s.focusComposerTick);
  const entries = usePalette((s) => s.entries);
  const fuse = usePalette((s) => s.fuse);
  const paletteLoaded = usePalette((s) => s.loaded);
  const paletteError = usePalette((s) => s.error);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const [form, setForm] = useState<PaletteEntry | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const files = useComposerFiles();

  const query = paletteQuery(text);
  // In passthrough everything typed, `/` too, goes to the plugin (the banner says so): no palette.
  const open = query !== null && !dismissed && form === null && !passthrough;
  const results = useMemo(() => (open ? searchPalette(entries, fuse, query) : []), [open, entries, fuse, query]);

  useEffect(() => {
    if (open) void loadPalette();
  }, [open]);
  useEffect(() => setActive(0), [query]);
  useEffect(() => area.current?.focus(), [focusTick, activeId]);
  // An MCP prompt chosen in the palette fills the box; the person sends it.
  const fill = useComposerFill((s) => s.fill);
  useEffect(() => {
    if (fill) setText(fill.text);
  }, [fill]);

  // Grow with the text, up to a limit, then scroll: by CSS (`field-sizing`) where the browser
  // has it, as Chromium and so Electron do. Measured here, each keystroke forced a layout of the
  // whole page, a streaming output's new rows included.
  useLayoutEffect(() => {
    const el = area.current;
    if (!el || SIZES_ITSELF) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 220)}px`;
  }, [text]);

  const reset = (): void => {
    setText('');
    setDismissed(false);
    area.current?.focus();
  };

  const pick = (e: PaletteEntry): void => {
    if (hasParameters(e)) {
      setForm(e);
      return;
    }
    reset();
    void (e.kind === 'prompt' ? fillFromPrompt(e, {}) : invokeTool(e, {}));
  };

  const submit = (): void => {
    const t = text.trim();
    if (!t && files.drafts.length === 0) return;
    const attached = files.take();
    reset();
    void sendText(t, attached);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.nativeEvent.isComposing) return;
    if (open && results.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const n = results.length;
        setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
        return;
      }
      const chosen = results[active];
      if (e.key === 'Enter' && !e.shiftKey && chosen) {
        e.preventDefault();
        pick(chosen);
        return;
      }
      // Tab only completes the name (the palette then closes, so the next Tab moves focus on):
      // running a tool takes Enter or a click.
      if (e.key === 'Tab' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && chosen) {
        e.preventDefault();
        setText(`${inlineCommand(chosen)} `);
        return;
      }
    }
    if (open && e.key === 'Escape') {
      e.preventDefault();
      setDismissed(true);
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      submit();
    }
  };

  const placeholder = passthrough ? `Message ${passthrough.pluginName}…` : 'Message, or / for tools';

  return (
    <div className="shrink-0 px-6 pt-1 pb-4">
      <div className="mx-auto w-full max-w-[772px]">
        {passthrough && <PassthroughBanner passthrough={passthrough} />}
        <div
          {...files.dropProps}
          data-dragging={files.dragging || undefined}
          className={`relative rounded-xl border bg-bg shadow-[0_1px_2px_rgb(0_0_0/0.04)] transition-colors focus-within:border-accent focus-within:ring-3 focus-within:ring-accent/15 ${
            files.dragging ? 'border-dashed border-accent ring-3 ring-accent/15' : 'border-line-strong'
          }`}
        >
          {open && (
            <Palette
              results={results}
              active={active}
              loading={!paletteLoaded}
              error={paletteError}
              query={query}
              onPick={pick}
              onHover={setActive}
            />
          )}
          <DraftChips drafts={files.drafts} onRemove={files.remove} />
          {files.refused.length > 0 && (
            <ul role="alert" className="space-y-0.5 px-3 pt-1.5 text-xs text-bad">
              {files.refused.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          )}
          {files.dragging && (
            <p className="px-3 pt-2 text-xs font-medium text-accent">Drop to attach to your message</p>
          )}
          <textarea
            ref={area}
            aria-label="Message"
            rows={1}
            value={text}
            placeholder={placeholder}
            spellCheck
            onChange={(e) => {
              setText(e.target.value);
              if (!e.target.value.startsWith('/')) setDismissed(false);
            }}
            onKeyDown={onKeyDown}
            aria-autocomplete="list"
            aria-controls={open ? PALETTE_ID : undefined}
            aria-activedescendant={open && results.length > 0 ? optionId(active) : undefined}
            className="block max-h-[220px] min-h-[40px] w-full [field-sizing:content] resize-none bg-transparent px-3 pt-2.5 pb-1 text-[13.5px] leading-relaxed text-fg outline-none placeholder:text-fg-subtle focus-visible:outline-none"
          />
          {/* A container: the hints give way to the picker and the buttons as the column narrows. */}
          <div className="@container flex items-center gap-2 px-2 pb-2">
            {/* In passthrough only what applies shows: no files, no model, no tools go to a plugin's session. */}
            <AttachButton
              inputLabel="Files to attach"
              testId="attach-input"
              showButton={!passthrough}
              onFiles={(picked) => void files.add(picked)}
            />
            {!passthrough && <ModelPicker />}
            <p className="flex min-w-0 flex-1 items-center gap-1 pl-1 text-[11px] whitespace-nowrap text-fg-subtle @max-lg:invisible">
              {!passthrough && (
                <>
                  <Kbd>/</Kbd> tools
                  <span className="mx-1">·</span>
                </>
              )}
              <Kbd>Enter</Kbd> {passthrough ? `send to ${passthrough.pluginName}` : 'send'}
              <span className="mx-1 @max-2xl:hidden">·</span>
              <span className="flex items-center gap-1 @max-2xl:hidden">
                <Kbd>⇧</Kbd>
                <Kbd>Enter</Kbd> new line
              </span>
            </p>
            {!passthrough && <ConversationTokens />}
            {running && (
              <Button
                size="sm"
                variant="secondary"
                icon="stop"
                aria-label="Stop"
                title="Stop the running turn"
                onClick={() => void cancelRunning()}
              >
                Stop
              </Button>
            )}
            <Button
              size="sm"
              variant="primary"
              icon="arrowUp"
              aria-label="Send"
              disabled={text.trim() === '' && files.drafts.length === 0}
              onClick={submit}
            >
              Send
            </Button>
          </div>
        </div>
      </div>
      {form && (
        <ToolFormDialog
          entry={form}
          onClose={() => {
            setForm(null);
            area.current?.focus();
          }}
          onDone={() => {
            setForm(null);
            reset();
          }}
        />
      )}
    </div>
  );
}
