/**
 * issue 18: the cluster's waits on NATS are bounded. Listing a bucket's keys: The listing ends only on a message or a
 * heartbeat of its ordered consumer; a worker's rebalance once waited on one for ever, and the
 * worker never closed. The bucket here is a stand-in for @nats-io/kv's (not our code): one whose
 * listing never ends, and one that ends. Creating a stream or bucket while the cluster forms
 * ("no suitable peers for placement") is tried again for a while, and only then.
 */
import type { KV } from '@nats-io/kv';
import { errors } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { JetStreamApiError } from '@nats-io/jetstream';
import { keysWithin, natsAway, whenPlaced } from '../../../src/cluster/nats.js';

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

  it('issue 25: answers each key once when the listing delivers one twice (its consumer made again after a server was lost)', async () => {
    const { kv } = listing(['w1', 'w2', 'w1', 'w3'], true);
    expect(await keysWithin(kv, 1000)).toEqual(['w1', 'w2', 'w3']);
  });

  it('issue 18: refuses a listing that never ends after the bound, and stops it', async () => {
    const { kv, state } = listing(['a'], false);
    await expect(keysWithin(kv, 50)).rejects.toThrow('listing the keys of a NATS bucket took over 50 ms');
    expect(state.stopped?.message).toBe('listing the keys of a NATS bucket took over 50 ms');
  });
});

describe('whenPlaced', () => {
  const forming = (code: number) => Object.assign(new Error('no suitable peers for placement'), { code });

  it('tries a creation again while the cluster answers that it is forming (10005, 10008), then answers its result', async () => {
    const codes = [10005, 10008];
    let calls = 0;
    const created = await whenPlaced(async () => {
      calls++;
      const code = codes.shift();
      if (code !== undefined) throw forming(code);
      return 'stream';
    }, 5_000);
    expect([created, calls]).toEqual(['stream', 3]);
  });

  it('fails at once on any other error, and after the wait on a cluster that stays forming', async () => {
    let calls = 0;
    await expect(
      whenPlaced(async () => {
        calls++;
        throw Object.assign(new Error('insufficient resources'), { code: 10023 });
      }, 5_000),
    ).rejects.toThrow('insufficient resources');
    expect(calls).toBe(1);
    await expect(whenPlaced(() => Promise.reject(forming(10005)), 300)).rejects.toThrow('no suitable peers for placement');
  });

  it('issue 25: tries again while the JetStream API does not answer in time (a server just died), as the NATS client reports it', async () => {
    let calls = 0;
    const found = await whenPlaced(async () => {
      calls++;
      if (calls === 1) throw new errors.TimeoutError();
      if (calls === 2) throw new Error('request failed', { cause: new errors.TimeoutError() });
      return 'info';
    }, 5_000);
    expect([found, calls]).toEqual(['info', 3]);
  });
});

describe('natsAway', () => {
  it('issue 25: tells NATS being away (JetStream paused or 503, no answer in time or by nobody, the connection lost) from a request that is wrong', () => {
    const api = (err_code: number, code: number, description: string) => new JetStreamApiError({ err_code, code, description });
    const away = [
      api(10008, 503, 'JetStream system temporarily unavailable'),
      api(10005, 500, 'no suitable peers for placement'),
      new errors.TimeoutError(),
      new errors.NoRespondersError('$JS.API.STREAM.INFO.s'),
      new errors.ClosedConnectionError(),
      new Error('request failed', { cause: new errors.TimeoutError() }),
    ];
    const wrong = [api(10059, 404, 'stream not found'), api(10023, 500, 'insufficient resources'), new Error('the stored sequence is ahead of the stream'), undefined];
    expect(away.map(natsAway)).toEqual(away.map(() => true));
    expect(wrong.map(natsAway)).toEqual(wrong.map(() => false));
  });
});
