/**
 * How a gateway forwards an API request to the worker owning a partition, over NATS
 * request–reply on `<stream>-read.<partition>`: the request as JSON (method, URL, the headers
 * that matter, the body as text), and the answer as JSON (status, the headers that matter, the
 * body as text, the stream sequence the partition's state includes, and the epoch of the lease
 * the worker holds the partition by). The worker answers with the single-node route code itself,
 * so the body is the one `standing serve` gives.
 */
import type { ClusterConfig } from './nats.js';

/** The subject a partition's owner answers forwarded requests on. */
export function readSubject(config: Pick<ClusterConfig, 'stream'>, partition: number): string {
  return `${config.stream}-read.${partition}`;
}

/** The request headers a worker is given: the key (for scopes a route checks again) and what shapes the body. */
export const FORWARDED_REQUEST_HEADERS = ['authorization', 'x-api-key', 'content-type', 'accept'] as const;

/** The answer headers a gateway passes on. */
export const FORWARDED_ANSWER_HEADERS = ['content-type', 'retry-after', 'www-authenticate', 'cache-control'] as const;

/** The header naming the stream sequence a forwarded answer's partition state includes. */
export const STREAM_SEQUENCE_HEADER = 'x-standing-stream-sequence';

export interface ForwardedRequest {
  readonly method: string;
  /** Path and query, as the client sent them. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface ForwardedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The last stream sequence the partition's state includes when it answered. */
  readonly streamSequence: number;
  /**
   * The epoch of the lease the answering worker holds the partition by (0 in an answer the
   * gateway makes itself); a gateway takes no answer older than the epoch it knows (./lease-epochs.ts).
   */
  readonly epoch: number;
}

/** Only the listed headers with a single text value. */
export function pickHeaders(headers: Readonly<Record<string, unknown>>, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (typeof value === 'string') out[name] = value;
    else if (typeof value === 'number') out[name] = String(value);
  }
  return out;
}
