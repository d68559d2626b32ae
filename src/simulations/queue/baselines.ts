/**
 * The orders a studio reads its reports in without standing, from the raw `report` events:
 *
 * - **most reports**: players by the reports they received, most first; ties by the newest
 *   report received, newest first; then by player id.
 * - **latest report**: the report inbox read newest first: players by the time of the newest
 *   report they received, newest first; ties by the reports received, most first; then by player id.
 *
 * Every report counts, whoever sent it and whatever a moderator's verdict on it: these are the
 * counts a report inbox shows. Players nobody reported are not in either order.
 */
import type { StandingEvent } from '../../events/types.js';

export const BASELINES = ['most reports', 'latest report'] as const;
export type Baseline = (typeof BASELINES)[number];

interface Received {
  readonly player: string;
  count: number;
  latest: number;
}

function receivedBy(events: readonly StandingEvent[], community: string): Received[] {
  const byPlayer = new Map<string, Received>();
  for (const e of events) {
    if (e.type !== 'report' || e.community !== community) continue;
    const r = byPlayer.get(e.to);
    if (r === undefined) byPlayer.set(e.to, { player: e.to, count: 1, latest: e.time });
    else {
      r.count++;
      r.latest = Math.max(r.latest, e.time);
    }
  }
  return [...byPlayer.values()];
}

const byId = (a: Received, b: Received) => (a.player < b.player ? -1 : a.player > b.player ? 1 : 0);

/** The players of `community` in the order `baseline` reads them, first first. */
export function baselineOrder(baseline: Baseline, events: readonly StandingEvent[], community: string): string[] {
  const received = receivedBy(events, community);
  const compare =
    baseline === 'most reports'
      ? (a: Received, b: Received) => b.count - a.count || b.latest - a.latest || byId(a, b)
      : (a: Received, b: Received) => b.latest - a.latest || b.count - a.count || byId(a, b);
  return received.sort(compare).map((r) => r.player);
}
