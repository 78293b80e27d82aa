/**
 * The service's door: the one implementation of the contract's commands and events
 * (src/shared/contract.ts) that both transports (Electron IPC, the WebSocket server) and the CLI
 * call.
 */
export { Backend, type BackendEvent, type BackendOptions } from './backend';
// MCP App pages, staged by the service and served on the frame origin by whichever transport runs.
export { AppFrames, pageHeaders, type StagedPage } from './app-frames';
