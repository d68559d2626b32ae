/**
 * The defence settings everything that runs a configuration chooses between (`standing serve`,
 * the cluster's roles, `standing rank`, `explain` and `evaluate`): `recommended`, each scorer's
 * recommended defences (its module's `recommended` setting, docs/abuse.md#the-settings-to-run)
 * under the parameters given, or `published`, the parameters given over the scorer's defaults,
 * which are its paper's method. Explicit parameters always win over the preset. Which defences
 * an instance runs, and which of them wait, per community, for events they read: `defencesOn`.
 */
import { formatParams } from '../params/format.js';
import type { EventType } from '../events/types.js';
import { scorerModule } from './index.js';
import type { AnyScorer } from './scorer.js';

export const DEFENCES = ['recommended', 'published'] as const;

/** `recommended`: each scorer's recommended defences under the given parameters; `published`: none. */
export type Defences = (typeof DEFENCES)[number];

/** What running a configuration uses when it names no setting. */
export const DEFAULT_DEFENCES: Defences = 'recommended';

/** Whether `value` names a defence setting. */
export function isDefences(value: unknown): value is Defences {
  return value === 'recommended' || value === 'published';
}

/** The recommended defences of scorer `id`: its module's `recommended` setting (none without one). */
export function recommendedDefences(id: string): Readonly<Record<string, unknown>> {
  return scorerModule(id)?.defences.find((setting) => setting.name === 'recommended')?.params ?? {};
}

/** The parameters a scorer's instance gets under `defences` before its own: the recommended defences, or none. */
export function defencePreset(id: string, defences: Defences): Readonly<Record<string, unknown>> {
  return defences === 'recommended' ? recommendedDefences(id) : {};
}

/** `params` over the preset of `defences`: what an instance of scorer `id` is resolved from. */
export function withDefences(id: string, defences: Defences, params: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return { ...defencePreset(id, defences), ...params };
}

/** One defence an instance runs: a parameter away from its published value. */
export interface DefenceOn {
  readonly param: string;
  /** Its value, as `key=value` text shows it. */
  readonly value: string;
  /** The event type it reads: it engages in a community at the first one (Scorer.defencesNeed). */
  readonly needs?: EventType;
}

/**
 * The defences `params` (resolved) turn on for `scorer`: each parameter its recommended defences
 * or its `defencesNeed` name whose value differs from the published default, in that order.
 */
export function defencesOn(scorer: AnyScorer, params: Readonly<Record<string, unknown>>): DefenceOn[] {
  const published = scorer.params.defaults as Record<string, unknown>;
  const needs = scorer.defencesNeed ?? {};
  const keys = [...new Set([...Object.keys(recommendedDefences(scorer.id)), ...Object.keys(needs)])];
  const text = (value: unknown) => formatParams({ v: value }).slice(2);
  return keys
    .filter((param) => param in params && text(params[param]) !== text(published[param]))
    .map((param) => ({ param, value: text(params[param]), ...(needs[param] === undefined ? {} : { needs: needs[param] }) }));
}
