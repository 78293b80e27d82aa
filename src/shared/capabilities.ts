/**
 * Capability names, in one place. A plugin requests capabilities (its manifest, or what its
 * protocol implies); the user grants some; the grants are the core-owned allow-list of that
 * plugin. The host enforces what it controls; the others are declared so a person can decide.
 */
import type { PluginSpec } from './model';

export interface CapabilityInfo {
  name: string;
  title: string;
  /** What granting it allows, in one sentence. */
  description: string;
  /** Whether Plugboard itself enforces it (true), or it is declared for the user to judge. */
  enforced: boolean;
  /** What the host does without it. */
  withoutIt: string;
}

export const CAPABILITIES: readonly CapabilityInfo[] = [
  {
    name: 'conversation.read',
    title: 'Read the conversation',
    description: 'Calls carry the chat so far (G-Assist `context`, rterm `context.conversation`).',
    enforced: true,
    withoutIt: 'calls carry an empty conversation',
  },
  {
    name: 'passthrough',
    title: 'Talk to you directly',
    description: 'The plugin may keep a passthrough session, taking what you type until it or you end it.',
    enforced: true,
    withoutIt: 'a keep_session answer is ignored and the session ends after each call',
  },
  {
    name: 'secrets',
    title: 'Receive secrets',
    description: 'Settings marked sensitive (API keys, tokens) are given to the plugin at launch.',
    enforced: true,
    withoutIt: 'sensitive settings are withheld; a plugin that requires one does not start',
  },
  {
    name: 'fs.read',
    title: 'Read files',
    description: 'Reads files in the folders you give it in its settings.',
    enforced: false,
    withoutIt: 'declared only: Plugboard does not sandbox plugin processes',
  },
  {
    name: 'fs.write',
    title: 'Change files',
    description: 'Creates, changes and deletes files in the folders you give it in its settings.',
    enforced: false,
    withoutIt: 'declared only: Plugboard does not sandbox plugin processes',
  },
  {
    name: 'process.spawn',
    title: 'Run programs',
    description: 'Starts other programs, such as a shell.',
    enforced: false,
    withoutIt: 'declared only: Plugboard does not sandbox plugin processes',
  },
  {
    name: 'net',
    title: 'Use the network',
    description: 'Connects to other machines.',
    enforced: false,
    withoutIt: 'declared only: Plugboard does not sandbox plugin processes',
  },
];

export function capabilityInfo(name: string): CapabilityInfo {
  return (
    CAPABILITIES.find((c) => c.name === name) ?? {
      name,
      title: name,
      description: 'A capability this plugin’s protocol defines; Plugboard checks it against your grants at the handshake.',
      enforced: true,
      withoutIt: 'the plugin’s handshake is refused with capability_not_allowed',
    }
  );
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
