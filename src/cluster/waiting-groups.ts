/**
 * Groups of what is waiting: reads `source` ahead into a buffer and yields, each time the reader
 * asks, every item buffered (at least one, waiting for it when there is none), bounded by a count
 * and a total weight. While the reader works on one group the next one gathers, so a busy reader
 * takes many items at once and an idle one each item as it comes. The buffer holds at most one
 * group's worth, by count and by weight (one item more than the weight bound at most): reading
 * ahead stops until the reader takes.
 */
export interface GroupBounds<T> {
  /** Most items in one group (at least 1). */
  readonly most: number;
  /** Most total weight of one group; a single heavier item still makes a group of its own. */
  readonly maxWeight: number;
  readonly weight: (item: T) => number;
}

export async function* waitingGroups<T>(source: AsyncIterable<T>, bounds: GroupBounds<T>): AsyncGenerator<T[]> {
  const most = Math.max(1, bounds.most);
  const buffer: T[] = [];
  const weights: number[] = [];
  let buffered = 0;
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wakeReader: (() => void) | undefined;
  let wakePump: (() => void) | undefined;
  const signalReader = () => {
    wakeReader?.();
    wakeReader = undefined;
  };

  const pump = (async () => {
    try {
      for await (const item of source) {
        const weight = bounds.weight(item);
        buffer.push(item);
        weights.push(weight);
        buffered += weight;
        signalReader();
        while (buffer.length >= most || buffered >= bounds.maxWeight) await new Promise<void>((resolve) => (wakePump = resolve));
      }
    } catch (error) {
      failure = { error };
    } finally {
      ended = true;
      signalReader();
    }
  })();

  try {
    for (;;) {
      while (buffer.length === 0 && !ended) await new Promise<void>((resolve) => (wakeReader = resolve));
      if (buffer.length === 0) break;
      let count = 0;
      let weight = 0;
      while (count < buffer.length && count < most) {
        const next = weights[count]!;
        if (count > 0 && weight + next > bounds.maxWeight) break;
        weight += next;
        count++;
      }
      const group = buffer.splice(0, count);
      buffered -= weights.splice(0, count).reduce((a, b) => a + b, 0);
      wakePump?.();
      wakePump = undefined;
      yield group;
    }
    if (failure !== undefined) throw failure.error;
  } finally {
    wakePump?.();
    await Promise.race([pump, Promise.resolve()]);
  }
}
