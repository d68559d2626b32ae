/** The scenarios `simulate queue` runs: the honest community, and each attack after its log. */
import { combined } from './combined.js';
import { farmingChat, farmingReliability, sybilRing } from './other-attacks.js';
import { insiders, outsiders, retaliation } from './report-brigades.js';
import { spammers } from './report-spam.js';
import type { QueueAttack } from './types.js';

/** The honest community as it is: no attack. */
export const HONEST = 'honest';

export const QUEUE_ATTACKS: readonly QueueAttack[] = [outsiders, insiders, retaliation, spammers, combined, sybilRing, farmingChat, farmingReliability];

/** The scenario names `simulate queue` knows: `honest` and the attacks, in the order they run. */
export function queueScenarioNames(): string[] {
  return [HONEST, ...QUEUE_ATTACKS.map((a) => a.name)];
}
