/**
 * The clients of the fault tier. Ingest clients send batches of events with unique ids, one after
 * another each, to a gateway drawn at random, and send a batch again as docs/deploy.md says to (a
 * 503, a 504 APPLY_PENDING, a lost or refused connection, an answer not come within a bound; to a
 * gateway drawn again), bounded per batch; each batch records the logical time of its first send
 * and of its 200, for the order checks of ./fault-checks.ts. A reader meanwhile asks gateways for
 * `/v1/communities` and records every answer that shows a community behind a 200 answered before
 * the read was sent (a read that follows an ingest answer shows it: docs/deploy.md).
 */
import type { Rng } from '../../src/util/random.js';
import { batch } from './support.js';

/** A logical clock over this process's event loop: one tick per send, answer or read. */
export class Clock {
  private time = 0;
  tick(): number {
    return ++this.time;
  }
}

export interface SentBatch {
  readonly client: number;
  readonly index: number;
  readonly events: readonly Record<string, unknown>[];
  /** The tick of its first send. */
  readonly sentAt: number;
  /** The tick of its 200, once answered so. */
  ackedAt: number | undefined;
  /** The answers before the 200: `503 LOG_UNAVAILABLE`, `connection: …`. */
  readonly retried: string[];
}

export interface ClientOptions {
  readonly clients: number;
  readonly batchSize: number;
  readonly communities: number;
  /** Pause between one client's batches (ms). */
  readonly pauseMs: number;
  /** How long one batch may go unacknowledged, retries included (ms). */
  readonly batchWithinMs: number;
  /** How long one request may go unanswered before it counts as a lost connection (ms). */
  readonly requestWithinMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `503 CODE`, or what kept a request from being answered. */
function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return `connection: ${cause ?? (error as Error).name ?? String(error)}`;
}

export class IngestClients {
  readonly batches: SentBatch[] = [];
  /** Each community's highest sequence a 200 named. */
  private readonly floors = new Map<string, number>();

  constructor(
    private readonly urls: () => readonly string[],
    private readonly key: string,
    private readonly clock: Clock,
    private readonly options: ClientOptions,
  ) {}

  /** The highest sequence of each community a 200 answered so far named. */
  floorSnapshot(): Map<string, number> {
    return new Map(this.floors);
  }

  /** Runs the clients until `stopped()` (each finishes its batch); rejects with the first client's failure. */
  async run(rngs: readonly Rng[], stopped: () => boolean): Promise<void> {
    await Promise.all(rngs.slice(0, this.options.clients).map((rng, client) => this.client(client, rng, stopped)));
  }

  private async client(client: number, rng: Rng, stopped: () => boolean): Promise<void> {
    for (let index = 0; !stopped(); index++) {
      const events = batch(rng, `k${client}b${index}`, this.options.batchSize, this.options.communities);
      const sent: SentBatch = { client, index, events, sentAt: this.clock.tick(), ackedAt: undefined, retried: [] };
      this.batches.push(sent);
      await this.untilAcknowledged(sent, rng);
      await sleep(this.options.pauseMs);
    }
  }

  private async untilAcknowledged(sent: SentBatch, rng: Rng): Promise<void> {
    const deadline = Date.now() + this.options.batchWithinMs;
    let last = 'none';
    for (;;) {
      const urls = this.urls();
      const url = urls[Math.floor(rng() * urls.length)]!;
      let status: number;
      let body: Record<string, unknown>;
      try {
        const response = await fetch(`${url}/v1/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(sent.events),
          signal: AbortSignal.timeout(this.options.requestWithinMs),
        });
        status = response.status;
        body = (await response.json()) as Record<string, unknown>;
      } catch (error) {
        sent.retried.push(describeFailure(error));
        status = 0;
        body = {};
      }
      if (status === 200) {
        sent.ackedAt = this.clock.tick();
        const { accepted, duplicates, sequences } = body as { accepted: number; duplicates: number; sequences: Record<string, number> };
        if (accepted + duplicates !== sent.events.length || (sent.retried.length === 0 && duplicates !== 0)) {
          throw new Error(`client ${sent.client} batch ${sent.index}: 200 counts ${accepted} accepted and ${duplicates} duplicates of ${sent.events.length} events after ${sent.retried.length} retries (${sent.retried.join(', ')})`);
        }
        for (const [community, sequence] of Object.entries(sequences)) this.floors.set(community, Math.max(this.floors.get(community) ?? 0, sequence));
        return;
      }
      if (status !== 0 && status !== 503 && status !== 504) {
        throw new Error(`client ${sent.client} batch ${sent.index}: ${url} answered ${status} ${JSON.stringify(body)} after ${sent.retried.join(', ') || 'no retries'}`);
      }
      if (status !== 0) {
        sent.retried.push(`${status} ${String(body.error)}`);
        last = `${url} ${status} ${String(body.error)}: ${String(body.message)}`;
      }
      if (Date.now() > deadline) throw new Error(`client ${sent.client} batch ${sent.index}: not acknowledged within ${this.options.batchWithinMs} ms (${sent.retried.join(', ')}); the last answer: ${last}`);
      await sleep(100 + rng() * 400);
    }
  }
}

export interface ReadTally {
  /** Answers 200 checked against the floors. */
  checked: number;
  /** Answers 503/504 or lost connections (allowed during faults). */
  unavailable: number;
  /** What a 200 showed behind an earlier 200 of ingest. */
  readonly behind: string[];
}

/** Reads `/v1/communities` through random gateways until `stopped()`; a 200 showing a community behind its floor at the send is recorded. */
export async function readWhileIngesting(urls: () => readonly string[], key: string, clients: IngestClients, rng: Rng, stopped: () => boolean, requestWithinMs: number): Promise<ReadTally> {
  const tally: ReadTally = { checked: 0, unavailable: 0, behind: [] };
  while (!stopped()) {
    const all = urls();
    const url = all[Math.floor(rng() * all.length)]!;
    const floors = clients.floorSnapshot();
    try {
      const response = await fetch(`${url}/v1/communities`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(requestWithinMs) });
      const body = (await response.json()) as { communities?: { community: string; sequence: number }[] };
      if (response.status !== 200) {
        if (response.status !== 503 && response.status !== 504) tally.behind.push(`${url} answered ${response.status} ${JSON.stringify(body)}`);
        tally.unavailable++;
      } else {
        tally.checked++;
        const shown = new Map((body.communities ?? []).map((c) => [c.community, c.sequence]));
        for (const [community, floor] of floors) {
          const sequence = shown.get(community) ?? 0;
          if (sequence < floor) tally.behind.push(`${url} showed ${community} at sequence ${sequence} after a 200 had named ${floor}`);
        }
      }
    } catch {
      tally.unavailable++;
    }
    await sleep(100 + rng() * 200);
  }
  return tally;
}
