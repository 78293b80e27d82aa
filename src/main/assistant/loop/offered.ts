/**
 * The tools a model is offered: exactly the exposed tools of enabled plugins (the registry's
 * decisions, as tools.ts reads them), under model-safe names, each with its JSON Schema. A tool
 * switched off is not among them, so a model that names it anyway gets the SDK's refusal as the
 * call's result and never a call. Arguments are checked against the schema here (the SDK's
 * `jsonSchema` does not check): a call that fails the check comes back as an invalid call.
 */
import { jsonSchema, tool, type JSONSchema7, type ToolSet } from 'ai';
import type { PluginRegistry } from '../../host';
import { validateArguments } from '../../host';
import { exposedDeclarations, type ToolDeclaration } from '../tools';

export type Offered = ToolDeclaration;

export function offeredTools(registry: PluginRegistry): Offered[] {
  return exposedDeclarations(registry);
}

export function sdkTools(offered: readonly Offered[], pluginName: (id: string) => string): ToolSet {
  const out: ToolSet = {};
  for (const t of offered) {
    out[t.qualifiedName] = tool({
      description: `${t.description || t.tool} (plugin: ${pluginName(t.plugin)})`,
      inputSchema: jsonSchema(t.parameters as JSONSchema7, {
        validate: (value) => {
          const bad = validateArguments(t.tool, t.parameters, value);
          return bad ? { success: false, error: new Error(bad.message) } : { success: true, value };
        },
      }),
    });
  }
  return out;
}
