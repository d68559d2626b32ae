/**
 * A typed client of the standing service: one method per route of its OpenAPI document, each
 * answering the documented body (./types.ts) and throwing StandingApiError for an error answer.
 * It runs on global fetch, in Node and in a browser.
 */
import { readAlertEvents } from './alert-stream.js';
import { StandingApiError } from './error.js';
import { Transport, withQuery, type CallOptions, type ClientOptions } from './request.js';
import type {
  Alert,
  AlertList,
  AlertQuery,
  AlertStreamQuery,
  CommunityList,
  Erasure,
  ExplainQuery,
  Explanation,
  Health,
  History,
  HistoryQuery,
  IngestLimits,
  IngestOutcome,
  PlayerQuery,
  PlayerScores,
  Ranking,
  RankingQuery,
  ScorerList,
} from './types.js';

const player = (id: string) => `/v1/players/${encodeURIComponent(id)}`;

export class StandingClient {
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
  }

  /** POST /v1/events: a batch (an array of events, or NDJSON text), stored atomically; resolves once it is durable. */
  ingest(batch: readonly unknown[] | string, options?: CallOptions): Promise<IngestOutcome> {
    const ndjson = typeof batch === 'string';
    return this.transport.json({ method: 'POST', path: '/v1/events', body: ndjson ? batch : JSON.stringify(batch), contentType: ndjson ? 'application/x-ndjson' : 'application/json' }, options);
  }

  /** GET /v1/limits: what a batch must keep to. */
  limits(options?: CallOptions): Promise<IngestLimits> {
    return this.transport.json({ path: '/v1/limits' }, options);
  }

  /** GET /v1/rankings/:scorer: a page of a scorer instance's ranking (`scorer`: an instance name or a scorer id). */
  ranking(scorer: string, query: RankingQuery = {}, options?: CallOptions): Promise<Ranking> {
    return this.transport.json({ path: withQuery(`/v1/rankings/${encodeURIComponent(scorer)}`, query) }, options);
  }

  /** GET /v1/players/:id: the player's score and rank under every scorer instance, per community. */
  player(id: string, query: PlayerQuery = {}, options?: CallOptions): Promise<PlayerScores> {
    return this.transport.json({ path: withQuery(player(id), query) }, options);
  }

  /** GET /v1/players/:id/explain: what makes up one of the player's scores, its list paged. */
  explain(id: string, query: ExplainQuery, options?: CallOptions): Promise<Explanation> {
    return this.transport.json({ path: withQuery(`${player(id)}/explain`, query) }, options);
  }

  /** GET /v1/players/:id/history: the score and rank over event time (503 HISTORY_BUSY waited out per Retry-After). */
  history(id: string, query: HistoryQuery, options?: CallOptions): Promise<History> {
    return this.transport.json({ path: withQuery(`${player(id)}/history`, query) }, options);
  }

  /** DELETE /v1/players/:id (admin): erases the player everywhere. */
  erase(id: string, options?: CallOptions): Promise<Erasure> {
    return this.transport.json({ method: 'DELETE', path: player(id) }, options);
  }

  /** GET /v1/alerts: stored alerts, oldest first (`order: 'desc'`: newest first). */
  alerts(query: AlertQuery = {}, options?: CallOptions): Promise<AlertList> {
    return this.transport.json({ path: withQuery('/v1/alerts', query) }, options);
  }

  /**
   * GET /v1/alerts/stream: calls `onAlert` for each alert (those after `query.after` first),
   * until `signal` aborts (the promise then rejects with its reason) or the service ends the stream.
   */
  async streamAlerts(query: AlertStreamQuery, onAlert: (alert: Alert) => void, options: CallOptions = {}): Promise<void> {
    const response = await this.transport.send({ path: withQuery('/v1/alerts/stream', query), accept: 'text/event-stream' }, options);
    if (response.body === null) throw new StandingApiError(response.status, { error: 'HTTP 200', message: 'the alert stream has no body' });
    await readAlertEvents(response.body, onAlert);
  }

  /** GET /v1/scorers: the scorer instances the service runs. */
  scorers(options?: CallOptions): Promise<ScorerList> {
    return this.transport.json({ path: '/v1/scorers' }, options);
  }

  /** GET /v1/communities: communities with events and their last sequence. */
  communities(options?: CallOptions): Promise<CommunityList> {
    return this.transport.json({ path: '/v1/communities' }, options);
  }

  /** GET /healthz: liveness (no key needed). */
  health(options?: CallOptions): Promise<Health> {
    return this.transport.json({ path: '/healthz' }, options);
  }

  /** GET /metrics: the Prometheus text. */
  async metrics(options?: CallOptions): Promise<string> {
    return (await this.transport.send({ path: '/metrics', accept: 'text/plain' }, options)).text();
  }
}
