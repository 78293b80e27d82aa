/**
 * NVIDIA's own G-Assist plugins write their logs under %PROGRAMDATA%, or under the working folder
 * when it is not set, which is the plugin's folder: read-only in the sandbox, where they crashed
 * at start. A copy of our Python fixture with NVIDIA's logging lines runs sandboxed, and its log
 * lands in its own data folder, however it runs: installed, tried by `plugboard check`, or called
 * from its folder. Real registry, real bwrap, real CLI and Python processes.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { describeFailure } from '../../src/shared/failures';
import { plugboard } from '../helpers/cli';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { describeSandboxed } from '../helpers/sandbox';

let registry: PluginRegistry;
let plugin: string;
let root: string;

// As NVIDIA's hello-world plugin does it, at import time.
const NVIDIA_LOGGING = `
LOG_DIR = os.path.join(os.environ.get("PROGRAMDATA", "."), "NVIDIA Corporation", "nvtopps", "rise", "plugins", "logs-like-nvidia")
os.makedirs(LOG_DIR, exist_ok=True)
with open(os.path.join(LOG_DIR, "plugin.log"), "a") as log:
    log.write("started\\n")
`;

describeSandboxed('a G-Assist plugin that logs the way NVIDIA’s do', () => {
  beforeAll(async () => {
    root = tmpDir('nvidia-logs');
    plugin = path.join(root, 'logs-like-nvidia');
    cpSync(path.join(FIXTURES, 'gassist-python'), plugin, { recursive: true });
    const code = readFileSync(path.join(plugin, 'plugin.py'), 'utf8').replace(
      'import time\n',
      `import time\n${NVIDIA_LOGGING}`,
    );
    writeFileSync(path.join(plugin, 'plugin.py'), code);
    const manifest = JSON.parse(readFileSync(path.join(plugin, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(plugin, 'manifest.json'), JSON.stringify({ ...manifest, name: 'logs-like-nvidia' }));
    registry = await PluginRegistry.open({
      dataDir: path.join(root, 'data'),
      env: { PLUGBOARD_TEST_RUN: String(process.pid) },
    });
    expect((await registry.installer.install(plugin)).ok).toBe(true);
  });

  afterAll(async () => {
    await registry.shutdown();
    registry.dispose();
    cleanupFixtures();
  });

  it('runs sandboxed, and its log goes to its own data folder', async () => {
    const o = await registry.call('logs-like-nvidia', 'say_hello', { name: 'Ada' }).done;
    if (!o.ok) throw new Error(describeFailure(o));
    expect(o.value.data).toBe('Hello, Ada!');
    const log = path.join(
      registry.paths.pluginData('logs-like-nvidia'),
      'NVIDIA Corporation',
      'nvtopps',
      'rise',
      'plugins',
      'logs-like-nvidia',
      'plugin.log',
    );
    expect(existsSync(log) && readFileSync(log, 'utf8')).toBe('started\n');
  });

  it('passes plugboard check, which tries it sandboxed with a scratch data folder', async () => {
    const r = await plugboard(['check', plugin]);
    expect(r.stdout).toMatch(/launch\s+bwrap/);
    expect(r.stdout).toMatch(/logs-like-nvidia: all checks passed/);
    expect(r.code).toBe(0);
  });

  it('answers plugboard call from its folder, sandboxed, its log in the data folder given', async () => {
    const data = path.join(root, 'call-data');
    const r = await plugboard(['call', plugin, 'say_hello', '--args', '{"name":"Bo"}', '--data-dir', data]);
    expect(r.stderr).not.toMatch(/Read-only file system/);
    expect(r.stdout).toContain('Hello, Bo!');
    expect(r.code).toBe(0);
    expect(existsSync(path.join(data, 'plugin-data', 'logs-like-nvidia', 'NVIDIA Corporation'))).toBe(true);
  });
});
