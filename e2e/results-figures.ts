/**
 * The figures of issue 12's "Speed", measured in the page (figures to read, not pass marks):
 *   firstPaintMs / firstContentfulPaintMs  a cold load of the page, from navigation start (paint timing)
 *   initialScriptKiB                      the script the page loads before it can paint (out/renderer)
 *   stream2MbLongTasks / …LongestTaskMs   tasks over 50 ms (PerformanceObserver `longtask`) from the
 *                                         moment `seq 1 300000` (about 2 MB) is sent through the
 *                                         terminal plugin until its message is done and painted
 *   stream2MbMs                           the same span, wall clock
 *   stream2MbCpu…                          the same tasks by the main thread's CPU time (Chrome's
 *                                         trace, `RunTask` events' thread duration): on a shared
 *                                         machine a task's wall time grows with everyone else's
 *                                         load, its CPU time much less, so these compare builds
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
    // Paint timing is reported a moment after the paint; now and then it came after this point.
    await page
      .waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, undefined, {
        timeout: 5_000,
      })
      .catch(() => undefined);
    const paints = await page.evaluate(() =>
      Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, Math.round(e.startTime)])),
    );
    return {
      firstPaintMs: paints['first-paint'] ?? NaN,
      firstContentfulPaintMs: paints['first-contentful-paint'] ?? NaN,
    };
  } finally {
    await page.close();
  }
}

/** The size of the scripts index.html loads itself; chunks loaded later by import() are not in it. */
export function initialScriptKiB(): number {
  const root = path.join(REPO, 'out', 'renderer');
  const html = readFileSync(path.join(root, 'index.html'), 'utf8');
  const srcs = [
    ...html.matchAll(/<script[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1] as string);
  const bytes = srcs.reduce((sum, src) => sum + statSync(path.join(root, src.replace(/^\.?\//, ''))).size, 0);
  return Math.round(bytes / 1024);
}

/** How many script chunks the build made (1: not split). */
export function scriptChunks(): number {
  return readdirSync(path.join(REPO, 'out', 'renderer', 'assets')).filter((f) => f.endsWith('.js')).length;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
}

/** The renderer main thread's tasks (the thread that ran the most), as CPU milliseconds. */
export function mainThreadTaskCpuMs(trace: Buffer): number[] {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = (Array.isArray(parsed) ? parsed : parsed.traceEvents).filter(
    (e) => e.name === 'RunTask' && e.ph === 'X',
  );
  const busy = new Map<string, number>();
  for (const e of events) busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  const main = [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
  return events.filter((e) => `${e.pid}:${e.tid}` === main).map((e) => (e.tdur ?? 0) / 1000);
}

/** Streams `seq 1 300000` through the terminal plugin and notes every long task meanwhile. */
export async function stream2Mb(page: Page, browser: Browser): Promise<Record<string, number>> {
  await s.newConversation(page);
  await page.evaluate(() => {
    const w = window as unknown as Watch;
    w.__longTasks = [];
    w.__longTaskObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(Math.round(e.duration));
    });
    w.__longTaskObserver.observe({ type: 'longtask' });
  });
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  const started = Date.now();
  await s.send(page, '/terminal:run command="seq 1 300000"');
  // Waited for in the page, by one cheap query every 250 ms: Playwright's own polling (locators,
  // text matching) runs in the page too, and would be counted in the figures it is measuring.
  await page.waitForFunction(
    () => {
      const all = document.querySelectorAll('article[data-role="plugin"]');
      return all[all.length - 1]?.querySelector('[data-message-status]')?.textContent === 'done';
    },
    undefined,
    { polling: 250, timeout: 80_000 },
  );
  // One more frame, so the work the end of the stream caused is in the figures.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const ms = Date.now() - started;
  const cpu = mainThreadTaskCpuMs(await browser.stopTracing());
  const tasks = await page.evaluate(() => {
    const w = window as unknown as Watch;
    w.__longTaskObserver.disconnect();
    return w.__longTasks;
  });
  await expect(s.lastPluginMessage(page)).toContainText('300000');
  return {
    stream2MbMs: ms,
    stream2MbLongTasks: tasks.length,
    stream2MbLongestTaskMs: Math.max(0, ...tasks),
    stream2MbCpuLongTasks: cpu.filter((t) => t > 50).length,
    stream2MbCpuLongestTaskMs: Math.round(Math.max(0, ...cpu)),
    stream2MbCpuTotalMs: Math.round(cpu.reduce((a, b) => a + b, 0)),
  };
}
