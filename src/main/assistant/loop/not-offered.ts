/**
 * A tool call a model made to a name it is not offered (tool-calls.ts refuses it before any
 * decision): what it is told, and what its card says.
 */
import { failure, type Failure } from '../../../shared/failures';
import type { PluginRegistry } from '../../plugins';
import { closestTools } from '../closest-tools';
import type { Offered } from './offered';

/**
 * Why a name the model called is not offered, in words it can act on: a tool the person switched
 * off (the card offers to switch it on), or no such tool, with the offered names closest to the
 * one it wrote (a model's typo gets the right name back, not a raw "method not found").
 */
export function notOffered(
  registry: PluginRegistry,
  name: string,
  plugin: string | undefined,
  tool: string | undefined,
  offered: readonly Offered[],
): Failure {
  const known = plugin && tool ? registry.tools(plugin).find((t) => t.name === tool) : undefined;
  if (known)
    return failure(
      'tool_not_exposed',
      `${plugin}:${tool} is switched off in Plugboard, so ${name} is not offered; the person can switch it on in the plugin panel. Nothing ran`,
    );
  const near = closestTools(
    name,
    offered.map((o) => o.qualifiedName),
  );
  return failure(
    'unknown_tool',
    `there is no tool named ${name}${near.length ? `; the closest offered: ${near.join(', ')}` : ''}. Nothing ran`,
  );
}
