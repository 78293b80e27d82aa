// Reading and writing text files, and showing them in markdown.
import { randomBytes } from 'node:crypto';
import { chmod, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A NUL byte in the first 8 KiB: what git and most editors take as "binary". */
export function looksBinary(buffer) {
  return buffer.subarray(0, 8192).includes(0);
}

/**
 * The first `limit` bytes of a file of `size` bytes, as text (null when they look binary). A cut
 * in the middle of a UTF-8 character decodes to U+FFFD at the end: it is dropped.
 */
export async function readStart(file, size, limit) {
  const handle = await open(file, 'r');
  let bytes;
  try {
    const buffer = Buffer.alloc(Math.min(limit, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    bytes = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (looksBinary(bytes)) return null;
  const cut = size > bytes.length;
  return {
    text: cut ? bytes.toString('utf8').replace(/\uFFFD+$/, '') : bytes.toString('utf8'),
    cut,
    length: bytes.length,
  };
}

/** Replaces a file in one step: a temp file in the same folder, then rename over the target. */
export async function writeAtomic(file, content, mode) {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, content, { flag: 'wx' });
    if (mode != null) await chmod(temp, mode & 0o7777);
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

export function formatSize(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** A fenced code block whose fence is longer than any backtick run inside the text. */
export function fence(text, lang = '') {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const marks = '`'.repeat(Math.max(3, longest + 1));
  return `${marks}${lang}\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${marks}`;
}

const LANGUAGES = {
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.ts': 'ts',
  '.tsx': 'tsx',
  '.jsx': 'jsx',
  '.json': 'json',
  '.py': 'python',
  '.rs': 'rust',
  '.go': 'go',
  '.java': 'java',
  '.c': 'c',
  '.h': 'c',
  '.cpp': 'cpp',
  '.hpp': 'cpp',
  '.cs': 'csharp',
  '.rb': 'ruby',
  '.php': 'php',
  '.sh': 'sh',
  '.bash': 'bash',
  '.zsh': 'zsh',
  '.ps1': 'powershell',
  '.md': 'markdown',
  '.html': 'html',
  '.css': 'css',
  '.scss': 'scss',
  '.xml': 'xml',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.toml': 'toml',
  '.sql': 'sql',
  '.kt': 'kotlin',
  '.swift': 'swift',
  '.lua': 'lua',
  '.ini': 'ini',
  '.txt': 'text',
};

export function languageOf(file) {
  return LANGUAGES[path.extname(file).toLowerCase()] ?? '';
}
