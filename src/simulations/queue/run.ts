/**
 * `standing simulate queue`: how well the attention queue finds the truly bad players of the
 * attack suite's generated community, honest and under each attack, beside the orders a studio
 * reads reports in today (./baselines.ts). For each scenario the log (the honest log, plus the
 * attack's events) is read by a QueueReader under each configuration: the CLI's goes through a
 * whole service and reads the queue as `GET /v1/queue` does (../../app/queue-service.ts).
 *
 * Measured: precision at k (the share of the first k places held by truly bad players) for
 * k = 10, 50, 100 and the number of truly bad players, the places of the attack's innocent
 * targets, and those of the truly bad players it tries to hide. Attacker accounts are neither:
 * one in the first k is a miss.
 */
import type { StandingEvent } from '../../events/types.js';
import { COMMUNITY, type HonestCommunity, type HonestCommunityOptions } from '../attacks/community.js';
import { communityFigures, suiteCommunity } from '../attacks/suite.js';
import { HONEST, QUEUE_ATTACKS, queueScenarioNames } from './scenarios.js';
import type { AttackLog } from './types.js';
import { BASELINES, baselineOrder, type Baseline } from './baselines.js';
import { placesIn, precisionAt } from './precision.js';

/** The fixed k of precision at k; the number of truly bad players is measured beside them. */
export const QUEUE_KS = [10, 50, 100] as const;
/** The target (issue 28): the recommended queue's precision at the number of truly bad players, in every scenario… */
export const TARGET_PRECISION = 0.9;
/** …its least lead over the most-reports order's where report spam misleads that order… */
export const TARGET_LEAD = 0.25;
export const SPAMMED: readonly string[] = ['reports/spammers', 'reports/combined'];
/** …and the places no innocent target may take under the outsider and insider brigades. */
export const INNOCENT_CUTOFF = 50;
export const BRIGADED: readonly string[] = ['reports/outsiders', 'reports/insiders', 'reports/combined'];

export const QUEUE_GOAL =
  `the recommended queue: precision at the number of truly bad players ≥ ${TARGET_PRECISION} in every scenario, ` +
  `and ≥ the most-reports order's + ${TARGET_LEAD} under ${SPAMMED.join(' and ')}; ` +
  `no innocent target in the first ${INNOCENT_CUTOFF} places under ${BRIGADED.join(', ')}`;

/** The configurations the queue runs under: every scorer's published method, or its recommended defences. */
export const CONFIGURATIONS = ['undefended', 'recommended'] as const;
export type Configuration = (typeof CONFIGURATIONS)[number];

/**
 * The queue's players in rank order under `configuration`, after `events` (of `community`'s
 * generated log, community name `name`). The CLI passes a whole service's (../../app/queue-service.ts);
 * this layer does not build one.
 */
export type QueueReader = (configuration: Configuration, community: HonestCommunity, events: readonly StandingEvent[], name: string) => Promise<readonly string[]>;

export interface QueueSimulationOptions extends Partial<Omit<HonestCommunityOptions, 'rng'>> {
  readonly seed: number;
  /** Scenario names (`honest` and the attacks); every one when absent or empty. */
  readonly scenarios?: readonly string[];
  /** Configurations; both when absent or empty. */
  readonly configurations?: readonly Configuration[];
}

export interface Place {
  readonly player: string;
  /** 1-based place in the order; null when the player is not in it. */
  readonly place: number | null;
}

export interface OrderRow {
  readonly scenario: string;
  /** `queue`, or a baseline's name. */
  readonly order: 'queue' | Baseline;
  /** The configuration the queue ran under; null for a baseline (it reads the raw reports). */
  readonly configuration: Configuration | null;
  /** Players in the order. */
  readonly length: number;
  /** Precision at each k of `ks`, keyed by k. */
  readonly precision: Readonly<Record<string, number>>;
  readonly innocents: readonly Place[];
  readonly hidden: readonly Place[];
}

/** Whether the recommended queue meets the target on one scenario. */
export interface TargetCheck {
  readonly scenario: string;
  /** Precision at the number of truly bad players: the recommended queue's and the most-reports order's. */
  readonly precision: number;
  readonly mostReports: number;
  /** Whether the lead over the most-reports order is part of the target here (SPAMMED). */
  readonly leadChecked: boolean;
  /** Innocent targets in the first INNOCENT_CUTOFF places of the recommended queue; null where not checked (not BRIGADED). */
  readonly innocentsInCutoff: number | null;
  readonly met: boolean;
}

