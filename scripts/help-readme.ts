/**
 * Writes the README's "Help in the app" section from src/shared/help.ts (the app's Help page), so
 * the two say the same: `npx tsx scripts/help-readme.ts`. test/renderer/help-text.test.ts checks it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpAsMarkdown, README_HELP_END, README_HELP_START } from '../src/shared/help';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');
const readme = readFileSync(file, 'utf8');
const block = `${README_HELP_START}\n\n${helpAsMarkdown()}\n\n${README_HELP_END}`;
const start = readme.indexOf(README_HELP_START);
const end = readme.indexOf(README_HELP_END);
const intro =
  "## Help in the app\n\nThe Help page (F1, `?`, or the toolbar's help button) says what Plugboard is, how to add a model,\ninstall a plugin and read the plugin panel, what each failure code means, and lists the keyboard\nshortcuts. It is this text:\n\n";
const next =
  start !== -1
    ? readme.slice(0, start) + block + readme.slice(end + README_HELP_END.length)
    : readme.replace('## The assistant\n', `${intro}${block}\n\n## The assistant\n`);
writeFileSync(file, next);
