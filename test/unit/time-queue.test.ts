/** TimeQueue: pops exactly the items older than a cutoff, oldest first, whatever the arrival order. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TimeQueue } from '../../src/util/time-queue.js';

describe('TimeQueue', () => {
  it('matches a sorted list under any mix of pushes and cutoffs (property)', () => {
    const op = fc.oneof(fc.record({ push: fc.integer({ min: 0, max: 1000 }) }), fc.record({ cutoff: fc.integer({ min: 0, max: 1000 }) }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const queue = new TimeQueue<{ time: number; n: number }>();
        let model: { time: number; n: number }[] = [];
        let n = 0;
        for (const o of ops) {
          if ('push' in o) {
            const item = { time: o.push, n: n++ };
            queue.push(item);
            model.push(item);
          } else {
            const popped: number[] = [];
            queue.popBefore(o.cutoff, (item) => popped.push(item.time));
            const expected = model.filter((m) => m.time < o.cutoff).map((m) => m.time).sort((a, b) => a - b);
            model = model.filter((m) => m.time >= o.cutoff);
            if (JSON.stringify(popped) !== JSON.stringify(expected) || queue.size !== model.length) return false;
          }
        }
        return true;
      }),
      { seed: 5, numRuns: 300 },
    );
  });

  it('keeps in-order items out of the heap and compacts its array', () => {
    const queue = new TimeQueue<{ time: number }>();
    for (let t = 0; t < 5000; t++) queue.push({ time: t });
    const popped: number[] = [];
    queue.popBefore(4000, (item) => popped.push(item.time));
    expect(popped).toHaveLength(4000);
    expect(popped[3999]).toBe(3999);
    expect(queue.size).toBe(1000);
  });
});
