import { expect } from 'vitest';
import type { EventConflictError, EventValidationError } from '../../src/index.js';

/** Asserts that `call` throws an instance of `kind` naming `field`. */
export function expectEventError(
  call: () => unknown,
  kind: typeof EventValidationError | typeof EventConflictError,
  field: string,
): void {
  let error: unknown;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(kind);
  expect((error as EventValidationError).field).toBe(field);
}
