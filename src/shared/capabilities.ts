/**
 * Capability names, in one place. A plugin requests capabilities (its manifest, or what its
 * protocol implies); the user grants some; the grants are the core-owned allow-list of that
 * plugin. The host enforces what it controls, the sandbox (on Linux) much of the rest; each
 * capability says which, per platform, so the panel and the README can say it exactly.
 */
import type { PluginSpec } from './plugin';

/**
 * How a capability is held to what the person granted:
 * - `sandbox`: by the plugin's sandbox (Linux with bubblewrap: process/sandbox.ts), with the
 *   host's own checks; without the grant the plugin cannot reach the thing at all.
 * - `protocol`: by the host alone, through what it sends and accepts; no sandbox needed.
 * - `none`: declared only; the person decides by trusting the plugin.
 */
export type Enforcement = 'sandbox' | 'protocol' | 'none';

export interface CapabilityInfo {
  name: string;
  title: string;
  /** What granting it allows, in one sentence. */
  description: string;
  /**
   * How it is enforced where plugins run sandboxed (Linux with a working bwrap) and where they
   * do not (macOS, Windows, Linux without bwrap), each with a sentence that says what that means.
   */
  enforcement: {
    sandboxed: Enforcement;
    unsandboxed: Enforcement;
    sandboxedNote: string;
    unsandboxedNote: string;
  };
  /**
   * Enforced even where plugins are not sandboxed. Where they are, ask capabilityHere(): this
   * flag alone understates what the sandbox enforces.
   */
  enforced: boolean;
  /** What the host does without it. */
  withoutIt: string;
}

const NOT_SANDBOXED = 'not enforced: plugins run unsandboxed here, so any plugin can';

export const CAPABILITIES: readonly CapabilityInfo[] = [
  {
    name: 'conversation.read',
    title: 'Read the conversation',
    description: 'Calls carry the chat so far (G-Assist `context`, rterm `context.conversation`).',
    enforcement: {
      sandboxed: 'sandbox',
      unsandboxed: 'none',
      sandboxedNote: 'calls carry no conversation, and the conversation store is out of the plugin’s sight',
      unsandboxedNote: `calls carry no conversation, but this is ${NOT_SANDBOXED} read the conversation store in the data directory`,
    },
    enforced: false,
    withoutIt: 'calls carry an empty conversation',
  },
  {
    name: 'passthrough',
    title: 'Talk to you directly',
    description: 'The plugin may keep a passthrough session, taking what you type until it or you end it.',
    enforcement: {
      sandboxed: 'protocol',
      unsandboxed: 'protocol',
      sandboxedNote: 'only Plugboard passes on what you type, and it ends the session after each call',
      unsandboxedNote: 'only Plugboard passes on what you type, and it ends the session after each call',
    },
    enforced: true,
    withoutIt: 'a keep_session answer is ignored and the session ends after each call',
  },
  {
    name: 'secrets',
    title: 'Receive secrets',
    description: 'Settings marked sensitive (API keys, tokens) are given to the plugin at launch.',
    enforcement: {
      sandboxed: 'sandbox',
      unsandboxed: 'none',
      sandboxedNote:
        'sensitive settings are withheld, and the secret store and Plugboard’s own environment are out of the plugin’s sight',
      unsandboxedNote: `sensitive settings are withheld at launch, but this is ${NOT_SANDBOXED} read secrets.json in the data directory or ask the OS key store`,
    },
    enforced: false,
    withoutIt: 'sensitive settings are withheld; a plugin that requires one does not start',
  },
  {
    name: 'fs.read',
    title: 'Read files',
    description: 'Reads files in the folders you give it in its settings.',
    enforcement: {
      sandboxed: 'sandbox',
      unsandboxed: 'none',
      sandboxedNote:
        'the plugin sees system folders, its own folder and data folder, and the folders you give it (read-only); nothing else exists for it',
      unsandboxedNote: `${NOT_SANDBOXED} read any file you can`,
    },
    enforced: false,
    withoutIt:
      'the folders you give it stay out of its sight (sandboxed); declared only where plugins are not sandboxed',
  },
  {
    name: 'fs.write',
    title: 'Change files',
    description: 'Creates, changes and deletes files in the folders you give it in its settings.',
    enforcement: {
      sandboxed: 'sandbox',
      unsandboxed: 'none',
      sandboxedNote: 'the plugin can write only its own data folder and the folders you give it',
      unsandboxedNote: `${NOT_SANDBOXED} change any file you can`,
    },
    enforced: false,
    withoutIt: 'it writes only its own data folder (sandboxed); declared only where plugins are not sandboxed',
  },
  {
    name: 'process.spawn',
    title: 'Run programs',
    description: 'Starts other programs, such as a shell.',
    enforcement: {
      sandboxed: 'none',
      unsandboxed: 'none',
      sandboxedNote: 'not prevented, but every program it starts stays inside its sandbox, with the same limits',
      unsandboxedNote: `${NOT_SANDBOXED} run any program as you`,
    },
    enforced: false,
    withoutIt: 'declared only: starting programs is not prevented (sandboxed, they stay inside the sandbox)',
  },
  {
    name: 'net',
    title: 'Use the network',
    description: 'Connects to other machines.',
    enforcement: {
      sandboxed: 'sandbox',
      unsandboxed: 'none',
      sandboxedNote:
        'without it the plugin has its own network with loopback only: nothing outside, not even this computer’s local servers',
      unsandboxedNote: `${NOT_SANDBOXED} use the network`,
    },
    enforced: false,
    withoutIt: 'no network at all (sandboxed); declared only where plugins are not sandboxed',
  },
];

