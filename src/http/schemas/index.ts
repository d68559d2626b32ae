/**
 * Every named schema of the API, in the order they are registered (fastify `addSchema`): the
 * OpenAPI document serves them as `components.schemas`, under their `$id`. The types of the
 * bodies they describe are what the client (../../client/) hands back.
 */
import { AlertList, AlertQuery, AlertStream, AlertStreamQuery, Alert } from './alerts.js';
import { BatchProblem, ErrorBody } from './errors.js';
import { Event, EventBatch, EventLines, IngestLimits, IngestOutcome } from './events.js';
import { AppealBody, AppealParams, AuditCsv, AuditLines, AuditEntry, AuditPage, AuditQuery, DecisionBody, Me, NoteBody, PlayerVerdictBody, Recorded, ReportVerdictBody, SanctionBody } from './moderation.js';
import { Erasure, Explanation, ExplainQuery, History, HistoryPoint, HistoryQuery, PlayerParams, PlayerQuery, PlayerScores } from './players.js';
import { Claim, ClaimBody, ClaimQuery, OwnAppealBody, PlayerTokenAnswer, PlayerView, PlayerViewQuery, ReportOutcomes, ReportsQuery, TokenBody } from './access.js';
import { CaseQuery, CaseScore, EvidenceEntry, PlayerCase, PlayerRecord, Queue, QueueQuery, QueueRow, QueueScore, QueueWeights } from './moderation-queue.js';
import { Ranking, RankingParams, RankingQuery } from './rankings.js';
import { RuleList, RuleParams, RuleState, RuleStateBody, RulesQuery } from './rules.js';
import { PlayerScore, RankRow } from './scores.js';
import { CommunityList, Health, Metrics, ScorerDefence, ScorerInstance, ScorerList, ScorerListQuery } from './system.js';
import { BulkBody, BulkRecorded, BulkResult } from './bulk.js';
import { DecisionCounts, TeamFiguresAnswer, TeamModerator, TeamQuery, TeamRule, TeamWait } from './team.js';

export const NAMED_SCHEMAS = [
  BatchProblem,
  ErrorBody,
  Event,
  EventBatch,
  EventLines,
  IngestOutcome,
  IngestLimits,
  PlayerParams,
  PlayerQuery,
  PlayerScore,
  PlayerScores,
  ExplainQuery,
  Explanation,
  HistoryQuery,
  HistoryPoint,
  History,
  Erasure,
  RankingParams,
  RankingQuery,
  RankRow,
  Ranking,
  AlertQuery,
  AlertStreamQuery,
  Alert,
  AlertList,
  AlertStream,
  Health,
  ScorerDefence,
  ScorerInstance,
  ScorerList,
  ScorerListQuery,
  CommunityList,
  Metrics,
  PlayerVerdictBody,
  ReportVerdictBody,
  NoteBody,
  SanctionBody,
  AppealBody,
  DecisionBody,
  AppealParams,
  Recorded,
  AuditQuery,
  AuditEntry,
  AuditPage,
  AuditLines,
  AuditCsv,
  RulesQuery,
  RuleState,
  RuleList,
  RuleParams,
  RuleStateBody,
  Me,
  QueueQuery,
  QueueWeights,
  QueueScore,
  QueueRow,
  Queue,
  CaseQuery,
  CaseScore,
  PlayerRecord,
  EvidenceEntry,
  Claim,
  ClaimBody,
  ClaimQuery,
  PlayerCase,
  BulkBody,
  BulkResult,
  BulkRecorded,
  TeamQuery,
  DecisionCounts,
  TeamWait,
  TeamModerator,
  TeamRule,
  TeamFiguresAnswer,
  OwnAppealBody,
  PlayerView,
  PlayerViewQuery,
  ReportsQuery,
  ReportOutcomes,
  TokenBody,
  PlayerTokenAnswer,
] as const;
