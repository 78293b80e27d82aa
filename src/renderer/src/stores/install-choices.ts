/**
 * What the person chooses in an install or import preview, before confirming: the capabilities
 * to grant, the folders and files offered (granted or not, read-write or read-only), and for an
 * import which servers, which names are secret, and which servers get the network. The phase
 * itself (what is shown, and the commands) is stores/install.ts's.
 */
import { phase, setPhase, type FolderChoice } from './install';

function changeFolder(list: FolderChoice[], path: string, change: Partial<FolderChoice>): FolderChoice[] {
  return list.map((f) => (f.path === path ? { ...f, ...change } : f));
}

/** Grants a path offered in the preview, or not; read-write or read-only. `server`: an import's server. */
export function setFolderChoice(
  path: string,
  change: Partial<Pick<FolderChoice, 'granted' | 'write'>>,
  server?: string,
): void {
  const p = phase();
  if (p.step === 'preview' && server === undefined) setPhase({ ...p, folders: changeFolder(p.folders, path, change) });
  const a = p.step === 'import' && server !== undefined ? p.access[server] : undefined;
  if (p.step === 'import' && server !== undefined && a)
    setPhase({ ...p, access: { ...p.access, [server]: { ...a, folders: changeFolder(a.folders, path, change) } } });
}

export function toggleImportNet(server: string): void {
  const p = phase();
  const a = p.step === 'import' ? p.access[server] : undefined;
  if (p.step === 'import' && a) setPhase({ ...p, access: { ...p.access, [server]: { ...a, net: !a.net } } });
}

export function toggleImportCopy(server: string): void {
  const p = phase();
  const a = p.step === 'import' ? p.access[server] : undefined;
  if (p.step === 'import' && a) setPhase({ ...p, access: { ...p.access, [server]: { ...a, copy: !a.copy } } });
}

export function toggleImportServer(key: string): void {
  const p = phase();
  if (p.step !== 'import') return;
  setPhase({ ...p, chosen: p.chosen.includes(key) ? p.chosen.filter((k) => k !== key) : [...p.chosen, key] });
}

export function toggleImportSecret(name: string): void {
  const p = phase();
  if (p.step !== 'import') return;
  setPhase({ ...p, secret: p.secret.includes(name) ? p.secret.filter((k) => k !== name) : [...p.secret, name] });
}

export function toggleGrant(capability: string): void {
  const p = phase();
  if (p.step !== 'preview') return;
  const grants = p.grants.includes(capability) ? p.grants.filter((g) => g !== capability) : [...p.grants, capability];
  setPhase({ ...p, grants });
}
