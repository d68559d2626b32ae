/**
 * The CQR store's layout: checkpoints written in the earlier layouts still restore, room for
 * players grows with them (a small community holds a small state), and the
 * exact-integer rule (sums recomputed at each wrap only once a delta is not a small integer)
 * gives what recomputing at every wrap would, and survives a checkpoint.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cqr, parseEventLine, readCqr, type StandingEvent } from '../../../src/index.js';
import { CqrCommunityStore, type CqrStoreSnapshot } from '../../../src/scorers/cqr/store.js';

interface LegacyFixture {
  readonly cut: number;
  readonly checkpoints: readonly { readonly params: Record<string, unknown>; readonly snapshot: unknown }[];
}

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/cqr-legacy-checkpoints.json', import.meta.url), 'utf8')) as LegacyFixture;
const table1 = readFileSync(new URL('../../../examples/cqr-table1.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line, i) => parseEventLine(line, 'examples/cqr-table1.ndjson', i + 1));

function view(state: ReturnType<typeof cqr.initialState>): unknown {
  return { rank: cqr.rank(state), explain: ['F1', 'f3', 'd2', 'D5'].map((p) => cqr.explain(state, 'default', p)) };
}

describe('checkpoints in the earlier layout (test/fixtures/cqr-legacy-checkpoints.json)', () => {
  for (const { params: input, snapshot } of fixture.checkpoints) {
    it(`restore and replay the rest as the whole log does: ${JSON.stringify(input)}`, () => {
      const params = cqr.params.resolve(input);
      const whole = cqr.initialState(params);
      for (const e of table1) cqr.evolve(whole, e);
      const restored = cqr.initialState(params);
      cqr.restore(restored, 'default', JSON.stringify(snapshot));
      for (const e of table1.slice(fixture.cut)) cqr.evolve(restored, e);
      expect(view(restored)).toEqual(view(whole));
      expect(cqr.rank(whole).length).toBe(20);
    });
  }

  it('a legacy checkpoint cut short of a player it names is refused', () => {
    const { params, snapshot } = fixture.checkpoints[0]!;
    const { players, chunks } = snapshot as { players: string[]; chunks: string[] };
    const short = { players, chunks: [Buffer.from(chunks[0]!, 'base64').subarray(0, 8 * 35 * 19).toString('base64')] };
    const state = cqr.initialState(cqr.params.resolve(params));
    expect(() => cqr.restore(state, 'default', JSON.stringify(short))).toThrow(/no state for player 19 \(D5\)/);
  });
});

describe('checkpoints in layouts 2 and 3 are checked before they are used', () => {
  const params = cqr.params.resolve({});
  const state = cqr.initialState(params);
  for (const e of table1.slice(0, 50)) cqr.evolve(state, e);
  const good = JSON.parse(cqr.snapshot(state, 'default') as string) as { layout: number; players: string[]; chunks: string[]; inexact: boolean };
  const refused = (snapshot: unknown) => () => cqr.restore(cqr.initialState(params), 'default', JSON.stringify(snapshot));

  it('a good one restores to the same state', () => {
    const restored = cqr.initialState(params);
    cqr.restore(restored, 'default', JSON.stringify(good));
    expect(cqr.snapshot(restored, 'default')).toBe(cqr.snapshot(state, 'default'));
  });

  it('a layout 2 one (every chunk whole) restores to the same state', () => {
    const whole = Buffer.alloc(8 * 1024 * 31);
    Buffer.from(good.chunks[0]!, 'base64').copy(whole);
    const restored = cqr.initialState(params);
    cqr.restore(restored, 'default', JSON.stringify({ ...good, layout: 2, chunks: [whole.toString('base64')] }));
    expect(cqr.snapshot(restored, 'default')).toBe(cqr.snapshot(state, 'default'));
    // Replayed on, against a state of its own: the shared one stays as the other tests expect.
    const replayed = cqr.initialState(params);
    for (const e of table1) cqr.evolve(replayed, e);
    for (const e of table1.slice(50)) cqr.evolve(restored, e);
    expect(cqr.snapshot(restored, 'default')).toBe(cqr.snapshot(replayed, 'default'));
  });

  it('holds the blocks of its players only: 20 players of 31 doubles', () => {
    expect(good.layout).toBe(3);
    expect(Buffer.from(good.chunks[0]!, 'base64').length).toBe(20 * 31 * 8);
  });

  it('an unknown layout, a missing chunk, or a chunk of the wrong size is refused', () => {
    expect(refused({ ...good, layout: 4 })).toThrow(/layout 4 is not one this version reads/);
    expect(refused({ ...good, chunks: [] })).toThrow(/0 chunks for 20 players, expected 1/);
    const short = Buffer.from(good.chunks[0]!, 'base64').subarray(0, 8 * 100).toString('base64');
    expect(refused({ ...good, chunks: [short] })).toThrow(/chunk 0 holds 100 doubles, expected 620/);
    expect(refused({ ...good, layout: 2 })).toThrow(/chunk 0 holds 620 doubles, expected 31744/);
  });
});

/** Events of one player `p` with these deltas, a second apart. */
const actions = (deltas: readonly number[]): StandingEvent[] =>
  deltas.map((delta, i) => ({ type: 'action', time: i * 1000, community: 'c', player: 'p', delta }));

