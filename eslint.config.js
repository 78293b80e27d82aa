// ESLint flat config. Besides the recommended TypeScript rules it enforces the layering of
// docs/ARCHITECTURE.md. The main process is one downward stack:
//   index.ts, cli -> server, mcp-server, ipc, app -> service -> assistant -> plugins -> host -> fs, shared
// and each folder of it is entered through its door (its index.ts) only: a file outside a folder
// never imports past that folder's index.ts. electron stays in main/app, main/ipc, main/index.ts
// and preload; shared imports nothing from node, DOM or electron; the renderer knows only shared.
// Source files of the main process stay under 300 lines (one concern each) unless the file says,
// in an eslint-disable line with its reason, that it holds one whole concern. Import cycles are
// checked by dpdm and formatting by Prettier, both in `npm run lint`.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const electron = {
  name: 'electron',
  message: 'Only src/main/app, src/main/ipc, src/main/index.ts and src/preload may import electron.',
};
const noElectron = [{ group: ['electron/*'], message: electron.message }];
/** The folders of the main process with a door: from outside, only their index.ts is imported. */
const DOORS = ['host', 'plugins', 'assistant', 'store', 'service', 'server', 'mcp-server', 'app', 'ipc', 'fs'];
const doors = (own) =>
  DOORS.filter((d) => d !== own).map((d) => ({
    regex: `^(\\.{1,2}/)+(.*/)?${d}/(?!index$).+`,
    message: `Import ${d}/ through its door (${d}/index.ts): see docs/ARCHITECTURE.md.`,
  }));
/** Folders a layer may not import at all (it stands below them, or they are not its business). */
const layer = (forbidden, message) => ({ regex: `^(\\.{1,2}/)+(${forbidden.join('|')})(/|$)`, message });
/** The import rules of one folder of the main process. */
const mainFolder = (files, own, forbidden, message, withElectron = false) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        ...(withElectron ? {} : { paths: [electron] }),
        patterns: [
          ...(withElectron ? [] : noElectron),
          ...doors(own),
          layer([...forbidden, 'renderer', 'preload'], message),
        ],
      },
    ],
  },
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      '**/dist/',
      'release/',
      'test/.tmp/',
      'test-results/',
      'playwright-report/',
      'sdk/python/',
      '**/*.py',
    ],
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
            {
              group: ['**/main/**', '**/preload/**'],
              message: 'The renderer talks to main only through the contract in src/shared.',
            },
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
            {
              group: ['electron/*', 'node:*', 'fs', 'path', 'os', 'child_process'],
              message: 'src/shared is pure TypeScript.',
            },
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**'],
              message: 'src/shared depends on nothing else in src.',
            },
          ],
        },
      ],
    },
  },
  mainFolder(
    ['src/main/fs/**/*.ts'],
    'fs',
    ['host', 'plugins', 'assistant', 'service', 'server', 'cli', 'app', 'ipc'],
    'File helpers depend on nothing else of the main process.',
  ),
  mainFolder(
    ['src/main/host/**/*.ts'],
    'host',
    ['plugins', 'assistant', 'service', 'server', 'cli', 'app', 'ipc'],
    'The host depends only on src/shared and src/main/fs: it never imports the plugin service above it.',
  ),
  mainFolder(
    ['src/main/plugins/**/*.ts'],
    'plugins',
    ['assistant', 'service', 'server', 'cli', 'app', 'ipc'],
    'The plugin service depends on the host, fs and shared only.',
  ),
  mainFolder(
    ['src/main/assistant/**/*.ts'],
    'assistant',
    ['host', 'service', 'server', 'cli', 'app', 'ipc'],
    'The assistant depends on the plugin service (never the host directly), fs and shared.',
  ),
  mainFolder(
    ['src/main/assistant/store/**/*.ts'],
    'store',
    ['host', 'plugins', 'service', 'server', 'cli', 'app', 'ipc'],
    'The conversation store depends on fs and shared only.',
  ),
  mainFolder(
    ['src/main/service/**/*.ts'],
    'service',
    ['host', 'server', 'cli', 'app', 'ipc'],
    'The service depends on the assistant and the plugin service, never the host directly.',
  ),
  mainFolder(
    ['src/main/mcp-server/**/*.ts'],
    'mcp-server',
    ['host', 'server', 'cli', 'app', 'ipc'],
    'The MCP server stands beside server/ and cli/, on the service, the assistant and the plugin service; it never reaches the host.',
  ),
  mainFolder(
    ['src/main/server/**/*.ts', 'src/main/cli/**/*.ts'],
    'server',
    ['host', 'app', 'ipc'],
    'The server and the CLI stand on the service; they never reach the host or the Electron app.',
  ),
  mainFolder(
    ['src/main/app/**/*.ts', 'src/main/ipc/**/*.ts', 'src/main/index.ts'],
    'app',
    ['host', 'cli'],
    'The Electron app stands on the service.',
    true,
  ),
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: [
      'test/fixtures/**/*.{js,mjs}',
      'plugins/**/*.{js,mjs}',
      'sdk/node/**/*.{js,mjs}',
      'bin/**/*.mjs',
      'scripts/**/*.mjs',
    ],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
