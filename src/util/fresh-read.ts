/**
 * A read that is never older than its caller: each call resolves with the result of a read that
 * began after the call was made. Calls made while a read runs share the next one, started when it
 * ends, so under many concurrent callers at most two reads are under way and most callers wait
 * for no read of their own (a PostgreSQL round trip serves every request that arrived before it
 * was sent).
 */
export class FreshRead<T> {
  /** The read under way, if any. */
  private running: Promise<T> | undefined;
  /** The read that starts when `running` ends, shared by the calls made since it began. */
  private queued: Promise<T> | undefined;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (this.running === undefined) return this.start();
    // The read under way may have begun before this call: wait for the next one.
    this.queued ??= this.running.then(
      () => this.next(),
      () => this.next(),
    );
    return this.queued;
  }

  private next(): Promise<T> {
    this.queued = undefined;
    return this.start();
  }

  private start(): Promise<T> {
    const read = this.read();
    this.running = read;
    const ended = () => {
      if (this.running === read) this.running = undefined;
    };
    read.then(ended, ended);
    return read;
  }
}
