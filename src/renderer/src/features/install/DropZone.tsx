/**
 * Window-wide drag and drop: dragging files over the window shows the drop overlay; a drop is
 * routed by what it holds (stores/drops.ts): plugins are installed, one after another, other
 * files attached to the message. Folders are recognised through the entry API, which must be
 * read during the drop event itself.
 */
import { useEffect, useState, type JSX } from 'react';
import { Icon } from '../../components/Icon';
import { droppedItems, routeDrop } from '../../stores/drops';

function carriesFiles(e: DragEvent): boolean {
  return !!e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files');
}

export function DropZone(): JSX.Element | null {
  const [over, setOver] = useState(false);
  useEffect(() => {
    // Enter and leave fire for every child crossed; a depth count tells when the window is left.
    let depth = 0;
    const enter = (e: DragEvent): void => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth++;
      setOver(true);
    };
    const overFn = (e: DragEvent): void => {
      if (!carriesFiles(e)) return;
      // Without this the browser would open the file in place of the app.
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent): void => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const drop = (e: DragEvent): void => {
      if (!carriesFiles(e) || !e.dataTransfer) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      routeDrop(droppedItems(e.dataTransfer), false);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', overFn);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);
  if (!over) return null;
  return (
    <div
      className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-overlay p-6"
      aria-hidden="true"
    >
      <div className="pb-pop flex h-full max-h-[360px] w-full max-w-[560px] flex-col items-center justify-center gap-2 rounded-2xl border-2 border-dashed border-accent bg-bg/95 shadow-pop">
        <Icon name="box" size={28} className="text-accent" />
        <p className="text-[15px] font-semibold text-fg">Drop to install, or to attach</p>
        <p className="px-6 text-center text-xs text-fg-muted">
          A plugin folder, a .zip, .mcpb or .dxt file, or an MCP config (claude_desktop_config.json) is installed; any
          other file is attached to your message
        </p>
      </div>
    </div>
  );
}
