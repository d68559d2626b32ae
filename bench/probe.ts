/** A request asked again and again while something else runs, and the percentiles of its latencies. */

export interface Probe {
  readonly latencies: number[];
  failed: number;
  stop(): Promise<void>;
}

/** Calls `request` every `everyMs` (never two at once) until stopped, keeping each latency. */
export function probe(everyMs: number, request: () => Promise<Response>): Probe {
  const latencies: number[] = [];
  let running = true;
  const result: Probe = {
    latencies,
    failed: 0,
    stop: async () => {
      running = false;
      await loop;
    },
  };
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await request();
        await response.arrayBuffer();
        if (!response.ok) result.failed++;
      } catch {
        result.failed++;
      }
      const elapsed = performance.now() - started;
      latencies.push(elapsed);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - elapsed)));
    }
  })();
  return result;
}

/** The `p`-th percentile of `values` (nearest rank), 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
