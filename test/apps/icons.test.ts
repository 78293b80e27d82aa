/**
 * Icons servers give (SEP-973), as the screen gets them: through the contract over a real
 * registry and a real MCP server in the sandbox (test/fixtures/mcp-icons), with a real HTTP
 * server of the test's own standing for the web. What a person would check: the server's, a
 * tool's and a prompt's icon show, always as `data:` URIs; an icon on the web is fetched only once
 * the plugin has `net` (and never asked for before), by the main process, and one that is too
 * large, is not a picture, lies about its type or redirects is not shown, and the plugin's log
 * says why; nothing of a server's URLs reaches the screen.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDataUri } from '../../src/main/service/icons';
import type { BackendEvent } from '../../src/main/service/backend';
import { MAX_ICON_BYTES } from '../../src/shared/apps';
import { openApp, type TestApp } from '../helpers/app';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** What the icon server serves: a picture of its own, told apart from the server's data: PNG. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

let app: TestApp;
let icons: http.Server;
const asked: string[] = [];
const events: BackendEvent[] = [];

beforeAll(async () => {
  icons = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    if (req.url === '/tool.png' || req.url === '/server-dark.png') {
      res.writeHead(200, { 'content-type': 'image/gif' });
      return res.end(GIF);
    }
    if (req.url === '/large.png') {
      // No length announced: the cap holds on the bytes as they come.
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG);
      return res.end(Buffer.alloc(MAX_ICON_BYTES));
    }
    if (req.url === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<script>alert(1)</script>');
    }
    if (req.url === '/lies.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end('<html>not a picture</html>');
    }
    if (req.url === '/moved.png') {
      res.writeHead(302, { location: '/tool.png' });
      return res.end();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => icons.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(icons.address() as AddressInfo).port}`;
  const dir = path.join(tmpDir('mcp-icons'), 'mcp-icons');
  mkdirSync(dir);
  cpSync(path.join(FIXTURES, 'mcp-icons', 'server.mjs'), path.join(dir, 'server.mjs'));
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify({
      id: 'mcp-icons',
      name: 'Icons',
      version: '1.0.0',
      protocol: 'mcp',
      command: ['node', 'server.mjs'],
      // It imports the MCP SDK from Plugboard's own node_modules.
      app_modules: true,
      env: { ICON_BASE: base },
      persistent: true,
      capabilities: ['net'],
    }),
  );
  app = await openApp(path.join(tmpDir('icons'), 'data'));
  app.backend.onDidEvent((e) => events.push(e));
  expect((await app.registry.installer.install(dir, { grant: 'none' })).ok).toBe(true);
  expect(await app.registry.start('mcp-icons')).toMatchObject({ ok: true });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await new Promise((r) => icons.close(r));
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
});

const view = async () => (await app.backend.invoke('plugins.list', {})).find((p) => p.id === 'mcp-icons');
const tool = async (name: string) =>
  (await app.backend.invoke('plugins.detail', { id: 'mcp-icons' }))?.tools.find((t) => t.name === name);

/** Resolves once the service says the plugin's icons changed (a fetch landed). */
function iconsChanged(): Promise<void> {
  return new Promise((resolve) => {
    const sub = app.backend.onDidEvent((e) => {
      if (e.name === 'plugins.changed' && e.payload.id === 'mcp-icons' && e.payload.reason === 'icons') {
        sub.dispose();
        resolve();
      }
    });
  });
}

