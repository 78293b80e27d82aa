/** The contract bound to Electron's IPC (handle.ts). */
export { bindContract } from './handle';
