/**
 * A person's Shut down, remembered (issue 21): kept in the state file, so a persistent plugin they
 * shut down is not started again when Plugboard starts; their start (or restart) ends it. It is
 * not a decision about what the plugin may do, so it has no audit line.
 */
import type { Decisions } from './decisions';

/** The health reason of a plugin the person shut down before Plugboard last stopped. */
export const SHUT_DOWN_KEPT = 'shut down by you before Plugboard last stopped; start it when you need it';

/** Writes down (or clears) a person's Shut down; a failed write leaves only the memory of it lost. */
export async function rememberShutDown(decisions: Decisions, id: string, down: boolean): Promise<void> {
  if ((decisions.pluginState(id).shutDown === true) === down) return;
  try {
    await decisions.update(id, (s) => {
      if (down) s.shutDown = true;
      else delete s.shutDown;
    });
  } catch {
    // The plugin is stopped (or started) all the same.
  }
}
