/**
 * A fresh scripted model server for each vitest test, closed when the test ends: as a fixture
 * (`test('…', async ({ modelServer }) => …)`) or, for a server with options, from inside a test
 * (`await startModelServer({ apiKey })`).
 */
import { onTestFinished, test as base } from 'vitest';
import { ModelServer, type ModelServerOptions } from './server';

export const test = base.extend<{ modelServer: ModelServer }>({
  // vitest reads a fixture's first parameter to learn what it depends on; this one needs nothing.
  // eslint-disable-next-line no-empty-pattern
  modelServer: async ({}, use) => {
    const server = await ModelServer.start();
    await use(server);
    await server.close();
  },
});

/** Starts a server that closes when the current test finishes. Call it inside a test. */
export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const server = await ModelServer.start(options);
  onTestFinished(() => server.close());
  return server;
}
