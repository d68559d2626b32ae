/**
 * ExpiryQueue: the typed-array queue behind trust's expiry pops exactly what TimeQueue (the
 * object queue it replaced) pops, in the same order, ties included; its snapshot restores it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpiryQueue } from '../../src/util/expiry-queue.js';
import { TimeQueue } from '../../src/util/time-queue.js';

type Op = { push: number } | { cutoff: number; inclusive: boolean } | { snapshot: true };

function drain(queue: ExpiryQueue, cutoff: number, inclusive: boolean): [number, number][] {
  const popped: [number, number][] = [];
  queue.popBefore(cutoff, inclusive, (slot, stamp) => popped.push([slot, stamp]));
  return popped;
}

describe('ExpiryQueue', () => {
  it('pops in time order; on a tie the FIFO before the heap, and the heap in arrival order', () => {
    const queue = new ExpiryQueue();
    queue.push(10, 0, 0.5); // FIFO
    queue.push(20, 1, 1.5); // FIFO
    queue.push(15, 2, 2.5); // earlier than 20: heap
    queue.push(10, 3, 3.5); // heap, ties with slot 0 (FIFO) — the FIFO goes first
    queue.push(15, 4, 4.5); // heap, ties with slot 2 — slot 2 arrived first
    queue.push(20, 5, 5.5); // not earlier than 20: FIFO
    expect(queue.size).toBe(6);
    expect(queue.peekTime()).toBe(10);
    expect(drain(queue, 15, false)).toEqual([[0, 0.5], [3, 3.5]]); // < 15
    expect(drain(queue, 15, true)).toEqual([[2, 2.5], [4, 4.5]]); // ≤ 15
    expect(queue.peekTime()).toBe(20);
    expect(drain(queue, Infinity, false)).toEqual([[1, 1.5], [5, 5.5]]);
    expect(queue.size).toBe(0);
    expect(queue.peekTime()).toBe(Infinity);
  });

  it('takes any time into the FIFO once the FIFO is empty, as TimeQueue does', () => {
    const queue = new ExpiryQueue();
    queue.push(50, 0, 0);
    queue.push(40, 1, 0); // heap
    expect(drain(queue, 50, true)).toEqual([[1, 0], [0, 0]]);
    queue.push(5, 2, 0); // the FIFO is empty: FIFO
    queue.push(7, 3, 0); // FIFO
    expect(queue.toArrays().fifoSlot).toEqual(Int32Array.of(2, 3));
    expect(queue.toArrays().lateSlot).toEqual(new Int32Array(0));
  });

  it('wraps and grows its ring without losing order', () => {
    const queue = new ExpiryQueue();
    let next = 0;
    const popped: number[] = [];
    // Pop half of every batch, so the head walks round the ring while it grows.
    for (let batch = 0; batch < 40; batch++) {
      for (let i = 0; i < 50; i++, next++) queue.push(next, next, -next);
      queue.popBefore(next - 25, false, (slot, stamp) => {
        expect(stamp).toBe(-slot);
        popped.push(slot);
      });
    }
    queue.popBefore(Infinity, false, (slot) => popped.push(slot));
    expect(popped).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });

  it('pops exactly what TimeQueue pops, and a restored snapshot carries on the same (property)', () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      { arbitrary: fc.record({ push: fc.integer({ min: 0, max: 60 }) }), weight: 6 },
      { arbitrary: fc.record({ cutoff: fc.integer({ min: 0, max: 60 }), inclusive: fc.boolean() }), weight: 2 },
      { arbitrary: fc.constant({ snapshot: true as const }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400, size: 'max' }), (ops) => {
        let queue = new ExpiryQueue();
        const model = new TimeQueue<{ time: number; slot: number; stamp: number }>();
        let slot = 0;
        for (const o of ops) {
          if ('push' in o) {
            queue.push(o.push, slot, o.push * 0.25 + slot);
            model.push({ time: o.push, slot, stamp: o.push * 0.25 + slot });
            slot++;
          } else if ('cutoff' in o) {
            const expected: [number, number][] = [];
            model.popBefore(o.cutoff, (item) => expected.push([item.slot, item.stamp]), o.inclusive);
            expect(drain(queue, o.cutoff, o.inclusive)).toEqual(expected);
          } else {
            const text = JSON.stringify(queue.toSnapshot());
            queue = ExpiryQueue.fromSnapshot(JSON.parse(text));
            expect(JSON.stringify(queue.toSnapshot())).toBe(text);
          }
          expect(queue.size).toBe(model.size);
          expect(queue.peekTime()).toBe(model.peekTime());
        }
        return true;
      }),
      { seed: 21, numRuns: 300 },
    );
  });

  it('refuses arrays of different lengths', () => {
    const a = new ExpiryQueue().toArrays();
    expect(() => ExpiryQueue.fromArrays({ ...a, fifoSlot: Int32Array.of(1) })).toThrow(/differ in length/);
  });
});
