/**
 * A scripted language-model server for tests.
 *
 * It exists because no language model can run on the machines Plugboard is built and tested on:
 * no GPU, no weights, no network to a hosted model. Instead of faking the AI SDK, tests point the
 * real provider packages (@ai-sdk/openai-compatible, @ai-sdk/openai, @ai-sdk/anthropic) at this
 * server over loopback HTTP, and it answers in the real wire formats: OpenAI Chat Completions
 * (streaming SSE and whole, as OpenAI, Ollama's /v1, LM Studio, llama.cpp, vLLM and OpenRouter
 * speak it), Anthropic Messages (streaming events and whole), the model lists (OpenAI's and
 * Anthropic's /v1/models, Ollama's /api/tags), and each provider's real error bodies. What it
 * says is scripted per request (steps.ts); everything it was sent is recorded (requests.ts).
 *
 * In a vitest test: `fixture.ts`. From another process (Playwright, CLI tests): `main.ts` runs
 * it alone and `process.ts` starts and drives that process.
 */
export { ModelServer, type ModelServerOptions } from './server';
export {
  fail,
  text,
  toolCalls,
  stepSchema,
  scriptSchema,
  type ScriptInput,
  type ScriptStep,
  type Step,
  type StepFn,
} from './steps';
export { lastUserText, offeredTools, systemText, toolResults, type RecordedRequest } from './requests';
