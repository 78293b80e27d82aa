/**
 * Which npm registry a person's configuration names, as npm reads it: the update check must ask
 * the registry the install step installs from (a company registry in ~/.npmrc, say), not npm's own.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultRegistries } from '../../src/main/plugins/install/package-versions';
import { personNpmRegistry } from '../../src/main/plugins/packages/config';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

afterAll(cleanupFixtures);

describe('the npm registry a person uses', () => {
  it('is the .npmrc’s registry=, its variables expanded; the environment’s wins; npm’s own without either', () => {
    const home = tmpDir('npmrc');
    writeFileSync(
      path.join(home, '.npmrc'),
      '; company registry\n//npm.acme.test/:_authToken=${NPM_TOKEN}\nregistry = "https://${REG_HOST}/npm/"\n',
    );
    expect(personNpmRegistry({ REG_HOST: 'npm.acme.test' }, home)).toBe('https://npm.acme.test/npm/');
    expect(defaultRegistries({ HOME: home, REG_HOST: 'npm.acme.test' }).npm).toBe('https://npm.acme.test/npm');
    expect(personNpmRegistry({ npm_config_registry: 'http://127.0.0.1:4873/' }, home)).toBe('http://127.0.0.1:4873/');
    const other = path.join(home, 'other.npmrc');
    writeFileSync(other, 'registry=https://other.test/\n');
    expect(personNpmRegistry({ NPM_CONFIG_USERCONFIG: other }, home)).toBe('https://other.test/');
    expect(defaultRegistries({ HOME: tmpDir('no-npmrc') }).npm).toBe('https://registry.npmjs.org');
  });
});
