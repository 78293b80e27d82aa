/**
 * The paperclip and the hidden file input it opens, for the composer and the edit box alike: the
 * picked files go to `onFiles`, and the input is emptied so the same file can be picked again.
 */
import { useRef, type JSX } from 'react';
import { IconButton } from '../../components/Button';

export function AttachButton({
  inputLabel,
  onFiles,
  showButton = true,
  testId,
}: {
  /** The input's accessible name (tests set files on it). */
  inputLabel: string;
  onFiles: (files: File[]) => void;
  /** Hidden where files cannot go (passthrough); the input stays, as a drop still needs nothing of it. */
  showButton?: boolean;
  testId?: string;
}): JSX.Element {
  const picker = useRef<HTMLInputElement>(null);
  return (
    <>
      {showButton && (
        <IconButton icon="paperclip" label="Attach files" size="sm" onClick={() => picker.current?.click()} />
      )}
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        aria-label={inputLabel}
        data-testid={testId}
        onChange={(e) => {
          onFiles(Array.from(e.target.files ?? []));
          e.target.value = '';
        }}
      />
    </>
  );
}
