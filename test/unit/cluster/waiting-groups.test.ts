import { describe, expect, it } from 'vitest';
import { waitingGroups } from '../../../src/cluster/waiting-groups.js';

/** A source whose items the test pushes, one at a time or several at once. */
function channel<T>() {
  const items: T[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const source: AsyncIterable<T> = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (items.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
        if (items.length === 0) return;
        yield items.shift()!;
      }
    },
  };
  return {
    source,
    push(...more: T[]) {
      items.push(...more);
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('waitingGroups', () => {
  it('gives what waited while the reader worked as one group, in order, bounded by count', async () => {
    const c = channel<number>();
    const groups = waitingGroups(c.source, { most: 3, maxWeight: Infinity, weight: () => 1 });
    c.push(1);
    expect((await groups.next()).value).toEqual([1]);
    // While the reader "works", five more arrive: at most three per group, nothing lost or reordered.
    c.push(2, 3, 4, 5, 6);
    await tick();
    expect((await groups.next()).value).toEqual([2, 3, 4]);
    await tick(); // the reader works on the group: the rest is read ahead meanwhile
    expect((await groups.next()).value).toEqual([5, 6]);
    c.end();
    expect((await groups.next()).done).toBe(true);
  });

  it('bounds a group by weight, a single heavy item alone', async () => {
    const c = channel<number>();
    const groups = waitingGroups(c.source, { most: 10, maxWeight: 10, weight: (n) => n });
    c.push(4, 5, 3, 12, 1);
    c.end();
    const seen: number[][] = [];
    for (;;) {
      const next = await groups.next();
      if (next.done === true) break;
      seen.push(next.value);
      await tick(); // the reader works: what remains is read ahead
    }
    expect(seen.flat()).toEqual([4, 5, 3, 12, 1]);
    for (const group of seen) expect(group.length === 1 || group.reduce((a, b) => a + b, 0) <= 10).toBe(true);
    expect(seen).toContainEqual([12]);
    // Read ahead while the reader worked, 5 and 3 (8) go together, and 12 cannot join 1.
    expect(seen.slice(1)).toEqual([[5, 3], [12], [1]]);
  });

  it('issue 18: reads ahead at most one group by weight, not by count alone', async () => {
    const c = channel<number>();
    const pulled: number[] = [];
    const counted: AsyncIterable<number> = {
      async *[Symbol.asyncIterator]() {
        for await (const item of c.source) {
          pulled.push(item);
          yield item;
        }
      },
    };
    const groups = waitingGroups(counted, { most: 100, maxWeight: 10, weight: (n) => n });
    c.push(6);
    expect((await groups.next()).value).toEqual([6]);
    // The reader works on [6]; 4, 7 and 5 wait. The pump stops after 4 + 7 = 11 ≥ 10.
    c.push(4, 7, 5);
    for (let i = 0; i < 10; i++) await tick();
    expect(pulled).toEqual([6, 4, 7]);
    expect((await groups.next()).value).toEqual([4]);
    for (let i = 0; i < 10; i++) await tick();
    expect(pulled).toEqual([6, 4, 7, 5]);
    c.end();
    const rest: number[][] = [];
    for (let next = await groups.next(); next.done !== true; next = await groups.next()) rest.push(next.value);
    expect(rest.flat()).toEqual([7, 5]);
  });

  it('throws the source’s failure after the items before it', async () => {
    async function* failing() {
      yield 1;
      yield 2;
      throw new Error('source failed');
    }
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const group of waitingGroups(failing(), { most: 5, maxWeight: Infinity, weight: () => 1 })) seen.push(...group);
      })(),
    ).rejects.toThrow('source failed');
    expect(seen).toEqual([1, 2]);
  });
});
