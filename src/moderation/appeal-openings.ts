/**
 * A player may have one open appeal per sanction (and one naming no sanction): the appeals a
 * batch of POST /v1/events opens are checked against the moderation book and against each other
 * (docs/service.md#moderation). An opening whose id is already the open appeal's is a retry, not a
 * second appeal.
 */
import type { BatchProblem } from '../errors.js';
import { DEFAULT_COMMUNITY } from '../events/types.js';

export interface OpenAppeals {
  /** The id of the player's open appeal against `sanction` (against none when undefined), if any. */
  openAppealOn(community: string, player: string, sanction: string | undefined): string | undefined;
}

/** Whether `raw` (an unvalidated event) opens an appeal. */
export const opensAppeal = (raw: unknown): boolean => typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'appeal' && (raw as { status?: unknown }).status === 'opened';

/** Why an appeal opening is refused while `open` is the player's open appeal on the same sanction. */
export function secondAppealReason(community: string, player: string, sanction: string | undefined, open: string): string {
  const against = sanction === undefined ? 'naming no sanction' : `against sanction ${JSON.stringify(sanction)}`;
  return `player ${JSON.stringify(player)} already has an open appeal (${JSON.stringify(open)}) ${against} in community ${JSON.stringify(community)}: one open appeal per sanction until a moderator decides it`;
}

/** A problem for each appeal of `raw` that would be a player's second open appeal on one sanction. */
export function secondAppeals(raw: readonly unknown[], book: OpenAppeals): BatchProblem[] {
  const problems: BatchProblem[] = [];
  const opened = new Map<string, string | undefined>();
  raw.forEach((value, index) => {
    if (!opensAppeal(value)) return;
    const { community = DEFAULT_COMMUNITY, player, sanction, id } = value as { community?: unknown; player?: unknown; sanction?: unknown; id?: unknown };
    if (typeof community !== 'string' || typeof player !== 'string' || (sanction !== undefined && typeof sanction !== 'string')) return; // validation names it
    const key = JSON.stringify([community, player, sanction ?? null]);
    const open = opened.has(key) ? opened.get(key) : book.openAppealOn(community, player, sanction);
    if (open !== undefined && open !== id) {
      problems.push({
        index,
        code: 'EVENT_CONFLICT',
        field: sanction === undefined ? 'status' : 'sanction',
        reason: secondAppealReason(community, player, sanction, open),
      });
      return;
    }
    if (!opened.has(key)) opened.set(key, typeof id === 'string' ? id : `#${index}`);
  });
  return problems;
}
