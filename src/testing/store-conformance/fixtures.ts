/** The events and alerts the conformance suites store. */
import type { StandingEvent } from '../../events/types.js';
import type { NewAlert } from '../../store/types.js';

export const action = (player: string, delta: number, extra: Record<string, unknown> = {}): StandingEvent => ({
  type: 'action',
  time: 1_714_586_400_000,
  community: 'default',
  player,
  delta,
  ...extra,
});

export const alert = (player: string): NewAlert => ({
  community: 'default',
  scorer: 'cqr T=8,x=10,k=4',
  player,
  threshold: 'cqr-low',
  kind: 'raised',
  score: -60.5,
  sequence: 3,
  time: 1_714_586_400_000,
});

export const playerOf = (event: StandingEvent): string => (event as { player: string }).player;

/** An event at `time` in `community` with `fields`, unchecked. */
export const at = (time: number, community: string, fields: Record<string, unknown>): StandingEvent => ({ time, community, ...fields }) as unknown as StandingEvent;

/** A report and what moderators did about it and about bob, in two communities, and one event that is no moderator event. */
export const moderatorEvents: readonly StandingEvent[] = [
  at(1, 'default', { type: 'report', id: 'r1', from: 'ann', to: 'bob' }),
  at(2, 'default', { type: 'note', player: 'bob', text: 'toxic in chat', moderator: 'mia' }),
  at(3, 'default', { type: 'sanction', id: 's1', player: 'bob', action: 'suspend', until: 10, reason: 'r', moderator: 'mia' }),
  at(3, 'eu', { type: 'sanction', player: 'bob', action: 'warn', reason: 'r', moderator: 'ole' }),
  at(4, 'default', { type: 'verdict', on: 'report', report: 'r1', outcome: 'upheld', moderator: 'ole' }),
  at(5, 'default', { type: 'verdict', on: 'report', from: 'cid', to: 'dee', outcome: 'dismissed', moderator: 'mia' }),
  at(6, 'default', { type: 'appeal', id: 'a1', player: 'bob', status: 'opened', sanction: 's1' }),
  at(7, 'default', { type: 'appeal', player: 'bob', status: 'granted', appeal: 'a1', moderator: 'ole' }),
  at(8, 'default', { type: 'action', player: 'bob', delta: 1, moderator: 'not a moderator event' }),
];

/** The moderation listing of `entries`, one line each: `community/sequence action player moderator`. */
export const listed = (entries: readonly { community: string; sequence: number; action: string; player?: string; moderator?: string }[]): string[] =>
  entries.map((e) => `${e.community}/${e.sequence} ${e.action} ${e.player ?? '-'} ${e.moderator ?? '-'}`);
