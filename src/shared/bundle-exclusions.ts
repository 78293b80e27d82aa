/**
 * What a folder install leaves out, as the mcpb CLI does when it packs a bundle (`mcpb pack`,
 * src/node/files.ts in anthropics/mcpb), in gitignore syntax. Shared by the host's folder copy
 * (registry/install/exclusions.ts) and the web UI, which packs a picked folder before uploading
 * it: both install the same files.
 */
/** The mcpb CLI's list, in its order (its `.env.local` and `.env.*.local` are already `.env*`). */
export const BUNDLE_EXCLUSIONS: readonly string[] = [
  '.DS_Store',
  'Thumbs.db',
  '.gitignore',
  '.git',
  '.mcpbignore',
  '*.log',
  '.env*',
  '.npm',
  '.npmrc',
  '.yarnrc',
  '.yarn',
  '.eslintrc',
  '.editorconfig',
  '.prettierrc',
  '.prettierignore',
  '.eslintignore',
  '.nycrc',
  '.babelrc',
  '.pnp.*',
  'node_modules/.cache',
  'node_modules/.bin',
  '*.map',
  'npm-debug.log*',
  'yarn-debug.log*',
  'yarn-error.log*',
  'package-lock.json',
  'yarn.lock',
  '*.mcpb',
  '*.d.ts',
  '*.tsbuildinfo',
  'tsconfig.json',
];
