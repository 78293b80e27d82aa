/**
 * The app's plugin service, its one door: the registry (installed and bundled plugins, the
 * person's decisions about them, their settings and secrets, the audit log), installs and MCP
 * config imports, manifests, and `plugboard check`. It stands on the plugin host (src/main/host),
 * which nothing above this layer imports: the types of a call that the assistant and the service
 * need pass through here.
 */
export { AuditLog, type AuditAction } from './audit';
export { checkPlugin, type CheckItem, type CheckStatus } from './check';
export { DataPaths, defaultDataDir } from './data-paths';
export {
  installImported,
  readMcpConfig,
  type ImportChoice,
  type ImportedConfig,
  type ImportedOne,
  type ServerPreview,
} from './import';
export type { CommitOptions, GrantChoice, InstallOutcome, InstallPreview } from './install/installer';
export { Catalog, type CatalogImport } from './catalog';
export { Updates } from './install/updates';
export { previousVersion } from './install/previous';
export { diffText } from './install/tool-changes';
export { describeManifestErrors, loadManifest } from './manifests';
export type { PluginRecord } from './registry/discovery';
export type { SettingView } from './registry/plugin-settings';
export { PluginRegistry, type RegistryOptions } from './registry/registry';
export { FileSecretStore, type SecretStore } from './secrets';
// A tool definition's hash, for the benchmark of what binding approvals to it costs (bench/assistant.ts).
export { definitionHash } from './registry/definitions';
// What crosses from the host to the layers above, unchanged.
export {
  appReadOnlyFolders,
  coerceSetting,
  coerceSettings,
  PluginHost,
  validateArguments,
  type CallHandle,
  type CallOptions,
  type CallOutcome,
  type ElicitReply,
  type ElicitRequest,
  type PassthroughChange,
  type ServerFeatures,
  type UiResource,
  type SampleReply,
  type SampleRequest,
  type SandboxSupport,
  type ServerAsks,
  type SettingValue,
} from '../host';
