/**
 * Screenshots of a view in both themes: `fn` brings the view on screen (and waits for it); the
 * picture is taken once no colour transition runs any more. Written to PLUGBOARD_SHOTS_DIR, else
 * e2e/screenshots/, as NAME-light.png and NAME-dark.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { REPO } from './serve';

export const SHOTS_DIR = process.env.PLUGBOARD_SHOTS_DIR ?? path.join(REPO, 'e2e', 'screenshots');

export async function shootBothThemes(page: Page, name: string, fn: () => Promise<void>): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveClass(scheme === 'dark' ? /dark/ : /^(?!.*dark)/);
    await fn();
    // Colours fade between themes: the picture waits until no transition runs any more.
    await expect
      .poll(() =>
        page.evaluate(
          () => document.getAnimations().filter((x) => x instanceof CSSTransition && x.playState === 'running').length,
        ),
      )
      .toBe(0);
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
