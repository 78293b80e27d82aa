/**
 * The plugin host's one door: supervision of plugin processes and nothing of the app's plugin
 * service (that is src/main/plugins, the only layer above that imports this). It exports the host
 * itself, the call and launch types, launching one instance outside supervision (the install
 * trial, `plugboard check`), the process book, the sandbox helpers and the pieces of a launch plan
 * a manifest reader or an installer needs. Lint enforces that nothing reaches past this file.
 */
export type { ElicitReply, ElicitRequest, SampleReply, SampleRequest, ServerAsks } from './asks';
export type { ServerFeatures } from './features';
export type { UiResource } from './dialects/mcp-apps';
export type { CallOutcome } from './dialects/types';
export { asRecord } from './dialects/values';
export { PluginHost, refusedCall, type FeaturesChangeEvent, type HostOptions, type ToolsChangeEvent } from './host';
export { NETWORK_ENV, networkEnv, pluginEnvironment, type PluginIdentity } from './process/env';
export { firstRunLauncher } from './process/launchers';
export { runInstallStep, type StepOptions, type StepResult } from './process/install-step';
export { defaultLimits, limitsBeyondDefaults, manifestLimits, type LimitUsage } from './process/limits';
export { rootNotice, runningAsRoot } from './process/root';
export type { LaunchPlan, SettingValue } from './process/launch';
export { ProcessBook, sweepLeftovers, type ProcessEntry } from './process/pid-registry';
export { placeholderEscape, resolveSettingValues, substitute } from './process/placeholders';
export { searchPath } from './process/resolve';
export { loginShellPath } from './process/login-path';
export type { OAuthRecord, TokenVault } from './remote/oauth';
export { signIn as signInRemote, signOut as signOutRemote, type SignInOptions } from './remote/sign-in';
export { planLaunchWithShellPath } from './process/plan-with-shell';
export { planRemote } from './remote/plan';
export { appReadOnlyFolders, grantedFolders, type SandboxRequest } from './process/sandbox-prepare';
export { installStepPlan, type InstallStepRequest } from './process/sandbox-install';
export { sandboxSupport, type SandboxSupport } from './process/sandbox-probe';
export { coerceSetting, coerceSettings, displayValue } from './process/settings';
export { treeStats, type TreeStats } from './process/tree-stats';
export type { CallHandle, CallOptions, LaunchBinding, PassthroughChange } from './supervisor/supervisor';
export { DEFAULT_TRIAL_MS, launchOnce, trialCommand, tryLaunch, type TrialPlan } from './trial';
export { schemaProblem, validateArguments } from './validate';