describe('the exact-integer rule', () => {
  it('int32 deltas near ±2^31: the running sums are the exact window sums', () => {
    const params = cqr.params.resolve({ T: 3, x: 0, k: 2 });
    const deltas = [2_000_000_000, -2_000_000_000, 7, 2_000_000_000, 2_000_000_000, -1, 5, 5, -3, 4];
    const state = cqr.initialState(params);
    deltas.forEach((delta, i) => {
      cqr.evolve(state, actions([delta])[0]!);
      expect(cqr.explain(state, 'c', 'p')!.score).toBe(readCqr(params, deltas.slice(0, i + 1)).score);
    });
  });

  it('an integer beyond int32 counts as inexact: 2^53 + 1 rounds, so the sum is recomputed at the wrap', () => {
    // T = 2: 2^53 + 1 is 2^53 in a double; kept running, the sum after [2^53, 1, 1, 1] would be
    // 2^53 − 2^53 + 1 = 1, then 1 − 1 + 1 = 1. Recomputed at the wraps it is 1 + 1 = 2.
    const params = cqr.params.resolve({ T: 2, x: 0, k: 2 });
    const state = cqr.initialState(params);
    for (const e of actions([2 ** 53, 1, 1, 1])) cqr.evolve(state, e);
    expect(cqr.explain(state, 'c', 'p')!.score).toBe(2);
  });

  it('after a fractional delta, each wrap recomputes the sum from the ring, oldest first', () => {
    // T = 2: kept running, the sum would be ((0.1 + 0.7) − 0.1 + 0.2) − 0.7 + 0.3 = 0.49999999999999994;
    // the fourth push wraps the ring, and the sum is 0.2 + 0.3 = 0.5 computed afresh.
    const params = cqr.params.resolve({ T: 2, x: 0, k: 2 });
    const state = cqr.initialState(params);
    for (const e of actions([0.1, 0.7, 0.2, 0.3])) cqr.evolve(state, e);
    expect(cqr.explain(state, 'c', 'p')!.score).toBe(0.5);
    expect(cqr.explain(state, 'c', 'p')!.window).toEqual([0.2, 0.3]);
  });

  it('whether a fractional delta arrived survives a checkpoint: the restored state goes on bit for bit', () => {
    // T = 2, checkpoint after 0.3 and 0.6; then only integers. Kept running, the sum after 3 and 1
    // would be 3.9999999999999996; the second push wraps the ring and recomputes 3 + 1 = 4, but
    // only if the restored store knows a fractional delta came before.
    const params = cqr.params.resolve({ T: 2, x: 0, k: 2 });
    const deltas = [0.3, 0.6, 3, 1];
    const whole = cqr.initialState(params);
    for (const e of actions(deltas)) cqr.evolve(whole, e);
    const prefix = cqr.initialState(params);
    for (const e of actions(deltas.slice(0, 2))) cqr.evolve(prefix, e);
    const restored = cqr.initialState(params);
    cqr.restore(restored, 'c', cqr.snapshot(prefix, 'c'));
    for (const e of actions(deltas).slice(2)) cqr.evolve(restored, e);
    expect(cqr.explain(restored, 'c', 'p')!.score).toBe(4);
    expect(cqr.explain(restored, 'c', 'p')).toEqual(cqr.explain(whole, 'c', 'p'));
    expect(cqr.snapshot(restored, 'c')).toBe(cqr.snapshot(whole, 'c'));
  });
});

describe('room for players grows with them', () => {
  const params = cqr.params.resolve({}); // T=8, k=4: blocks of 31 doubles
  const block = 31 * 8;
  const withPlayers = (n: number) => {
    const store = CqrCommunityStore.create(params);
    for (let i = 0; i < n; i++) store.add(`p${i}`, i % 2 === 0 ? 20 : -20);
    return store;
  };

  it('the first chunk starts with room for 1 player and doubles up to 1,024; later chunks are whole', () => {
    expect(withPlayers(0).typedArrayBytes()).toBe(0);
    expect(withPlayers(1).typedArrayBytes()).toBe(block);
    expect(withPlayers(2).typedArrayBytes()).toBe(2 * block);
    expect(withPlayers(3).typedArrayBytes()).toBe(4 * block);
    expect(withPlayers(5).typedArrayBytes()).toBe(8 * block);
    expect(withPlayers(600).typedArrayBytes()).toBe(1024 * block);
    expect(withPlayers(1025).typedArrayBytes()).toBe(2048 * block);
  });

  it('a restored store has the room the grown one had, and goes on to the same state', () => {
    for (const n of [1, 2, 3, 4, 5, 700, 1024, 1025, 2100]) {
      const grown = withPlayers(n);
      const restored = CqrCommunityStore.fromSnapshot(params, JSON.parse(JSON.stringify(grown.toSnapshot())) as CqrStoreSnapshot);
      expect(restored.typedArrayBytes()).toBe(grown.typedArrayBytes());
      for (const store of [grown, restored]) for (let i = 0; i < n + 40; i += 3) store.add(`p${i}`, 15);
      expect(restored.toSnapshot()).toEqual(grown.toSnapshot());
    }
  });
});
