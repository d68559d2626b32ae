/**
 * The types of what the API takes and answers, from the schemas its OpenAPI document is built
 * from (../http/schemas/): imported as types only, so the client loads none of the service.
 */
export type { Alert, AlertList, AlertQuery, AlertStreamQuery } from '../http/schemas/alerts.js';
export type { ApiErrorCode, BatchProblem, ErrorBody } from '../http/schemas/errors.js';
export type { Event, IngestLimits, IngestOutcome } from '../http/schemas/events.js';
export type { Erasure, ErasurePending, ExplainQuery, Explanation, History, HistoryPoint, HistoryQuery, PlayerQuery, PlayerScores } from '../http/schemas/players.js';
export type { CaseQuery, PlayerCase, Queue, QueueQuery } from '../http/schemas/moderation-queue.js';
export type { Ranking, RankingQuery } from '../http/schemas/rankings.js';
export type { RuleList, RulesQuery, RuleStateBody } from '../http/schemas/rules.js';
export type { PlayerScore, RankRow } from '../http/schemas/scores.js';
export type { CommunityList, Health, ScorerDefence, ScorerInstance, ScorerList, ScorerListQuery } from '../http/schemas/system.js';
export type { AppealBody, AuditEntry, AuditPage, AuditQuery, DecisionBody, Me, NoteBody, PlayerVerdictBody, Recorded, ReportVerdictBody, SanctionBody } from '../http/schemas/moderation.js';
export type { BulkBody, BulkRecorded } from '../http/schemas/bulk.js';
export type { TeamFiguresAnswer as TeamFigures, TeamQuery } from '../http/schemas/team.js';
export type { Claim, ClaimBody, OwnAppealBody, PlayerTokenAnswer, PlayerView, ReportOutcomes, ReportsQuery, TokenBody } from '../http/schemas/access.js';
