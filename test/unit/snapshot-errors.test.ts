/**
 * A saved state that cannot be read back is a SnapshotError (code CHECKPOINT_CORRUPT), which the
 * service reports as a CheckpointError naming the community and the state; a condition only a
 * bug can break is an InternalError (code INTERNAL).
 */
import { describe, expect, it } from 'vitest';
import { InternalError, SnapshotError, unreachable } from '../../src/errors.js';
import { RatingLog } from '../../src/graph/rating-log.js';
import { parseExactParts } from '../../src/util/json-parts.js';
import { decodeFloat64, decodeInt32 } from '../../src/util/snapshot.js';

/** The error `read` throws. */
function thrown(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

function expectSnapshotError(read: () => unknown, message: RegExp): void {
  const error = thrown(read);
  expect(error).toBeInstanceOf(SnapshotError);
  expect((error as SnapshotError).code).toBe('CHECKPOINT_CORRUPT');
  expect((error as SnapshotError).message).toMatch(message);
}

describe('issue 26: a saved state that cannot be read back is a SnapshotError', () => {
  it('refuses a text in parts whose layout is damaged or unknown', () => {
    expectSnapshotError(() => parseExactParts([]), /at least one part/);
    expectSnapshotError(() => parseExactParts(['{"layout":2}', '[]']), /not a layout this version reads/);
    expectSnapshotError(() => parseExactParts(['{"standing-parts":1,"value":{"array":[{"items":7}]}}', '[]']), /names part 7 of 2/);
    expectSnapshotError(() => parseExactParts(['{"standing-parts":1,"value":{"set":[]}}', '[]']), /a node this version does not read/);
  });

  it('refuses a typed array whose bytes are not a whole number of its items', () => {
    expectSnapshotError(() => decodeFloat64(Buffer.from([1, 2, 3]).toString('base64')), /3 bytes is not a multiple of 8/);
    expectSnapshotError(() => decodeInt32(Buffer.from([1, 2, 3, 4, 5]).toString('base64')), /5 bytes is not a multiple of 4/);
    expect([...decodeInt32(Buffer.from(new Int32Array([7, -1]).buffer).toString('base64'))]).toEqual([7, -1]);
  });

  it('refuses a rating log whose columns disagree or name a player it does not list', () => {
    const one = (values: number[]) => Int32Array.from(values);
    expectSnapshotError(() => RatingLog.fromArrays(1000, ['a', 'b'], one([0, 1]), one([1]), new Float64Array(2), new Float64Array(2), null), /arrays of different lengths/);
    expectSnapshotError(() => RatingLog.fromArrays(1000, ['a', 'b'], one([0]), one([2]), new Float64Array(1), new Float64Array(1), null), /entry 0 names a player outside the 2 listed/);
  });
});

describe('issue 26: a condition only a bug can break is asserted with unreachable()', () => {
  it('throws an InternalError with the code INTERNAL and what could not happen', () => {
    const error = thrown(() => unreachable('a state that cannot happen'));
    expect(error).toBeInstanceOf(InternalError);
    expect({ name: (error as InternalError).name, code: (error as InternalError).code, message: (error as InternalError).message }).toEqual({
      name: 'InternalError',
      code: 'INTERNAL',
      message: 'a state that cannot happen',
    });
  });
});
