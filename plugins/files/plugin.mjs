// Files: list, read, write and undo, confined to the folders the user shared. Every write keeps
// a backup of what it replaced and answers with a unified diff of the change.
import { lstat, mkdir, readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createPlugin, ErrorCode, pluginEnvironment, PluginError } from '../../sdk/node/dist/index.js';
import { Backups } from './backups.mjs';
import { unifiedDiff } from './diff.mjs';
import { loadRoots, resolveInside } from './roots.mjs';
import { attachMentions } from './mentions.mjs';
import { fence, formatSize, languageOf, looksBinary, readStart, writeAtomic } from './text.mjs';

const manifest = JSON.parse(await readFile(new URL('./plugboard.json', import.meta.url), 'utf8'));
const describe = (name) => ({ description: manifest.functions.find((f) => f.name === name)?.description ?? '' });

const env = pluginEnvironment(import.meta.url);
const backups = new Backups(path.join(env.dataDir, 'backups'));
const plugin = createPlugin({ name: manifest.id, version: manifest.version, description: manifest.description });

const DEFAULT_READ_BYTES = 256 * 1024;
const MAX_READ_BYTES = 4 * 1024 * 1024;
const MAX_LIST_ENTRIES = 500;
const MAX_DIFF_CHARS = 200 * 1024;

/** The roots, re-read on every call: a folder created after start-up counts at once. */
async function roots() {
  const { roots: found, problems } = await loadRoots();
  for (const p of problems) plugin.log(`shared folder skipped: ${p}`, 'warning');
  return found;
}

async function target(p) {
  return resolveInside(p, await roots());
}

function showDiff(diff) {
  const text =
    diff.text.length > MAX_DIFF_CHARS
      ? `${diff.text.slice(0, MAX_DIFF_CHARS)}\n… (diff cut at ${formatSize(MAX_DIFF_CHARS)})\n`
      : diff.text;
  return fence(text, 'diff');
}

function counts({ added, removed }) {
  return `+${added} −${removed}`;
}

/** The file's bytes, or null when it does not exist. Folders and binary files are refused. */
async function currentContent(real, action) {
  let st;
  try {
    st = await stat(real);
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw e;
  }
  if (st.isDirectory()) throw new PluginError(`Cannot ${action} ${real}: it is a folder.`);
  const content = await readFile(real);
  if (looksBinary(content))
    throw new PluginError(
      `Cannot ${action} ${real}: it is a binary file (${formatSize(st.size)}); this plugin handles text files only.`,
    );
  return { content, mode: st.mode };
}

plugin.command(
  'list',
  async ({ path: p }) => {
    const shared = await roots();
    if (p === undefined || p === null || p === '') {
      if (shared.length === 0)
        throw new PluginError(
          'No folders are shared with the files plugin. Add one to its `roots` setting (FILES_ROOTS).',
        );
      return [`**Shared folders** · ${shared.length}`, '', ...shared.map((r) => `- 📁 \`${r}\``)].join('\n');
    }
    const { real } = await resolveInside(p, shared);
    const st = await stat(real).catch(() => null);
    if (!st) throw new PluginError(`${real} does not exist.`);
    if (!st.isDirectory()) return `\`${real}\` is a file (${formatSize(st.size)}). Use \`read\` to see it.`;
    const entries = await readdir(real, { withFileTypes: true });
    const rows = [];
    for (const e of entries) {
      const full = path.join(real, e.name);
      if (e.isDirectory()) rows.push({ dir: true, name: e.name, line: `- 📁 \`${e.name}/\`` });
      else if (e.isSymbolicLink())
        rows.push({
          dir: false,
          name: e.name,
          line: `- 🔗 \`${e.name}\` → \`${await readlink(full).catch(() => '?')}\``,
        });
      else
        rows.push({
          dir: false,
          name: e.name,
          line: `- 📄 \`${e.name}\` · ${formatSize((await lstat(full).catch(() => ({ size: 0 }))).size)}`,
        });
    }
    rows.sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name));
    const folders = rows.filter((r) => r.dir).length;
    const head = `**\`${real}\`** · ${folders} folder${folders === 1 ? '' : 's'}, ${rows.length - folders} file${rows.length - folders === 1 ? '' : 's'}`;
    if (rows.length === 0) return `${head}\n\n(empty)`;
    const shown = rows.slice(0, MAX_LIST_ENTRIES).map((r) => r.line);
    if (rows.length > MAX_LIST_ENTRIES) shown.push(`- … and ${rows.length - MAX_LIST_ENTRIES} more`);
    return [head, '', ...shown].join('\n');
  },
  describe('list'),
);

