/**
 * The defence settings each scenario is run against: `published` (every defence off: the paper's
 * method exactly), each defence of the attacked scorer alone, and `recommended` (the settings the
 * docs advise a live community to run, listed by each scorer's module, src/scorers/<id>/index.ts).
 */
import { scorerModule } from '../../scorers/index.js';
import { PUBLISHED, type DefenceSetting } from '../../scorers/module.js';
import type { AttackRow, Cost, Effect } from './types.js';

export { PUBLISHED, type DefenceSetting };

/** The settings the attacked scorer's module lists; `published` alone for a scorer that lists none. */
export function defenceSettings(scorer: string): readonly DefenceSetting[] {
  const settings = scorerModule(scorer)?.defences ?? [];
  return settings.length === 0 ? [PUBLISHED] : settings;
}

/** Whether `setting` is the one the targets are checked on. */
export function isRecommended(setting: DefenceSetting): boolean {
  return setting.name === 'recommended';
}

/**
 * One row of the suite: the attack's cost and effect under `setting`, with the target (in words,
 * and whether it holds) kept only for the recommended setting, the one the targets are checked on.
 */
export function attackRow(attack: string, setting: DefenceSetting, cost: Cost, effect: Effect, target: { goal: string; met: boolean } | null): AttackRow {
  const checked = isRecommended(setting) && target !== null;
  return { attack, defence: setting.name, params: setting.params, cost, effect, goal: checked ? target.goal : null, met: checked ? target.met : null };
}
