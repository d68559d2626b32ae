/**
 * The defence settings each scenario is run against: `published` (every defence off: the paper's
 * method exactly), each defence of the attacked scorer alone, and `recommended` (the settings the
 * docs advise a live community to run, exported by each scorer's parameters).
 */
import { RECOMMENDED_CHAT_DEFENCES } from '../../scorers/chat/params.js';
import { RECOMMENDED_RELIABILITY_DEFENCES } from '../../scorers/reliability/params.js';
import { RECOMMENDED_REPORTS_DEFENCES } from '../../scorers/reports/params.js';
import { RECOMMENDED_TRUST_DEFENCES } from '../../scorers/trust/params.js';
import type { AttackRow, AttackScenario, Cost, Effect } from './types.js';

export interface DefenceSetting {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export const PUBLISHED: DefenceSetting = { name: 'published', params: {} };

const SETTINGS: Readonly<Record<AttackScenario['scorer'], readonly DefenceSetting[]>> = {
  reports: [
    PUBLISHED,
    { name: 'shared match', params: { sharedMatchDays: RECOMMENDED_REPORTS_DEFENCES.sharedMatchDays } },
    { name: 'one voice per match', params: { sharedMatchDays: RECOMMENDED_REPORTS_DEFENCES.sharedMatchDays, oneVoicePerMatch: true } },
    { name: 'one voice per reporter', params: { oneVoicePerReporter: true } },
    { name: 'judgment split', params: { judgmentSplit: RECOMMENDED_REPORTS_DEFENCES.judgmentSplit } },
    { name: 'verdicts', params: { accuracyPrior: RECOMMENDED_REPORTS_DEFENCES.accuracyPrior } },
    { name: 'recommended', params: RECOMMENDED_REPORTS_DEFENCES },
  ],
  trust: [PUBLISHED, { name: 'recommended', params: RECOMMENDED_TRUST_DEFENCES }],
  chat: [
    PUBLISHED,
    { name: 'recommended', params: RECOMMENDED_CHAT_DEFENCES },
  ],
  reliability: [
    PUBLISHED,
    { name: 'repeated opponents', params: { repeatWeight: RECOMMENDED_RELIABILITY_DEFENCES.repeatWeight } },
    { name: 'short matches', params: { minMatchMinutes: RECOMMENDED_RELIABILITY_DEFENCES.minMatchMinutes } },
    { name: 'recommended', params: RECOMMENDED_RELIABILITY_DEFENCES },
  ],
};

export function defenceSettings(scorer: AttackScenario['scorer']): readonly DefenceSetting[] {
  return SETTINGS[scorer];
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
