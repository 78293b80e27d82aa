/**
 * Which imported values look like secrets, so the import can offer to move them to the secret
 * store instead of a plain file. A guess, never a guarantee: the person confirms each one. By the
 * variable's name (`GITHUB_TOKEN`, `OPENAI_API_KEY`, `DB_PASSWORD`), and by the value's look:
 * the prefixes of well-known API keys, credentials in a URL, or a long random string.
 */

/** Name parts that mark a secret (`_`/`-` separated, or a camelCase word). */
const SECRET_WORDS = new Set([
  'TOKEN',
  'KEY',
  'APIKEY',
  'SECRET',
  'PASSWORD',
  'PASSWD',
  'PASS',
  'PWD',
  'CREDENTIAL',
  'CREDENTIALS',
  'AUTH',
  'AUTHORIZATION',
  'BEARER',
  'PAT',
  'PRIVATE',
  'COOKIE',
  'SESSION',
  'SIGNATURE',
  'CERT',
]);
/** Names that contain a secret word but are not secrets. */
const NOT_SECRET =
  /^(KEYBOARD.*|.*_KEY_(FILE|PATH|ID)|.*_(FILE|PATH|DIR|URL|HOST|PORT|ID|NAME|USER|USERNAME|REGION)|AUTH_(URL|HOST|TYPE|MODE|METHOD))$/;

const KNOWN_PREFIXES: Array<[RegExp, string]> = [
  [/^sk-(ant-|proj-|or-)?[A-Za-z0-9_-]{16,}$/, 'an OpenAI/Anthropic-style API key'],
  [/^(sk|rk|pk)_(live|test)_[A-Za-z0-9]{16,}$/, 'a Stripe key'],
  [/^(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}$/, 'a GitHub token'],
  [/^github_pat_[A-Za-z0-9_]{30,}$/, 'a GitHub token'],
  [/^glpat-[A-Za-z0-9_-]{16,}$/, 'a GitLab token'],
  [/^xox[abposr]-[A-Za-z0-9-]{10,}$/, 'a Slack token'],
  [/^(AKIA|ASIA)[0-9A-Z]{16}$/, 'an AWS access key'],
  [/^AIza[0-9A-Za-z_-]{30,}$/, 'a Google API key'],
  [/^hf_[A-Za-z0-9]{30,}$/, 'a Hugging Face token'],
  [/^(Bearer|Basic|token)\s+\S{8,}$/i, 'an Authorization header value'],
  [/^-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
  [/^eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}$/, 'a JSON Web Token'],
];

export interface SecretGuess {
  secret: boolean;
  /** Why it looks like a secret, for the preview. */
  reason?: string;
}

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
}

export function secretByName(name: string): SecretGuess {
  const upper = name.toUpperCase().replace(/-/g, '_');
  if (NOT_SECRET.test(upper)) return { secret: false };
  const hit = words(name).find((w) => SECRET_WORDS.has(w) || /^(API|ACCESS|SECRET|PRIVATE)?KEY$/.test(w));
  return hit ? { secret: true, reason: `the name contains ${hit}` } : { secret: false };
}

/** Bits per character: random keys are near 4.5-6, words and paths lower. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

export function secretByValue(value: string): SecretGuess {
  const v = value.trim();
  for (const [re, what] of KNOWN_PREFIXES)
    if (re.test(v)) return { secret: true, reason: `the value looks like ${what}` };
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i.test(v))
    return { secret: true, reason: 'the value is a URL with a password in it' };
  // A long random-looking token: mixed-case letters with digits (base62/64 keys), or a long hex
  // string. Model names and versions (`claude-3-5-sonnet-20241022`) have neither shape.
  const random =
    v.length >= 24 && !/[\s/\\]/.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v) && entropy(v) >= 3.8;
  if (random || /^[0-9a-f]{32,}$/i.test(v)) return { secret: true, reason: 'the value looks like a random key' };
  return { secret: false };
}

/** An environment variable: a secret if its name or its value says so. */
export function guessSecret(name: string, value: string | undefined): SecretGuess {
  const byName = secretByName(name);
  if (byName.secret) return byName;
  return value === undefined ? { secret: false } : secretByValue(value);
}
