/**
 * The files plugin as a real child process, on real folders under the OS temp dir: what it
 * shows, what it writes to disk, what it backs up and restores, and what it refuses.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { announcedTools, cleanup, readManifest, startPlugin, tempDir, type PluginClient } from '../../test-helpers.js';

const posix = process.platform !== 'win32';

afterEach(cleanup);

interface Setup {
  p: PluginClient;
  root: string;
  outside: string;
  dataDir: string;
}

async function setup(extraRoots: string[] = []): Promise<Setup> {
  const root = realpathSync(tempDir('files-root'));
  const outside = realpathSync(tempDir('files-outside'));
  const dataDir = tempDir('files-data');
  const p = await startPlugin('files', { dataDir, env: { FILES_ROOTS: [root, ...extraRoots].join(path.delimiter) } });
  return { p, root, outside, dataDir };
}

async function ok(p: PluginClient, fn: string, args: Record<string, unknown>): Promise<string> {
  const turn = await p.call(fn, args);
  if (!turn.complete) throw new Error(`${fn} failed: ${turn.error?.message}`);
  return String(turn.complete.data);
}

async function refused(p: PluginClient, fn: string, args: Record<string, unknown>): Promise<string> {
  const turn = await p.call(fn, args);
  expect(turn.error, `${fn} ${JSON.stringify(args)} should have failed`).toBeDefined();
  return turn.error?.message ?? '';
}

describe('files', () => {
  it('announces exactly the tools its manifest declares', async () => {
    const { p } = await setup();
    expect(await announcedTools(p)).toEqual(readManifest('files').functions.map((f) => f.name));
  });

  it('says how to share a folder when none is shared', async () => {
    const p = await startPlugin('files', { env: { FILES_ROOTS: '' } });
    expect(await refused(p, 'list', {})).toMatch(/`roots` setting/);
  });

  describe('list and read', () => {
    it('lists the shared folders, then a folder’s contents, folders first', async () => {
      const { p, root } = await setup();
      mkdirSync(path.join(root, 'src'));
      writeFileSync(path.join(root, 'b.txt'), 'x'.repeat(2048));
      writeFileSync(path.join(root, 'a.md'), 'hi');
      expect(await ok(p, 'list', {})).toContain(`\`${root}\``);
      const listing = await ok(p, 'list', { path: root });
      expect(listing).toContain('1 folder, 2 files');
      expect(listing).toMatch(/📁 `src\/`[\s\S]*📄 `a\.md` · 2 B[\s\S]*📄 `b\.txt` · 2\.0 KiB/);
    });

    it('reads a text file into a fenced block, relative paths starting at the first root', async () => {
      const { p, root } = await setup();
      writeFileSync(path.join(root, 'note.ts'), 'const a = 1;\n');
      const shown = await ok(p, 'read', { path: 'note.ts' });
      expect(shown).toContain(`\`${path.join(root, 'note.ts')}\``);
      expect(shown).toContain('```ts\nconst a = 1;\n```');
    });

    it('reads only max_bytes and says so', async () => {
      const { p, root } = await setup();
      writeFileSync(path.join(root, 'long.txt'), 'abcdefghij'.repeat(100));
      const shown = await ok(p, 'read', { path: 'long.txt', max_bytes: 25 });
      expect(shown).toContain('abcdefghijabcdefghijabcde\n```');
      expect(shown).toMatch(/first 25 B of 1000 B/);
    });

    it('refuses binary files, folders and missing files with a clear message', async () => {
      const { p, root } = await setup();
      writeFileSync(path.join(root, 'image.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
      expect(await refused(p, 'read', { path: 'image.bin' })).toMatch(/binary file/);
      expect(await refused(p, 'read', { path: root })).toMatch(/is a folder/);
      expect(await refused(p, 'read', { path: 'nope.txt' })).toMatch(/nope\.txt does not exist/);
    });
  });

  describe('write and undo', () => {
    it('creates a file, parent folders included, and shows the diff from nothing', async () => {
      const { p, root } = await setup();
      const result = await ok(p, 'write', { path: 'docs/new.md', content: '# Title\n\nbody\n' });
      expect(readFileSync(path.join(root, 'docs', 'new.md'), 'utf8')).toBe('# Title\n\nbody\n');
      expect(result).toMatch(/^Created `.*new\.md` \(\+3 −0\)/);
      expect(result).toContain(
        `--- /dev/null\n+++ ${path.join(root, 'docs', 'new.md')}\n@@ -0,0 +1,3 @@\n+# Title\n+\n+body\n`,
      );
    });

    it('replaces a file and answers with a unified diff of just the change', async () => {
      const { p, root } = await setup();
      const file = path.join(root, 'list.txt');
      const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      const changed = [...lines];
      changed[9] = 'line TEN';
      const result = await ok(p, 'write', { path: file, content: `${changed.join('\n')}\n` });
      expect(readFileSync(file, 'utf8')).toContain('line TEN');
      expect(result).toContain('(+1 −1)');
      expect(result).toContain(
        '@@ -7,7 +7,7 @@\n line 7\n line 8\n line 9\n-line 10\n+line TEN\n line 11\n line 12\n line 13\n',
      );
      expect(result).not.toContain(' line 1\n');
    });

    it.runIf(posix)('keeps the file’s permissions', async () => {
      const { p, root } = await setup();
      const file = path.join(root, 'run.sh');
      writeFileSync(file, 'echo 1\n');
      chmodSync(file, 0o755);
      await ok(p, 'write', { path: file, content: 'echo 2\n' });
      expect(statSync(file).mode & 0o777).toBe(0o755);
    });

    it('says when there is nothing to change, and keeps no backup for it', async () => {
      const { p, root, dataDir } = await setup();
      writeFileSync(path.join(root, 'same.txt'), 'same\n');
      expect(await ok(p, 'write', { path: 'same.txt', content: 'same\n' })).toMatch(/^No change/);
      expect(existsSync(path.join(dataDir, 'backups')) ? readdirSync(path.join(dataDir, 'backups')) : []).toEqual([]);
    });

    it('undoes writes one by one, down to removing a file the first write created', async () => {
      const { p, root } = await setup();
      const file = path.join(root, 'story.txt');
      await ok(p, 'write', { path: file, content: 'one\n' });
      await ok(p, 'write', { path: file, content: 'one\ntwo\n' });

      const first = await ok(p, 'undo', { path: file });
      expect(readFileSync(file, 'utf8')).toBe('one\n');
      expect(first).toMatch(/^Restored/);
      expect(first).toContain('@@ -1,2 +1 @@\n one\n-two\n');

      const second = await ok(p, 'undo', { path: file });
      expect(existsSync(file)).toBe(false);
      expect(second).toMatch(/^Removed .*did not exist before/);

      expect(await refused(p, 'undo', { path: file })).toMatch(/no backup of .*story\.txt/);
    });

    it('keeps at most 5 backups per file, in PLUGBOARD_DATA_DIR', async () => {
      const { p, root, dataDir } = await setup();
      const file = path.join(root, 'v.txt');
      for (let v = 1; v <= 8; v++) await ok(p, 'write', { path: file, content: `v${v}\n` });
      const [folder] = readdirSync(path.join(dataDir, 'backups'));
      expect(
        readdirSync(path.join(dataDir, 'backups', folder as string)).filter((n) => n.endsWith('.json')),
      ).toHaveLength(5);
      for (const expected of ['v7\n', 'v6\n', 'v5\n', 'v4\n', 'v3\n']) {
        await ok(p, 'undo', { path: file });
        expect(readFileSync(file, 'utf8')).toBe(expected);
      }
      expect(await refused(p, 'undo', { path: file })).toMatch(/no backup/);
    });

    it('survives a restart: backups are on disk, not in memory', async () => {
      const root = realpathSync(tempDir('files-root'));
      const dataDir = tempDir('files-data');
      const env = { FILES_ROOTS: root };
      const first = await startPlugin('files', { dataDir, env });
      await ok(first, 'write', { path: 'keep.txt', content: 'before\n' });
      await ok(first, 'write', { path: 'keep.txt', content: 'after\n' });
      await first.stop();
      const second = await startPlugin('files', { dataDir, env });
      await ok(second, 'undo', { path: 'keep.txt' });
      expect(readFileSync(path.join(root, 'keep.txt'), 'utf8')).toBe('before\n');
    });
  });

  describe('confinement', () => {
    it('refuses paths outside the shared folders, naming the path and the folders', async () => {
      const { p, root, outside } = await setup();
      const target = path.join(outside, 'x.txt');
      writeFileSync(target, 'secret\n');
      for (const fn of ['read', 'write', 'undo']) {
        const message = await refused(p, fn, { path: target, content: 'pwned\n' });
        expect(message).toContain(target);
        expect(message).toContain(root);
      }
      expect(await refused(p, 'list', { path: outside })).toMatch(/outside the folders shared/);
      expect(readFileSync(target, 'utf8')).toBe('secret\n');
    });

    it('refuses ../ escapes', async () => {
      const { p, root, outside } = await setup();
      const sneaky = path.join(path.relative(root, outside), 'escape.txt');
      expect(await refused(p, 'write', { path: sneaky, content: 'x' })).toMatch(/outside the folders shared/);
      expect(existsSync(path.join(outside, 'escape.txt'))).toBe(false);
    });

    it.runIf(posix)('follows symlinks to where they really point before deciding', async () => {
      const { p, root, outside } = await setup();
      writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
      symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link-out.txt'));
      symlinkSync(outside, path.join(root, 'dir-out'));
      symlinkSync(path.join(outside, 'missing.txt'), path.join(root, 'dangling.txt'));
      writeFileSync(path.join(root, 'real.txt'), 'inside\n');
      symlinkSync(path.join(root, 'real.txt'), path.join(root, 'link-in.txt'));

      expect(await refused(p, 'read', { path: 'link-out.txt' })).toMatch(/resolves to .*secret\.txt/);
      expect(await refused(p, 'write', { path: 'link-out.txt', content: 'pwned\n' })).toMatch(/outside/);
      expect(await refused(p, 'write', { path: 'dir-out/new.txt', content: 'pwned\n' })).toMatch(/outside/);
      expect(await refused(p, 'write', { path: 'dangling.txt', content: 'pwned\n' })).toMatch(
        /link to something that does not exist/,
      );
      expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
      expect(existsSync(path.join(outside, 'missing.txt'))).toBe(false);
      expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);

      expect(await ok(p, 'read', { path: 'link-in.txt' })).toContain('inside');
    });

    it('accepts every shared folder, not only the first', async () => {
      const second = realpathSync(tempDir('files-root2'));
      const { p } = await setup([second]);
      await ok(p, 'write', { path: path.join(second, 'b.txt'), content: 'in the second root\n' });
      expect(readFileSync(path.join(second, 'b.txt'), 'utf8')).toBe('in the second root\n');
    });
  });

  describe('attach_mentions (its prompt enricher)', () => {
    const enrich = async (p: PluginClient, prompt: string) => {
      const turn = await p.call('attach_mentions', { prompt });
      if (!turn.complete) throw new Error(`attach_mentions failed: ${turn.error?.message}`);
      return turn.complete.data as { prompt: string; note?: string };
    };

    it('attaches an excerpt of each file mentioned inside the shared folders, and says which', async () => {
      const { p, root } = await setup();
      mkdirSync(path.join(root, 'My Notes'));
      writeFileSync(path.join(root, 'todo.md'), '- buy milk\n');
      writeFileSync(path.join(root, 'My Notes', 'plan.txt'), 'step one\n');
      const r = await enrich(p, 'Compare @todo.md with @"My Notes/plan.txt".');
      expect(r.prompt.startsWith('Compare @todo.md with @"My Notes/plan.txt".\n\n')).toBe(true);
      expect(r.prompt).toContain(
        `Attached file ${path.join(root, 'todo.md')} (11 B):\n\`\`\`markdown\n- buy milk\n\`\`\``,
      );
      expect(r.prompt).toContain('step one');
      expect(r.note).toBe('attached todo.md (11 B), My Notes/plan.txt (9 B)');
    });

    it('leaves a message alone when a mention names nothing it may read: e-mail addresses, handles, files outside, binaries', async () => {
      const { p, root, outside } = await setup();
      writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
      writeFileSync(path.join(root, 'blob.bin'), Buffer.from([1, 0, 2]));
      const said = `Mail ann@example.com, ask @bob, see @${path.join(outside, 'secret.txt')} and @blob.bin`;
      expect(await enrich(p, said)).toEqual({ prompt: said });
    });

    it('attaches only the start of a large file, and at most five files', async () => {
      const { p, root } = await setup();
      writeFileSync(path.join(root, 'big.txt'), 'x'.repeat(100_000));
      for (let i = 0; i < 7; i++) writeFileSync(path.join(root, `f${i}.txt`), `file ${i}\n`);
      const big = await enrich(p, 'Summarise @big.txt');
      expect(big.note).toBe('attached big.txt (first 16 KiB of 98 KiB)');
      expect(big.prompt.length).toBeLessThan(17_000);
      const many = await enrich(p, Array.from({ length: 7 }, (_, i) => `@f${i}.txt`).join(' '));
      expect(many.note?.split(', ')).toHaveLength(5);
      expect(many.prompt).not.toContain('file 5');
    });
  });
});
