/**
 * What a registry does before anything else when it opens a data directory: make it private
 * (permissions.ts), stop the plugin processes a Plugboard that was killed left running
 * (pid-registry.ts), and clear what killed installs left in the staging area (staging-area.ts).
 * Each thing done is said in one line, for the person starting Plugboard.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { failure, FailureError } from '../../../shared/failures';
import { sweepLeftovers, type ProcessBook, type ProcessEntry } from '../../host';
import { cleanStaleStaging } from '../install/staging-area';
import type { DataPaths } from '../data-paths';
import { secureDataDir } from './permissions';

/**
 * A data directory that cannot be one (a file, or a path through a file) is refused with what to
 * do, before anything tries to write in it: a stack trace from deep inside says nothing.
 */
function usableDataDir(root: string): void {
  let at = root;
  for (;;) {
    let st;
    try {
      st = statSync(at);
    } catch {
      const up = path.dirname(at);
      if (up === at) return;
      at = up;
      continue;
    }
    if (st.isDirectory()) return;
    throw new FailureError(
      failure(
        'invalid_input',
        at === root
          ? `the data directory ${root} is a file, not a folder: give --data-dir (or PLUGBOARD_HOME) a folder, or a path that does not exist yet`
          : `the data directory ${root} cannot be made: ${at} is a file, not a folder`,
      ),
    );
  }
}

function listed(entries: ProcessEntry[]): string {
  return entries.map((e) => `${e.plugin} (pid ${e.pid})`).join(', ');
}

export async function startupHousekeeping(paths: DataPaths, processes: ProcessBook): Promise<string[]> {
  usableDataDir(paths.root);
  const notes = secureDataDir(paths.root);
  const swept = await sweepLeftovers(paths.processes, { except: processes.file });
  if (swept.stopped.length > 0)
    notes.push(`stopped plugin processes a previous Plugboard left running: ${listed(swept.stopped)}`);
  if (swept.spared.length > 0)
    notes.push(`left alone, as their pids now belong to other programs: ${listed(swept.spared)}`);
  notes.push(...cleanStaleStaging(paths));
  return notes;
}
