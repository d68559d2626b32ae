/**
 * Runs the service's writes one at a time, in arrival order. Batches that arrive while a write
 * is running wait together and then go through as one group, so one durable commit (one fsync)
 * covers them all: group commit. Other work (erasure, checkpoints) runs alone.
 */
export type Work<B, R> = { kind: 'batch'; batch: B; done: Settle<R> } | { kind: 'alone'; run: () => Promise<unknown>; done: Settle<unknown> };

interface Settle<R> {
  resolve(value: R): void;
  reject(error: unknown): void;
}

export class SerialWriter<B, R> {
  private readonly queue: Work<B, R>[] = [];
  private running = false;

  /** `runGroup` gets consecutive batches and settles each one's promise itself. */
  constructor(private readonly runGroup: (group: { batch: B; done: Settle<R> }[]) => Promise<void>) {}

  submit(batch: B): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ kind: 'batch', batch, done: { resolve, reject } });
      void this.drain();
    });
  }

  /** Runs `run` when every earlier write has finished, and nothing else meanwhile. */
  alone<T>(run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ kind: 'alone', run, done: { resolve: resolve as (v: unknown) => void, reject } });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const first = this.queue[0]!;
        if (first.kind === 'alone') {
          this.queue.shift();
          try {
            first.done.resolve(await first.run());
          } catch (error) {
            first.done.reject(error);
          }
          continue;
        }
        let end = 1;
        while (end < this.queue.length && this.queue[end]!.kind === 'batch') end++;
        const group = this.queue.splice(0, end) as { kind: 'batch'; batch: B; done: Settle<R> }[];
        try {
          await this.runGroup(group);
        } catch (error) {
          for (const work of group) work.done.reject(error); // settling twice is harmless
        }
      }
    } finally {
      this.running = false;
    }
  }
}
