/**
 * A plugin that dies at its start is described by its own stderr (issue 21): the stderr here is
 * that of real Python and Node processes failing the ways plugins fail.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { blamedSetting, stderrHeadline, withHeadline } from '../../src/main/host/supervisor/headline';
import { failure } from '../../src/shared/failures';
import type { SettingSpec } from '../../src/shared/plugin';

function stderrOf(cmd: string, args: string[]): string[] {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  expect(r.status).not.toBe(0);
  return r.stderr.split('\n');
}

const setting = (key: string, extra: Partial<SettingSpec> = {}): SettingSpec => ({
  key,
  type: 'string',
  title: key,
  description: '',
  required: false,
  sensitive: false,
  multiple: false,
  ...extra,
});

describe('the headline of a failed start', () => {
  it('names a missing Python module', () => {
    const tail = stderrOf('python3', ['-c', 'import requests_not_installed_here']);
    expect(stderrHeadline(tail)).toBe('the Python module requests_not_installed_here is missing (ModuleNotFoundError)');
  });

  it('takes the last exception of a Python traceback, dotted names and all', () => {
    const tail = stderrOf('python3', ['-c', "import json; json.loads('{')"]);
    expect(stderrHeadline(tail)).toMatch(/^JSONDecodeError: Expecting property name/);
  });

  it('takes a Node error’s message, not its stack or source line', () => {
    const tail = stderrOf(process.execPath, ['-e', "throw new Error('token malformed: expected 40 characters')"]);
    expect(stderrHeadline(tail)).toBe('Error: token malformed: expected 40 characters');
  });

  it('takes a plugin’s own "error:" line, and a reason in plain words', () => {
    expect(stderrHeadline(['starting up', 'error: token malformed', 'bye'])).toBe('token malformed');
    expect(stderrHeadline(['loading config', 'the config file could not be read'])).toBe(
      'the config file could not be read',
    );
  });

  it('says nothing when stderr says nothing of a cause', () => {
    expect(stderrHeadline(['hello', 'listening'])).toBeUndefined();
    expect(stderrHeadline([])).toBeUndefined();
    expect(stderrHeadline(undefined)).toBeUndefined();
  });
});

describe('the setting a failure blames', () => {
  const settings = [
    setting('api_token', { title: 'API token', env: 'WEATHER_TOKEN', sensitive: true }),
    setting('city', { title: 'City' }),
  ];

  it('is found by its environment variable, its key, its title or its telling word', () => {
    expect(blamedSetting('WEATHER_TOKEN is not set', settings)?.key).toBe('api_token');
    expect(blamedSetting('bad api_token', settings)?.key).toBe('api_token');
    expect(blamedSetting('unknown city: Atlantis', settings)?.key).toBe('city');
    expect(blamedSetting('token malformed', settings)?.key).toBe('api_token');
  });

  it('is none when the line names no setting, or more than one', () => {
    expect(blamedSetting('segmentation fault', settings)).toBeUndefined();
    expect(blamedSetting('city and api token both wrong', [...settings, setting('city_token')])).toBeUndefined();
  });

  it('puts the cause first in the failure and links the setting', () => {
    const f = failure('handshake_failed', 'the plugin exited during the handshake (the plugin exited with code 1)', {
      stderrTail: ['Traceback (most recent call last):', 'ValueError: token malformed'],
    });
    const out = withHeadline(f, settings);
    expect(out.message).toBe(
      'ValueError: token malformed — the plugin exited during the handshake (the plugin exited with code 1)',
    );
    expect(out.details?.setting).toBe('api_token');
    expect(withHeadline(failure('crashed', 'x', { stderrTail: ['fine'] }), settings).message).toBe('x');
  });
});
