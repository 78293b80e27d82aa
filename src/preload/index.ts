/**
 * Builds window.plugboard from the contract, and exposes nothing else: no ipcRenderer, no node.
 * Commands and event names are checked against the contract here too, so the page cannot reach
 * any channel but the two the contract declares.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import {
  EVENT_NAMES,
  IPC_EVENT,
  IPC_INVOKE,
  isCommandName,
  type EventName,
  type PlugboardApi,
} from '../shared/contract';

const listeners = new Map<EventName, Set<(payload: unknown) => void>>();

ipcRenderer.on(IPC_EVENT, (_event, name: EventName, payload: unknown) => {
  for (const l of listeners.get(name) ?? []) l(payload);
});

const api: PlugboardApi = {
  invoke: (name, input) => {
    if (!isCommandName(name)) return Promise.reject(new Error(`unknown command "${String(name)}"`));
    return ipcRenderer.invoke(IPC_INVOKE, name, input);
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
