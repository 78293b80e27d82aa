/**
 * A package's own install scripts run without the person's registry credentials (red team N01: a
 * hostile package's preinstall, install and postinstall each read `_authToken` from the step's
 * .npmrc and sent it out over the network the step has). Installed as a person installs it, from
 * a registry their .npmrc names with a token: the package is fetched (the token was there for
 * that), its postinstall runs, and what it could read holds the registry but not the token.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { startNpmRegistry, type TestNpmRegistry } from '../helpers/npm-registry';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';

const TOKEN = `npm_N01_${process.pid}_secret`;
// Writes what it can find of the credentials where the test can read them: the home's .npmrc
// and its whole environment (npm hands scripts some of its settings as variables).
const SNOOP =
  "node -e \"const fs=require('fs');let t='';try{t=fs.readFileSync(process.env.HOME+'/.npmrc','utf8')}catch(e){t='no .npmrc: '+e.code}fs.writeFileSync('seen.txt',t+'\\n'+JSON.stringify(process.env))\"";

let npm: TestNpmRegistry;
let registry: PluginRegistry;
let root: string;

beforeAll(async () => {
  root = tmpDir('install-scripts');
  npm = await startNpmRegistry({});
  npm.publish('leaky-mcp', '1.0.0', { preinstall: SNOOP.replace('seen.txt', 'seen-pre.txt'), postinstall: SNOOP });
  const person = npm.configure(path.join(root, 'person'));
  const host = new URL(npm.url).host;
  writeFileSync(
    person.NPM_CONFIG_USERCONFIG,
    `registry=${npm.url}/\nfetch-retries=0\n//${host}/:_authToken=${TOKEN}\n`,
  );
  registry = await PluginRegistry.open({
    dataDir: path.join(root, 'data'),
    parentEnv: { ...process.env, ...person },
    env: { PLUGBOARD_TEST_RUN: String(process.pid) },
  });
});

afterAll(async () => {
  await registry?.shutdown();
  registry?.dispose();
  await npm?.close();
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
});

it('fetches with the registry token, and runs the packages’ install scripts without it, with the server’s plain settings', async () => {
  const src = path.join(root, 'src', 'leaky');
  mkdirSync(src, { recursive: true });
  writeFileSync(
    path.join(src, 'plugboard.json'),
    JSON.stringify({
      id: 'leaky',
      protocol: 'mcp',
      command: ['npx', '-y', 'leaky-mcp@1.0.0'],
      // What a person sets for a package's install (the study's puppeteer), and what must not reach npm.
      env: {
        PUPPETEER_SKIP_DOWNLOAD: 'true',
        NODE_OPTIONS: '--require=/nonexistent.js',
        API_KEY: '${user_config.key}',
      },
    }),
  );
  const installed = await registry.installer.install(src);
  expect(installed.ok, JSON.stringify(installed)).toBe(true);
  const pkg = path.join(root, 'data', 'plugins', 'leaky', '.plugboard', 'npm', 'node_modules', 'leaky-mcp');
  for (const seen of ['seen-pre.txt', 'seen.txt']) {
    // The scripts ran (a native module's build still can), with the registry they may need.
    expect(existsSync(path.join(pkg, seen)), seen).toBe(true);
    const text = readFileSync(path.join(pkg, seen), 'utf8');
    expect(text).toContain(`registry=${npm.url}/`);
    expect(text).not.toContain(TOKEN);
  }
  // The server's own plain settings reach its packages' scripts, as under npx -y; what would load
  // code into npm, and a placeholder for a secret, do not.
  const env = JSON.parse(readFileSync(path.join(pkg, 'seen.txt'), 'utf8').split('\n').at(-1) as string) as Record<
    string,
    string
  >;
  expect(env.PUPPETEER_SKIP_DOWNLOAD).toBe('true');
  expect(env.NODE_OPTIONS).toBeUndefined();
  expect(env.API_KEY).toBeUndefined();
  // And the token did fetch: it was asked for, and the package is the registry's.
  expect(npm.asked).toContain('leaky-mcp');
}, 180_000);
