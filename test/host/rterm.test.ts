import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCapabilities } from '../../src/main/host/dialects/rterm';
import { collect, expectFailure } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { FIXTURES, fixturePlugin } from '../helpers/plugins';
import { gone } from '../helpers/processes';

const host = useTestHost();

/** Limits no healthy plugin comes near, even on a loaded machine. */
const GENEROUS = { handshakeMs: 15_000, callInactivityMs: 15_000, callHardCapMs: 30_000 };
/** Tight limits, only for the cases that are about the limit itself. */
const TIGHT: Record<string, Record<string, number>> = {
  'hang-handshake': { handshakeMs: 500 },
  slow: { callInactivityMs: 800, callHardCapMs: 800 },
};

function rterm(mode: string, id = `rt-${mode || 'ok'}`): string {
  const timeouts = { ...GENEROUS, ...(TIGHT[mode] ?? {}) };
  return fixturePlugin({
    script: 'rterm',
    id,
    mode,
    env: { CAPS: 'fs.read' },
    manifest: { capabilities: ['fs.read'], timeouts },
  });
}

describe('rterm.plugin.v1 dialect', () => {
  it('runs one process per call: handshake, request, response, exit', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'rterm-echo'));
    expect((await collect(sup, 'upper', { text: 'shout' })).outcome).toEqual({
      ok: true,
      value: { success: true, data: 'SHOUT', keepSession: false },
    });
    const pids: number[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await collect(sup, 'pid', {});
      pids.push((r.outcome.ok && r.outcome.value.data) as number);
      expect(await gone(pids[i] as number)).toBe(true);
    }
    expect(pids[0]).not.toBe(pids[1]);
    expect(sup.health.state).toBe('stopped');
  });

  it('classifies every failure of the taxonomy as rune-terminal does', async () => {
    const cases: Array<[string, string, RegExp]> = [
      // rune-terminal reports `crashed` here (other protocols: handshake_failed).
      ['exit-before-handshake', 'crashed', /exited with code 1/],
      ['hang-handshake', 'timeout', /no handshake within 500 ms/],
      ['wrong-type-handshake', 'handshake_failed', /expected a handshake, got a "response" message/],
      ['no-tools', 'handshake_failed', /exposed_tools must be a non-empty array/],
      ['ok-with-error', 'malformed_response', /status "ok" must not carry an error/],
      ['error-without-message', 'malformed_response', /status "error" must carry error\.message/],
      ['junk', 'malformed_response', /not one JSON object/],
      ['bad-manifest', 'handshake_failed', /manifest\.plugin_version is missing/],
      ['other-id', 'handshake_failed', /says it is "someone-else"/],
      ['wrong-version', 'protocol_version_mismatch', /rterm\.plugin\.v0/],
      [
        'extra-capability',
        'capability_not_allowed',
        /"net\.connect", which is not allowed for it \(allowed: fs\.read\)/,
      ],
      ['padded-capability', 'capability_not_declared', /surrounding whitespace/],
      ['duplicate-capability', 'capability_not_declared', /is a duplicate/],
      ['empty-capability', 'capability_not_declared', /is empty/],
      ['no-capabilities', 'capability_not_declared', /declares no capabilities/],
      ['no-response', 'crashed', /exited \(code 0\) without finishing/],
      ['error-response', 'plugin_error', /E_INPUT: bad input/],
      ['slow', 'timeout', /800 ms/],
      ['wrong-request-id', 'malformed_response', /for request "nope"/],
      // A good answer stands only once the process exits cleanly after it.
      ['exit-2-after-response', 'crashed', /answered, then exited with code 2/],
      ['linger-after-response', 'crashed', /did not exit within 500 ms of its response/],
    ];
    for (const [mode, code, message] of cases) {
      const sup = await host.addDir(rterm(mode));
      const f = expectFailure((await collect(sup, 'echo', { text: 'x' })).outcome);
      expect([mode, f.code]).toEqual([mode, code]);
      expect(f.message).toMatch(message);
    }
  });

  it('keeps the stderr tail of a plugin that dies before its handshake', async () => {
    const sup = await host.addDir(rterm('exit-before-handshake'));
    const f = expectFailure((await collect(sup, 'echo', { text: 'x' })).outcome);
    expect(f.details?.exitCode).toBe(1);
    expect(f.details?.stderrTail).toContain('ValueError: unsupported protocol');
  });

  it('refuses a tool the handshake does not expose', async () => {
    const sup = await host.addDir(rterm(''));
    const f = expectFailure((await collect(sup, 'delete_everything', {})).outcome);
    expect(f.code).toBe('tool_not_exposed');
    expect(f.message).toMatch(/exposes: echo, upper/);
  });

  it('checks capabilities against the core-owned allow-list, not against what the plugin asks', () => {
    expect(checkCapabilities(['a'], ['a', 'b'])).toBeUndefined();
    expect(checkCapabilities(undefined, [])).toBeUndefined();
    expect(checkCapabilities([], ['a'])).toBeUndefined();
    expect(checkCapabilities(['b'], ['a'])?.code).toBe('capability_not_allowed');
    expect(checkCapabilities(['a', 'a'], ['a'])?.code).toBe('capability_not_declared');
    expect(checkCapabilities([' a'], ['a'])?.code).toBe('capability_not_declared');
    expect(checkCapabilities([''], ['a'])?.code).toBe('capability_not_declared');
    expect(checkCapabilities('a', ['a'])?.code).toBe('capability_not_declared');
  });
});
