import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/main/plugins/manifests';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { DEFAULT_TIMEOUTS } from '../../src/shared/plugin';

afterAll(cleanupFixtures);

function write(dir: string, file: string, content: unknown): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, file), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return dir;
}

function errorsOf(target: string): string[] {
  const r = loadManifest(target);
  if (r.ok) throw new Error('expected the manifest to be refused');
  return r.errors;
}

const gassist = (functions: unknown[]) => ({
  manifestVersion: 1,
  name: 'my-plugin',
  version: '1.0.0',
  description: 'd',
  executable: 'plugin.py',
  persistent: true,
  protocol_version: '2.0',
  functions,
});

describe('G-Assist manifest.json', () => {
  it('reads both parameter shapes into JSON Schemas, with the folder name as id', () => {
    const dir = path.join(tmpDir('ga'), 'My Folder');
    write(
      dir,
      'manifest.json',
      gassist([
        { name: 'flat', description: 'f', tags: ['a'], properties: { q: { type: 'string' } }, required: ['q'] },
        {
          name: 'nested',
          description: 'n',
          parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: [] },
        },
        { name: 'on_input', description: 'passthrough handler' },
      ]),
    );
    const r = loadManifest(dir);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.spec.id).toBe('my-folder');
    expect(r.spec.name).toBe('my-plugin');
    // Its version is the manifest's (issue 17 item 8), not a default.
    expect(r.spec.version).toBe('1.0.0');
    expect(r.spec.dialect).toBe('gassist-v2');
    expect(r.spec.framing).toBe('length-prefixed');
    expect(r.spec.persistent).toBe(true);
    expect(r.spec.tools.map((t) => t.name)).toEqual(['flat', 'nested']);
    expect(r.spec.tools[0]?.parameters).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    });
    expect(r.spec.tools[0]?.tags).toEqual(['a']);
    expect(r.spec.tools[1]?.parameters).toEqual({
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: [],
    });
  });

  it('names the exact field at fault', () => {
    const dir = write(
      tmpDir('ga-bad'),
      'manifest.json',
      gassist([
        { name: 'a', properties: {} },
        { name: 'b', properties: {} },
        { name: 'c', parameters: { type: 'array' } },
      ]),
    );
    expect(errorsOf(dir)).toEqual(['functions[2].parameters.type: expected "object"']);
  });

  it('refuses V1 manifests and duplicate functions with a reason', () => {
    const v1 = gassist([]) as Record<string, unknown>;
    delete v1.protocol_version;
    expect(errorsOf(write(tmpDir('ga-v1'), 'manifest.json', v1))[0]).toMatch(
      /^protocol_version: missing: this is a G-Assist V1 manifest/,
    );
    expect(errorsOf(write(tmpDir('ga-dup'), 'manifest.json', gassist([{ name: 'x' }, { name: 'x' }])))).toEqual([
      'functions[1].name: "x" is declared twice',
    ]);
  });

  it('reports broken JSON with its line and column', () => {
    const dir = write(tmpDir('ga-json'), 'manifest.json', '{\n  "name": "x",\n  oops\n}');
    expect(errorsOf(dir)[0]).toMatch(/^not valid JSON at line 3, column 3/);
  });
});

