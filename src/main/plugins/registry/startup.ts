/**
 * What a registry does before anything else when it opens a data directory: make it private
 * (permissions.ts), stop the plugin processes a Plugboard that was killed left running
 * (pid-registry.ts), and clear what killed installs left in the staging area (staging-area.ts).
 * Each thing done is said in one line, for the person starting Plugboard.
 */
import { sweepLeftovers, type ProcessBook, type ProcessEntry } from '../../host';
import { cleanStaleStaging } from '../install/staging-area';
import type { DataPaths } from '../data-paths';
import { secureDataDir } from './permissions';

function listed(entries: ProcessEntry[]): string {
  return entries.map((e) => `${e.plugin} (pid ${e.pid})`).join(', ');
}

export async function startupHousekeeping(paths: DataPaths, processes: ProcessBook): Promise<string[]> {
  const notes = secureDataDir(paths.root);
  const swept = await sweepLeftovers(paths.processes, { except: processes.file });
  if (swept.stopped.length > 0)
    notes.push(`stopped plugin processes a previous Plugboard left running: ${listed(swept.stopped)}`);
  if (swept.spared.length > 0)
    notes.push(`left alone, as their pids now belong to other programs: ${listed(swept.spared)}`);
  notes.push(...cleanStaleStaging(paths));
  return notes;
}
