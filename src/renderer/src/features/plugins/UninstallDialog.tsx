/** Confirmation before removing an installed plugin and its files. */
import { useState, type JSX } from 'react';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { collapseDetail } from '../../stores/plugin-detail';
import { uninstallPlugin } from '../../stores/plugins';

export function UninstallDialog({ id, name, onClose }: { id: string; name: string; onClose: () => void }): JSX.Element {
  const [working, setWorking] = useState(false);
  const confirm = async (): Promise<void> => {
    setWorking(true);
    const ok = await uninstallPlugin(id);
    setWorking(false);
    if (ok) {
      collapseDetail(id);
      onClose();
    }
  };
  return (
    <Dialog
      title={`Uninstall ${name}?`}
      onClose={onClose}
      width="w-[420px]"
      footer={
        <>
          <Button onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button variant="danger" icon="trash" disabled={working} onClick={() => void confirm()}>
            Uninstall {name}
          </Button>
        </>
      }
    >
      <p className="text-[13px] text-fg-muted">
        The plugin is stopped and its folder is removed from Plugboard’s data directory. Its settings and grants go with
        it. You can install it again by dropping its package.
      </p>
    </Dialog>
  );
}
