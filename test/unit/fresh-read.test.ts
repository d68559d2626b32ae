/** FreshRead (src/util/fresh-read.ts): every call gets a read begun after it; calls made while one runs share the next. */
import { describe, expect, it } from 'vitest';
import { FreshRead } from '../../src/util/fresh-read.js';

/** A value read by hand: each read waits until the test ends it, and answers the value as it was when the read began. */
function manualSource() {
  let value = 0;
  const waiting: (() => void)[] = [];
  let reads = 0;
  return {
    set: (v: number) => (value = v),
    get reads() {
      return reads;
    },
    read: () => {
      reads++;
      const seen = value;
      return new Promise<number>((resolve) => waiting.push(() => resolve(seen)));
    },
    /** Ends the oldest read under way, then lets the promise callbacks run. */
    async end() {
      waiting.shift()!();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

describe('issue 27: a read never older than its caller', () => {
  it('answers a call made during a read with the next read, shared by every call made meanwhile', async () => {
    const source = manualSource();
    const fresh = new FreshRead(source.read);
    const first = fresh.get();
    source.set(1); // changed after the first read began: calls from now on must see it
    const second = fresh.get();
    const third = fresh.get();
    expect(source.reads).toBe(1);
    await source.end();
    expect(await first).toBe(0);
    expect(source.reads).toBe(2); // the next read began once the first ended
    await source.end();
    expect(await second).toBe(1);
    expect(await third).toBe(1);
    // Nothing under way: a call reads at once.
    source.set(2);
    const fourth = fresh.get();
    expect(source.reads).toBe(3);
    await source.end();
    expect(await fourth).toBe(2);
  });

  it('a failed read fails its callers only; the calls waiting for the next read get it', async () => {
    let attempt = 0;
    const fresh = new FreshRead(async () => {
      attempt++;
      if (attempt === 1) throw new Error('store unreachable');
      return attempt;
    });
    const failing = fresh.get();
    const next = fresh.get();
    await expect(failing).rejects.toThrow('store unreachable');
    expect(await next).toBe(2);
    expect(await fresh.get()).toBe(3);
  });
});