describe('Mehrhof plugin.yaml', () => {
  it('reads the provider fixture: tools named by wire method, env as settings with defaults, init call', () => {
    const r = loadManifest(path.join(FIXTURES, 'mehrhof-provider'));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.spec.dialect).toBe('jsonrpc');
    expect(r.spec.rpcFlavor).toBe('mehrhof');
    expect(r.spec.init).toEqual({ method: 'provider.init', params: { config: {} } });
    expect(r.spec.command).toEqual(['python3', './provider.py']);
    expect(r.spec.tools.map((t) => t.name)).toEqual([
      'provider.match',
      'provider.parse',
      'provider.fetch',
      'provider.snapshot',
      'provider.list',
    ]);
    expect(r.spec.settings).toEqual([
      expect.objectContaining({ key: 'FIXTURE_PREFIX', env: 'FIXTURE_PREFIX', default: 'Task', required: false }),
    ]);
  });

  it('gives agent and workflow plugins their method sets', () => {
    const agent = loadManifest(path.join(FIXTURES, 'mehrhof-agent'));
    expect(agent.ok && agent.spec.tools.map((t) => t.name)).toEqual([
      'agent.available',
      'agent.run',
      'agent.tool_result',
    ]);
    const dir = write(
      tmpDir('wf'),
      'plugin.yaml',
      'version: "1"\nname: guard\ntype: workflow\nexecutable:\n  path: ./wf.sh\n',
    );
    const wf = loadManifest(dir);
    expect(wf.ok && wf.spec.tools.map((t) => t.name)).toEqual(['workflow.evaluateGuard', 'workflow.executeEffect']);
    expect(wf.ok && wf.spec.command).toEqual(['./wf.sh']);
  });

  it('names bad YAML positions and bad fields', () => {
    expect(errorsOf(write(tmpDir('y1'), 'plugin.yaml', 'name: [unclosed\n'))[0]).toMatch(/^not valid YAML at line/);
    expect(errorsOf(write(tmpDir('y2'), 'plugin.yaml', 'name: x\ntype: robot\nexecutable: {command: [a]}\n'))).toEqual([
      'type: expected one of "provider"|"agent"|"workflow"',
    ]);
  });
});

describe('rterm-plugin.json', () => {
  it('reads the fixture: one process per call, rterm deadlines, capabilities as requested', () => {
    const r = loadManifest(path.join(FIXTURES, 'rterm-echo'));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.spec.id).toBe('rterm-echo');
    expect(r.spec.persistent).toBe(false);
    expect(r.spec.capabilities).toEqual(['fs.read']);
    expect(r.spec.timeouts.handshakeMs).toBe(2000);
    expect(r.spec.timeouts.callHardCapMs).toBe(5000);
    expect(r.spec.command).toEqual(['node', 'plugin.mjs']);
    expect(r.spec.env).toEqual({ PLUGIN_ID: 'rterm-echo', CAPS: 'fs.read' });
  });

  it('refuses a process.dir outside the bundle', () => {
    const dir = write(tmpDir('rt'), 'rterm-plugin.json', {
      plugin_id: 'x',
      plugin_version: '1',
      protocol_version: 'rterm.plugin.v1',
      process: { command: 'node', dir: '../..' },
    });
    expect(errorsOf(dir)).toEqual(['process.dir: "../.." is outside the plugin folder']);
  });
});

describe('MCPB manifest.json', () => {
  it('reads server.mcp_config with its placeholders kept for launch, and user_config as settings', () => {
    const r = loadManifest(path.join(FIXTURES, 'mcpb-echo'));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.spec.dialect).toBe('mcp');
    expect(r.spec.id).toBe('mcpb-echo');
    expect(r.spec.command).toEqual(['node', '${__dirname}/server/index.mjs', '--greeting', '${user_config.greeting}']);
    expect(r.spec.env).toEqual({ ECHO_HOME: '${HOME}', ECHO_TOKEN: '${user_config.token}' });
    expect(r.spec.settings.map((s) => [s.key, s.sensitive, s.default])).toEqual([
      ['greeting', false, 'Hello'],
      ['token', true, undefined],
    ]);
    expect(r.spec.tools.map((t) => t.name)).toEqual(['greet', 'whoami']);
  });

  it('applies platform overrides and requires a manifest version', () => {
    const m = {
      manifest_version: '0.2',
      name: 'p',
      version: '1.0.0',
      server: {
        type: 'binary',
        entry_point: 'bin/p',
        mcp_config: { command: 'bin/p', args: ['--x'], platform_overrides: { linux: { command: 'bin/p-linux' } } },
      },
    };
    const r = loadManifest(write(tmpDir('mcpb'), 'manifest.json', m));
    expect(r.ok && r.spec.command).toEqual(process.platform === 'linux' ? ['bin/p-linux', '--x'] : ['bin/p', '--x']);
    const noVersion = { ...m } as Record<string, unknown>;
    delete noVersion.manifest_version;
    expect(errorsOf(write(tmpDir('mcpb2'), 'manifest.json', noVersion))).toEqual([
      'manifest_version: manifest_version is missing (or dxt_version, for older bundles)',
    ]);
  });

  it('requests the folders and files its user_config asks for (read; write for folders), so the person can grant them', () => {
    const base = {
      manifest_version: '0.2',
      name: 'fs',
      version: '1.0.0',
      server: {
        type: 'node',
        entry_point: 'server/index.js',
        mcp_config: { command: 'node', args: ['${__dirname}/server/index.js'] },
      },
    };
    const caps = (user_config: Record<string, unknown>) => {
      const r = loadManifest(write(tmpDir('mcpb-caps'), 'manifest.json', { ...base, user_config }));
      return r.ok ? r.spec.capabilities : r;
    };
    expect(
      caps({ allowed_directories: { type: 'directory', title: 'Folders', multiple: true, required: true } }),
    ).toEqual(['fs.read', 'fs.write']);
    expect(caps({ config_file: { type: 'file', title: 'Config' } })).toEqual(['fs.read']);
    expect(caps({ greeting: { type: 'string', title: 'Greeting' } })).toEqual([]);
  });
});

