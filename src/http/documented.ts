/**
 * A route's options from its documentation: the scope it needs (`config.scope`, which the key
 * check enforces and the OpenAPI document shows), how far into the communities a request reaches
 * (`config.reach`, ./access.ts; default one community) and its schema with every response, the
 * error responses included (./schemas/errors.ts).
 */
import type { TSchema } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import type { Scope } from '../store/types.js';
import type { Reach } from './access.js';
import { errorResponses, type ErrorTable } from './schemas/errors.js';

export interface RouteDocumentation extends Omit<FastifySchema, 'response'> {
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  /** The success responses, by status: a schema, or `{description, content: {[media type]: {schema}}}`. */
  readonly response: Readonly<Record<number, TSchema | { readonly description: string; readonly content: Readonly<Record<string, { readonly schema: TSchema }>> }>>;
  /** The error codes the route answers with, by status, beyond those every (keyed) route has. */
  readonly errors?: ErrorTable;
}

export function documented(scope: Scope | undefined, { errors, response, ...schema }: RouteDocumentation, reach?: Reach) {
  return {
    config: { scope, ...(reach === undefined ? {} : { reach }) },
    schema: { ...schema, response: { ...response, ...errorResponses(scope !== undefined, errors) } },
  };
}
