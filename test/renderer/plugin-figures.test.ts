/** A plugin row's figures: only those of a process that runs now (issue 12, health history). */
import { describe, expect, it } from 'vitest';
import type { ProcessStats } from '../../src/shared/contract';
import type { HealthEvent, HealthState } from '../../src/shared/plugin';
import { rowFigures } from '../../src/renderer/src/features/plugins/metrics';

const health = (state: HealthState, pid: number | null, extra: Partial<HealthEvent> = {}): HealthEvent => ({
  pluginId: 'p',
  state,
  reason: '',
  pingRttMs: 3,
  restarts: 1,
  pid,
  at: 0,
  ...extra,
});
// The last poll, taken while the old process (pid 100) still ran.
const lastPoll: ProcessStats = {
  pid: 100,
  pluginPid: 100,
  processes: 1,
  cpuPercent: 12.5,
  memoryBytes: 50 * 1024 * 1024,
  pingRttMs: 2,
};
const keys = (parts: Array<[string, string]>): string[] => parts.map(([k]) => k);

describe('plugin row figures', () => {
  it('shows ping, pid, cpu, memory and restarts of a running process', () => {
    expect(keys(rowFigures(health('ready', 100), lastPoll))).toEqual(['ping', 'pid', 'cpu', 'mem', 'restarts']);
  });

  it('shows the plugin’s own pid and process count in the sandbox, not the wrapper’s', () => {
    const sandboxed: ProcessStats = { ...lastPoll, pluginPid: 104, processes: 3 };
    expect(rowFigures(health('ready', 100), sandboxed)).toEqual([
      ['ping', '2.0 ms'],
      ['pid', '104'],
      ['cpu', '13%'],
      ['mem', '50.0 MB'],
      ['procs', '3'],
      ['restarts', '1'],
    ]);
  });

  it('shows no ping while a call runs: pings stop then, and the last one is from before the call', () => {
    expect(keys(rowFigures(health('busy', 100), lastPoll))).toEqual(['pid', 'cpu', 'mem', 'restarts']);
  });

  it('shows nothing of the dead process while the plugin restarts, only the restart count', () => {
    expect(rowFigures(health('restarting', null), lastPoll)).toEqual([['restarts', '1']]);
    expect(rowFigures(health('crashed', null), lastPoll)).toEqual([['restarts', '1']]);
  });

  it('shows no stale ping or process of a disabled or stopped plugin', () => {
    expect(rowFigures(health('disabled', null, { restarts: 0 }), lastPoll)).toEqual([]);
    expect(rowFigures(health('stopped', null, { restarts: 0, pingRttMs: 5 }), undefined)).toEqual([]);
  });

  it('does not mix the old process’s poll into the new one’s figures', () => {
    const parts = rowFigures(health('starting', 200, { pingRttMs: null }), lastPoll);
    expect(parts).toEqual([
      ['pid', '200'],
      ['restarts', '1'],
    ]);
  });
});
