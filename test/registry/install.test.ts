/**
 * Install, upgrade and uninstall through the registry, with real folders and real zip archives.
 * Every refusal is checked for its message (naming the entry or field at fault), for a data
 * directory left byte-identical (only the audit log may grow, by exactly one line recording the
 * refusal), and for nothing written outside the data directory.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';
import { snapshot } from '../helpers/snapshot';
import { folderItems, writeZip, type ZipItem } from '../helpers/zips';

let sandbox: string;
let data: string;
let src: string;
let registry: PluginRegistry;

const manifestOf = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    manifestVersion: 1,
    name,
    version: '1.0.0',
    description: 'test',
    executable: 'plugin.py',
    persistent: false,
    protocol_version: '2.0',
    functions: [{ name: 'say_hello', properties: {} }],
    ...extra,
  });

beforeAll(async () => {
  sandbox = tmpDir('registry');
  data = path.join(sandbox, 'data');
  src = path.join(sandbox, 'src');
  mkdirSync(src, { recursive: true });
  registry = await PluginRegistry.open({
    dataDir: data,
    bundledDir: path.join(REPO, 'plugins'),
    limits: { maxEntries: 4096 },
  });
  // Something installed already, whose state a refused install must not touch.
  const r = await registry.installer.install(path.join(FIXTURES, 'gassist-python'));
  expect(r.ok).toBe(true);
  await registry.decisions.setExposed('gassist-python', 'count_slowly', false);
  await registry.decisions.configure('files', { roots: [sandbox] });
});

afterAll(async () => {
  await registry.shutdown();
  registry.dispose();
  cleanupFixtures();
});

/** Runs a refused install and checks that nothing but one audit line changed anywhere. */
async function expectRefused(
  source: string,
  message: RegExp,
  opts: { replace?: boolean; reg?: PluginRegistry } = {},
): Promise<void> {
  const reg = opts.reg ?? registry;
  const ignoreAudit = (rel: string) => rel === 'data/audit.log';
  const before = snapshot(sandbox, ignoreAudit);
  const auditBefore = readFileSync(path.join(data, 'audit.log'), 'utf8');
  const r = await reg.installer.install(source, { replace: opts.replace ?? false });
  expect(r.ok).toBe(false);
  expect(!r.ok && r.message).toMatch(message);
  expect(snapshot(sandbox, ignoreAudit)).toEqual(before);
  const auditAfter = readFileSync(path.join(data, 'audit.log'), 'utf8');
  expect(auditAfter.startsWith(auditBefore)).toBe(true);
  const added = auditAfter.slice(auditBefore.length).trim().split('\n');
  expect(added).toHaveLength(1);
  expect(JSON.parse(added[0] as string)).toEqual(
    expect.objectContaining({ action: 'install', ok: false, detail: expect.stringMatching(message) }),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function pyPlugin(dir: string, manifest = manifestOf(path.basename(dir))): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'manifest.json'), manifest);
  writeFileSync(path.join(dir, 'plugin.py'), 'print("hi")\n');
  return dir;
}

const files = (extra: ZipItem[] = []): ZipItem[] => [
  { name: 'manifest.json', data: manifestOf('z') },
  { name: 'plugin.py', data: 'print(1)\n' },
  ...extra,
];

