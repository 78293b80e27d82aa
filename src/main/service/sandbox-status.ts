/**
 * Settings → Sandbox: whether plugins run sandboxed on this computer, with what, and what each
 * capability's grant holds here, read from the host's sandbox probe (process/sandbox-probe.ts)
 * and the capability table (shared/capabilities.ts) so the page says what the code does.
 */
import { CAPABILITIES, capabilityHere } from '../../shared/capabilities';
import type { SandboxStatusView } from '../../shared/contract';
import { rootNotice, type SandboxSupport } from '../plugins';

/** How Plugboard sandboxes plugins on each platform it runs on. */
const PLATFORMS: SandboxStatusView['platforms'] = [
  {
    platform: 'linux',
    how: 'Each plugin in its own bubblewrap (bwrap) sandbox, where bwrap is installed and user namespaces are allowed.',
  },
  {
    platform: 'darwin',
    how: 'No sandbox: plugins run unsandboxed (sandbox-exec is deprecated by Apple and not used).',
  },
  { platform: 'win32', how: 'No sandbox: plugins run unsandboxed.' },
];

/** The unprivileged user plugins run as when Plugboard runs as root, if it does. */
export function asUser(support: SandboxSupport): string | undefined {
  return support.available && support.root?.setpriv ? support.root.user : undefined;
}

export function sandboxStatus(platform: string, support: SandboxSupport): SandboxStatusView {
  return {
    platform,
    available: support.available,
    tool: support.available ? { name: 'bubblewrap', path: support.bwrap, version: support.version } : null,
    reason: support.available ? null : support.reason,
    capabilities: CAPABILITIES.map((c) => {
      const here = capabilityHere(c.name, support.available, asUser(support));
      return { name: c.name, title: c.title, enforced: here.enforced, note: here.note };
    }),
    platforms: PLATFORMS,
    root: rootNotice(support.available, support.available ? support.root : null),
    limits: support.available
      ? `Each plugin is held to its limits (processes, memory, CPU share, /tmp and data folder size; set per plugin in its panel): ${support.limits?.note ?? 'the sizes of its /tmp and of its data folder'}.`
      : null,
  };
}
