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
  CaseQuery,
  CommunityList,
  Erasure,
  ErasurePending,
  ExplainQuery,
  Explanation,
  Health,
  History,
  HistoryQuery,
  IngestLimits,
  IngestOutcome,
  PlayerCase,
  PlayerQuery,
  PlayerScores,
  Queue,
  QueueQuery,
  Ranking,
  RuleList,
  RulesQuery,
  RuleStateBody,
  RankingQuery,
  ScorerList,
  ScorerListQuery,
  AppealBody,
  AuditPage,
  AuditQuery,
  DecisionBody,
  Me,
  NoteBody,
  PlayerVerdictBody,
  Recorded,
  ReportVerdictBody,
  SanctionBody,
  BulkBody,
  BulkRecorded,
  TeamFigures,
  TeamQuery,
  Claim,
  ClaimBody,
  OwnAppealBody,
  PlayerTokenAnswer,
  PlayerView,
  ReportOutcomes,
  ReportsQuery,
  TokenBody,
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

  /** GET /v1/queue (moderate): the attention queue of a community, paged, each row with its reasons. */
  queue(query: QueueQuery = {}, options?: CallOptions): Promise<Queue> {
    return this.transport.json({ path: withQuery('/v1/queue', query) }, options);
  }

  /** GET /v1/players/:id/case (moderate): scores with their meaning, the queue's reasons, the moderation record, open alerts, dated evidence. */
  case(id: string, query: CaseQuery = {}, options?: CallOptions): Promise<PlayerCase> {
    return this.transport.json({ path: withQuery(`${player(id)}/case`, query) }, options);
  }

  /** GET /v1/rules (moderate): the moderation rules and what each did in a community, with its precision against people's verdicts. */
  rules(query: RulesQuery = {}, options?: CallOptions): Promise<RuleList> {
    return this.transport.json({ path: withQuery('/v1/rules', query) }, options);
  }

  /** POST /v1/rules/:name/state (senior): sets how a configured rule runs in a community (live, dry-run or paused), with a reason. */
  setRuleState(name: string, body: RuleStateBody, options?: CallOptions): Promise<Recorded> {
    return this.post(`/v1/rules/${encodeURIComponent(name)}/state`, body, options);
  }

  /**
   * DELETE /v1/players/:id (admin): erases the player everywhere. A cluster gateway answers
   * ErasurePending (202, `erased: false`) when some partitions have not applied it within its wait.
   */
  erase(id: string, options?: CallOptions): Promise<Erasure | ErasurePending> {
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

  /** POST /v1/players/:id/verdicts (moderate): a verdict on the player. */
  recordVerdict(id: string, body: PlayerVerdictBody, options?: CallOptions): Promise<Recorded> {
    return this.post(`${player(id)}/verdicts`, body, options);
  }

  /** POST /v1/reports/verdicts (moderate): a verdict on a report (`report`, or `from` and `to`). */
  recordReportVerdict(body: ReportVerdictBody, options?: CallOptions): Promise<Recorded> {
    return this.post('/v1/reports/verdicts', body, options);
  }

  /** POST /v1/players/:id/notes (moderate): a note on the player. */
  addNote(id: string, body: NoteBody, options?: CallOptions): Promise<Recorded> {
    return this.post(`${player(id)}/notes`, body, options);
  }

  /** POST /v1/players/:id/sanctions (moderate): warn, mute, suspend, ban, or lift. */
  sanction(id: string, body: SanctionBody, options?: CallOptions): Promise<Recorded> {
    return this.post(`${player(id)}/sanctions`, body, options);
  }

  /** POST /v1/players/:id/appeals (moderate): opens an appeal on the player's behalf. */
  openAppeal(id: string, body: AppealBody = {}, options?: CallOptions): Promise<Recorded> {
    return this.post(`${player(id)}/appeals`, body, options);
  }

  /** POST /v1/players/:id/appeals/:appeal/decision (moderate): grants or denies an appeal. */
  decideAppeal(id: string, appeal: string, body: DecisionBody, options?: CallOptions): Promise<Recorded> {
    return this.post(`${player(id)}/appeals/${encodeURIComponent(appeal)}/decision`, body, options);
  }

  /** POST /v1/moderation/bulk (moderate): one verdict or sanction for up to 100 players, each its own event; sent again with the same `id`, it records nothing twice. */
  bulk(body: BulkBody, options?: CallOptions): Promise<BulkRecorded> {
    return this.post('/v1/moderation/bulk', body, options);
  }

  /** GET /v1/team (moderate): a community's team figures: decisions per moderator, waits, appeals granted, rule firings, the queue's length and age. */
  team(query: TeamQuery = {}, options?: CallOptions): Promise<TeamFigures> {
    return this.transport.json({ path: withQuery('/v1/team', query) }, options);
  }

  /** POST /v1/players/:id/case/claim (moderate): claims the player's case for a while, or renews the claim. */
  claimCase(id: string, body: ClaimBody = {}, options?: CallOptions): Promise<Claim> {
    return this.post(`${player(id)}/case/claim`, body, options);
  }

  /** DELETE /v1/players/:id/case/claim (moderate): releases the claim (a senior key: anyone's). */
  releaseCase(id: string, query: { community?: string } = {}, options?: CallOptions): Promise<Claim> {
    return this.transport.json({ method: 'DELETE', path: withQuery(`${player(id)}/case/claim`, query) }, options);
  }

  /** GET /v1/players/:id/standing (player-view, or a player token): the player's own view. */
  playerStanding(id: string, query: { community?: string } = {}, options?: CallOptions): Promise<PlayerView> {
    return this.transport.json({ path: withQuery(`${player(id)}/standing`, query) }, options);
  }

  /** GET /v1/players/:id/reports (player-view, or a player token): what came of the reports the player filed. */
  reportOutcomes(id: string, query: ReportsQuery = {}, options?: CallOptions): Promise<ReportOutcomes> {
    return this.transport.json({ path: withQuery(`${player(id)}/reports`, query) }, options);
  }

  /** POST /v1/players/:id/standing/appeals (player-view, or a player token): the player appeals their own active sanction. */
  appealOwnSanction(id: string, body: OwnAppealBody, options?: CallOptions): Promise<Recorded> {
    return this.post(`${player(id)}/standing/appeals`, body, options);
  }

  /** POST /v1/player-tokens (player-view): a short-lived token for one player of one community, for their client. */
  mintPlayerToken(body: TokenBody, options?: CallOptions): Promise<PlayerTokenAnswer> {
    return this.post('/v1/player-tokens', body, options);
  }

  /** GET /v1/audit (moderate): a page of the audit log (JSON); `next` is the cursor of the following page. */
  audit(query: Omit<AuditQuery, 'format'> = {}, options?: CallOptions): Promise<AuditPage> {
    return this.transport.json({ path: withQuery('/v1/audit', { ...query, format: 'json' }) }, options);
  }

  /** GET /v1/audit as an export: every matching entry, as CSV text or NDJSON text. */
  async auditExport(format: 'csv' | 'ndjson', query: Omit<AuditQuery, 'format' | 'limit'> = {}, options?: CallOptions): Promise<string> {
    const accept = format === 'csv' ? 'text/csv' : 'application/x-ndjson';
    return (await this.transport.send({ path: withQuery('/v1/audit', { ...query, format }), accept }, options)).text();
  }

  /** GET /v1/me: the calling key's id, label and scopes. */
  me(options?: CallOptions): Promise<Me> {
    return this.transport.json({ path: '/v1/me' }, options);
  }

  private post<T>(path: string, body: unknown, options?: CallOptions): Promise<T> {
    return this.transport.json({ method: 'POST', path, body: JSON.stringify(body), contentType: 'application/json' }, options);
  }

  /** GET /v1/scorers: the scorer instances the service runs and their defences; with `community`, whether each is engaged there. */
  scorers(query: ScorerListQuery = {}, options?: CallOptions): Promise<ScorerList> {
    return this.transport.json({ path: withQuery('/v1/scorers', query) }, options);
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
