import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests. The web UI is tested against `plugboard serve` in Debian's Chromium (no
 * browser download: Playwright drives /usr/bin/chromium); the same scenarios run against the
 * Electron app where an Electron binary exists, and are skipped there, saying why, otherwise.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-default-apps',
];

export default defineConfig({
  testDir: 'e2e',
  testMatch: /.*\.spec\.ts$/,
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['line']] : [['list']],
  outputDir: 'test-results',
  use: {
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    launchOptions: { executablePath: process.env.PLUGBOARD_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
});
