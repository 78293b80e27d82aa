/**
 * File helpers every part of the main process may use (the host, the assistant, the service):
 * atomic JSON writes, a cross-process file lock, and path containment.
 */
export { readJson, withFileLock, writeJsonAtomic } from './files';
export { isInside } from './paths';
