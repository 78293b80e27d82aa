/**
 * `plugboard serve` against hostile requests it once mishandled, over real HTTP: an upload named
 * with 300 characters (a 500), uploads sent one after another and never installed (they filled
 * the disk until the server stopped), and a static folder holding a link that leads out of it
 * (the server followed it). An upload's age is set on its folder's clock rather than waited for.
 */
import { mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { serveApp, type ServedApp } from '../helpers/app';

const MAX_UPLOAD = 64 * 1024;
const QUOTA = 100 * 1024;

let app: ServedApp;
const logged: string[] = [];

beforeAll(async () => {
  app = await serveApp('server-bounds', {
    maxUploadBytes: MAX_UPLOAD,
    uploadQuotaBytes: QUOTA,
    log: (line) => logged.push(line),
  });
});

afterAll(async () => {
  await app.close();
  cleanupFixtures();
});

const base = (): string => `http://127.0.0.1:${app.server.port}`;

async function upload(name: string, bytes: number): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${base()}/upload`, {
    method: 'POST',
    headers: { 'x-plugboard-token': app.server.token, 'x-file-name': encodeURIComponent(name), origin: base() },
    body: Buffer.alloc(bytes, 1),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

const waiting = (): string[] => readdirSync(app.uploadsDir);

describe('uploads', () => {
  it('takes a 300-character name, stored cut to 200 with its extension', async () => {
    const r = await upload(`${'n'.repeat(296)}.zip`, 10);
    expect(r).toEqual({ status: 200, body: { uploadId: expect.stringMatching(/^[0-9a-f]{32}$/) } });
    const [dir] = waiting();
    const [stored] = readdirSync(path.join(app.uploadsDir, dir as string));
    expect(stored).toBe(`${'n'.repeat(196)}.zip`);
    expect(
      (await app.backend.invoke('install.preview', { source: { kind: 'upload', uploadId: r.body.uploadId as string } }))
        .ok,
    ).toBe(false);
    expect(waiting()).toEqual([]);
  });

  it('refuses an upload past the quota of those waiting, naming what they take, and keeps none of it', async () => {
    const first = await upload('one.zip', 60 * 1024);
    expect(first.status).toBe(200);
    const second = await upload('two.zip', 60 * 1024);
    expect(second).toEqual({
      status: 413,
      body: {
        error:
          'uploads waiting to be installed take 60 KiB of the 100 KiB allowed: install or cancel them first (each is removed after 30 minutes)',
      },
    });
    expect(waiting()).toHaveLength(1);
    // Smaller ones still fit.
    expect((await upload('three.zip', 30 * 1024)).status).toBe(200);
    expect(waiting()).toHaveLength(2);
  });

  it('removes uploads older than 30 minutes, and a preview of one says it is gone', async () => {
    const old = await upload('old.zip', 1024);
    const before = new Set(waiting());
    const oldDir = readdirSync(app.uploadsDir).find((d) =>
      readdirSync(path.join(app.uploadsDir, d)).includes('old.zip'),
    ) as string;
    for (const d of before) {
      const aged = new Date(Date.now() - 31 * 60_000);
      utimesSync(path.join(app.uploadsDir, d), aged, aged);
    }
    // The next upload checks the ages first, and then fits in the quota again.
    expect((await upload('fresh.zip', 60 * 1024)).status).toBe(200);
    expect(waiting()).toHaveLength(1);
    expect(waiting()).not.toContain(oldDir);
    expect(logged.join('\n')).toContain(`removed the upload ${oldDir}, not installed within 30 minutes`);
    const preview = await app.backend.invoke('install.preview', {
      source: { kind: 'upload', uploadId: old.body.uploadId as string },
    });
    expect(preview).toEqual(
      expect.objectContaining({ ok: false, code: 'not_found', message: expect.stringMatching(/^that upload is gone/) }),
    );
  });
});

describe('the static folder', () => {
  it('never serves what a link inside it leads to outside it', async () => {
    const outside = tmpDir('outside');
    writeFileSync(path.join(outside, 'secret.txt'), 'the contents of another folder');
    mkdirSync(path.join(outside, 'dir'));
    writeFileSync(path.join(outside, 'dir', 'inner.txt'), 'also outside');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(app.staticDir, 'leak.txt'));
    symlinkSync(path.join(outside, 'dir'), path.join(app.staticDir, 'assets-link'));
    writeFileSync(path.join(app.staticDir, 'real.js'), 'served');
    symlinkSync(path.join(app.staticDir, 'real.js'), path.join(app.staticDir, 'alias.js'));
    for (const p of ['/leak.txt', '/assets-link/inner.txt']) {
      const res = await fetch(`${base()}${p}`);
      expect([p, res.status]).toEqual([p, 404]);
      expect(await res.text()).not.toContain('outside');
    }
    // A link that stays inside is served as before.
    expect(await (await fetch(`${base()}/alias.js`)).text()).toBe('served');
  });
});
