/**
 * The assistant's figures, measured in the page (figures to read, not pass marks: speed belongs to
 * the benchmarks):
 *   tokenToScreen        a model's answer streamed in 40 chunks, 40 ms apart: for each chunk, from
 *                        the scripted server handing it to its socket (its wall clock,
 *                        `chunksSentAt`) to its text being in the page (a MutationObserver's
 *                        Date.now(), as for plugin streams in web.spec.ts). Both clocks are this
 *                        machine's. The path: model server → the AI SDK in `plugboard serve` → the
 *                        WebSocket → the page's per-frame batch → React.
 *   openLongConversation a click on the conversation of 1,000 messages with tool cards (seeded
 *                        before `serve` started) to its last row in the page and one frame after,
 *                        cold: the page is reloaded on another conversation before each run.
 */
import { expect, type Page } from '@playwright/test';
import { median, percentile } from '../src/shared/stats';
import type { ModelServerClient } from '../test/model-server/process';
import { ask, lastAnswer, newConversation, script } from './assistant-scenarios';
import { composer, openApp } from './scenarios';
import { LONG_LAST_ID, LONG_TITLE } from './support/seed';

type Seen = { __seen: Record<string, number>; __seenObserver: MutationObserver };

export async function tokenToScreen(page: Page, model: ModelServerClient): Promise<Record<string, number>> {
  const n = 40;
  const mark = (i: number): string => String(i + 1).padStart(2, '0');
  await script(model, { type: 'reply', text: Array.from({ length: n }, (_, i) => `w${mark(i)} `), chunkDelayMs: 40 });
  await newConversation(page);
  await page.evaluate(() => {
    const w = window as unknown as Seen;
    w.__seen = {};
    w.__seenObserver = new MutationObserver(() => {
      const all = document.querySelectorAll('article[data-role="assistant"]');
      const text = all[all.length - 1]?.textContent ?? '';
      for (const m of text.matchAll(/w(\d\d)/g)) w.__seen[m[1] as string] ??= Date.now();
    });
    w.__seenObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await ask(page, 'Say forty words');
  await expect(lastAnswer(page)).toContainText(`w${n}`, { timeout: 15_000 });
  // The observer reads the page's text on every change: it must not weigh on the tests after.
  const seen = await page.evaluate(() => {
    const w = window as unknown as Seen;
    w.__seenObserver.disconnect();
    return w.__seen;
  });
  const sent = (await model.modelCalls()).at(-1)?.chunksSentAt ?? [];
  expect(sent).toHaveLength(n);
  const delays = sent.map((at, i) => (seen[mark(i)] ?? NaN) - at);
  expect(delays.every((d) => Number.isFinite(d))).toBe(true);
  return { tokenToScreenMedianMs: median(delays), tokenToScreenP95Ms: percentile(delays, 95) };
}

export async function openLongConversation(page: Page, runs = 3): Promise<Record<string, number>> {
  const list = page.getByRole('navigation', { name: 'Conversations' });
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    await list.getByRole('button', { name: /^Say forty words/ }).click();
    await page.reload();
    await openApp(page);
    const item = list.getByRole('button', { name: new RegExp(`^${LONG_TITLE}`) });
    await expect(item).toBeVisible();
    const ms = await item.evaluate(
      (el, last) =>
        new Promise<number>((resolve) => {
          const t0 = performance.now();
          const observer = new MutationObserver(() => {
            if (!document.querySelector(`[data-message-id="${last}"]`)) return;
            observer.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - t0));
          });
          observer.observe(document.body, { subtree: true, childList: true });
          (el as HTMLElement).click();
        }),
      LONG_LAST_ID,
    );
    times.push(ms);
  }
  const last = page.locator(`[data-message-id="${LONG_LAST_ID}"]`);
  await expect(last).toBeVisible();
  await expect(last).toContainText('Question 999: count to 20');
  await expect(composer(page)).toBeEditable();
  return {
    open1000MessagesMedianMs: Math.round(median(times)),
    open1000MessagesWorstMs: Math.round(Math.max(...times)),
  };
}
