/** Export a conversation: Markdown to read and share, or JSON with everything stored. */
import { type JSX } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { exportConversation } from '../../stores/conversation-export';

export function ExportDialog({ id, title, onClose }: { id: string; title: string; onClose: () => void }): JSX.Element {
  const run = (format: 'markdown' | 'json'): void => {
    onClose();
    void exportConversation(id, format);
  };
  return (
    <Dialog
      title="Export conversation"
      width="w-[420px]"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button icon="download" onClick={() => run('json')}>
            JSON
          </Button>
          <Button variant="primary" icon="download" data-autofocus onClick={() => run('markdown')}>
            Markdown
          </Button>
        </>
      }
    >
      <p className="text-[13px] text-fg-muted">
        Save “{title || 'Untitled'}” as a file: Markdown to read or share, JSON with every detail the app stored
        (arguments, results, failures, times).
      </p>
    </Dialog>
  );
}
