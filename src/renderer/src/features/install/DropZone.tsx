/**
 * Window-wide drag and drop: dragging files over the window shows the drop overlay, dropping
 * hands the item to the install store. Folders are recognised through the entry API, which must
 * be read during the drop event itself.
 */
import { useEffect, useState, type JSX } from 'react';
import { Icon } from '../../components/Icon';
import { dropToInstall, type DroppedItem } from '../../stores/install';

function carriesFiles(e: DragEvent): boolean {
  return !!e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files');
}

function droppedItems(dt: DataTransfer): DroppedItem[] {
  const out: DroppedItem[] = [];
  for (const item of Array.from(dt.items)) {
    if (item.kind !== 'file') continue;
    const file = item.getAsFile();
    if (!file) continue;
    out.push({ file, isDirectory: item.webkitGetAsEntry()?.isDirectory ?? false });
  }
  if (out.length === 0) for (const file of Array.from(dt.files)) out.push({ file, isDirectory: false });
  return out;
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
      void dropToInstall(droppedItems(e.dataTransfer));
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
        <p className="text-[15px] font-semibold text-fg">Drop to install</p>
        <p className="text-xs text-fg-muted">
          A plugin folder, a .zip, .mcpb or .dxt file, or an MCP config (claude_desktop_config.json)
        </p>
      </div>
    </div>
  );
}
