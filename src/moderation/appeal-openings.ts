/**
 * An appeal is against a sanction of the appealing player, or names none, and a player may have
 * one open appeal per sanction (and one naming no sanction) (docs/service.md#moderation): an
 * opening is checked against the moderation book — one at a time by POST
 * /v1/players/{id}/appeals, and those of a batch of POST /v1/events against the book and against
 * each other, in `standing serve` and in a cluster's workers alike. An opening whose id is
 * already the open appeal's is a retry, not a second appeal.
 */
import type { BatchProblem } from '../errors.js';
import { DEFAULT_COMMUNITY } from '../events/types.js';

export interface OpenAppeals {
  /** The id of the player's open appeal against `sanction` (against none when undefined), if any. */
  openAppealOn(community: string, player: string, sanction: string | undefined): string | undefined;
  /** Whether `player` has a sanction (of any state) with event id `sanction`. */
  hasSanction(community: string, player: string, sanction: string): boolean;
}

/** Whether `raw` (an unvalidated event) opens an appeal. */
export const opensAppeal = (raw: unknown): boolean => typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'appeal' && (raw as { status?: unknown }).status === 'opened';

/** Why an appeal opening is refused while `open` is the player's open appeal on the same sanction. */
function secondAppealReason(community: string, player: string, sanction: string | undefined, open: string): string {
  const against = sanction === undefined ? 'naming no sanction' : `against sanction ${JSON.stringify(sanction)}`;
  return `player ${JSON.stringify(player)} already has an open appeal (${JSON.stringify(open)}) ${against} in community ${JSON.stringify(community)}: one open appeal per sanction until a moderator decides it`;
}

/**
 * Why opening an appeal with event id `id` for `player` against `sanction` (none when undefined)
 * would be the player's second open appeal on it, the appeals open being `book`'s; undefined when
 * it would not.
 */
export function secondAppeal(book: Pick<OpenAppeals, 'openAppealOn'>, community: string, player: string, sanction: string | undefined, id: unknown): string | undefined {
  const open = book.openAppealOn(community, player, sanction);
  return open !== undefined && open !== id ? secondAppealReason(community, player, sanction, open) : undefined;
}

/** Why an appeal of `player` may not name `sanction`: the player has no sanction with that id (none at all, or it is another player's). */
export function unknownSanction(community: string, player: string, sanction: string): string {
  return `names no sanction of player ${JSON.stringify(player)} in community ${JSON.stringify(community)}: an appeal is against a sanction of the player who appeals (the sanction event's id), or names none`;
}

/**
 * A problem for each appeal `raw` opens against a sanction its player does not have (field
 * `sanction`), or that would be a player's second open appeal on one sanction (field `sanction`,
 * or `status` for an appeal naming none); all EVENT_CONFLICT.
 */
export function appealOpeningProblems(raw: readonly unknown[], book: OpenAppeals): BatchProblem[] {
  const problems: BatchProblem[] = [];
  // The batch's first opening on a sanction is the open appeal its later openings meet.
  const opened = new Map<string, string>();
  const keyOf = (community: string, player: string, sanction: string | undefined) => JSON.stringify([community, player, sanction ?? null]);
  const withBatch: Pick<OpenAppeals, 'openAppealOn'> = {
    openAppealOn: (community, player, sanction) => {
      const key = keyOf(community, player, sanction);
      return opened.has(key) ? opened.get(key) : book.openAppealOn(community, player, sanction);
    },
  };
  raw.forEach((value, index) => {
    if (!opensAppeal(value)) return;
    const { community = DEFAULT_COMMUNITY, player, sanction, id } = value as { community?: unknown; player?: unknown; sanction?: unknown; id?: unknown };
    if (typeof community !== 'string' || typeof player !== 'string' || (sanction !== undefined && typeof sanction !== 'string')) return; // validation names it
    // A batch of POST /v1/events holds no sanction (moderator events are refused there): the book has every one.
    if (sanction !== undefined && !book.hasSanction(community, player, sanction)) {
      problems.push({ index, code: 'EVENT_CONFLICT', field: 'sanction', reason: unknownSanction(community, player, sanction) });
      return;
    }
    const reason = secondAppeal(withBatch, community, player, sanction, id);
    if (reason !== undefined) {
      problems.push({ index, code: 'EVENT_CONFLICT', field: sanction === undefined ? 'status' : 'sanction', reason });
      return;
    }
    const key = keyOf(community, player, sanction);
    if (!opened.has(key)) opened.set(key, typeof id === 'string' ? id : `#${index}`);
  });
  return problems;
}
