import { ErrorCode } from './jsonrpc.js';

/**
 * Throw from a handler to report a failure with a chosen code and message (sent as the `error`
 * notification). Any other thrown error is reported with code -1 and its message.
 */
export class PluginError extends Error {
  constructor(
    message: string,
    readonly code: number = ErrorCode.PluginError,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'PluginError';
  }
}