describe('plugboard.json', () => {
  it('reads every field into the spec', () => {
    const dir = write(tmpDir('pb'), 'plugboard.json', {
      id: 'my-tool',
      name: 'My tool',
      version: '2.0.0',
      description: 'd',
      protocol: 'jsonrpc',
      framing: 'length-prefixed',
      command: ['node', 'x.mjs'],
      env: { A: 'b' },
      persistent: false,
      functions: [
        { name: 'go', description: 'g', parameters: { type: 'object', properties: { n: { type: 'number' } } } },
      ],
      capabilities: ['net'],
      timeouts: { callInactivityMs: 1234, restartDelaysMs: [10, 20] },
      settings: { TOKEN: { type: 'string', sensitive: true, required: true, env: 'MY_TOKEN' } },
      user_commands: [{ name: 'status', description: 's', share_with_model: true }],
      auto_approved_tools: ['go'],
      system_instructions: 'Use go.',
      init: { method: 'setup' },
    });
    const r = loadManifest(dir);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const s = r.spec;
    expect([s.id, s.name, s.version, s.dialect, s.framing, s.persistent]).toEqual([
      'my-tool',
      'My tool',
      '2.0.0',
      'jsonrpc',
      'length-prefixed',
      false,
    ]);
    expect(s.timeouts.callInactivityMs).toBe(1234);
    expect(s.timeouts.restartDelaysMs).toEqual([10, 20]);
    // Timeouts it does not set keep the defaults.
    expect(s.timeouts.pingIntervalMs).toBe(DEFAULT_TIMEOUTS.pingIntervalMs);
    expect(s.settings[0]).toEqual(
      expect.objectContaining({ key: 'TOKEN', sensitive: true, required: true, env: 'MY_TOKEN' }),
    );
    expect(s.userCommands).toEqual([{ name: 'status', description: 's', shareWithModel: true }]);
    expect(s.autoApprovedTools).toEqual(['go']);
    expect(s.systemInstructions).toBe('Use go.');
    expect(s.init).toEqual({ method: 'setup', params: {} });
  });

  it('names each bad field', () => {
    const dir = write(tmpDir('pb-bad'), 'plugboard.json', {
      id: 'Bad Id',
      protocol: 'smoke-signals',
      command: [],
      functions: [{ name: 'a' }, { name: 'b', parameters: { type: 'string' } }],
      timeouts: { pingEveryMs: 3 },
    });
    expect(errorsOf(dir)).toEqual([
      'id: must be lower-case letters, digits, ".", "-" or "_" (at most 64)',
      'protocol: expected one of "gassist-v2"|"jsonrpc"|"rterm-v1"|"mcp"',
      'command: must name the program to run',
      'functions[1].parameters.type: expected "object"',
      'timeouts: Unrecognized key: "pingEveryMs"',
    ]);
  });
});

it('names the files it looked for when a folder has no manifest', () => {
  expect(errorsOf(tmpDir('empty'))[0]).toMatch(
    /no manifest found in .*: looked for plugboard\.json, rterm-plugin\.json, plugin\.yaml, plugin\.yml, manifest\.json/,
  );
});
