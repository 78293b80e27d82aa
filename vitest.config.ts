import { defineConfig } from 'vitest/config';

// Unit and integration tests. They start real child processes, so files run in a few workers
// only: the machines have two cores and noisy neighbours.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'sdk/node/test/**/*.test.ts', 'plugins/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/.tmp/**'],
    pool: 'forks',
    maxWorkers: 2,
    // Memory-bound checks call gc() before they measure.
    execArgv: ['--expose-gc'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
