/** The Electron app's door (with ipc/, the only code that imports electron): its window and session, and the OS secret store. */
export { appSecretStore } from './secret-store';
export { createWindow, isAppUrl, secureSession } from './window';
export { registerAppFrameScheme, serveAppFrames } from './app-frames';
