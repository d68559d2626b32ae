/**
 * A backtest (`standing backtest`, docs/moderation.md#backtests): a log replayed through the
 * engine as `standing rank` replays it, with the configuration's scorers and quality domains and
 * its rules as a stage (../moderation/rules/stage.ts), reporting per rule what it would have done. The log's own
 * rule actions are left out (what rules did when it was written is not what these would do);
 * people's verdicts, lifts and appeals stay, so precision and recall are measured against them.
 */
import { replay } from '../engine/replay.js';
import { Engine } from '../engine/engine.js';
import type { EventSource } from '../events/ndjson.js';
import { BUILTIN_DOMAINS } from '../quality/index.js';
import { QualityStage } from '../quality/stage.js';
import { configuredInstances, configuredRules, type ServiceConfig } from './config.js';
import type { CommunityRules } from '../moderation/rules/fold.js';
import { decisionsOf, reportRules, type RuleDecision, type RuleReport } from '../moderation/rules/report.js';
import { RuleStage, type RuleNotice } from '../moderation/rules/stage.js';

export interface BacktestOutcome {
  /** Events replayed. */
  readonly events: number;
  /** Communities reported on. */
  readonly communities: readonly string[];
  readonly reports: readonly RuleReport[];
  /** Every action the rules would have taken, in time order. */
  readonly decisions: readonly RuleDecision[];
  /** The circuit breakers' trips and resumptions. */
  readonly notices: readonly RuleNotice[];
}

export interface BacktestOptions {
  /** Report on this community only (every community is replayed all the same: one pass). */
  readonly community?: string;
}

/** Replays `source` with `config`'s scorers and rules and reports what the rules would have done. */
export async function backtest(config: ServiceConfig, source: EventSource, options: BacktestOptions = {}): Promise<BacktestOutcome> {
  const instances = configuredInstances(config);
  const rules = configuredRules(config);
  const stage = new RuleStage(rules, instances, { tailShare: config.queue.tailShare, foldRuleEvents: false });
  const engine = new Engine(instances, { quality: new QualityStage({ domains: BUILTIN_DOMAINS, options: config.quality }), stage });
  const { events } = await replay(engine, source);
  const communities = stage.communityNames().filter((c) => options.community === undefined || c === options.community);
  const states = new Map(communities.map((c) => [c, stage.stateOf(c)!] as [string, CommunityRules]));
  return {
    events,
    communities,
    reports: reportRules(rules.list, states),
    decisions: decisionsOf(states, new Set(rules.list.map((r) => r.name))),
    notices: stage.notices().filter((n) => options.community === undefined || n.community === options.community),
  };
}
