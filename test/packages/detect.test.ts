/**
 * Which package a command runs, read as people write commands in the configs they keep, and what
 * of it is installed and what runs: the package and version asked for, the program, and the
 * server's own arguments, placeholders kept.
 */
import { describe, expect, it } from 'vitest';
import { packageOfCommand, pipRequirement } from '../../src/main/plugins/packages/detect';
import { binScript } from '../../src/main/plugins/packages/npm';

describe('the package a runner fetches', () => {
  it('reads npm runners: npx -y, npx -p pkg cmd, bunx, pnpm dlx, yarn dlx', () => {
    expect(packageOfCommand(['npx', '-y', '@modelcontextprotocol/server-filesystem', '/a', '/b'])).toEqual(
      expect.objectContaining({
        ecosystem: 'npm',
        runner: 'npx',
        spec: '@modelcontextprotocol/server-filesystem',
        name: '@modelcontextprotocol/server-filesystem',
        run: { bin: null },
        args: ['/a', '/b'],
      }),
    );
    expect(packageOfCommand(['/usr/local/bin/npx', '--yes', 'pkg@1.2.3', '--port=0'])).toEqual(
      expect.objectContaining({ spec: 'pkg@1.2.3', name: 'pkg', args: ['--port=0'] }),
    );
    expect(packageOfCommand(['npx', '-y', '-p', '@scope/tools@^2', 'scope-server', 'stdio'])).toEqual(
      expect.objectContaining({
        spec: '@scope/tools@^2',
        name: '@scope/tools',
        run: { bin: 'scope-server' },
        args: ['stdio'],
      }),
    );
    expect(packageOfCommand(['bunx', 'pkg'])).toEqual(expect.objectContaining({ runner: 'bunx', name: 'pkg' }));
    expect(packageOfCommand(['pnpm', 'dlx', 'pkg', '--x'])).toEqual(
      expect.objectContaining({ runner: 'pnpm dlx', name: 'pkg', args: ['--x'] }),
    );
    expect(packageOfCommand(['yarn', 'dlx', '@a/b@3'])).toEqual(
      expect.objectContaining({ runner: 'yarn dlx', name: '@a/b' }),
    );
    // `--` ends npx's options: what follows is the package and its arguments.
    expect(packageOfCommand(['npx', '-y', '--', 'pkg', '-v'])).toEqual(
      expect.objectContaining({ spec: 'pkg', args: ['-v'] }),
    );
  });

  it('reads Python runners: uvx, uvx --from, uv tool run, pipx run --spec, with --python and --with', () => {
    expect(packageOfCommand(['uvx', 'mcp-server-git', '--repository', '/r'])).toEqual(
      expect.objectContaining({
        ecosystem: 'pypi',
        runner: 'uvx',
        spec: 'mcp-server-git',
        run: { bin: 'mcp-server-git' },
        args: ['--repository', '/r'],
      }),
    );
    expect(packageOfCommand(['uvx', 'mcp-server-time@2025.1.1', '--local-timezone', 'UTC'])).toEqual(
      expect.objectContaining({
        spec: 'mcp-server-time==2025.1.1',
        name: 'mcp-server-time',
        run: { bin: 'mcp-server-time' },
      }),
    );
    expect(
      packageOfCommand(['uvx', '--python', '3.12', '--with', 'rich', '--from', 'pkg[cli]>=1', 'pkg-server', 'x']),
    ).toEqual(
      expect.objectContaining({
        spec: 'pkg[cli]>=1',
        name: 'pkg',
        with: ['rich'],
        python: '3.12',
        run: { bin: 'pkg-server' },
        args: ['x'],
      }),
    );
    expect(packageOfCommand(['uv', 'tool', 'run', 'pkg', '--a'])).toEqual(
      expect.objectContaining({ runner: 'uv tool run', spec: 'pkg', args: ['--a'] }),
    );
    expect(packageOfCommand(['pipx', 'run', '--spec', 'pkg==2', 'pkg-cli', 'serve'])).toEqual(
      expect.objectContaining({ runner: 'pipx run', spec: 'pkg==2', run: { bin: 'pkg-cli' }, args: ['serve'] }),
    );
    expect(pipRequirement('pkg@latest')).toBe('pkg');
    expect(pipRequirement('pkg[x]@1.0')).toBe('pkg[x]==1.0');
  });

  it('leaves alone what is not a registry package: other programs, paths, URLs, git sources', () => {
    for (const cmd of [
      ['node', '/abs/server.js'],
      ['python3', '-m', 'pkg'],
      ['docker', 'run', '-i', 'img'],
      ['npx', './local-folder'],
      ['npx', 'https://example.com/pkg.tgz'],
      ['uvx', '--from', 'git+https://github.com/a/b', 'b'],
      ['npx', '-c', 'echo hi'],
      ['uv', 'run', 'server.py'],
      ['pipx', 'install', 'pkg'],
    ])
      expect(packageOfCommand(cmd)).toBeNull();
  });

  it('picks the program npx would: the only bin, or the one named after the package, or the one asked for', () => {
    expect(binScript({ name: 'a', bin: 'dist/cli.js' }, null)).toBe('dist/cli.js');
    expect(binScript({ name: '@s/srv', bin: { srv: 'a.js', other: 'b.js' } }, null)).toBe('a.js');
    expect(binScript({ name: 'x', bin: { only: 'c.js' } }, null)).toBe('c.js');
    expect(binScript({ name: 'x', bin: { one: 'a.js', two: 'b.js' } }, 'two')).toBe('b.js');
    expect(binScript({ name: 'x', bin: { one: 'a.js', two: 'b.js' } }, null)).toEqual({
      error: 'x has several programs (one, two) and none is named after it: name one with "npx -p x <program>"',
    });
    expect(binScript({ name: 'x' }, null)).toEqual({
      error: 'x has no program to run (its package.json has no "bin")',
    });
  });
});
