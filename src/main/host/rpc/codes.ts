import type { FailureDetails } from '../../../shared/failures';
import type { RpcFlavor } from '../../../shared/plugin';
import type { RpcError } from './peer';

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

/** The facts of a JSON-RPC error for a failure: its code, what the code means here, its data. */
export function rpcErrorDetails(flavor: RpcFlavor | 'gassist', e: RpcError): FailureDetails {
  const details: FailureDetails = { rpcCode: e.code };
  const meaning = rpcCodeMeaning(flavor, e.code);
  if (meaning) details.rpcMeaning = meaning;
  if (e.data !== undefined) details.data = e.data;
  return details;
}
