/**
 * Installing without dragging: the "Install plugin…" button (in the header and the plugin
 * panel) and the dialog it opens, which offers a file (a .zip, .mcpb or .dxt package, or an MCP
 * config such as claude_desktop_config.json) or a folder. A browser's file picker takes files or
 * folders, not both, hence two choices; each is a real <input type=file>, so the system picker
 * opens and the chosen items take the same way a drop does.
 */
import { useRef, type JSX } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { isMac, modLabel } from '../../lib/platform';
import { openCatalog } from '../../stores/catalog';
import { cancelInstall, dropToInstall, openInstallPicker, pickFolder } from '../../stores/install';

/** What the file choice accepts; the upload and the server check it again. */
const ACCEPT = '.zip,.mcpb,.dxt,.json,application/zip,application/json';

export function InstallButton({ size = 'md' }: { size?: 'sm' | 'md' }): JSX.Element {
  return (
    <Button
      size={size}
      variant="ghost"
      icon="plus"
      onClick={openInstallPicker}
      title={`Install a plugin from a file or folder (${modLabel()}+I)`}
      aria-keyshortcuts={isMac ? 'Meta+I' : 'Control+I'}
    >
      Install plugin…
    </Button>
  );
}

export function InstallPicker(): JSX.Element {
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  return (
    <Dialog
      title="Install a plugin"
      onClose={cancelInstall}
      width="w-[460px]"
      closeLabel="Cancel"
      footer={<Button onClick={cancelInstall}>Cancel</Button>}
    >
      <p className="text-[13px] text-fg-muted">
        Plugboard shows what the plugin is, what it asks for, and tries it before anything is installed.
      </p>
      <div className="mt-3 grid grid-cols-2 gap-2">
        <button
          type="button"
          data-autofocus
          onClick={() => fileInput.current?.click()}
          className="flex flex-col items-start gap-1 rounded-lg border border-line-strong bg-bg p-3 text-left hover:bg-muted"
        >
          <span className="flex items-center gap-1.5 text-[13px] font-medium text-fg">
            <Icon name="file" size={15} className="text-fg-muted" /> Choose a file…
          </span>
          <span className="text-xs text-fg-muted">
            A .zip, .mcpb or .dxt package, or an MCP config such as claude_desktop_config.json
          </span>
        </button>
        <button
          type="button"
          onClick={() => folderInput.current?.click()}
          className="flex flex-col items-start gap-1 rounded-lg border border-line-strong bg-bg p-3 text-left hover:bg-muted"
        >
          <span className="flex items-center gap-1.5 text-[13px] font-medium text-fg">
            <Icon name="folder" size={15} className="text-fg-muted" /> Choose a folder…
          </span>
          <span className="text-xs text-fg-muted">A plugin folder, with its manifest at the top</span>
        </button>
      </div>
      <button
        type="button"
        onClick={() => {
          cancelInstall();
          openCatalog();
        }}
        className="mt-2 flex w-full items-center gap-2 rounded-lg border border-line-strong bg-bg p-3 text-left hover:bg-muted"
      >
        <Icon name="search" size={15} className="shrink-0 text-fg-muted" />
        <span className="min-w-0">
          <span className="block text-[13px] font-medium text-fg">Browse the catalog…</span>
          <span className="block text-xs text-fg-muted">
            MCP servers of the MCP registry, installed pinned to the version it lists
          </span>
        </span>
      </button>
      <p className="mt-3 text-[11px] text-fg-subtle">You can also drop any of these on the window.</p>
      {/* Hidden from sight and from Tab: the buttons above open them. */}
      <input
        ref={fileInput}
        type="file"
        accept={ACCEPT}
        aria-label="Plugin file"
        tabIndex={-1}
        className="sr-only"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void dropToInstall([{ file, isDirectory: false }]);
        }}
      />
      <input
        ref={folderInput}
        type="file"
        // Not in React's typings; every browser and Electron support it.
        {...{ webkitdirectory: '' }}
        aria-label="Plugin folder"
        tabIndex={-1}
        className="sr-only"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          if (files.length > 0) void pickFolder(files);
        }}
      />
    </Dialog>
  );
}
