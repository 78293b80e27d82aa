/**
 * Builds window.plugboard from the contract, and exposes nothing else: no ipcRenderer, no node.
 * Commands and event names are checked against the contract here too, so the page cannot reach
 * any channel but the two the contract declares. A command answers with the contract's Answer,
 * which the renderer unwraps (src/renderer/src/api/index.ts).
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import {
  EVENT_NAMES,
  IPC_EVENT,
  IPC_INVOKE,
  isCommandName,
  type Answer,
  type EventName,
  type PlugboardBridge,
} from '../shared/contract';
import { failure } from '../shared/failures';

const listeners = new Map<EventName, Set<(payload: unknown) => void>>();

ipcRenderer.on(IPC_EVENT, (_event, name: EventName, payload: unknown) => {
  for (const l of listeners.get(name) ?? []) l(payload);
});

const api: PlugboardBridge = {
  invoke: (name, input): Promise<Answer> => {
    if (!isCommandName(name)) return Promise.resolve(failure('invalid_input', `unknown command "${String(name)}"`));
    return ipcRenderer.invoke(IPC_INVOKE, name, input) as Promise<Answer>;
  },
  on: (name, listener) => {
    if (!EVENT_NAMES.includes(name)) throw new Error(`unknown event "${String(name)}"`);
    let set = listeners.get(name);
    if (!set) listeners.set(name, (set = new Set()));
    const l = listener as (payload: unknown) => void;
    set.add(l);
    return () => set.delete(l);
  },
  pathForFile: (file) => webUtils.getPathForFile(file as File),
};

contextBridge.exposeInMainWorld('plugboard', api);
