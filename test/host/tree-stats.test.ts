/**
 * A plugin's figures are its own processes (issue 21): a real bubblewrap sandbox whose program
 * starts a child that holds memory and spins. The wrapper's two processes (bubblewrap outside,
 * and the PID namespace's init) are left out, the plugin's two are summed, and the memory agrees
 * with what `ps` says of those two processes.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { treeStats } from '../../src/main/host/process/tree-stats';
import { bwrapPath, describeSandboxed } from '../helpers/sandbox';

const HOLD_MIB = 64;
let sandboxed: ChildProcess;

function psRow(pid: number): { comm: string; rssBytes: number } {
  const [rss, ...comm] = execFileSync('ps', ['-o', 'rss=,comm=', '-p', String(pid)], { encoding: 'utf8' })
    .trim()
    .split(/\s+/);
  return { comm: comm.join(' '), rssBytes: Number(rss) * 1024 };
}

describeSandboxed('the figures of a sandboxed plugin', () => {
  beforeAll(async () => {
    // The child says "held" once its buffer is resident, then spins.
    const child = `const b = Buffer.alloc(${HOLD_MIB} * 1048576, 1); console.log('held'); let x = 0; for (;;) x += b[x % b.length];`;
    const parent = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'inherit' }); setInterval(() => {}, 1000);`;
    sandboxed = spawn(
      bwrapPath(),
      [
        '--ro-bind',
        '/',
        '/',
        '--proc',
        '/proc',
        '--dev',
        '/dev',
        '--unshare-pid',
        '--die-with-parent',
        process.execPath,
        '-e',
        parent,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    await new Promise<void>((resolve) =>
      sandboxed.stdout?.on('data', (d) => {
        out += String(d);
        if (out.includes('held')) resolve();
      }),
    );
  }, 60_000);

  afterAll(() => {
    sandboxed?.kill('SIGKILL');
  });

  it('counts the plugin’s processes, not bubblewrap’s, and names the plugin’s first process', async () => {
    const root = sandboxed.pid as number;
    const t = (await treeStats([root])).get(root);
    expect(t).toBeDefined();
    if (!t) return;
    expect(psRow(root).comm).toBe('bwrap');
    expect(t.pluginPid).not.toBe(root);
    expect(psRow(t.pluginPid).comm).toBe('node');
    expect(t.processes).toBe(2);
    // The two node processes, as ps sees them: the figure is theirs, within 10%.
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(t.pluginPid)], { encoding: 'utf8' })
      .trim()
      .split(/\s+/)
      .map(Number);
    const psBytes = psRow(t.pluginPid).rssBytes + children.reduce((a, p) => a + psRow(p).rssBytes, 0);
    expect(
      Math.abs(t.memoryBytes - psBytes),
      `figures ${t.memoryBytes}, ps ${psBytes} (${t.pluginPid} and ${children.join(' ')})`,
    ).toBeLessThanOrEqual(0.1 * psBytes);
    // The spinning child: a second read measures the interval since the first, and it is busy.
    const again = (await treeStats([root])).get(root);
    expect(again?.cpuPercent).toBeGreaterThan(0);
  });

  it('leaves out a process that has exited', async () => {
    expect((await treeStats([2 ** 22 + 7])).size).toBe(0);
  });
});
