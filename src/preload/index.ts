// Builds window.plugboard from the contract (filled in by the desktop app issue).
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('plugboard', {});
