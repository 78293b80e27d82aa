/**
 * Which URLs count as the app's own page (the IPC sender check and the navigation guards use
 * this): exactly our renderer's index.html in production, exactly the dev server's origin in
 * development. Pure URL logic: no Electron needed.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isRendererUrl, rendererHref, type RendererTarget } from '../../src/main/app/app-url';

describe('the app URL check', () => {
  const dir = path.resolve('/opt/Plugboard app/resources/app.asar/out/renderer');
  const file: RendererTarget = { kind: 'file', file: path.join(dir, 'index.html') };
  const ours = pathToFileURL(path.join(dir, 'index.html')).href;

  it('accepts exactly our renderer file, with or without a fragment', () => {
    expect(rendererHref(file)).toBe(ours);
    expect(ours).toContain('Plugboard%20app');
    expect(isRendererUrl(ours, file)).toBe(true);
    expect(isRendererUrl(`${ours}#/plugins`, file)).toBe(true);
  });

  it('refuses any other index.html in a folder called renderer, and look-alikes', () => {
    const elsewhere = pathToFileURL(path.resolve('/tmp/evil/renderer/index.html')).href;
    expect(isRendererUrl(elsewhere, file)).toBe(false);
    expect(isRendererUrl(pathToFileURL(path.join(dir, 'other.html')).href, file)).toBe(false);
    expect(isRendererUrl(`${ours}?x=1`, file)).toBe(false);
    expect(isRendererUrl(ours.replace('file://', 'file://evil.example'), file)).toBe(false);
    expect(isRendererUrl(ours.replace('file:', 'http:'), file)).toBe(false);
    expect(isRendererUrl('not a url', file)).toBe(false);
    expect(isRendererUrl('', file)).toBe(false);
  });

  it('accepts any page of the dev server and nothing that only starts like it', () => {
    const dev: RendererTarget = { kind: 'dev', url: 'http://localhost:5173' };
    expect(isRendererUrl('http://localhost:5173/', dev)).toBe(true);
    expect(isRendererUrl('http://localhost:5173/src/main.tsx?t=1#x', dev)).toBe(true);
    expect(isRendererUrl('http://localhost:5173@evil.example/', dev)).toBe(false);
    expect(isRendererUrl('http://localhost:5173.evil.example/', dev)).toBe(false);
    expect(isRendererUrl('http://localhost:51730/', dev)).toBe(false);
    expect(isRendererUrl('https://localhost:5173/', dev)).toBe(false);
    expect(isRendererUrl('http://127.0.0.1:5173/', dev)).toBe(false);
    expect(isRendererUrl(ours, dev)).toBe(false);
  });

  it('never matches on an opaque origin', () => {
    const odd: RendererTarget = { kind: 'dev', url: 'data:text/html,hi' };
    expect(isRendererUrl('data:text/html,evil', odd)).toBe(false);
  });
});
