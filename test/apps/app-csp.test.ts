/**
 * The policy an App's page is served with (shared/app-csp.ts) and the staging of App pages
 * (service/app-frames.ts): what a resource declares is kept only as plain origins, never
 * Plugboard's own address, and nothing a declaration holds can add a directive; the strict
 * default applies where it declares nothing; staged pages are found by their exact name only,
 * and expire.
 */
import { describe, expect, it } from 'vitest';
import { appPageCsp, keepSources } from '../../src/shared/app-csp';
import { AppFrames } from '../../src/main/service/app-frames';

const OWN = ['http://127.0.0.1:5173', 'http://localhost:5173', 'http://127.0.0.1:40001'];

function directives(csp: string): Record<string, string> {
  return Object.fromEntries(
    csp.split(';').map((d) => {
      const [k, ...v] = d.trim().split(/\s+/);
      return [k as string, v.join(' ')];
    }),
  );
}

describe('an App page’s policy', () => {
  it('is the strict default where the resource declares nothing', () => {
    const d = directives(appPageCsp(keepSources(undefined, OWN).kept));
    expect(d['default-src']).toBe("'none'");
    expect(d['script-src']).toBe("'unsafe-inline'");
    expect(d['style-src']).toBe("'unsafe-inline'");
    expect(d['img-src']).toBe('data: blob:');
    expect(d['connect-src']).toBe("'none'");
    expect(d['frame-src']).toBe("'none'");
    expect(d['object-src']).toBe("'none'");
    expect(d['base-uri']).toBe("'none'");
    expect(d['form-action']).toBe("'none'");
    expect(Object.values(d).join(' ')).not.toContain("'self'");
  });

  it('allows what the resource declares, each list in its own directives', () => {
    const { kept, dropped } = keepSources(
      {
        connectDomains: ['https://api.weather.example', 'wss://live.weather.example'],
        resourceDomains: ['https://cdn.example.com', 'https://*.cloudflare.com'],
        frameDomains: ['https://www.youtube.com'],
        baseUriDomains: ['https://cdn.example.com'],
      },
      OWN,
    );
    expect(dropped).toEqual([]);
    const d = directives(appPageCsp(kept));
    expect(d['connect-src']).toBe('https://api.weather.example wss://live.weather.example');
    expect(d['script-src']).toBe("'unsafe-inline' https://cdn.example.com https://*.cloudflare.com");
    expect(d['img-src']).toBe('data: blob: https://cdn.example.com https://*.cloudflare.com');
    expect(d['font-src']).toBe('data: https://cdn.example.com https://*.cloudflare.com');
    expect(d['frame-src']).toBe('https://www.youtube.com');
    expect(d['base-uri']).toBe('https://cdn.example.com');
  });

  it('never lets a declaration add a directive, a keyword, a bare scheme or a wildcard', () => {
    const hostile = [
      "https://ok.example; script-src 'unsafe-eval'",
      "'unsafe-eval'",
      '*',
      'https:',
      'data:',
      'javascript:alert(1)',
      'https://ok.example https://other.example',
      'ftp://files.example',
      42,
    ];
    const { kept, dropped } = keepSources(
      { connectDomains: hostile as string[], resourceDomains: hostile as string[] },
      OWN,
    );
    expect(kept.connectDomains).toEqual([]);
    expect(kept.resourceDomains).toEqual([]);
    expect(dropped).toHaveLength(hostile.length * 2);
    const csp = appPageCsp(kept);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp.split(';').filter((x) => x.trim().startsWith('script-src'))).toHaveLength(1);
  });

  it('never allows Plugboard’s own address, by port or by a wildcard port', () => {
    const { kept, dropped } = keepSources(
      {
        connectDomains: [
          'http://127.0.0.1:5173',
          'ws://127.0.0.1:5173',
          'http://127.0.0.1:*',
          'ws://localhost:*',
          'http://localhost:5173',
          'http://127.0.0.1:40001',
          'http://127.0.0.1:9000',
        ],
      },
      OWN,
    );
    // Another port of loopback is someone else's server: the App may declare it.
    expect(kept.connectDomains).toEqual(['http://127.0.0.1:9000']);
    expect(dropped.map((x) => x.source)).toHaveLength(6);
    expect(dropped[0]?.why).toBe('it is Plugboard’s own address, which no App may reach');
  });

  it('keeps websockets to connections only', () => {
    const { kept, dropped } = keepSources({ resourceDomains: ['wss://live.example'] }, OWN);
    expect(kept.resourceDomains).toEqual([]);
    expect(dropped[0]?.why).toBe('the scheme wss: is not allowed here');
  });
});

describe('staged App pages', () => {
  it('are served by their exact name only, until they expire', () => {
    let t = 0;
    const frames = new AppFrames(() => t);
    expect(frames.served).toBe(false);
    expect(() => frames.stage('<p>x', "default-src 'none'")).toThrow(/no frame origin/);
    frames.serveAt('http://127.0.0.1:40001', ['http://127.0.0.1:5173']);
    expect(frames.ownOrigins).toEqual(['http://127.0.0.1:5173', 'http://127.0.0.1:40001']);
    const url = new URL(frames.stage('<p>hello', "default-src 'none'"));
    expect(url.origin).toBe('http://127.0.0.1:40001');
    expect(url.pathname).toMatch(/^\/app\/[0-9a-f]{32}$/);
    expect(frames.take(url.pathname)).toMatchObject({ html: '<p>hello', csp: "default-src 'none'" });
    // Another App's name cannot be made up, nor reached around the path.
    expect(frames.take('/app/' + '0'.repeat(32))).toBeUndefined();
    expect(frames.take(`${url.pathname}/../x`)).toBeUndefined();
    expect(frames.take(url.pathname.toUpperCase())).toBeUndefined();
    t += 11 * 60_000;
    expect(frames.take(url.pathname)).toBeUndefined();
  });

  it('are kept to a bounded number, the oldest dropped first', () => {
    const frames = new AppFrames(() => 0);
    frames.serveAt('plugboard-app://frame');
    const first = new URL(frames.stage('first', 'x')).pathname;
    for (let i = 0; i < 70; i++) frames.stage(`page ${i}`, 'x');
    expect(frames.take(first)).toBeUndefined();
  });
});
