import { describe, expect, it } from 'vitest';
import {
  exitLabel,
  exitStatusOf,
  exitText,
  resultView,
  summaryOf,
  tableOf,
  TABLE_MAX_COLUMNS,
} from '../../src/renderer/src/features/chat/results/result-shape';

describe('how a structured result is shown', () => {
  it('is a table for an array of flat objects, with columns in the order keys first appear', () => {
    const rows = [
      { pid: 1, name: 'init', running: true },
      { pid: 42, name: 'node', cpu: 3.5 },
      { pid: 7, name: null },
    ];
    expect(resultView(rows)).toEqual({ kind: 'table', table: { columns: ['pid', 'name', 'running', 'cpu'], rows } });
  });

  it('is a table named by its key for an object that only wraps rows, as MCP structuredContent does', () => {
    const processes = [{ pid: 1 }, { pid: 2 }];
    expect(resultView({ processes })).toEqual({
      kind: 'table',
      table: { columns: ['pid'], rows: processes },
      title: 'processes',
    });
    expect(resultView({ processes, total: 2 })).toEqual({ kind: 'tree' });
  });

  it.each([
    ['an object', { a: 1 }],
    ['an array of arrays', [[1, 2]]],
    ['an array of numbers', [1, 2, 3]],
    ['objects with a nested value', [{ a: 1, b: { c: 2 } }]],
    ['objects mixed with a string', [{ a: 1 }, 'two']],
    ['an empty array', []],
    ['objects with no keys', [{}, {}]],
  ])('is a tree for %s', (_, value) => {
    expect(resultView(value)).toEqual({ kind: 'tree' });
  });

  it('is a tree when a table would be too wide to read', () => {
    const wide = Object.fromEntries(Array.from({ length: TABLE_MAX_COLUMNS + 1 }, (_, i) => [`c${i}`, i]));
    expect(tableOf([wide])).toBeNull();
    expect(tableOf([Object.fromEntries(Object.entries(wide).slice(0, TABLE_MAX_COLUMNS))])).not.toBeNull();
  });

  it('is text for a scalar: strings as they are, the rest as JSON writes them', () => {
    expect(resultView('hi')).toEqual({ kind: 'text', text: 'hi' });
    expect(resultView(3)).toEqual({ kind: 'text', text: '3' });
    expect(resultView(false)).toEqual({ kind: 'text', text: 'false' });
  });

  it('summarises a closed node in words', () => {
    expect(summaryOf([1, 2, 3])).toBe('3 items');
    expect(summaryOf([1])).toBe('1 item');
    expect(summaryOf({ a: 1, b: 2 })).toBe('2 keys');
  });
});

describe('a command’s exit status', () => {
  it('reads the terminal plugin’s result: exit 3 is a warning, exit 0 is not', () => {
    const result = { exit_code: 3, output_tail: '', truncated: false, cwd: '/home/a', duration_ms: 12 };
    expect(exitText(exitStatusOf(result)!)).toEqual({ text: 'exit 3', warn: true });
    expect(exitText(exitStatusOf({ ...result, exit_code: 0 })!)).toEqual({ text: 'exit 0', warn: false });
    expect(exitLabel(result)).toBe(', exit 3');
  });

  it('says which signal killed a command that has no code', () => {
    const s = exitStatusOf({ exit_code: null, signal: 'SIGKILL' });
    expect(s).toEqual({ code: null, signal: 'SIGKILL' });
    expect(exitText(s!)).toEqual({ text: 'killed by SIGKILL', warn: true });
  });

  it('knows the other spellings of an exit code', () => {
    expect(exitStatusOf({ exitCode: 1 })?.code).toBe(1);
    expect(exitStatusOf({ returncode: 2 })?.code).toBe(2);
  });

  it.each([
    ['a string', 'exit 3'],
    ['no code', { output: 'x' }],
    ['a code that is not an integer', { exit_code: '3' }],
    ['an array', [{ exit_code: 1 }]],
    ['null', null],
  ])('is absent for %s', (_, result) => {
    expect(exitStatusOf(result)).toBeNull();
    expect(exitLabel(result)).toBe('');
  });
});
