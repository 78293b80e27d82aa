/**
 * File helpers every part of the main process may use (the host, the assistant, the service):
 * atomic JSON writes, a cross-process file lock, path containment, and who a process is (pid and
 * start time, from /proc).
 */
export { readJson, withFileLock, writeJsonAtomic } from './files';
export { isInside } from './paths';
export {
  bootId,
  hasProcFs,
  identityOf,
  procStat,
  startTimeOf,
  stillRunning,
  type ProcessIdentity,
  type ProcStat,
} from './process-identity';
