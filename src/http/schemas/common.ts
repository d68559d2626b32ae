/**
 * Building blocks of the API's schemas (TypeBox): ids as an event may hold them, string enums,
 * references to named schemas. Everything here is plain JSON Schema; the named schemas are
 * registered with fastify and served as the OpenAPI document's `components.schemas`.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { unreachable } from '../../errors.js';
import { MAX_ID_LENGTH } from '../../events/limits.js';

/** A string without NUL characters (PostgreSQL refuses a NUL in text). */
export const NO_NUL = '^[^\\u0000]*$';

/** A player id or a community name in a path or a query string: what an event may hold. */
export function Id(description?: string) {
  return Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, pattern: NO_NUL, ...(description === undefined ? {} : { description }) });
}

/** A string that is one of `values` (documented as an `enum`, typed as their union). */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A reference to a named schema (one with an `$id`), typed as that schema. */
export function refTo<T extends TSchema>(schema: T) {
  if (schema.$id === undefined) unreachable('refTo: the schema has no $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}

/** Paging direction: from the start of a list (`asc`) or from its end (`desc`, last first). */
export const ORDERS = ['asc', 'desc'] as const;

/** An object whose keys are free and whose values all match `value` (documented with additionalProperties). */
export function Dictionary<T extends TSchema>(value: T, description: string) {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: value, description });
}

/** An object whose fields are free (what one scorer's explanation holds, say). */
export function FreeObject(description: string) {
  return Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description });
}
