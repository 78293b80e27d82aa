/**
 * What the palette says of a tool whose plugin cannot simply run it now (issue 12): the plugin was
 * stopped, gave up (failed, with its failure code), or needs settings first. From the plugin
 * views the renderer already has; pure, so it is tested without a page.
 */
import type { PluginView } from '../../../shared/contract';

export interface EntryStatus {
  /** The short badge. */
  badge: string;
  /** The accessible description, in words. */
  description: string;
  tone: 'warn' | 'bad' | 'idle';
}

export function entryStatus(p: PluginView | undefined): EntryStatus | null {
  if (!p) return null;
  const state = p.health.state;
  if (state === 'failed' || state === 'crashed') {
    const code = p.health.failure?.code ?? state;
    return { badge: state, description: `failed: ${code}`, tone: 'bad' };
  }
  if (p.needsSettings.length > 0)
    return { badge: 'settings', description: `needs settings (${p.needsSettings.join(', ')})`, tone: 'warn' };
  // A plugin that is not persistent starts for each call: stopped is how it rests, not news.
  if (state === 'stopped' && p.persistent) return { badge: 'stopped', description: 'plugin stopped', tone: 'idle' };
  return null;
}