export function capabilityInfo(name: string): CapabilityInfo {
  const note = 'Plugboard checks it against your grants at the handshake';
  return (
    CAPABILITIES.find((c) => c.name === name) ?? {
      name,
      title: name,
      description:
        'A capability this plugin’s protocol defines; Plugboard checks it against your grants at the handshake.',
      enforcement: { sandboxed: 'protocol', unsandboxed: 'protocol', sandboxedNote: note, unsandboxedNote: note },
      enforced: true,
      withoutIt: 'the plugin’s handshake is refused with capability_not_allowed',
    }
  );
}

/** A capability as it is enforced on this machine: `sandboxed` when plugins run in the sandbox. */
export function capabilityHere(
  name: string,
  sandboxed: boolean,
): { enforcement: Enforcement; enforced: boolean; note: string } {
  const e = capabilityInfo(name).enforcement;
  const enforcement = sandboxed ? e.sandboxed : e.unsandboxed;
  return { enforcement, enforced: enforcement !== 'none', note: sandboxed ? e.sandboxedNote : e.unsandboxedNote };
}

/**
 * What a plugin requests: its manifest's list, plus what its protocol and settings imply.
 * G-Assist plugins receive the chat context and may hold passthrough sessions by design;
 * a plugin with sensitive settings needs `secrets` to receive them.
 */
export function requestedCapabilities(spec: PluginSpec): string[] {
  const out = new Set(spec.capabilities);
  if (spec.dialect === 'gassist-v2' && spec.manifestFormat === 'gassist') {
    out.add('conversation.read');
    out.add('passthrough');
  }
  if (spec.settings.some((s) => s.sensitive)) out.add('secrets');
  return [...out];
}

/**
 * A folder or file granted to a plugin by path, whatever its manifest requested: shown in its
 * sandbox at the same path, read-only or writable. The paths a server is given in its arguments
 * or environment (a folder list, `--repository`, `MEMORY_FILE_PATH`) are offered as these when it
 * is installed or imported; the person may also grant any plugin a folder.
 */
export interface FolderGrant {
  path: string;
  write: boolean;
}

/**
 * Capabilities a person may grant any plugin, whatever it requested: a G-Assist or Mehrhof
 * manifest cannot request the network, and a server's package needs none once installed, yet
 * either may need it to do its work (a weather plugin, a local service).
 */
export const GRANTABLE_UNREQUESTED: readonly string[] = ['net'];
