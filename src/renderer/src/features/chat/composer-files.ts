/**
 * The composer's attached files: added by the paperclip's picker or by a drop on the composer,
 * checked as they come (a refusal names the file and the cap, in a line under the chips), removed
 * one by one, and handed to sendText with the message; the files of a refused message come
 * back here (or go again with Retry, which takes them from here). A drop on the composer stops
 * there (the window's drop handling never sees it) and is routed by what it holds: files are
 * attached, plugin packages installed (stores/drops.ts).
 */
import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { draftsOf, onComposerFiles, type AttachmentDraft } from '../../stores/chat/attachments';
import { droppedItems, routeDrop } from '../../stores/drops';

function carriesFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer.types).includes('Files');
}

export function useComposerFiles() {
  const [drafts, setDrafts] = useState<AttachmentDraft[]>([]);
  const [refused, setRefused] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  // The latest list, for adds that finish reading after another add or a remove.
  const current = useRef<AttachmentDraft[]>([]);
  const set = (next: AttachmentDraft[]): void => {
    current.current = next;
    setDrafts(next);
  };

  const add = useCallback(async (files: readonly File[]): Promise<void> => {
    if (files.length === 0) return;
    const r = await draftsOf(files, current.current);
    set([...current.current, ...r.added]);
    setRefused(r.refused);
  }, []);
  const addRef = useRef(add);

  // A refused send gives its files back; Retry takes them again; a file dropped elsewhere on the
  // window that is not a plugin is attached here (stores/chat/attachments.ts, stores/drops.ts).
  useEffect(
    () =>
      onComposerFiles((change) => {
        const now = current.current;
        if ('attach' in change) void addRef.current(change.attach);
        else if ('back' in change) {
          const have = new Set(now.map((d) => d.key));
          set([...now, ...change.back.filter((d) => !have.has(d.key))]);
        } else if (now.some((d) => change.resent.has(d.key))) set(now.filter((d) => !change.resent.has(d.key)));
      }),
    [],
  );

  const remove = (key: string): void => {
    set(current.current.filter((d) => d.key !== key));
    setRefused([]);
  };

  /** Takes the files for sending and empties the composer (a refused send gives them back). */
  const take = (): AttachmentDraft[] => {
    const out = current.current;
    set([]);
    setRefused([]);
    return out;
  };

  const dropProps = {
    onDragEnter: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      e.stopPropagation();
      depth.current++;
      setDragging(true);
    },
    onDragOver: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      e.stopPropagation();
      e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.stopPropagation();
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      e.stopPropagation();
      depth.current = 0;
      setDragging(false);
      // A plugin dropped here is installed, not attached (stores/drops.ts).
      void add(routeDrop(droppedItems(e.dataTransfer), true));
    },
  };

  return { drafts, refused, dragging, add, remove, take, dropProps };
}
