/**
 * The plugin host's one door. Everything outside src/main/host imports from here and nothing else
 * of the host (lint enforces it): the registry, the host itself for plugins run from a folder,
 * manifests, the plugin check, and the types that cross the boundary.
 */
export { checkPlugin, type CheckItem, type CheckStatus } from './check';
export type { PluginCatalog } from './catalog';
export type { CallOutcome } from './dialects/types';
export { PluginHost, refusedCall, type CatalogChangeEvent, type HostOptions, type ToolsChangeEvent } from './host';
export type { ElicitReply, ElicitRequest, SampleReply, SampleRequest, ServerAsks } from './asks';
export { installImported, readMcpConfig, type ImportChoice, type ImportedConfig, type ImportedOne, type ServerPreview } from './import';
export { describeManifestErrors, loadManifest } from './manifests';
export type { SettingValue } from './process/launch';
export { appReadOnlyFolders } from './process/sandbox-prepare';
export type { SandboxSupport } from './process/sandbox-probe';
export type { PluginRecord } from './registry/discovery';
export type { GrantChoice, InstallOutcome, InstallPreview } from './registry/installer';
export { coerceSetting } from './registry/settings';
export { DataPaths, defaultDataDir } from './registry/paths';
export type { SettingView } from './registry/plugin-settings';
export { PluginRegistry, type Done, type RegistryOptions } from './registry/registry';
export { FileSecretStore, type SecretStore } from './registry/secrets';
export { AuditLog, type AuditAction } from './registry/audit';
export { validateArguments } from './validate';
export type { CallHandle, CallOptions, LaunchBinding, PassthroughChange } from './supervisor/supervisor';
