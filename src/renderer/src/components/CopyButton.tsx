/** Copies text and says so briefly, in the button itself. */
import { useEffect, useState, type JSX } from 'react';
import { copyText } from '../lib/files';
import { Button } from './Button';

export function CopyButton({
  text,
  label = 'Copy',
  title,
}: {
  text: () => string;
  label?: string;
  title?: string;
}): JSX.Element {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <Button
      size="sm"
      variant="ghost"
      icon={state === 'copied' ? 'check' : 'copy'}
      title={title}
      onClick={() => void copyText(text()).then((ok) => setState(ok ? 'copied' : 'failed'))}
    >
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}</span>
    </Button>
  );
}
