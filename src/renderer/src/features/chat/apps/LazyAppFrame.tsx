/**
 * An MCP App's frame, loaded when a card first shows one: the extension's bridge and the MCP
 * SDK's protocol class are a chunk of their own (AppFrame.tsx), so conversations without Apps
 * never load them. Until the chunk is in, the card says the App is loading.
 */
import { lazy, Suspense, type JSX } from 'react';
import type { ChatMessage } from '../../../../../shared/contract';
import { Spinner } from '../../../components/Spinner';

const Real = lazy(() => import('./AppFrame').then((m) => ({ default: m.AppFrame })));

export function AppFrame(p: { m: ChatMessage; pluginName: string; onShown?: (shown: boolean) => void }): JSX.Element {
  return (
    <Suspense
      fallback={
        <p className="flex h-[120px] items-center justify-center gap-2 text-xs text-fg-subtle" data-app-state="loading">
          <Spinner size={12} /> Loading the App…
        </p>
      }
    >
      <Real {...p} />
    </Suspense>
  );
}
