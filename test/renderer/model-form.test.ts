import { describe, expect, it } from 'vitest';
import {
  checkDraft,
  checkText,
  draftOf,
  newDraft,
  saveInput,
  testInput,
  withProvider,
} from '../../src/renderer/src/features/settings/model-form';

describe('the model form', () => {
  it('starts on an OpenAI-compatible server at Ollama’s address, the default when it is the first model', () => {
    expect(newDraft(true)).toEqual(
      expect.objectContaining({
        provider: 'openai-compatible',
        baseURL: 'http://127.0.0.1:11434/v1',
        makeDefault: true,
      }),
    );
    expect(newDraft(false).makeDefault).toBe(false);
  });

  it('switching provider swaps the usual address, and keeps one the person typed', () => {
    const d = newDraft(true);
    expect(withProvider(d, 'openai').baseURL).toBe('');
    expect(withProvider(withProvider(d, 'anthropic'), 'openai-compatible').baseURL).toBe('http://127.0.0.1:11434/v1');
    const typed = { ...d, baseURL: 'http://127.0.0.1:1234/v1' };
    expect(withProvider(typed, 'openai').baseURL).toBe('http://127.0.0.1:1234/v1');
  });

  it('says what is missing or malformed before anything is sent', () => {
    expect(checkDraft({ ...newDraft(true), model: '' }).model).toMatch(/llama3\.2/);
    expect(checkDraft({ ...newDraft(true), model: 'm', baseURL: '' }).baseURL).toMatch(/needs its address/);
    expect(checkDraft({ ...newDraft(true), model: 'm', baseURL: 'localhost:11434' }).baseURL).toMatch(/http:\/\//);
    expect(checkDraft({ ...withProvider(newDraft(true), 'openai'), model: 'gpt-4.1-mini' })).toEqual({});
  });

  it('saves under the name typed, else the model id; an empty base URL is the provider’s own', () => {
    expect(saveInput({ ...withProvider(newDraft(false), 'openai'), model: 'gpt-4.1-mini', apiKey: 'sk-1' })).toEqual({
      name: 'gpt-4.1-mini',
      provider: 'openai',
      baseURL: null,
      model: 'gpt-4.1-mini',
      apiKey: 'sk-1',
    });
    expect(saveInput({ ...newDraft(true), name: ' Local ', model: 'llama3.2' })).toEqual({
      name: 'Local',
      provider: 'openai-compatible',
      baseURL: 'http://127.0.0.1:11434/v1',
      model: 'llama3.2',
      makeDefault: true,
    });
  });

  it('editing keeps the stored key unless one is typed or it is removed, and never shows it', () => {
    const saved = draftOf({
      name: 'Claude',
      provider: 'anthropic',
      baseURL: null,
      model: 'claude-sonnet-4-5',
      hasKey: true,
      isDefault: false,
    });
    expect(saved.apiKey).toBe('');
    expect(saveInput(saved)).not.toHaveProperty('apiKey');
    expect(saveInput(saved).previousName).toBe('Claude');
    expect(saveInput({ ...saved, apiKey: 'sk-new' }).apiKey).toBe('sk-new');
    expect(saveInput({ ...saved, removeKey: true }).apiKey).toBeNull();
  });

  it('tests what the form holds, with the stored key of the model being edited', () => {
    const saved = draftOf({
      name: 'GPT',
      provider: 'openai',
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'gpt-x',
      hasKey: true,
      isDefault: true,
    });
    expect(testInput(saved)).toEqual({
      name: 'GPT',
      provider: 'openai',
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'gpt-x',
    });
    expect(testInput({ ...saved, apiKey: 'sk-typed' })).toEqual({
      provider: 'openai',
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'gpt-x',
      apiKey: 'sk-typed',
    });
    expect(testInput({ ...newDraft(true) })).toEqual({
      provider: 'openai-compatible',
      baseURL: 'http://127.0.0.1:11434/v1',
    });
  });

  it('reports a test as the latency and the models found', () => {
    expect(checkText({ latencyMs: 42, models: ['a', 'b', 'c'] })).toBe('Connected in 42 ms, 3 models');
    expect(checkText({ latencyMs: 7, models: ['a'] })).toBe('Connected in 7 ms, 1 model');
    expect(checkText({ latencyMs: 7, models: [] })).toBe('Connected in 7 ms, no model listed');
  });
});
