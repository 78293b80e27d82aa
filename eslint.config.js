// ESLint flat config. Besides the recommended TypeScript rules it enforces the layering of
// ARCHITECTURE.md: electron stays in main/app, main/ipc, main/index.ts and preload; shared
// imports nothing from node, DOM or electron; host knows only shared and main/fs, and everything
// outside the host reaches it through its one door (host/index.ts); the assistant knows the host,
// the service knows both, the transports know the service; renderer knows only shared. Source
// files of the main process stay under 300 lines (one concern each). Import cycles are checked by
// dpdm in `npm run lint`.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const electron = { name: 'electron', message: 'Only src/main/app, src/main/ipc, src/main/index.ts and src/preload may import electron.' };
const noElectron = { paths: [electron], patterns: [{ group: ['electron/*'], message: electron.message }] };
/** Outside src/main/host, the host is imported only through src/main/host/index.ts. */
const oneDoor = { regex: '(^|/)host/(?!index$).+', message: 'Import the host through its one door: src/main/host (index.ts).' };
const layer = (forbidden, message) => ({ group: forbidden.map((f) => `**/${f}/**`), message });

export default tseslint.config(
  {
    ignores: ['node_modules/', 'out/', '**/dist/', 'release/', 'test/.tmp/', 'test-results/', 'playwright-report/', 'sdk/python/', '**/*.py'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron],
          patterns: [
            { group: ['electron/*', 'node:*'], message: 'The renderer runs in a browser: no node or electron.' },
            { group: ['**/main/**', '**/preload/**'], message: 'The renderer talks to main only through the contract in src/shared.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electron],
          patterns: [
            { group: ['electron/*', 'node:*', 'fs', 'path', 'os', 'child_process'], message: 'src/shared is pure TypeScript.' },
            { group: ['**/main/**', '**/renderer/**', '**/preload/**'], message: 'src/shared depends on nothing else in src.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/main/host/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...noElectron,
          patterns: [
            ...noElectron.patterns,
            { group: ['**/app/**', '**/ipc/**', '**/server/**', '**/cli/**', '**/assistant/**', '**/service/**', '**/renderer/**'], message: 'The host depends only on src/shared and src/main/fs.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/main/assistant/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { ...noElectron, patterns: [...noElectron.patterns, oneDoor, layer(['app', 'ipc', 'renderer', 'service', 'server', 'cli'], 'The assistant depends on the host and shared only.')] },
      ],
    },
  },
  {
    files: ['src/main/service/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { ...noElectron, patterns: [...noElectron.patterns, oneDoor, layer(['app', 'ipc', 'renderer', 'server', 'cli'], 'The service depends on the assistant, the host and shared only.')] },
      ],
    },
  },
  {
    files: ['src/main/server/**/*.ts', 'src/main/cli/**/*.ts', 'src/main/fs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { ...noElectron, patterns: [...noElectron.patterns, oneDoor, layer(['app', 'ipc', 'renderer'], 'Server, CLI and file helpers do not depend on the Electron app.')] },
      ],
    },
  },
  {
    files: ['src/main/app/**/*.ts', 'src/main/ipc/**/*.ts', 'src/main/index.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [oneDoor, layer(['renderer'], 'The main process talks to the renderer only through the contract.')] }] },
  },
  {
    files: ['src/main/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['test/fixtures/**/*.{js,mjs}', 'plugins/**/*.{js,mjs}', 'sdk/node/**/*.{js,mjs}', 'bin/**/*.mjs', 'scripts/**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
