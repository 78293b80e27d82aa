/** `plugboard check <plugin>`: the checks of plugins/check.ts, as a list or as JSON. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FolderGrant } from '../../../shared/capabilities';
import { appReadOnlyFolders, checkPlugin, PluginRegistry, type CheckStatus, type SettingValue } from '../../plugins';
import { bundledPluginsDir, dataDirOf, writtenAsPath, nodeModulesDir } from '../target';
import { parsePairs } from './plugins';
import { EXIT_FAILED, EXIT_OK, jsonLine, parse } from '../io';
import type { CliEnv } from '../session';

const MARK: Record<CheckStatus, string> = { pass: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' };

export async function checkCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      json: { type: 'boolean' },
      set: { type: 'string', multiple: true },
      'data-dir': { type: 'string' },
      'no-sandbox': { type: 'boolean' },
    },
    { min: 1, max: 1, names: '<plugin>' },
  );
  const arg = positionals[0] as string;
  let target = arg;
  // Checked against the plugin's settings (types, folders that exist) once its manifest is read.
  const set = parsePairs(values.set ?? []);
  let settings: Record<string, SettingValue> = {};
  let allowedCapabilities: string[] | undefined;
  let folders: FolderGrant[] | undefined;
  let ownData: string | undefined;
  let unknown: string | undefined;
  const dataDir = dataDirOf(values['data-dir']);
  if (!writtenAsPath(arg)) {
    // An installed or bundled plugin: check it with its settings and grants.
    const registry = await PluginRegistry.open({ dataDir, bundledDir: bundledPluginsDir() });
    const rec = registry.record(arg);
    if (rec) {
      target = rec.dir;
      settings = rec.spec ? await registry.settings.launchValues(arg, rec.spec.settings) : {};
      allowedCapabilities = registry.decisions.pluginState(arg).grants;
      folders = registry.decisions.pluginState(arg).folders;
      // Its own data folder, as it runs: what its first run made there is there (no second download).
      ownData = registry.paths.pluginData(arg);
    } else if (!existsSync(arg)) {
      unknown = `no plugin "${arg}" is bundled or installed (data directory ${dataDir}), and there is no folder or file ${path.resolve(arg)}`;
    }
    await registry.shutdown();
    registry.dispose();
  }
  const { spec, items } = unknown
    ? { spec: undefined, items: [{ name: 'manifest' as const, status: 'fail' as const, detail: unknown }] }
    : await checkPlugin(target, {
        settings,
        set,
        ...(allowedCapabilities ? { allowedCapabilities } : {}),
        ...(ownData ? { dataDir: ownData } : {}),
        // Checked as it will run: sandboxed (where the sandbox works), the data directory hidden from it.
        ...(values['no-sandbox']
          ? {}
          : {
              sandbox: {
                hiddenRoot: dataDir,
                extraReadOnly: appReadOnlyFolders({ bundledDir: bundledPluginsDir(), nodeModules: nodeModulesDir() }),
                ...(folders ? { folders } : {}),
              },
            }),
      });
  const ok = items.every((i) => i.status !== 'fail');
  if (values.json) {
    jsonLine(env.out, { ok, plugin: spec?.id ?? null, checks: items });
  } else {
    for (const i of items) {
      const [first, ...more] = i.detail.split('\n');
      env.out.stdout(`${MARK[i.status]}  ${i.name.padEnd(9)}  ${first}\n`);
      for (const line of more) env.out.stdout(`${' '.repeat(17)}${line}\n`);
    }
    env.out.stdout(ok ? `\n${spec?.id}: all checks passed\n` : `\n${spec?.id ?? positionals[0]}: some checks failed\n`);
  }
  return ok ? EXIT_OK : EXIT_FAILED;
}
