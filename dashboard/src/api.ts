/**
 * The dashboard's access to the standing API: same origin, the read key from localStorage
 * (set from the key form, or once from a `#key=…` link), JSON in and out. Nothing is cached:
 * every view asks for exactly what it shows.
 */
const KEY = 'standing.key';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function storedKey(): string | null {
  return localStorage.getItem(KEY);
}

export function storeKey(key: string | null): void {
  if (key === null) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, key);
}

/** Takes a key handed over in the URL fragment (`#key=stk_…`), which never reaches the server. */
export function takeKeyFromHash(): void {
  const match = /^#key=(stk_[A-Za-z0-9_-]+)/.exec(location.hash);
  if (match === null) return;
  storeKey(match[1]!);
  history.replaceState(null, '', `${location.pathname}#/`);
}

function headers(): Record<string, string> {
  const key = storedKey();
  return key === null ? {} : { authorization: `Bearer ${key}` };
}

/** How often a read the service answers 503 with Retry-After (busy: HISTORY_BUSY, TOO_MANY_CONNECTIONS) is tried in all. */
const BUSY_ATTEMPTS = 30;

function pause(seconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, seconds * 1000);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/**
 * A read, as JSON. A 503 with Retry-After (the service is busy: its history threads, say, all
 * running the player page's other histories) is tried again after that many seconds.
 */
export async function get<T>(path: string, query: Record<string, string | number | undefined> = {}, signal?: AbortSignal): Promise<T> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const url = params.size === 0 ? path : `${path}?${params}`;
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url, { headers: headers(), signal });
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    const retryAfter = Number(response.headers.get('retry-after'));
    if (response.status === 503 && retryAfter > 0 && attempt < BUSY_ATTEMPTS) {
      await pause(Math.min(retryAfter, 10), signal);
      continue;
    }
    if (!response.ok) throw new ApiError(response.status, body.message ?? response.statusText);
    return body as T;
  }
}

export interface Scorer {
  name: string;
  scorer: string;
  params: string;
  /** Rank 1 is the most harmful player (reports), not the best. */
  rankOneIsWorst: boolean;
}

export interface Row {
  rank: number;
  player: string;
  score: number;
  community: string;
  [field: string]: unknown;
}

export interface Ranking {
  scorer: string;
  community: string;
  sequence: number;
  total: number;
  offset: number;
  limit: number;
  range: { min: number; max: number };
  rows: Row[];
}

export interface PlayerScore {
  scorer: string;
  scorerId: string;
  rank: number;
  score: number;
  of: number;
  sequence: number;
  [field: string]: unknown;
}

export interface Player {
  player: string;
  communities: { community: string; scores: PlayerScore[] }[];
}

export interface Alert {
  id: number;
  community: string;
  scorer: string;
  player: string;
  threshold: string;
  kind: 'raised' | 'cleared';
  score: number;
  sequence: number;
  time: number;
  createdAt: string;
}

export interface HistoryPoint {
  sequence: number;
  time: number;
  score: number | null;
  rank: number | null;
}

/**
 * Follows the Server-Sent Events stream of alerts with fetch (EventSource cannot send the key
 * header), calling `onAlert` for each, until `signal` aborts.
 */
export async function streamAlerts(query: Record<string, string | number | undefined>, onAlert: (alert: Alert) => void, signal: AbortSignal): Promise<void> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const response = await fetch(`/v1/alerts/stream?${params}`, { headers: headers(), signal });
  if (!response.ok || response.body === null) throw new ApiError(response.status, 'the alert stream is not available');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const message = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = message
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      if (data !== '') onAlert(JSON.parse(data) as Alert);
    }
  }
}
