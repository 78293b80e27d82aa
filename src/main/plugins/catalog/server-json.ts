/**
 * The documents an MCP registry serves, read and checked: `server.json` (a server's name,
 * version, packages on npm, PyPI or OCI with their runtime and package arguments and environment
 * variables, and remote endpoints) inside the `v0` API's list and version responses. The shapes
 * are those of the registry's OpenAPI document (modelcontextprotocol/registry,
 * docs/reference/api/openapi.yaml); fields Plugboard does not use are let through unread, and a
 * field it does use in the wrong shape is named.
 */
import { z } from 'zod';

const Input = z.object({
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  format: z.string().optional(),
  value: z.string().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
});
export type RegistryInput = z.infer<typeof Input>;

const WithVariables = Input.extend({ variables: z.record(z.string(), Input).optional() });

export const Argument = z.discriminatedUnion('type', [
  WithVariables.extend({
    type: z.literal('positional'),
    valueHint: z.string().optional(),
    isRepeated: z.boolean().optional(),
  }),
  WithVariables.extend({ type: z.literal('named'), name: z.string().min(1), isRepeated: z.boolean().optional() }),
]);
export type RegistryArgument = z.infer<typeof Argument>;

export const KeyValue = WithVariables.extend({ name: z.string().min(1) });
export type RegistryKeyValue = z.infer<typeof KeyValue>;

const Transport = z.object({
  type: z.string(),
  url: z.string().optional(),
  headers: z.array(KeyValue).optional(),
  variables: z.record(z.string(), Input).optional(),
});

export const Package = z.object({
  registryType: z.string().min(1),
  registryBaseUrl: z.string().optional(),
  identifier: z.string().min(1),
  version: z.string().min(1).optional(),
  fileSha256: z.string().optional(),
  runtimeHint: z.string().optional(),
  transport: Transport.optional(),
  runtimeArguments: z.array(Argument).optional(),
  packageArguments: z.array(Argument).optional(),
  environmentVariables: z.array(KeyValue).optional(),
});
export type RegistryPackage = z.infer<typeof Package>;
export type RegistryRemote = z.infer<typeof Transport>;

export const ServerJson = z.object({
  name: z.string().min(3).max(200),
  description: z.string().default(''),
  title: z.string().optional(),
  version: z.string().min(1).max(255),
  repository: z.object({ url: z.string(), source: z.string().optional(), subfolder: z.string().optional() }).optional(),
  websiteUrl: z.string().optional(),
  packages: z.array(Package).default([]),
  remotes: z.array(Transport).default([]),
});
export type ServerJson = z.infer<typeof ServerJson>;

const Official = z
  .object({
    status: z.string().optional(),
    statusMessage: z.string().optional(),
    isLatest: z.boolean().optional(),
    publishedAt: z.string().optional(),
  })
  .optional();

/** One entry of a list, or the answer for one version: the document and the registry's own facts. */
export const ServerResponse = z.object({
  server: ServerJson,
  _meta: z.object({ 'io.modelcontextprotocol.registry/official': Official }).optional(),
});
export type ServerResponse = z.infer<typeof ServerResponse>;

export const ServerList = z.object({
  servers: z.array(z.unknown()),
  metadata: z.object({ nextCursor: z.string().nullable().optional(), count: z.number().optional() }).optional(),
});

/** The issues of a failed parse, as `field: problem` (the first three). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`)
    .join('; ');
}
