/**
 * `plugboard mcp`: the plugins of a data folder as an MCP server on stdio, for another app
 * (mcp-server/). It opens the registry alone, not the conversation store, so it runs beside the
 * app or `plugboard serve` on the same folder; it stops every plugin it started when the app
 * disconnects or the command is stopped. `--print-config APP` prints that app's config snippet.
 */
import { MCP_CLIENT_APPS, mcpClientSnippet, type McpClientApp } from '../../../shared/mcp-clients';
import { EXIT_OK, parse, UsageError } from '../io';
import type { CliEnv } from '../session';
import { cliMcpLaunch, dataDirOf } from '../target';

export async function mcpCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values } = parse(
    argv,
    { 'data-dir': { type: 'string' }, 'print-config': { type: 'string' } },
    { min: 0, max: 0, names: '' },
  );
  const dataDir = dataDirOf(values['data-dir']);
  const app = values['print-config'];
  if (app !== undefined) {
    if (!(MCP_CLIENT_APPS as readonly string[]).includes(app))
      throw new UsageError(`--print-config takes ${MCP_CLIENT_APPS.join(', ')}, got "${app}"`);
    const snippet = mcpClientSnippet(app as McpClientApp, cliMcpLaunch(dataDir), process.platform);
    env.out.stderr(`Put this in ${snippet.label}'s MCP config (${snippet.file}):\n`);
    env.out.stdout(snippet.text);
    return EXIT_OK;
  }
  // The server and the registry load once the arguments are known good (the snippet needs neither).
  const [{ McpHub, guardStdout, serveStdio }, { PluginRegistry }, { bundledPluginsDir, nodeModulesDir }] =
    await Promise.all([import('../../mcp-server'), import('../../plugins'), import('../target')]);
  // From here on stdout is the protocol's: anything else written there goes to stderr.
  const stdout = guardStdout();
  const note = (line: string): void => env.out.stderr(`plugboard mcp: ${line}\n`);
  try {
    const registry = await PluginRegistry.open({
      dataDir,
      bundledDir: bundledPluginsDir(),
      nodeModules: nodeModulesDir(),
    });
    for (const n of registry.startupNotes) note(n);
    const hub = new McpHub({ registry, version: process.env.npm_package_version ?? '0.1.0', log: note, warm: true });
    try {
      await serveStdio(hub, stdout.protocol, (stop) => env.onInterrupt(stop));
    } finally {
      // Apps close stdin and send SIGTERM a moment later: the plugins are being stopped already,
      // and a signal now must not cut that short (the process record would be left behind).
      const stopping = env.onInterrupt(() => note('stopping the plugins it started…'));
      hub.dispose();
      await registry.shutdown();
      registry.dispose();
      stopping.dispose();
    }
    return EXIT_OK;
  } finally {
    stdout.restore();
  }
}
