/**
 * One Plugboard per data directory: a second process is refused with one line that says what to
 * do, and a claim left behind by a process that is gone (exited, its pid now another
 * program's, an older Plugboard's bare pid, a lock of a killed opener) never blocks the next
 * start. Real processes; the owner files are written the way each case leaves them.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversationStore, StoreOpenError } from '../../src/main/assistant/store/store';
import { processStart } from '../../src/main/assistant/store/owner';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { startChild } from './helpers';

afterAll(() => cleanupFixtures());

function storeFile(): string {
  return path.join(tmpDir('owner'), 'conversations.sqlite');
}

const ownerOf = (file: string): { pid: number } => JSON.parse(readFileSync(`${file}.owner`, 'utf8')) as { pid: number };
const bootId = (): string => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

/** A live process that is not Plugboard, and a way to end it. */
async function otherProgram(): Promise<{ pid: number; end(): Promise<void> }> {
  const p = spawn('sleep', ['60'], { stdio: 'ignore' });
  await new Promise((r) => p.once('spawn', r));
  return {
    pid: p.pid as number,
    end: async () => {
      const exited = new Promise((r) => p.once('exit', r));
      p.kill('SIGKILL');
      await exited;
    },
  };
}

describe('a second Plugboard on the same data directory', () => {
  it('is refused with one line naming the owner and saying what to do, until the owner closes', async () => {
    const file = storeFile();
    const holder = startChild(['hold', file]);
    try {
      await holder.waitFor((l) => l.includes('ready'), 20_000);
      const err = await ConversationStore.open(file).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreOpenError);
      const line = (err as StoreOpenError).message;
      expect(line).not.toContain('\n');
      expect(line).toBe(
        `the conversations in ${path.dirname(file)} are open in another Plugboard (process ${holder.proc.pid}): close it, or give this one another data directory. ` +
          `If no Plugboard is running, delete ${file}.owner.`,
      );
      expect((err as StoreOpenError).failure.code).toBe('invalid_state');
      holder.proc.stdin?.end();
      expect((await holder.closed(20_000)).code).toBe(0);
      const s = await ConversationStore.open(file);
      expect(ownerOf(file).pid).toBe(process.pid);
      s.dispose();
    } finally {
      holder.proc.kill('SIGKILL');
    }
  });

  it('as a process of its own, prints that one line and nothing else', async () => {
    const file = storeFile();
    const s = await ConversationStore.open(file);
    const second = startChild(['hold', file]);
    const { code } = await second.closed(20_000);
    s.dispose();
    expect(code).toBe(3);
    expect(second.stderr()).toMatch(
      new RegExp(
        `^the conversations in .* are open in another Plugboard \\(process ${process.pid}\\): .*\\.owner\\.\\n$`,
      ),
    );
  });
});

describe('a claim left behind', () => {
  it('by a process that has exited is taken over', async () => {
    const file = storeFile();
    const p = await otherProgram();
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(`${file}.owner`, JSON.stringify({ pid: p.pid, start: processStart(p.pid), boot: bootId() }));
    await expect(ConversationStore.open(file)).rejects.toThrow(`(process ${p.pid})`);
    await p.end();
    const s = await ConversationStore.open(file);
    expect(ownerOf(file).pid).toBe(process.pid);
    s.dispose();
  });

  it('whose pid now belongs to another program (another start time) is taken over', async () => {
    const file = storeFile();
    const p = await otherProgram();
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      const start = Number(processStart(p.pid));
      writeFileSync(`${file}.owner`, JSON.stringify({ pid: p.pid, start: String(start - 100), boot: bootId() }));
      const s = await ConversationStore.open(file);
      expect(ownerOf(file).pid).toBe(process.pid);
      s.dispose();
      // The same pid and start time, but recorded before the last boot: another process too.
      writeFileSync(`${file}.owner`, JSON.stringify({ pid: p.pid, start: String(start), boot: 'another-boot' }));
      (await ConversationStore.open(file)).dispose();
    } finally {
      await p.end();
    }
  });

  it('as an older Plugboard’s bare pid, by a process started after the file was written, is taken over', async () => {
    const file = storeFile();
    const p = await otherProgram();
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(`${file}.owner`, `${p.pid}\n`);
      const anHourAgo = (Date.now() - 3_600_000) / 1000;
      utimesSync(`${file}.owner`, anHourAgo, anHourAgo);
      const s = await ConversationStore.open(file);
      expect(ownerOf(file).pid).toBe(process.pid);
      s.dispose();
    } finally {
      await p.end();
    }
  });

  it('as the lock of an opener that was killed, is broken once stale instead of waiting forever', async () => {
    const file = storeFile();
    mkdirSync(`${file}.owner.lock`, { recursive: true });
    const aMinuteAgo = (Date.now() - 60_000) / 1000;
    utimesSync(`${file}.owner.lock`, aMinuteAgo, aMinuteAgo);
    const s = await ConversationStore.open(file);
    expect(ownerOf(file).pid).toBe(process.pid);
    s.dispose();
  });
});
