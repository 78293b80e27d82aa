/**
 * The tools a model is offered: exactly the exposed tools of enabled plugins (the registry's
 * decisions, as tools.ts reads them), under model-safe names, each with its JSON Schema. A tool
 * switched off is not among them, so a model that names it anyway gets the SDK's refusal as the
 * call's result and never a call. Arguments are checked against the schema here (the SDK's
 * `jsonSchema` does not check): a call that fails the check comes back as an invalid call.
 */
import { jsonSchema, tool, type JSONSchema7, type Tool, type ToolSet } from 'ai';
import type { PluginRegistry } from '../../plugins';
import { validateArguments } from '../../plugins';
import { exposedDeclarations, type ToolDeclaration } from '../tools';

export type Offered = ToolDeclaration;

export function offeredTools(registry: PluginRegistry): readonly Offered[] {
  return exposedDeclarations(registry);
}

/** Each declaration's SDK tool, made once: declarations stay the same objects between changes (tools.ts). */
const made = new WeakMap<Offered, { description: string; tool: Tool }>();

export function sdkTools(offered: readonly Offered[], pluginName: (id: string) => string): ToolSet {
  const out: ToolSet = {};
  for (const t of offered) {
    const description = `${t.description || t.tool} (plugin: ${pluginName(t.plugin)})`;
    let kept = made.get(t);
    if (kept?.description !== description) {
      kept = { description, tool: sdkTool(t, description) };
      made.set(t, kept);
    }
    out[t.qualifiedName] = kept.tool;
  }
  return out;
}

function sdkTool(t: Offered, description: string): Tool {
  return tool({
    description,
    inputSchema: jsonSchema(t.parameters as JSONSchema7, {
      validate: (value) => {
        const bad = validateArguments(t.tool, t.parameters, value);
        return bad ? { success: false, error: new Error(bad.message) } : { success: true, value };
      },
    }),
  });
}
