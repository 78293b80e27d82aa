/**
 * The app's Help page and the README say the same where they overlap: the README's "Help in the
 * app" is src/shared/help.ts, word for word, failure codes included (run `npx tsx
 * scripts/help-readme.ts` to write it again after changing the help).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILURE_CODES } from '../../src/shared/failures';
import { helpAsMarkdown, README_HELP_END, README_HELP_START } from '../../src/shared/help';

const README = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');

describe('the help text', () => {
  it('is in the README word for word, between its markers', () => {
    const start = README.indexOf(README_HELP_START);
    const end = README.indexOf(README_HELP_END);
    expect(start).toBeGreaterThan(-1);
    expect(README.slice(start + README_HELP_START.length, end).trim()).toBe(helpAsMarkdown());
  });

  it('names every failure code', () => {
    for (const code of FAILURE_CODES) expect(helpAsMarkdown()).toContain(`\`${code}\`: `);
  });
});
