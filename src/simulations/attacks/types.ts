/** The attack suite's vocabulary: a scenario, what an attack costs, what it achieves, and the targets. */
import type { Series } from '../../plots/svg.js';
import type { HonestCommunity } from './community.js';

/** What the attacker spends: accounts created or used, events sent, and the scenario's own units. */
export type Cost = Readonly<Record<string, number>>;

export interface Effect {
  /** What `value` measures, in words. */
  readonly measure: string;
  /** The headline figure; null when the attack never reached its aim within the scenario's budget. */
  readonly value: number | null;
  /** Further figures of the same run. */
  readonly [detail: string]: unknown;
}

/** One attack against one defence setting. */
export interface AttackRow {
  readonly attack: string;
  /** The defence setting: `published` (every defence off), one defence alone, or `recommended`. */
  readonly defence: string;
  /** The scorer parameters of that setting (beyond the scorer's defaults). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly cost: Cost;
  readonly effect: Effect;
  /** The target the recommended setting must meet, in words; null for the other settings. */
  readonly goal: string | null;
  readonly met: boolean | null;
}

/** A figure of a scenario: one series per defence setting. */
export interface Curve {
  readonly attack: string;
  readonly name: string;
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly Series[];
}

export interface ScenarioResult {
  readonly rows: readonly AttackRow[];
  readonly curves: readonly Curve[];
}

export interface AttackContext {
  readonly community: HonestCommunity;
  /** The suite's seed; each scenario draws its own choices from a stream derived from it and its name. */
  readonly seed: number;
}

export interface AttackScenario {
  readonly name: string;
  /** One line: what the attacker does. */
  readonly description: string;
  /** The scorer attacked. */
  readonly scorer: 'reports' | 'trust' | 'chat' | 'reliability';
  run(context: AttackContext): ScenarioResult;
}