describe('install refusals leave the data directory exactly as it was', () => {
  it('refuses a zip entry that escapes with ../', async () => {
    const zip = await writeZip(path.join(src, 'escape.zip'), files([{ name: 'xx/evil.txt', data: 'x' }]), {
      from: 'xx/evil.txt',
      to: '../evil.txt',
    });
    await expectRefused(zip, /zip entry "\.\.\/evil\.txt" escapes the plugin folder/);
  });

  it('refuses two entries that name one path, however the names are written (red team Z03)', async () => {
    const cases: Array<[string, ZipItem[], RegExp]> = [
      ['dot', [{ name: './plugin.py', data: 'print(2)\n' }], /"plugin\.py" and "\.\/plugin\.py" name the same path/],
      [
        'slashes',
        [
          { name: 'a/b.txt', data: '1' },
          { name: 'a//b.txt', data: '2' },
        ],
        /"a\/b\.txt" and "a\/\/b\.txt" name the same path/,
      ],
      ['folder', [{ name: 'plugin.py', data: '', dir: true }], /"plugin\.py" and "plugin\.py\/" name the same path/],
      [
        'inside',
        [{ name: 'plugin.py/x.txt', data: 'x' }],
        /"plugin\.py" is a file, yet "plugin\.py\/x\.txt" is inside it/,
      ],
    ];
    for (const [label, extra, message] of cases) {
      const zip = await writeZip(path.join(src, `twins-${label}.zip`), files(extra));
      await expectRefused(zip, message);
    }
  });

  it('refuses an absolute path', async () => {
    // A target inside this test's sandbox but outside the data directory, so the snapshot of the
    // sandbox covers it too.
    const target = path.join(sandbox, 'owned.txt');
    const harmless = `x${target.slice(1)}`;
    const zip = await writeZip(path.join(src, 'absolute.zip'), files([{ name: harmless, data: 'x' }]), {
      from: harmless,
      to: target,
    });
    await expectRefused(zip, new RegExp(`zip entry "${escapeRegExp(target)}" has an absolute path`));
    expect(existsSync(target)).toBe(false);
  });

  it('refuses a symbolic link in a zip and in a folder', async () => {
    const zip = await writeZip(
      path.join(src, 'link.zip'),
      files([{ name: 'libs/sneaky', data: '/etc/passwd', mode: 0o120777 }]),
    );
    await expectRefused(zip, /zip entry "libs\/sneaky" is a symbolic link/);
    const dir = pyPlugin(path.join(src, 'linked'));
    symlinkSync('/etc/passwd', path.join(dir, 'passwd'));
    await expectRefused(dir, /"passwd" is a symbolic link/);
  });

  it('refuses more than 4,096 entries', async () => {
    const many = Array.from({ length: 4097 }, (_, i) => ({ name: `data/${i}.txt`, data: String(i) }));
    await expectRefused(
      await writeZip(path.join(src, 'many.zip'), files(many)),
      /has 4099 entries, more than the 4096 allowed/,
    );
  });

  it('refuses more bytes than the limit, which is configurable', async () => {
    const small = await PluginRegistry.open({ dataDir: data, limits: { maxBytes: 100_000 } });
    try {
      const zip = await writeZip(path.join(src, 'big.zip'), files([{ name: 'blob.bin', data: randomBytes(150_000) }]));
      await expectRefused(zip, /big\.zip unpacks to more than 0\.1 MiB \(at entry "blob\.bin"\)/, { reg: small });
      const dir = pyPlugin(path.join(src, 'big-folder'));
      writeFileSync(path.join(dir, 'blob.bin'), randomBytes(150_000));
      await expectRefused(dir, /the folder holds more than 0\.1 MiB \(at "blob\.bin"\)/, { reg: small });
    } finally {
      await small.shutdown();
      small.dispose();
    }
  });

  it('refuses the compression ratio of a zip bomb', async () => {
    const zip = await writeZip(
      path.join(src, 'bomb.zip'),
      files([{ name: 'zeros.bin', data: Buffer.alloc(8 * 1024 * 1024) }]),
    );
    await expectRefused(
      zip,
      /zip entry "zeros\.bin" expands \d+ times \(8\.0 MiB from \d+ bytes\): refused as a zip bomb/,
    );
  });

  it('refuses an archive with a corrupt entry, naming the entry', async () => {
    // Text that deflates to a long stream; then bytes in the middle of that stream are broken.
    const text = Array.from({ length: 4000 }, (_, i) => `line ${i} ${(i * 7919) % 1000}`).join('\n');
    const file = path.join(src, 'corrupt.zip');
    await writeZip(file, files([{ name: 'data/table.txt', data: text }]));
    const buf = readFileSync(file);
    const at = buf.indexOf(Buffer.from('data/table.txt')) + 'data/table.txt'.length + 200;
    buf.fill(0xff, at, at + 64);
    writeFileSync(file, buf);
    await expectRefused(file, /^corrupt\.zip: entry "data\/table\.txt": /);
  });

  it('refuses an archive with no manifest, naming the files looked for', async () => {
    const zip = await writeZip(path.join(src, 'nomanifest.zip'), [{ name: 'README.md', data: '# hi' }]);
    await expectRefused(
      zip,
      /no manifest found in nomanifest\.zip: looked for plugboard\.json, rterm-plugin\.json, plugin\.yaml, plugin\.yml, manifest\.json/,
    );
  });

  it('refuses an invalid manifest, naming the field', async () => {
    const dir = pyPlugin(
      path.join(src, 'badfield'),
      manifestOf('badfield', { functions: [{ name: 'a', parameters: { type: 'array' } }] }),
    );
    await expectRefused(dir, /functions\[0\]\.parameters\.type: expected "object"/);
  });

  it('refuses a relative executable outside the plugin folder, and a placeholder path that climbs out of its folder', async () => {
    const dir = pyPlugin(path.join(src, 'outside'), manifestOf('outside', { executable: '../../bin/tool.py' }));
    await expectRefused(dir, /the executable "\.\.\/\.\.\/bin\/tool\.py" is outside the plugin folder/);
    // Checked after substitution: `${HOME}/../../bin/sh` is /bin/sh, not a path inside HOME.
    const home = path.join(src, 'home-escape');
    mkdirSync(home);
    writeFileSync(
      path.join(home, 'plugboard.json'),
      JSON.stringify({ id: 'home-escape', protocol: 'jsonrpc', command: ['${HOME}/../../bin/sh'] }),
    );
    await expectRefused(home, /the executable "\$\{HOME\}\/\.\.\/\.\.\/bin\/sh" leaves \$\{HOME\}/);
    const up = path.join(src, 'dirname-escape');
    mkdirSync(up);
    writeFileSync(
      path.join(up, 'plugboard.json'),
      JSON.stringify({
        id: 'dirname-escape',
        protocol: 'jsonrpc',
        command: ['node', '${__dirname}/../shared/server.js'],
      }),
    );
    await expectRefused(up, /the argument "\$\{__dirname\}\/\.\.\/shared\/server\.js" leaves the plugin folder/);
  });

  it('refuses a duplicate id unless replacing is asked for', async () => {
    const dir = pyPlugin(path.join(src, 'gassist-python'));
    await expectRefused(
      dir,
      /a plugin "gassist-python" is installed already \(version 1\.0\.0\); replace it to upgrade/,
    );
  });

  it('refuses, with replace or not, another kind of plugin that takes an installed one’s id (its grants would pass to it)', async () => {
    // The study: an .mcpb named "filesystem" over an imported filesystem server took its folders.
    const other = path.join(src, 'other-kind', 'gassist-python');
    mkdirSync(other, { recursive: true });
    writeFileSync(
      path.join(other, 'plugboard.json'),
      JSON.stringify({ id: 'gassist-python', protocol: 'mcp', command: ['node', 'server.mjs'] }),
    );
    writeFileSync(path.join(other, 'server.mjs'), '');
    await expectRefused(
      other,
      /"gassist-python" is installed already as another plugin \(gassist manifest, gassist-v2\), which this one \(plugboard manifest, mcp\) must not replace: it would take over its grants, settings and secrets\. Install it beside as another id \(plugboard plugins install --id gassist-python-2\), or uninstall gassist-python first/,
      { replace: true },
    );
  });

  it('refuses the id of a bundled plugin, even with replace', async () => {
    const dir = pyPlugin(path.join(src, 'hello'));
    await expectRefused(dir, /"hello" is the id of a bundled plugin/, { replace: true });
  });

  it('refuses an id that names Plugboard’s own tools, saying how to install it beside', async () => {
    // The red team's A10: a plugin "assistant" with a tool ask_user read as the built-in one.
    const dir = pyPlugin(path.join(src, 'assistant'));
    await expectRefused(dir, /"assistant" names Plugboard's own tools.*--id assistant-plugin/);
    const as = await registry.installer.install(dir, { id: 'assistant-plugin' });
    expect(as.ok, JSON.stringify(as)).toBe(true);
    expect((await registry.installer.uninstall('assistant-plugin')).ok).toBe(true);
  });

  it('refuses what is not a plugin at all', async () => {
    writeFileSync(path.join(src, 'notes.txt'), 'hello');
    await expectRefused(
      path.join(src, 'notes.txt'),
      /notes\.txt is not a plugin folder, a \.zip, or an \.mcpb\/\.dxt bundle/,
    );
    writeFileSync(path.join(src, 'broken.zip'), 'PK not really');
    await expectRefused(path.join(src, 'broken.zip'), /broken\.zip is not a readable zip archive/);
  });
});

describe('installs that go through', () => {
  it('installs a wrapped zip (content in one top-level folder), named after that folder', async () => {
    const zip = await writeZip(
      path.join(src, 'download (1).zip'),
      folderItems(path.join(FIXTURES, 'gassist-python'), 'weather-plugin/'),
    );
    const r = await registry.installer.install(zip);
    expect(r).toEqual(
      expect.objectContaining({
        ok: true,
        id: 'weather-plugin',
        upgraded: false,
        granted: ['conversation.read', 'passthrough'],
      }),
    );
    const o = await registry.call('weather-plugin', 'say_hello', { name: 'zip' }).done;
    expect(o).toEqual({ ok: true, value: expect.objectContaining({ data: 'Hello, zip!' }) });
  });

  it('installs a flat zip, named after the file', async () => {
    const zip = await writeZip(path.join(src, 'flat-plugin.zip'), folderItems(path.join(FIXTURES, 'gassist-python')));
    expect(await registry.installer.install(zip)).toEqual(expect.objectContaining({ ok: true, id: 'flat-plugin' }));
  });

  it('installs an .mcpb bundle, and previews it first', async () => {
    const bundle = await writeZip(path.join(src, 'echo.mcpb'), folderItems(path.join(FIXTURES, 'mcpb-echo')));
    const preview = await registry.installer.preview(bundle);
    expect(preview).toEqual(
      expect.objectContaining({
        ok: true,
        preview: expect.objectContaining({
          id: 'mcpb-echo',
          dialect: 'mcp',
          requested: ['secrets'],
          tools: [expect.objectContaining({ name: 'greet' }), expect.objectContaining({ name: 'whoami' })],
        }),
      }),
    );
    // The staged copy waits for its confirmation; cancelled, nothing of it is left.
    expect(snapshot(data)['.staging/']).toBeDefined();
    if (preview.ok) registry.installer.cancelPreview(preview.token);
    expect(snapshot(data)['.staging/']).toBeUndefined();
    expect(await registry.installer.install(bundle)).toEqual(expect.objectContaining({ ok: true, id: 'mcpb-echo' }));
    const o = await registry.call('mcpb-echo', 'greet', { name: 'Ada' }).done;
    expect(o).toEqual({ ok: true, value: expect.objectContaining({ data: 'Hello, Ada!' }) });
  });

  it('upgrades in place, keeping settings, exposure and grants, and not granting new requests', async () => {
    await registry.decisions.revoke('gassist-python', ['passthrough']);
    const v2 = path.join(src, 'v2', 'gassist-python');
    cpSync(path.join(FIXTURES, 'gassist-python'), v2, { recursive: true });
    const m = JSON.parse(readFileSync(path.join(v2, 'manifest.json'), 'utf8'));
    writeFileSync(path.join(v2, 'manifest.json'), JSON.stringify({ ...m, version: '2.0.0' }));
    const r = await registry.installer.install(v2, { replace: true });
    expect(r).toEqual(
      expect.objectContaining({
        ok: true,
        upgraded: true,
        version: '2.0.0',
        granted: ['conversation.read'],
        newlyRequested: ['passthrough'],
      }),
    );
    expect(registry.record('gassist-python')?.spec?.version).toBe('2.0.0');
    expect(registry.isExposed('gassist-python', 'count_slowly')).toBe(false);
    expect(registry.decisions.pluginState('gassist-python').grants).toEqual(['conversation.read']);
  });

  it('uninstalls: stops the plugin, removes it with its settings, secrets and data', async () => {
    await registry.decisions.configure('mcpb-echo', { greeting: 'Hi', token: 's3cret' });
    expect(JSON.parse(readFileSync(path.join(data, 'secrets.json'), 'utf8'))['mcpb-echo']).toEqual({ token: 's3cret' });
    const r = await registry.installer.uninstall('mcpb-echo');
    expect(r.ok).toBe(true);
    const snap = snapshot(data);
    expect(Object.keys(snap).some((k) => k.startsWith('plugins/mcpb-echo'))).toBe(false);
    expect(Object.keys(snap).some((k) => k.startsWith('plugin-data/mcpb-echo'))).toBe(false);
    expect(registry.state.plugin('mcpb-echo')).toBeUndefined();
    expect(JSON.parse(readFileSync(path.join(data, 'secrets.json'), 'utf8'))['mcpb-echo']).toBeUndefined();
    expect((await registry.installer.uninstall('hello')).ok).toBe(false);
  });

  it('records every change in the audit log, refusals included', () => {
    const lines = readFileSync(path.join(data, 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string; ok: boolean });
    const actions = new Set(lines.map((l) => `${l.action}:${l.ok}`));
    for (const a of [
      'install:true',
      'install:false',
      'upgrade:true',
      'uninstall:true',
      'uninstall:false',
      'unexpose:true',
      'revoke:true',
      'configure:true',
    ]) {
      expect(actions).toContain(a);
    }
  });
});

describe('who made a bundle', () => {
  it('shows an MCPB bundle’s author, license and picture in the preview; a picture outside its folder, or not a picture, is left out', async () => {
    const p = await registry.installer.preview(path.join(FIXTURES, 'mcpb-echo'));
    if (!p.ok) throw new Error(p.message);
    const png = readFileSync(path.join(FIXTURES, 'mcpb-echo', 'icon.png')).toString('base64');
    expect(p.preview.about).toEqual({
      author: 'Plugboard tests',
      license: 'MIT',
      icon: { light: `data:image/png;base64,${png}`, dark: `data:image/png;base64,${png}` },
    });
    registry.installer.cancelPreview(p.token);

    for (const [name, icon] of [
      ['escaping', '../../../../etc/hostname'],
      ['not-a-picture', 'manifest.json'],
    ] as const) {
      const dir = path.join(src, `about-${name}`);
      cpSync(path.join(FIXTURES, 'mcpb-echo'), dir, { recursive: true });
      const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
      writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ ...m, name: `about-${name}`, icon }));
      const q = await registry.installer.preview(dir);
      if (!q.ok) throw new Error(q.message);
      expect(q.preview.about).toEqual({ author: 'Plugboard tests', license: 'MIT' });
      registry.installer.cancelPreview(q.token);
    }
  });
});
