/**
 * Which URLs are the app's own page: what the IPC sender check and the navigation guards trust.
 * In production that is exactly the file URL of our renderer's index.html (any other index.html
 * on disk is someone else's page); in development, exactly the dev server's origin (a prefix test
 * would let `http://localhost:5173@evil.example/` through). No electron here, so it is tested.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export type RendererTarget = { kind: 'dev'; url: string } | { kind: 'file'; file: string };

/** The URL the window loads for `target`. */
export function rendererHref(target: RendererTarget): string {
  return target.kind === 'dev' ? target.url : pathToFileURL(path.resolve(target.file)).href;
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

export function isRendererUrl(url: string, target: RendererTarget): boolean {
  const given = parse(url);
  const ours = parse(rendererHref(target));
  if (!given || !ours) return false;
  if (target.kind === 'dev') {
    // An opaque origin is the string "null" for every such URL: never a match.
    return ours.origin !== 'null' && given.origin === ours.origin;
  }
  // The fragment never changes the document; everything else must be the same.
  given.hash = '';
  ours.hash = '';
  return given.protocol === 'file:' && given.href === ours.href;
}