describe('icons', () => {
  it('show as data: URIs the server carries, and nothing is fetched without net', async () => {
    const p = await view();
    const png = `data:image/png;base64,${PNG.toString('base64')}`;
    // The server's drawn SVG; its dark one is on the web: without net, the SVG serves both themes.
    const svg = p?.icon?.light ?? '';
    expect(Buffer.from(svg.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString()).toMatch(/^<svg /);
    expect(p?.icon).toEqual({ light: svg, dark: svg });
    // A tool with no icon of its own shows its server's (in the palette); one with a web icon shows none yet.
    const palette = await app.backend.invoke('palette.list', {});
    expect(palette.find((e) => e.name === 'plain')?.icon).toEqual({ light: svg, dark: svg });
    expect(palette.find((e) => e.name === 'bad-data')?.icon).toEqual({ light: svg, dark: svg });
    expect(palette.find((e) => e.name === 'clock')?.icon?.light).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(palette.find((e) => e.name === 'clock')?.icon).not.toEqual({ light: svg, dark: svg });
    // A tool whose own icon is on the web shows its server's meanwhile.
    expect((await tool('fetched'))?.icon).toEqual({ light: svg, dark: svg });
    const prompts = await app.backend.invoke('plugins.prompts', { id: 'mcp-icons' });
    if (!prompts.ok) throw new Error(prompts.message);
    expect(prompts.prompts[0]?.icon).toEqual({ light: png, dark: png });
    expect(asked).toEqual([]);
    // The server's own lists never reach the screen: no URL of its in any answer.
    const all = JSON.stringify([p, palette, prompts, await app.backend.invoke('plugins.detail', { id: 'mcp-icons' })]);
    expect(all).not.toContain('http://127.0.0.1');
    expect(all).not.toContain('"icons"');
  });

  it('on the web are fetched once net is granted, by the main process, and bad ones are refused with a reason', async () => {
    expect(await app.registry.decisions.grant('mcp-icons', ['net'])).toMatchObject({ ok: true });
    const landed = iconsChanged();
    const svg = (await view())?.icon?.light as string;
    const gif = `data:image/gif;base64,${GIF.toString('base64')}`;
    expect((await tool('fetched'))?.icon).toEqual({ light: svg, dark: svg }); // and asks for its own
    // The screen is told to read the views again once a fetch lands (the server's dark icon may land first).
    await landed;
    await expect.poll(async () => (await tool('fetched'))?.icon).toEqual({ light: gif, dark: gif });
    for (const name of ['too-large', 'not-a-picture', 'lies', 'moved']) await tool(name);
    await expect
      .poll(() => events.filter((e) => e.name === 'log' && e.payload.message.includes('is not shown')).length)
      .toBe(4);
    const why = events
      .filter((e): e is Extract<BackendEvent, { name: 'log' }> => e.name === 'log')
      .map((e) => e.payload.message)
      .filter((m) => m.includes('is not shown'))
      .sort();
    expect(why).toEqual([
      expect.stringMatching(/large\.png is not shown: it is over 64 KiB$/),
      expect.stringMatching(/lies\.png is not shown: its bytes are not image\/png$/),
      expect.stringMatching(/moved\.png is not shown: /),
      expect.stringMatching(/page\.html is not shown: it is text\/html, not a picture type$/),
    ]);
    // Those show their server's icon instead.
    for (const name of ['too-large', 'not-a-picture', 'lies', 'moved'])
      expect((await tool(name))?.icon?.light).toBe(svg);
    // The redirect was not followed.
    expect(asked.filter((u) => u === '/tool.png')).toHaveLength(1);
    // The server's dark icon, fetched now too, is the dark one; the data: one stays the light one.
    await expect.poll(async () => (await view())?.icon).toEqual({ light: svg, dark: gif });
  });
});

describe('a data: URI', () => {
  it('is kept when it is the picture it says it is, within the cap', () => {
    expect(checkDataUri(`data:image/png;base64,${PNG.toString('base64')}`)).toMatchObject({ ok: true });
    const svg = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>')}`;
    expect(checkDataUri(svg)).toMatchObject({ ok: true });
    expect(checkDataUri('data:text/html,<script>alert(1)</script>')).toMatchObject({ ok: false });
    expect(checkDataUri(`data:image/jpeg;base64,${PNG.toString('base64')}`)).toEqual({
      ok: false,
      why: 'its bytes are not image/jpeg',
    });
    expect(checkDataUri(`data:image/svg+xml,${encodeURIComponent('<html><script>x</script></html>')}`)).toMatchObject({
      ok: false,
    });
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_ICON_BYTES)]);
    expect(checkDataUri(`data:image/png;base64,${big.toString('base64')}`)).toEqual({
      ok: false,
      why: 'it is over 64 KiB',
    });
  });
});
