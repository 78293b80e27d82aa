/**
 * The composer's model picker: which model answers in this conversation ("Default (<name>)"
 * while it follows the default), switched per conversation; with no model at all, a "Connect a
 * model" link to Settings. A small menu after the menu-button pattern: arrows move, Enter or a
 * click picks, Escape closes and gives focus back to the button.
 */
import { useEffect, useId, useRef, useState, type JSX, type KeyboardEvent } from 'react';
import { Icon } from '../../components/Icon';
import { setConversationModel } from '../../stores/chat/model-actions';
import { convOf, useChat } from '../../stores/chat/state';
import { effectiveModel, useModels } from '../../stores/models';
import { openSettings } from '../../stores/ui';

interface Item {
  key: string;
  label: string;
  detail?: string;
  checked?: boolean;
  run: () => void;
}

export function ModelPicker(): JSX.Element | null {
  const activeId = useChat((s) => s.activeId);
  const own = useChat((s) => (s.activeId ? convOf(s, s.activeId).model : null));
  const view = useModels((s) => s.view);
  const [open, setOpen] = useState(false);
  const [at, setAt] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent): void => {
      if (!menu.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('mousedown', onDown);
    return () => window.removeEventListener('mousedown', onDown);
  }, [open]);
  useEffect(() => {
    if (open) menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]')[at]?.focus();
  }, [open, at]);

  if (!view) return null;
  const chip =
    'inline-flex h-6 max-w-[240px] items-center gap-1 rounded-md px-1.5 text-[11.5px] font-medium transition-colors';
  if (view.models.length === 0) {
    return (
      <button
        type="button"
        onClick={() => openSettings({ section: 'models', addModel: true })}
        className={`${chip} text-accent hover:bg-accent-soft`}
      >
        <Icon name="plug" size={12} />
        Connect a model
      </button>
    );
  }
  const current = effectiveModel(view, own);
  const followsDefault = own === null || !view.models.some((m) => m.name === own);
  const label = followsDefault ? `Default (${current ?? 'none'})` : own;
  const close = (focusButton: boolean): void => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };
  const items: Item[] = [
    {
      key: '__default',
      label: `Default (${view.defaultModel ?? 'none'})`,
      detail: 'Follows the default in Settings',
      checked: followsDefault,
      run: () => void setConversationModel(null),
    },
    ...view.models.map((m) => ({
      key: m.name,
      label: m.name,
      detail: m.model,
      checked: !followsDefault && own === m.name,
      run: () => void setConversationModel(m.name),
    })),
    { key: '__manage', label: 'Manage models…', run: () => openSettings({ section: 'models' }) },
  ];
  const pick = (item: Item): void => {
    close(true);
    item.run();
  };
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setAt((i) => (i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length);
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      setAt(e.key === 'Home' ? 0 : items.length - 1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') {
      close(false);
    }
  };
  return (
    <div className="relative min-w-0">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Model: ${label}`}
        title={activeId ? 'The model that answers in this conversation' : 'The model new conversations use'}
        disabled={!activeId}
        onClick={() => {
          setAt(
            Math.max(
              0,
              items.findIndex((i) => i.checked),
            ),
          );
          setOpen(!open);
        }}
        className={`${chip} text-fg-muted hover:bg-muted hover:text-fg disabled:opacity-70 ${open ? 'bg-muted text-fg' : ''}`}
      >
        <Icon name="sparkle" size={12} className="shrink-0 text-accent" />
        <span className="truncate">{label}</span>
        <Icon name="chevronDown" size={11} className="shrink-0" />
      </button>
      {open && (
        <ul
          ref={menu}
          id={menuId}
          role="menu"
          aria-label="Choose the model"
          onKeyDown={onKey}
          className="pb-pop absolute bottom-full left-0 z-30 mb-1.5 w-72 rounded-lg border border-line bg-bg p-1 shadow-pop"
        >
          {items.map((item, i) => (
            <li key={item.key} role="none">
              {item.key === '__manage' && <div className="my-1 h-px bg-line" role="separator" />}
              <button
                type="button"
                role={item.checked === undefined ? 'menuitem' : 'menuitemradio'}
                aria-checked={item.checked}
                tabIndex={i === at ? 0 : -1}
                onMouseMove={() => i !== at && setAt(i)}
                onClick={() => pick(item)}
                className={`flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left outline-none ${i === at ? 'bg-muted' : ''}`}
              >
                <span className="grid w-3.5 shrink-0 place-items-center text-accent">
                  {item.checked && <Icon name="check" size={12} />}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-[12.5px] text-fg">{item.label}</span>
                  {item.detail && (
                    <span className="block truncate font-mono text-[10.5px] text-fg-subtle">{item.detail}</span>
                  )}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
