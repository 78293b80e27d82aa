/**
 * "Test connection" in Settings: a saved model by its name, or the one being edited in the form
 * (its fields given, its key typed in or, while editing a saved model, the stored one).
 */
import type { ModelConfig, ModelCheck } from '../../shared/assistant';
import type { CommandInput } from '../../shared/contract';
import { failure, type Outcome } from '../../shared/failures';
import { checkConfig, checkModel, type ModelStore } from '../assistant';

export async function testModel(models: ModelStore, input: CommandInput<'models.test'>): Promise<Outcome<ModelCheck>> {
  const saved = input.name ? models.get(input.name) : undefined;
  if (input.name && !saved && input.provider === undefined)
    return failure('not_found', `no model is named "${input.name}"`);
  const config: ModelConfig = {
    name: input.name ?? '',
    provider: input.provider ?? saved?.provider ?? 'openai-compatible',
    baseURL: input.baseURL !== undefined ? input.baseURL : (saved?.baseURL ?? null),
    model: input.model ?? saved?.model ?? '',
  };
  // The form may not have a name or a model id yet: the server can be reached without them.
  const problem = checkConfig({ ...config, name: config.name || 'unsaved', model: config.model || '?' });
  if (problem) return failure('invalid_input', problem);
  const apiKey = input.apiKey ?? (input.name ? await models.apiKey(input.name) : undefined);
  return checkModel(config, apiKey);
}
