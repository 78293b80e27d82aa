/** Says a finished result in the live region: the glue between the chat store and the announcer. */
import type { ChatMessage } from '../../../shared/contract';
import { announce, resultAnnouncement } from './announcer';
import { usePlugins } from './plugins';

export function announceResult(before: ChatMessage | undefined, after: ChatMessage): void {
  const byId = usePlugins.getState().byId;
  const said = resultAnnouncement(before, after, (id) => byId[id]?.name ?? id);
  if (said) announce(said);
}