export interface QueueSimulationResult {
  readonly community: { readonly seed: number; readonly players: number; readonly trulyBad: number; readonly matches: number; readonly events: number; readonly days: number };
  /** The k measured, ascending: QUEUE_KS and the number of truly bad players. */
  readonly ks: readonly number[];
  readonly scenarios: readonly { readonly name: string; readonly description: string; readonly events: number }[];
  readonly rows: readonly OrderRow[];
  /** The target, in words, and its check per scenario (present when the recommended configuration ran). */
  readonly goal: string;
  readonly targets: readonly TargetCheck[];
}

function attackOf(name: string, community: HonestCommunity, seed: number): { description: string; log: AttackLog } {
  if (name === HONEST) return { description: 'no attack', log: { events: [], innocents: [], hidden: [] } };
  const attack = QUEUE_ATTACKS.find((a) => a.name === name);
  if (attack === undefined) throw new RangeError(`unknown queue scenario "${name}" (known: ${queueScenarioNames().join(', ')})`);
  return { description: attack.description, log: attack.log(community, seed) };
}

function rowOf(scenario: string, order: OrderRow['order'], configuration: Configuration | null, players: readonly string[], community: HonestCommunity, ks: readonly number[], log: AttackLog): OrderRow {
  const places = (list: readonly string[]) => placesIn(players, list).map((place, i) => ({ player: list[i]!, place }));
  return {
    scenario,
    order,
    configuration,
    length: players.length,
    precision: Object.fromEntries(ks.map((k) => [String(k), precisionAt(players, community.bad, k)])),
    innocents: places(log.innocents),
    hidden: places(log.hidden),
  };
}

/** The target's check on one scenario's rows; undefined when the recommended queue did not run. */
export function targetCheck(scenario: string, rows: readonly OrderRow[], trulyBad: number): TargetCheck | undefined {
  const queue = rows.find((r) => r.order === 'queue' && r.configuration === 'recommended');
  const counts = rows.find((r) => r.order === 'most reports');
  if (queue === undefined || counts === undefined) return undefined;
  const precision = queue.precision[String(trulyBad)]!;
  const mostReports = counts.precision[String(trulyBad)]!;
  const leadChecked = SPAMMED.includes(scenario);
  const innocentsInCutoff = BRIGADED.includes(scenario) ? queue.innocents.filter((p) => p.place !== null && p.place <= INNOCENT_CUTOFF).length : null;
  // Precisions are multiples of 1/trulyBad: the lead is compared with a tolerance for their rounding.
  const met = precision >= TARGET_PRECISION && (!leadChecked || precision - mostReports >= TARGET_LEAD - 1e-9) && (innocentsInCutoff ?? 0) === 0;
  return { scenario, precision, mostReports, leadChecked, innocentsInCutoff, met };
}

export async function runQueueSimulation(options: QueueSimulationOptions, readQueue: QueueReader, community: HonestCommunity = suiteCommunity(options)): Promise<QueueSimulationResult> {
  const names = options.scenarios === undefined || options.scenarios.length === 0 ? queueScenarioNames() : queueScenarioNames().filter((n) => options.scenarios!.includes(n));
  const configurations = options.configurations === undefined || options.configurations.length === 0 ? CONFIGURATIONS : CONFIGURATIONS.filter((c) => options.configurations!.includes(c));
  const ks = [...new Set([...QUEUE_KS, community.bad.size])].sort((a, b) => a - b);
  const rows: OrderRow[] = [];
  const scenarios: QueueSimulationResult['scenarios'][number][] = [];
  const targets: TargetCheck[] = [];
  for (const name of names) {
    const { description, log } = attackOf(name, community, options.seed);
    scenarios.push({ name, description, events: log.events.length });
    const events: readonly StandingEvent[] = log.events.length === 0 ? community.events : [...community.events, ...log.events];
    const here: OrderRow[] = [];
    for (const baseline of BASELINES) here.push(rowOf(name, baseline, null, baselineOrder(baseline, events, COMMUNITY), community, ks, log));
    for (const configuration of configurations) here.push(rowOf(name, 'queue', configuration, await readQueue(configuration, community, events, COMMUNITY), community, ks, log));
    rows.push(...here);
    const target = targetCheck(name, here, community.bad.size);
    if (target !== undefined) targets.push(target);
  }
  return {
    community: communityFigures(community, options.seed),
    ks,
    scenarios,
    rows,
    goal: QUEUE_GOAL,
    targets,
  };
}
