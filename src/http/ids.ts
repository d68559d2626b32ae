/**
 * Ids in paths and query strings: what an event may hold (../events/limits.ts), so a read or an
 * erasure never hands a store a value it cannot take (PostgreSQL refuses a NUL in text): a NUL
 * or an id over the maximum is a 400 naming the parameter.
 */
import { MAX_ID_LENGTH } from '../events/limits.js';

/** A string without NUL characters. */
export const NO_NUL = '^[^\\u0000]*$';

/** A player id or a community name. */
export const IdParam = { type: 'string', minLength: 1, maxLength: MAX_ID_LENGTH, pattern: NO_NUL } as const;
