/**
 * The figures the end-to-end specs measure, gathered in test-results/e2e-figures.json: each spec
 * adds its own to what the others wrote in the same run, and prints them. Figures are read, not
 * asserted: speed belongs to the benchmarks.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from './serve';

const FILE = path.join(REPO, 'test-results', 'e2e-figures.json');

export function saveFigures(spec: string, figures: Record<string, number>): void {
  mkdirSync(path.dirname(FILE), { recursive: true });
  let all: Record<string, unknown> = {};
  try {
    all = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
  } catch {
    all = {};
  }
  writeFileSync(FILE, JSON.stringify({ ...all, ...figures }, null, 2));
  console.log(`e2e figures (${spec}): ${JSON.stringify(figures)}`);
}
