/**
 * The attack suite (`standing simulate attacks`): one seeded honest community, every scenario run
 * against it under each defence setting, each row with the attacker's cost and the effect.
 */
import { seededRng } from '../../util/random.js';
import { chatFarming } from './chat-farming.js';
import { DEFAULT_COMMUNITY_OPTIONS, generateHonestCommunity, type HonestCommunity, type HonestCommunityOptions } from './community.js';
import { honestCosts, type HonestCostRow } from './honest.js';
import { reliabilityFarming } from './reliability-farming.js';
import { reportsInsiders } from './reports-insiders.js';
import { reportsOutsiders } from './reports-outsiders.js';
import { reportsRetaliation } from './reports-retaliation.js';
import { trustSybilRing } from './trust-sybil-ring.js';
import type { AttackRow, AttackScenario, Curve } from './types.js';

export const SCENARIOS: readonly AttackScenario[] = [reportsOutsiders, reportsInsiders, reportsRetaliation, trustSybilRing, chatFarming, reliabilityFarming];

export function scenarioNames(): string[] {
  return SCENARIOS.map((s) => s.name);
}

export interface AttackSuiteOptions extends Partial<Omit<HonestCommunityOptions, 'rng'>> {
  readonly seed: number;
  /** Scenario names; every scenario when absent or empty. */
  readonly attacks?: readonly string[];
}

export interface CommunitySummary {
  readonly seed: number;
  readonly players: number;
  readonly trulyBad: number;
  readonly matches: number;
  readonly events: number;
  readonly days: number;
  readonly eventsByType: Readonly<Record<string, number>>;
}

export interface AttackSuiteResult {
  readonly community: CommunitySummary;
  readonly attacks: readonly AttackRow[];
  /** What each defence setting costs the honest rankings of the attacked scorers. */
  readonly honest: readonly HonestCostRow[];
  readonly curves: readonly Curve[];
}

/** The honest community of the suite for `options` (seeded by `options.seed`). */
export function suiteCommunity(options: AttackSuiteOptions): HonestCommunity {
  return generateHonestCommunity({
    players: options.players ?? DEFAULT_COMMUNITY_OPTIONS.players,
    badShare: options.badShare ?? DEFAULT_COMMUNITY_OPTIONS.badShare,
    matchesPerPlayer: options.matchesPerPlayer ?? DEFAULT_COMMUNITY_OPTIONS.matchesPerPlayer,
    teamSize: options.teamSize ?? DEFAULT_COMMUNITY_OPTIONS.teamSize,
    days: options.days ?? DEFAULT_COMMUNITY_OPTIONS.days,
    rng: seededRng(options.seed),
  });
}

/** What a simulation's JSON says of the generated community it ran on. */
export function communityFigures(community: HonestCommunity, seed: number): { seed: number; players: number; trulyBad: number; matches: number; events: number; days: number } {
  return {
    seed,
    players: community.players.length,
    trulyBad: community.bad.size,
    matches: community.matches,
    events: community.events.length,
    days: Math.round((community.end - community.start) / 86_400_000),
  };
}

/** Runs the chosen scenarios (every one by default), in the suite's order. */
export function runAttackSuite(options: AttackSuiteOptions, community: HonestCommunity = suiteCommunity(options)): AttackSuiteResult {
  const wanted = options.attacks === undefined || options.attacks.length === 0 ? undefined : new Set(options.attacks);
  const chosen = SCENARIOS.filter((s) => wanted === undefined || wanted.has(s.name));
  const rows: AttackRow[] = [];
  const curves: Curve[] = [];
  for (const scenario of chosen) {
    const result = scenario.run({ community, seed: options.seed });
    rows.push(...result.rows);
    curves.push(...result.curves);
  }
  const eventsByType: Record<string, number> = {};
  for (const e of community.events) eventsByType[e.type] = (eventsByType[e.type] ?? 0) + 1;
  return {
    community: { ...communityFigures(community, options.seed), eventsByType },
    attacks: rows,
    honest: honestCosts(community, [...new Set(chosen.map((s) => s.scorer))]),
    curves,
  };
}
