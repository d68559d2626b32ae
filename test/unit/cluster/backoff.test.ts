import { describe, expect, it } from 'vitest';
import { afterFailure, BACKOFF_MAX_MS, BACKOFF_RESET_MS } from '../../../src/cluster/backoff.js';

describe('partition backoff', () => {
  it('issue 18: doubles from 1 s with each failure in a row, up to 60 s', () => {
    let b = afterFailure(undefined, 0);
    const delays = [b.until - b.at];
    for (let i = 0; i < 8; i++) {
      b = afterFailure(b, b.until);
      delays.push(b.until - b.at);
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    expect(b.failures).toBe(9);
  });

  it('issue 18: starts again from 1 s after five minutes without a failure', () => {
    const many = { failures: 12, at: 1_000, until: 1_000 + BACKOFF_MAX_MS };
    expect(afterFailure(many, 1_000 + BACKOFF_RESET_MS - 1)).toEqual({ failures: 13, at: 1_000 + BACKOFF_RESET_MS - 1, until: 1_000 + BACKOFF_RESET_MS - 1 + BACKOFF_MAX_MS });
    expect(afterFailure(many, 1_000 + BACKOFF_RESET_MS)).toEqual({ failures: 1, at: 1_000 + BACKOFF_RESET_MS, until: 2_000 + BACKOFF_RESET_MS });
  });

  it('issue 25: a failure of NATS rather than of the partition waits 1 s and does not count', () => {
    const many = { failures: 5, at: 1_000, until: 1_000 + 16_000 };
    expect(afterFailure(many, 20_000, true)).toEqual({ failures: 5, at: 1_000, until: 21_000 });
    expect(afterFailure(undefined, 20_000, true)).toEqual({ failures: 0, at: 20_000, until: 21_000 });
    // The next failure of the partition itself goes on from the count before.
    expect(afterFailure(afterFailure(many, 20_000, true), 22_000)).toEqual({ failures: 6, at: 22_000, until: 22_000 + 32_000 });
  });
});
