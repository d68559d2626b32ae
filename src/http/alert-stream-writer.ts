/**
 * One alert stream's writing (GET /v1/alerts/stream, ./routes/alerts.ts), bounded in memory
 * however slowly its client reads.
 *
 * - **Catch-up** (`?after=` or Last-Event-ID): the missed alerts are read from the store a page
 *   of CATCH_UP_PAGE at a time, and each is written only once the socket has taken the one
 *   before (Node's `write()` return and `'drain'`): a client that does not read leaves the
 *   catch-up paused, holding one page and the response's buffer, never the store's alerts.
 * - **Live alerts heard during the catch-up** wait, in the order heard, until it ends (so the
 *   order holds); each one the catch-up sends itself is dropped from the wait. More than
 *   MAX_WAITING of them waiting means the client is too far behind: the stream is closed.
 * - **Live alerts after it** are written as heard, unless the response already holds
 *   MAX_UNSENT_BYTES its client has not taken: the client is too far behind, and the stream is
 *   closed.
 *
 * A closed stream's client reconnects with Last-Event-ID (EventSource does so by itself) and is
 * caught up from the store: nothing is lost, and what it held is freed at once. A live copy of
 * an alert the catch-up sent (a cluster can store an alert before it is heard live) is sent
 * once: the ids of the newest CAUGHT_UP_KEPT alerts of the catch-up are kept to drop it.
 */
import type { ServerResponse } from 'node:http';
import type { StoredAlert } from '../store/types.js';

/** Alerts read from the store per page of a catch-up. */
export const CATCH_UP_PAGE = 200;
/** Live alerts kept waiting while the catch-up runs; one more closes the stream. */
export const MAX_WAITING = 1000;
/** Bytes the response may hold that its client has not taken before a live alert closes the stream. */
export const MAX_UNSENT_BYTES = 256 * 1024;
/** Ids of the last alerts the catch-up sent, kept to drop a late live copy of one. */
const CAUGHT_UP_KEPT = 1000;

export type StreamEnd = 'client' | 'behind' | 'failed';

export interface AlertStreamOptions {
  /** Alerts with an id at most this are never sent (the client has them). */
  readonly after: number | undefined;
  readonly wanted: (alert: StoredAlert) => boolean;
  /** Told when the stream starts and stops waiting for its client to take what was written. */
  readonly onWaiting: (waiting: boolean) => void;
}

export class AlertStreamWriter {
  private catchingUp: boolean;
  private ended: StreamEnd | undefined;
  /** Live alerts heard during the catch-up, by id, in the order heard. */
  private readonly waiting = new Map<number, StoredAlert>();
  /** The newest ids the catch-up sent (oldest first). */
  private readonly caughtUp = new Set<number>();

  constructor(
    private readonly out: ServerResponse,
    private readonly options: AlertStreamOptions,
  ) {
    this.catchingUp = options.after !== undefined;
  }

  /** How the stream ended; undefined while it runs. */
  get end(): StreamEnd | undefined {
    return this.ended;
  }

  /** Writes a heartbeat comment, unless the client has not taken what was written (it keeps nothing alive then). */
  heartbeat(): void {
    if (this.ended === undefined && !this.out.writableNeedDrain) this.out.write(': ping\n\n');
  }

  /** Live alerts, as the feed hears them. */
  hear(alerts: readonly StoredAlert[]): void {
    for (const alert of alerts) {
      if (this.ended !== undefined) return;
      if (this.options.after !== undefined && alert.id <= this.options.after) continue;
      // Only what the stream sends is held: another community's alerts never count against it.
      if (!this.options.wanted(alert)) continue;
      if (this.catchingUp) {
        this.waiting.set(alert.id, alert);
        if (this.waiting.size > MAX_WAITING) this.close('behind');
      } else this.sendLive(alert);
    }
  }

  /** Sends the missed alerts, page by page as the client takes them, then the live ones heard meanwhile. */
  async catchUp(pages: AsyncIterable<readonly StoredAlert[]>): Promise<void> {
    if (!this.catchingUp) return;
    for await (const page of pages) {
      for (const alert of page) {
        if (this.ended !== undefined) return;
        this.waiting.delete(alert.id);
        this.caughtUp.add(alert.id);
        if (this.caughtUp.size > CAUGHT_UP_KEPT) this.caughtUp.delete(this.caughtUp.values().next().value!);
        if (this.options.wanted(alert) && !this.out.write(frame(alert)) && !(await this.drained())) return;
      }
      if (this.ended !== undefined) return;
    }
    this.catchingUp = false;
    const heard = [...this.waiting.values()];
    this.waiting.clear();
    for (const alert of heard) this.sendLive(alert);
  }

  /** Ends the stream: the client left, fell too far behind, or the catch-up failed. */
  close(why: StreamEnd): void {
    if (this.ended !== undefined) return;
    this.ended = why;
    this.waiting.clear();
    this.caughtUp.clear();
    if (why === 'behind') this.out.destroy(); // what it holds is freed now; the client reconnects with Last-Event-ID
    else if (why === 'failed') this.out.end();
  }

  private sendLive(alert: StoredAlert): void {
    if (this.caughtUp.delete(alert.id)) return; // hear() took only the wanted ones
    if (this.out.writableLength > MAX_UNSENT_BYTES) this.close('behind');
    else this.out.write(frame(alert));
  }

  /** Resolves true once the client has taken what was written, false if the stream ended first. */
  private drained(): Promise<boolean> {
    if (!this.out.writableNeedDrain) return Promise.resolve(this.ended === undefined);
    this.options.onWaiting(true);
    return new Promise<boolean>((resolve) => {
      const done = (drained: boolean) => {
        this.out.off('drain', onDrain);
        this.out.off('close', onClose);
        this.options.onWaiting(false);
        resolve(drained && this.ended === undefined);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      this.out.on('drain', onDrain);
      this.out.on('close', onClose);
    });
  }
}

/** One alert as a server-sent event. */
export const frame = (alert: StoredAlert) => `id: ${alert.id}\nevent: alert\ndata: ${JSON.stringify(alert)}\n\n`;
