import type { Dialect } from '../../../shared/plugin';
import { gassistDialect } from './gassist';
import { jsonrpcDialect } from './jsonrpc';
import { mcpDialect } from './mcp';
import { rtermDialect } from './rterm';
import type { DialectFactory } from './types';

export const DIALECT_FACTORIES: Record<Dialect, DialectFactory> = {
  'gassist-v2': gassistDialect,
  jsonrpc: jsonrpcDialect,
  'rterm-v1': rtermDialect,
  mcp: mcpDialect,
};
