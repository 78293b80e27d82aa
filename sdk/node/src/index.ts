/**
 * @plugboard/sdk: write G-Assist (Plugin Protocol V2) plugins in TypeScript or JavaScript.
 *
 *   import { createPlugin } from '@plugboard/sdk';
 *
 *   const plugin = createPlugin({ name: 'hello', version: '1.0.0', description: 'Says hello' });
 *   plugin.command('say_hello', async ({ name }: { name?: string }, ctx) => {
 *     ctx.stream('Thinking…\n');
 *     return `Hello, ${name ?? 'World'}!`;
 *   }, { description: 'Greets someone' });
 *   await plugin.run();
 *
 * The test client lives in '@plugboard/sdk/testing'.
 */
export { createPlugin, Plugin, PROTOCOL_VERSION } from './plugin.js';
export type { CommandHandler, CommandOptions, InputHandler, PluginInfo, RunOptions, RunResult } from './plugin.js';
export type { StopReason } from './connection.js';
export type { ChatMessage, CommandContext } from './context.js';
export { PluginError } from './errors.js';
export { ErrorCode } from './jsonrpc.js';
export type { RequestId } from './jsonrpc.js';
export { encodeFrame, FrameReader, FrameTooLargeError, MAX_FRAME_BYTES } from './framing.js';
export type { Frame } from './framing.js';
export type { LogLevel } from './log.js';
export { pluginEnvironment } from './environment.js';
export type { PluginEnvironment } from './environment.js';
