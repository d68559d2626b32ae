/**
 * One request to the service with global fetch: the key as a bearer token, JSON back, an error
 * answer thrown as StandingApiError, and an answer that asks for a short wait (429 or 503 with
 * Retry-After) tried again after it.
 */
import { StandingApiError } from './error.js';
import type { ErrorBody } from './types.js';

export interface ClientOptions {
  /** The service, e.g. `http://127.0.0.1:8080`; '' for the page's own origin in a browser. */
  readonly url: string;
  /** An API key, or a function giving the current one (none: no Authorization header). */
  readonly key?: string | (() => string | null | undefined);
  /** Attempts in all for a request answered 429 or 503 with Retry-After (default 3; 1: never again). */
  readonly attempts?: number;
  /** The longest Retry-After waited for; a longer one is thrown at once, its `retryAfter` set (default 10 s). */
  readonly maxRetryWaitSeconds?: number;
  /** The fetch to use (default the global one). */
  readonly fetch?: typeof fetch;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
}

export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** Seconds a Retry-After header asks for (a number of seconds or an HTTP date); undefined without one. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

/** Resolves after `seconds`, or rejects with the signal's reason once it aborts; leaves no listener on the signal. */
export function pause(seconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, seconds * 1000);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `path` with the query's defined, non-empty values. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

export interface Request {
  readonly method?: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly body?: string;
  readonly contentType?: string;
  readonly accept?: string;
}

export class Transport {
  constructor(private readonly options: ClientOptions) {}

  private headers(request: Request): Record<string, string> {
    const key = typeof this.options.key === 'function' ? this.options.key() : this.options.key;
    return {
      ...(key === undefined || key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(request.contentType === undefined ? {} : { 'content-type': request.contentType }),
      ...(request.accept === undefined ? {} : { accept: request.accept }),
    };
  }

  /** The answer to `request` once it is a success (2xx); throws StandingApiError for an error answer. */
  async send(request: Request, { signal }: CallOptions = {}): Promise<Response> {
    const attempts = this.options.attempts ?? 3;
    const maxWait = this.options.maxRetryWaitSeconds ?? 10;
    const fetcher = this.options.fetch ?? fetch;
    for (let attempt = 1; ; attempt++) {
      const response = await fetcher(`${this.options.url}${request.path}`, { method: request.method ?? 'GET', headers: this.headers(request), body: request.body, signal });
      if (response.ok) return response;
      const text = await response.text().catch(() => '');
      let body: Partial<ErrorBody> | undefined;
      try {
        const parsed: unknown = JSON.parse(text);
        if (typeof parsed === 'object' && parsed !== null && typeof (parsed as ErrorBody).error === 'string') body = parsed as ErrorBody;
      } catch {
        // not the service's error body (a proxy's page, say)
      }
      const wait = retryAfterSeconds(response.headers.get('retry-after'));
      const busy = (response.status === 429 || response.status === 503) && wait !== undefined;
      if (busy && attempt < attempts && wait <= maxWait) {
        await pause(wait, signal);
        continue;
      }
      throw new StandingApiError(response.status, body, wait);
    }
  }

  /** The JSON answer to `request`. */
  async json<T>(request: Request, options?: CallOptions): Promise<T> {
    return (await (await this.send({ accept: 'application/json', ...request }, options)).json()) as T;
  }
}
