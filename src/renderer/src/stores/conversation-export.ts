/** Saves a conversation as a Markdown or JSON file, read whole from the main process first. */
import { getApi } from '../api';
import { downloadText } from '../lib/files';
import { conversationJson, conversationMarkdown, exportFileName, type ExportFormat } from '../lib/conversation-export';
import { usePlugins } from './plugins';
import { errorText, toastError } from './toasts';

export async function exportConversation(id: string, format: ExportFormat): Promise<boolean> {
  try {
    const c = await getApi().invoke('chat.get', { id });
    if (!c) {
      toastError('Could not export: the conversation no longer exists');
      return false;
    }
    const names = usePlugins.getState().byId;
    const text =
      format === 'markdown' ? conversationMarkdown(c, (pid) => names[pid]?.name ?? pid) : conversationJson(c);
    downloadText(exportFileName(c.title, format), text);
    return true;
  } catch (e) {
    toastError(`Could not export the conversation: ${errorText(e)}`);
    return false;
  }
}
