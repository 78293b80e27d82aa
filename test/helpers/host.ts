/**
 * The usual test host: one RecordingHost per test file; after each test every plugin is stopped
 * and no process of them may be left running; after the file the scratch plugins are removed.
 */
import { afterAll, afterEach, expect } from 'vitest';
import { RecordingHost } from './calls';
import { cleanupFixtures } from './plugins';
import { leftovers } from './processes';

export function useTestHost(): RecordingHost {
  const host = new RecordingHost();
  afterEach(async () => {
    await host.shutdown();
    expect(await leftovers()).toEqual([]);
    // The state machine was never asked for a move it does not allow.
    expect(
      host.logs.filter((l) => /illegal health change/.test(l.message)).map((l) => `${l.pluginId}: ${l.message}`),
    ).toEqual([]);
  });
  afterAll(() => {
    host.dispose();
    cleanupFixtures();
  });
  return host;
}
