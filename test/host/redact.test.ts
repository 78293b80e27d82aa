/**
 * A secret setting's value is hidden in what a plugin prints back, in the forms a plugin may give
 * it (red team X03): as it is, upper-cased, with `-` made `_`, and inside base64 or base64url (a
 * Basic auth header, a token it encoded), wherever in the encoded text it sits.
 */
import { describe, expect, it } from 'vitest';
import { redactor } from '../../src/main/host/process/redact';

const SECRET = 'sk-live_4f9Qm2LxZ8vR7nT1';
const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('a secret in a plugin’s output', () => {
  const redact = redactor([{ key: 'token', value: SECRET }]);

  it('is hidden in every form the red team printed it in', () => {
    const printed = [
      SECRET,
      SECRET.toUpperCase(),
      SECRET.replace(/-/g, '_'),
      `Authorization: Basic ${b64(`user:${SECRET}`)}`,
      b64(SECRET),
      b64(`x${SECRET}`),
      b64(`xy${SECRET}`),
      Buffer.from(SECRET).toString('base64url'),
    ];
    for (const line of printed) {
      const shown = redact(line);
      expect(shown, line).toContain('[secret token]');
      // Nothing of the secret's middle is left to read, in any form.
      expect(shown.toLowerCase()).not.toContain('4f9qm2lxz8');
      expect(shown).not.toContain(b64(SECRET).slice(4, 20));
    }
  });

  it('leaves other text alone', () => {
    expect(redact('exit 1: could not reach api.example.com')).toBe('exit 1: could not reach api.example.com');
    expect(redact(b64('some other token value'))).toBe(b64('some other token value'));
  });
});
