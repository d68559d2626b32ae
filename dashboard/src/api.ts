/**
 * The dashboard's access to the standing API: the typed client (standing/client) on the page's
 * own origin, with the read key from localStorage (set from the key form, or once from a
 * `#key=…` link). Nothing is cached: every view asks for exactly what it shows. A read the
 * service answers 503 with Retry-After (busy: its history threads, say, all running the player
 * page's other histories) is tried again after that many seconds.
 */
import { StandingClient } from '../../src/client/index.js';

export { StandingApiError as ApiError } from '../../src/client/index.js';
export type { Alert, AuditEntry, AuditQuery, HistoryPoint, Me, PlayerCase as Case, PlayerScore, PlayerScores as Player, Queue, Ranking, RankRow as Row, Recorded, ScorerInstance as Scorer } from '../../src/client/index.js';
export type { BulkBody, TeamFigures } from '../../src/client/index.js';
import type { DecisionBody, PlayerCase, PlayerVerdictBody, Queue, SanctionBody } from '../../src/client/index.js';

/** Parts of the moderation answers and bodies the views name. */
export type QueueRow = Queue['rows'][number];
export type CaseScore = PlayerCase['scores'][number];
export type PlayerRecord = PlayerCase['record'];
export type Outcome = PlayerVerdictBody['outcome'];
export type SanctionAction = SanctionBody['action'];
export type AppealDecision = DecisionBody['outcome'];

const KEY = 'standing.key';

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

/** How often a read answered 503 with Retry-After is tried in all. */
const BUSY_ATTEMPTS = 30;

export const api = new StandingClient({ url: '', key: storedKey, attempts: BUSY_ATTEMPTS });
