/**
 * Commands as people write them in the configs they bring: absolute script paths, `python -m`,
 * first-run launchers (npx, uvx, docker…) that need time before they answer, launchers found only
 * on the login shell's PATH, and MCPB setting defaults with placeholders.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/main/plugins/manifests';
import { planLaunch } from '../../src/main/host/process/launch';
import { firstRunLauncher } from '../../src/main/host/process/launchers';
import { loginShellPath } from '../../src/main/host/process/login-path';
import { planLaunchWithShellPath } from '../../src/main/host/process/plan-with-shell';
import type { PluginSpec } from '../../src/shared/plugin';
import { collect } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { FIXTURES, tmpDir } from '../helpers/plugins';
import { isAlive } from '../helpers/processes';

const host = useTestHost();
const parentEnv = { PATH: process.env.PATH ?? '', HOME: '/home/ada' };

function plugin(dir: string, manifest: Record<string, unknown>): PluginSpec {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'plugboard.json'), JSON.stringify({ id: 'p', protocol: 'mcp', ...manifest }));
  const r = loadManifest(dir);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.spec;
}

function mcpb(dir: string, userConfig: Record<string, unknown>, args: string[]): PluginSpec {
  mkdirSync(path.join(dir, 'server'), { recursive: true });
  writeFileSync(path.join(dir, 'server', 'index.js'), '');
  const manifest = {
    manifest_version: '0.3',
    name: 'defaults',
    version: '1.0.0',
    server: {
      type: 'node',
      entry_point: 'server/index.js',
      mcp_config: { command: 'node', args: ['${__dirname}/server/index.js', ...args] },
    },
    user_config: userConfig,
  };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  const r = loadManifest(dir);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.spec;
}

describe('commands as users write them', () => {
  it('runs a server named by an absolute path outside the plugin folder', async () => {
    const server = path.join(FIXTURES, 'mcpb-echo', 'server', 'index.mjs');
    const spec = plugin(tmpDir('abs'), { command: ['node', server, '--greeting', 'Moin'] });
    const plan = planLaunch({ spec, parentEnv });
    expect(plan.ok && plan.args).toEqual([server, '--greeting', 'Moin']);
    const sup = await host.addSpec(spec);
    expect((await collect(sup, 'greet', { name: 'Ada' })).outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ data: 'Moin, Ada!' }),
    });
  });

  it('starts `python3 -m package` from the plugin folder', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'python-module'));
    const r = await collect(sup, 'echo', { a: 1 });
    expect(r.outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ data: { echoed: { a: 1 }, module: '__main__', package: 'echo_server' } }),
    });
  });

  it('checks paths after placeholders are substituted: ${HOME}/.. cannot climb out', () => {
    const dir = tmpDir('escape');
    const msg = (command: string[]): string => {
      const p = planLaunch({ spec: plugin(dir, { command }), parentEnv });
      return p.ok ? 'ok' : p.message;
    };
    expect(msg(['${HOME}/../../bin/sh'])).toBe(
      'command: "${HOME}/../../bin/sh" leaves ${HOME} (it resolves to /bin/sh)',
    );
    expect(msg(['node', '${__dirname}/../x.js'])).toBe(
      `args[0]: "\${__dirname}/../x.js" leaves the plugin folder (it resolves to ${path.join(path.dirname(dir), 'x.js')})`,
    );
    expect(msg(['node', '-e', '1', '${HOME}/notes'])).toBe('ok');
  });
});

describe('first-run launchers', () => {
  it('recognises what npx, bunx, pnpm dlx, uvx, uv run, pipx and docker fetch', () => {
    const what = (command: string[]): [string, string | null, number] | null => {
      const l = firstRunLauncher(command);
      return l ? [l.note, l.target, l.handshakeMs] : null;
    };
    expect(what(['npx', '-y', '@modelcontextprotocol/server-everything'])).toEqual([
      'installing @modelcontextprotocol/server-everything with npx on first run',
      '@modelcontextprotocol/server-everything',
      120_000,
    ]);
    expect(what(['/usr/local/bin/npx', '--package=@scope/tools', 'tool-a'])?.[1]).toBe('@scope/tools');
    expect(what(['bunx', '@upstash/context7-mcp'])?.[0]).toBe(
      'installing @upstash/context7-mcp with bunx on first run',
    );
    expect(what(['pnpm', 'dlx', 'some-server'])?.[0]).toBe('installing some-server with pnpm dlx on first run');
    expect(what(['uvx', '--from', 'git+https://example.com/x', 'x-server'])?.[1]).toBe('git+https://example.com/x');
    expect(what(['uvx', 'mcp-server-time', '--local-timezone=UTC'])?.[1]).toBe('mcp-server-time');
    expect(what(['uv', 'run', 'server.py'])?.[0]).toBe(
      'preparing the Python environment of its package with uv run on first run',
    );
    expect(
      what(['docker', 'run', '-i', '--rm', '-e', 'GITHUB_TOKEN', '-v', '/a:/b', 'ghcr.io/github/github-mcp-server']),
    ).toEqual([
      'pulling ghcr.io/github/github-mcp-server with docker run on first run',
      'ghcr.io/github/github-mcp-server',
      300_000,
    ]);
    expect(what(['node', 'server.js'])).toBeNull();
    expect(what(['pnpm', 'start'])).toBeNull();
    expect(what(['docker', 'ps'])).toBeNull();
  });

  it('gives them a handshake long enough for the download, unless the manifest sets its own, and says what is happening', () => {
    const dir = tmpDir('launcher');
    const spec = plugin(dir, { command: ['npx', '-y', '@modelcontextprotocol/server-everything'] });
    expect(spec.timeouts.handshakeMs).toBe(120_000);
    // It downloads: the network is requested, so it is shown before granting and the sandbox opens it.
    expect(spec.capabilities).toEqual(['net']);
    expect(plugin(dir, { command: ['npx', '-y', 'x'], timeouts: { handshakeMs: 9000 } }).timeouts.handshakeMs).toBe(
      9000,
    );
    expect(plugin(dir, { command: ['node', 'x.js'] }).timeouts.handshakeMs).toBe(5000);
    const plan = planLaunch({ spec, parentEnv });
    expect(plan.ok && plan.note).toBe('installing @modelcontextprotocol/server-everything with npx on first run');
  });

  it('waits for a launcher that takes longer than the usual handshake before the server answers', async () => {
    const dir = tmpDir('slow-npx');
    // Stands in for npx on its first run: the download outlasts the usual 5 s handshake deadline.
    const npx = path.join(dir, 'bin', 'npx');
    mkdirSync(path.dirname(npx));
    writeFileSync(
      npx,
      `#!/bin/sh\nsleep 6\nexec node ${JSON.stringify(path.join(FIXTURES, 'mcpb-echo', 'server', 'index.mjs'))}\n`,
    );
    chmodSync(npx, 0o755);
    const sup = await host.addSpec(plugin(path.join(dir, 'plugin'), { command: [npx, '-y', '@example/echo-server'] }));
    const r = await collect(sup, 'greet', { name: 'late' });
    expect(r.outcome).toEqual({ ok: true, value: expect.objectContaining({ data: 'Hi, late!' }) });
    expect(r.ms).toBeGreaterThan(5000);
  }, 30_000);
});

describe("the login shell's PATH", () => {
  /** A home whose login shell start-up file adds a folder with a program only it knows. */
  function homeWithProfile(profile: string): { home: string; tools: string } {
    const home = tmpDir('home');
    const tools = path.join(home, 'tools');
    mkdirSync(tools);
    writeFileSync(path.join(tools, 'fancy-launcher'), '#!/bin/sh\nexec node "$@"\n');
    chmodSync(path.join(tools, 'fancy-launcher'), 0o755);
    writeFileSync(path.join(home, '.bash_profile'), profile.replaceAll('TOOLS', tools));
    return { home, tools };
  }

  it('resolves a launcher the app’s own PATH lacks, once, and gives the child that PATH', async () => {
    const { home, tools } = homeWithProfile('echo run >> "$HOME/runs"\nexport PATH="TOOLS:$PATH"\n');
    const env = { PATH: '/usr/bin:/bin', HOME: home };
    const spec = plugin(tmpDir('login'), {
      command: ['fancy-launcher', path.join(FIXTURES, 'mcpb-echo', 'server', 'index.mjs')],
    });
    const miss = planLaunch({ spec, parentEnv: env });
    expect(!miss.ok && miss.message).toBe('"fancy-launcher" was not found on PATH');
    const plan = await planLaunchWithShellPath({ spec, parentEnv: env }, { shell: '/bin/bash' });
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.file).toBe(path.join(tools, 'fancy-launcher'));
    expect(plan.env.PATH?.split(':')[0]).toBe(tools);
    expect(plan.pathSearched).toContain('/usr/bin');
    await planLaunchWithShellPath({ spec, parentEnv: env }, { shell: '/bin/bash' });
    expect(readFileSync(path.join(home, 'runs'), 'utf8')).toBe('run\n');
  });

  it('names both PATHs when the program is on neither', async () => {
    const { home, tools } = homeWithProfile('export PATH="TOOLS:$PATH"\n');
    const env = { PATH: '/usr/bin:/bin', HOME: home };
    const spec = plugin(tmpDir('login-miss'), { command: ['no-such-launcher-xyz'] });
    const plan = await planLaunchWithShellPath({ spec, parentEnv: env }, { shell: '/bin/bash' });
    expect(!plan.ok && plan.message).toBe(
      '"no-such-launcher-xyz" was not found on PATH (nor on the PATH of the login shell /bin/bash)',
    );
    // The PATH searched, in the failure: the login shell's first, then the app's own.
    const searched = (!plan.ok && plan.details?.pathSearched?.split(':')) || [];
    expect(searched[0]).toBe(tools);
    expect(searched).toEqual(expect.arrayContaining(['/usr/bin', '/bin']));
  });

  it('gives up on a login shell that hangs, by its deadline, and leaves nothing of it running', async () => {
    const { home } = homeWithProfile('echo $$ > "$HOME/pid"\nsleep 60\n');
    const r = await loginShellPath({ shell: '/bin/bash', env: { PATH: '/usr/bin:/bin', HOME: home }, timeoutMs: 500 });
    expect(r).toEqual({
      ok: false,
      shell: '/bin/bash',
      reason: 'the login shell /bin/bash did not print its environment within 500 ms',
    });
    const pid = Number(readFileSync(path.join(home, 'pid'), 'utf8'));
    const until = Date.now() + 3000;
    while (isAlive(pid) && Date.now() < until) await new Promise((res) => setTimeout(res, 20));
    expect(isAlive(pid)).toBe(false);
  });
});

