/**
 * The figures of issue 12's "Speed", measured in the page (figures to read, not pass marks):
 *   firstPaintMs / firstContentfulPaintMs  a cold load of the page, from navigation start (paint timing)
 *   initialScriptKiB                      the script the page loads before it can paint (out/renderer)
 *   stream2MbLongTasks / …LongestTaskMs   tasks over 50 ms (PerformanceObserver `longtask`) from the
 *                                         moment `seq 1 300000` (about 2 MB) is sent through the
 *                                         terminal plugin until its message is done and painted
 *   stream2MbMs                           the same span, wall clock
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import * as s from './scenarios';
import { REPO } from './support/serve';

type Watch = { __longTasks: number[]; __longTaskObserver: PerformanceObserver };

/** Paint timing of a fresh page on `url` (its own tab, so nothing is cached in memory). */
export async function coldPaint(browser: Browser, url: string): Promise<Record<string, number>> {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await expect(s.composer(page)).toBeEditable({ timeout: 20_000 });
    const paints = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, Math.round(e.startTime)])));
    return { firstPaintMs: paints['first-paint'] ?? NaN, firstContentfulPaintMs: paints['first-contentful-paint'] ?? NaN };
  } finally {
    await page.close();
  }
}

/** The size of the scripts index.html loads itself; chunks loaded later by import() are not in it. */
export function initialScriptKiB(): number {
  const root = path.join(REPO, 'out', 'renderer');
  const html = readFileSync(path.join(root, 'index.html'), 'utf8');
  const srcs = [...html.matchAll(/<script[^>]*src="([^"]+)"/g), ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1] as string);
  const bytes = srcs.reduce((sum, src) => sum + statSync(path.join(root, src.replace(/^\.?\//, ''))).size, 0);
  return Math.round(bytes / 1024);
}

/** How many script chunks the build made (1: not split). */
export function scriptChunks(): number {
  return readdirSync(path.join(REPO, 'out', 'renderer', 'assets')).filter((f) => f.endsWith('.js')).length;
}

/** Streams `seq 1 300000` through the terminal plugin and notes every long task meanwhile. */
export async function stream2Mb(page: Page): Promise<Record<string, number>> {
  await s.newConversation(page);
  await page.evaluate(() => {
    const w = window as unknown as Watch;
    w.__longTasks = [];
    w.__longTaskObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(Math.round(e.duration));
    });
    w.__longTaskObserver.observe({ type: 'longtask' });
  });
  const started = Date.now();
  await s.send(page, '/terminal:run command="seq 1 300000"');
  const msg = s.lastPluginMessage(page);
  await expect(msg.locator('[data-message-status]')).toHaveText('done', { timeout: 80_000 });
  await expect(msg).toContainText('300000');
  // One more frame, so the work the end of the stream caused is in the figures.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const ms = Date.now() - started;
  const tasks = await page.evaluate(() => {
    const w = window as unknown as Watch;
    w.__longTaskObserver.disconnect();
    return w.__longTasks;
  });
  return { stream2MbMs: ms, stream2MbLongTasks: tasks.length, stream2MbLongestTaskMs: Math.max(0, ...tasks) };
}
