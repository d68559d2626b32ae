/**
 * A service rule beyond docs/spec.md §1: every player id the service accepts must be readable and
 * erasable through /v1/players/:id, and a URL path cannot carry "." or ".." as a segment
 * (fetch and browsers resolve them, even percent-encoded). The library and the CLI accept them:
 * real logs hold such names (a player called "." in the CONDA Dota 2 chat), and no URL is involved.
 */
import type { StandingEvent } from '../events/types.js';

export const DOT_SEGMENT = 'cannot be "." or ".." in the service: a player id must be usable as a URL path segment';

/** The first player id of `event` that a URL path cannot address, as [field, reason], or undefined. */
export function unaddressablePlayer(event: StandingEvent): [field: string, reason: string] | undefined {
  switch (event.type) {
    case 'action':
    case 'disconnect':
    case 'played':
    case 'note':
    case 'sanction':
    case 'appeal':
      return dotSegment(event.player, 'player');
    case 'match.start':
      return dotSegment(event.players, 'players') ?? dotSegment(event.bots, 'bots');
    case 'rating':
    case 'report':
    case 'chat':
      return dotSegment(event.from, 'from') ?? dotSegment(event.to, 'to');
    case 'verdict':
      return dotSegment(event.from, 'from') ?? dotSegment(event.to, 'to') ?? dotSegment(event.player, 'player');
    default:
      return undefined;
  }
}

/** `ids` (one id, an array of them, or undefined) holds "." or "..": where. */
function dotSegment(ids: string | readonly string[] | undefined, field: string): [string, string] | undefined {
  if (typeof ids === 'string') return isDotSegment(ids) ? [field, DOT_SEGMENT] : undefined;
  const i = ids?.findIndex(isDotSegment) ?? -1;
  return i < 0 ? undefined : [`${field}/${i}`, DOT_SEGMENT];
}

function isDotSegment(id: string): boolean {
  return id === '.' || id === '..';
}
