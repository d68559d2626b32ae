/**
 * The defence settings each scenario is run against: `published` (every defence off: the paper's
 * method exactly), each defence of the attacked scorer alone, and `recommended` (the settings the
 * docs advise a live community to run, exported by each scorer's parameters).
 */
import type { AttackScenario } from './types.js';

export interface DefenceSetting {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export const PUBLISHED: DefenceSetting = { name: 'published', params: {} };

const SETTINGS: Readonly<Record<AttackScenario['scorer'], readonly DefenceSetting[]>> = {
  reports: [PUBLISHED],
  trust: [PUBLISHED],
  chat: [PUBLISHED],
  reliability: [PUBLISHED],
};

export function defenceSettings(scorer: AttackScenario['scorer']): readonly DefenceSetting[] {
  return SETTINGS[scorer];
}

/** Whether `setting` is the one the targets are checked on. */
export function isRecommended(setting: DefenceSetting): boolean {
  return setting.name === 'recommended';
}
