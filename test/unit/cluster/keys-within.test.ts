/**
 * issue 18: listing a NATS bucket's keys is bounded. The listing ends only on a message or a
 * heartbeat of its ordered consumer; a worker's rebalance once waited on one for ever, and the
 * worker never closed. The bucket here is a stand-in for @nats-io/kv's (not our code): one whose
 * listing never ends, and one that ends.
 */
import type { KV } from '@nats-io/kv';
import { describe, expect, it } from 'vitest';
import { keysWithin } from '../../../src/cluster/nats.js';

/** A listing of `names` that ends when `ends`, as the library's iterator does, and records its stop. */
function listing(names: readonly string[], ends: boolean) {
  const state = { stopped: undefined as Error | undefined };
  let release: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => (release = resolve));
  const iterator = {
    stop(error?: Error) {
      state.stopped = error;
      release?.();
    },
    async *[Symbol.asyncIterator]() {
      yield* names;
      if (!ends) await stopped;
      if (state.stopped !== undefined) throw state.stopped;
    },
  };
  return { kv: { keys: () => Promise.resolve(iterator) } as unknown as KV, state };
}

describe('keysWithin', () => {
  it('answers the keys of a listing that ends', async () => {
    const { kv } = listing(['a', 'b'], true);
    expect(await keysWithin(kv, 1000)).toEqual(['a', 'b']);
  });

  it('issue 18: refuses a listing that never ends after the bound, and stops it', async () => {
    const { kv, state } = listing(['a'], false);
    await expect(keysWithin(kv, 50)).rejects.toThrow('listing the keys of a NATS bucket took over 50 ms');
    expect(state.stopped?.message).toBe('listing the keys of a NATS bucket took over 50 ms');
  });
});