describe('MCPB setting defaults', () => {
  it('substitutes placeholders in defaults, recursively, and checks that folder settings exist', () => {
    const home = tmpDir('mcpb-home');
    mkdirSync(path.join(home, 'Documents', 'config'), { recursive: true });
    const spec = mcpb(
      tmpDir('mcpb-defaults'),
      {
        workspace: { type: 'directory', title: 'Workspace', default: '${HOME}/Documents' },
        config_dir: { type: 'directory', title: 'Config', default: '${user_config.workspace}/config' },
        roots: { type: 'directory', multiple: true, default: ['${DOCUMENTS}', '${HOME}'] },
      },
      ['--workspace=${user_config.workspace}', '--config=${user_config.config_dir}', '${user_config.roots}'],
    );
    const plan = planLaunch({ spec, parentEnv: { ...parentEnv, HOME: home } });
    if (!plan.ok) throw new Error(plan.message);
    const docs = path.join(home, 'Documents');
    expect(plan.args.slice(1)).toEqual([`--workspace=${docs}`, `--config=${path.join(docs, 'config')}`, docs, home]);
  });

  it('leaves an optional default that names nothing unset, and launches (issue 21); what a person gave must exist', () => {
    const spec = mcpb(
      tmpDir('mcpb-optional'),
      {
        workspace: { type: 'directory', title: 'Workspace', default: '${HOME}/Documents' },
        roots: { type: 'directory', multiple: true, default: ['${DOCUMENTS}', '${HOME}'] },
      },
      ['--workspace=${user_config.workspace}', '${user_config.roots}'],
    );
    // A home without Documents, as on a fresh Linux account: NVIDIA's and Anthropic's reference
    // bundles failed out of the box there.
    const bare = tmpDir('mcpb-bare-home');
    const plan = planLaunch({ spec, parentEnv: { ...parentEnv, HOME: bare } });
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.args.join(' ')).not.toContain('Documents');
    expect(plan.args).toContain(bare);

    const given = planLaunch({
      spec,
      settings: { workspace: path.join(bare, 'Documents') },
      parentEnv: { ...parentEnv, HOME: bare },
    });
    expect(!given.ok && given.message).toBe(
      `setting workspace (Workspace): ${path.join(bare, 'Documents')} does not exist`,
    );
  });

  it('refuses defaults that refer to each other in a circle, naming it', () => {
    const spec = mcpb(
      tmpDir('mcpb-cycle'),
      { a: { type: 'string', default: 'x-${user_config.b}' }, b: { type: 'string', default: '${user_config.a}-y' } },
      ['${user_config.a}'],
    );
    const plan = planLaunch({ spec, parentEnv });
    expect(!plan.ok && plan.message).toBe('the defaults of settings a → b → a refer to each other in a circle');
  });
});
