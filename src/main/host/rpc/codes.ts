import type { RpcFlavor } from '../../../shared/model';

/**
 * JSON-RPC error codes, read per dialect: -32000..-32099 mean different things to Mehrhof and to
 * the planner/executor design, and G-Assist uses small negatives of its own. Never map globally.
 */
const STANDARD: Record<number, string> = {
  [-32700]: 'parse error',
  [-32600]: 'invalid request',
  [-32601]: 'method not found',
  [-32602]: 'invalid params',
  [-32603]: 'internal error',
};

const BY_FLAVOR: Record<RpcFlavor | 'gassist', Record<number, string>> = {
  mehrhof: {
    [-32000]: 'plugin error',
    [-32001]: 'not implemented',
    [-32002]: 'capability error',
    [-32003]: 'authentication error',
    [-32004]: 'rate limit',
    [-32005]: 'not found',
    [-32006]: 'validation error',
  },
  planner: {
    [-32000]: 'execution timeout',
    [-32001]: 'resource unavailable',
    [-32002]: 'rate limit exceeded',
    [-32003]: 'authentication failed',
  },
  gassist: {
    [-1]: 'plugin error',
    [-2]: 'timeout',
    [-3]: 'rate limited',
  },
  generic: {},
};

export function rpcCodeMeaning(flavor: RpcFlavor | 'gassist', code: number): string | undefined {
  return STANDARD[code] ?? BY_FLAVOR[flavor][code];
}
