/** What `simulate queue` adds to the honest log for one scenario. */
import type { StandingEvent } from '../../events/types.js';
import { MINUTE, type HonestCommunity } from '../attacks/community.js';

/** What an attack adds to the honest log. */
export interface AttackLog {
  /** The attack's events, dated after the honest log, in time order. */
  readonly events: readonly StandingEvent[];
  /** Honest players the attack aims to put in front of moderators. */
  readonly innocents: readonly string[];
  /** Truly bad players the attack aims to hide from moderators. */
  readonly hidden: readonly string[];
}

export interface QueueAttack {
  readonly name: string;
  /** One line: what the attacker does, at which budget. */
  readonly description: string;
  log(community: HonestCommunity, seed: number): AttackLog;
}

/** The attacks' first events come an hour after the honest log's last. */
export function attackStart(community: HonestCommunity): number {
  return community.end + 60 * MINUTE;
}