plugin.command(
  'read',
  async ({ path: p, max_bytes }) => {
    const { real } = await target(p);
    const limit = Number.isInteger(max_bytes) ? Math.min(Math.max(max_bytes, 1), MAX_READ_BYTES) : DEFAULT_READ_BYTES;
    const st = await stat(real).catch(() => null);
    if (!st) throw new PluginError(`${real} does not exist.`);
    if (st.isDirectory()) throw new PluginError(`${real} is a folder. Use \`list\` to see what it holds.`);
    const start = await readStart(real, st.size, limit);
    if (!start)
      throw new PluginError(`${real} is a binary file (${formatSize(st.size)}); this plugin shows text files only.`);
    const { text, cut, length } = start;
    const about = cut
      ? `showing the first ${formatSize(length)} of ${formatSize(st.size)} (pass a larger max_bytes for more)`
      : formatSize(st.size);
    return `**\`${real}\`** · ${about}\n\n${st.size === 0 ? '(empty file)' : fence(text, languageOf(real))}`;
  },
  describe('read'),
);

plugin.command(
  'write',
  async ({ path: p, content }) => {
    if (typeof content !== 'string')
      throw new PluginError('"content" must be a string: the whole new text of the file', ErrorCode.InvalidParams);
    const { real } = await target(p);
    const before = await currentContent(real, 'write');
    const oldText = before ? before.content.toString('utf8') : '';
    if (before && oldText === content) return `No change: \`${real}\` already holds exactly this content.`;
    await backups.save(
      real,
      before ? { existed: true, content: before.content, mode: before.mode } : { existed: false },
    );
    await mkdir(path.dirname(real), { recursive: true });
    await writeAtomic(real, content, before?.mode);
    const diff = unifiedDiff(oldText, content, { from: before ? real : '/dev/null', to: real });
    const what = before ? `Updated \`${real}\`` : `Created \`${real}\``;
    return `${what} (${counts(diff)}). The previous state is backed up: \`undo\` restores it.\n\n${showDiff(diff)}`;
  },
  describe('write'),
);

plugin.command(
  'undo',
  async ({ path: p }) => {
    const { real } = await target(p);
    const entry = await backups.latest(real);
    if (!entry)
      throw new PluginError(
        `There is no backup of ${real} to restore: only changes made by this plugin's \`write\` can be undone.`,
      );
    const now = await currentContent(real, 'undo');
    const nowText = now ? now.content.toString('utf8') : '';
    let summary;
    let restoredText = '';
    if (entry.meta.existed) {
      await mkdir(path.dirname(real), { recursive: true });
      await writeAtomic(real, entry.content, entry.meta.mode ?? now?.mode);
      restoredText = entry.content.toString('utf8');
      summary = `Restored \`${real}\` to its state before the last write (backed up ${entry.meta.saved_at}).`;
    } else {
      await rm(real, { force: true });
      summary = `Removed \`${real}\`: it did not exist before it was written.`;
    }
    await backups.drop(entry);
    const diff = unifiedDiff(nowText, restoredText, { from: real, to: entry.meta.existed ? real : '/dev/null' });
    const left =
      entry.remaining === 0
        ? 'No older backups remain.'
        : `${entry.remaining} older backup${entry.remaining === 1 ? '' : 's'} remain${entry.remaining === 1 ? 's' : ''}.`;
    return `${summary} ${left} (${counts(diff)})\n\n${diff.text ? showDiff(diff) : '(no difference)'}`;
  },
  describe('undo'),
);

// The prompt enricher (plugboard.json `prompt_enrichment`): the host calls it with the person's
// message before a model reads it; it is never offered to a model as a tool.
plugin.command(
  'attach_mentions',
  async ({ prompt }) => attachMentions(typeof prompt === 'string' ? prompt : '', await roots()),
  describe('attach_mentions'),
);

await plugin.run();
