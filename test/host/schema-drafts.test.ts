/**
 * Tool schemas are checked by the JSON Schema draft they declare (issue 17, item 4): 2020-12 (MCP's
 * default, what zod 4 writes and @playwright/mcp and context7 send), 2019-09 and draft-07, through
 * a real MCP server on the official SDK whose schemas zod 4 wrote, and through @playwright/mcp
 * itself, installed from the npm registry.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaProblem, validateArguments } from '../../src/main/host/validate';
import { collect, expectFailure } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { realNpmPackage } from '../helpers/npm-package';
import { FIXTURES } from '../helpers/plugins';

const host = useTestHost();

const invalid = (message: string | RegExp) =>
  expect.objectContaining({
    code: 'invalid_arguments',
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  });

describe('tool schemas in every draft an MCP server writes', () => {
  it('checks 2020-12 schemas as zod 4 writes them (tuples as prefixItems, nullable, strict objects)', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-drafts'));
    const good = { title: 'Tosca', seat: ['K', 12], note: null, kind: 'aisle' };
    expect((await collect(sup, 'book', good)).outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ success: true, data: JSON.stringify(good) }),
    });
    expect(expectFailure((await collect(sup, 'book', { ...good, seat: ['K', 1.5] })).outcome)).toEqual(
      invalid('arguments for book do not match its schema: arguments.seat[1] must be integer'),
    );
    // `items: false` after `prefixItems`: a third element is refused (draft-07 would not know it).
    expect(expectFailure((await collect(sup, 'book', { ...good, seat: ['K', 1, 2] })).outcome)).toEqual(
      invalid(/arguments\.seat must NOT have more than 2 items/),
    );
    expect(expectFailure((await collect(sup, 'book', { ...good, row: 3 })).outcome)).toEqual(
      invalid(/arguments\.row is not allowed/),
    );
  });

  it('follows $defs references of a recursive 2020-12 schema', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-drafts'));
    const root = { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] };
    expect((await collect(sup, 'tree', { root })).outcome.ok).toBe(true);
    const bad = { name: 'a', children: [{ name: 'b', children: [{ name: 3 }] }] };
    expect(expectFailure((await collect(sup, 'tree', { root: bad })).outcome)).toEqual(
      invalid(/arguments\.root\.children\[0\]\.children\[0\]\.name must be string/),
    );
  });

  it('checks draft-07 schemas as draft-07 (tuples as an items array)', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-drafts'));
    const good = { title: 'Tosca', seat: ['K', 12], kind: 'window' };
    expect((await collect(sup, 'book07', good)).outcome.ok).toBe(true);
    expect(expectFailure((await collect(sup, 'book07', { ...good, seat: ['K', 1, 2] })).outcome)).toEqual(
      invalid(/arguments\.seat must NOT have more than 2 items/),
    );
  });

  it('checks 2019-09 schemas as 2019-09 (unevaluatedProperties, dependentRequired)', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-drafts'));
    expect((await collect(sup, 'pair', { from: 'a', to: 'b' })).outcome.ok).toBe(true);
    expect(expectFailure((await collect(sup, 'pair', { from: 'a', over: 1 })).outcome)).toEqual(
      invalid(/arguments\.over is not allowed/),
    );
    expect(expectFailure((await collect(sup, 'pair', { to: 'b' })).outcome)).toEqual(
      invalid(/arguments must have property from when property to is present/),
    );
  });

  it('names the draft it cannot check instead of a bare Ajv error', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-drafts'));
    expect(
      expectFailure((await collect(sup, 'book04', { title: 't', seat: ['K', 1], kind: 'aisle' })).outcome),
    ).toEqual(
      invalid(
        'the schema of book04 is not valid JSON Schema: its $schema "http://json-schema.org/draft-04/schema#" is a JSON Schema draft Plugboard cannot check (it checks 2020-12, 2019-09, draft-07 and draft-06)',
      ),
    );
  });

  it('checks a structured result against a 2020-12 output schema', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-drafts'));
    expect((await collect(sup, 'point', { honest: true })).outcome.ok).toBe(true);
    // Read as draft-07 (the SDK's own Ajv), `prefixItems` means nothing and the string passes.
    const f = expectFailure((await collect(sup, 'point', { honest: false })).outcome);
    expect(f.message).toMatch(/structuredContent\.at\[1\] must be number/);
  });
});

describe('how a schema says its draft', () => {
  const tuple = { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false };

  it('reads $schema written with https, without the fragment, or with it', () => {
    for (const uri of [
      'http://json-schema.org/draft-07/schema#',
      'https://json-schema.org/draft-07/schema',
      'https://json-schema.org/draft/2020-12/schema#',
    ]) {
      const schema = { $schema: uri, type: 'object', properties: { n: { type: 'integer' } } };
      expect(schemaProblem(schema)).toBeUndefined();
      expect(validateArguments('t', schema, { n: 'x' })).toEqual(invalid(/arguments\.n must be integer/));
    }
  });

  it('reads a schema that declares no draft as 2020-12, or as draft-07 when only draft-07 can (manifests)', () => {
    const modern = { type: 'array', prefixItems: [{ type: 'string' }], items: false };
    expect(validateArguments('t', modern, ['a', 'b'])).toEqual(invalid(/must NOT have more than 1 items/));
    expect(schemaProblem(tuple)).toBeUndefined();
    expect(validateArguments('t', tuple, ['a', 1])).toBeUndefined();
    expect(validateArguments('t', tuple, ['a', 'b'])).toEqual(invalid(/arguments\[1\] must be integer/));
  });

  it('refuses a tuple written the draft-07 way in a schema that declares 2020-12', () => {
    expect(schemaProblem({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...tuple })).toMatch(
      /items must be object,boolean/,
    );
  });
});

describe('@playwright/mcp from the npm registry', () => {
  it('lists its 2020-12 tools and answers a real call, and a wrong argument is refused by Plugboard', async (ctx) => {
    const pkg = await realNpmPackage('@playwright/mcp', '0.0.83');
    if (!pkg.ok) return ctx.skip(pkg.reason);
    const cli = path.join(pkg.dir, 'node_modules', '@playwright', 'mcp', 'cli.js');
    // Debian's Chromium, headless, as root in a container: what the e2e tests drive.
    const args = [
      '--headless',
      '--browser',
      'chromium',
      '--executable-path',
      '/usr/bin/chromium',
      '--isolated',
      '--no-sandbox',
    ];
    writeFileSync(
      path.join(pkg.dir, 'plugboard.json'),
      JSON.stringify({
        id: 'playwright',
        name: 'Playwright',
        version: '0.0.83',
        protocol: 'mcp',
        command: ['node', cli, ...args],
        persistent: true,
        // Its cold start loads playwright-core: seconds on a loaded machine, more than the 5 s default.
        timeouts: { callInactivityMs: 60_000, launchMs: 60_000, handshakeMs: 60_000 },
      }),
    );
    const sup = await host.addDir(pkg.dir);
    expect(await sup.start()).toEqual({ ok: true });
    const navigate = sup.tools.find((t) => t.name === 'browser_navigate');
    expect(navigate?.parameters.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(expectFailure((await collect(sup, 'browser_resize', { width: 'wide', height: 600 })).outcome)).toEqual(
      invalid(/arguments\.width must be number/),
    );
    const r = await collect(sup, 'browser_navigate', { url: 'data:text/html,<title>Drafts</title><h1>Hi</h1>' });
    expect(r.outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ success: true, data: expect.stringMatching(/Page Title: Drafts/) }),
    });
  }, 180_000);
});
