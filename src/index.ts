/**
 * standing — the pure core: events, parameters, scorers, quality domains, engine, evaluation and
 * errors. It loads nothing of the service stack (fastify, pg, better-sqlite3, pino, prom-client,
 * typebox): the event store is `standing/store` and the service `standing/service`. Modules not
 * exported from one of the three are internal.
 */

// Events (docs/spec.md §1)
export { EVENT_TYPES, DEFAULT_COMMUNITY } from './events/types.js';
export type {
  StandingEvent,
  EventType,
  EventOfType,
  ActionEvent,
  MatchStartEvent,
  MatchEndEvent,
  DisconnectEvent,
  MatchResumeEvent,
  RatingEvent,
  ReportEvent,
  PlayedEvent,
  ChatEvent,
  VerdictEvent,
  VerdictSubject,
  VerdictOutcome,
} from './events/types.js';
export { validateEvent } from './events/validate.js';
export { parseTime } from './events/time.js';
export { openEventSource, readEventBatches, readEvents, readLineBatches, parseEventLine, type ReadOptions } from './events/ndjson.js';
export type { EventSource, EventBatch, LineBatch } from './events/ndjson.js';

// Errors
export {
  StandingError,
  EventSyntaxError,
  EventValidationError,
  EventConflictError,
  ParameterError,
  LabelsError,
  InputError,
  BatchRejectedError,
  BatchTooLargeError,
  ConfigError,
  CheckpointError,
  SnapshotError,
  InternalError,
  describePlace,
} from './errors.js';
export type { ErrorCode, Place, BatchProblem } from './errors.js';

// Parameters
export { defineParams } from './params/define.js';
export type { ParamsDefinition, FieldReader } from './params/define.js';

// Scorers
export type { Scorer, AnyScorer, RankQuery, RankRow, ComputationStats } from './scorers/scorer.js';
export { SCORERS, scorerById, scorerIds, scorerModule, scorerModules, registerScorer, wordsOf, ScorerInvalidError, type ScorerId } from './scorers/index.js';
export { PUBLISHED } from './scorers/module.js';
export { DEFENCES, DEFAULT_DEFENCES, defencesOn, isDefences, recommendedDefences, withDefences, type Defences, type DefenceOn } from './scorers/defences.js';
export type { ScorerModule, BarSpec, BarBand, RowField, ExplainText, ObservedEvent, DefenceSetting } from './scorers/module.js';
export { genericWords } from './scorers/words.js';
export type { ScorerWords, WordsInput, EvidenceItem, Standing } from './scorers/words.js';
export { communityScorer } from './scorers/community-scorer.js';
export type { ScorerState, CommunityKind } from './scorers/community-scorer.js';
export { cqr } from './scorers/cqr/scorer.js';
export type { CqrState, CqrRow, CqrExplanation } from './scorers/cqr/scorer.js';
export { cqrParams } from './scorers/cqr/params.js';
export type { CqrParams } from './scorers/cqr/params.js';
export { readCqr } from './scorers/cqr/formula.js';
export type { CqrReading, AnnotatedDelta, DeltaFate } from './scorers/cqr/formula.js';
export { tuneCqr, defaultThresholds } from './scorers/cqr/tune.js';
export { reliability, bandOf } from './scorers/reliability/scorer.js';
export type { ReliabilityState, ReliabilityRow, ReliabilityExplanation, Band } from './scorers/reliability/scorer.js';
export { reliabilityParams, RECOMMENDED_RELIABILITY_DEFENCES } from './scorers/reliability/params.js';
export type { ReliabilityParams } from './scorers/reliability/params.js';
export type { ScoredEvent, ScoredKind } from './scorers/reliability/community.js';
export { chat, setChatReputation } from './scorers/chat/scorer.js';
export type { ChatState, ChatRow, ChatExplanation } from './scorers/chat/scorer.js';
export { chatParams, RECOMMENDED_CHAT_DEFENCES } from './scorers/chat/params.js';
export type { ChatParams, ChatRecipe } from './scorers/chat/params.js';
export { trust, trustRanking, trustStats, trustView } from './scorers/trust/scorer.js';
export type { TrustState, TrustRow, TrustExplanation } from './scorers/trust/scorer.js';
export { loadTrustRatings } from './scorers/trust/bulk.js';
export type { TrustRatings, TrustLoadOptions } from './scorers/trust/bulk.js';
export { trustParams, linearDecay, constantDecay, positiveInfluence, RECOMMENDED_TRUST_DEFENCES } from './scorers/trust/params.js';
export type { TrustParams, DecayFunction, InfluenceFunction } from './scorers/trust/params.js';
export { reports } from './scorers/reports/scorer.js';
export type { ReportsState, ReportsRow, ReportsExplanation } from './scorers/reports/scorer.js';
export { reportsParams, RECOMMENDED_REPORTS_DEFENCES } from './scorers/reports/params.js';
export type { ReportsParams } from './scorers/reports/params.js';
export { incomingCsr } from './graph/csr.js';
export type { IncomingCsr, IterationReport } from './graph/csr.js';
export type { TuneOptions, TuneResult, TuneObjective } from './scorers/cqr/tune.js';

// Quality domains (docs/spec.md §2.2)
export type { QualityDomain, AnyQualityDomain } from './quality/domain.js';
export { QualityStage } from './quality/stage.js';
export type { QualityStageOptions } from './quality/stage.js';
export { BUILTIN_DOMAINS, clustering, minecraft, forum, recommendation } from './quality/index.js';

// Engine
export { Engine, instantiate } from './engine/engine.js';
export type { ScorerInstance, EngineOptions } from './engine/engine.js';
export { replay } from './engine/replay.js';

// Evaluation (docs/spec.md §2.1, §2.4)
export { parseLabels, readLabels, isFair } from './evaluation/labels.js';
export type { Label, PlayerClass } from './evaluation/labels.js';
export { CORRESPONDENCE, correspondenceScore, rocAuc, evaluateRanking, quartileOf } from './evaluation/metrics.js';
export type { Evaluation, RankedPlayer } from './evaluation/metrics.js';

// Utilities
export { seededRng } from './util/random.js';
export type { Rng } from './util/random.js';
