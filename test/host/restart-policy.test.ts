import { describe, expect, it } from 'vitest';
import { RestartPolicy } from '../../src/main/host/supervisor/restart-policy';

describe('restart policy', () => {
  const t = { restartDelaysMs: [1000, 5000, 30_000], restartBudgetResetMs: 60_000 };

  it('backs off 1 s, 5 s, 30 s, then gives up', () => {
    const p = new RestartPolicy(t);
    p.ready(0);
    expect([p.next(10), p.next(20), p.next(30), p.next(40)]).toEqual([
      { restart: true, delayMs: 1000, attempt: 1, of: 3 },
      { restart: true, delayMs: 5000, attempt: 2, of: 3 },
      { restart: true, delayMs: 30_000, attempt: 3, of: 3 },
      { restart: false, attempts: 3 },
    ]);
  });

  it('gives the budget back after 60 s of stable running, and on a user start', () => {
    const p = new RestartPolicy(t);
    p.ready(0);
    p.next(1);
    p.next(2);
    p.ready(100);
    expect(p.next(100 + 59_999)).toEqual(expect.objectContaining({ attempt: 3 }));
    p.ready(200_000);
    expect(p.next(200_000 + 60_000)).toEqual(expect.objectContaining({ attempt: 1, delayMs: 1000 }));
    p.next(260_001);
    p.reset();
    expect(p.next(260_002)).toEqual(expect.objectContaining({ attempt: 1 }));
  });

  it('keeps counting relaunches that fail after a long stable run, and gives up', () => {
    const p = new RestartPolicy(t);
    p.ready(1000);
    // Crashes after 10 minutes of running: the budget is whole again.
    expect(p.next(600_000)).toEqual(expect.objectContaining({ attempt: 1 }));
    // Every relaunch fails before it is ready: those count, whatever the clock says.
    expect(p.next(700_000)).toEqual(expect.objectContaining({ attempt: 2 }));
    expect(p.next(800_000)).toEqual(expect.objectContaining({ attempt: 3 }));
    expect(p.next(900_000)).toEqual({ restart: false, attempts: 3 });
  });
});
