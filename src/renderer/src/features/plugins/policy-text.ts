/** How the Tools tab names a tool's policy: "Ask (default)" marks what the tool does by default. */
import type { ToolPolicy } from '../../../../shared/assistant';

export const POLICY_LABEL: Record<ToolPolicy, string> = { allow: 'Allow', ask: 'Ask', deny: 'Deny' };

export function policyOption(policy: ToolPolicy, defaultPolicy: ToolPolicy): string {
  return policy === defaultPolicy ? `${POLICY_LABEL[policy]} (default)` : POLICY_LABEL[policy];
}
